//! tasty-bench's adaptive measurement: estimate the time of one iteration
//! from two runs of `n` and `2n` iterations, and stop doubling `n` once the
//! estimate is precise enough or time runs out.
//!
//! Formulas (tasty-bench's `predict`, `predictPerturbed` and
//! `measureUntil`), with `t₁` the time of `n` iterations and `t₂` the time
//! of `2n`:
//!
//! * estimate of `n` iterations `t = (t₁ + 2 t₂) / 5` — the least-squares
//!   line through the origin of the points `(n, t₁)`, `(2n, t₂)` — so one
//!   iteration takes `t / n = (t₁ + 2 t₂) / (5n)`;
//! * deviation `√((t₁ − t)² + (t₂ − 2t)²)`, divided by `n` per iteration;
//! * perturbed deviation: the larger deviation after moving `t₁` and `t₂`
//!   apart by the clock precision `p` in either direction
//!   (`(t₁ − p, t₂ + p)` and `(t₁ + p, t₂ − p)`, a time never going below
//!   0); tasty-bench uses `p = max(CPU clock precision, 1 ms)`;
//! * stop when `deviation < target · estimate` (target 0.05 by default), or
//!   when `1.2 · (time already spent + 3 t₂) ≥ timeout` (the next doubling
//!   would take about `2 t₂` more; the factor 1.2 avoids overshooting).
//!
//! tasty-bench computes in integer picoseconds; this module computes in
//! f64 in whatever unit the caller uses, so results agree to within a
//! picosecond of rounding.
//!
//! # Example
//!
//! ```
//! use yardstick_stats::tasty::{Adaptive, StopRule, StopReason};
//!
//! // A routine that takes 1 µs per iteration plus 2 µs per run, timed in
//! // seconds with a 1 ms precision (tasty-bench's floor).
//! let rule = StopRule { target_rel_std_dev: 0.05, timeout: None };
//! let mut run = Adaptive::new(rule, 1e-3);
//! let outcome = loop {
//!     let n = run.iterations() as f64;
//!     if let Some(done) = run.record(n * 1e-6 + 2e-6) {
//!         break done;
//!     }
//! };
//! assert_eq!(outcome.reason, StopReason::Precise);
//! assert!((outcome.estimate.mean - 1e-6).abs() < 1e-8);
//! ```

/// An estimate of the time of one iteration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    /// Estimated time of one iteration.
    pub mean: f64,
    /// Estimated standard deviation of that time (tasty-bench prints twice
    /// this as "± 2σ").
    pub std_dev: f64,
}

/// tasty-bench's smallest perturbation, in seconds: 1 ms.
pub const MIN_PRECISION_SECONDS: f64 = 1e-3;

/// The estimate from `t_n`, the time of `n` iterations, and `t_2n`, the time
/// of `2n` iterations (tasty-bench's `predict`, per iteration).
#[must_use]
pub fn predict(n: f64, t_n: f64, t_2n: f64) -> Prediction {
    let t = (t_n + 2.0 * t_2n) / 5.0;
    let d = (t_n - t).powi(2) + (t_2n - 2.0 * t).powi(2);
    Prediction {
        mean: t / n,
        std_dev: d.sqrt() / n,
    }
}

/// [`predict`] with the deviation widened by the clock `precision`
/// (tasty-bench's `predictPerturbed`).
#[must_use]
pub fn predict_perturbed(n: f64, t_n: f64, t_2n: f64, precision: f64) -> Prediction {
    let hi = |t: f64| t + precision;
    let lo = |t: f64| if t > precision { t - precision } else { 0.0 };
    let a = predict(n, lo(t_n), hi(t_2n)).std_dev;
    let b = predict(n, hi(t_n), lo(t_2n)).std_dev;
    Prediction {
        mean: predict(n, t_n, t_2n).mean,
        std_dev: a.max(b),
    }
}

/// When to stop doubling.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StopRule {
    /// Stop when the relative standard deviation of the estimate falls below
    /// this (tasty-bench's `--stdev`, 0.05 by default). `+∞` measures one
    /// iteration once.
    pub target_rel_std_dev: f64,
    /// Stop before the total time would exceed this (same unit as the
    /// measured times); `None` for no limit.
    pub timeout: Option<f64>,
}

impl Default for StopRule {
    /// Target 5 %, no timeout.
    fn default() -> StopRule {
        StopRule {
            target_rel_std_dev: 0.05,
            timeout: None,
        }
    }
}

/// Why the measurement stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The relative deviation is below the target.
    Precise,
    /// Another doubling would exceed the timeout.
    TimeoutSoon,
    /// The target is infinite: one measurement of one iteration.
    SingleRun,
}

/// The stopping rule: `Some(reason)` to stop after a pair of measurements
/// with estimate `p`, where `spent` is the time of every measurement before
/// `t_2n`.
#[must_use]
pub fn should_stop(rule: &StopRule, p: &Prediction, spent: f64, t_2n: f64) -> Option<StopReason> {
    if p.std_dev < rule.target_rel_std_dev.max(0.0) * p.mean {
        return Some(StopReason::Precise);
    }
    match rule.timeout {
        Some(limit) if (spent + 3.0 * t_2n) * 1.2 >= limit => Some(StopReason::TimeoutSoon),
        _ => None,
    }
}

/// The final result of an adaptive measurement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// The per-iteration estimate.
    pub estimate: Prediction,
    /// Why it stopped.
    pub reason: StopReason,
    /// The `n` of the last pair (`n` and `2n` iterations were measured).
    pub n: u64,
}

/// tasty-bench's measurement loop as a state machine without a clock: ask
/// [`iterations`](Adaptive::iterations), time that many, pass the time to
/// [`record`](Adaptive::record), until it returns the outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Adaptive {
    rule: StopRule,
    precision: f64,
    n: u64,
    previous: Option<f64>,
    spent: f64,
}

impl Adaptive {
    /// A new measurement with the given rule and clock `precision` (same
    /// unit as the times; tasty-bench uses at least 1 ms).
    #[must_use]
    pub fn new(rule: StopRule, precision: f64) -> Adaptive {
        Adaptive {
            rule,
            precision,
            n: 1,
            previous: None,
            spent: 0.0,
        }
    }

    /// How many iterations to time next: 1, 2, 4, 8, …
    #[must_use]
    pub fn iterations(&self) -> u64 {
        if self.previous.is_some() {
            self.n.saturating_mul(2)
        } else {
            self.n
        }
    }

    /// Records the time of [`iterations`](Adaptive::iterations) iterations;
    /// returns the outcome when the rule says stop.
    pub fn record(&mut self, elapsed: f64) -> Option<Outcome> {
        let Some(t_n) = self.previous else {
            if self.rule.target_rel_std_dev.is_infinite() && self.rule.target_rel_std_dev > 0.0 {
                return Some(Outcome {
                    estimate: Prediction {
                        mean: elapsed,
                        std_dev: 0.0,
                    },
                    reason: StopReason::SingleRun,
                    n: 1,
                });
            }
            self.previous = Some(elapsed);
            return None;
        };
        let n = self.n as f64;
        let p = predict_perturbed(n, t_n, elapsed, self.precision);
        let spent = self.spent + t_n;
        if let Some(reason) = should_stop(&self.rule, &p, spent, elapsed) {
            return Some(Outcome {
                estimate: p,
                reason,
                n: self.n,
            });
        }
        self.spent = spent;
        self.previous = Some(elapsed);
        self.n = self.n.saturating_mul(2);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_line_has_zero_deviation() {
        let p = predict(4.0, 40.0, 80.0);
        assert_eq!(p.mean, 10.0);
        assert_eq!(p.std_dev, 0.0);
    }

    #[test]
    fn perturbation_widens_the_deviation() {
        let p = predict_perturbed(4.0, 40.0, 80.0, 1.0);
        assert_eq!(p.mean, 10.0);
        // (39, 81): t = 40.2, d² = 1.2² + 0.6² -> sqrt(1.8)/4.
        assert!((p.std_dev - 1.8f64.sqrt() / 4.0).abs() < 1e-15);
        // Times never go below zero.
        let q = predict_perturbed(1.0, 0.5, 1.0, 1.0);
        assert!(q.std_dev.is_finite());
    }

    #[test]
    fn timeout_stops_before_the_limit() {
        let rule = StopRule {
            target_rel_std_dev: 0.0,
            timeout: Some(100.0),
        };
        let mut run = Adaptive::new(rule, 0.0);
        let mut total = 0.0;
        let outcome = loop {
            let n = run.iterations() as f64;
            let t = n * (1.0 + 0.1 * (n % 3.0)); // never precise
            total += t;
            if let Some(o) = run.record(t) {
                break o;
            }
        };
        assert_eq!(outcome.reason, StopReason::TimeoutSoon);
        assert!(total <= 100.0, "{total}");
    }

    #[test]
    fn stops_as_precise_at_the_first_pair_within_the_target() {
        // A fake clock: n iterations take exactly n (1 per iteration), and
        // the clock's precision is 1. For the pair (n, 2n) the perturbed
        // points are (n − 1, 2n + 1) and (n + 1, 2n − 1); the line through
        // the origin of (n, x), (2n, y) has t = (x + 2y) / 5 and residuals
        // (4x − 2y)/5 and (y − 2x)/5, so a deviation |2x − y| / √5: here 3/√5
        // for both, 3 / (√5 n) per iteration, against a mean of exactly 1.
        // Precise means 3 / (√5 n) < target: n > 26.8 at a 5 % target.
        // n = 16 gives 8.4 %, n = 32 gives 4.19 %: the 7th measurement
        // (64 iterations) stops it, long before the timeout.
        let rule = StopRule {
            target_rel_std_dev: 0.05,
            timeout: Some(1e6),
        };
        let mut run = Adaptive::new(rule, 1.0);
        let mut asked = Vec::new();
        let outcome = loop {
            let n = run.iterations();
            asked.push(n);
            if let Some(o) = run.record(n as f64) {
                break o;
            }
            assert!(asked.len() < 20, "never stopped: {asked:?}");
        };
        assert_eq!(asked, [1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(outcome.reason, StopReason::Precise);
        assert_eq!(outcome.n, 32);
        assert_eq!(outcome.estimate.mean, 1.0);
        let expected = 3.0 / (5f64.sqrt() * 32.0);
        assert!(
            (outcome.estimate.std_dev - expected).abs() < 1e-12,
            "{outcome:?}"
        );

        // A 4 % target needs n > 33.5: one more doubling.
        let rule = StopRule {
            target_rel_std_dev: 0.04,
            timeout: None,
        };
        let mut run = Adaptive::new(rule, 1.0);
        let outcome = loop {
            let n = run.iterations();
            if let Some(o) = run.record(n as f64) {
                break o;
            }
        };
        assert_eq!((outcome.reason, outcome.n), (StopReason::Precise, 64));
    }

    #[test]
    fn infinite_target_is_a_single_run() {
        let rule = StopRule {
            target_rel_std_dev: f64::INFINITY,
            timeout: None,
        };
        let mut run = Adaptive::new(rule, 0.0);
        assert_eq!(run.iterations(), 1);
        let o = run.record(7.0).unwrap();
        assert_eq!((o.estimate.mean, o.reason), (7.0, StopReason::SingleRun));
    }
}
