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
//! between-process offset.
//!
//! Comparisons of two runs are Welch's t-test on the logarithms of the
//! per-process estimates, so the change is a ratio and its interval is
//! `exp(d ± t·se) − 1`.

use crate::bootstrap::Estimate;
use crate::change::{verdict_of, Change, ChangeConfig};
use crate::distributions::{t_quantile, t_sf};
use crate::error::{check_confidence, check_finite, StatsError};
use crate::regression::through_origin;
use crate::univariate::{mean_unchecked, variance_with_mean};

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
    order
        .iter()
        .map(|&p| {
            let (x, y): (Vec<f64>, Vec<f64>) = processes
                .iter()
                .zip(iters.iter().zip(values))
                .filter(|(&q, _)| q == p)
                .map(|(_, (&n, &v))| (n, v))
                .unzip();
            if linear {
                through_origin(&x, &y).map(|fit| fit.slope)
            } else {
                let per_iter: Vec<f64> = y.iter().zip(&x).map(|(v, n)| v / n).collect();
                Ok(mean_unchecked(&per_iter))
            }
        })
        .collect()
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

/// The change from `old` to `new` (per-process estimates of two runs):
/// Welch's t-test on their logarithms. `mean` is the ratio of geometric
/// means minus one with its interval; `median` is the same (a process's
/// estimate is already a robust summary). The verdict follows
/// Criterion.rs's rule over that interval (see [`crate::compare`]).
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
        variance_with_mean(&lo, m_old) / n_old,
        variance_with_mean(&ln, m_new) / n_new,
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
    fn a_clear_slowdown_is_a_regression_with_welchs_interval() {
        // scipy: ttest_ind(log(new), log(old), equal_var=False) with
        // old = [100, 102, 98, 101, 99], new = [110, 108, 112, 109, 111, 107]:
        // t = 9.133776316701537, p = 8.417934628591323e-06; expm1 of the
        // difference and its 95 % interval: 0.09497630969434925,
        // (0.07058679734162242, 0.11992145033829067).
        let old = [100.0, 102.0, 98.0, 101.0, 99.0];
        let new = [110.0, 108.0, 112.0, 109.0, 111.0, 107.0];
        let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
        close(c.t, 9.133_776_316_701_537, 1e-9);
        close(c.p_value, 8.417_934_628_591_323e-6, 1e-9);
        close(c.mean.point, 0.094_976_309_694_349_25, 1e-12);
        close(c.mean.lower, 0.070_586_797_341_622_42, 1e-6);
        close(c.mean.upper, 0.119_921_450_338_290_67, 1e-6);
        assert_eq!(c.verdict, Verdict::Regressed);
    }

    #[test]
    fn overlapping_runs_are_no_change() {
        // scipy: old = [100, 103, 97, 101, 99], new = [101, 99, 104, 98, 100.5]:
        // t = 0.34968352486525517, p = 0.735604896454365; interval of the
        // ratio − 1: (−0.02748383114318467, 0.03855565912619794).
        let old = [100.0, 103.0, 97.0, 101.0, 99.0];
        let new = [101.0, 99.0, 104.0, 98.0, 100.5];
        let c = compare(&old, &new, &ChangeConfig::default()).unwrap();
        close(c.p_value, 0.735_604_896_454_365, 1e-7);
        close(c.mean.lower, -0.027_483_831_143_184_67, 1e-6);
        close(c.mean.upper, 0.038_555_659_126_197_94, 1e-6);
        assert_eq!(c.verdict, Verdict::NoChange);
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
