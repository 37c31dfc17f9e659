//! cargo-criterion's JSON messages built from a benchmark's results.

use yardstick_format::messages::{
    BenchmarkComplete, ChangeDetails, ChangeType, ConfidenceInterval, GroupComplete, Message,
    Throughput,
};

use crate::results::{BenchmarkResult, EstimateValue};

fn interval(e: &EstimateValue, unit: &str) -> ConfidenceInterval {
    ConfidenceInterval::new(e.estimate, e.lower_bound, e.upper_bound, unit)
}

/// The `benchmark-complete` message of `result`, whose report is in
/// `report_directory`.
///
/// Throughput entries use cargo-criterion's units: decimal bytes are
/// `bytes`, and elements-and-bytes give two entries. A change whose
/// verdict is not known (read back from disk) is `NoChange` unless its
/// whole interval lies beyond 1 %.
#[must_use]
pub fn benchmark_complete(result: &BenchmarkResult, report_directory: &str) -> Message {
    let unit = result.unit.as_str();
    Message::BenchmarkComplete(BenchmarkComplete {
        id: result.title.clone(),
        report_directory: report_directory.to_owned(),
        iteration_count: result
            .samples
            .iter()
            .map(|s| s.iterations.round() as u64)
            .collect(),
        measured_values: result.samples.iter().map(|s| s.value).collect(),
        unit: unit.to_owned(),
        throughput: result
            .throughput
            .iter()
            .map(|t| Throughput::new(t.per_iteration, t.unit))
            .collect(),
        typical: interval(&result.typical, unit),
        mean: interval(&result.mean, unit),
        median: interval(&result.median, unit),
        median_abs_dev: interval(&result.median_abs_dev, unit),
        slope: result.slope.as_ref().map(|s| interval(s, unit)),
        change: result.change.as_ref().map(|c| ChangeDetails {
            mean: interval(&c.mean, "%"),
            median: interval(&c.median, "%"),
            change: ChangeType::from_verdict(c.verdict, &interval(&c.mean, "%")),
            p_value: None,
            judged_at: None,
            change_alone: None,
        }),
        metrics: Vec::new(),
    })
}

/// The `group-complete` message of a group whose benchmarks ran in the
/// order of `ids`.
#[must_use]
pub fn group_complete(group_name: &str, ids: Vec<String>, report_directory: &str) -> Message {
    Message::GroupComplete(GroupComplete {
        group_name: group_name.to_owned(),
        benchmarks: ids,
        report_directory: report_directory.to_owned(),
        complexity: Vec::new(),
    })
}
