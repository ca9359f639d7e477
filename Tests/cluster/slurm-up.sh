#!/usr/bin/env bash
# Starts a one-node Slurm cluster on this machine, from Debian's slurm-wlm and
# munge: munged, slurmctld and slurmd on localhost, one partition with this
# machine's cores. The CLI test that runs docs/experiments.md's job array calls it;
# `.ci/run` (through ./dev.sh test) installs the packages first.
#
#   Tests/cluster/slurm-up.sh          start (or find running) and wait until the node is idle
#   Tests/cluster/slurm-up.sh down     stop the daemons
#
# Exit status: 0 when the cluster is up, 77 when it cannot be started here
# (not root, or the packages are missing), with the reason on stderr, so
# that the test can skip with that message; anything else is a failure.
set -uo pipefail

skip() { echo "slurm-up: $*" >&2; exit 77; }

if [ "${1:-}" = down ]; then
  pkill -x slurmd 2>/dev/null; pkill -x slurmctld 2>/dev/null; pkill -x munged 2>/dev/null
  exit 0
fi

[ "$(id -u)" -eq 0 ] || skip "a one-node Slurm cluster needs root (slurmd starts jobs as their user)"
for cmd in munged slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$cmd" >/dev/null 2>&1 || skip "$cmd is not installed (apt-get install slurm-wlm munge)"
done

host="$(hostname -s)"
cpus="$(nproc)"

# munge: the key the package made, a socket directory, the daemon as its user.
if ! pgrep -x munged >/dev/null; then
  [ -s /etc/munge/munge.key ] || { mungekey --create --force >/dev/null 2>&1 || skip "cannot create a munge key"; }
  chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge /var/log/munge /var/lib/munge && chown munge:munge /run/munge /var/log/munge /var/lib/munge
  runuser -u munge -- /usr/sbin/munged || skip "munged did not start"
fi
munge -n 2>/dev/null | unmunge >/dev/null 2>&1 || skip "munge does not work here"

# slurm.conf for one node: no accounting, no cgroups, jobs run as root.
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=lifesim
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

pgrep -x slurmctld >/dev/null || slurmctld -c || { echo "slurm-up: slurmctld did not start; see /var/log/slurm/slurmctld.log" >&2; exit 1; }
pgrep -x slurmd >/dev/null || slurmd || { echo "slurm-up: slurmd did not start; see /var/log/slurm/slurmd.log" >&2; exit 1; }

# Wait (up to 60 s) for the node to be idle.
for _ in $(seq 1 60); do
  state="$(sinfo -h -n "$host" -o %T 2>/dev/null | head -1)"
  case "$state" in
    idle*|mixed*|allocated*) echo "slurm-up: node $host is $state ($cpus CPUs)" >&2; exit 0 ;;
    down*|drain*) scontrol update nodename="$host" state=resume >/dev/null 2>&1 ;;
  esac
  sleep 1
done
echo "slurm-up: the node did not become idle (state: ${state:-unknown}); see /var/log/slurm/" >&2
exit 1
