#!/usr/bin/env python3
"""Report cost side by side: Criterion.rs 0.8's plots against yardstick's.

Runs the comparison's bench file (`benches/workloads.rs`, four benchmarks)
under both harnesses twice per repetition on a fresh home directory: once
with `--noplot` and once with the report on, each with 100 samples and a
short measurement. The report's cost is the difference: wall time (with
plots − without) and the bytes the home directory grew by. Per benchmark,
times 100, that is the cost for a 100-benchmark suite (issue 5's targets:
at most 1/5 of Criterion.rs's plotting time, no more disk).

Criterion.rs draws with plotters (gnuplot is not installed here; if it is,
Criterion.rs uses it and the figure is gnuplot's).

    python3 compare/report_time.py [--reps 3] [--markdown]
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as common  # noqa: E402  (the comparison's building and running)

FLAGS = ["--warm-up-time", "0.05", "--measurement-time", "0.2", "--sample-size", "100"]


def tree_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    problems = []
    exes = common.build_all(problems)
    if problems:
        sys.exit("\n".join(problems))
    scratch = tempfile.mkdtemp(prefix="report-time-")
    benches = {h: common.Bench(h, exes[h], scratch) for h in common.HARNESSES}
    n_bench = len(common.WORKLOADS)
    res = {h: {"seconds": [], "bytes": []} for h in common.HARNESSES}
    for rep in range(args.reps):
        order = common.HARNESSES if rep % 2 == 0 else common.HARNESSES[::-1]
        for h in order:
            b = benches[h]
            walls, sizes = {}, {}
            for plots in (False, True):
                home = "plots" if plots else "noplot"
                b.wipe(home)
                common.wait_idle(30, 0.5)
                r = b.run(["--bench"] + FLAGS + ([] if plots else ["--noplot"]), home=home)
                if r.code != 0:
                    sys.exit(f"{h}: exit {r.code}\n{r.output()[-2000:]}")
                walls[plots] = r.wall
                sizes[plots] = tree_bytes(os.path.join(b.cwd, home))
            per = (walls[True] - walls[False]) / n_bench
            grew = (sizes[True] - sizes[False]) / n_bench
            res[h]["seconds"].append(per)
            res[h]["bytes"].append(grew)
            common.log(f"[{rep + 1}/{args.reps}] {h}: report {per * 1e3:.0f} ms and "
                       f"{grew / 1e3:.0f} kB per benchmark")
    shutil.rmtree(scratch, ignore_errors=True)

    c, y = "criterion", "yardstick"
    sc, sy = (statistics.median(res[h]["seconds"]) for h in (c, y))
    bc, by = (statistics.median(res[h]["bytes"]) for h in (c, y))
    rows = [
        ("report time per benchmark (with − without)", f"{sc:.3f} s", f"{sy:.3f} s",
         f"{sy / sc:.3f}", "<= 0.20", "met" if sy <= 0.2 * sc else "NOT met"),
        ("… for 100 benchmarks", f"{100 * sc:.0f} s", f"{100 * sy:.1f} s", "", "", ""),
        ("report size per benchmark", f"{bc / 1e3:.0f} kB", f"{by / 1e3:.0f} kB",
         f"{by / bc:.2f}", "<= 1", "met" if by <= bc else "NOT met"),
        ("… for 100 benchmarks", f"{100 * bc / 1e6:.1f} MB", f"{100 * by / 1e6:.1f} MB",
         "", "", ""),
    ]
    head = ("measure", "Criterion.rs 0.8", "yardstick", "ratio", "target", "verdict")
    notes = [f"{args.reps} repetitions, medians; {n_bench} benchmarks of "
             f"`benches/workloads.rs` per run, flags {' '.join(FLAGS)}."]
    print(common.render(head, rows, notes, args.markdown))


if __name__ == "__main__":
    main()
