//! What one [`Bench::run`](super::Bench::run) measured: its epochs and the
//! figures nanobench derives from them.

use std::fmt;
use std::time::Duration;

use yardstick_stats::nanobench::{err_fraction, is_unstable};
use yardstick_stats::univariate;

use super::clock::nanos;
use super::config::Config;

/// A ratio of two times per unit, displayed as tasty-bench does: two
/// decimals and an `x` (`0.08x`: this takes 8 % of the baseline's time).
///
/// # Example
///
/// ```
/// use yardstick::nanobench::Ratio;
///
/// let r = Ratio::new(121.0 / 1600.0);
/// assert_eq!(r.to_string(), "0.08x");
/// assert_eq!(Ratio::new(128.364).to_string(), "128.36x");
/// assert!((r.value() - 0.075625).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Ratio(f64);

impl Ratio {
    /// A ratio of `value` (this time divided by the baseline's).
    ///
    /// ```
    /// # use yardstick::nanobench::Ratio;
    /// assert_eq!(Ratio::new(2.0).value(), 2.0);
    /// ```
    #[must_use]
    pub fn new(value: f64) -> Ratio {
        Ratio(value)
    }

    /// The ratio as a number: below 1 is faster than the baseline.
    ///
    /// ```
    /// # use yardstick::nanobench::Ratio;
    /// assert!(Ratio::new(0.5).value() < 1.0);
    /// ```
    #[must_use]
    pub fn value(self) -> f64 {
        self.0
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2}x", self.0)
    }
}

/// Hardware counters of one epoch or one result, per iteration.
///
/// A counter the machine cannot measure is `None`, never zero: the table
/// prints `-` for it.
///
/// # Example
///
/// ```
/// use yardstick::nanobench::Bench;
///
/// let mut bench = Bench::new();
/// bench.output(None).run("add", || 1 + 1);
/// let counters = bench.results()[0].counters();
/// if let Some(ins) = counters.instructions {
///     println!("{ins:.2} instructions per iteration");
/// }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Counters {
    /// Retired instructions.
    pub instructions: Option<f64>,
    /// CPU cycles.
    pub cycles: Option<f64>,
    /// Retired branch instructions.
    pub branches: Option<f64>,
    /// Mispredicted branches.
    pub branch_misses: Option<f64>,
}

/// One epoch: `iterations` runs of the body, timed together.
///
/// # Example
///
/// ```
/// use yardstick::nanobench::Bench;
///
/// let mut bench = Bench::new();
/// bench.output(None).epochs(5).run("add", || 1 + 1);
/// for epoch in bench.results()[0].epochs() {
///     assert!(epoch.iterations >= 1);
///     println!("{} iterations, {:.3} ns each", epoch.iterations, epoch.ns_per_iteration());
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Epoch {
    /// How many times the body ran.
    pub iterations: u64,
    /// The time all of them took.
    pub elapsed: Duration,
    /// The counters, per iteration.
    pub counters: Counters,
}

impl Epoch {
    /// The elapsed time per iteration, in nanoseconds.
    ///
    /// ```
    /// use std::time::Duration;
    /// use yardstick::nanobench::{Counters, Epoch};
    ///
    /// let e = Epoch { iterations: 4, elapsed: Duration::from_nanos(10), counters: Counters::default() };
    /// assert_eq!(e.ns_per_iteration(), 2.5);
    /// ```
    #[must_use]
    pub fn ns_per_iteration(&self) -> f64 {
        nanos(self.elapsed) / self.iterations.max(1) as f64
    }
}

/// The outcome of one [`Bench::run`](super::Bench::run).
///
/// Every figure is computed from the [`epochs`](BenchResult::epochs) the way
/// nanobench computes it. A run whose iteration count overflowed (its body
/// was optimised away) has no epochs, and every figure is `None`.
///
/// # Example
///
/// ```
/// use yardstick::nanobench::{do_not_optimize_away, Bench};
///
/// let mut x = 1_u64;
/// let mut bench = Bench::new();
/// bench.output(None).run("x * 3", || {
///     x = do_not_optimize_away(x.wrapping_mul(3));
/// });
/// let r = &bench.results()[0];
/// assert_eq!(r.name(), "x * 3");
/// assert_eq!(r.epochs().len(), 11);
/// let (median, err) = (r.median_ns().unwrap(), r.err().unwrap());
/// println!("{median:.2} ns/op ± {:.1}%", err * 100.0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BenchResult {
    pub(super) config: Config,
    pub(super) epochs: Vec<Epoch>,
}

impl BenchResult {
    /// The benchmark's name, as given to `run`.
    ///
    /// ```
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).epochs(1).run("nop", || ());
    /// assert_eq!(bench.results()[0].name(), "nop");
    /// ```
    #[must_use]
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The value set with [`Bench::context`](super::Bench::context) under
    /// `key` when this result ran, if any.
    #[must_use]
    pub fn context(&self, key: &str) -> Option<&str> {
        self.config
            .context
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The title of the table the result belongs to (default `benchmark`).
    ///
    /// ```
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).title("adds").epochs(1).run("a", || 1 + 1);
    /// assert_eq!(bench.results()[0].title(), "adds");
    /// ```
    #[must_use]
    pub fn title(&self) -> &str {
        &self.config.title
    }

    /// The unit one batch is made of (default `op`).
    ///
    /// ```
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).unit("byte").epochs(1).run("a", || 1 + 1);
    /// assert_eq!(bench.results()[0].unit(), "byte");
    /// ```
    #[must_use]
    pub fn unit(&self) -> &str {
        &self.config.unit
    }

    /// How many units one iteration processes (default 1).
    ///
    /// ```
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).batch(64).epochs(1).run("a", || 1 + 1);
    /// assert_eq!(bench.results()[0].batch(), 64);
    /// ```
    #[must_use]
    pub fn batch(&self) -> u64 {
        self.config.batch
    }

    /// The problem size set with [`complexity_n`](super::Bench::complexity_n).
    ///
    /// ```
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).epochs(1).run("a", || 1 + 1);
    /// bench.complexity_n(10).run("b", || 1 + 1);
    /// assert_eq!(bench.results()[0].complexity_n(), None);
    /// assert_eq!(bench.results()[1].complexity_n(), Some(10));
    /// ```
    #[must_use]
    pub fn complexity_n(&self) -> Option<u64> {
        self.config.complexity_n
    }

    /// The measured epochs, in the order they ran; empty when the iteration
    /// count overflowed.
    ///
    /// ```
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).epochs(3).run("a", || 1 + 1);
    /// assert_eq!(bench.results()[0].epochs().len(), 3);
    /// ```
    #[must_use]
    pub fn epochs(&self) -> &[Epoch] {
        &self.epochs
    }

    /// Whether the run gave up because the iteration count would overflow:
    /// the body took no measurable time, so it was probably optimised away
    /// (nanobench's `:boom:` row).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).run_custom("free", |_iters| Duration::ZERO);
    /// assert!(bench.results()[0].overflowed());
    /// assert_eq!(bench.results()[0].median_ns(), None);
    /// ```
    #[must_use]
    pub fn overflowed(&self) -> bool {
        self.epochs.is_empty()
    }

    fn per_iteration(&self) -> Vec<f64> {
        self.epochs.iter().map(Epoch::ns_per_iteration).collect()
    }

    /// The median over the epochs of the time per iteration, in
    /// nanoseconds (nanobench's `median(elapsed)`).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).run_custom("5 ns", |iters| Duration::from_nanos(5 * iters));
    /// assert_eq!(bench.results()[0].median_ns(), Some(5.0));
    /// ```
    #[must_use]
    pub fn median_ns(&self) -> Option<f64> {
        univariate::median(&self.per_iteration())
    }

    /// The median time per unit in nanoseconds: [`median_ns`](Self::median_ns)
    /// divided by the [`batch`](Self::batch) (the table's `ns/op` column).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).batch(4).run_custom("20 ns per 4", |iters| Duration::from_nanos(20 * iters));
    /// assert_eq!(bench.results()[0].ns_per_unit(), Some(5.0));
    /// ```
    #[must_use]
    pub fn ns_per_unit(&self) -> Option<f64> {
        self.median_ns().map(|m| m / self.config.batch as f64)
    }

    /// Units per second (the table's `op/s` column).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).run_custom("4 ns", |iters| Duration::from_nanos(4 * iters));
    /// assert_eq!(bench.results()[0].units_per_second(), Some(250_000_000.0));
    /// ```
    #[must_use]
    pub fn units_per_second(&self) -> Option<f64> {
        self.ns_per_unit()
            .map(|ns| if ns > 0.0 { 1e9 / ns } else { 0.0 })
    }

    /// nanobench's err%, as a fraction: the median over the epochs of the
    /// absolute difference between an epoch's time per iteration and the
    /// median, relative to the epoch's time.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).run_custom("steady", |iters| Duration::from_nanos(7 * iters));
    /// assert_eq!(bench.results()[0].err(), Some(0.0));
    /// ```
    #[must_use]
    pub fn err(&self) -> Option<f64> {
        err_fraction(&self.per_iteration())
    }

    /// Whether the table flags the result `:wavy_dash:` unstable: err% of
    /// at least 5 %.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).run_custom("steady", |iters| Duration::from_nanos(7 * iters));
    /// assert!(!bench.results()[0].is_unstable());
    /// ```
    #[must_use]
    pub fn is_unstable(&self) -> bool {
        self.err().is_some_and(is_unstable)
    }

    /// The fastest epoch's time per iteration, in nanoseconds.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).run_custom("3 ns", |iters| Duration::from_nanos(3 * iters));
    /// assert_eq!(bench.results()[0].min_ns(), Some(3.0));
    /// ```
    #[must_use]
    pub fn min_ns(&self) -> Option<f64> {
        univariate::min(&self.per_iteration())
    }

    /// The slowest epoch's time per iteration, in nanoseconds.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).run_custom("3 ns", |iters| Duration::from_nanos(3 * iters));
    /// assert_eq!(bench.results()[0].max_ns(), Some(3.0));
    /// ```
    #[must_use]
    pub fn max_ns(&self) -> Option<f64> {
        univariate::max(&self.per_iteration())
    }

    /// The time of all measured epochs together (the table's `total`
    /// column, in seconds there). Warm-up and the search for the epoch size
    /// are not included.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).epoch_iterations(10).epochs(3)
    ///     .run_custom("1 µs", |iters| Duration::from_micros(iters));
    /// assert_eq!(bench.results()[0].total(), Duration::from_micros(30));
    /// ```
    #[must_use]
    pub fn total(&self) -> Duration {
        self.epochs.iter().map(|e| e.elapsed).sum()
    }

    /// The median of each counter over the epochs, per iteration; `None`
    /// for a counter that was not measured.
    ///
    /// ```
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None).performance_counters(false).epochs(1).run("a", || 1 + 1);
    /// assert_eq!(bench.results()[0].counters().instructions, None);
    /// ```
    #[must_use]
    pub fn counters(&self) -> Counters {
        let median = |get: fn(&Counters) -> Option<f64>| {
            let values: Option<Vec<f64>> = self.epochs.iter().map(|e| get(&e.counters)).collect();
            values.and_then(|v| univariate::median(&v))
        };
        Counters {
            instructions: median(|c| c.instructions),
            cycles: median(|c| c.cycles),
            branches: median(|c| c.branches),
            branch_misses: median(|c| c.branch_misses),
        }
    }

    /// This result's time per unit relative to `baseline`'s, in
    /// tasty-bench's form: `0.08x` is 12.5 times faster, `128.36x` that
    /// many times slower. `None` when either has no measurement.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use yardstick::nanobench::Bench;
    /// let mut bench = Bench::new();
    /// bench.output(None)
    ///     .run_custom("slow", |iters| Duration::from_nanos(40 * iters))
    ///     .run_custom("fast", |iters| Duration::from_nanos(10 * iters));
    /// let [slow, fast] = bench.results() else { unreachable!() };
    /// assert_eq!(fast.ratio_to(slow).unwrap().to_string(), "0.25x");
    /// assert_eq!(slow.ratio_to(fast).unwrap().to_string(), "4.00x");
    /// ```
    #[must_use]
    pub fn ratio_to(&self, baseline: &BenchResult) -> Option<Ratio> {
        let (this, base) = (self.ns_per_unit()?, baseline.ns_per_unit()?);
        (base > 0.0).then(|| Ratio::new(this / base))
    }
}
