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
//! one run's 10 processes. So [`compare`] treats each run's estimate as
//! uncertain as [`RUN_SHIFT`] more processes would be (variance
//! `s²·(RUN_SHIFT + 1/K)`), and compares the runs' *fast* ends
//! ([`per_process_fast`]: each process's fastest time per iteration).
//! Interference only ever adds time, so the fastest sample moves least
//! between runs (Chen and Revels, *Robust benchmarking in noisy
//! environments*, 2016, on which Julia's BenchmarkTools rests).
//!
//! Both were chosen on A/A runs of divan's example suites in worker
//! processes (same binary, runs a minute apart, on a VM whose speed moves
//! by 30 % for tens of seconds at a time): of 1,590 comparisons of the
//! `collections` suite, the 10th percentile with a shift of one process
//! flagged 14.9 %, the minimum with a shift of two 5.3 %; on the `forms`
//! suite, not used to choose them, 21.5 % and 10.1 %. A true +10 % was
//! then found 8.6 % (was 12.3 %) and 23.3 % (was 32.3 %) of the time: on
//! such a machine the honest answer to most cross-run questions is "too
//! noisy to tell", and lock-step comparisons (`cargo yardstick ab`) are
//! the way to small changes.
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
/// use: 0, its fastest sample. Interference only adds time, so no sample
/// is luckier than the machine allows; the 10th percentile, used before,
/// moved further between runs (see the module's text).
pub const FAST_PERCENTILE: f64 = 0.0;

/// The fast end of each process: the [`FAST_PERCENTILE`]th percentile of
/// its values per iteration (R type 7; the 0th is the minimum), in the
/// order the processes first appear, as [`per_process`].
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

/// The typical value of the per-process estimates with Student's t
/// interval over them (`K − 1` degrees of freedom). `None` for fewer than
/// two processes.
///
/// Times are positive and their spread is multiplicative (a process on a
/// slower moment is slower by a share, not by a fixed amount), so when
/// every estimate is above zero the interval is taken on their logarithms:
/// the point is the geometric mean and the bounds `exp(m ± t·s/√K)` — never
/// at or below zero, and wider above than below, as the data are. (On a
/// linear scale, five processes of a 5 µs benchmark under load gave
/// `[-650 ns, 5.3 µs, 11.3 µs]`.) The standard error is the log scale's
/// carried back to the unit by the delta method (`point · se_log`).
/// Estimates that reach zero or below (a custom measurement's) keep the
/// linear interval.
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
    let t = t_quantile(0.5 + confidence / 2.0, k - 1.0);
    if estimates.iter().all(|&e| e > 0.0) {
        let (m, se) = log_mean_and_se(estimates);
        return Ok(Some(Estimate {
            point: m.exp(),
            lower: (m - t * se).exp(),
            upper: (m + t * se).exp(),
            confidence,
            standard_error: m.exp() * se,
        }));
    }
    let mean = mean_unchecked(estimates);
    let se = (variance_with_mean(estimates, mean) / k).sqrt();
    Ok(Some(Estimate {
        point: mean,
        lower: mean - t * se,
        upper: mean + t * se,
        confidence,
        standard_error: se,
    }))
}

/// The mean of the logarithms and its standard error.
fn log_mean_and_se(estimates: &[f64]) -> (f64, f64) {
    let logs: Vec<f64> = estimates.iter().map(|e| e.ln()).collect();
    let m = mean_unchecked(&logs);
    (m, (variance_with_mean(&logs, m) / logs.len() as f64).sqrt())
}

/// How many points the drawn distributions ([`interval_draws`],
/// [`compare_runs_with_distributions`]) need for a smooth curve: they are
/// quantiles, not random draws.
pub const DRAWN_POINTS: usize = 2_000;

/// The distribution behind [`interval`], to draw: `n` evenly spaced
/// quantiles of the mean's Student's t distribution (`K − 1` degrees of
/// freedom, scaled by the standard error), on the scale the interval was
/// taken on. `None` for fewer than two processes.
#[must_use]
pub fn interval_draws(estimates: &[f64], n: usize) -> Option<Vec<f64>> {
    let e = interval(estimates, 0.95).ok()??;
    let df = estimates.len() as f64 - 1.0;
    let quantiles = crate::distributions::t_quantiles_evenly(n, df);
    let q = |i: usize| quantiles[i];
    if estimates.iter().all(|&e| e > 0.0) {
        let (m, se) = log_mean_and_se(estimates);
        return Some((0..n).map(|i| (m + se * q(i)).exp()).collect());
    }
    Some((0..n).map(|i| e.point + e.standard_error * q(i)).collect())
}

/// The interval's upper half-width relative to its point: the precision
/// reached. `None` for fewer than two processes or a non-positive point.
#[must_use]
pub fn relative_half_width(estimates: &[f64], confidence: f64) -> Option<f64> {
    let e = interval(estimates, confidence).ok()??;
    (e.point > 0.0).then(|| (e.upper - e.point) / e.point)
}

/// Degrees of freedom past which Student's t is the normal distribution
/// for every purpose here.
const MAX_DF: f64 = 1e6;

/// How uncertain a whole run's estimate is beyond its processes' standard
/// error, in units of one process's variance: two, measured on A/A runs
/// of a shared VM (see the module's text; one let 10–20 % of A/A
/// comparisons through).
pub const RUN_SHIFT: f64 = 2.0;

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
        let t = crate::distributions::t_quantiles_evenly(n, self.df).to_vec();
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
mod tests;
