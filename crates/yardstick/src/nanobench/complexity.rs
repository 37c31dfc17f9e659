//! Big-O from runs at several problem sizes, as nanobench fits it: for each
//! candidate `f`, the least-squares `c` in `time ≈ c · f(n)` through the
//! origin and its normalised root-mean-square error, best fit first.
//!
//! The time of a run is the median time per iteration in seconds (as
//! nanobench fits it, so coefficients compare with nanobench's); runs
//! without [`complexity_n`](Bench::complexity_n) or without a measurement
//! are left out. The fitting itself is `yardstick_stats::complexity`.

use yardstick_stats::complexity::{big_o, fit, BigO};

use super::bench::Bench;
use crate::complexity::ComplexityFits;

impl Bench<'_> {
    /// The problem sizes and median seconds per iteration of the runs that
    /// have both.
    fn sizes_and_times(&self) -> (Vec<f64>, Vec<f64>) {
        self.results
            .iter()
            .filter_map(|r| Some((r.complexity_n()? as f64, r.median_ns()? / 1e9)))
            .unzip()
    }

    /// Fits O(1), O(n), O(log n), O(n log n), O(n²) and O(n³) to the runs
    /// made with a [`complexity_n`](Bench::complexity_n), best fit first
    /// (nanobench's `complexityBigO()`); print it for nanobench's table.
    /// Empty when no run had a problem size.
    ///
    /// # Example
    ///
    /// ```
    /// use yardstick::nanobench::{do_not_optimize_away, Bench};
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None);
    /// for n in [100_u64, 200, 400, 800] {
    ///     let data: Vec<u64> = (0..n).collect();
    ///     bench.complexity_n(n).run("sum", || do_not_optimize_away(&data).iter().sum::<u64>());
    /// }
    /// println!("{}", bench.complexity_big_o());
    /// ```
    #[must_use]
    pub fn complexity_big_o(&self) -> ComplexityFits {
        let (ns, times) = self.sizes_and_times();
        ComplexityFits::from(big_o(&ns, &times).unwrap_or_default())
    }

    /// Fits one user-supplied complexity `f` (e.g. `O(log log n)`) to the
    /// runs made with a [`complexity_n`](Bench::complexity_n); `None` when
    /// there are none or `f` gives a non-finite value.
    ///
    /// # Example
    ///
    /// ```
    /// use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None);
    /// for n in [16_u64, 64, 256, 1024] {
    ///     let t = 5 * (n as f64).sqrt() as u64;
    ///     bench.complexity_n(n).run_custom("tree", |iters| Duration::from_nanos(t * iters));
    /// }
    /// let fit = bench.complexity_big_o_with("O(sqrt n)", f64::sqrt).unwrap();
    /// assert!(fit.normalized_rms < 1e-9);
    /// ```
    #[must_use]
    pub fn complexity_big_o_with(&self, name: &str, f: impl Fn(f64) -> f64) -> Option<BigO> {
        let (ns, times) = self.sizes_and_times();
        fit(name, &ns, &times, &f).ok()
    }
}
