//! A finished benchmark as every terminal format reads it: Criterion.rs's
//! lines, libtest's, tasty-bench's, rebar3's, nanobench's table and the
//! power guidance. Apart from `terminal.rs`, which picks the format, so that
//! the formats and their dispatcher do not import each other.

use crate::analysis::Analysis;
use crate::measurement::ValueFormatter;
use crate::Throughput;

/// A finished benchmark, ready to print.
pub(crate) struct Completed<'a> {
    pub title: &'a str,
    pub analysis: &'a Analysis,
    pub throughput: Option<Throughput>,
    pub formatter: &'a dyn ValueFormatter,
    /// The unit values are in for machines (`ns` for time).
    pub unit: &'a str,
    pub significance: f64,
    pub confidence: f64,
    /// The noise threshold in force (the measured drift when wider).
    pub noise_threshold: f64,
    /// Per-iteration values of the baseline compared with, if any.
    pub baseline: Option<&'a [f64]>,
    /// Mean of this run over the baseline's (tasty-bench's comparison).
    pub ratio_to_baseline: Option<f64>,
    /// Why the benchmark failed a `--fail-if-*` limit, if it did.
    pub failure: Option<String>,
    /// Wall time spent on the benchmark.
    pub elapsed: std::time::Duration,
    /// The extra metrics measured with it.
    pub metrics: &'a [crate::metered::MetricResult],
    /// The machine's measured run-to-run drift, when it is wider than the
    /// noise threshold and so served as the threshold.
    pub drift: Option<f64>,
    /// The body looks optimised away (nanobench's `:boom:` row).
    pub optimised_away: bool,
}

#[cfg(test)]
impl<'a> Completed<'a> {
    /// A finished time benchmark with no baseline, failure or metrics, for
    /// the formats' tests to adjust.
    pub(crate) fn for_test(title: &'a str, analysis: &'a Analysis) -> Completed<'a> {
        Completed {
            title,
            analysis,
            throughput: None,
            formatter: &crate::measurement::DurationFormatter,
            unit: "ns",
            significance: 0.05,
            confidence: 0.95,
            noise_threshold: 0.01,
            baseline: None,
            ratio_to_baseline: None,
            failure: None,
            elapsed: std::time::Duration::ZERO,
            metrics: &[],
            drift: None,
            optimised_away: false,
        }
    }
}
