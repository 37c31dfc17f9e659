//! [`BenchmarkGroup`]: benchmarks that share settings and a report.

use std::time::Duration;

use crate::config::{PartialConfig, PlotConfiguration, SamplingMode};
use crate::id::{FullId, IntoBenchmarkId};
use crate::measurement::Measurement;
use crate::{Bencher, Criterion, Throughput};

/// A group of related benchmarks (for example one function over several
/// inputs, or several implementations of one thing).
///
/// Settings made on the group apply to the benchmarks added after them.
/// The group ends with [`finish`](Self::finish), or when it is dropped.
pub struct BenchmarkGroup<'a, M: Measurement> {
    pub(crate) criterion: &'a mut Criterion<M>,
    pub(crate) group_name: String,
    pub(crate) partial: PartialConfig,
    throughput: Option<Throughput>,
    plot_config: PlotConfiguration,
    /// What was measured in this group: its page, message and summary
    /// need writing.
    measured: Vec<crate::group_summary::Member>,
    /// (index in `measured`, job) of the members waiting for their setup
    /// to be dropped ([`crate::waiting`]).
    waiting: Vec<(usize, usize)>,
    compare_by_id: bool,
    requirements: Vec<crate::group_summary::Requirement>,
}

impl<'a, M: Measurement> BenchmarkGroup<'a, M> {
    pub(crate) fn new(criterion: &'a mut Criterion<M>, group_name: String) -> Self {
        BenchmarkGroup {
            criterion,
            group_name,
            partial: PartialConfig::default(),
            throughput: None,
            plot_config: PlotConfiguration::default(),
            measured: Vec::new(),
            waiting: Vec::new(),
            compare_by_id: false,
            requirements: Vec::new(),
        }
    }

    /// Samples per benchmark.
    ///
    /// # Panics
    ///
    /// If `n` is below 10.
    pub fn sample_size(&mut self, n: usize) -> &mut Self {
        assert!(n >= 10, "sample_size must be at least 10, got {n}");
        self.partial.sample_size = Some(n);
        self
    }

    /// Warm-up time per benchmark.
    ///
    /// # Panics
    ///
    /// If `dur` is zero.
    pub fn warm_up_time(&mut self, dur: Duration) -> &mut Self {
        assert!(dur > Duration::ZERO, "warm_up_time must be positive");
        self.partial.warm_up_time = Some(dur);
        self
    }

    /// Target measurement time per benchmark.
    ///
    /// # Panics
    ///
    /// If `dur` is zero.
    pub fn measurement_time(&mut self, dur: Duration) -> &mut Self {
        assert!(dur > Duration::ZERO, "measurement_time must be positive");
        self.partial.measurement_time = Some(dur);
        self
    }

    /// Bootstrap resamples.
    ///
    /// # Panics
    ///
    /// If `n` is zero.
    pub fn nresamples(&mut self, n: usize) -> &mut Self {
        assert!(n > 0, "nresamples must be positive");
        self.partial.nresamples = Some(n);
        self
    }

    /// Relative changes smaller than this are noise.
    ///
    /// # Panics
    ///
    /// If `threshold` is negative.
    pub fn noise_threshold(&mut self, threshold: f64) -> &mut Self {
        assert!(threshold >= 0.0, "noise_threshold must not be negative");
        self.partial.noise_threshold = Some(threshold);
        self
    }

    /// Confidence level of the intervals.
    ///
    /// # Panics
    ///
    /// Unless `cl` is strictly between 0 and 1.
    pub fn confidence_level(&mut self, cl: f64) -> &mut Self {
        assert!(cl > 0.0 && cl < 1.0, "confidence_level must be in (0, 1)");
        self.partial.confidence_level = Some(cl);
        self
    }

    /// Significance level of the change test.
    ///
    /// # Panics
    ///
    /// Unless `sl` is strictly between 0 and 1.
    pub fn significance_level(&mut self, sl: f64) -> &mut Self {
        assert!(sl > 0.0 && sl < 1.0, "significance_level must be in (0, 1)");
        self.partial.significance_level = Some(sl);
        self
    }

    /// How iteration counts are chosen.
    pub fn sampling_mode(&mut self, new_mode: SamplingMode) -> &mut Self {
        self.partial.sampling_mode = Some(new_mode);
        self
    }

    /// Also measures `metrics` around every sample of this group's
    /// benchmarks (see [`Criterion::with_metrics`]).
    pub fn metrics(&mut self, metrics: &[crate::meters::Metric]) -> &mut Self {
        self.partial.metrics = Some(metrics.to_vec());
        self
    }

    /// Adaptive sampling's target for this group: sample until the 95 %
    /// interval is within ±`precision` (a fraction: 0.005 is ±0.5 %),
    /// instead of `--target-precision`.
    ///
    /// # Panics
    ///
    /// Unless `precision` is a positive finite number.
    pub fn target_precision(&mut self, precision: f64) -> &mut Self {
        assert!(
            precision > 0.0 && precision.is_finite(),
            "target_precision must be a positive fraction, e.g. 0.01"
        );
        self.partial.target_precision = Some(precision);
        self
    }

    /// tasty-bench's stopping rule for this group (`localOption (RelStDev
    /// 0.02)`): double the iterations until the relative standard
    /// deviation of the estimate is below `rel_std_dev` (a fraction: 0.05
    /// is tasty-bench's default 5 %), as `--stdev` does for the run.
    ///
    /// # Panics
    ///
    /// Unless `rel_std_dev` is a positive finite number.
    pub fn stdev(&mut self, rel_std_dev: f64) -> &mut Self {
        assert!(
            rel_std_dev > 0.0 && rel_std_dev.is_finite(),
            "stdev must be a positive fraction, e.g. 0.05"
        );
        self.partial.stdev = Some(rel_std_dev);
        self
    }

    /// The time-out of each benchmark in this group (tasty-bench's
    /// `localOption (mkTimeout 100000000)`), instead of `--timeout`.
    ///
    /// # Panics
    ///
    /// If `dur` is zero.
    pub fn timeout(&mut self, dur: Duration) -> &mut Self {
        assert!(dur > Duration::ZERO, "timeout must be positive");
        self.partial.timeout = Some(dur);
        self
    }

    /// Fails a benchmark of this group that is more than `fraction` slower
    /// than its baseline (tasty-bench's `localOption (FailIfSlower
    /// 0.10)`), instead of `--fail-if-slower`.
    ///
    /// # Panics
    ///
    /// If `fraction` is negative or not finite.
    pub fn fail_if_slower(&mut self, fraction: f64) -> &mut Self {
        assert!(
            fraction >= 0.0 && fraction.is_finite(),
            "fail_if_slower must be a fraction of at least 0, e.g. 0.10"
        );
        self.partial.fail_if_slower = Some(fraction);
        self
    }

    /// Fails a benchmark of this group that is more than `fraction` faster
    /// than its baseline (tasty-bench's `FailIfFaster`), instead of
    /// `--fail-if-faster`.
    ///
    /// # Panics
    ///
    /// If `fraction` is negative or not finite.
    pub fn fail_if_faster(&mut self, fraction: f64) -> &mut Self {
        assert!(
            fraction >= 0.0 && fraction.is_finite(),
            "fail_if_faster must be a fraction of at least 0, e.g. 0.10"
        );
        self.partial.fail_if_faster = Some(fraction);
        self
    }

    /// When the group finishes, prints each function's time over the first
    /// function's at the same input (`0.08x`), as tasty-bench's `bcompare`
    /// and iai-callgrind's compare-by-id. Each benchmark is measured on its
    /// own; for small differences use
    /// [`Criterion::compare_interleaved`](crate::Criterion::compare_interleaved).
    pub fn compare_by_id(&mut self, enabled: bool) -> &mut Self {
        self.compare_by_id = enabled;
        self
    }

    /// A portable performance requirement, checked when the group finishes
    /// (tasty-bench's `bcompareWithin`): at every input measured for both,
    /// function (or id) `fast` must be at least `factor` times faster than
    /// `slow`. When it is not, the run fails and says so in words.
    ///
    /// # Panics
    ///
    /// If `factor` is not a positive number.
    pub fn require_faster(&mut self, fast: &str, slow: &str, factor: f64) -> &mut Self {
        assert!(
            factor > 0.0 && factor.is_finite(),
            "factor must be positive"
        );
        self.requirements.push(crate::group_summary::Requirement {
            fast: fast.to_owned(),
            slow: slow.to_owned(),
            factor,
        });
        self
    }

    /// The work one iteration does, for rates in the output.
    pub fn throughput(&mut self, throughput: Throughput) -> &mut Self {
        self.throughput = Some(throughput);
        self
    }

    /// Settings of the group's summary plots.
    pub fn plot_config(&mut self, new_config: PlotConfiguration) -> &mut Self {
        self.plot_config = new_config;
        self
    }

    /// Benchmarks `f` under `id` in this group.
    pub fn bench_function<ID: IntoBenchmarkId, F>(&mut self, id: ID, mut f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        self.run(id, &mut |b: &mut Bencher<'_, M>| f(b));
        self
    }

    /// Benchmarks `f` with `input` under `id` in this group.
    pub fn bench_with_input<ID: IntoBenchmarkId, F, I>(
        &mut self,
        id: ID,
        input: &I,
        mut f: F,
    ) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        self.run(id, &mut |b: &mut Bencher<'_, M>| {
            f(b, std::hint::black_box(input))
        });
        self
    }

    fn run<ID: IntoBenchmarkId>(&mut self, id: ID, f: &mut dyn FnMut(&mut Bencher<'_, M>)) {
        let id = id.into_benchmark_id();
        let full = FullId::new(
            &self.group_name,
            id.function_name,
            id.parameter,
            self.throughput,
        );
        let config = self.partial.apply(&self.criterion.config);
        let compared = self.compare_by_id || !self.requirements.is_empty();
        let unit = crate::filter::partition_unit(&full, compared);
        let (title, function, value) = (
            full.title.clone(),
            full.function_id.clone(),
            full.value_str.clone(),
        );
        let typical = match self.criterion.run_routine(full, &unit, &config, f) {
            Ok(Some(typical)) => typical,
            Ok(None) => return,
            Err(job) => {
                self.waiting.push((self.measured.len(), job));
                f64::NAN
            }
        };
        self.measured.push(crate::group_summary::Member {
            title,
            function,
            value,
            typical,
        });
    }

    /// Ends the group, writing its report page. Dropping it does the same.
    pub fn finish(self) {}
}

impl<M: Measurement> Criterion<M> {
    /// Starts a group of related benchmarks, reported together.
    ///
    /// # Panics
    ///
    /// If `group_name` is empty.
    pub fn benchmark_group<S: Into<String>>(&mut self, group_name: S) -> BenchmarkGroup<'_, M> {
        let name = group_name.into();
        assert!(!name.is_empty(), "group name must not be empty");
        BenchmarkGroup::new(self, name)
    }
}

impl<M: Measurement> Drop for BenchmarkGroup<'_, M> {
    fn drop(&mut self) {
        if self.measured.is_empty() {
            return;
        }
        let members = std::mem::take(&mut self.measured);
        let log = self.plot_config.summary_scale == crate::AxisScale::Logarithmic;
        if self.waiting.is_empty() {
            self.criterion.group_done(
                &self.group_name,
                &members,
                self.compare_by_id,
                log,
                &self.requirements,
            );
            return;
        }
        // Its end waits with its waiting members.
        let end = crate::waiting::GroupEnd {
            name: self.group_name.clone(),
            members,
            waiting: std::mem::take(&mut self.waiting),
            compare_by_id: self.compare_by_id,
            log_scale: log,
            requirements: self.requirements.clone(),
        };
        self.criterion
            .waiting
            .jobs
            .push(crate::waiting::Job::GroupEnd(end));
    }
}
