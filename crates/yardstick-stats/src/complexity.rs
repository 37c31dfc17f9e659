//! Big-O fitting as nanobench does it: for each candidate complexity `f`,
//! the coefficient `c` of the least-squares line through the origin of the
//! measured times `y` on `f(n)`, and the normalised root-mean-square error
//! `√(Σ(c·f(n) − y)² / k) / ȳ` over the `k` points; the candidates sorted
//! by that error, best first (ties by name).
//!
//! The standard candidates are O(1), O(n), O(log n), O(n log n), O(n²) and
//! O(n³), with base-2 logarithms (nanobench's choice; the base only scales
//! the coefficient). Names are spelled as nanobench prints them:
//! `O(1)`, `O(n)`, `O(log n)`, `O(n log n)`, `O(n^2)`, `O(n^3)`.
//!
//! # Example
//!
//! ```
//! use yardstick_stats::complexity::{big_o, big_o_with};
//!
//! let n = [10.0, 100.0, 1000.0, 10000.0];
//! let t = [21.0, 199.0, 2003.0, 19990.0]; // about 2 per element
//! let fits = big_o(&n, &t)?;
//! assert_eq!(fits[0].name, "O(n)");
//! assert!((fits[0].coefficient - 2.0).abs() < 0.01);
//!
//! let sqrt = |n: f64| n.sqrt();
//! let fits = big_o_with(&n, &t, &[("O(sqrt n)", &sqrt)])?;
//! assert_eq!(fits.len(), 7);
//! # Ok::<(), yardstick_stats::StatsError>(())
//! ```

use crate::error::{check_finite, StatsError};

/// One candidate complexity fitted to the data.
#[derive(Debug, Clone, PartialEq)]
pub struct BigO {
    /// The name, e.g. `O(n log n)`.
    pub name: String,
    /// The constant factor `c` in `y ≈ c · f(n)`.
    pub coefficient: f64,
    /// The normalised root-mean-square error, as a fraction (nanobench
    /// prints it ×100 in its `err%` column).
    pub normalized_rms: f64,
}

/// A complexity function: maps the problem size `n` to `f(n)`.
pub type ComplexityFn<'a> = &'a dyn Fn(f64) -> f64;

/// A named complexity function with a static name.
pub type Candidate = (&'static str, fn(f64) -> f64);

/// The six standard candidates.
#[must_use]
pub fn standard_candidates() -> [Candidate; 6] {
    [
        ("O(1)", |_| 1.0),
        ("O(n)", |n| n),
        ("O(log n)", f64::log2),
        ("O(n log n)", |n| n * n.log2()),
        ("O(n^2)", |n| n * n),
        ("O(n^3)", |n| n * n * n),
    ]
}

fn check_points(ns: &[f64], ys: &[f64]) -> Result<(), StatsError> {
    if ns.len() != ys.len() {
        return Err(StatsError::LengthMismatch {
            left: ns.len(),
            right: ys.len(),
        });
    }
    if ns.is_empty() {
        return Err(StatsError::TooFewSamples { needed: 1, got: 0 });
    }
    check_finite(ns)?;
    check_finite(ys)?;
    if ns.iter().any(|&n| n <= 0.0) {
        return Err(StatsError::NonPositive);
    }
    Ok(())
}

/// Fits one complexity `f` to times `ys` measured at sizes `ns`.
///
/// When every `f(n)` is 0 (e.g. O(log n) with only `n = 1`) the coefficient
/// is 0; when the mean time is not positive the error is 0 (as nanobench).
///
/// # Errors
///
/// [`StatsError::LengthMismatch`], [`StatsError::TooFewSamples`] for no
/// points, [`StatsError::NonFinite`] for a non-finite input or `f(n)`, and
/// [`StatsError::NonPositive`] for a size `n ≤ 0`.
pub fn fit(name: &str, ns: &[f64], ys: &[f64], f: &dyn Fn(f64) -> f64) -> Result<BigO, StatsError> {
    check_points(ns, ys)?;
    let fx: Vec<f64> = ns.iter().map(|&n| f(n)).collect();
    check_finite(&fx)?;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (&x, &y) in fx.iter().zip(ys) {
        sxy += x * y;
        sxx += x * x;
    }
    let coefficient = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    let (mut err, mut sum) = (0.0, 0.0);
    for (&x, &y) in fx.iter().zip(ys) {
        let d = coefficient * x - y;
        err += d * d;
        sum += y;
    }
    let k = ns.len() as f64;
    let mean = sum / k;
    let normalized_rms = if mean <= 0.0 {
        0.0
    } else {
        (err / k).sqrt() / mean
    };
    Ok(BigO {
        name: name.to_owned(),
        coefficient,
        normalized_rms,
    })
}

/// Fits the six standard complexities, best first.
///
/// # Errors
///
/// As [`fit`].
pub fn big_o(ns: &[f64], ys: &[f64]) -> Result<Vec<BigO>, StatsError> {
    big_o_with(ns, ys, &[])
}

/// Fits the six standard complexities and the `custom` ones, best first.
///
/// # Errors
///
/// As [`fit`].
pub fn big_o_with(
    ns: &[f64],
    ys: &[f64],
    custom: &[(&str, ComplexityFn<'_>)],
) -> Result<Vec<BigO>, StatsError> {
    let mut fits = Vec::with_capacity(6 + custom.len());
    for (name, f) in standard_candidates() {
        fits.push(fit(name, ns, ys, &f)?);
    }
    for &(name, f) in custom {
        fits.push(fit(name, ns, ys, f)?);
    }
    fits.sort_unstable_by(|a, b| {
        a.normalized_rms
            .total_cmp(&b.normalized_rms)
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok(fits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_quadratic_wins_with_zero_error() {
        let n = [1.0, 2.0, 4.0, 8.0, 16.0];
        let t: Vec<f64> = n.iter().map(|n| 3.0 * n * n).collect();
        let fits = big_o(&n, &t).unwrap();
        assert_eq!(fits[0].name, "O(n^2)");
        assert!(fits[0].normalized_rms < 1e-15);
        assert!((fits[0].coefficient - 3.0).abs() < 1e-12);
    }

    #[test]
    fn log_of_one_is_defined() {
        let f = fit("O(log n)", &[1.0], &[5.0], &f64::log2).unwrap();
        assert_eq!(f.coefficient, 0.0);
        assert_eq!(f.normalized_rms, 1.0);
    }

    #[test]
    fn rejects_non_positive_sizes() {
        assert_eq!(
            big_o(&[0.0, 1.0], &[1.0, 1.0]),
            Err(StatsError::NonPositive)
        );
    }
}
