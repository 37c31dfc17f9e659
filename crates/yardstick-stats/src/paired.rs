//! Paired comparisons of alternatives measured in alternating rounds: the
//! ratio of their times, with a distribution-free interval.
//!
//! Machines drift (frequency, thermals, neighbours) by several percent
//! between runs; measured in alternation, two alternatives see the same
//! drift, and the ratio of their times in the same round cancels it. The
//! interval is the sign test's for the median of the log ratios: it
//! assumes only that rounds are independent and the log ratios' median is
//! what we want, not normality — rounds hit by an interruption are outliers
//! a t interval would be dragged by, and the sign test is not.
//!
//! Rounds are independent only within one pair of processes. Each process
//! brings its own offset (heap and stack addresses, which core's caches it
//! warmed, the load of its moment), and every round it runs shares it; a
//! sign-test interval over rounds pooled from a few processes takes those
//! offsets for signal. [`unit_medians`] and [`units_t_ratio`] count the
//! independent units instead: one median ratio per pair of processes, and
//! Student's t over those medians (each a median of dozens of rounds, so
//! close to normal, and an outlying round cannot drag it).
//!
//! [`unit_floor_ratios`] and [`units_trimmed_ratio`] are a measured
//! alternative, not the engine's rule: each unit's fastest round of B over
//! its fastest of A, with Yuen's trimmed t over the units. What a machine
//! adds to a round only ever slows it, so on a busy 2-core machine the
//! floors spread five times less than the medians (1.5 % against 7.5 % on
//! crc32fast). But the fastest rounds are also the ones whose iterations
//! happened to be cheapest: a routine slower in 3 of every 100 calls, at
//! 30 calls a round, has rounds without a slow call, and the floor never
//! sees the change (the guide's trust page, "The floor of each pair's
//! rounds").

use crate::bootstrap::Estimate;
use crate::change::{verdict_of, Change, ChangeConfig, ChangeDistributions};
use crate::distributions::{t_quantile, t_sf};
use crate::rng::Rng;

/// The median ratio and its sign-test confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioInterval {
    /// Median of the per-round ratios.
    pub ratio: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// The interval's actual coverage (the sign test's is discrete, at
    /// least the level asked for).
    pub coverage: f64,
    /// Rounds used.
    pub rounds: usize,
}

impl RatioInterval {
    /// Whether the interval excludes 1 (a difference was detected).
    ///
    /// Ratios within one part in 10⁹ of 1 count as 1: equal times reached
    /// through different iteration counts differ in their last bits, and no
    /// clock resolves such a difference.
    #[must_use]
    pub fn is_significant(&self) -> bool {
        self.is_slower() || self.upper < 1.0 - crate::RELATIVE_ROUNDING
    }

    /// Whether the whole interval lies above 1 (B is slower than A).
    #[must_use]
    pub fn is_slower(&self) -> bool {
        self.lower > 1.0 + crate::RELATIVE_ROUNDING
    }
}

/// `P(X ≤ k)` for `X ~ Binomial(n, 1/2)`, summed exactly in log space.
fn binom_half_cdf(k: i64, n: usize) -> f64 {
    if k < 0 {
        return 0.0;
    }
    let n_f = n as f64;
    let mut log_c = 0.0_f64; // log C(n, 0)
    let mut total = 0.0;
    for i in 0..=(k as usize).min(n) {
        if i > 0 {
            log_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        total += (log_c - n_f * std::f64::consts::LN_2).exp();
    }
    total.min(1.0)
}

/// The sign-test interval of the median of `ratios` (each `t_B / t_A` of one
/// round) at `confidence`: with the ratios sorted, `[r_(k), r_(n−k+1)]` for
/// the largest `k` with `P(Bin(n, ½) ≤ k − 1) ≤ (1 − confidence) / 2`.
///
/// `None` with fewer than 6 rounds (no interval reaches 95 %) or a
/// non-positive or non-finite ratio.
#[must_use]
pub fn sign_test_ratio(ratios: &[f64], confidence: f64) -> Option<RatioInterval> {
    let n = ratios.len();
    if ratios.iter().any(|r| !(r.is_finite() && *r > 0.0)) {
        return None;
    }
    let alpha_half = (1.0 - confidence) / 2.0;
    let mut k = 0;
    for cand in 1..=n / 2 {
        if binom_half_cdf(cand as i64 - 1, n) <= alpha_half {
            k = cand;
        } else {
            break;
        }
    }
    if k == 0 {
        return None;
    }
    let mut sorted = ratios.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        // Geometric midpoint: the ratios live on a log scale.
        (sorted[n / 2 - 1] * sorted[n / 2]).sqrt()
    };
    Some(RatioInterval {
        ratio: median,
        lower: sorted[k - 1],
        upper: sorted[n - k],
        coverage: 1.0 - 2.0 * binom_half_cdf(k as i64 - 1, n),
        rounds: n,
    })
}

/// The two-sided sign test's p-value for "the median ratio is 1": ratios
/// within [`crate::RELATIVE_ROUNDING`] of 1 are ties and dropped, and with
/// `s` of the remaining `n` above 1, `p = min(1, 2 · P(Bin(n, ½) ≤ min(s, n − s)))`.
/// It agrees with [`sign_test_ratio`]: an interval that excludes 1 has
/// `p ≤ 1 − confidence`. `None` without an untied ratio.
#[must_use]
pub fn sign_test_p(ratios: &[f64]) -> Option<f64> {
    let untied: Vec<f64> = ratios
        .iter()
        .copied()
        .filter(|r| (r - 1.0).abs() > crate::RELATIVE_ROUNDING)
        .collect();
    let n = untied.len();
    if n == 0 || untied.iter().any(|r| !r.is_finite()) {
        return None;
    }
    let above = untied.iter().filter(|&&r| r > 1.0).count();
    let fewer = above.min(n - above);
    Some((2.0 * binom_half_cdf(fewer as i64, n)).min(1.0))
}

/// The distinct units of `unit`, in the order they first appear.
#[must_use]
pub fn units_in_order(unit: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = Vec::new();
    for &u in unit {
        if !order.contains(&u) {
            order.push(u);
        }
    }
    order
}

/// The median of each unit's ratios (`unit[i]` names the unit of
/// `ratios[i]`), in the order the units first appear; with an even count the
/// geometric midpoint of the middle two, as in [`sign_test_ratio`]. Ratios
/// that are not positive and finite are left out.
#[must_use]
pub fn unit_medians(ratios: &[f64], unit: &[usize]) -> Vec<f64> {
    units_in_order(unit)
        .iter()
        .filter_map(|&u| {
            let mut v: Vec<f64> = ratios
                .iter()
                .zip(unit)
                .filter(|&(r, &w)| w == u && r.is_finite() && *r > 0.0)
                .map(|(&r, _)| r)
                .collect();
            v.sort_unstable_by(f64::total_cmp);
            let n = v.len();
            match n {
                0 => None,
                _ if n % 2 == 1 => Some(v[n / 2]),
                _ => Some((v[n / 2 - 1] * v[n / 2]).sqrt()),
            }
        })
        .collect()
}

/// Each unit's floor ratio: its fastest round of B over its fastest round
/// of A (`a[i]` and `b[i]` the times per iteration of round `i`, `unit[i]`
/// its unit), in the order the units first appear. Times that are not
/// positive and finite are left out, and a unit missing a side is too.
///
/// A round's time is the code's time plus whatever the machine added to
/// it: an interrupt, a neighbour on the same core, a page fault. The
/// additions only ever slow a round, so the fastest rounds are the ones
/// least disturbed. On a shared 2-core machine a round of 2 ms varied by
/// 10–20 % a side (crc32fast's 26 benchmarks), yet the fastest of a pair's
/// eight held within a fraction of a percent: the spread of the pairs'
/// median ratios was 7.5 % (median over the benchmarks), of their floor
/// ratios 1.5 %. It is the right statistic only when every round runs
/// the same work: a round whose iterations missed a routine's occasional
/// slow call is fast for that reason too (see the module's note).
#[must_use]
pub fn unit_floor_ratios(a: &[f64], b: &[f64], unit: &[usize]) -> Vec<f64> {
    let floor = |times: &[f64], u: usize| {
        times
            .iter()
            .zip(unit)
            .filter(|&(t, &w)| w == u && t.is_finite() && *t > 0.0)
            .map(|(&t, _)| t)
            .min_by(f64::total_cmp)
    };
    units_in_order(unit)
        .iter()
        .filter_map(|&u| Some(floor(b, u)? / floor(a, u)?))
        .collect()
}

/// The share of units [`units_trimmed_ratio`] trims from each end.
pub const TRIM: f64 = 0.2;

/// Yuen's trimmed-mean t interval (Tukey and McLaughlin's) of per-unit
/// ratios at `confidence`, on the log scale, and the two-sided p-value of
/// "the ratio is 1". The `g = ⌊0.2·K⌋` lowest and highest logs are
/// trimmed; the standard error is the winsorized standard deviation over
/// `(1 − 2g/K)·√K`, with `K − 2g − 1` degrees of freedom (Wilcox,
/// *Introduction to Robust Estimation and Hypothesis Testing*, 4.4.1; the
/// effective share `g/K` rather than the nominal 0.2, so that fewer than
/// five units, none trimmed, give Student's t exactly).
///
/// Why trimmed: a unit whose rounds were all disturbed (a pair that never
/// ran on a quiet core) has no floor, and one such unit in sixteen would
/// widen Student's interval for all of them. `rounds` of the interval
/// counts the units left after trimming (`K − 2g`), so that
/// [`ratio_change`] reads the same degrees of freedom back.
///
/// Units that agree exactly give a zero-width interval, as in
/// [`units_t_ratio`]. `None` for fewer than two units or a ratio that is
/// not positive and finite.
#[must_use]
pub fn units_trimmed_ratio(units: &[f64], confidence: f64) -> Option<(RatioInterval, f64)> {
    let k = units.len();
    if k < 2 || units.iter().any(|r| !(r.is_finite() && *r > 0.0)) {
        return None;
    }
    let mut logs: Vec<f64> = units.iter().map(|r| r.ln()).collect();
    logs.sort_unstable_by(f64::total_cmp);
    let g = (TRIM * k as f64).floor() as usize;
    let kept = k - 2 * g;
    let mean = logs[g..k - g].iter().sum::<f64>() / kept as f64;
    let winsorized = logs.iter().map(|&l| l.clamp(logs[g], logs[k - g - 1]));
    let w_mean = winsorized.clone().sum::<f64>() / k as f64;
    let w_var = winsorized.map(|l| (l - w_mean).powi(2)).sum::<f64>() / (k as f64 - 1.0);
    // Winsorized logs that are all equal have no spread, whatever the
    // rounding of their mean says.
    let se = if logs[g] == logs[k - g - 1] {
        0.0
    } else {
        w_var.sqrt() / (kept as f64 / k as f64 * (k as f64).sqrt())
    };
    Some(log_t_interval(mean, se, kept, confidence))
}

/// Student's t interval of the geometric mean of per-unit ratios (one per
/// independent unit, e.g. [`unit_medians`]) at `confidence`, with `K − 1`
/// degrees of freedom, and the two-sided p-value of "the ratio is 1".
/// `rounds` of the interval counts the units; `coverage` is `confidence`.
///
/// Units that agree exactly give a zero-width interval: p = 0 when their
/// ratio differs from 1 by more than [`crate::RELATIVE_ROUNDING`], 1 when
/// not. `None` for fewer than two units or a ratio that is not positive and
/// finite.
#[must_use]
pub fn units_t_ratio(units: &[f64], confidence: f64) -> Option<(RatioInterval, f64)> {
    let k = units.len();
    if k < 2 || units.iter().any(|r| !(r.is_finite() && *r > 0.0)) {
        return None;
    }
    let logs: Vec<f64> = units.iter().map(|r| r.ln()).collect();
    let kf = k as f64;
    let mean = logs.iter().sum::<f64>() / kf;
    let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (kf - 1.0);
    Some(log_t_interval(mean, (var / kf).sqrt(), k, confidence))
}

/// The interval at `confidence` of a log ratio estimated at `mean` with
/// standard error `se` on `units − 1` degrees of freedom, carried back to
/// a ratio, and its two-sided p-value for "the ratio is 1". A zero `se`
/// gives a zero-width interval: p = 0 when the ratio differs from 1 by
/// more than [`crate::RELATIVE_ROUNDING`], 1 when not.
fn log_t_interval(mean: f64, se: f64, units: usize, confidence: f64) -> (RatioInterval, f64) {
    let df = units as f64 - 1.0;
    let p = if se > 0.0 {
        (2.0 * t_sf((mean / se).abs(), df)).min(1.0)
    } else if mean.abs() > crate::RELATIVE_ROUNDING {
        0.0
    } else {
        1.0
    };
    let half = if se > 0.0 {
        t_quantile(0.5 + confidence / 2.0, df) * se
    } else {
        0.0
    };
    let interval = RatioInterval {
        ratio: mean.exp(),
        lower: (mean - half).exp(),
        upper: (mean + half).exp(),
        coverage: confidence,
        rounds: units,
    };
    (interval, p)
}

/// A lock-step interval of B/A ([`units_t_ratio`]'s, over `interval.rounds`
/// units) as the [`Change`] from A to B that Criterion.rs's output and
/// files carry: the relative changes `ratio − 1` with their bounds, the
/// p-value and t of the same test, so that the interval and the p-value
/// printed together always agree, and the verdict by `cfg`'s rule.
#[must_use]
pub fn ratio_change(interval: &RatioInterval, p_value: f64, cfg: &ChangeConfig) -> Change {
    let k = interval.rounds.max(2) as f64;
    let q = t_quantile(0.5 + interval.coverage / 2.0, k - 1.0);
    let se_log = (interval.upper / interval.lower).ln() / (2.0 * q);
    let t = if se_log > 0.0 {
        interval.ratio.ln() / se_log
    } else {
        0.0
    };
    let mean = Estimate {
        point: interval.ratio - 1.0,
        lower: interval.lower - 1.0,
        upper: interval.upper - 1.0,
        confidence: interval.coverage,
        standard_error: interval.ratio * se_log,
    };
    Change {
        mean,
        median: mean,
        p_value,
        t,
        verdict: verdict_of(p_value, &mean, cfg),
    }
}

/// The distributions behind [`ratio_change`], to draw: `n` evenly spaced
/// quantiles of the relative change (Student's t with `rounds − 1` degrees
/// of freedom on the log scale, carried back) for the mean and the median,
/// and of the t statistic's null distribution for the test.
#[must_use]
pub fn ratio_change_draws(interval: &RatioInterval, n: usize) -> ChangeDistributions {
    let df = interval.rounds.max(2) as f64 - 1.0;
    let q = t_quantile(0.5 + interval.coverage / 2.0, df);
    let se_log = (interval.upper / interval.lower).ln() / (2.0 * q);
    let m = interval.ratio.ln();
    let t = crate::distributions::t_quantiles_evenly(n, df).to_vec();
    let change: Vec<f64> = t.iter().map(|tq| (m + se_log * tq).exp() - 1.0).collect();
    ChangeDistributions {
        t,
        mean: change.clone(),
        median: change,
    }
}

/// The order of one balanced block of rounds over `k` alternatives: a
/// random permutation, then its reverse (ABBA or BAAB for two), drawn
/// afresh per block. A drift that is linear across the block then costs
/// every alternative the same, and no alternative always runs first. The
/// one schedule of interleaved groups and of `cargo yardstick ab`.
#[must_use]
pub fn balanced_block(k: usize, rng: &mut Rng) -> [Vec<usize>; 2] {
    let mut order: Vec<usize> = (0..k).collect();
    for i in (1..k).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let reversed = order.iter().rev().copied().collect();
    [order, reversed]
}

/// Iterations per round so that a round of the slowest alternative (`slowest_ns`
/// per iteration) takes about `round_ns`; at least one.
#[must_use]
pub fn iterations_per_round(round_ns: f64, slowest_ns: f64) -> u64 {
    ((round_ns / slowest_ns.max(1e-3)).ceil() as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_floor_ratios_divide_each_units_fastest_rounds() {
        // Unit 7 first: B's fastest 90 over A's fastest 100; unit 2: 50 over
        // 40; unit 5 has no usable A round and is left out.
        let a = [100.0, 40.0, 130.0, 45.0, f64::NAN];
        let b = [95.0, 50.0, 90.0, 80.0, 10.0];
        let u = [7, 2, 7, 2, 5];
        let r = unit_floor_ratios(&a, &b, &u);
        assert_eq!(r.len(), 2);
        assert!((r[0] - 0.9).abs() < 1e-12 && (r[1] - 1.25).abs() < 1e-12);
    }

    #[test]
    fn trimmed_ratio_matches_yuen_by_hand() {
        // Logs (sorted) -0.05 -0.02 0 .01 .01 .02 .03 .04 .06 .30; K = 10,
        // g = 2. Trimmed mean of the middle six: 0.11 / 6 = 0.0183333.
        // Winsorized: 0 0 0 .01 .01 .02 .03 .04 .04 .04, mean 0.019,
        // squares 3·0.019² + 2·0.009² + 0.001² + 0.011² + 3·0.021² =
        // 0.00269, variance 0.00269 / 9 = 0.000298889, sd 0.0172884;
        // se = 0.0172884 / (0.6 · √10) = 0.00911179; t = 2.01205 on 5
        // degrees of freedom, just under t(0.95, 5) = 2.015048 (tables):
        // two-sided p just over 0.10 (0.10038 by numerical integration).
        // Interval: 0.0183333 ± t(0.975, 5) = 2.570582 times se.
        let logs = [0.02, -0.05, 0.30, 0.0, 0.01, 0.04, -0.02, 0.01, 0.06, 0.03];
        let units: Vec<f64> = logs.iter().map(|l: &f64| l.exp()).collect();
        let (i, p) = units_trimmed_ratio(&units, 0.95).unwrap();
        assert!((i.ratio.ln() - 0.0183333).abs() < 1e-6, "{}", i.ratio.ln());
        assert!((p - 0.10038).abs() < 2e-4, "{p}");
        assert!((i.lower.ln() - (0.0183333 - 2.570582 * 0.00911179)).abs() < 1e-6);
        assert!((i.upper.ln() - (0.0183333 + 2.570582 * 0.00911179)).abs() < 1e-6);
        assert_eq!(i.rounds, 6);
    }

    #[test]
    fn trimmed_ratio_of_four_units_is_students() {
        let u = [1.01, 1.03, 0.99, 1.05];
        let (t, pt) = units_t_ratio(&u, 0.95).unwrap();
        let (y, py) = units_trimmed_ratio(&u, 0.95).unwrap();
        assert!((t.lower - y.lower).abs() < 1e-12 && (t.upper - y.upper).abs() < 1e-12);
        assert!((pt - py).abs() < 1e-12);
        assert!(units_trimmed_ratio(&[1.0], 0.95).is_none());
        assert!(units_trimmed_ratio(&[1.0, 0.0], 0.95).is_none());
        let (i, p) = units_trimmed_ratio(&[1.02; 6], 0.95).unwrap();
        assert!(p == 0.0 && i.lower == i.upper);
    }

    #[test]
    fn one_unit_without_a_floor_does_not_hide_a_change() {
        // Fifteen units 3 % slower (±0.5 %), one whose rounds were all
        // disturbed reading 30 % faster: Student's interval reaches over
        // 1, the trimmed one does not.
        let mut u: Vec<f64> = (0..15)
            .map(|i| 1.03 * (1.0 + 0.005 * ((i % 3) as f64 - 1.0)))
            .collect();
        u.push(0.7);
        let (t, _) = units_t_ratio(&u, 0.95).unwrap();
        let (y, p) = units_trimmed_ratio(&u, 0.95).unwrap();
        assert!(t.lower < 1.0, "{t:?}");
        assert!(y.lower > 1.02 && p < 1e-6, "{y:?} {p}");
    }

    #[test]
    fn unit_medians_group_in_order_of_appearance() {
        let r = [1.0, 4.0, 2.0, 9.0, 3.0, 0.0];
        let u = [5, 5, 5, 2, 2, 2];
        // Unit 5: median of 1, 4, 2 = 2; unit 2: 9 and 3 (0 left out):
        // geometric midpoint √27.
        let m = unit_medians(&r, &u);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0], 2.0);
        assert!((m[1] - 27f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn the_units_interval_is_students_t_on_the_logarithms() {
        // scipy: x = log([1.01, 1.02, 0.995, 1.015, 1.008, 1.012]);
        // m, se = x.mean(), stats.sem(x); t = stats.t.ppf(0.975, 5);
        // exp(m) = 1.0099703374451108, exp(m - t*se) = 1.0011015729016859,
        // exp(m + t*se) = 1.0189176704242027;
        // stats.ttest_1samp(x, 0).pvalue = 0.03412874154464228.
        let u = [1.01, 1.02, 0.995, 1.015, 1.008, 1.012];
        let (i, p) = units_t_ratio(&u, 0.95).unwrap();
        assert!((i.ratio - 1.009_970_337_445_110_8).abs() < 1e-12);
        assert!((i.lower - 1.001_101_572_901_685_9).abs() < 1e-9);
        assert!((i.upper - 1.018_917_670_424_202_7).abs() < 1e-9);
        assert!((p - 0.034_128_741_544_642_28).abs() < 1e-7);
        assert!(i.is_significant() && i.is_slower());
        assert_eq!((i.rounds, i.coverage), (6, 0.95));
    }

    #[test]
    fn a_units_interval_becomes_a_change_whose_p_value_and_interval_agree() {
        // The scipy case above: stats.ttest_1samp(x, 0).statistic =
        // 2.8914578454905975; exp(m)·sem(x) = 0.0034653373576875902.
        let u = [1.01, 1.02, 0.995, 1.015, 1.008, 1.012];
        let (i, p) = units_t_ratio(&u, 0.95).unwrap();
        let cfg = ChangeConfig {
            noise_threshold: 0.0005,
            ..ChangeConfig::default()
        };
        let c = ratio_change(&i, p, &cfg);
        assert!((c.mean.point - 0.009_970_337_445_110_777).abs() < 1e-12);
        assert!((c.mean.lower - 0.001_101_572_901_685_9).abs() < 1e-9);
        assert!((c.t - 2.891_457_845_490_597_5).abs() < 1e-9);
        assert!((c.mean.standard_error - 0.003_465_337_357_687_590_2).abs() < 1e-9);
        assert_eq!(c.p_value, p);
        assert_eq!(c.verdict, crate::Verdict::Regressed);
        // A threshold the interval reaches into: significant, within noise.
        let wide = ChangeConfig {
            noise_threshold: 0.002,
            ..cfg
        };
        assert_eq!(
            ratio_change(&i, p, &wide).verdict,
            crate::Verdict::WithinNoise
        );
    }

    #[test]
    fn units_that_agree_exactly_or_are_too_few() {
        let (i, p) = units_t_ratio(&[2.0; 4], 0.95).unwrap();
        assert_eq!((i.ratio, i.lower, i.upper, p), (2.0, 2.0, 2.0, 0.0));
        let (i, p) = units_t_ratio(&[1.0; 4], 0.95).unwrap();
        assert_eq!(p, 1.0);
        assert!(!i.is_significant());
        assert!(units_t_ratio(&[1.0], 0.95).is_none());
        assert!(units_t_ratio(&[1.0, f64::NAN], 0.95).is_none());
    }

    #[test]
    fn binomial_cdf_matches_scipy() {
        // scipy.stats.binom.cdf(5, 20, 0.5) = 0.020694732666015625
        assert!((binom_half_cdf(5, 20) - 0.020_694_732_666_015_625).abs() < 1e-15);
        // scipy.stats.binom.cdf(6, 20, 0.5) = 0.057659149169921875
        assert!((binom_half_cdf(6, 20) - 0.057_659_149_169_921_875).abs() < 1e-15);
        assert_eq!(binom_half_cdf(-1, 5), 0.0);
        assert!((binom_half_cdf(5, 5) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn the_interval_uses_the_order_statistics_scipy_gives() {
        // For n = 20 at 95 %, k = 6 (scipy: largest k with
        // binom.cdf(k-1, 20, .5) <= 0.025): the interval is [r_6, r_15].
        let ratios: Vec<f64> = (1..=20).map(|i| 1.0 + f64::from(i) / 100.0).collect();
        let ci = sign_test_ratio(&ratios, 0.95).unwrap();
        assert_eq!(ci.lower, 1.06);
        assert_eq!(ci.upper, 1.15);
        assert!((ci.coverage - (1.0 - 2.0 * 0.020_694_732_666_015_625)).abs() < 1e-12);
        assert!(ci.is_significant());
        assert!(ci.lower <= ci.ratio && ci.ratio <= ci.upper);
    }

    #[test]
    fn the_p_value_is_scipys_binomtest() {
        // scipy.stats.binomtest(15, 20, 0.5).pvalue = 0.041389465332031250
        let mut r = vec![1.1; 15];
        r.extend([0.9; 5]);
        assert!((sign_test_p(&r).unwrap() - 0.041_389_465_332_031_25).abs() < 1e-15);
        // Ties at 1 are dropped: binomtest(6, 6, 0.5).pvalue = 0.03125.
        r = vec![1.0, 1.0, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2];
        assert!((sign_test_p(&r).unwrap() - 0.031_25).abs() < 1e-15);
        // Balanced: binomtest(5, 10, 0.5).pvalue = 1.
        r = [vec![1.1; 5], vec![0.9; 5]].concat();
        assert_eq!(sign_test_p(&r), Some(1.0));
        assert_eq!(sign_test_p(&[1.0, 1.0]), None);
    }

    #[test]
    fn too_few_rounds_or_bad_ratios_give_none() {
        // n = 5: P(Bin(5, .5) = 0) = 0.03125 > 0.025.
        assert!(sign_test_ratio(&[1.0; 5], 0.95).is_none());
        assert!(sign_test_ratio(&[1.0; 6], 0.95).is_some());
        assert!(sign_test_ratio(&[1.0, 0.0, 1.0, 1.0, 1.0, 1.0], 0.95).is_none());
    }

    #[test]
    fn an_outlier_round_does_not_move_the_interval_much() {
        let mut ratios = vec![1.03; 30];
        ratios[7] = 50.0;
        ratios[8] = 0.01;
        let ci = sign_test_ratio(&ratios, 0.95).unwrap();
        assert_eq!((ci.lower, ci.ratio, ci.upper), (1.03, 1.03, 1.03));
    }

    #[test]
    fn last_bit_differences_are_no_difference() {
        // 50 ns per iteration reached through two iteration counts.
        let ratios = [50.0 / 49.999_999_999_999_99; 8];
        let ci = sign_test_ratio(&ratios, 0.95).unwrap();
        assert!(ci.lower > 1.0, "the rounding is there");
        assert!(!ci.is_significant() && !ci.is_slower());
        // One part in a million is a difference all the same.
        let ci = sign_test_ratio(&[1.000_001; 8], 0.95).unwrap();
        assert!(ci.is_significant() && ci.is_slower());
        let ci = sign_test_ratio(&[0.999_999; 8], 0.95).unwrap();
        assert!(ci.is_significant() && !ci.is_slower());
    }

    #[test]
    fn a_block_is_a_permutation_then_its_reverse_drawn_afresh() {
        let mut rng = Rng::new(7);
        let mut firsts = std::collections::BTreeSet::new();
        for _ in 0..50 {
            let [order, reversed] = balanced_block(3, &mut rng);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2]);
            assert_eq!(reversed, order.iter().rev().copied().collect::<Vec<_>>());
            firsts.insert(order[0]);
        }
        assert_eq!(firsts.len(), 3, "every alternative sometimes goes first");
        assert_eq!(balanced_block(1, &mut rng), [vec![0], vec![0]]);
    }

    #[test]
    fn rounds_are_sized_by_the_slowest_alternative() {
        // By hand: 2 ms a round at 3 µs per iteration is ceil(666.7) = 667.
        assert_eq!(iterations_per_round(2e6, 3e3), 667);
        assert_eq!(iterations_per_round(2e6, 5e6), 1);
        assert_eq!(iterations_per_round(2e6, 0.0), 2_000_000_000);
    }
}
