//! Classical two-sample tests: Welch's t-test, the Student's t confidence
//! interval of a difference of means that ministat and rebar3_bench print,
//! and the Mann-Whitney U test.
//!
//! Every function compares a first sample `x` with a second sample `y` and
//! follows scipy's orientation: differences are `x − y`, and `u` is the U
//! statistic of `x`. To ask "how did the new run change against the
//! baseline?" pass `(new, baseline)`.
//!
//! # Example
//!
//! ```
//! use yardstick_stats::hypothesis::{mann_whitney_u, student_ci, welch};
//!
//! let old = [10.1, 10.3, 9.9, 10.0, 10.2, 10.1, 10.0, 9.8];
//! let new = [10.6, 10.8, 10.5, 10.7, 10.4, 10.9, 10.6, 10.5];
//! let w = welch(&new, &old)?;
//! assert!(w.t > 0.0 && w.p < 0.001);
//! let ci = student_ci(&new, &old, 0.95)?;
//! assert!(ci.diff > ci.half_width); // "Difference at 95.0% confidence"
//! let mw = mann_whitney_u(&new, &old)?;
//! assert_eq!(mw.u, 64.0); // every new value is above every old one
//! # Ok::<(), yardstick_stats::StatsError>(())
//! ```

use crate::distributions::{normal_sf, t_quantile, t_sf};
use crate::error::{check_confidence, check_finite, StatsError};
use crate::univariate::{mean_unchecked, variance_with_mean};

/// The result of Welch's unequal-variances t-test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Welch {
    /// `(mean(x) − mean(y)) / sqrt(var(x)/n_x + var(y)/n_y)`.
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

fn two_samples(x: &[f64], y: &[f64]) -> Result<(), StatsError> {
    for s in [x, y] {
        if s.len() < 2 {
            return Err(StatsError::TooFewSamples {
                needed: 2,
                got: s.len(),
            });
        }
        check_finite(s)?;
    }
    Ok(())
}

/// Welch's t-test of equal means (`scipy.stats.ttest_ind(x, y,
/// equal_var=False)`).
///
/// When neither sample has any spread the statistic is undefined; it is
/// reported as `t = 0, p = 1` for equal means and `t = ±∞, p = 0` for
/// different ones, with `df = n_x + n_y − 2`. Never NaN.
///
/// # Errors
///
/// [`StatsError::TooFewSamples`] when a sample has fewer than two values,
/// [`StatsError::NonFinite`] for NaN or infinite values.
pub fn welch(x: &[f64], y: &[f64]) -> Result<Welch, StatsError> {
    two_samples(x, y)?;
    let (nx, ny) = (x.len() as f64, y.len() as f64);
    let (mx, my) = (mean_unchecked(x), mean_unchecked(y));
    let (vx, vy) = (
        variance_with_mean(x, mx) / nx,
        variance_with_mean(y, my) / ny,
    );
    let se2 = vx + vy;
    let diff = mx - my;
    if se2 == 0.0 {
        let (t, p) = if diff == 0.0 {
            (0.0, 1.0)
        } else {
            (diff.signum() * f64::INFINITY, 0.0)
        };
        return Ok(Welch {
            t,
            df: nx + ny - 2.0,
            p,
        });
    }
    let t = diff / se2.sqrt();
    let df = se2 * se2 / (vx * vx / (nx - 1.0) + vy * vy / (ny - 1.0));
    let p = (2.0 * t_sf(t.abs(), df)).min(1.0);
    Ok(Welch { t, df, p })
}

/// A confidence interval of a difference of means by Student's t with
/// pooled standard deviation, as ministat and rebar3_bench print it:
///
/// ```text
/// Difference at 95.0 confidence
///     -2.00ns ±     1.00ns
///     -1.60%  ±  0.77%
///  (Student's t, pooled s = 3.21558)
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StudentCi {
    /// `mean(x) − mean(y)`.
    pub diff: f64,
    /// Half the width of the interval: `t_{(1+c)/2, n_x+n_y−2} · s · sqrt(1/n_x + 1/n_y)`.
    pub half_width: f64,
    /// The pooled standard deviation `s`.
    pub pooled_s: f64,
    /// Degrees of freedom, `n_x + n_y − 2`.
    pub df: f64,
    /// Confidence level as a fraction (0.95).
    pub confidence: f64,
    /// `diff / mean(y)`: the difference relative to the second sample (the
    /// baseline when called as `(new, baseline)`); 0 when `mean(y)` is 0.
    pub relative_diff: f64,
    /// `half_width / mean(y)`; 0 when `mean(y)` is 0.
    pub relative_half_width: f64,
}

impl StudentCi {
    /// Whether the interval excludes zero ("Difference at … confidence"
    /// rather than ministat's "No difference proven").
    #[must_use]
    pub fn is_significant(&self) -> bool {
        self.diff.abs() > self.half_width
    }
}

/// The levels ministat offers (80, 90, 95, 98, 99 %, as fractions); any
/// level in (0, 1) is accepted by [`student_ci`].
pub const MINISTAT_LEVELS: [f64; 5] = [0.80, 0.90, 0.95, 0.98, 0.99];

/// Student's t confidence interval of `mean(x) − mean(y)` with pooled
/// standard deviation, at `confidence` (a fraction in (0, 1)).
///
/// # Errors
///
/// [`StatsError::TooFewSamples`] when a sample has fewer than two values,
/// [`StatsError::NonFinite`] for NaN or infinite values,
/// [`StatsError::InvalidConfig`] for a confidence outside (0, 1).
pub fn student_ci(x: &[f64], y: &[f64], confidence: f64) -> Result<StudentCi, StatsError> {
    check_confidence(confidence)?;
    two_samples(x, y)?;
    let (nx, ny) = (x.len() as f64, y.len() as f64);
    let (mx, my) = (mean_unchecked(x), mean_unchecked(y));
    let (vx, vy) = (variance_with_mean(x, mx), variance_with_mean(y, my));
    let df = nx + ny - 2.0;
    let pooled_s = (((nx - 1.0) * vx + (ny - 1.0) * vy) / df).sqrt();
    let t = t_quantile(0.5 * (1.0 + confidence), df);
    let half_width = t * pooled_s * (1.0 / nx + 1.0 / ny).sqrt();
    let diff = mx - my;
    let rel = |v: f64| if my == 0.0 { 0.0 } else { v / my };
    Ok(StudentCi {
        diff,
        half_width,
        pooled_s,
        df,
        confidence,
        relative_diff: rel(diff),
        relative_half_width: rel(half_width).abs(),
    })
}

/// How a Mann-Whitney p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MannWhitneyMethod {
    /// The exact null distribution of U (no ties, and a sample of at most
    /// eight values).
    Exact,
    /// The normal approximation with tie and continuity corrections.
    Asymptotic,
}

/// The result of a Mann-Whitney U test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitney {
    /// The U statistic of `x`: the number of pairs `(xᵢ, yⱼ)` with
    /// `xᵢ > yⱼ`, ties counting ½.
    pub u: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// How `p` was computed.
    pub method: MannWhitneyMethod,
}

/// Largest sample size for which the exact distribution is used (scipy's
/// rule: exact when either sample has at most 8 values and there are no
/// ties).
const EXACT_MAX: usize = 8;

/// The two-sided Mann-Whitney U test, exactly as
/// `scipy.stats.mannwhitneyu(x, y)` with its defaults (`method="auto"`,
/// `use_continuity=True`): the exact distribution when there are no ties
/// and either sample has at most eight values, otherwise the normal
/// approximation `z = (max(U₁, U₂) − n_x n_y/2 − ½) / σ` with the tie
/// correction `σ² = n_x n_y/12 · ((n + 1) − Σ(t³ − t)/(n(n − 1)))`.
/// When every value is tied `p` is 1.
///
/// Robust to outliers: only the order of the values matters.
///
/// # Errors
///
/// [`StatsError::TooFewSamples`] when a sample is empty,
/// [`StatsError::NonFinite`] for NaN or infinite values.
pub fn mann_whitney_u(x: &[f64], y: &[f64]) -> Result<MannWhitney, StatsError> {
    for s in [x, y] {
        if s.is_empty() {
            return Err(StatsError::TooFewSamples { needed: 1, got: 0 });
        }
        check_finite(s)?;
    }
    let (n1, n2) = (x.len(), y.len());
    let n = n1 + n2;
    // Average ranks of the pooled data; remember tie group sizes.
    let mut pooled: Vec<(f64, bool)> = x
        .iter()
        .map(|&v| (v, true))
        .chain(y.iter().map(|&v| (v, false)))
        .collect();
    pooled.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut rank_sum_x = 0.0;
    let mut tie_term = 0.0;
    let mut has_ties = false;
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && pooled[j].0 == pooled[i].0 {
            j += 1;
        }
        let t = (j - i) as f64;
        if j - i > 1 {
            has_ties = true;
            tie_term += t * t * t - t;
        }
        // Ranks i+1 ..= j averaged.
        let avg_rank = (i + 1 + j) as f64 / 2.0;
        let in_x = pooled[i..j].iter().filter(|p| p.1).count();
        rank_sum_x += avg_rank * in_x as f64;
        i = j;
    }
    let (f1, f2) = (n1 as f64, n2 as f64);
    let u1 = rank_sum_x - f1 * (f1 + 1.0) / 2.0;
    let u2 = f1 * f2 - u1;
    let big_u = u1.max(u2);

    if !has_ties && (n1 <= EXACT_MAX || n2 <= EXACT_MAX) {
        // U is an integer here.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let p = (2.0 * exact_sf(big_u.round() as usize, n1, n2)).min(1.0);
        return Ok(MannWhitney {
            u: u1,
            p,
            method: MannWhitneyMethod::Exact,
        });
    }
    let nf = n as f64;
    let s = (f1 * f2 / 12.0 * ((nf + 1.0) - tie_term / (nf * (nf - 1.0)))).sqrt();
    let p = if s > 0.0 {
        let z = (big_u - f1 * f2 / 2.0 - 0.5) / s;
        (2.0 * normal_sf(z)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    Ok(MannWhitney {
        u: u1,
        p,
        method: MannWhitneyMethod::Asymptotic,
    })
}

/// `P(U ≥ u)` under the null hypothesis for samples of sizes `m` and `n`
/// without ties, by counting arrangements.
///
/// `count[k][u]` is the number of ways `k` values of the first sample and
/// the `j` values of the second seen so far give `U = u`; adding one more
/// value of the second sample, placed above all, gives the recursion
/// `f(u; k, j) = f(u; k, j − 1) + f(u − j; k − 1, j)` (the largest value of
/// all is either from the second sample or from the first, in which case it
/// beats all `j`). Counts are kept in f64 (additions only, so the relative
/// error stays near machine precision).
fn exact_sf(u: usize, m: usize, n: usize) -> f64 {
    // Iterate over the smaller dimension in the inner tables.
    let (m, n) = if m <= n { (m, n) } else { (n, m) };
    let max_u = m * n;
    // f[k][v] for the current j.
    let mut f: Vec<Vec<f64>> = (0..=m).map(|_| vec![0.0; max_u + 1]).collect();
    // j = 0: only U = 0, one way, for every k.
    for row in &mut f {
        row[0] = 1.0;
    }
    for j in 1..=n {
        // The recursion needs f(·; k − 1, j) for the new j, so k goes up.
        for k in 1..=m {
            let (lower, upper) = f.split_at_mut(k);
            let prev = &lower[k - 1];
            let cur = &mut upper[0];
            for v in (j..=k * j).rev() {
                cur[v] += prev[v - j];
            }
        }
    }
    let dist = &f[m];
    let total: f64 = dist.iter().sum();
    let tail: f64 = dist.iter().skip(u).sum();
    tail / total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_distribution_small_case() {
        // m = n = 2: U takes 0,1,2,2,3,4 over the C(4,2) = 6 arrangements
        // (counts 1,1,2,1,1).
        assert!((exact_sf(0, 2, 2) - 1.0).abs() < 1e-15);
        assert!((exact_sf(2, 2, 2) - 4.0 / 6.0).abs() < 1e-15);
        assert!((exact_sf(4, 2, 2) - 1.0 / 6.0).abs() < 1e-15);
        assert!((exact_sf(3, 2, 3) - exact_sf(3, 3, 2)).abs() < 1e-15);
    }

    #[test]
    fn welch_without_spread_is_defined() {
        let w = welch(&[1.0, 1.0], &[1.0, 1.0, 1.0]).unwrap();
        assert_eq!((w.t, w.p), (0.0, 1.0));
        let w = welch(&[2.0, 2.0], &[1.0, 1.0, 1.0]).unwrap();
        assert_eq!((w.t, w.p), (f64::INFINITY, 0.0));
    }

    #[test]
    fn all_ties_give_p_one() {
        let m = mann_whitney_u(&[3.0; 10], &[3.0; 12]).unwrap();
        assert_eq!(m.p, 1.0);
        assert_eq!(m.u, 60.0);
    }
}
