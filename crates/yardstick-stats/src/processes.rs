//! Estimates that carry the run-to-run variance: a benchmark measured in
//! several worker processes, each process one observation.
//!
//! Samples taken inside one process share its heap layout, address-space
//! randomisation, frequency state and the load of its moment; their spread
//! says nothing about how far the *next* process (the next `cargo bench`)
//! will land. pyperf runs 20 worker processes for this reason. Here each
//! process is reduced to one estimate (its slope, or its mean per
//! iteration), and the interval is Student's t over those estimates: with
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
use crate::change::{verdict_of, Change, ChangeConfig};
use crate::distributions::{t_quantile, t_sf};
use crate::error::{check_confidence, check_finite, StatsError};
use crate::regression::through_origin;
use crate::univariate::{mean_unchecked, percentile, variance_with_mean};

/// One estimate per process, in the order the processes first appear in
/// `processes` (`processes[i]` names the process that measured sample `i`).
/// Linear samples give each process's slope through the origin; flat ones
/// its mean value per iteration.
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
    linear: bool,
) -> Result<Vec<f64>, StatsError> {
    by_process(iters, values, processes)?
        .into_iter()
        .map(|(x, y)| {
            if linear {
                through_origin(&x, &y).map(|fit| fit.slope)
            } else {
                Ok(mean_unchecked(&per_iteration(&x, &y)))
            }
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

/// The interval's half-width relative to its point: the precision reached.
/// `None` for fewer than two processes or a non-positive mean.
#[must_use]
pub fn relative_half_width(estimates: &[f64], confidence: f64) -> Option<f64> {
    let e = interval(estimates, confidence).ok()??;
    (e.point > 0.0).then(|| (e.upper - e.point) / e.point)
}

/// How uncertain a whole run's estimate is beyond its processes' standard
/// error, in units of one process's variance: the run shift measured on a
/// shared VM was about one process's spread (see the module's text).
pub const RUN_SHIFT: f64 = 1.0;

/// The change from `old` to `new` (per-process estimates of two runs,
/// usually [`per_process_fast`]): Welch's t-test on their logarithms, each
/// run's variance `s²·(1/K + RUN_SHIFT)` so that the run's own shift is
/// counted. `mean` is the ratio of geometric means minus one with its
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
    let d = m_new - m_old;
    let se2 = v_old + v_new;
    let (t, p_value, half) = if se2 == 0.0 {
        // No spread at all: any difference is certain, none is none.
        if d == 0.0 {
            (0.0, 1.0, 0.0)
        } else {
            (d.signum() * f64::INFINITY, 0.0, 0.0)
        }
    } else {
        let se = se2.sqrt();
        let df = se2 * se2 / (v_old * v_old / (n_old - 1.0) + v_new * v_new / (n_new - 1.0));
        let t = d / se;
        let p = (2.0 * t_sf(t.abs(), df)).min(1.0);
        (t, p, t_quantile(0.5 + cfg.confidence / 2.0, df) * se)
    };
    let mean = Estimate {
        point: d.exp_m1(),
        lower: (d - half).exp_m1(),
        upper: (d + half).exp_m1(),
        confidence: cfg.confidence,
        standard_error: se2.sqrt() * d.exp(),
    };
    Ok(Change {
        mean,
        median: mean,
        p_value,
        t,
        verdict: verdict_of(p_value, &mean, cfg),
    })
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
    fn per_process_estimates_group_by_process_in_order_of_appearance() {
        // Process 7: exactly 2 per iteration (slope 2); process 3: 3.
        let iters = [1.0, 2.0, 1.0, 2.0, 3.0];
        let values = [2.0, 4.0, 3.0, 6.0, 9.0];
        let procs = [7, 7, 3, 3, 3];
        assert_eq!(
            per_process(&iters, &values, &procs, true).unwrap(),
            [2.0, 3.0]
        );
        // Flat: mean of value / iters per process.
        let flat = per_process(&[1.0, 1.0, 2.0], &[4.0, 6.0, 10.0], &[0, 0, 1], false).unwrap();
        assert_eq!(flat, [5.0, 5.0]);
        assert!(per_process(&[1.0], &[1.0, 2.0], &[0], true).is_err());
    }

    #[test]
    fn a_clear_slowdown_is_a_regression_with_the_run_shift_counted() {
        // scipy, by hand: lo, ln = log(old), log(new); each side's variance
        // var(ddof=1)·(1/K + 1); Welch–Satterthwaite df from those;
        // t = Δ/se, p = 2·t.sf(|t|, df), Δ ± t.ppf(0.975, df)·se.
        // old = [100, 102, 98, 101, 99], new = [110, 108, 112, 109, 111, 107]:
        // t = 3.584443646401657, p = 0.005911757463117851, df 8.98;
        // expm1: 0.09497630969434925 in (0.03401652442357872, 0.15952994025915898).
        let old = [100.0, 102.0, 98.0, 101.0, 99.0];
        let new = [110.0, 108.0, 112.0, 109.0, 111.0, 107.0];
        let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
        close(c.t, 3.584_443_646_401_657, 1e-9);
        close(c.p_value, 0.005_911_757_463_117_851, 1e-7);
        close(c.mean.point, 0.094_976_309_694_349_25, 1e-12);
        close(c.mean.lower, 0.034_016_524_423_578_72, 1e-6);
        close(c.mean.upper, 0.159_529_940_259_158_98, 1e-6);
        assert_eq!(c.verdict, Verdict::Regressed);
    }

    #[test]
    fn overlapping_runs_are_no_change() {
        // The same calculation: old = [100, 103, 97, 101, 99],
        // new = [101, 99, 104, 98, 100.5]: p = 0.8900122520984537;
        // (−0.07270541379431222, 0.08920313542512032).
        let old = [100.0, 103.0, 97.0, 101.0, 99.0];
        let new = [101.0, 99.0, 104.0, 98.0, 100.5];
        let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
        close(c.p_value, 0.890_012_252_098_453_7, 1e-7);
        close(c.mean.lower, -0.072_705_413_794_312_22, 1e-6);
        close(c.mean.upper, 0.089_203_135_425_120_32, 1e-6);
        assert_eq!(c.verdict, Verdict::NoChange);
    }

    #[test]
    fn a_shift_no_larger_than_the_processes_spread_is_not_a_regression() {
        // +3 % with processes ±0.8 %: Welch's test over the processes alone
        // calls it certain, but a whole run moves about that much. The same
        // calculation: p = 0.04003012642413707, interval
        // (0.0017221963077855753, 0.05907910313471832): its lower end is
        // inside the 1 % noise threshold.
        let old = [100.0, 101.0, 99.0, 100.5, 99.5];
        let new = [103.0, 104.0, 102.0, 103.5, 102.5];
        let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
        close(c.p_value, 0.040_030_126_424_137_07, 1e-7);
        close(c.mean.lower, 0.001_722_196_307_785_575_3, 1e-6);
        assert_eq!(c.verdict, Verdict::WithinNoise);
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
        let apart = compare(&[5.0, 5.0], &[6.0, 6.0], &ChangeConfig::default()).unwrap();
        assert_eq!((apart.p_value, apart.verdict), (0.0, Verdict::Regressed));
        close(apart.mean.point, 0.2, 1e-12);
        assert!(compare(&[5.0], &[6.0, 6.0], &ChangeConfig::default()).is_err());
        assert!(compare(&[0.0, 1.0], &[6.0, 6.0], &ChangeConfig::default()).is_err());
    }
}
