//! The builder: settings, `run`, and the table rows it prints.

use std::fmt;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::clock;
use super::config::Config;
use super::counters::EpochCounters;
use super::epochs::Epochs;
use super::result::{BenchResult, Counters};
use super::table;

/// nanobench's benchmark builder: configure, then [`run`](Bench::run) one
/// or more closures; each run prints a row of a markdown table and keeps
/// its [`BenchResult`].
///
/// Every setter returns `&mut Self` and applies to the runs that follow it.
/// Changing the [`title`](Bench::title) or the [`unit`](Bench::unit) starts
/// a new table: the kept results are cleared, as in nanobench.
///
/// # Example
///
/// ```
/// use yardstick::nanobench::{do_not_optimize_away, Bench};
///
/// let mut x = 1_u64;
/// let mut bench = Bench::new();
/// bench.title("multiply").relative(true).run("x * 3", || {
///     x = do_not_optimize_away(x.wrapping_mul(3));
/// });
/// bench.run("x * 3, twice", || {
///     x = do_not_optimize_away(do_not_optimize_away(x.wrapping_mul(3)).wrapping_mul(3));
/// });
/// assert_eq!(bench.results().len(), 2);
/// ```
///
/// prints (counters are `-` where the machine cannot count them)
///
/// ```text
/// | relative |               ns/op |                op/s |    err% |          ins/op |          cyc/op |    IPC |         bra/op |   miss% |     total | multiply
/// |---------:|--------------------:|--------------------:|--------:|----------------:|----------------:|-------:|---------------:|--------:|----------:|:---------
/// |   100.0% |                0.58 |    1,714,370,385.82 |    1.3% |               - |               - |      - |              - |       - |      0.01 | `x * 3`
/// |    74.7% |                0.78 |    1,280,182,569.47 |    0.6% |               - |               - |      - |              - |       - |      0.01 | `x * 3, twice`
/// ```
pub struct Bench<'a> {
    pub(super) config: Config,
    pub(super) results: Vec<BenchResult>,
    output: Option<Box<dyn Write + 'a>>,
    last_header: Option<String>,
    counters: Option<EpochCounters>,
}

impl Default for Bench<'_> {
    fn default() -> Self {
        Bench {
            config: Config::default(),
            results: Vec::new(),
            output: Some(Box::new(PrintStdout)),
            last_header: None,
            counters: None,
        }
    }
}

impl fmt::Debug for Bench<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bench")
            .field("config", &self.config)
            .field("results", &self.results.len())
            .field("output", &self.output.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a> Bench<'a> {
    /// A builder with nanobench's defaults: title `benchmark`, unit `op`,
    /// batch 1, 11 epochs of 1–100 ms, no warm-up, the table on standard
    /// output.
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// Bench::new().run("nothing but the loop", || 0_u8);
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Bench::default()
    }

    /// The table's title, shown in its header's last cell (default
    /// `benchmark`). A different title clears the kept results, so the
    /// relative column and the Big-O fit start over.
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).title("hashing").epochs(1).run("a", || 1);
    /// bench.title("sorting");
    /// assert!(bench.results().is_empty());
    /// ```
    pub fn title(&mut self, title: impl Into<String>) -> &mut Self {
        let title = title.into();
        if title != self.config.title {
            self.results.clear();
        }
        self.config.title = title;
        self
    }

    /// What one unit of work is called (default `op`): the columns become
    /// `ns/<unit>`, `<unit>/s`, `ins/<unit>`…; a different unit clears the
    /// kept results.
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let data = vec![1_u8; 4096];
    /// let mut out = Vec::new();
    /// Bench::new()
    ///     .output(Some(Box::new(&mut out)))
    ///     .unit("byte")
    ///     .batch(data.len() as u64)
    ///     .run("sum", || data.iter().map(|&b| u64::from(b)).sum::<u64>());
    /// assert!(String::from_utf8(out).unwrap().contains("ns/byte"));
    /// ```
    pub fn unit(&mut self, unit: impl Into<String>) -> &mut Self {
        let unit = unit.into();
        if unit != self.config.unit {
            self.results.clear();
        }
        self.config.unit = unit;
        self
    }

    /// How many units one iteration of the body processes (default 1; 0 is
    /// taken as 1): the table shows time and counters per unit.
    ///
    /// ```
    /// use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).batch(100).run_custom("100 items", |iters| Duration::from_nanos(500 * iters));
    /// assert_eq!(bench.results()[0].ns_per_unit(), Some(5.0));
    /// ```
    pub fn batch(&mut self, units: u64) -> &mut Self {
        self.config.batch = units.max(1);
        self
    }

    /// Runs the body this many times before measuring (default 0), e.g. to
    /// fill caches; the warm-up is not part of any epoch.
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut calls = 0_u64;
    /// let mut bench = Bench::new();
    /// bench.output(None).warmup(1000).epoch_iterations(10).epochs(2).run("count", || calls += 1);
    /// assert_eq!(calls, 1000 + 2 * 10);
    /// ```
    pub fn warmup(&mut self, iterations: u64) -> &mut Self {
        self.config.warmup = iterations;
        self
    }

    /// The number of measured epochs (default 11; 0 is taken as 1). Fewer
    /// epochs answer sooner with a less meaningful err%.
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).epochs(3).run("quick", || 1 + 1);
    /// assert_eq!(bench.results()[0].epochs().len(), 3);
    /// ```
    pub fn epochs(&mut self, epochs: usize) -> &mut Self {
        self.config.epochs = epochs.max(1);
        self
    }

    /// Runs exactly this many iterations in every epoch instead of sizing
    /// epochs from the clock (default 0: sized from the clock).
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).epoch_iterations(5).epochs(2).run("five", || 1 + 1);
    /// assert!(bench.results()[0].epochs().iter().all(|e| e.iterations == 5));
    /// ```
    pub fn epoch_iterations(&mut self, iterations: u64) -> &mut Self {
        self.config.epoch_iterations = iterations;
        self
    }

    /// The fewest iterations an epoch may have (default 1). Raise it when a
    /// result is flagged unstable: the `:wavy_dash:` warning suggests a
    /// value.
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).min_epoch_iterations(100).epochs(2)
    ///     .run("sleepy", || std::thread::sleep(std::time::Duration::from_micros(1)));
    /// assert!(bench.results()[0].epochs().iter().all(|e| e.iterations >= 100));
    /// ```
    pub fn min_epoch_iterations(&mut self, iterations: u64) -> &mut Self {
        self.config.min_epoch_iterations = iterations.max(1);
        self
    }

    /// The shortest target time of an epoch (default 1 ms). The target is
    /// the measured clock resolution times
    /// [`clock_resolution_multiple`](Self::clock_resolution_multiple),
    /// clamped to `[min_epoch_time, max_epoch_time]`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).min_epoch_time(Duration::from_millis(10)).max_epoch_time(Duration::from_millis(10))
    ///     .run_custom("1 µs", |iters| Duration::from_micros(iters));
    /// // Every epoch runs for at least two thirds of 10 ms.
    /// assert!(bench.results()[0].epochs().iter().all(|e| e.iterations >= 6_667));
    /// ```
    pub fn min_epoch_time(&mut self, time: Duration) -> &mut Self {
        self.config.min_epoch_time = time;
        self
    }

    /// The longest target time of an epoch (default 100 ms); see
    /// [`min_epoch_time`](Self::min_epoch_time).
    ///
    /// ```
    /// use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).min_epoch_time(Duration::ZERO).max_epoch_time(Duration::from_micros(10))
    ///     .run_custom("1 µs", |iters| Duration::from_micros(iters));
    /// assert!(bench.results()[0].epochs().iter().all(|e| e.iterations <= 20));
    /// ```
    pub fn max_epoch_time(&mut self, time: Duration) -> &mut Self {
        self.config.max_epoch_time = time;
        self
    }

    /// The target epoch time as a multiple of the clock's resolution
    /// (default 1000, so the clock's granularity is at most 0.1 % of an
    /// epoch).
    ///
    /// ```
    /// use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).clock_resolution_multiple(10_000).run_custom("a", |n| Duration::from_nanos(n));
    /// ```
    pub fn clock_resolution_multiple(&mut self, multiple: u64) -> &mut Self {
        self.config.clock_resolution_multiple = multiple;
        self
    }

    /// Adds nanobench's `relative` column: the first result's time per
    /// unit over this one's, in percent (above 100 % is faster than the
    /// first). See also [`ratio`](Self::ratio) for tasty-bench's ratios.
    ///
    /// ```
    /// use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut out = Vec::new();
    /// Bench::new()
    ///     .output(Some(Box::new(&mut out)))
    ///     .relative(true)
    ///     .run_custom("baseline", |iters| Duration::from_nanos(30 * iters))
    ///     .run_custom("faster", |iters| Duration::from_nanos(10 * iters));
    /// let table = String::from_utf8(out).unwrap();
    /// assert!(table.lines().last().unwrap().starts_with("|   300.0% |"));
    /// ```
    pub fn relative(&mut self, enabled: bool) -> &mut Self {
        self.config.relative = enabled;
        self
    }

    /// Whether the table shows the hardware counter columns `ins/op`,
    /// `cyc/op`, `IPC`, `bra/op` and `miss%` (default on). A counter the
    /// machine cannot measure shows `-`.
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut out = Vec::new();
    /// Bench::new().output(Some(Box::new(&mut out))).performance_counters(false).run("a", || 1 + 1);
    /// assert!(!String::from_utf8(out).unwrap().contains("IPC"));
    /// ```
    pub fn performance_counters(&mut self, enabled: bool) -> &mut Self {
        self.config.performance_counters = enabled;
        self
    }

    /// The problem size of the following runs, for
    /// [`complexity_big_o`](Self::complexity_big_o); the table gains a
    /// `complexityN` column. 0 means none (the default).
    ///
    /// ```
    /// use yardstick::nanobench::{do_not_optimize_away, Bench};
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None);
    /// for n in [1_000_u64, 2_000, 4_000, 8_000] {
    ///     let v: Vec<u64> = (0..n).collect();
    ///     bench.complexity_n(n).run("sum", || do_not_optimize_away(&v).iter().sum::<u64>());
    /// }
    /// assert_eq!(bench.complexity_big_o().len(), 6);
    /// ```
    pub fn complexity_n(&mut self, n: u64) -> &mut Self {
        self.config.complexity_n = (n > 0).then_some(n);
        self
    }

    /// Where the table goes: `None` prints nothing, `Some(writer)` writes
    /// to it (default: standard output, through `print!` so test harnesses
    /// capture it). Errors writing the table are ignored.
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut out = Vec::new();
    /// Bench::new().output(Some(Box::new(&mut out))).run("a", || 1 + 1);
    /// assert!(String::from_utf8(out).unwrap().contains("`a`"));
    ///
    /// Bench::new().output(None).run("silent", || 1 + 1);
    /// Bench::new().output(Some(Box::new(std::io::stderr()))).run("to stderr", || 1 + 1);
    /// ```
    pub fn output(&mut self, output: Option<Box<dyn Write + 'a>>) -> &mut Self {
        self.output = output;
        self.last_header = None;
        self
    }

    /// Benchmarks `body` under `name`: sizes epochs from the clock, measures
    /// them, prints the row and keeps the [`BenchResult`].
    ///
    /// Each epoch times `for _ in 0..iterations { black_box(body()) }` with
    /// [`Instant`]: the value the body returns is passed through
    /// [`black_box`](std::hint::black_box), so returning the result is
    /// enough to keep it from being optimised away. A body returning `()`
    /// runs as `for _ in 0..iterations { body() }`: when it changes nothing
    /// the optimiser must keep, its loop is removed, and the row says so
    /// with `:boom:`, as in nanobench. Wrap such work in
    /// [`do_not_optimize_away`](super::do_not_optimize_away).
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let v: Vec<u32> = (0..1000).collect();
    /// let mut bench = Bench::new();
    /// bench.run("sum 1000", || v.iter().sum::<u32>());
    /// assert!(bench.results()[0].median_ns().unwrap() > 0.0);
    /// ```
    pub fn run<R>(&mut self, name: impl Into<String>, mut body: impl FnMut() -> R) -> &mut Self {
        self.run_custom(name, |iterations| {
            let start = Instant::now();
            if std::mem::size_of::<R>() == 0 {
                // Nothing to keep: a body whose effects can be removed is
                // removed, and the run reports it (the `:boom:` row).
                for _ in 0..iterations {
                    body();
                }
            } else {
                for _ in 0..iterations {
                    std::hint::black_box(body());
                }
            }
            start.elapsed()
        })
    }

    /// Benchmarks a routine that times itself, like Criterion.rs's
    /// `iter_custom`: `timer(n)` runs `n` iterations and returns the time
    /// they took. For work timed another way (another thread, a device) and
    /// for deterministic tests.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).run_custom("spawn", |iters| {
    ///     let start = Instant::now();
    ///     for _ in 0..iters {
    ///         std::thread::spawn(|| ()).join().unwrap();
    ///     }
    ///     start.elapsed()
    /// });
    /// ```
    pub fn run_custom(
        &mut self,
        name: impl Into<String>,
        mut timer: impl FnMut(u64) -> Duration,
    ) -> &mut Self {
        self.config.name = name.into();
        self.measure(&mut timer);
        self
    }

    /// The name the next [`run_current`](Self::run_current) runs under
    /// (nanobench's `name()`); [`run`](Self::run) sets it too.
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).epochs(1).name("add").run_current(|| 1 + 1);
    /// assert_eq!(bench.results()[0].name(), "add");
    /// ```
    pub fn name(&mut self, name: impl Into<String>) -> &mut Self {
        self.config.name = name.into();
        self
    }

    /// Benchmarks `body` under the name set last (nanobench's `run(op)`
    /// without a name), as [`run`](Self::run) does.
    pub fn run_current<R>(&mut self, body: impl FnMut() -> R) -> &mut Self {
        let name = self.config.name.clone();
        self.run(name, body)
    }

    /// Attaches `value` under `key` to the results that follow (nanobench's
    /// `context()`): shown after the name in the table, kept in each
    /// [`BenchResult::context`], and `{{ b.context.key }}` in templates.
    /// Setting a key again replaces its value; a new title keeps the
    /// context (only [`clear_context`](Self::clear_context) removes it).
    ///
    /// ```
    /// use std::time::Duration;
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut out = Vec::new();
    /// let mut bench = Bench::new();
    /// bench.output(Some(Box::new(&mut out))).epochs(1);
    /// bench.context("scalar", "f32").run_custom("+=", |n| Duration::from_nanos(n));
    /// assert_eq!(bench.results()[0].context("scalar"), Some("f32"));
    /// drop(bench);
    /// assert!(String::from_utf8(out).unwrap().contains("| `+=` (scalar=f32)"));
    /// ```
    pub fn context(&mut self, key: impl Into<String>, value: impl Into<String>) -> &mut Self {
        let (key, value) = (key.into(), value.into());
        match self.config.context.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => self.config.context.push((key, value)),
        }
        self
    }

    /// Removes every [`context`](Self::context) value.
    pub fn clear_context(&mut self) -> &mut Self {
        self.config.context.clear();
        self
    }

    /// The results kept so far, in the order they ran (cleared by a new
    /// title or unit).
    ///
    /// ```
    /// use yardstick::nanobench::Bench;
    ///
    /// let mut bench = Bench::new();
    /// bench.output(None).epochs(1).run("a", || 1).run("b", || 2);
    /// let names: Vec<&str> = bench.results().iter().map(|r| r.name()).collect();
    /// assert_eq!(names, ["a", "b"]);
    /// ```
    #[must_use]
    pub fn results(&self) -> &[BenchResult] {
        &self.results
    }

    fn measure(&mut self, timer: &mut dyn FnMut(u64) -> Duration) {
        let mut epochs = Epochs::new(&self.config, clock::resolution_ns());
        let mut counters = if self.config.performance_counters {
            Some(self.counters.get_or_insert_with(EpochCounters::open))
        } else {
            None
        };
        loop {
            let iterations = epochs.iterations();
            if iterations == 0 {
                break;
            }
            let (elapsed, counted) = match counters.as_deref_mut() {
                Some(c) => {
                    c.start();
                    let elapsed = timer(iterations);
                    (elapsed, c.stop(iterations))
                }
                None => (timer(iterations), Counters::default()),
            };
            epochs.add(elapsed, counted);
        }
        let result = BenchResult {
            config: self.config.clone(),
            epochs: epochs.into_epochs(),
        };
        self.show(&result);
        self.results.push(result);
    }

    /// Writes `result`'s row, after a header when the columns or the title
    /// changed since the last row.
    fn show(&mut self, result: &BenchResult) {
        let Some(out) = self.output.as_mut() else {
            return;
        };
        let relative = match self.results.first() {
            None => Some(100.0),
            Some(base) => base.ns_per_unit().zip(result.ns_per_unit()).map(|(b, t)| {
                if t > 0.0 {
                    b / t * 100.0
                } else {
                    0.0
                }
            }),
        };
        let columns = table::columns(&self.config, result, relative);
        let header = crate::output::cells::header(&columns, &self.config.title);
        let mut text = String::new();
        if self.config.performance_counters {
            if let Some(note) = self.counters.as_ref().and_then(EpochCounters::note_once) {
                text.push_str(&note);
            }
        }
        if self.last_header.as_ref() != Some(&header) {
            text.push_str(&header);
            self.last_header = Some(header);
        }
        text.push_str(&table::row(&columns, &self.config, result));
        // A table that cannot be written (closed pipe) is not worth failing
        // the measurement for; the results are kept either way.
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    }
}

/// Standard output through `print!`, so that libtest captures the table of
/// a benchmark run inside a test.
struct PrintStdout;

impl Write for PrintStdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // print!, not a write to io::stdout(): libtest captures print! in
        // tests.
        print!("{}", String::from_utf8_lossy(buf));
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stdout().flush()
    }
}
