#!/usr/bin/env python3
"""A/A runs of a whole suite, a minute apart: how often do cross-run
verdicts cry wolf, and how often do they catch a change?

  collect  runs one of divan's example bench files (crates/yardstick-divan/
           examples, built with `cargo bench -p yardstick-divan-examples
           --no-run`) RUNS times, unchanged, with the engine's sampling
           (`--target-precision 1`, worker processes), and keeps every
           run's sample.json under OUT/<run>/.
  replay   compares every pair of runs of every benchmark the way
           yardstick_stats::processes::compare does (re-derived here with
           numpy/scipy: Welch's t on the logarithms of the processes' fast
           ends, each run's variance s^2*(1/K + shift) + ln(1.01)^2), by
           the rule before (10th percentile, shift 1) and now (fastest
           sample, shift 2), and with a change made up by scaling one
           run's times: +10 %, +30 %, x2.

Usage: python3 compare/trust/suite_aa.py collect BENCH_BINARY OUT [--runs 4]
       python3 compare/trust/suite_aa.py replay OUT
`replay` needs numpy and scipy. The figures in guide/src/trust.md
("Whole suites, A/A a minute apart") came from collections (6 runs),
forms and string (4 runs each).
"""

import argparse
import itertools
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

THRESHOLD = 0.01


def collect(binary, out, runs):
    home = tempfile.mkdtemp(prefix="yardstick-suite-aa-")
    try:
        for r in range(1, runs + 1):
            env = dict(os.environ, CRITERION_HOME=home)
            with open(os.path.join(out, f"out.{r}"), "w") as log:
                subprocess.run([binary, "--bench", "--target-precision", "1"],
                               stdout=log, stderr=subprocess.STDOUT, env=env, check=False)
            dest = os.path.join(out, str(r))
            os.makedirs(dest, exist_ok=True)
            for root, _, files in os.walk(home):
                if root.endswith(os.sep + "new") and "sample.json" in files:
                    bench = os.path.relpath(os.path.dirname(root), home).replace(os.sep, "__")
                    shutil.copy(os.path.join(root, "sample.json"),
                                os.path.join(dest, bench + ".json"))
            print(f"run {r} of {runs} kept", file=sys.stderr)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def per_process(sample):
    """Each process's times per iteration, in order of first appearance."""
    order = list(dict.fromkeys(sample["processes"]))
    by = {p: [] for p in order}
    for n, t, p in zip(sample["iters"], sample["times"], sample["processes"]):
        by[p].append(t / n)
    return [by[p] for p in order]


def replay(out):
    import numpy as np
    from scipy import stats

    def welch(old, new, shift):
        lo, ln = np.log(old), np.log(new)
        vo = lo.var(ddof=1) * (1 / len(lo) + shift)
        vn = ln.var(ddof=1) * (1 / len(ln) + shift)
        se2 = vo + vn + 2 * math.log1p(THRESHOLD) ** 2
        est = vo * vo / (len(lo) - 1) + vn * vn / (len(ln) - 1)
        df = min(se2 * se2 / est, 1e6) if est > 0 else 1e6
        d, se = ln.mean() - lo.mean(), math.sqrt(se2)
        p = 2 * stats.t.sf(abs(d / se), df)
        half = stats.t.ppf(0.975, df) * se
        if p < 0.05 and math.expm1(d - half) > THRESHOLD:
            return "regressed"
        if p < 0.05 and math.expm1(d + half) < -THRESHOLD:
            return "improved"
        return "quiet"

    rules = {
        "before: 10th percentile, shift 1": (lambda x: np.percentile(x, 10), 1.0),
        "now: fastest sample, shift 2": (lambda x: np.min(x), 2.0),
    }
    runs = sorted(int(d) for d in os.listdir(out) if d.isdigit())
    data = {}
    for r in runs:
        for f in os.listdir(os.path.join(out, str(r))):
            with open(os.path.join(out, str(r), f)) as fh:
                s = json.load(fh)
            if s.get("processes"):
                data[(r, f)] = [np.array(x) for x in per_process(s)]
    pairs = [(a, b, f) for (a, f) in data for b in runs if b > a and (b, f) in data]
    print(f"{len(runs)} runs, {len(pairs)} A/A pairs")
    print("| rule | A/A flagged | +10 % found | +30 % found | x2 found |")
    print("| --- | --- | --- | --- | --- |")
    for name, (fast, shift) in rules.items():
        cells = []
        for factor in (1.0, 1.10, 1.30, 2.0):
            hits = 0
            for a, b, f in pairs:
                old = np.array([fast(x) for x in data[(a, f)]])
                new = np.array([fast(x * factor) for x in data[(b, f)]])
                v = welch(old, new, shift)
                hits += v != "quiet" if factor == 1.0 else v == "regressed"
            cells.append(f"{100 * hits / max(1, len(pairs)):.1f} %")
        print(f"| {name} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("binary")
    c.add_argument("out")
    c.add_argument("--runs", type=int, default=4)
    r = sub.add_parser("replay")
    r.add_argument("out")
    args = ap.parse_args()
    if args.cmd == "collect":
        os.makedirs(args.out, exist_ok=True)
        collect(args.binary, args.out, args.runs)
    else:
        replay(args.out)


if __name__ == "__main__":
    main()
