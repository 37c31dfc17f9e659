//! A second look at an ambiguous comparison, fixed in advance. A suite's
//! error rate leaves each comparison a small level (LOND gives the first of
//! 24 comparisons 0.05/25), and the units of one look (sixteen worker
//! pairs, or the code layouts they ran) give Student's t few degrees of
//! freedom at such levels: a small change that one look measures at
//! p = 0.01 is then no verdict. A second set of pairs, run only when the
//! first look is ambiguous, adds units where they are needed (or, over the
//! same layouts, halves the pairs' share of each layout's spread), and
//! costs nothing where the answer is plain.
//!
//! The design: the level is split evenly between the two looks (Bonferroni,
//! which holds whatever the dependence between the looks: the second look
//! pools the first look's units with its own). The first look decides when
//! its p-value is below half the level; it looks again when its p-value is
//! at most [`TwoLooks::again_below`]; above that it stops with no verdict
//! (stopping for futility never adds a false verdict). The second look is
//! judged at half the level too. So the chance of a false verdict is at most
//! `level/2 + level/2 = level`.
//!
//! A comparison whose code changed ([`TwoLooks::code_changed`]) is judged
//! alone: the suite's error rate is spent on the benchmarks whose
//! instructions did not change, and one whose instructions changed (counted
//! under Callgrind, apart from its time) answers a different question,
//! whether its time moved with its code. Its first look was judged at
//! `level/2`; whichever look it ended on is then judged at `alpha − level/2`,
//! so its chance of a false verdict is at most `level/2 + alpha − level/2 =
//! alpha`, the level a comparison alone is judged at, whatever the looks'
//! dependence. Its instructions are counted only when that decides it,
//! which is the same rule as counting them first.

/// The two-look design of one comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TwoLooks {
    /// The comparison's whole level.
    pub level: f64,
    /// The first look's p-value below which the comparison looks again
    /// (and above which it stops with no verdict).
    pub again_below: f64,
}

impl TwoLooks {
    /// The level each look is judged at.
    #[must_use]
    pub fn per_look(&self) -> f64 {
        self.level / 2.0
    }

    /// Whether a first look with `p_value` calls for the second: not
    /// decided at [`TwoLooks::per_look`], and not plainly null.
    #[must_use]
    pub fn look_again(&self, p_value: f64) -> bool {
        p_value >= self.per_look() && p_value < self.again_below
    }

    /// The level the last look of a comparison whose code changed is
    /// judged at, when the comparison alone would be judged at `alpha`:
    /// `alpha` less the first look's share, never below that share.
    #[must_use]
    pub fn code_changed(&self, alpha: f64) -> f64 {
        (alpha - self.per_look()).max(self.per_look())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paired::units_t_ratio;
    use crate::rng::Rng;

    /// Standard normal deviates by Box–Muller.
    fn normal(rng: &mut Rng) -> f64 {
        let u = rng.next_f64().max(f64::MIN_POSITIVE);
        let v = rng.next_f64();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    /// Ratios of eight units around `ratio`, each off by a normal share.
    fn look(rng: &mut Rng, ratio: f64, sd: f64, n: usize) -> Vec<f64> {
        (0..n).map(|_| ratio * (sd * normal(rng)).exp()).collect()
    }

    /// (verdicts, second looks, trials) of the design over `trials`
    /// comparisons of a true ratio `ratio`, as the lock-step comparison runs
    /// it: eight units, and eight more pooled with them when the first look
    /// is ambiguous.
    fn verdicts(design: TwoLooks, ratio: f64, trials: usize) -> (usize, usize, usize) {
        verdicts_at(design, ratio, trials, |_| design.per_look())
    }

    /// As [`verdicts`], the look the comparison ended on judged at
    /// `last(first look's p)`, the first look decided at half the level.
    fn verdicts_at(
        design: TwoLooks,
        ratio: f64,
        trials: usize,
        last: impl Fn(f64) -> f64,
    ) -> (usize, usize, usize) {
        let mut rng = Rng::new(7);
        let (mut found, mut second) = (0, 0);
        for _ in 0..trials {
            let mut units = look(&mut rng, ratio, 0.004, 8);
            let (_, p1) = units_t_ratio(&units, 0.95).unwrap();
            let decided = p1 < design.per_look();
            let p = if design.look_again(p1) {
                second += 1;
                units.extend(look(&mut rng, ratio, 0.004, 8));
                units_t_ratio(&units, 0.95).unwrap().1
            } else {
                p1
            };
            found += usize::from(decided || p < last(p1));
        }
        (found, second, trials)
    }

    #[test]
    fn the_two_looks_hold_the_level() {
        // Under no change, the share of verdicts stays within the level:
        // 40 000 trials at 0.05, whose binomial standard error at 0.05 is
        // 0.0011, so 0.0533 is three of them above.
        let design = TwoLooks {
            level: 0.05,
            again_below: 0.1,
        };
        let (found, second, n) = verdicts(design, 1.0, 40_000);
        let rate = found as f64 / n as f64;
        assert!(rate < 0.0533, "{rate}");
        // Bonferroni is conservative: the looks overlap, so well under.
        assert!(rate > 0.02, "{rate}");
        // The second look runs for the ambiguous share only: p in
        // [0.025, 0.1) under the null is 7.5 % of comparisons.
        let share = second as f64 / n as f64;
        assert!((share - 0.075).abs() < 0.01, "{share}");
    }

    #[test]
    fn a_second_look_finds_what_one_look_at_the_same_level_misses() {
        // A +0.6 % change, units 0.4 % apart, judged at 0.002 (LOND's
        // first level of 24 comparisons): one look of eight units at the
        // whole level against the design.
        let level = 0.002;
        let mut rng = Rng::new(11);
        let one = (0..4000)
            .filter(|_| {
                units_t_ratio(&look(&mut rng, 1.006, 0.004, 8), 0.95)
                    .unwrap()
                    .1
                    < level
            })
            .count();
        let design = TwoLooks {
            level,
            again_below: 0.1,
        };
        let (two, _, _) = verdicts(design, 1.006, 4000);
        assert!(
            two as f64 > 1.3 * one as f64,
            "one look {one}, two looks {two}"
        );
    }

    #[test]
    fn a_comparison_whose_code_changed_is_held_at_the_level_alone() {
        // The suite's share 0.002 (LOND's first of 24), the level alone
        // 0.05: the last look at 0.05 − 0.001 = 0.049. Under no change of
        // time its false verdicts stay under 0.05 (three binomial standard
        // errors of 40 000 trials above is 0.0533) and well over the
        // share's, which is what it is for.
        let design = TwoLooks {
            level: 0.002,
            again_below: 0.1,
        };
        let last = design.code_changed(0.05);
        assert!((last - 0.049).abs() < 1e-12, "{last}");
        let (found, _, n) = verdicts_at(design, 1.0, 40_000, |_| last);
        let rate = found as f64 / n as f64;
        assert!(rate < 0.0533, "{rate}");
        assert!(rate > 0.02, "{rate}");
        // A comparison judged alone at the first look's share already
        // gains nothing: the share is the floor.
        let alone = TwoLooks {
            level: 0.05,
            again_below: 0.1,
        };
        assert!((alone.code_changed(0.05) - 0.025).abs() < 1e-12);
    }

    #[test]
    fn a_change_of_code_is_found_where_the_suites_share_misses_it() {
        // +0.3 % with units 0.4 % apart (t ≈ 2.1 on eight units, 3.0 on
        // sixteen): at the share of 24 comparisons (15 degrees of freedom
        // put the two-sided 0.1 % at t = 4.07) it is found in about a fifth
        // of trials, judged alone (t = 2.13 at 4.9 %) in about half.
        let design = TwoLooks {
            level: 0.002,
            again_below: 0.1,
        };
        let (share, _, n) = verdicts(design, 1.003, 4000);
        let last = design.code_changed(0.05);
        let (alone, _, _) = verdicts_at(design, 1.003, 4000, |_| last);
        assert!(share * 3 < n, "share {share} of {n}");
        assert!(
            alone * 2 > n && alone > 2 * share,
            "share {share}, alone {alone} of {n}"
        );
    }
}
