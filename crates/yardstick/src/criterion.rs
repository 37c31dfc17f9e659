//! [`Criterion`], the benchmark manager.

use std::time::Duration;

use crate::cli::{help, Args, Baseline, Color, Mode, OutputFormat, Verbosity};
use crate::config::{BenchmarkConfig, PlottingBackend, DEFAULT_PROCESSES};
use crate::engine::{RunSettings, Session};
use crate::filter::Filter;
use crate::id::{BenchmarkId, FullId};
use crate::measurement::{Measurement, WallTime};
use crate::profiler::{NoProfiler, Profiler};
use crate::routine::RoutineFn;
use crate::{runner, state, Bencher};

/// The benchmark manager: holds the settings and runs benchmarks.
///
/// `criterion_group!` makes one from [`Criterion::default`] (or the `config`
/// you give it) and calls [`configure_from_args`](Self::configure_from_args),
/// so the command line overrides what the code sets.
///
/// ```
/// # use yardstick as criterion;
/// use criterion::{black_box, Criterion};
///
/// fn bench(c: &mut Criterion) {
///     c.bench_function("sum 1000", |b| b.iter(|| (0..black_box(1000u64)).sum::<u64>()));
/// }
/// ```
pub struct Criterion<M: Measurement = WallTime> {
    pub(crate) config: BenchmarkConfig,
    pub(crate) run: RunSettings,
    pub(crate) measurement: M,
    pub(crate) profiler: Box<dyn Profiler>,
    /// Benchmarks (and group ends) waiting for their setup to be dropped.
    pub(crate) waiting: crate::waiting::Waiting,
}

impl Default for Criterion<WallTime> {
    /// 100 samples, 3 s warm-up, 5 s measurement, 100 000 resamples, 95 %
    /// confidence, significance 0.05, noise threshold 1 %; results under the
    /// home directory, compared with and saved as baseline `base`.
    fn default() -> Criterion<WallTime> {
        Criterion {
            config: BenchmarkConfig::default(),
            run: RunSettings {
                mode: Mode::Benchmark,
                filter: Filter::All,
                ignored: false,
                baseline: Baseline::Save("base".into()),
                load_baseline: None,
                home: crate::store::home_directory(None),
                color: Color::Auto,
                verbosity: Verbosity::Normal,
                output_format: OutputFormat::Criterion,
                plots: true,
                csv: None,
                baseline_csv: None,
                hide_successes: false,
                complexity: false,
                messages: None,
                outputs: crate::engine::RunOutputs::default(),
                engine_sampling: false,
                partition: None,
                ignore_baseline_binary: false,
                explain: false,
            },
            measurement: WallTime,
            profiler: Box::new(NoProfiler),
            waiting: crate::waiting::Waiting::default(),
        }
    }
}

/// `criterion_main!`'s first step: when this bench target's data outlived
/// the functions defining its benchmarks last time, a child process walks
/// them and this one measures what it queued ([`crate::walk`]). `true`
/// when that was done, so the groups are not run here.
#[doc(hidden)]
pub fn __walk_in_child() -> bool {
    crate::walk::in_criterion_main();
    if crate::worker::active() || crate::walk::walking() {
        return false;
    }
    walked_by_child().is_some()
}

/// When a child walks this bench target ([`crate::walk::by_child`]),
/// measures what it queued and returns the run's `Criterion`.
fn walked_by_child() -> Option<Criterion<WallTime>> {
    let mut c = Criterion::default().configure_from_args();
    let targets = crate::walk::by_child(&c.run, &c.config)?;
    for target in targets {
        c.run.plots = target.plots;
        c.run_jobs(target.jobs);
    }
    Some(c)
}

/// Run by the loader before `main` (and before any data `main` builds):
/// in a process `crate::walk::restart_without_data` started, walks in a
/// child and measures, then exits; anywhere else it returns at once.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static BEFORE_MAIN: extern "C" fn() = before_main;

#[cfg(target_os = "linux")]
extern "C" fn before_main() {
    if !crate::walk::restarted_before_main() {
        return;
    }
    // A panic must not unwind out of the loader's call: it ends the
    // process as a panic in `main` would.
    if std::panic::catch_unwind(walk_before_main).is_err() {
        std::process::exit(101);
    }
}

/// Before a restarted hand-written `main` ([`crate::walk`]): a child
/// walks it and this process measures what it queued, then exits; returns
/// when the child could not (the user's `main` then runs here).
fn walk_before_main() {
    if let Some(c) = walked_by_child() {
        c.final_summary();
        std::process::exit(0);
    }
}

impl<M: Measurement> Criterion<M> {
    /// Measures with `m` instead (for example a CPU-time or cycle counter).
    #[must_use]
    pub fn with_measurement<M2: Measurement>(self, m: M2) -> Criterion<M2> {
        Criterion {
            config: self.config,
            run: self.run,
            measurement: m,
            profiler: self.profiler,
            waiting: self.waiting,
        }
    }

    /// Calls `p` around each benchmark in `--profile-time` mode.
    #[must_use]
    pub fn with_profiler<P: Profiler + 'static>(self, p: P) -> Criterion<M> {
        Criterion {
            profiler: Box::new(p),
            ..self
        }
    }

    /// Samples per benchmark (default 100).
    ///
    /// # Panics
    ///
    /// If `n` is below 10, as Criterion.rs.
    #[must_use]
    pub fn sample_size(mut self, n: usize) -> Criterion<M> {
        assert!(n >= 10, "sample_size must be at least 10, got {n}");
        self.config.sample_size = n;
        self.config.explicit_plan = true;
        self
    }

    /// Warm-up time per benchmark (default 3 s).
    ///
    /// # Panics
    ///
    /// If `dur` is zero.
    #[must_use]
    pub fn warm_up_time(mut self, dur: Duration) -> Criterion<M> {
        assert!(dur > Duration::ZERO, "warm_up_time must be positive");
        self.config.warm_up_time = dur;
        self
    }

    /// Target measurement time per benchmark (default 5 s).
    ///
    /// # Panics
    ///
    /// If `dur` is zero.
    #[must_use]
    pub fn measurement_time(mut self, dur: Duration) -> Criterion<M> {
        assert!(dur > Duration::ZERO, "measurement_time must be positive");
        self.config.measurement_time = dur;
        self.config.explicit_plan = true;
        self
    }

    /// Bootstrap resamples (default 100 000).
    ///
    /// # Panics
    ///
    /// If `n` is zero.
    #[must_use]
    pub fn nresamples(mut self, n: usize) -> Criterion<M> {
        assert!(n > 0, "nresamples must be positive");
        if n <= 1000 {
            crate::output::errln!(
                "\nWarning: It is not recommended to reduce nresamples below 1000."
            );
        }
        self.config.nresamples = n;
        self
    }

    /// Relative changes smaller than this are reported as noise (default
    /// 0.01, i.e. 1 %).
    ///
    /// # Panics
    ///
    /// If `threshold` is negative.
    #[must_use]
    pub fn noise_threshold(mut self, threshold: f64) -> Criterion<M> {
        assert!(threshold >= 0.0, "noise_threshold must not be negative");
        self.config.noise_threshold = threshold;
        self
    }

    /// Confidence level of the intervals (default 0.95).
    ///
    /// # Panics
    ///
    /// Unless `cl` is strictly between 0 and 1.
    #[must_use]
    pub fn confidence_level(mut self, cl: f64) -> Criterion<M> {
        assert!(cl > 0.0 && cl < 1.0, "confidence_level must be in (0, 1)");
        if cl < 0.5 {
            crate::output::errln!(
                "\nWarning: It is not recommended to reduce confidence level below 0.5."
            );
        }
        self.config.confidence_level = cl;
        self
    }

    /// Significance level of the change test (default 0.05).
    ///
    /// # Panics
    ///
    /// Unless `sl` is strictly between 0 and 1.
    #[must_use]
    pub fn significance_level(mut self, sl: f64) -> Criterion<M> {
        assert!(sl > 0.0 && sl < 1.0, "significance_level must be in (0, 1)");
        self.config.significance_level = sl;
        self.config.significance_explicit = true;
        self
    }

    /// Also measures `metrics` around every sample (CPU time, counters,
    /// allocations), each analysed and reported per iteration beside the
    /// time. `--measure` on the command line overrides this.
    ///
    /// ```
    /// # use yardstick as criterion;
    /// use criterion::{meters::Metric, Criterion};
    ///
    /// let c = Criterion::default().with_metrics(&[Metric::CpuThread, Metric::PageFaults]);
    /// ```
    #[must_use]
    pub fn with_metrics(mut self, metrics: &[crate::meters::Metric]) -> Criterion<M> {
        self.config.metrics = metrics.to_vec();
        self
    }

    /// Writes the HTML report (the default).
    #[must_use]
    pub fn with_plots(mut self) -> Criterion<M> {
        self.run.plots = true;
        self
    }

    /// Writes no HTML report.
    #[must_use]
    pub fn without_plots(mut self) -> Criterion<M> {
        self.run.plots = false;
        self
    }

    /// Accepted for compatibility: yardstick draws its own SVG plots with
    /// any backend; `PlottingBackend::None` turns plots off.
    #[must_use]
    pub fn plotting_backend(mut self, backend: PlottingBackend) -> Criterion<M> {
        if backend == PlottingBackend::None {
            self.run.plots = false;
        }
        self
    }

    /// Turns coloured output on or off (default: on for a terminal).
    #[must_use]
    pub fn with_output_color(mut self, enabled: bool) -> Criterion<M> {
        self.run.color = if enabled { Color::Always } else { Color::Never };
        self
    }

    /// Saves results as baseline `baseline_name`, comparing with it first
    /// when it exists.
    #[must_use]
    pub fn save_baseline(mut self, baseline_name: String) -> Criterion<M> {
        self.run.baseline = Baseline::Save(baseline_name);
        self
    }

    /// Compares with baseline `baseline_name` and saves nothing. With
    /// `strict`, a missing baseline fails the benchmark.
    #[must_use]
    pub fn retain_baseline(mut self, baseline_name: String, strict: bool) -> Criterion<M> {
        self.run.baseline = if strict {
            Baseline::CompareStrict(baseline_name)
        } else {
            Baseline::CompareLenient(baseline_name)
        };
        self
    }

    /// Runs only benchmarks whose id matches `filter` (a regex, or a
    /// substring when it is not a valid regex).
    #[must_use]
    pub fn with_filter<S: Into<String>>(mut self, filter: S) -> Criterion<M> {
        self.run.filter = Filter::new(&[filter.into()], false);
        self
    }

    /// Writes results under `path` instead of the home directory.
    #[doc(hidden)]
    #[must_use]
    pub fn output_directory(mut self, path: &std::path::Path) -> Criterion<M> {
        self.run.home = path.to_owned();
        self
    }

    /// Iterates each benchmark for `profile_time` without analysis, as
    /// `--profile-time`.
    #[doc(hidden)]
    #[must_use]
    pub fn profile_time(mut self, profile_time: Option<Duration>) -> Criterion<M> {
        if let Some(t) = profile_time {
            self.run.mode = Mode::Profile(t);
        }
        self
    }

    /// Runs only the benchmarks `filter` accepts.
    pub fn with_benchmark_filter(mut self, filter: crate::BenchmarkFilter) -> Criterion<M> {
        self.run.filter = filter.into();
        self
    }

    /// Applies the command line (and the `YARDSTICK_*` variables) over the
    /// settings made in code.
    ///
    /// A bad flag or value prints one line naming it and exits with status
    /// 2; `--help` prints the help and exits with status 0.
    #[must_use]
    pub fn configure_from_args(self) -> Criterion<M> {
        crate::supervised::die_with_supervisor();
        let args = match Args::from_env() {
            Ok(a) => a,
            Err(e) => {
                crate::output::errln!("error: {e}");
                std::process::exit(2);
            }
        };
        if args.help {
            crate::output::out!("{}", help());
            std::process::exit(0);
        }
        let c = self.configure_with(args);
        crate::walk::restart_without_data::<M>(&c.run, &c.config);
        c
    }

    /// Applies validated command-line arguments over the settings made in
    /// code (`configure_from_args`, and the front-ends' own command lines).
    pub(crate) fn configure_with(mut self, args: Args) -> Criterion<M> {
        let c = &mut self.config;
        c.sample_size = args.sample_size.unwrap_or(c.sample_size);
        c.warm_up_time = args.warm_up_time.unwrap_or(c.warm_up_time);
        c.measurement_time = args.measurement_time.unwrap_or(c.measurement_time);
        c.nresamples = args.nresamples.unwrap_or(c.nresamples);
        c.noise_threshold = args.noise_threshold.unwrap_or(c.noise_threshold);
        c.confidence_level = args.confidence_level.unwrap_or(c.confidence_level);
        c.significance_level = args.significance_level.unwrap_or(c.significance_level);
        c.significance_explicit |= args.significance_level.is_some();
        c.quick_mode |= args.quick;
        c.explicit_plan |= args.sample_size.is_some() || args.measurement_time.is_some();
        c.target_precision = args.target_precision.unwrap_or(c.target_precision);
        if let Some(m) = &args.metrics {
            c.metrics.clone_from(m);
        }
        c.timeout = args.timeout.unwrap_or(c.timeout);
        c.min_time = args.min_time.unwrap_or(c.min_time);
        c.processes = args.processes.unwrap_or(DEFAULT_PROCESSES);
        c.stdev = args.stdev.or(c.stdev);
        c.fail_if_slower = args.fail_if_slower.or(c.fail_if_slower);
        c.fail_if_faster = args.fail_if_faster.or(c.fail_if_faster);
        let r = &mut self.run;
        r.mode = args.mode.clone();
        if !args.filters.is_empty() {
            r.filter = Filter::new(&args.filters, args.exact);
        }
        r.ignored = args.ignored;
        r.partition = args.partition;
        if let Some(b) = args.baseline.clone() {
            r.baseline = b;
        }
        r.load_baseline = args.load_baseline.clone();
        r.ignore_baseline_binary = args.ignore_baseline_binary;
        r.explain = args.explain;
        r.home = crate::store::home_directory(args.home.as_deref());
        if args.color != Color::Auto {
            r.color = args.color;
        }
        r.verbosity = args.verbosity;
        r.output_format = args.output_format;
        if args.noplot {
            r.plots = false;
        }
        r.csv = args.csv.clone();
        r.hide_successes = args.hide_successes;
        r.complexity = args.complexity;
        if let Some(path) = &args.baseline_csv {
            match crate::tasty_csv::read(path) {
                Ok(map) => r.baseline_csv = Some(map),
                Err(e) => {
                    crate::output::errln!("error: {e}");
                    std::process::exit(2);
                }
            }
        }
        r.outputs = crate::engine::RunOutputs {
            markdown: args.output_format == OutputFormat::Markdown,
            svg: args.svg.clone(),
            template: args.template.clone(),
            template_output: args.template_output.clone(),
        };
        if let Some(mode) = args.time_mode {
            if let Err(e) = crate::measurement::set_time_mode(mode) {
                if crate::output::first_time(&e) {
                    crate::output::errln!("warning: {e}");
                }
            }
        }
        if args.json_messages {
            match crate::engine::Destination::open(args.message_file.as_deref()) {
                Ok(sink) => r.messages = Some(std::sync::Arc::new(sink)),
                Err(e) => {
                    crate::output::errln!("error: {e}");
                    std::process::exit(2);
                }
            }
        }
        state::start_clock();
        self
    }

    /// Benchmarks `f` under the id `id`.
    pub fn bench_function<F>(&mut self, id: &str, f: F) -> &mut Criterion<M>
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        // Criterion.rs panics here, which ends the whole run; one failed
        // benchmark is enough.
        if id.is_empty() {
            let id = "(empty id)";
            self.run.terminal().failure(
                id,
                "bench_function was given an empty id; give the benchmark a name",
            );
            state::record_failure(id);
            return self;
        }
        self.benchmark_group(id)
            .bench_function(BenchmarkId::no_function(), f);
        self
    }

    /// Benchmarks `f` with `input`; the group is the id's function name and
    /// the benchmark its parameter.
    pub fn bench_with_input<F, I>(&mut self, id: BenchmarkId, input: &I, f: F) -> &mut Criterion<M>
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
    {
        let group = id.function_name.clone().unwrap_or_default();
        let parameter = id.parameter.clone().unwrap_or_default();
        self.benchmark_group(group).bench_with_input(
            BenchmarkId::from_parameter(parameter),
            input,
            f,
        );
        self
    }

    /// Ends the run: reports the benchmarks that failed and exits non-zero
    /// if any did. `criterion_main!` calls it after the last group.
    pub fn final_summary(&self) {
        if crate::worker::active() {
            crate::worker::end_of_run();
        }
        if crate::walk::walking() {
            // A hand-written `main`'s benchmarks wait on its Criterion.
            if !self.waiting.jobs.is_empty() {
                crate::walk::add_target(&self.run, &self.waiting.jobs);
            }
            crate::walk::end();
        }
        crate::walk::remember(&self.run);
        // `final_summary` runs on a Criterion of its own (criterion_main!),
        // so metrics chosen in code show only in what the benchmarks recorded.
        let metrics_asked = !self.config.metrics.is_empty();
        let failed = state::finish(&self.run, self.config.significance_level, metrics_asked);
        if !failed.is_empty() {
            std::process::exit(1);
        }
    }

    /// Runs one benchmark with the settings of its group: `Err` with its
    /// job number when it waits for its setup to be dropped
    /// ([`crate::waiting`]).
    pub(crate) fn run_routine(
        &mut self,
        id: FullId,
        unit: &str,
        config: &BenchmarkConfig,
        f: &mut RoutineFn<'_, M>,
    ) -> Result<Option<f64>, usize> {
        let may_wait = self.waiting.allowed;
        match runner::run(&mut self.session(), id.clone(), unit, config, f, may_wait) {
            runner::Ran::Done(typical) => Ok(typical),
            runner::Ran::Waits => Err(self.waiting.benchmark(id, config.clone())),
        }
    }

    /// What the runner borrows of this `Criterion` for one benchmark.
    fn session(&mut self) -> Session<'_, M> {
        Session {
            run: &self.run,
            measurement: &self.measurement,
            profiler: &mut *self.profiler,
        }
    }

    /// Lets benchmarks wait for their setup to be dropped: `criterion_group!`
    /// calls it, and [`__target_done`](Self::__target_done) after each
    /// target function.
    #[doc(hidden)]
    #[must_use]
    pub fn __may_wait(mut self) -> Criterion<M> {
        self.waiting.allowed = true;
        self
    }

    /// Runs what waited for the target function that just returned (and
    /// dropped its setup): the benchmarks, then their groups' ends.
    #[doc(hidden)]
    pub fn __target_done(&mut self) {
        let jobs = std::mem::take(&mut self.waiting.jobs);
        if crate::walk::walking() {
            crate::walk::add_target(&self.run, &jobs);
            return;
        }
        if jobs.is_empty() {
            return;
        }
        runner::held::waited(&self.run);
        self.run_jobs(jobs);
    }

    /// Measures what waited for a target function (or what a walking
    /// child queued for it): the benchmarks, then their groups' ends.
    fn run_jobs(&mut self, jobs: Vec<crate::waiting::Job>) {
        let mut typical = vec![None; jobs.len()];
        for (k, job) in jobs.into_iter().enumerate() {
            match job {
                crate::waiting::Job::Benchmark(id, config) => {
                    typical[k] = runner::run_waited(&mut self.session(), &id, &config);
                }
                crate::waiting::Job::GroupEnd(end) => {
                    let (name, by_id, log) = (end.name.clone(), end.compare_by_id, end.log_scale);
                    let requirements = end.requirements.clone();
                    let members = crate::waiting::members(end, &typical);
                    if !members.is_empty() {
                        self.group_done(&name, &members, by_id, log, &requirements);
                    }
                }
            }
        }
    }

    /// Ends a group: feeds it to the run's sinks (its Big-O fits and
    /// ratios, its report page, its message) and checks its requirements.
    pub(crate) fn group_done(
        &self,
        group: &str,
        members: &[crate::group_summary::Member],
        compare_by_id: bool,
        log_scale: bool,
        requirements: &[crate::group_summary::Requirement],
    ) {
        if crate::worker::active() || crate::walk::walking() {
            return;
        }
        // As its benchmarks' ids have it (see FullId::new).
        let group = &*yardstick_format::names::one_line(group);
        let end = crate::output::sink::GroupEnd {
            id: group,
            members,
            compare_by_id,
            log_scale,
        };
        state::group_done(&self.run, &end);
        let terminal = self.run.terminal();
        for v in crate::group_summary::violations(members, requirements) {
            terminal.failure(group, &v);
            state::record_failure(group);
        }
    }
}
