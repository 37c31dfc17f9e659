#!/usr/bin/env python3
"""yardstick-callgrind vs iai-callgrind: wall time of the same benchmark suite,
and the instruction counts of repeated runs (which must never change).

    python3 compare/callgrind/run.py [--runs N] [--load] [--markdown]

Needs valgrind, cargo, and iai-callgrind-runner 0.16.1 on PATH or in
IAI_CALLGRIND_RUNNER (cargo install iai-callgrind-runner --version 0.16.1).
Python 3 standard library only. Progress goes to stderr, the table to stdout.
"""

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SIDES = [("iai-callgrind 0.16.1", "cg-iai-side"), ("yardstick-callgrind", "cg-yardstick-side")]
INSTR = re.compile(r"^\s*Instructions:\s+(\d+)\|")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def bench_binary(package, target_dir):
    out = subprocess.run(
        ["cargo", "bench", "--no-run", "-p", package, "--message-format=json"],
        cwd=HERE, check=True, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "CARGO_TARGET_DIR": target_dir},
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and "bench" in msg["target"]["kind"]:
            if msg.get("executable"):
                return msg["executable"]
    sys.exit(f"no bench binary for {package}")


def run_once(exe, home, env):
    """Runs the bench binary as cargo bench would; returns (wall s, cpu s, {header: Ir}).

    CPU time is user + system of the whole process tree (the harness, its
    runner and every Valgrind child): unlike wall time it does not grow when
    other processes compete for the cores."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [exe, "--bench", f"--home={home}"], cwd=HERE, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.exit(f"{exe} failed:\n{proc.stdout}")
    counts, header = {}, None
    for line in proc.stdout.splitlines():
        m = INSTR.match(line)
        if m and header:
            counts[header] = int(m.group(1))
        elif line and not line.startswith(" "):
            header = line.split("::")[-1].strip()
    return elapsed, cpu, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="timed runs per side (default 5)")
    ap.add_argument("--load", action="store_true", help="keep one core busy (yes > /dev/null) while measuring")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    args = ap.parse_args()

    target_dir = os.environ.get("CARGO_TARGET_DIR", os.path.join(HERE, "target"))
    runner = os.environ.get("IAI_CALLGRIND_RUNNER") or shutil.which("iai-callgrind-runner")
    if not runner:
        sys.exit("iai-callgrind-runner not found: cargo install iai-callgrind-runner --version 0.16.1")
    if not shutil.which("valgrind"):
        sys.exit("valgrind not found: apt-get install valgrind")
    env = {**os.environ, "IAI_CALLGRIND_RUNNER": runner, "IAI_CALLGRIND_COLOR": "never"}

    log("building both sides (cargo bench --no-run)")
    exes = {name: bench_binary(pkg, target_dir) for name, pkg in SIDES}

    load = None
    if args.load:
        load = subprocess.Popen(["yes"], stdout=subprocess.DEVNULL)
        log(f"loading one core (pid {load.pid})")
    results = {name: ([], [], []) for name, _ in SIDES}
    homes = {name: tempfile.mkdtemp(prefix="cg-compare-") for name, _ in SIDES}
    try:
        for name, _ in SIDES:
            log(f"{name}: first run (no baseline yet)")
            run_once(exes[name], homes[name], env)
        # Interleaved, so that a busy moment of the machine hits both sides.
        for i in range(args.runs):
            for name, _ in SIDES:
                t, cpu, c = run_once(exes[name], homes[name], env)
                log(f"{name}: run {i + 1}: {t:.3f} s wall, {cpu:.3f} s cpu")
                results[name][0].append(t)
                results[name][1].append(c)
                results[name][2].append(cpu)
    finally:
        for home in homes.values():
            shutil.rmtree(home, ignore_errors=True)
        if load is not None:
            load.terminate()
            load.wait()

    iai_median = statistics.median(results[SIDES[0][0]][0])
    iai_cpu = statistics.median(results[SIDES[0][0]][2])
    rows = []
    for name, _ in SIDES:
        times, counts, cpus = results[name]
        median = statistics.median(times)
        cpu = statistics.median(cpus)
        distinct = {h: len({c.get(h) for c in counts}) for h in counts[0]}
        varying = [h for h, d in distinct.items() if d > 1]
        rows.append((name, median, min(times), max(times), median / iai_median, cpu, cpu / iai_cpu,
                     "yes" if not varying else "NO: " + ", ".join(varying),
                     "; ".join(f"{h}={counts[0][h]}" for h in counts[0])))
    head = ("harness", "median wall s", "min s", "max s", "wall vs iai-callgrind", "median cpu s", "cpu vs iai-callgrind", f"identical Ir over {args.runs} runs", "Ir (first timed run)")
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print(f"| {r[0]} | {r[1]:.3f} | {r[2]:.3f} | {r[3]:.3f} | {r[4]:.2f}x | {r[5]:.3f} | {r[6]:.2f}x | {r[7]} | {r[8]} |")
    else:
        for r in rows:
            print(f"{r[0]:<22} wall median {r[1]:.3f} s (min {r[2]:.3f}, max {r[3]:.3f}) {r[4]:.2f}x;"
                  f" cpu median {r[5]:.3f} s {r[6]:.2f}x; identical Ir: {r[7]}")
            print(f"{'':<22} {r[8]}")
    load1 = os.getloadavg()[0]
    print(f"load: {'one core busy (yes)' if args.load else 'none added'}; load average at the end {load1:.1f};"
          f" runs: {args.runs}; cores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
