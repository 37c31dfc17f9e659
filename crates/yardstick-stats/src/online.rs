//! Many comparisons judged one at a time, as a run makes them: LOND, the
//! online rule of Javanmard and Montanari ("Online rules for control of
//! false discovery rate and false discovery exceedance", Annals of
//! Statistics 46(2), 2018, §2.1).
//!
//! A run that judges each of 63 benchmarks at p < 0.05 prints about three
//! false verdicts on code that did not change. The Benjamini–Hochberg
//! correction ([`crate::multiple`]) fixes that at the end of the run, but
//! each verdict line is printed as its benchmark finishes. LOND decides
//! each comparison when it is made, at the level
//!
//! ```text
//! αᵢ = α · γᵢ · (D(i−1) + 1)
//! ```
//!
//! where `D(i−1)` is the number of comparisons rejected before the `i`-th
//! and the weights `γᵢ` sum to at most 1. It holds the false discovery rate
//! at `α` when the p-values are independent or positively dependent
//! (PRDS, §3 of the paper), which is the case of benchmarks that one
//! edit moves together. With nothing changed, no rejection comes first,
//! so every level is `α·γᵢ` and the chance of any false verdict in the
//! run is at most `α`: the family-wise rate of the whole suite.
//!
//! The run knows in advance how many comparisons it plans (its baseline
//! says), so the weights are flat: `γᵢ = 1/(m+1)` for the `m` planned
//! ones, and the last `1/(m+1)` is spread over any comparison beyond the
//! plan as `1/((m+1)·j·(j+1))` for the `j`-th extra one, so that the
//! weights still sum to 1 when the plan was short.

/// The state of LOND over one run's comparisons.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lond {
    alpha: f64,
    planned: usize,
    tested: usize,
    rejected: usize,
}

impl Lond {
    /// A run that plans `planned` comparisons (at least 1 is assumed), its
    /// false discovery rate held at `alpha`.
    #[must_use]
    pub fn new(alpha: f64, planned: usize) -> Lond {
        Lond {
            alpha,
            planned: planned.max(1),
            tested: 0,
            rejected: 0,
        }
    }

    /// The weight `γᵢ` of the next comparison.
    fn weight(&self) -> f64 {
        let i = self.tested + 1;
        let share = 1.0 / (self.planned as f64 + 1.0);
        if i <= self.planned {
            share
        } else {
            let j = (i - self.planned) as f64;
            share / (j * (j + 1.0))
        }
    }

    /// The level the next comparison is judged at: rejected when its
    /// p-value is below it. Never above `alpha`.
    #[must_use]
    pub fn level(&self) -> f64 {
        (self.alpha * self.weight() * (self.rejected as f64 + 1.0)).min(self.alpha)
    }

    /// Judges the next comparison by its p-value, records the decision and
    /// returns the level it was judged at and whether it was rejected.
    pub fn test(&mut self, p_value: f64) -> (f64, bool) {
        let level = self.level();
        let rejected = p_value < level;
        self.record(rejected);
        (level, rejected)
    }

    /// Records the next comparison's decision, made at [`Lond::level`] or
    /// at a share of it that a design spends on one look (a rejection at a
    /// lower level is a rejection at this one).
    pub fn record(&mut self, rejected: bool) {
        self.tested += 1;
        self.rejected += usize::from(rejected);
    }

    /// Comparisons judged so far.
    #[must_use]
    pub fn tested(&self) -> usize {
        self.tested
    }

    /// Comparisons the run planned.
    #[must_use]
    pub fn planned(&self) -> usize {
        self.planned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn levels_by_hand() {
        // m = 4, α = 0.05: γ = 1/5 = 0.2 for the four planned.
        let mut l = Lond::new(0.05, 4);
        // 0.05 · 0.2 · 1 = 0.01: p = 0.02 is not rejected.
        assert_eq!(l.test(0.02), (0.010_000_000_000_000_002, false));
        // Still no rejection: 0.01 again; p = 0.001 is rejected.
        let (level, rejected) = l.test(0.001);
        assert!((level - 0.01).abs() < 1e-15 && rejected);
        // One rejection: 0.05 · 0.2 · 2 = 0.02.
        let (level, rejected) = l.test(0.015);
        assert!((level - 0.02).abs() < 1e-15 && rejected);
        // Two: 0.05 · 0.2 · 3 = 0.03.
        assert!((l.level() - 0.03).abs() < 1e-15);
        l.test(1.0);
        // Beyond the plan, the first extra: 0.2 / (1·2) = 0.1, so
        // 0.05 · 0.1 · 3 = 0.015; the second: 0.2 / (2·3), 0.005.
        assert!((l.level() - 0.015).abs() < 1e-15);
        l.test(1.0);
        assert!((l.level() - 0.005).abs() < 1e-15);
    }

    #[test]
    fn a_level_never_exceeds_alpha() {
        let mut l = Lond::new(0.05, 2);
        for _ in 0..2 {
            l.test(0.0);
        }
        // γ = 1/3 with two rejections: 0.05 · (1/3) · 3 = α exactly, and
        // more rejections cannot raise it further.
        assert!(l.level() <= 0.05);
        assert_eq!(l.planned(), 2);
        assert_eq!(l.tested(), 2);
    }

    #[test]
    fn weights_sum_to_at_most_one() {
        let mut l = Lond::new(1.0, 10);
        let mut sum = 0.0;
        for _ in 0..100_000 {
            sum += l.weight();
            l.tested += 1;
        }
        // 10/11 planned, and 1/11 · (1 − 1/(n+1)) for n extra.
        let expected = 10.0 / 11.0 + (1.0 / 11.0) * (1.0 - 1.0 / 99_991.0);
        assert!((sum - expected).abs() < 1e-9, "{sum}");
        assert!(sum < 1.0);
    }

    /// Unchanged code: m uniform p-values. The share of runs with any
    /// rejection is at most α (it is α·m/(m+1) in theory).
    #[test]
    fn a_suite_of_unchanged_benchmarks_alarms_in_at_most_alpha_of_runs() {
        let (m, runs, alpha) = (63, 20_000, 0.05);
        let mut rng = Rng::new(7);
        let mut alarmed = 0;
        for _ in 0..runs {
            let mut l = Lond::new(alpha, m);
            let any = (0..m).fold(false, |any, _| l.test(rng.next_f64()).1 | any);
            alarmed += usize::from(any);
        }
        let rate = alarmed as f64 / runs as f64;
        // Binomial standard error at 0.049: 0.0015; four of them.
        let theory = alpha * m as f64 / (m as f64 + 1.0);
        assert!((rate - theory).abs() < 0.006, "{rate} vs {theory}");
    }

    /// A change in 10 of 63 benchmarks with strong evidence: all found,
    /// and later ones at higher levels.
    #[test]
    fn rejections_raise_the_level_for_the_next() {
        let mut l = Lond::new(0.05, 63);
        let first = l.level();
        for _ in 0..10 {
            assert!(l.test(1e-6).1);
        }
        assert!((l.level() - 11.0 * first).abs() < 1e-15);
    }
}
