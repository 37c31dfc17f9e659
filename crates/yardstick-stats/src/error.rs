//! The error type of every fallible function in this crate.

use std::fmt;

/// Why a statistic could not be computed.
///
/// Statistics are pure functions of their inputs, so every error names the
/// input that was wrong; none of them is transient.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StatsError {
    /// The statistic needs at least `needed` values and got `got`.
    TooFewSamples {
        /// The minimum number of values.
        needed: usize,
        /// The number of values given.
        got: usize,
    },
    /// An input value is NaN or infinite.
    NonFinite,
    /// Two slices that pair up element by element have different lengths.
    LengthMismatch {
        /// Length of the first slice (e.g. the iteration counts).
        left: usize,
        /// Length of the second slice (e.g. the measured values).
        right: usize,
    },
    /// An iteration count (or regression abscissa that must be positive) is
    /// zero or negative.
    NonPositiveIterations,
    /// A value that must be positive (a problem size, a time for a
    /// geometric statistic) is zero or negative.
    NonPositive,
    /// The regressor has no spread (every `x` is the same), so a line with an
    /// intercept is not determined.
    ConstantRegressor,
    /// The baseline's mean or median is zero, so a relative change is not
    /// defined.
    ZeroBaseline,
    /// A configuration value is out of range; the message names it and the
    /// accepted range.
    InvalidConfig(&'static str),
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::TooFewSamples { needed, got } => {
                write!(f, "too few samples: need at least {needed}, got {got}")
            }
            StatsError::NonFinite => f.write_str("a value is NaN or infinite"),
            StatsError::LengthMismatch { left, right } => write!(
                f,
                "paired inputs have different lengths ({left} and {right})"
            ),
            StatsError::NonPositiveIterations => {
                f.write_str("an iteration count is zero or negative")
            }
            StatsError::NonPositive => {
                f.write_str("a value that must be positive is zero or negative")
            }
            StatsError::ConstantRegressor => {
                f.write_str("every x value is the same, so no line can be fitted")
            }
            StatsError::ZeroBaseline => f.write_str(
                "the baseline's mean or median is zero, so a relative change is undefined",
            ),
            StatsError::InvalidConfig(what) => write!(f, "invalid configuration: {what}"),
        }
    }
}

impl std::error::Error for StatsError {}

/// `Err(NonFinite)` unless every value is finite.
pub(crate) fn check_finite(xs: &[f64]) -> Result<(), StatsError> {
    if xs.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(StatsError::NonFinite)
    }
}

/// Checks a confidence level given as a fraction in (0, 1).
pub(crate) fn check_confidence(confidence: f64) -> Result<(), StatsError> {
    if confidence > 0.0 && confidence < 1.0 {
        Ok(())
    } else {
        Err(StatsError::InvalidConfig(
            "confidence must be a fraction strictly between 0 and 1 (e.g. 0.95)",
        ))
    }
}
