//! The documented data model of a run's results, shared by templates, the
//! markdown summary, the quick plot and the JSON messages.
//!
//! Every value is in the benchmark's `unit` (nanoseconds for wall time)
//! unless its name says otherwise; relative changes are fractions
//! (`0.05` = 5 % slower).

use yardstick_format::criterion::{EstimateFile, SamplingMode, Throughput};
use yardstick_stats::{Change, Estimate, Estimates, Tukey, Verdict};

use crate::BenchmarkReport;

/// Every benchmark of a run.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct RunResults {
    /// A title for the run (`yardstick` unless set).
    pub title: String,
    /// The benchmarks, in the order they ran (or were found).
    pub benchmarks: Vec<BenchmarkResult>,
}

impl RunResults {
    /// A run titled `title` with these benchmarks.
    #[must_use]
    pub fn new(title: impl Into<String>, benchmarks: Vec<BenchmarkResult>) -> RunResults {
        RunResults {
            title: title.into(),
            benchmarks,
        }
    }
}

/// One benchmark's results.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct BenchmarkResult {
    /// The full id, `group/function/value`.
    pub id: String,
    /// The id cut to 100 characters, as printed.
    pub title: String,
    /// The group (or the id given to `bench_function`).
    pub group: String,
    /// The function inside the group, if any.
    pub function: Option<String>,
    /// The parameter, if any.
    pub value: Option<String>,
    /// The folder under the home directory.
    pub directory_name: String,
    /// The unit of every measured value (`ns` for wall time).
    pub unit: String,
    /// `Linear` or `Flat`.
    pub sampling_mode: String,
    /// Work per iteration: zero, one or (elements and bytes) two entries.
    pub throughput: Vec<ThroughputValue>,
    /// The slope when there is one, else the mean: the headline figure.
    pub typical: EstimateValue,
    /// Mean of the per-iteration values.
    pub mean: EstimateValue,
    /// Median of the per-iteration values.
    pub median: EstimateValue,
    /// Standard deviation of the per-iteration values.
    pub std_dev: EstimateValue,
    /// Median absolute deviation (×1.4826) of the per-iteration values.
    pub median_abs_dev: EstimateValue,
    /// Slope of total value on iterations (linear sampling only).
    pub slope: Option<EstimateValue>,
    /// nanobench's `err%`: the MAD as a percentage of the median.
    pub err_percent: f64,
    /// Smallest per-iteration value.
    pub min: f64,
    /// Largest per-iteration value.
    pub max: f64,
    /// Box-plot statistics of the per-iteration values.
    pub boxplot: BoxPlot,
    /// Outliers by Tukey's fences.
    pub outliers: Outliers,
    /// Sum of the iteration counts.
    pub total_iterations: f64,
    /// Sum of the measured values (total time measured).
    pub total_value: f64,
    /// The samples, in the order they were taken.
    pub samples: Vec<SampleValue>,
    /// The change from the baseline, if one was compared.
    pub change: Option<ChangeValue>,
    /// Named values the user attached (nanobench's `context`, set with
    /// `yardstick::nanobench::Bench::context`); empty otherwise.
    pub context: std::collections::BTreeMap<String, String>,
}

/// An estimate with its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct EstimateValue {
    /// The statistic of the samples.
    pub estimate: f64,
    /// Lower bound of the interval.
    pub lower_bound: f64,
    /// Upper bound of the interval.
    pub upper_bound: f64,
    /// Standard deviation of the bootstrap distribution.
    pub standard_error: f64,
    /// Confidence level of the interval (0.95).
    pub confidence_level: f64,
}

impl From<&Estimate> for EstimateValue {
    fn from(e: &Estimate) -> EstimateValue {
        EstimateValue {
            estimate: e.point,
            lower_bound: e.lower,
            upper_bound: e.upper,
            standard_error: e.standard_error,
            confidence_level: e.confidence,
        }
    }
}

impl From<&EstimateFile> for EstimateValue {
    fn from(e: &EstimateFile) -> EstimateValue {
        EstimateValue {
            estimate: e.point_estimate,
            lower_bound: e.confidence_interval.lower_bound,
            upper_bound: e.confidence_interval.upper_bound,
            standard_error: e.standard_error,
            confidence_level: e.confidence_interval.confidence_level,
        }
    }
}

impl EstimateValue {
    /// As a `yardstick_stats::Estimate`.
    #[must_use]
    pub fn to_estimate(&self) -> Estimate {
        Estimate {
            point: self.estimate,
            lower: self.lower_bound,
            upper: self.upper_bound,
            confidence: self.confidence_level,
            standard_error: self.standard_error,
        }
    }
}

/// Work per iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct ThroughputValue {
    /// Amount per iteration.
    pub per_iteration: u64,
    /// `bytes`, `bytes_decimal`, `elements` or `bits`.
    pub unit: &'static str,
}

/// Converts a throughput into its entries (two for elements and bytes).
#[must_use]
pub fn throughput_values(t: Option<&Throughput>) -> Vec<ThroughputValue> {
    let v = |per_iteration, unit| ThroughputValue {
        per_iteration,
        unit,
    };
    match t {
        None => Vec::new(),
        Some(Throughput::Bytes(n)) => vec![v(*n, "bytes")],
        Some(Throughput::BytesDecimal(n)) => vec![v(*n, "bytes_decimal")],
        Some(Throughput::Elements(n)) => vec![v(*n, "elements")],
        Some(Throughput::Bits(n)) => vec![v(*n, "bits")],
        Some(Throughput::ElementsAndBytes { elements, bytes }) => {
            vec![v(*elements, "elements"), v(*bytes, "bytes")]
        }
    }
}

/// Box-plot statistics (type-7 quartiles; whiskers at the most extreme
/// values within 1.5 IQR of the box).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct BoxPlot {
    /// Lowest value not below `q1 − 1.5·IQR`.
    pub lower_whisker: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Highest value not above `q3 + 1.5·IQR`.
    pub upper_whisker: f64,
}

impl BoxPlot {
    /// The box plot of `xs` (all zero when empty).
    #[must_use]
    pub fn of(xs: &[f64]) -> BoxPlot {
        let Some((q1, median, q3)) = yardstick_stats::univariate::quartiles(xs) else {
            return BoxPlot {
                lower_whisker: 0.0,
                q1: 0.0,
                median: 0.0,
                q3: 0.0,
                upper_whisker: 0.0,
            };
        };
        let iqr = q3 - q1;
        let (lo_fence, hi_fence) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
        let inside = xs
            .iter()
            .copied()
            .filter(|&x| x >= lo_fence && x <= hi_fence);
        let (lower_whisker, upper_whisker) =
            inside.fold((q1, q3), |(a, b), x| (a.min(x), b.max(x)));
        BoxPlot {
            lower_whisker,
            q1,
            median,
            q3,
            upper_whisker,
        }
    }
}

/// Outlier counts by class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct Outliers {
    /// Below `q1 − 3·IQR`.
    pub low_severe: usize,
    /// Below `q1 − 1.5·IQR`.
    pub low_mild: usize,
    /// Above `q3 + 1.5·IQR`.
    pub high_mild: usize,
    /// Above `q3 + 3·IQR`.
    pub high_severe: usize,
    /// All of them.
    pub total: usize,
}

impl From<&Tukey> for Outliers {
    fn from(t: &Tukey) -> Outliers {
        Outliers {
            low_severe: t.counts.low_severe,
            low_mild: t.counts.low_mild,
            high_mild: t.counts.high_mild,
            high_severe: t.counts.high_severe,
            total: t.counts.total(),
        }
    }
}

/// One sample.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct SampleValue {
    /// Iterations of the sample.
    pub iterations: f64,
    /// Total measured value of the sample.
    pub value: f64,
    /// `value / iterations`.
    pub per_iteration: f64,
}

/// The change from a baseline.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "templates", derive(serde::Serialize))]
pub struct ChangeValue {
    /// Relative change of the mean (a fraction).
    pub mean: EstimateValue,
    /// Relative change of the median (a fraction).
    pub median: EstimateValue,
    /// p-value of the t-test (absent when read back from disk, where it is
    /// not saved).
    pub p_value: Option<f64>,
    /// `Regressed`, `Improved`, `NoChange` or `WithinNoise` (absent when
    /// read back from disk).
    pub verdict: Option<&'static str>,
    /// The sentence the terminal prints for the verdict.
    pub message: Option<&'static str>,
}

/// The name of a verdict in the data model and the JSON messages' wording.
#[must_use]
pub fn verdict_name(v: Verdict) -> &'static str {
    v.name()
}

impl From<&Change> for ChangeValue {
    fn from(c: &Change) -> ChangeValue {
        ChangeValue {
            mean: (&c.mean).into(),
            median: (&c.median).into(),
            p_value: Some(c.p_value),
            verdict: Some(verdict_name(c.verdict)),
            message: Some(c.verdict.message()),
        }
    }
}

/// Everything a [`BenchmarkResult`] is made from.
pub(crate) struct Parts<'a> {
    pub record: &'a yardstick_format::criterion::BenchmarkRecord,
    pub sampling_mode: SamplingMode,
    pub iters: &'a [f64],
    pub times: &'a [f64],
    pub unit: &'a str,
    pub estimates: &'a Estimates,
    pub tukey: &'a Tukey,
    pub change: Option<ChangeValue>,
}

impl BenchmarkResult {
    /// The results of a benchmark as the harness reports it.
    #[must_use]
    pub fn from_report(r: &BenchmarkReport<'_>) -> BenchmarkResult {
        BenchmarkResult::from_parts(Parts {
            record: r.record,
            sampling_mode: r.sample.sampling_mode,
            iters: &r.sample.iters,
            times: &r.sample.times,
            unit: r.unit,
            estimates: r.estimates,
            tukey: r.tukey,
            change: r.change.map(ChangeValue::from),
        })
    }

    pub(crate) fn from_parts(p: Parts<'_>) -> BenchmarkResult {
        let samples: Vec<SampleValue> = p
            .iters
            .iter()
            .zip(p.times)
            .map(|(&iterations, &value)| SampleValue {
                iterations,
                value,
                per_iteration: value / iterations,
            })
            .collect();
        let averages: Vec<f64> = samples.iter().map(|s| s.per_iteration).collect();
        let e = p.estimates;
        let typical = e.slope.as_ref().unwrap_or(&e.mean);
        let (min, max) = crate::plots::sample::min_max(&averages);
        BenchmarkResult {
            id: p.record.full_id.clone(),
            title: p.record.title.clone(),
            group: p.record.group_id.clone(),
            function: p.record.function_id.clone(),
            value: p.record.value_str.clone(),
            directory_name: p.record.directory_name.clone(),
            unit: p.unit.to_owned(),
            sampling_mode: match p.sampling_mode {
                SamplingMode::Linear => "Linear",
                SamplingMode::Flat => "Flat",
            }
            .to_owned(),
            throughput: throughput_values(p.record.throughput.as_ref()),
            typical: typical.into(),
            mean: (&e.mean).into(),
            median: (&e.median).into(),
            std_dev: (&e.std_dev).into(),
            median_abs_dev: (&e.mad).into(),
            slope: e.slope.as_ref().map(EstimateValue::from),
            err_percent: if e.median.point != 0.0 {
                e.mad.point / e.median.point * 100.0
            } else {
                0.0
            },
            min: if min.is_finite() { min } else { 0.0 },
            max: if max.is_finite() { max } else { 0.0 },
            boxplot: BoxPlot::of(&averages),
            outliers: p.tukey.into(),
            total_iterations: p.iters.iter().sum(),
            total_value: p.times.iter().sum(),
            samples,
            change: p.change,
            context: std::collections::BTreeMap::new(),
        }
    }
}
