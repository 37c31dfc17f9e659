#!/usr/bin/env python3
"""yardstick-divan against divan 0.1.21: clean build and time per benchmark.

Two measurements, each side by side and interleaved (never both at once):

  build   a clean `cargo bench --no-run` of the one-bench crate `divan-one`
          (its own workspace), as written for divan and after the one-line
          switch to yardstick-divan: wall time, CPU time of the build, and
          how many crates it compiled. Each repetition starts from an empty
          target directory; the two sides alternate, the first side swapped
          every repetition.
  bench   the wall time of `compare/benches/divan_workloads.rs` run under
          both harnesses (`divan-side`, `yardstick-divan-side`) at default
          settings, divided by its number of benchmarks; the yardstick side
          also with `--discard-baseline` (no files written) and with
          `--save-baseline` (the run that compares), and, when eatmydata
          is installed, with fsync made a no-op (what saving costs without
          waiting for the disk).

Every timed run records how busy the machine was with other processes
(cores, from /proc/stat minus this script's children), so a loaded run is
visible as such.

  examples  the wall time per benchmark of divan's own example files (the
          ones in crates/yardstick-divan/examples and sort.rs; search.rs
          with --search), each at its defaults under both harnesses.

Usage: python3 compare/divan_run.py [build] [bench] [examples] [--reps N] [--nice N]
       [--report]   (build the yardstick side with its `report` feature)
Python 3 standard library only. Progress on stderr, the table on stdout.
"""

import argparse
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
REPO = os.path.dirname(HERE)
DIVAN_LINE = 'divan = "0.1.21"'


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def busy_seconds():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / os.sysconf("SC_CLK_TCK")


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def timed(cmd, cwd, env=None, nice=15):
    """Runs `cmd`; returns (wall s, own CPU s, foreign cores, stdout+stderr)."""
    if nice:
        cmd = ["nice", "-n", str(nice)] + cmd
    b0, c0, t0 = busy_seconds(), children_cpu(), time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - t0
    cpu = children_cpu() - c0
    foreign = max(0.0, (busy_seconds() - b0 - cpu) / wall)
    if p.returncode != 0:
        log(p.stdout[-3000:])
        raise SystemExit(f"failed ({p.returncode}): {' '.join(cmd)}")
    return wall, cpu, foreign, p.stdout


# --------------------------------------------------------------------------
# Clean build of a one-bench crate.

def scratch_crate(root, side, report):
    """A copy of divan-one for `side`, with its dependency line switched."""
    dst = os.path.join(root, side)
    shutil.copytree(os.path.join(HERE, "divan-one"), dst,
                    ignore=shutil.ignore_patterns("target", "Cargo.lock"))
    if side == "yardstick-divan":
        path = os.path.join(REPO, "crates", "yardstick-divan")
        feats = ', features = ["report"]' if report else ""
        manifest = os.path.join(dst, "Cargo.toml")
        with open(manifest) as f:
            text = f.read()
        assert DIVAN_LINE in text, "divan-one's dependency line changed"
        text = text.replace(
            DIVAN_LINE, f'divan = {{ package = "yardstick-divan", path = "{path}"{feats} }}')
        with open(manifest, "w") as f:
            f.write(text)
    return dst


def measure_build(args):
    root = tempfile.mkdtemp(prefix="divan-build-")
    sides = ["divan", "yardstick-divan"]
    rows = {s: [] for s in sides}
    try:
        dirs = {s: scratch_crate(root, s, args.report) for s in sides}
        for s in sides:  # sources downloaded once, outside the timing
            subprocess.run(["cargo", "fetch", "--quiet"], cwd=dirs[s], check=True)
        for rep in range(args.reps):
            for s in sides if rep % 2 == 0 else sides[::-1]:
                target = os.path.join(root, "target-" + s)
                shutil.rmtree(target, ignore_errors=True)
                env = dict(os.environ, CARGO_TARGET_DIR=target, CARGO_TERM_COLOR="never")
                wall, cpu, foreign, out = timed(
                    ["cargo", "bench", "--no-run"], dirs[s], env, args.nice)
                crates = len(re.findall(r"^\s*Compiling ", out, re.M))
                rows[s].append((wall, cpu, foreign, crates))
                log(f"build {s}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
                    f"{crates} crates, other processes {foreign:.2f} cores")
                shutil.rmtree(target, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    med = {s: [statistics.median(r[i] for r in rows[s]) for i in range(4)] for s in sides}
    d, y = med["divan"], med["yardstick-divan"]
    print(f"clean `cargo bench --no-run`, one-bench crate, median of {args.reps} "
          f"(yardstick side{' with report' if args.report else ''})")
    print("| measure | divan 0.1.21 | yardstick-divan | ratio |")
    print("| --- | --- | --- | --- |")
    print(f"| wall time | {d[0]:.1f} s | {y[0]:.1f} s | {y[0] / d[0]:.2f} |")
    print(f"| CPU time of the build | {d[1]:.1f} s | {y[1]:.1f} s | {y[1] / d[1]:.2f} |")
    print(f"| crates compiled | {d[3]:.0f} | {y[3]:.0f} | {y[3] - d[3]:+.0f} |")
    print(f"| other processes (cores) | {d[2]:.2f} | {y[2]:.2f} | |")
    ratios = [rows["yardstick-divan"][i][0] / rows["divan"][i][0] for i in range(args.reps)]
    print(f"wall ratio per repetition: {', '.join(f'{r:.2f}' for r in ratios)}")


# --------------------------------------------------------------------------
# Time per benchmark.

def bench_binaries(package, names, nice):
    """Builds the benches `names` of `package`; returns {name: path}."""
    cmd = ["cargo", "bench", "--no-run", "--message-format", "json", "-p", package]
    for name in names:
        cmd += ["--bench", name]
    if nice:
        cmd = ["nice", "-n", str(nice)] + cmd
    out = subprocess.run(cmd, cwd=HERE, check=True, stdout=subprocess.PIPE, text=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.search(r'"name":"([^"]+)","src_path".*"executable":"([^"]+)"', line)
        if m and m.group(1) in names:
            found[m.group(1)] = m.group(2)
    missing = set(names) - set(found)
    if missing:
        raise SystemExit(f"no executable for {sorted(missing)} in {package}")
    return found


def bench_binary(package, nice):
    """Builds the divan_workloads bench of `package`; returns its path."""
    return bench_binaries(package, ["divan_workloads"], nice)["divan_workloads"]


def count_benchmarks(divan_exe):
    """The benchmarks of a divan bench binary: the rows of divan's table
    that have samples and iterations."""
    table = subprocess.run([divan_exe, "--bench", "--sample-count", "2"],
                           stdout=subprocess.PIPE, text=True, check=True).stdout
    return len(re.findall(r"\u2502\s*\d+\s*\u2502\s*\d+\s*$", table, re.M))


def measure_bench(args):
    bins = {"divan": bench_binary("divan-side", args.nice),
            "yardstick-divan": bench_binary("yardstick-divan-side", args.nice)}
    home = tempfile.mkdtemp(prefix="divan-bench-home-")
    env = dict(os.environ, YARDSTICK_HOME=home, CRITERION_HOME=home,
               NO_COLOR="1")
    runs = {
        "divan": (bins["divan"], ["--bench"]),
        "yardstick-divan": (bins["yardstick-divan"], ["--bench"]),
        "yardstick-divan --discard-baseline":
            (bins["yardstick-divan"], ["--bench", "--discard-baseline"]),
        "yardstick-divan --save-baseline b":
            (bins["yardstick-divan"], ["--bench", "--save-baseline", "b"]),
    }
    # What saving costs without waiting for the disk: fsync made a no-op
    # (libeatmydata), an estimate of a store that syncs less.
    if shutil.which("eatmydata"):
        runs["yardstick-divan, fsync a no-op (eatmydata)"] = (
            bins["yardstick-divan"], ["--bench"], ["eatmydata"])
    rows = {k: [] for k in runs}
    try:
        n = count_benchmarks(bins["divan"])
        for rep in range(args.reps):
            order = list(runs) if rep % 2 == 0 else list(runs)[::-1]
            for k in order:
                exe, flags, *wrapper = runs[k]
                cmd = (wrapper[0] if wrapper else []) + [exe] + flags
                wall, cpu, foreign, _ = timed(cmd, HERE, env, args.nice)
                rows[k].append((wall / n, cpu / n, foreign))
                log(f"bench {k}: {wall / n:.3f} s per benchmark, "
                    f"other processes {foreign:.2f} cores")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    base = statistics.median(r[0] for r in rows["divan"])
    print(f"\ntime per benchmark, divan_workloads.rs ({n} benchmarks), "
          f"median of {args.reps}")
    print("| run | wall per benchmark | CPU per benchmark | ratio to divan | other processes |")
    print("| --- | --- | --- | --- | --- |")
    for k, r in rows.items():
        w = statistics.median(x[0] for x in r)
        c = statistics.median(x[1] for x in r)
        f = statistics.median(x[2] for x in r)
        print(f"| {k} | {w:.3f} s | {c:.3f} s | {w / base:.2f} | {f:.2f} cores |")


# divan's own examples (search takes half a minute a run under divan; hash
# and image need their feature's crates).
EXAMPLES = ["atomic", "collections", "math", "memcpy", "scratch", "string",
            "threads", "time", "sort"]


def measure_examples(args):
    """Wall time per benchmark over divan's own example files, each run at
    its defaults under both harnesses (the yardstick side saving its
    baseline and comparing with the last run's, as by default)."""
    names = EXAMPLES + (["search"] if args.search else [])
    bins = {"divan": bench_binaries("divan-side", names, args.nice),
            "yardstick-divan": bench_binaries("yardstick-divan-side", names, args.nice)}
    counts = {name: count_benchmarks(bins["divan"][name]) for name in names}
    home = tempfile.mkdtemp(prefix="divan-examples-home-")
    env = dict(os.environ, YARDSTICK_HOME=home, CRITERION_HOME=home, NO_COLOR="1")
    walls = {side: {name: [] for name in names} for side in bins}
    try:
        # A first yardstick run leaves a baseline, so every measured one
        # compares as a user's second run does.
        for name in names:
            subprocess.run([bins["yardstick-divan"][name], "--bench"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for rep in range(args.reps):
            sides = list(bins) if rep % 2 == 0 else list(bins)[::-1]
            for name in names:
                for side in sides:
                    wall, _, foreign, _ = timed([bins[side][name], "--bench"], HERE, env,
                                                args.nice)
                    walls[side][name].append(wall)
                    log(f"examples {name} {side}: {wall:.2f} s, "
                        f"other processes {foreign:.2f} cores")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"\ndivan's examples at defaults, wall time per benchmark, median of {args.reps}")
    print("| file | benchmarks | divan | yardstick-divan | ratio |")
    print("| --- | --- | --- | --- | --- |")
    total = {side: 0.0 for side in bins}
    for name in names:
        if counts[name] == 0:
            continue  # scratch.rs: divan's empty scratch space
        med = {side: statistics.median(walls[side][name]) for side in bins}
        for side in bins:
            total[side] += med[side]
        n = counts[name]
        print(f"| {name} | {n} | {med['divan'] / n:.3f} s | "
              f"{med['yardstick-divan'] / n:.3f} s | "
              f"{med['yardstick-divan'] / med['divan']:.2f} |")
    n = sum(counts.values())
    print(f"| all | {n} | {total['divan'] / n:.3f} s | {total['yardstick-divan'] / n:.3f} s | "
          f"{total['yardstick-divan'] / total['divan']:.2f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", nargs="*", choices=["build", "bench", "examples"], default=[])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--nice", type=int, default=15,
                    help="niceness of every run (0: none); the machine may be shared")
    ap.add_argument("--search", action="store_true",
                    help="examples: include divan's search example (half a minute a run)")
    ap.add_argument("--report", action="store_true",
                    help="build the yardstick side with its `report` feature")
    args = ap.parse_args()
    what = args.what or ["build", "bench"]
    if "build" in what:
        measure_build(args)
    if "bench" in what:
        measure_bench(args)
    if "examples" in what:
        measure_examples(args)


if __name__ == "__main__":
    main()
