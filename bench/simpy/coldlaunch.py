"""The cold-launch sweep of Scripts/experiments/coldlaunch.lua, as a plain SimPy
model: the peer `lifesim bench --peer` measures lifesim against.

Same workload and parameters: 30 apps (footprints 40 + (67 k mod 201) MB, every
10th plays audio, apps 2, 7, 12, ... save at the end of a 20 s background task,
every 3rd saves only at termination), opened with Zipf(1.1) popularity, a switch
every 180 s on average (exponential gaps), for 7 days; jetsam above 95 % of RAM
kills by band then least recently used ("bands") or by least recently used
alone ("lru"); a kill with unsaved changes is a data loss. No lifecycle
callbacks, no watchdogs, no scenes: it is the toy model lifesim is compared to.

    python3 coldlaunch.py [--seeds 20] [--days 7] [--json]

prints the grid's mean metrics and, with --json, {"runs": n, "seconds": t}.
"""
import argparse
import json
import random
import time

import simpy

APPS = 30
JETSAM_AT = 0.95
SWITCH_MEAN = 180.0
SYNC_SECONDS = 20.0
ZIPF = 1.1


class App:
    def __init__(self, k):
        self.footprint = 40 + (k * 67) % 201
        self.audio = k % 10 == 4
        self.sync = k % 5 == 2
        self.saves_on_terminate = k % 3 == 0
        self.running = False
        self.band = 0          # 0 suspended, 3 background task, 10 foreground, 12 audio
        self.last_used = 0.0
        self.unsaved = 0
        self.epoch = 0         # bumped at each death, so a pending sync ends with its process


def run(memory_mb, policy, seed, days):
    rng = random.Random(seed)
    env = simpy.Environment()
    apps = [App(k) for k in range(1, APPS + 1)]
    weights = [1 / (k ** ZIPF) for k in range(1, APPS + 1)]
    stats = {"opens": 0, "cold": 0, "kills": 0, "loss": 0}
    front = [None]

    def used():
        return sum(a.footprint for a in apps if a.running)

    def jetsam():
        while used() > JETSAM_AT * memory_mb:
            running = [a for a in apps if a.running]
            if policy == "lru":
                victim = min(running, key=lambda a: a.last_used)
            else:
                victim = min(running, key=lambda a: (a.band, a.last_used))
            victim.running = False
            victim.epoch += 1
            stats["kills"] += 1
            if victim.unsaved:
                stats["loss"] += 1
                victim.unsaved = 0
            if victim is front[0]:
                front[0] = None

    def sync(app, epoch):
        yield env.timeout(SYNC_SECONDS)
        if app.running and app.epoch == epoch:
            app.unsaved = 0
            if app.band == 3:
                app.band = 0

    def background(app):
        app.band = 12 if app.audio else 0
        if app.saves_on_terminate:
            return
        if app.sync:
            if not app.audio:
                app.band = 3
            env.process(sync(app, app.epoch))
        else:
            app.unsaved = 0

    def user():
        while True:
            yield env.timeout(rng.expovariate(1 / SWITCH_MEAN))
            app = rng.choices(apps, weights)[0]
            while app is front[0]:
                app = rng.choices(apps, weights)[0]
            if front[0] is not None:
                background(front[0])
            stats["opens"] += 1
            if not app.running:
                stats["cold"] += 1
                app.running = True
            app.band = 10
            app.last_used = env.now
            app.unsaved += 1
            front[0] = app
            jetsam()

    env.process(user())
    env.run(until=days * 86400)
    return {
        "cold_launch_ratio": stats["cold"] / max(1, stats["opens"]),
        "kills_per_day": stats["kills"] / days,
        "data_loss_per_day": stats["loss"] / days,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--days", type=float, default=7)
    parser.add_argument("--json", action="store_true", help="print only the timing, as JSON")
    args = parser.parse_args()
    start = time.perf_counter()
    results = {}
    runs = 0
    for memory_mb in (1000, 1500, 2000, 3000, 4000):
        for policy in ("bands", "lru"):
            rows = [run(memory_mb, policy, seed, args.days) for seed in range(1, args.seeds + 1)]
            runs += len(rows)
            results[(memory_mb, policy)] = {m: sum(r[m] for r in rows) / len(rows) for m in rows[0]}
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"runs": runs, "seconds": seconds}))
        return
    for (memory_mb, policy), means in results.items():
        print(f"{memory_mb:5d} MB {policy:5s}  " + "  ".join(f"{m} {v:.3f}" for m, v in means.items()))
    print(f"{runs} runs in {seconds:.2f} s ({seconds / runs * 1000:.1f} ms a run)")


if __name__ == "__main__":
    main()
