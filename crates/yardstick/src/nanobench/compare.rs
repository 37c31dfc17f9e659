//! Comparisons between the results of one [`Bench`]: tasty-bench's ratios
//! (`0.08x`, `128.36x`) and portable performance assertions in the spirit
//! of its `bcompareWithin` ("this must be at least twice as fast as that").
//!
//! All comparisons use the time per unit, so benchmarks run with different
//! [`batch`](Bench::batch) sizes compare fairly. When a name has run more
//! than once, its latest result is used.

use super::bench::Bench;
use super::result::{BenchResult, Ratio};

impl Bench<'_> {
    /// The latest measured result named `name`.
    fn measured(&self, name: &str) -> Result<&BenchResult, String> {
        let result = self
            .results
            .iter()
            .rev()
            .find(|r| r.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = self.results.iter().map(BenchResult::name).collect();
                format!(
                    "no benchmark named `{name}` has run on this Bench (it has: {})",
                    if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    }
                )
            })?;
        if result.overflowed() {
            return Err(format!(
                "`{name}` has no measurement: its iterations overflowed (was its body optimised away? \
                 pass its result through do_not_optimize_away)"
            ));
        }
        Ok(result)
    }

    /// The time per unit of `name` relative to `baseline`'s, as tasty-bench
    /// prints it: `0.08x` (faster), `128.36x` (slower).
    ///
    /// # Errors
    ///
    /// When either name has not run on this `Bench`, or has no measurement
    /// (its iterations overflowed).
    ///
    /// # Example
    ///
    /// ```
    /// # use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None)
    ///     .run_custom("tenth", |iters| Duration::from_nanos(1600 * iters))
    ///     .run_custom("fifth", |iters| Duration::from_nanos(121 * iters));
    /// assert_eq!(bench.ratio("fifth", "tenth")?.to_string(), "0.08x");
    /// assert!(bench.ratio("fifth", "twentieth").is_err());
    /// # Ok::<(), String>(())
    /// ```
    pub fn ratio(&self, name: &str, baseline: &str) -> Result<Ratio, String> {
        let (this, base) = (self.measured(name)?, self.measured(baseline)?);
        this.ratio_to(base)
            .ok_or_else(|| format!("`{baseline}` measured no time, so nothing compares with it"))
    }

    /// Checks that `fast` is at least `factor` times faster than `slow`
    /// (per unit): a portable performance test, true on any machine where
    /// the algorithms behave as expected.
    ///
    /// # Errors
    ///
    /// A sentence saying what was measured and what was expected, e.g.
    /// "`fast` is 1.60x faster than `slow`, expected at least 2x", or why
    /// the two could not be compared.
    ///
    /// # Example
    ///
    /// ```
    /// # use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None)
    ///     .run_custom("slow", |iters| Duration::from_nanos(160 * iters))
    ///     .run_custom("fast", |iters| Duration::from_nanos(100 * iters));
    /// assert!(bench.check_faster("fast", "slow", 1.5).is_ok());
    /// assert_eq!(
    ///     bench.check_faster("fast", "slow", 2.0).unwrap_err(),
    ///     "`fast` is 1.60x faster than `slow`, expected at least 2x"
    /// );
    /// ```
    pub fn check_faster(&self, fast: &str, slow: &str, factor: f64) -> Result<(), String> {
        let ratio = self.ratio(fast, slow)?.value();
        let speedup = if ratio > 0.0 {
            1.0 / ratio
        } else {
            f64::INFINITY
        };
        if speedup >= factor {
            return Ok(());
        }
        if speedup >= 1.0 {
            Err(format!(
                "`{fast}` is {} faster than `{slow}`, expected at least {factor}x",
                Ratio::new(speedup)
            ))
        } else {
            Err(format!(
                "`{fast}` is {} slower than `{slow}`, expected it to be at least {factor}x faster",
                Ratio::new(ratio)
            ))
        }
    }

    /// Panics unless `fast` is at least `factor` times faster than `slow`;
    /// see [`check_faster`](Self::check_faster).
    ///
    /// # Panics
    ///
    /// With the message of `check_faster` when the check fails.
    ///
    /// # Example
    ///
    /// ```
    /// # use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None)
    ///     .run_custom("slow", |iters| Duration::from_nanos(300 * iters))
    ///     .run_custom("fast", |iters| Duration::from_nanos(100 * iters));
    /// bench.assert_faster("fast", "slow", 2.0);
    /// ```
    #[track_caller]
    pub fn assert_faster(&self, fast: &str, slow: &str, factor: f64) {
        if let Err(message) = self.check_faster(fast, slow, factor) {
            panic!("{message}");
        }
    }

    /// Checks that the [`ratio`](Self::ratio) of `name` to `baseline` lies
    /// in `[min, max]` (tasty-bench's `bcompareWithin`): e.g. `0.0, 0.5`
    /// for "at least twice as fast", `1.0, 3.0` for "slower, but not more
    /// than three times".
    ///
    /// # Errors
    ///
    /// A sentence with the measured ratio and the expected range, or why
    /// the two could not be compared.
    ///
    /// # Example
    ///
    /// ```
    /// # use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None)
    ///     .run_custom("copy", |iters| Duration::from_nanos(100 * iters))
    ///     .run_custom("checked copy", |iters| Duration::from_nanos(250 * iters));
    /// assert!(bench.check_within("checked copy", "copy", 1.0, 3.0).is_ok());
    /// assert_eq!(
    ///     bench.check_within("checked copy", "copy", 1.0, 2.0).unwrap_err(),
    ///     "`checked copy` takes 2.50x the time of `copy`, expected between 1x and 2x"
    /// );
    /// ```
    pub fn check_within(
        &self,
        name: &str,
        baseline: &str,
        min: f64,
        max: f64,
    ) -> Result<(), String> {
        let ratio = self.ratio(name, baseline)?;
        if (min..=max).contains(&ratio.value()) {
            Ok(())
        } else {
            Err(format!(
                "`{name}` takes {ratio} the time of `{baseline}`, expected between {min}x and {max}x"
            ))
        }
    }
}
