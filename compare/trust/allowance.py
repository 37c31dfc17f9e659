#!/usr/bin/env python3
"""What a layout allowance buys when code layouts are not sampled.

Between two builds, `cargo bench` measures one code layout of each side, so
a neutral edit elsewhere moves a benchmark by what relinking moves it.
Without sampled layouts the harness does not call a change within an
allowance (`LAYOUT_ALLOWANCE` in crates/yardstick/src/analysis.rs) a
regression or an improvement. This script reads the per-benchmark spreads
that `cargo yardstick calibrate --layouts` measured (a home's
`.layouts/*.json`) and prints, for several allowances, the share of
benchmarks a neutral edit is expected to flag: each spread is the 95 %
prediction bound of the change between two layouts,
`exp(t(0.975, layouts - 1) * s) - 1` with `s` the standard deviation of
that change on the log scale, so a neutral edit flags the benchmark with
probability `P(|N(0, s)| > log(1 + allowance))`.

Usage:
    cargo yardstick calibrate --layouts --home H -p yardstick-guide-examples
    python3 compare/trust/allowance.py H [H2 ...]
"""

import glob
import json
import math
import os
import sys

# Student's t quantile at 0.975, by degrees of freedom (scipy.stats.t.ppf).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
        8: 2.306, 9: 2.262, 10: 2.228, 15: 2.131}
ALLOWANCES = [0.0025, 0.01, 0.02, 0.03, 0.05, 0.08, 0.10]


def spreads(home):
    for path in sorted(glob.glob(os.path.join(home, ".layouts", "*.json"))):
        with open(path) as f:
            doc = json.load(f)
        t = T975.get(doc["layouts"] - 1, 2.0)
        for b in doc["benchmarks"]:
            yield doc["target"], b["id"], b["relative_spread"], t


def flagged(rows, allowance):
    total = 0.0
    for _, _, spread, t in rows:
        s = math.log1p(spread) / t
        if s > 0:
            total += math.erfc(math.log1p(allowance) / s / math.sqrt(2))
    return total / len(rows)


def main():
    homes = sys.argv[1:]
    if not homes:
        sys.exit(__doc__)
    for home in homes:
        rows = list(spreads(home))
        if not rows:
            print(f"{home}: no .layouts/*.json")
            continue
        wide = [r for r in rows if r[2] > 0.10]
        print(f"{home}: {len(rows)} benchmarks, {len(wide)} with a spread over ±10 %")
        for a in ALLOWANCES:
            print(f"  allowance ±{a * 100:4.2f} %: {flagged(rows, a) * 100:5.1f} % expected flagged by a neutral edit")


if __name__ == "__main__":
    main()
