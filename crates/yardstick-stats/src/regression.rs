//! Least-squares lines: through the origin (the typical benchmark estimate)
//! and with an intercept (which exposes a constant per-sample overhead).
//!
//! # R², centred
//!
//! Both fits report the **centred** coefficient of determination
//! `R² = 1 − SS_res / SS_tot` with `SS_tot = Σ(y − ȳ)²`: the share of the
//! variation of `y` *around its mean* that the line explains. For the fit
//! with an intercept this is the textbook R² in 0..=1. For the line through
//! the origin it is the same formula applied to that line's residuals, so it
//! stays comparable between the two fits, and it can be negative when the
//! line through the origin fits worse than the horizontal line at `ȳ` (a
//! strong sign of a constant overhead). The uncentred variant
//! (`SS_tot = Σy²`, what R's `lm(y ~ x - 1)` prints) is close to 1 for almost
//! any benchmark and is not used. When every `y` is equal (`SS_tot = 0`) R²
//! is 1 if the line passes through every point and 0 otherwise, never NaN.
//!
//! (Criterion.rs intends the centred R² for its slope but overwrites its
//! running sum of squares on every point, so it reports a different number.)
//!
//! # Example
//!
//! ```
//! use yardstick_stats::regression::{ols, through_origin};
//!
//! let x = [1.0, 2.0, 3.0, 4.0];
//! let y = [12.0, 22.0, 32.0, 42.0]; // 10 per iteration + 2 per sample
//! let line = ols(&x, &y)?;
//! assert!((line.slope - 10.0).abs() < 1e-12);
//! assert!((line.intercept - 2.0).abs() < 1e-12);
//! let origin = through_origin(&x, &y)?;
//! assert!(origin.slope > 10.0); // the overhead leaks into the slope
//! # Ok::<(), yardstick_stats::StatsError>(())
//! ```

use crate::error::{check_finite, StatsError};

/// A line through the origin, `y = slope · x`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// `Σxy / Σx²`.
    pub slope: f64,
    /// Centred R² of this line (see the [module docs](self)); may be
    /// negative.
    pub r2: f64,
}

/// An ordinary least-squares line with intercept, `y = intercept + slope · x`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OlsFit {
    /// The value of the line at `x = 0`.
    pub intercept: f64,
    /// The change of `y` per unit of `x`.
    pub slope: f64,
    /// Centred R², in 0..=1.
    pub r2: f64,
}

fn check_pairs(x: &[f64], y: &[f64], needed: usize) -> Result<(), StatsError> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            left: x.len(),
            right: y.len(),
        });
    }
    if x.len() < needed {
        return Err(StatsError::TooFewSamples {
            needed,
            got: x.len(),
        });
    }
    check_finite(x)?;
    check_finite(y)
}

/// Slope of the least-squares line through the origin, without checks.
#[inline]
pub(crate) fn slope_unchecked(x: &[f64], y: &[f64]) -> f64 {
    let (mut xy, mut xx) = (0.0, 0.0);
    for (&a, &b) in x.iter().zip(y) {
        xy += a * b;
        xx += a * a;
    }
    xy / xx
}

/// `1 − ss_res / ss_tot`, defined when `ss_tot` is zero.
fn r2_from(ss_res: f64, ss_tot: f64) -> f64 {
    if ss_tot > 0.0 {
        1.0 - ss_res / ss_tot
    } else if ss_res == 0.0 {
        1.0
    } else {
        0.0
    }
}

/// Centred R² of the line `y = intercept + slope · x` on the points
/// (see the [module docs](self)): `1 − Σ(y − line)² / Σ(y − ȳ)²`, 1 when
/// every `y` is equal and on the line, 0 when equal and off it. Lengths
/// are not checked; `x` and `y` pair up element by element.
///
/// ```
/// use yardstick_stats::regression::centred_r2;
/// // y = [2, 4, 7], the line y = 2x: residuals 0, 0, 1, SS_tot = 38/3.
/// let r2 = centred_r2(&[1.0, 2.0, 3.0], &[2.0, 4.0, 7.0], 0.0, 2.0);
/// assert!((r2 - (1.0 - 3.0 / 38.0)).abs() < 1e-12);
/// ```
#[must_use]
pub fn centred_r2(x: &[f64], y: &[f64], intercept: f64, slope: f64) -> f64 {
    let ybar = y.iter().sum::<f64>() / y.len() as f64;
    let (mut ss_res, mut ss_tot) = (0.0, 0.0);
    for (&a, &b) in x.iter().zip(y) {
        let r = b - (intercept + slope * a);
        ss_res += r * r;
        ss_tot += (b - ybar) * (b - ybar);
    }
    r2_from(ss_res, ss_tot)
}

/// Least squares through the origin: the `slope` minimising `Σ(y − slope·x)²`.
///
/// # Errors
///
/// [`StatsError::LengthMismatch`] when `x` and `y` differ in length,
/// [`StatsError::TooFewSamples`] when they are empty,
/// [`StatsError::NonFinite`] for NaN or infinite values, and
/// [`StatsError::NonPositiveIterations`] when every `x` is zero.
pub fn through_origin(x: &[f64], y: &[f64]) -> Result<Fit, StatsError> {
    check_pairs(x, y, 1)?;
    if x.iter().all(|&a| a == 0.0) {
        return Err(StatsError::NonPositiveIterations);
    }
    let slope = slope_unchecked(x, y);
    Ok(Fit {
        slope,
        r2: centred_r2(x, y, 0.0, slope),
    })
}

/// Ordinary least squares with an intercept.
///
/// # Errors
///
/// [`StatsError::LengthMismatch`] when `x` and `y` differ in length,
/// [`StatsError::TooFewSamples`] for fewer than two points,
/// [`StatsError::NonFinite`] for NaN or infinite values, and
/// [`StatsError::ConstantRegressor`] when every `x` is the same.
pub fn ols(x: &[f64], y: &[f64]) -> Result<OlsFit, StatsError> {
    check_pairs(x, y, 2)?;
    let n = x.len() as f64;
    let xbar = x.iter().sum::<f64>() / n;
    let ybar = y.iter().sum::<f64>() / n;
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for (&a, &b) in x.iter().zip(y) {
        sxx += (a - xbar) * (a - xbar);
        sxy += (a - xbar) * (b - ybar);
    }
    if sxx == 0.0 {
        return Err(StatsError::ConstantRegressor);
    }
    let slope = sxy / sxx;
    let intercept = ybar - slope * xbar;
    Ok(OlsFit {
        intercept,
        slope,
        r2: centred_r2(x, y, intercept, slope),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_line_has_r2_one() {
        let x = [1.0, 2.0, 3.0];
        let y = [2.0, 4.0, 6.0];
        let f = through_origin(&x, &y).unwrap();
        assert_eq!(f.slope, 2.0);
        assert_eq!(f.r2, 1.0);
        let o = ols(&x, &y).unwrap();
        assert!((o.r2 - 1.0).abs() < 1e-15);
    }

    #[test]
    fn degenerate_inputs_are_errors_not_nan() {
        assert_eq!(
            ols(&[1.0, 1.0], &[1.0, 2.0]),
            Err(StatsError::ConstantRegressor)
        );
        assert!(matches!(
            through_origin(&[1.0], &[1.0, 2.0]),
            Err(StatsError::LengthMismatch { .. })
        ));
        assert_eq!(
            through_origin(&[0.0, 0.0], &[1.0, 2.0]),
            Err(StatsError::NonPositiveIterations)
        );
        // Constant y: the line through the origin cannot hit it; R² is 0.
        let f = through_origin(&[1.0, 2.0], &[3.0, 3.0]).unwrap();
        assert_eq!(f.r2, 0.0);
    }
}
