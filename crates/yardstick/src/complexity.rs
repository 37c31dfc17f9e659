//! Big-O fits as nanobench prints them: the value the nanobench builder
//! returns (`Bench::complexity_big_o`) and the one a Criterion.rs group's
//! summary, its message and its report hold. The fitting itself is
//! `yardstick_stats::complexity`.

use std::fmt;
use std::ops::Deref;

use yardstick_stats::complexity::BigO;

use crate::output::numbers::{general, grouped};

/// The fits of the standard complexities, best first, printed as
/// nanobench's table.
///
/// # Example
///
/// ```
/// use std::time::Duration;
/// use yardstick::nanobench::Bench;
///
/// let mut bench = Bench::new();
/// bench.output(None);
/// for n in [10_u64, 100, 1000, 10_000] {
///     // A fake body that takes 3 ns per element.
///     bench.complexity_n(n).run_custom("scan", |iters| Duration::from_nanos(3 * n * iters));
/// }
/// let fits = bench.complexity_big_o();
/// assert_eq!(fits.best().unwrap().name, "O(n)");
/// assert!((fits[0].coefficient - 3e-9).abs() < 1e-15);
/// print!("{fits}");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ComplexityFits {
    fits: Vec<BigO>,
}

impl ComplexityFits {
    /// The best fit: the one with the smallest error. `None` when no run
    /// had a problem size.
    ///
    /// ```
    /// # use yardstick::nanobench::Bench;
    /// assert!(Bench::new().complexity_big_o().best().is_none());
    /// ```
    #[must_use]
    pub fn best(&self) -> Option<&BigO> {
        self.fits.first()
    }
}

impl From<Vec<BigO>> for ComplexityFits {
    /// Fits already sorted best first (as `yardstick_stats::complexity`
    /// returns them).
    fn from(fits: Vec<BigO>) -> ComplexityFits {
        ComplexityFits { fits }
    }
}

impl Deref for ComplexityFits {
    type Target = [BigO];

    fn deref(&self) -> &[BigO] {
        &self.fits
    }
}

/// nanobench's complexity table: coefficient (`%g`), err% and complexity.
impl fmt::Display for ComplexityFits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        writeln!(f, "|   coefficient |   err% | complexity")?;
        writeln!(f, "|--------------:|-------:|------------")?;
        for fit in &self.fits {
            writeln!(
                f,
                "|{:>14} |{:>6}% | {}",
                general(fit.coefficient),
                grouped(fit.normalized_rms * 100.0, 1),
                fit.name
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_nanobench_layout() {
        let fits = ComplexityFits {
            fits: vec![
                BigO {
                    name: "O(log n)".into(),
                    coefficient: 6.665_62e-9,
                    normalized_rms: 0.291,
                },
                BigO {
                    name: "O(1)".into(),
                    coefficient: 5.156_83e-8,
                    normalized_rms: 0.638,
                },
            ],
        };
        // The rows of the table in nanobench's documentation.
        assert_eq!(
            fits.to_string(),
            "\n|   coefficient |   err% | complexity\n|--------------:|-------:|------------\n\
             |   6.66562e-09 |  29.1% | O(log n)\n|   5.15683e-08 |  63.8% | O(1)\n"
        );
    }
}
