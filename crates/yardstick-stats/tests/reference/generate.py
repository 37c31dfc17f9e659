#!/usr/bin/env python3
"""Reference values for yardstick-stats, computed with numpy and scipy.

Run from anywhere:

    python3 crates/yardstick-stats/tests/reference/generate.py > crates/yardstick-stats/tests/reference/values.rs

It prints a Rust module of constants that the integration tests include.
Each test names this script as the source of its expected numbers. The data
sets are generated here from Python's `random.Random(seed).random()`, whose
stream Python guarantees not to change, and rounded, so running the script
again gives the same file.

Every reference is computed independently of yardstick's Rust code: numpy
and scipy where they have the statistic, and a direct transcription of the
published formula (Haskell criterion's outlierVariance, tasty-bench's
predict, nanobench's MdAPE and BigO) where they do not.
"""

import math
import random
import sys

import numpy as np
import scipy
from scipy import stats

# ---------------------------------------------------------------- data sets


def normals(rng, n):
    """Box-Muller from random.random(), which is stable across versions."""
    out = []
    while len(out) < n:
        u1, u2 = rng.random(), rng.random()
        r = math.sqrt(-2.0 * math.log(1.0 - u1))
        out.append(r * math.cos(2 * math.pi * u2))
        out.append(r * math.sin(2 * math.pi * u2))
    return out[:n]


def rounded(xs, digits=4):
    return [round(float(x), digits) for x in xs]


rng = random.Random(20240601)
A = rounded([100 + 2 * z for z in normals(rng, 40)])
for i in (5, 17, 31):  # three slow samples
    A[i] = round(A[i] + 15.0 + i / 10, 4)
B = rounded([104 + 2.5 * z for z in normals(rng, 35)])
BIG = [1e9 + 1e-3 * ((7 * i) % 11) for i in range(20)]
SMALL_X = [3.1, 4.7, 2.2, 5.9, 4.1, 3.3]
SMALL_Y = [5.2, 6.8, 4.9, 7.7, 6.1, 5.5, 3.9]
EIGHT = rounded([10 + z for z in normals(rng, 8)], 3)
TWENTY = rounded([10.8 + z for z in normals(rng, 20)], 3)
TIES_X = [3, 4, 4, 5, 5, 5, 6, 7, 7, 8, 9, 4]
TIES_Y = [5, 6, 6, 7, 7, 8, 8, 8, 9, 9, 10, 6, 7, 11, 5]
LIN_X = [10.0 * i for i in range(1, 31)]
LIN_Y = rounded([2.5 * x + 40 + 3 * z for x, z in zip(LIN_X, normals(rng, 30))])
BOOT_ITERS = [float(5 * i) for i in range(1, 101)]
BOOT_PER_ITER = [50 + 1.5 * z for z in normals(rng, 100)]
for i in (9, 41, 77, 90):
    BOOT_PER_ITER[i] += 12.0
BOOT_VALUES = rounded([n * t for n, t in zip(BOOT_ITERS, BOOT_PER_ITER)], 3)
BOOT_NEW = rounded([51.5 + 1.6 * z for z in normals(rng, 100)])
BIGO_N = [10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0]
BIGO_Y = rounded([3 * n * math.log2(n) * (1 + 0.03 * z) for n, z in zip(BIGO_N, normals(rng, 8))])

out = []


def emit(name, value):
    if isinstance(value, (list, tuple, np.ndarray)):
        items = ", ".join(f(v) for v in value)
        out.append(f"pub const {name}: [f64; {len(value)}] = [{items}];")
    else:
        out.append(f"pub const {name}: f64 = {f(value)};")


def f(v):
    v = float(v)
    if math.isinf(v):
        return "f64::INFINITY" if v > 0 else "f64::NEG_INFINITY"
    s = repr(v)
    if "e" not in s and "." not in s:
        s += ".0"
    return s


for name in ["A", "B", "BIG", "SMALL_X", "SMALL_Y", "EIGHT", "TWENTY", "TIES_X", "TIES_Y",
             "LIN_X", "LIN_Y", "BOOT_ITERS", "BOOT_VALUES", "BOOT_NEW", "BIGO_N", "BIGO_Y"]:
    emit(name, [float(v) for v in globals()[name]])

# ------------------------------------------------------ descriptive (numpy)

a = np.array(A)
PCTS = [0.0, 1.0, 2.5, 25.0, 33.3, 50.0, 66.6, 75.0, 97.5, 99.0, 100.0]
emit("PCTS", PCTS)
emit("A_PERCENTILES", [np.percentile(a, p, method="linear") for p in PCTS])
emit("A_MEAN", np.mean(a))
emit("A_MEDIAN", np.median(a))
emit("A_VAR", np.var(a, ddof=1))
emit("A_STD", np.std(a, ddof=1))
emit("A_MAD", stats.median_abs_deviation(a, scale=1 / 1.4826))
emit("A_GMEAN", stats.gmean(a))
emit("A_MIN", np.min(a))
emit("A_MAX", np.max(a))
emit("BIG_STD", np.std(np.array(BIG, dtype=np.longdouble), ddof=1))
emit("B_MAD", stats.median_abs_deviation(np.array(B), scale=1 / 1.4826))

# Tukey fences (type-7 quartiles) and strict classification.
q1, q3 = np.percentile(a, [25, 75])
iqr = q3 - q1
fences = [q1 - 3 * iqr, q1 - 1.5 * iqr, q3 + 1.5 * iqr, q3 + 3 * iqr]
emit("A_FENCES", fences)
counts = [
    int(np.sum(a < fences[0])),
    int(np.sum((a >= fences[0]) & (a < fences[1]))),
    int(np.sum((a > fences[2]) & (a <= fences[3]))),
    int(np.sum(a > fences[3])),
]
out.append(f"pub const A_TUKEY_COUNTS: [usize; 4] = {counts};")

# ---------------------------------------------------- regression (numpy)

x, y = np.array(LIN_X), np.array(LIN_Y)
slope0 = np.linalg.lstsq(x[:, None], y, rcond=None)[0][0]
ss_tot = np.sum((y - y.mean()) ** 2)
emit("LIN_ORIGIN_SLOPE", slope0)
emit("LIN_ORIGIN_R2_CENTRED", 1 - np.sum((y - slope0 * x) ** 2) / ss_tot)
ols_slope, ols_intercept = np.polyfit(x, y, 1)
emit("LIN_OLS_SLOPE", ols_slope)
emit("LIN_OLS_INTERCEPT", ols_intercept)
emit("LIN_OLS_R2", 1 - np.sum((y - (ols_intercept + ols_slope * x)) ** 2) / ss_tot)

# ------------------------------------------------- distributions (scipy)

T_CASES = [(p, df) for df in (1.0, 2.5, 7.0, 30.0, 197.3)
           for p in (0.001, 0.3, 0.9, 0.95, 0.975, 0.99, 0.995)]
emit("T_Q_P", [p for p, _ in T_CASES])
emit("T_Q_DF", [df for _, df in T_CASES])
emit("T_Q", [stats.t.ppf(p, df) for p, df in T_CASES])
T_SF_T = [0.0, 0.5, 1.3, 2.0, 4.5, 12.0, -1.7]
T_SF_DF = [3.0, 10.0, 2.2, 45.5, 8.0, 30.0, 5.0]
emit("T_SF_T", T_SF_T)
emit("T_SF_DF", T_SF_DF)
emit("T_SF", [stats.t.sf(t, df) for t, df in zip(T_SF_T, T_SF_DF)])
Z = [-8.0, -3.1, -1.0, 0.0, 0.4, 1.96, 5.5]
emit("NORM_Z", Z)
emit("NORM_CDF", [stats.norm.cdf(z) for z in Z])
NP = [1e-10, 0.001, 0.02, 0.3, 0.5, 0.8, 0.975, 0.999999]
emit("NORM_P", NP)
emit("NORM_Q", [stats.norm.ppf(p) for p in NP])

# ------------------------------------------------------- tests (scipy)

b = np.array(B)
w = stats.ttest_ind(b, a, equal_var=False)
emit("WELCH_BA", [w.statistic, w.df, w.pvalue])
w = stats.ttest_ind(np.array(SMALL_X), np.array(SMALL_Y), equal_var=False)
emit("WELCH_SMALL", [w.statistic, w.df, w.pvalue])

# Student's t interval of mean(B) - mean(A), pooled s, as ministat.
LEVELS = [0.80, 0.90, 0.95, 0.98, 0.99, 0.75]
emit("STUDENT_LEVELS", LEVELS)
nb, na = len(b), len(a)
s_pooled = math.sqrt(((nb - 1) * b.var(ddof=1) + (na - 1) * a.var(ddof=1)) / (nb + na - 2))
emit("STUDENT_POOLED_S", s_pooled)
emit("STUDENT_DIFF", b.mean() - a.mean())
emit("STUDENT_HALF", [stats.t.ppf((1 + c) / 2, nb + na - 2) * s_pooled * math.sqrt(1 / nb + 1 / na)
                      for c in LEVELS])
# Cross-check with scipy's own interval at 95 %.
ci = stats.ttest_ind(b, a, equal_var=True).confidence_interval(0.95)
emit("STUDENT_SCIPY_CI95", [ci.low, ci.high])


def mwu(x, y):
    r = stats.mannwhitneyu(x, y, alternative="two-sided", use_continuity=True, method="auto")
    return [r.statistic, r.pvalue]


emit("MWU_BA", mwu(B, A))
emit("MWU_SMALL", mwu(SMALL_X, SMALL_Y))
emit("MWU_EIGHT_TWENTY", mwu(EIGHT, TWENTY))
emit("MWU_TIES", mwu(TIES_X, TIES_Y))
assert len(set(EIGHT + TWENTY)) == 28

# ------------------------------ outlier variance (Haskell criterion formula)


def outlier_variance(mu, sigma, a):
    """Transcription of outlierVariance from Haskell criterion."""
    sb = sigma
    mua = mu / a
    mugmin = mua / 2
    sg = min(mugmin / 4, sb / math.sqrt(a))
    sg2, sb2 = sg * sg, sb * sb

    def var_out(c):
        ac = a - c
        return (ac / a) * (sb2 - ac * sg2)

    def c_max(x):
        k = mua - x
        d = k * k
        ad = a * d
        k0 = -a * ad
        k1 = sb2 - a * sg2 + ad
        det = k1 * k1 - 4 * sg2 * k0
        return float(math.floor(-2 * k0 / (k1 + math.sqrt(det))))

    return min(var_out(1), var_out(min(c_max(0), c_max(mugmin)))) / sb2


OV_CASES = [(np.mean(a), np.std(a, ddof=1), len(a)),
            (np.mean(b), np.std(b, ddof=1), len(b)),
            (135.0, 5.0, 100.0),
            (135.0, 2.0, 100.0),
            (1.0, 0.9, 10.0),
            (50.0, 0.01, 100.0)]
emit("OV_MEAN", [c[0] for c in OV_CASES])
emit("OV_SD", [c[1] for c in OV_CASES])
emit("OV_A", [c[2] for c in OV_CASES])
emit("OV_FRACTION", [outlier_variance(*c) for c in OV_CASES])

# ------------------------------------------------------ KDE (hand, numpy)

h = 1.06 * np.std(a, ddof=1) * len(a) ** (-0.2)
emit("KDE_BANDWIDTH", h)
KDE_GRID = [90.0, 98.5, 100.0, 103.2, 116.0]
emit("KDE_GRID", KDE_GRID)
emit("KDE_DENSITY", [np.sum(np.exp(-0.5 * ((g - a) / h) ** 2)) / (len(a) * h * math.sqrt(2 * math.pi))
                     for g in KDE_GRID])

# --------------------------------------------------- nanobench (hand, numpy)


def mdape(xs):
    xs = np.array(xs)
    med = np.median(xs)
    return np.median(np.abs((xs - med) / xs))


emit("ERR_A", mdape(A))
emit("ERR_B", mdape(B))

fns = [("O(1)", lambda n: np.ones_like(n)), ("O(n)", lambda n: n),
       ("O(log n)", np.log2), ("O(n log n)", lambda n: n * np.log2(n)),
       ("O(n^2)", lambda n: n ** 2), ("O(n^3)", lambda n: n ** 3),
       ("O(sqrt n)", np.sqrt)]
ns, ys = np.array(BIGO_N), np.array(BIGO_Y)
fits = []
for name, fn in fns:
    col = fn(ns)
    c = np.linalg.lstsq(col[:, None], ys, rcond=None)[0][0]
    rms = math.sqrt(np.mean((c * col - ys) ** 2)) / np.mean(ys)
    fits.append((rms, name, c))
fits.sort()
out.append("pub const BIGO_NAMES: [&str; 7] = [" + ", ".join(f'"{n}"' for _, n, _ in fits) + "];")
emit("BIGO_COEF", [c for _, _, c in fits])
emit("BIGO_RMS", [r for r, _, _ in fits])

# ----------------------------------------------------- tasty-bench (hand)

TASTY = [(1.0, 120.0, 250.0, 0.0), (4.0, 40.0, 80.0, 1.0), (16.0, 1.0e6, 2.3e6, 1.0e5),
         (8.0, 0.5, 1.0, 1.0)]


def predict(n, t1, t2):
    t = (t1 + 2 * t2) / 5
    d = (t1 - t) ** 2 + (t2 - 2 * t) ** 2
    return t / n, math.sqrt(d) / n


def perturbed(n, t1, t2, p):
    hi = lambda t: t + p
    lo = lambda t: t - p if t > p else 0.0
    return max(predict(n, lo(t1), hi(t2))[1], predict(n, hi(t1), lo(t2))[1])


emit("TASTY_N", [c[0] for c in TASTY])
emit("TASTY_T1", [c[1] for c in TASTY])
emit("TASTY_T2", [c[2] for c in TASTY])
emit("TASTY_PREC", [c[3] for c in TASTY])
emit("TASTY_MEAN", [predict(*c[:3])[0] for c in TASTY])
emit("TASTY_SD", [predict(*c[:3])[1] for c in TASTY])
emit("TASTY_SD_PERTURBED", [perturbed(*c) for c in TASTY])

# ------------------------------------- t-based relative half-widths (scipy)

px, py = np.array(LIN_X), np.array(LIN_Y)
pb = (px * py).sum() / (px * px).sum()
pr = py - pb * px
pn = len(px)
emit("PRECISION_SLOPE_95", stats.t.ppf(0.975, pn - 1) * math.sqrt((pr * pr).sum() / (pn - 1) / (px * px).sum()) / abs(pb))
emit("PRECISION_MEAN_90", stats.t.ppf(0.95, len(a) - 1) * a.std(ddof=1) / math.sqrt(len(a)) / abs(a.mean()))

# ------------------------------------------- bootstrap (numpy, 200,000 resamples)

B_RESAMPLES = 200_000
boot_rng = np.random.default_rng(7)
iters, values = np.array(BOOT_ITERS), np.array(BOOT_VALUES)
avg = values / iters
n = len(avg)
dists = {k: [] for k in ("mean", "median", "std", "mad", "slope")}
for _ in range(B_RESAMPLES // 10_000):
    idx = boot_rng.integers(0, n, size=(10_000, n))
    r = avg[idx]
    med = np.median(r, axis=1)
    dists["mean"].append(r.mean(axis=1))
    dists["median"].append(med)
    dists["std"].append(r.std(axis=1, ddof=1))
    dists["mad"].append(1.4826 * np.median(np.abs(r - med[:, None]), axis=1))
    dists["slope"].append((iters[idx] * values[idx]).sum(axis=1) / (iters[idx] ** 2).sum(axis=1))
points = {"mean": avg.mean(), "median": np.median(avg), "std": avg.std(ddof=1),
          "mad": stats.median_abs_deviation(avg, scale=1 / 1.4826),
          "slope": np.sum(iters * values) / np.sum(iters ** 2)}
for k in ("mean", "median", "std", "mad", "slope"):
    d = np.concatenate(dists[k])
    emit("BOOT_" + k.upper(), [points[k], np.percentile(d, 2.5), np.percentile(d, 97.5), d.std(ddof=1)])

old, new = avg, np.array(BOOT_NEW)


def welch_t(x, y):
    return (x.mean(axis=-1) - y.mean(axis=-1)) / np.sqrt(
        x.var(axis=-1, ddof=1) / x.shape[-1] + y.var(axis=-1, ddof=1) / y.shape[-1])


t_obs = welch_t(new, old)
pooled = np.concatenate([old, new])
hits = 0
mean_d, median_d = [], []
for _ in range(B_RESAMPLES // 10_000):
    ia = boot_rng.integers(0, len(pooled), size=(10_000, len(old)))
    ib = boot_rng.integers(0, len(pooled), size=(10_000, len(new)))
    tt = welch_t(pooled[ib], pooled[ia])
    hits += int(np.sum(np.abs(tt) >= abs(t_obs)))
    ro = old[boot_rng.integers(0, len(old), size=(10_000, len(old)))]
    rn = new[boot_rng.integers(0, len(new), size=(10_000, len(new)))]
    mean_d.append(rn.mean(axis=1) / ro.mean(axis=1) - 1)
    median_d.append(np.median(rn, axis=1) / np.median(ro, axis=1) - 1)
mean_d, median_d = np.concatenate(mean_d), np.concatenate(median_d)
emit("CHANGE_T", t_obs)
emit("CHANGE_P", hits / B_RESAMPLES)
emit("CHANGE_MEAN", [new.mean() / old.mean() - 1, np.percentile(mean_d, 2.5), np.percentile(mean_d, 97.5)])
emit("CHANGE_MEDIAN", [np.median(new) / np.median(old) - 1, np.percentile(median_d, 2.5),
                       np.percentile(median_d, 97.5)])

print("// Generated by tests/reference/generate.py (numpy "
      f"{np.__version__}, scipy {scipy.__version__}); do not edit by hand.")
print("#![allow(dead_code, clippy::unreadable_literal, clippy::excessive_precision)]")
print("\n".join(out))
