#!/usr/bin/env python3
"""Reference values for `cargo yardstick analyze`, computed with numpy/scipy.

    python3 crates/cargo-yardstick/tests/reference/generate.py > crates/cargo-yardstick/tests/reference/values.rs

Writes the synthetic fixture tests/fixtures/complexity.csv (deterministic:
Python's random.Random(seed).random() stream never changes), reads every
fixture the way the raw.csv format defines it (per-iteration value =
sample_measured_value / iteration_count, benchmarks grouped by
(group, function, value)), and prints a Rust module with the expected
numbers. The integration tests name this script as their source.
"""

import csv
import math
import os
import random

import numpy as np
import scipy
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
HEADER = "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count"

# ------------------------------------------------------------ the fixture
rng = random.Random(4242)
rows = [HEADER]
for function, sizes, cost in (("vec", [10, 100, 1000, 10000, 100000], lambda n: 2.0 * n * math.log2(n)),
                              ("hash", [16, 64, 256, 1024], lambda n: 5.0 * n + 40.0)):
    for n in sizes:
        for i in range(1, 21):
            iters = 3 * i
            t = cost(n) * (1 + 0.02 * (rng.random() - 0.5))
            rows.append(f"sort,{function},{n},{n},elements,{round(iters * t, 1)},ns,{iters}")
for i in range(1, 21):
    rows.append(f"sort,vec,big,,,{round(3 * i * 7.5e6 * (1 + 0.01 * rng.random()), 1)},ns,{3 * i}")
with open(os.path.join(FIXTURES, "complexity.csv"), "w") as fh:
    fh.write("\n".join(rows) + "\n")


def read(name):
    benches = {}
    with open(os.path.join(FIXTURES, name), newline="") as fh:
        for r in csv.DictReader(fh):
            key = (r["group"], r["function"], r["value"])
            b = benches.setdefault(key, {"iters": [], "values": [], "unit": r["unit"]})
            b["iters"].append(float(r["iteration_count"]))
            b["values"].append(float(r["sample_measured_value"]))
    return benches


def bench_id(key):
    return "/".join(p for p in key if p)


def outlier_variance(mu, sigma, a):
    """Transcription of outlierVariance from Haskell criterion."""
    if sigma == 0:
        return 0.0
    mua = mu / a
    mugmin = mua / 2
    sg = min(mugmin / 4, sigma / math.sqrt(a))
    sg2, sb2 = sg * sg, sigma * sigma

    def var_out(c):
        ac = a - c
        return (ac / a) * (sb2 - ac * sg2)

    def c_max(x):
        k = mua - x
        ad = a * k * k
        k0 = -a * ad
        k1 = sb2 - a * sg2 + ad
        return float(math.floor(-2 * k0 / (k1 + math.sqrt(k1 * k1 - 4 * sg2 * k0))))

    return min(var_out(1), var_out(min(c_max(0), c_max(mugmin)))) / sb2


def ov_class(f):
    return "unaffected" if f < 0.01 else "slight" if f < 0.1 else "moderate" if f < 0.5 else "severe"


def fmt(v):
    if v is None:
        return "None"
    v = float(v)
    s = repr(v)
    if "e" not in s and "." not in s and "inf" not in s and "nan" not in s:
        s += ".0"
    return s


def arr(vs):
    return "[" + ", ".join(fmt(v) for v in vs) + "]"


def some(v):
    return "None" if v is None else f"Some({fmt(v)})"


entries = []
bands = []
CASES = [("multi.csv", "multi_base.csv"), ("complexity.csv", None),
         ("guide_fibonacci.csv", None), ("flat.csv", "flat.csv")]
for file, base_file in CASES:
    benches = read(file)
    base = read(base_file) if base_file else {}
    # Complexity per (group, function) over numeric values.
    groups = {}
    for key, b in benches.items():
        try:
            size = float(key[2])
        except ValueError:
            continue
        if size > 0 and math.isfinite(size):
            groups.setdefault(key[:2], []).append((size, key))
    for key, b in benches.items():
        x, y = np.array(b["iters"]), np.array(b["values"])
        avg = y / x
        n = len(avg)
        linear = len(set(b["iters"])) > 1
        mean, sd = np.mean(avg), np.std(avg, ddof=1)
        median = np.median(avg)
        mad = stats.median_abs_deviation(avg, scale=1 / 1.4826)
        slope = r2 = None
        if linear:
            slope = np.linalg.lstsq(x[:, None], y, rcond=None)[0][0]
            r2 = 1 - np.sum((y - slope * x) ** 2) / np.sum((y - y.mean()) ** 2)
        pct = np.percentile(avg, [0, 25, 50, 75, 100])
        q1, q3 = pct[1], pct[3]
        iqr = q3 - q1
        fences = [q1 - 3 * iqr, q1 - 1.5 * iqr, q3 + 1.5 * iqr, q3 + 3 * iqr]
        counts = [int(np.sum(avg < fences[0])), int(np.sum((avg >= fences[0]) & (avg < fences[1]))),
                  int(np.sum((avg > fences[2]) & (avg <= fences[3]))), int(np.sum(avg > fences[3]))]
        ovf = outlier_variance(mean, sd, n)
        err = np.median(np.abs((avg - median) / avg)) * 100
        change = "None"
        if key in base:
            ob = base[key]
            old = np.array(ob["values"]) / np.array(ob["iters"])
            w = stats.ttest_ind(avg, old, equal_var=False)
            nn, no = len(avg), len(old)
            sp = math.sqrt(((nn - 1) * avg.var(ddof=1) + (no - 1) * old.var(ddof=1)) / (nn + no - 2))
            half = stats.t.ppf(0.975, nn + no - 2) * sp * math.sqrt(1 / nn + 1 / no)
            m = stats.mannwhitneyu(avg, old, alternative="two-sided", use_continuity=True, method="auto")
            welch = [w.statistic, w.df, w.pvalue]
            if not np.all(np.isfinite(welch)):  # no spread at all: the tool's defined values
                welch = [0.0, nn + no - 2, 1.0] if avg.mean() == old.mean() else welch
            change = (f"Some(Change {{ mean: {fmt(avg.mean() / old.mean() - 1)}, "
                      f"median: {fmt(np.median(avg) / np.median(old) - 1)}, welch: {arr(welch)}, "
                      f"student: {arr([avg.mean() - old.mean(), half])}, mwu: {arr([m.statistic, m.pvalue])} }})")
        complexity = "&[]"
        members = groups.get(key[:2], [])
        if any(k == key for _, k in members) and len(members) >= 2:
            ns = np.array([s for s, _ in members])
            ys = np.array([np.median(np.array(benches[k]["values"]) / np.array(benches[k]["iters"]))
                           for _, k in members])
            fits = []
            for name, fn in [("O(1)", lambda v: np.ones_like(v)), ("O(n)", lambda v: v),
                             ("O(log n)", np.log2), ("O(n log n)", lambda v: v * np.log2(v)),
                             ("O(n^2)", lambda v: v ** 2), ("O(n^3)", lambda v: v ** 3)]:
                col = fn(ns)
                c = np.linalg.lstsq(col[:, None], ys, rcond=None)[0][0]
                fits.append((math.sqrt(np.mean((c * col - ys) ** 2)) / np.mean(ys) * 100, name, c))
            fits.sort()
            complexity = "&[" + ", ".join(f'("{nm}", {fmt(c)}, {fmt(e)})' for e, nm, c in fits) + "]"
        entries.append(
            f'    Expected {{ file: "{file}", baseline: {("Some(" + chr(34) + base_file + chr(34) + ")") if base_file else "None"}, '
            f'id: "{bench_id(key)}", unit: "{b["unit"]}", n: {n}, mean: {fmt(mean)}, median: {fmt(median)}, '
            f"std_dev: {fmt(sd)}, mad: {fmt(mad)}, slope: {some(slope)}, r2: {some(r2)}, "
            f"percentiles: {arr(pct)}, fences: {arr(fences)}, counts: {counts}, "
            f'ov_fraction: {fmt(ovf)}, ov_class: "{ov_class(ovf)}", err_pct: {fmt(err)}, '
            f"change: {change}, complexity: {complexity} }},")

# ------------------------------------------- bootstrap bands, 200,000 resamples
boot = np.random.default_rng(99)
B = 200_000
b = read("multi.csv")[("fib 10", "", "")]
x, y = np.array(b["iters"]), np.array(b["values"])
avg = y / x
n = len(avg)
dist = {k: [] for k in ("mean", "median", "std_dev", "mad", "slope")}
for _ in range(B // 10_000):
    idx = boot.integers(0, n, size=(10_000, n))
    r = avg[idx]
    med = np.median(r, axis=1)
    dist["mean"].append(r.mean(axis=1))
    dist["median"].append(med)
    dist["std_dev"].append(r.std(axis=1, ddof=1))
    dist["mad"].append(1.4826 * np.median(np.abs(r - med[:, None]), axis=1))
    dist["slope"].append((x[idx] * y[idx]).sum(axis=1) / (x[idx] ** 2).sum(axis=1))
for k, v in dist.items():
    v = np.concatenate(v)
    bands.append(f'    Band {{ stat: "{k}", lower: {fmt(np.percentile(v, 2.5))}, upper: {fmt(np.percentile(v, 97.5))} }},')
old_b = read("multi_base.csv")[("fib 10", "", "")]
old = np.array(old_b["values"]) / np.array(old_b["iters"])
md, dd = [], []
for _ in range(B // 10_000):
    ro = old[boot.integers(0, len(old), size=(10_000, len(old)))]
    rn = avg[boot.integers(0, n, size=(10_000, n))]
    md.append(rn.mean(axis=1) / ro.mean(axis=1) - 1)
    dd.append(np.median(rn, axis=1) / np.median(ro, axis=1) - 1)
for k, v in (("change.mean", md), ("change.median", dd)):
    v = np.concatenate(v)
    bands.append(f'    Band {{ stat: "{k}", lower: {fmt(np.percentile(v, 2.5))}, upper: {fmt(np.percentile(v, 97.5))} }},')

print(f"// Generated by tests/reference/generate.py (numpy {np.__version__}, scipy {scipy.__version__}); do not edit by hand.")
print("#![allow(dead_code, clippy::unreadable_literal, clippy::excessive_precision)]")
print("""
/// Expected values for one benchmark of one fixture.
pub struct Expected {
    pub file: &'static str,
    pub baseline: Option<&'static str>,
    pub id: &'static str,
    pub unit: &'static str,
    pub n: usize,
    pub mean: f64,
    pub median: f64,
    pub std_dev: f64,
    pub mad: f64,
    pub slope: Option<f64>,
    pub r2: Option<f64>,
    pub percentiles: [f64; 5],
    pub fences: [f64; 4],
    pub counts: [usize; 4],
    pub ov_fraction: f64,
    pub ov_class: &'static str,
    pub err_pct: f64,
    pub change: Option<Change>,
    pub complexity: &'static [(&'static str, f64, f64)],
}

/// Expected deterministic parts of a comparison.
pub struct Change {
    pub mean: f64,
    pub median: f64,
    pub welch: [f64; 3],
    pub student: [f64; 2],
    pub mwu: [f64; 2],
}

/// A 95 % bootstrap interval of `fib 10` in multi.csv (200,000 numpy resamples).
pub struct Band {
    pub stat: &'static str,
    pub lower: f64,
    pub upper: f64,
}
""")
print("pub const EXPECTED: &[Expected] = &[")
print("\n".join(entries))
print("];")
print("pub const BANDS: &[Band] = &[")
print("\n".join(bands))
print("];")
