//! Run-to-run drift of a machine, from A/A runs of the same code, and
//! ([`second_to_second`]) how far one fixed piece of work moves from one
//! second to the next, as `cargo yardstick doctor` measures it.
//!
//! `cargo yardstick calibrate` runs a suite N times and hands each
//! benchmark's typical estimates (one per run) to [`relative_drift`]; the
//! harness then reports a change within that drift as machine drift rather
//! than as a regression.
//!
//! ```text
//! s = standard deviation (n − 1) of ln(estimates)
//! relative_drift = max(exp(t(0.975, N − 1) · √2 · s) − 1, max / min − 1)
//! ```
//!
//! A comparison against a saved baseline compares one run with another, so
//! the spread that matters is that of a difference of two runs (√2 · s),
//! and `s` from a handful of runs is uncertain, hence Student's t with
//! N − 1 degrees of freedom. The observed range is a floor: the bound is
//! never narrower than the largest change actually seen.
//!
//! ```
//! use yardstick_stats::drift::relative_drift;
//!
//! let d = relative_drift(&[100.0, 102.0, 98.0, 101.0, 99.0]).unwrap();
//! assert!((d - 0.0641).abs() < 1e-4);
//! assert_eq!(relative_drift(&[5.0]), None);
//! ```

use crate::distributions::t_quantile;
use crate::univariate::{max, mean, median, min, std_dev};

/// The definition written next to every measured drift, so a reader of the
/// file knows what the number bounds.
pub const DEFINITION: &str = "95% prediction bound of the change between two runs: max(exp(t(0.975, runs-1) * sqrt(2) * sd(ln estimates)) - 1, max/min - 1)";

/// The relative drift of one benchmark's estimates over the runs: the 95 %
/// prediction bound of the change between two further runs, and at least
/// `max / min − 1` (see the module). `None` with fewer than two estimates
/// or a value that is not a positive finite number; `Some(0.0)` when every
/// estimate is the same (exact counts).
#[must_use]
pub fn relative_drift(estimates: &[f64]) -> Option<f64> {
    if estimates.len() < 2 || estimates.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
        return None;
    }
    let (lo, hi) = (min(estimates)?, max(estimates)?);
    if hi == lo {
        // No spread at all; the logs' mean would leave a rounding residue.
        return Some(0.0);
    }
    let logs: Vec<f64> = estimates.iter().map(|v| v.ln()).collect();
    let s = std_dev(&logs)?;
    let t = t_quantile(0.975, (estimates.len() - 1) as f64);
    let predicted = (t * std::f64::consts::SQRT_2 * s).exp() - 1.0;
    Some(predicted.max(hi / lo - 1.0))
}

/// How far the same fixed work's time moves from one second to the next,
/// as `cargo yardstick doctor` measures it: the work is timed many times
/// in each second, and each second's median (robust to the odd
/// interrupt) is one value. Frequency changes and a neighbour taking the
/// core move the medians; the relative range says how far.
#[derive(Debug, Clone, PartialEq)]
pub struct SecondDrift {
    /// Each second's median, in order.
    pub medians: Vec<f64>,
    /// `max(medians) / min(medians) − 1`: the largest move seen.
    pub relative_range: f64,
    /// Standard deviation (n − 1) of the medians over their mean.
    pub relative_sd: f64,
}

/// What [`SecondDrift::relative_range`] is, written next to the figure.
pub const SECOND_DEFINITION: &str =
    "max/min - 1 of the per-second medians of one fixed piece of work";

/// [`SecondDrift`] of timings grouped by second. `None` with fewer than
/// two non-empty seconds or a timing that is not a positive finite number.
#[must_use]
pub fn second_to_second(seconds: &[Vec<f64>]) -> Option<SecondDrift> {
    let seconds: Vec<&Vec<f64>> = seconds.iter().filter(|s| !s.is_empty()).collect();
    if seconds.len() < 2
        || seconds
            .iter()
            .any(|s| s.iter().any(|v| !(v.is_finite() && *v > 0.0)))
    {
        return None;
    }
    let medians: Vec<f64> = seconds.iter().filter_map(|s| median(s)).collect();
    let (lo, hi) = (min(&medians)?, max(&medians)?);
    let relative_sd = std_dev(&medians)? / mean(&medians)?;
    Some(SecondDrift {
        relative_range: hi / lo - 1.0,
        relative_sd,
        medians,
    })
}

/// How often windows of one fixed piece of work as long as a lock-step
/// round run slower than the fastest of them, as `cargo yardstick doctor`
/// measures it. What a machine adds to a window (an interrupt, another
/// process or a neighbouring VM on the core) only ever slows it, so the
/// fastest window is the work's own time and the others' excess is the
/// machine. A lock-step comparison's adjacent rounds do not share these
/// slowdowns (they last less than a round), so they do not cancel in the
/// rounds' ratios: on a shared 2-core machine they made each pair's median
/// ratio spread by 7.5 %.
#[derive(Debug, Clone, PartialEq)]
pub struct ShortWindows {
    /// The windows' length asked for, in ns (each holds whole timings).
    pub window_ns: f64,
    /// The share of windows more than [`SLOWED_BY`] slower than the
    /// fastest.
    pub slowed_share: f64,
    /// The median window over the fastest, less 1.
    pub median_excess: f64,
}

/// How much slower than the fastest a window must be to count as slowed.
pub const SLOWED_BY: f64 = 0.05;

/// [`ShortWindows`] of timings grouped by second (consecutive timings of
/// one second summed until they reach `window_ns`, a window's value the
/// mean timing in it; a second's last, shorter window left out). `None`
/// with fewer than four windows or a timing that is not a positive finite
/// number.
#[must_use]
pub fn short_windows(seconds: &[Vec<f64>], window_ns: f64) -> Option<ShortWindows> {
    let mut windows = Vec::new();
    for second in seconds {
        let (mut sum, mut n) = (0.0, 0usize);
        for &t in second {
            if !(t.is_finite() && t > 0.0) {
                return None;
            }
            sum += t;
            n += 1;
            if sum >= window_ns {
                windows.push(sum / n as f64);
                (sum, n) = (0.0, 0);
            }
        }
    }
    if windows.len() < 4 {
        return None;
    }
    let floor = min(&windows)?;
    let slowed = windows
        .iter()
        .filter(|&&w| w > floor * (1.0 + SLOWED_BY))
        .count();
    Some(ShortWindows {
        window_ns,
        slowed_share: slowed as f64 / windows.len() as f64,
        median_excess: median(&windows)? / floor - 1.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_windows_count_the_windows_slower_than_the_fastest() {
        // Windows of 20: [10, 10] = 10, [10, 10] = 10, [12, 10] = 11,
        // [10, 30] = 20 in the first second; the second's [40] = 40 and
        // its last 5 (short of 20) left out. Fastest 10; slowed (over
        // 10.5): 11, 20, 40, three of five; median 11, excess 0.1.
        let s = vec![
            vec![10.0, 10.0, 10.0, 10.0, 12.0, 10.0, 10.0, 30.0],
            vec![40.0, 5.0],
        ];
        let w = short_windows(&s, 20.0).unwrap();
        assert!((w.slowed_share - 0.6).abs() < 1e-12);
        assert!((w.median_excess - 0.1).abs() < 1e-12);
        assert_eq!(w.window_ns, 20.0);
        assert_eq!(short_windows(&[vec![10.0; 7]], 20.0), None);
        assert_eq!(short_windows(&[vec![10.0, f64::NAN]], 1.0), None);
    }

    #[test]
    fn drift_is_the_prediction_bound_of_a_run_to_run_change() {
        // numpy/scipy: s = np.log([100, 102, 98, 101, 99]).std(ddof=1) =
        // 0.0158135, t.ppf(0.975, 4) = 2.7764451; exp(t·√2·s) − 1 =
        // 0.0640595, wider than the range 102/98 − 1 = 0.0408.
        let d = relative_drift(&[100.0, 102.0, 98.0, 101.0, 99.0]).unwrap();
        assert!((d - 0.064_059_5).abs() < 1e-6, "{d}");
        // Two runs say little: t.ppf(0.975, 1) = 12.7062; s of ln 10, ln
        // 10.5 = 0.0344999; exp(12.7062·√2·0.0345) − 1 = 0.858812.
        let d = relative_drift(&[10.0, 10.5]).unwrap();
        assert!((d - 0.858_812).abs() < 1e-4, "{d}");
    }

    #[test]
    fn the_observed_range_is_a_floor() {
        // 20 runs, one outlier: s = np.log(xs).std(ddof=1) = 0.0213120,
        // t.ppf(0.975, 19) = 2.0930241; exp(t·√2·s) − 1 = 0.0651154, below
        // the range 1.1 − 1 = 0.1, which wins.
        let mut xs = vec![1.0; 19];
        xs.push(1.1);
        let d = relative_drift(&xs).unwrap();
        assert!((d - 0.1).abs() < 1e-12, "{d}");
    }

    #[test]
    fn degenerate_inputs() {
        assert_eq!(relative_drift(&[5.0, 5.0]), Some(0.0));
        assert_eq!(relative_drift(&[5.0]), None);
        assert_eq!(relative_drift(&[]), None);
        assert_eq!(relative_drift(&[5.0, 0.0]), None);
        assert_eq!(relative_drift(&[5.0, f64::NAN]), None);
        assert_eq!(relative_drift(&[5.0, f64::INFINITY]), None);
    }

    #[test]
    fn second_to_second_drift_by_hand() {
        // Medians 11, 13 and 9 (the second second's is the mean of its
        // middle two, 12 and 14). Range: 13 / 9 − 1 = 4/9 = 0.444…; mean
        // 11, sd = √((0² + 2² + 2²) / 2) = 2, so 2 / 11 = 0.181818….
        let d = second_to_second(&[
            vec![12.0, 10.0, 11.0],
            vec![16.0, 10.0, 14.0, 12.0],
            vec![],
            vec![9.0],
        ])
        .unwrap();
        assert_eq!(d.medians, [11.0, 13.0, 9.0]);
        assert!((d.relative_range - 4.0 / 9.0).abs() < 1e-12);
        assert!((d.relative_sd - 2.0 / 11.0).abs() < 1e-12);
        assert_eq!(second_to_second(&[vec![1.0], vec![]]), None);
        assert_eq!(second_to_second(&[vec![1.0], vec![0.0]]), None);
        assert_eq!(second_to_second(&[vec![1.0], vec![f64::NAN]]), None);
        let flat = second_to_second(&[vec![3.0], vec![3.0]]).unwrap();
        assert_eq!((flat.relative_range, flat.relative_sd), (0.0, 0.0));
    }
}
