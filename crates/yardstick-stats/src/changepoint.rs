//! Change-point detection over a benchmark's history: binary segmentation
//! with a permutation test of each level shift.
//!
//! For a segment `x[lo..hi]`, every split `k` with at least `min_segment`
//! points on each side gets the two-sample t statistic of the left and right
//! means with the pooled within-segment variance,
//! `t_k = |x̄_L − x̄_R| / sqrt(s²_p (1/n_L + 1/n_R))`, computed for all `k` in
//! O(n) from prefix sums. The split with the largest `t_k` is a change point
//! when that maximum is unusual: its p-value is the share of `permutations`
//! random shuffles of the segment (fixed seed) whose largest `t` is at
//! least as large, which accounts for having searched every split. Found
//! points split the segment and both halves are searched again.
//!
//! Cost: O(permutations × n) per tested segment, far less when the
//! sequential test stops early; linear in the runs read.

use crate::rng::Rng;
use crate::univariate::mean_unchecked as mean;

/// Settings of [`detect`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// Fewest points on each side of a change.
    pub min_segment: usize,
    /// Shuffles per permutation test.
    pub permutations: usize,
    /// A split is a change point when its p-value is below this.
    pub alpha: f64,
    /// Seed of the shuffles.
    pub seed: u64,
}

impl Default for Config {
    /// 5 points per side, 999 shuffles, α = 0.01, seed 0.
    fn default() -> Config {
        Config {
            min_segment: 5,
            permutations: 999,
            alpha: 0.01,
            seed: 0,
        }
    }
}

/// A level shift.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangePoint {
    /// Index of the first point of the new level.
    pub index: usize,
    /// Mean of the segment before it.
    pub before: f64,
    /// Mean of the segment from it on.
    pub after: f64,
    /// Relative size, `after / before − 1`.
    pub size: f64,
    /// p-value of the permutation test; confidence is `1 − p`.
    pub p_value: f64,
}

/// Finds the level shifts of `xs`, in order. Non-finite values make the
/// answer empty rather than wrong.
#[must_use]
pub fn detect(xs: &[f64], cfg: &Config) -> Vec<ChangePoint> {
    if xs.iter().any(|x| !x.is_finite()) || cfg.min_segment == 0 {
        return Vec::new();
    }
    let mut rng = Rng::new(cfg.seed);
    let mut found: Vec<(usize, f64)> = Vec::new();
    let mut stack = vec![(0, xs.len())];
    while let Some((lo, hi)) = stack.pop() {
        let seg = &xs[lo..hi];
        let Some((k, t)) = best_split(seg, cfg.min_segment) else {
            continue;
        };
        let p = permutation_p(seg, t, cfg, &mut rng);
        if p < cfg.alpha {
            found.push((lo + k, p));
            stack.push((lo, lo + k));
            stack.push((lo + k, hi));
        }
    }
    // Each split point is found once.
    found.sort_unstable_by_key(|f| f.0);
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(found.iter().map(|f| f.0))
        .chain(std::iter::once(xs.len()))
        .collect();
    found
        .iter()
        .enumerate()
        .map(|(i, &(index, p_value))| {
            let before = mean(&xs[bounds[i]..index]);
            let after = mean(&xs[index..bounds[i + 2]]);
            ChangePoint {
                index,
                before,
                after,
                size: after / before - 1.0,
                p_value,
            }
        })
        .collect()
}

/// The split with the largest t statistic, and that statistic.
fn best_split(xs: &[f64], min: usize) -> Option<(usize, f64)> {
    let n = xs.len();
    if n < 2 * min || n < 4 {
        return None;
    }
    // Centre to keep the sums of squares accurate.
    let c = mean(xs);
    let total: f64 = xs.iter().map(|x| x - c).sum();
    let total_sq: f64 = xs.iter().map(|x| (x - c) * (x - c)).sum();
    let (mut s, mut sq) = (0.0, 0.0);
    let mut best: Option<(usize, f64)> = None;
    for (i, x) in xs.iter().enumerate().take(n - min) {
        s += x - c;
        sq += (x - c) * (x - c);
        let k = i + 1;
        if k < min {
            continue;
        }
        let (nl, nr) = (k as f64, (n - k) as f64);
        let (ml, mr) = (s / nl, (total - s) / nr);
        let ss = (sq - nl * ml * ml) + (total_sq - sq - nr * mr * mr);
        let var = (ss / (n as f64 - 2.0)).max(f64::MIN_POSITIVE);
        let t = (ml - mr).abs() / (var * (1.0 / nl + 1.0 / nr)).sqrt();
        if best.map_or(true, |b| t > b.1) {
            best = Some((k, t));
        }
    }
    best
}

fn permutation_p(xs: &[f64], observed: f64, cfg: &Config, rng: &mut Rng) -> f64 {
    let mut buf = xs.to_vec();
    let mut at_least = 0usize;
    // Stop as soon as the p-value can no longer fall below alpha
    // (Besag and Clifford's sequential test): a segment without a shift
    // costs a few dozen shuffles instead of all of them.
    let limit = cfg.alpha * (cfg.permutations + 1) as f64;
    for done in 1..=cfg.permutations {
        for i in (1..buf.len()).rev() {
            buf.swap(i, rng.index(i + 1));
        }
        if best_split(&buf, cfg.min_segment).is_some_and(|(_, t)| t >= observed) {
            at_least += 1;
            if (at_least + 1) as f64 > limit {
                return (at_least + 1) as f64 / (done + 1) as f64;
            }
        }
    }
    (at_least + 1) as f64 / (cfg.permutations + 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Normal noise by Box–Muller from the project's generator.
    fn noisy(n: usize, level: impl Fn(usize) -> f64, sd: f64, seed: u64) -> Vec<f64> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|i| {
                let (u1, u2) = (rng.next_f64().max(1e-300), rng.next_f64());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                level(i) * (1.0 + sd * z)
            })
            .collect()
    }

    #[test]
    fn the_best_split_is_scipys_largest_pooled_t() {
        // scipy: max over k in 3..=9 of
        // abs(stats.ttest_ind(x[:k], x[k:]).statistic) is 9.258200997725508
        // at k = 6 (k = 5 gives 3.2790566, k = 7 gives 4.4604329).
        let x = [3.1, 2.9, 3.3, 3.0, 3.2, 2.8, 4.0, 4.2, 3.9, 4.1, 4.3, 3.8];
        let (k, t) = best_split(&x, 3).unwrap();
        assert_eq!(k, 6);
        assert!((t - 9.258_200_997_725_508).abs() < 1e-9, "{t}");
        assert!(
            best_split(&x, 7).is_none(),
            "12 points cannot hold 7 per side"
        );
    }

    #[test]
    fn a_clear_step_reports_the_means_on_each_side() {
        // Two flat levels: the means are 3.05 and 4.05 by hand (x̄ of the
        // first six values above, and of the last six).
        let mut x = vec![3.1, 2.9, 3.3, 3.0, 3.2, 2.8];
        x.extend([4.0, 4.2, 3.9, 4.1, 4.3, 3.8]);
        let cfg = Config {
            min_segment: 3,
            ..Config::default()
        };
        let found = detect(&x, &cfg);
        assert_eq!(found.len(), 1, "{found:?}");
        let c = found[0];
        assert_eq!(c.index, 6);
        assert!((c.before - 3.05).abs() < 1e-12 && (c.after - 4.05).abs() < 1e-12);
        assert!((c.size - (4.05 / 3.05 - 1.0)).abs() < 1e-12);
    }

    #[test]
    fn finds_an_injected_five_percent_shift_at_the_right_run() {
        let xs = noisy(200, |i| if i < 120 { 100.0 } else { 105.0 }, 0.02, 42);
        let found = detect(&xs, &Config::default());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].index, 120);
        assert!((found[0].size - 0.05).abs() < 0.01, "{found:?}");
        assert!(found[0].p_value <= 0.001);
    }

    #[test]
    fn no_false_alarm_without_a_shift() {
        for seed in 0..5 {
            let xs = noisy(200, |_| 100.0, 0.02, seed);
            assert!(detect(&xs, &Config::default()).is_empty(), "seed {seed}");
        }
    }

    #[test]
    fn two_shifts_and_degenerate_inputs() {
        let xs = noisy(
            150,
            |i| match i {
                0..50 => 100.0,
                50..100 => 110.0,
                _ => 100.0,
            },
            0.01,
            3,
        );
        let idx: Vec<usize> = detect(&xs, &Config::default())
            .iter()
            .map(|c| c.index)
            .collect();
        assert_eq!(idx, vec![50, 100]);
        assert!(detect(&[], &Config::default()).is_empty());
        assert!(detect(&[1.0; 30], &Config::default()).is_empty());
        assert!(detect(&[1.0, f64::NAN, 2.0], &Config::default()).is_empty());
    }
}
