//! Estimates that carry the run-to-run variance: a benchmark measured in
//! several worker processes, each process one observation.
//!
//! Samples taken inside one process share its heap layout, address-space
//! randomisation, frequency state and the load of its moment; their spread
//! says nothing about how far the *next* process (the next `cargo bench`)
//! will land. pyperf runs 20 worker processes for this reason. Here each
//! process is reduced to one estimate (its median time per iteration), and
//! the interval is Student's t over those estimates: with
//! `K` processes it has `K − 1` degrees of freedom and includes both the
//! within-process noise (through each process's estimate) and the
//! between-process offset. That interval says how precisely *this run*
//! measured.
//!
//! Comparing two runs needs more. The processes of one run share its
//! seconds of machine time, and a run seconds or minutes later lands
//! elsewhere as a whole: measured on a shared 2-core VM, for five
//! benchmarks whose noise ranged from 0.5 % to 10 %, the standard
//! deviation of whole-run estimates was 2.3–6 times the standard error over
//! one run's 10 processes — the run's own shift was about as large as one
//! process's. So [`compare`] treats each run's estimate as uncertain as
//! one more process would be (variance `s²·(1 + 1/K)`, the prediction
//! interval of a new observation), and compares the runs' *fast* ends
//! ([`per_process_fast`]: the 10th percentile of each process's
//! per-iteration times). Interference only ever adds time, so a low
//! quantile moves less between runs than a mean: on the same machine its
//! run-to-run deviation was 1.1–2.0 % against 1.8–4.2 % for the mean.
//! The change is Welch's t-test on the logarithms, so it is a ratio with
//! the interval `exp(d ± t·se) − 1`.

use crate::bootstrap::Estimate;
use crate::change::{verdict_of, Change, ChangeConfig, ChangeDistributions};
use crate::distributions::{t_quantile, t_sf};
use crate::error::{check_confidence, check_finite, StatsError};
use crate::univariate::{mean_unchecked, median, percentile, variance_with_mean};

/// One estimate per process, in the order the processes first appear in
/// `processes` (`processes[i]` names the process that measured sample `i`):
/// the median of its samples' values per iteration. For linear samples that
/// is the median-of-ratios slope through the origin, which — unlike the
/// least-squares slope, which the largest samples decide — a sample
/// inflated by a preemption or an interrupt barely moves; on a loaded
/// 2-core machine it moved 2.3 % between runs where the least-squares
/// slope moved 4 %.
///
/// # Errors
///
/// [`StatsError::LengthMismatch`] when the slices differ in length,
/// [`StatsError::TooFewSamples`] when there are no samples,
/// [`StatsError::NonFinite`] for NaN or infinite values.
pub fn per_process(
    iters: &[f64],
    values: &[f64],
    processes: &[u32],
) -> Result<Vec<f64>, StatsError> {
    by_process(iters, values, processes)?
        .into_iter()
        .map(|(x, y)| {
            median(&per_iteration(&x, &y)).ok_or(StatsError::TooFewSamples { needed: 1, got: 0 })
        })
        .collect()
}

/// The percentile of each process's per-iteration values that comparisons
/// use: low enough to sit below most interference, high enough not to be
/// one lucky sample.
pub const FAST_PERCENTILE: f64 = 10.0;

/// The fast end of each process: the [`FAST_PERCENTILE`]th percentile of
/// its values per iteration (R type 7), in the order the processes first
/// appear, as [`per_process`].
///
/// # Errors
///
/// As [`per_process`].
pub fn per_process_fast(
    iters: &[f64],
    values: &[f64],
    processes: &[u32],
) -> Result<Vec<f64>, StatsError> {
    by_process(iters, values, processes)?
        .into_iter()
        .map(|(x, y)| {
            percentile(&per_iteration(&x, &y), FAST_PERCENTILE)
                .ok_or(StatsError::TooFewSamples { needed: 1, got: 0 })
        })
        .collect()
}

fn per_iteration(iters: &[f64], values: &[f64]) -> Vec<f64> {
    values.iter().zip(iters).map(|(v, n)| v / n).collect()
}

/// One process's iteration counts and values.
type ProcessSamples = (Vec<f64>, Vec<f64>);

/// The `(iters, values)` of each process, in order of first appearance.
fn by_process(
    iters: &[f64],
    values: &[f64],
    processes: &[u32],
) -> Result<Vec<ProcessSamples>, StatsError> {
    for other in [values.len(), processes.len()] {
        if other != iters.len() {
            return Err(StatsError::LengthMismatch {
                left: iters.len(),
                right: other,
            });
        }
    }
    if iters.is_empty() {
        return Err(StatsError::TooFewSamples { needed: 1, got: 0 });
    }
    check_finite(iters)?;
    check_finite(values)?;
    let mut order: Vec<u32> = Vec::new();
    for &p in processes {
        if !order.contains(&p) {
            order.push(p);
        }
    }
    Ok(order
        .iter()
        .map(|&p| {
            processes
                .iter()
                .zip(iters.iter().zip(values))
                .filter(|(&q, _)| q == p)
                .map(|(_, (&n, &v))| (n, v))
                .unzip()
        })
        .collect())
}

/// The mean of the per-process estimates with Student's t interval over
/// them (`K − 1` degrees of freedom). `None` for fewer than two processes.
///
/// # Errors
///
/// [`StatsError::NonFinite`] for NaN or infinite estimates, and a bad
/// confidence level.
pub fn interval(estimates: &[f64], confidence: f64) -> Result<Option<Estimate>, StatsError> {
    check_confidence(confidence)?;
    check_finite(estimates)?;
    if estimates.len() < 2 {
        return Ok(None);
    }
    let k = estimates.len() as f64;
    let mean = mean_unchecked(estimates);
    let se = (variance_with_mean(estimates, mean) / k).sqrt();
    let half = t_quantile(0.5 + confidence / 2.0, k - 1.0) * se;
    Ok(Some(Estimate {
        point: mean,
        lower: mean - half,
        upper: mean + half,
        confidence,
        standard_error: se,
    }))
}

/// How many points the drawn distributions ([`interval_draws`],
/// [`compare_runs_with_distributions`]) need for a smooth curve: they are
/// quantiles, not random draws.
pub const DRAWN_POINTS: usize = 2_000;

/// The distribution behind [`interval`], to draw: `n` evenly spaced
/// quantiles of the mean's Student's t distribution (`K − 1` degrees of
/// freedom, scaled by the standard error). `None` for fewer than two
/// processes.
#[must_use]
pub fn interval_draws(estimates: &[f64], n: usize) -> Option<Vec<f64>> {
    let e = interval(estimates, 0.95).ok()??;
    let df = estimates.len() as f64 - 1.0;
    Some(
        (0..n)
            .map(|i| e.point + e.standard_error * t_quantile((i as f64 + 0.5) / n as f64, df))
            .collect(),
    )
}

/// The interval's half-width relative to its point: the precision reached.
/// `None` for fewer than two processes or a non-positive mean.
#[must_use]
pub fn relative_half_width(estimates: &[f64], confidence: f64) -> Option<f64> {
    let e = interval(estimates, confidence).ok()??;
    (e.point > 0.0).then(|| (e.upper - e.point) / e.point)
}

/// Degrees of freedom past which Student's t is the normal distribution
/// for every purpose here.
const MAX_DF: f64 = 1e6;

/// How uncertain a whole run's estimate is beyond its processes' standard
/// error, in units of one process's variance: the run shift measured on a
/// shared VM was about one process's spread (see the module's text).
pub const RUN_SHIFT: f64 = 1.0;

/// The change from `old` to `new` (per-process estimates of two runs,
/// usually [`per_process_fast`]): Welch's t-test on their logarithms, each
/// run's variance `s²·(1/K + RUN_SHIFT) + ln(1 + noise threshold)²`, so
/// that the run's own shift is counted — in proportion to its processes'
/// spread, and never less than the noise threshold as one standard
/// deviation (runs whose processes agreed within 0.1 % still landed 1.6 %
/// apart under a compile load). `mean` is the ratio of geometric means minus one with its
/// interval; `median` is the same (a process's estimate is already a robust
/// summary). The verdict follows Criterion.rs's rule over that interval
/// (see [`crate::compare`]).
///
/// # Errors
///
/// [`StatsError::TooFewSamples`] when either run has fewer than two
/// processes, [`StatsError::NonPositive`] for an estimate ≤ 0,
/// [`StatsError::NonFinite`] for NaN or infinite ones.
pub fn compare(old: &[f64], new: &[f64], cfg: &ChangeConfig) -> Result<Change, StatsError> {
    welch(old, new, cfg).map(|w| w.change(cfg))
}

/// The difference of two runs' mean logarithms and its Welch statistics.
struct Welch {
    /// New minus old mean logarithm.
    d: f64,
    /// Its squared standard error, the run shifts and the floor counted.
    se2: f64,
    /// Welch–Satterthwaite degrees of freedom over the estimated parts.
    df: f64,
}

fn welch(old: &[f64], new: &[f64], cfg: &ChangeConfig) -> Result<Welch, StatsError> {
    check_confidence(cfg.confidence)?;
    for run in [old, new] {
        if run.len() < 2 {
            return Err(StatsError::TooFewSamples {
                needed: 2,
                got: run.len(),
            });
        }
        check_finite(run)?;
        if run.iter().any(|&v| v <= 0.0) {
            return Err(StatsError::NonPositive);
        }
    }
    let lo: Vec<f64> = old.iter().map(|v| v.ln()).collect();
    let ln: Vec<f64> = new.iter().map(|v| v.ln()).collect();
    let (n_old, n_new) = (lo.len() as f64, ln.len() as f64);
    let (m_old, m_new) = (mean_unchecked(&lo), mean_unchecked(&ln));
    let (v_old, v_new) = (
        variance_with_mean(&lo, m_old) * (1.0 / n_old + RUN_SHIFT),
        variance_with_mean(&ln, m_new) * (1.0 / n_new + RUN_SHIFT),
    );
    // However closely a run's processes agree, the run as a whole shifts:
    // at least by the noise threshold (one standard deviation) per run.
    let floor = cfg.noise_threshold.max(0.0).ln_1p().powi(2);
    let se2 = v_old + v_new + 2.0 * floor;
    // Welch–Satterthwaite over the estimated parts; the floor is known.
    let estimated = v_old * v_old / (n_old - 1.0) + v_new * v_new / (n_new - 1.0);
    let df = if estimated > 0.0 {
        (se2 * se2 / estimated).min(MAX_DF)
    } else {
        MAX_DF
    };
    Ok(Welch {
        d: m_new - m_old,
        se2,
        df,
    })
}

impl Welch {
    fn change(&self, cfg: &ChangeConfig) -> Change {
        let (d, se2) = (self.d, self.se2);
        let (t, p_value, half) = if se2 == 0.0 {
            // No spread at all: any difference is certain, none is none.
            if d == 0.0 {
                (0.0, 1.0, 0.0)
            } else {
                (d.signum() * f64::INFINITY, 0.0, 0.0)
            }
        } else {
            let se = se2.sqrt();
            let t = d / se;
            let p = (2.0 * t_sf(t.abs(), self.df)).min(1.0);
            (t, p, t_quantile(0.5 + cfg.confidence / 2.0, self.df) * se)
        };
        let mean = Estimate {
            point: d.exp_m1(),
            lower: (d - half).exp_m1(),
            upper: (d + half).exp_m1(),
            confidence: cfg.confidence,
            standard_error: se2.sqrt() * d.exp(),
        };
        Change {
            mean,
            median: mean,
            p_value,
            t,
            verdict: verdict_of(p_value, &mean, cfg),
        }
    }

    /// The comparison's own distributions, to draw: `n` evenly spaced
    /// quantiles of Student's t with the test's degrees of freedom — as
    /// the null distribution of t, and scaled to the relative change. The
    /// bootstrap over samples would draw a narrower curve than the interval
    /// the verdict used.
    fn distributions(&self, n: usize) -> ChangeDistributions {
        let se = self.se2.sqrt();
        let t: Vec<f64> = (0..n)
            .map(|i| t_quantile((i as f64 + 0.5) / n as f64, self.df))
            .collect();
        let mean: Vec<f64> = t.iter().map(|q| (self.d + se * q).exp_m1()).collect();
        ChangeDistributions {
            t,
            median: mean.clone(),
            mean,
        }
    }
}

/// One run's samples, with the worker process that took each.
#[derive(Debug, Clone, Copy)]
pub struct RunSamples<'a> {
    /// Iterations of each sample.
    pub iters: &'a [f64],
    /// Measured value of each sample.
    pub values: &'a [f64],
    /// The process of each sample.
    pub processes: &'a [u32],
}

impl RunSamples<'_> {
    /// The fast end of each process, when at least two took the samples.
    fn fast_ends(&self) -> Option<Vec<f64>> {
        let e = per_process_fast(self.iters, self.values, self.processes).ok()?;
        (e.len() >= 2).then_some(e)
    }
}

/// The cross-run comparison every tool makes of two runs sampled in
/// worker processes: [`compare`] of their [`per_process_fast`] ends.
/// `None` when either run has fewer than two processes (compare its
/// samples instead).
pub fn compare_runs(
    old: RunSamples<'_>,
    new: RunSamples<'_>,
    cfg: &ChangeConfig,
) -> Option<Result<Change, StatsError>> {
    let (old, new) = (old.fast_ends()?, new.fast_ends()?);
    Some(compare(&old, &new, cfg))
}

/// [`compare_runs`], with the comparison's distributions to draw (`n`
/// points each; see the report's change plots).
pub fn compare_runs_with_distributions(
    old: RunSamples<'_>,
    new: RunSamples<'_>,
    cfg: &ChangeConfig,
    n: usize,
) -> Option<Result<(Change, ChangeDistributions), StatsError>> {
    let (old, new) = (old.fast_ends()?, new.fast_ends()?);
    Some(welch(&old, &new, cfg).map(|w| (w.change(cfg), w.distributions(n))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    #[test]
    fn the_interval_is_students_t_over_the_processes() {
        // scipy: e = [10.2, 9.8, 10.5, 10.1, 9.9]; m ± t.ppf(0.975, 4)·sd/√5
        // = 10.1 ± …: (9.759956309670873, 10.440043690329126), se 0.12247448713915875.
        let e = interval(&[10.2, 9.8, 10.5, 10.1, 9.9], 0.95)
            .unwrap()
            .unwrap();
        close(e.point, 10.1, 1e-12);
        close(e.lower, 9.759_956_309_670_873, 1e-9);
        close(e.upper, 10.440_043_690_329_126, 1e-9);
        close(e.standard_error, 0.122_474_487_139_158_75, 1e-12);
        assert_eq!(interval(&[1.0], 0.95).unwrap(), None);
        let rel = relative_half_width(&[10.2, 9.8, 10.5, 10.1, 9.9], 0.95).unwrap();
        close(rel, (10.440_043_690_329_126 - 10.1) / 10.1, 1e-9);
    }

    #[test]
    fn the_drawn_interval_has_the_intervals_quantiles() {
        // The scipy case above: the 2.5th and 97.5th percentiles of the draws
        // are the interval's bounds; point 3900 of 4000 is
        // 10.1 + 0.12247448713915875 · t.ppf(3900.5 / 4000, 4)
        // = 10.1 + 0.12247448713915875 · 2.7813457865226563.
        let e = [10.2, 9.8, 10.5, 10.1, 9.9];
        let d = interval_draws(&e, 4000).unwrap();
        close(
            d[3900],
            10.1 + 0.122_474_487_139_158_75 * 2.781_345_786_522_656_3,
            1e-9,
        );
        close(d[2000], 10.1, 1e-3);
        assert_eq!(interval_draws(&e[..1], 10), None);
    }

    #[test]
    fn per_process_estimates_group_by_process_in_order_of_appearance() {
        // Process 7: 2 per iteration in every sample but one preempted
        // (9 over 3); the median of ratios [2, 2, 3, 2] is 2 where least
        // squares through the origin would give 25/14. Process 3: 3, 3.
        let iters = [1.0, 2.0, 3.0, 4.0, 1.0, 2.0];
        let values = [2.0, 4.0, 9.0, 8.0, 3.0, 6.0];
        let procs = [7, 7, 7, 7, 3, 3];
        assert_eq!(per_process(&iters, &values, &procs).unwrap(), [2.0, 3.0]);
        // Flat: the median of value / iters per process.
        let flat = per_process(&[1.0, 1.0, 2.0], &[4.0, 6.0, 10.0], &[0, 0, 1]).unwrap();
        assert_eq!(flat, [5.0, 5.0]);
        assert!(per_process(&[1.0], &[1.0, 2.0], &[0]).is_err());
    }

    #[test]
    fn a_clear_slowdown_is_a_regression_with_the_run_shift_counted() {
        // numpy/scipy, by hand: lo, ln = log(old), log(new); each side's
        // variance var(ddof=1)·(1/K + 1) + log1p(0.01)²; Welch–Satterthwaite
        // df over the var(ddof=1) parts; t = Δ/se, p = 2·t.sf(|t|, df),
        // Δ ± t.ppf(0.975, df)·se.
        // old = [100, 102, 98, 101, 99], new = [110, 108, 112, 109, 111, 107]:
        // t = 3.132886054189263, p = 0.006671184252061234, df 15.39;
        // expm1: 0.09497630969434925 in (0.029566541919776736, 0.16454164930048668).
        let old = [100.0, 102.0, 98.0, 101.0, 99.0];
        let new = [110.0, 108.0, 112.0, 109.0, 111.0, 107.0];
        let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
        close(c.t, 3.132_886_054_189_263, 1e-9);
        close(c.p_value, 0.006_671_184_252_061_234, 1e-7);
        close(c.mean.point, 0.094_976_309_694_349_25, 1e-12);
        close(c.mean.lower, 0.029_566_541_919_776_736, 1e-6);
        close(c.mean.upper, 0.164_541_649_300_486_68, 1e-6);
        assert_eq!(c.verdict, Verdict::Regressed);
    }

    #[test]
    fn the_drawn_distributions_are_the_tests_own() {
        // The same runs as above, df 15.386822648460155 (the hand
        // calculation). The drawn relative changes span the verdict's
        // interval at its quantiles, and point 3900 of 4000 of the null t is
        // scipy's t.ppf(3900.5 / 4000, df) = 2.12942886658251.
        let run = |v: &[f64]| {
            (
                v.to_vec(),
                vec![1.0; v.len()],
                (0..v.len() as u32).collect::<Vec<_>>(),
            )
        };
        let (ov, oi, op) = run(&[100.0, 102.0, 98.0, 101.0, 99.0]);
        let (nv, ni, np) = run(&[110.0, 108.0, 112.0, 109.0, 111.0, 107.0]);
        // One sample per process: each process's fast end is its value.
        let old = RunSamples {
            iters: &oi,
            values: &ov,
            processes: &op,
        };
        let new = RunSamples {
            iters: &ni,
            values: &nv,
            processes: &np,
        };
        let cfg = ChangeConfig::default();
        let (c, d) = compare_runs_with_distributions(old, new, &cfg, 4000)
            .unwrap()
            .unwrap();
        close(c.mean.point, 0.094_976_309_694_349_25, 1e-12);
        let at = |v: &[f64], q: f64| v[(q * v.len() as f64) as usize];
        close(at(&d.mean, 0.025), c.mean.lower, 2e-3);
        close(at(&d.mean, 0.975), c.mean.upper, 2e-3);
        close(at(&d.mean, 0.5), c.mean.point, 1e-3);
        close(d.t[3900], 2.129_428_866_582_51, 1e-9);
        assert_eq!(d.mean, d.median);
    }

    #[test]
    fn overlapping_runs_are_no_change() {
        // The same calculation: old = [100, 103, 97, 101, 99],
        // new = [101, 99, 104, 98, 100.5]: p = 0.897102535275608;
        // (−0.07503859708845312, 0.09195061283498884).
        let old = [100.0, 103.0, 97.0, 101.0, 99.0];
        let new = [101.0, 99.0, 104.0, 98.0, 100.5];
        let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
        close(c.p_value, 0.897_102_535_275_608, 1e-7);
        close(c.mean.lower, -0.075_038_597_088_453_12, 1e-6);
        close(c.mean.upper, 0.091_950_612_834_988_84, 1e-6);
        assert_eq!(c.verdict, Verdict::NoChange);
    }

    #[test]
    fn a_shift_no_larger_than_the_processes_spread_is_not_a_regression() {
        // +3 % with processes ±0.8 %: Welch's test over the processes alone
        // calls it certain, but a whole run moves about that much. The same
        // calculation: p = 0.11792247175929506, interval
        // (−0.007762448606870622, 0.06920267607918297).
        let old = [100.0, 101.0, 99.0, 100.5, 99.5];
        let new = [103.0, 104.0, 102.0, 103.5, 102.5];
        let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
        close(c.p_value, 0.117_922_471_759_295_06, 1e-7);
        close(c.mean.lower, -0.007_762_448_606_870_622, 1e-6);
        assert_eq!(c.verdict, Verdict::NoChange);
    }

    #[test]
    fn runs_whose_processes_agree_still_shift_by_the_noise_threshold() {
        // Processes within ±0.1 %, runs 1.6 % apart (seen under a compile
        // load in A/A pairs): not a change. 5 % apart: a regression. The
        // same calculation: p = 0.2610843155176539 and
        // p = 0.0005509416257734299, interval (0.021334537079703977,
        // 0.07947005728643622).
        let old = [100.0, 100.1, 99.9, 100.05, 99.95];
        let near: Vec<f64> = old.iter().map(|v| v + 1.6).collect();
        let c = compare(&old, &near, &ChangeConfig::default()).unwrap();
        close(c.p_value, 0.261_084_315_517_653_9, 1e-6);
        assert_eq!(c.verdict, Verdict::NoChange);
        let far: Vec<f64> = old.iter().map(|v| v + 5.0).collect();
        let c = compare(&old, &far, &ChangeConfig::default()).unwrap();
        close(c.p_value, 0.000_550_941_625_773_429_9, 1e-7);
        close(c.mean.lower, 0.021_334_537_079_703_977, 1e-6);
        close(c.mean.upper, 0.079_470_057_286_436_22, 1e-6);
        assert_eq!(c.verdict, Verdict::Regressed);
    }

    #[test]
    fn the_fast_end_of_each_process_is_its_tenth_percentile() {
        // numpy.percentile([1, 2, 3, 4, 5], 10) = 1.4 (linear); process 9
        // has values 2·[1..5] over 2 iterations each, so the same.
        let iters = [1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0];
        let values = [5.0, 1.0, 3.0, 2.0, 4.0, 10.0, 2.0, 6.0, 4.0, 8.0];
        let procs = [4, 4, 4, 4, 4, 9, 9, 9, 9, 9];
        let fast = per_process_fast(&iters, &values, &procs).unwrap();
        close(fast[0], 1.4, 1e-12);
        close(fast[1], 1.4, 1e-12);
        assert!(per_process_fast(&[], &[], &[]).is_err());
    }

    #[test]
    fn degenerate_runs_never_give_nan() {
        let same = compare(&[5.0, 5.0], &[5.0, 5.0], &ChangeConfig::default()).unwrap();
        assert_eq!((same.p_value, same.verdict), (1.0, Verdict::NoChange));
        // Without a noise threshold, no spread makes any difference certain.
        let exact = ChangeConfig {
            noise_threshold: 0.0,
            ..ChangeConfig::default()
        };
        let apart = compare(&[5.0, 5.0], &[6.0, 6.0], &exact).unwrap();
        assert_eq!((apart.p_value, apart.verdict), (0.0, Verdict::Regressed));
        close(apart.mean.point, 0.2, 1e-12);
        let floored = compare(&[5.0, 5.0], &[6.0, 6.0], &ChangeConfig::default()).unwrap();
        assert!(floored.p_value < 1e-30, "{floored:?}");
        assert_eq!(floored.verdict, Verdict::Regressed);
        assert!(compare(&[5.0], &[6.0, 6.0], &ChangeConfig::default()).is_err());
        assert!(compare(&[0.0, 1.0], &[6.0, 6.0], &ChangeConfig::default()).is_err());
    }
}
