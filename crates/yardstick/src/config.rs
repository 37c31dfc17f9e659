//! Settings of a benchmark and the small enums of the Criterion.rs API.

use std::time::Duration;

pub use yardstick_format::criterion::Throughput;

/// The sampling mode a benchmark actually used.
pub(crate) use yardstick_format::criterion::SamplingMode as ActualSamplingMode;

/// How many inputs `iter_batched` prepares before timing a batch.
///
/// Smaller batches use less memory; larger ones amortise the cost of the
/// clock over more iterations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BatchSize {
    /// Inputs small enough that a tenth of a sample's iterations fit in
    /// memory: 10 batches per sample.
    SmallInput,
    /// Large inputs: 1000 batches per sample.
    LargeInput,
    /// One input per batch; the clock is read around every iteration, so
    /// use it only for routines much slower than the clock.
    PerIteration,
    /// This many batches per sample.
    NumBatches(u64),
    /// This many iterations per batch.
    NumIterations(u64),
}

impl BatchSize {
    /// Iterations per batch for a sample of `iters` iterations.
    pub(crate) fn iters_per_batch(self, iters: u64) -> u64 {
        match self {
            BatchSize::SmallInput => iters.div_ceil(10),
            BatchSize::LargeInput => iters.div_ceil(1000),
            BatchSize::PerIteration => 1,
            BatchSize::NumBatches(batches) => iters.div_ceil(batches.max(1)),
            BatchSize::NumIterations(size) => size,
        }
    }
}

/// How the iteration counts of the samples are chosen.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SamplingMode {
    /// Linear unless that would take more than twice the measurement time.
    #[default]
    Auto,
    /// Sample i runs i·d iterations, so a line can be fitted.
    Linear,
    /// Every sample runs the same number of iterations; for long routines.
    Flat,
}

/// The scale of a plot's axis.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AxisScale {
    /// Linear axis.
    #[default]
    Linear,
    /// Logarithmic axis.
    Logarithmic,
}

/// Settings for the plots of a benchmark group.
#[derive(Debug, Default, Clone)]
pub struct PlotConfiguration {
    pub(crate) summary_scale: AxisScale,
}

impl PlotConfiguration {
    /// Sets the scale of the summary plots' value axis.
    #[must_use]
    pub fn summary_scale(mut self, new_scale: AxisScale) -> PlotConfiguration {
        self.summary_scale = new_scale;
        self
    }
}

/// The plotting library Criterion.rs would use. yardstick draws its own SVG,
/// so every choice gives the same plots; the type exists for compatibility.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlottingBackend {
    /// gnuplot in Criterion.rs.
    Gnuplot,
    /// plotters in Criterion.rs.
    Plotters,
    /// No plots.
    None,
}

/// The settings one benchmark runs with.
#[derive(Debug, Clone)]
pub(crate) struct BenchmarkConfig {
    pub confidence_level: f64,
    pub measurement_time: Duration,
    pub noise_threshold: f64,
    pub nresamples: usize,
    pub sample_size: usize,
    pub significance_level: f64,
    /// The significance level was set (in code or on the command line):
    /// each comparison is then judged at it alone, as Criterion.rs does,
    /// rather than at its share of the suite's error rate
    /// (`yardstick_stats::online`).
    pub significance_explicit: bool,
    pub warm_up_time: Duration,
    pub sampling_mode: SamplingMode,
    pub quick_mode: bool,
    /// The sample size or measurement time was set (in code or on the
    /// command line): sample exactly as asked, as Criterion.rs.
    pub explicit_plan: bool,
    /// Adaptive sampling's target relative half-width (0.01 = ±1 %).
    pub target_precision: f64,
    /// Adaptive sampling's time-out per benchmark.
    pub timeout: Duration,
    /// Adaptive sampling's minimum sampling time per benchmark.
    pub min_time: Duration,
    /// Metrics read around every sample besides the measurement.
    pub metrics: Vec<crate::meters::Metric>,
    /// Most worker processes adaptive sampling uses (1: none, sample in
    /// this process).
    pub processes: usize,
    /// tasty-bench's `--stdev` (`RelStDev`): when set, sampling is
    /// tasty-bench's doubling until the relative standard deviation of its
    /// estimate is below this fraction (or the time-out nears).
    pub stdev: Option<f64>,
    /// `--fail-if-slower`: fail past this fraction slower than the baseline.
    pub fail_if_slower: Option<f64>,
    /// `--fail-if-faster`: fail past this fraction faster than the baseline.
    pub fail_if_faster: Option<f64>,
    /// The drift `cargo yardstick calibrate` measured (a bound on the
    /// change between two runs of the same code), when wider than the
    /// noise threshold: the verdict's threshold instead.
    pub machine_drift: Option<f64>,
    /// Iterations of every sample, exactly, when a front-end fixed them
    /// (divan's `sample_size`); the plan then only sets the sample count.
    pub fixed_iters: Option<u64>,
}

/// Worker processes per benchmark by default: enough for an interval with
/// 9 degrees of freedom, few enough to stay well under a second.
pub(crate) const DEFAULT_PROCESSES: usize = 10;

impl BenchmarkConfig {
    /// Whether worker processes measure it under the engine's own rule:
    /// several processes, no extra metrics (read in this process's meters),
    /// no `--quick`, `--stdev` or fixed iterations.
    pub(crate) fn in_workers_plainly(&self) -> bool {
        let in_workers = self.processes > 1 && self.metrics.is_empty();
        in_workers && !self.quick_mode && self.stdev.is_none() && self.fixed_iters.is_none()
    }

    /// Whether to sample adaptively: the default, unless a sample size or
    /// measurement time was asked for, or another stopping rule chosen.
    pub(crate) fn adaptive(&self) -> bool {
        !self.explicit_plan && !self.quick_mode && self.stdev.is_none()
    }
}

impl Default for BenchmarkConfig {
    fn default() -> Self {
        BenchmarkConfig {
            confidence_level: 0.95,
            measurement_time: Duration::from_secs(5),
            noise_threshold: 0.01,
            nresamples: 100_000,
            sample_size: 100,
            significance_level: 0.05,
            significance_explicit: false,
            warm_up_time: Duration::from_secs(3),
            sampling_mode: SamplingMode::Auto,
            quick_mode: false,
            explicit_plan: false,
            target_precision: 0.01,
            timeout: Duration::from_secs(5),
            min_time: Duration::from_millis(500),
            // Worker processes re-run this binary, which only a harness
            // main (`configure_from_args`) can serve: code that builds a
            // `Criterion` itself (a test, a custom main) samples here.
            processes: 1,
            metrics: Vec::new(),
            stdev: None,
            fail_if_slower: None,
            fail_if_faster: None,
            machine_drift: None,
            fixed_iters: None,
        }
    }
}

/// Per-group overrides of [`BenchmarkConfig`].
#[derive(Debug, Default, Clone)]
pub(crate) struct PartialConfig {
    pub confidence_level: Option<f64>,
    pub measurement_time: Option<Duration>,
    pub noise_threshold: Option<f64>,
    pub nresamples: Option<usize>,
    pub sample_size: Option<usize>,
    pub significance_level: Option<f64>,
    pub warm_up_time: Option<Duration>,
    pub sampling_mode: Option<SamplingMode>,
    pub metrics: Option<Vec<crate::meters::Metric>>,
    pub target_precision: Option<f64>,
    pub timeout: Option<Duration>,
    pub stdev: Option<f64>,
    pub fail_if_slower: Option<f64>,
    pub fail_if_faster: Option<f64>,
    pub fixed_iters: Option<u64>,
}

impl PartialConfig {
    pub(crate) fn apply(&self, base: &BenchmarkConfig) -> BenchmarkConfig {
        BenchmarkConfig {
            confidence_level: self.confidence_level.unwrap_or(base.confidence_level),
            measurement_time: self.measurement_time.unwrap_or(base.measurement_time),
            noise_threshold: self.noise_threshold.unwrap_or(base.noise_threshold),
            nresamples: self.nresamples.unwrap_or(base.nresamples),
            sample_size: self.sample_size.unwrap_or(base.sample_size),
            significance_level: self.significance_level.unwrap_or(base.significance_level),
            significance_explicit: base.significance_explicit || self.significance_level.is_some(),
            warm_up_time: self.warm_up_time.unwrap_or(base.warm_up_time),
            sampling_mode: self.sampling_mode.unwrap_or(base.sampling_mode),
            quick_mode: base.quick_mode,
            explicit_plan: base.explicit_plan
                || self.sample_size.is_some()
                || self.measurement_time.is_some(),
            target_precision: self.target_precision.unwrap_or(base.target_precision),
            timeout: self.timeout.unwrap_or(base.timeout),
            min_time: base.min_time,
            processes: base.processes,
            metrics: self.metrics.clone().unwrap_or_else(|| base.metrics.clone()),
            stdev: self.stdev.or(base.stdev),
            fail_if_slower: self.fail_if_slower.or(base.fail_if_slower),
            fail_if_faster: self.fail_if_faster.or(base.fail_if_faster),
            machine_drift: base.machine_drift,
            fixed_iters: self.fixed_iters.or(base.fixed_iters),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_sizes_follow_the_criterion_guide() {
        // 1000 iterations: SmallInput makes 10 batches of 100, LargeInput
        // 1000 batches of 1.
        assert_eq!(BatchSize::SmallInput.iters_per_batch(1000), 100);
        assert_eq!(BatchSize::SmallInput.iters_per_batch(1001), 101);
        assert_eq!(BatchSize::LargeInput.iters_per_batch(1000), 1);
        assert_eq!(BatchSize::LargeInput.iters_per_batch(5), 1);
        assert_eq!(BatchSize::PerIteration.iters_per_batch(1000), 1);
        assert_eq!(BatchSize::NumBatches(4).iters_per_batch(10), 3);
        assert_eq!(BatchSize::NumIterations(7).iters_per_batch(1000), 7);
    }

    #[test]
    fn partial_config_overrides_only_what_is_set() {
        let base = BenchmarkConfig::default();
        let partial = PartialConfig {
            sample_size: Some(10),
            ..PartialConfig::default()
        };
        let merged = partial.apply(&base);
        assert_eq!(merged.sample_size, 10);
        assert_eq!(merged.measurement_time, base.measurement_time);
        // Asking for a sample size turns adaptive sampling off.
        assert!(base.adaptive());
        assert!(!merged.adaptive());
    }

    #[test]
    fn group_options_win_over_the_command_line_as_tastys_local_option() {
        // The command line asked for ±2 % and a 10 % slow-down limit; the
        // group asks for tasty-bench's 2 % stdev rule, a 1 s time-out and
        // a 50 % limit (tasty-bench's `localOption (FailIfSlower 0.50)`).
        let base = BenchmarkConfig {
            target_precision: 0.02,
            fail_if_slower: Some(0.10),
            fail_if_faster: Some(0.30),
            ..BenchmarkConfig::default()
        };
        let partial = PartialConfig {
            stdev: Some(0.02),
            timeout: Some(Duration::from_secs(1)),
            fail_if_slower: Some(0.50),
            ..PartialConfig::default()
        };
        let merged = partial.apply(&base);
        assert_eq!(merged.stdev, Some(0.02));
        assert_eq!(merged.timeout, Duration::from_secs(1));
        assert_eq!(merged.fail_if_slower, Some(0.50));
        // What the group leaves alone comes from the command line.
        assert_eq!(merged.fail_if_faster, Some(0.30));
        assert_eq!(merged.target_precision, 0.02);
        // tasty-bench's rule replaces adaptive sampling.
        assert!(!merged.adaptive());
        let precise = PartialConfig {
            target_precision: Some(0.005),
            ..PartialConfig::default()
        }
        .apply(&base);
        assert_eq!(precise.target_precision, 0.005);
        assert!(precise.adaptive());
    }
}
