//! cargo-criterion's JSON messages (`--message-format json`): one line per
//! finished benchmark and group, to `--message-file` or to stdout.
//!
//! On stdout the lines may meet what the benchmarks themselves print; a
//! reader keeps the lines that parse as a message. A file (or a pipe) given
//! with `--message-file` holds nothing else.

use yardstick_format::messages::{
    BenchmarkComplete, ChangeDetails, ChangeType, ComplexityFit, ComplexityFits,
    ConfidenceInterval, GroupComplete, Message, MetricSummary, Throughput,
};
use yardstick_stats::{Estimate, Verdict};

use crate::analysis::Analysis;
use crate::id::FullId;

fn interval(e: &Estimate, unit: &str) -> ConfidenceInterval {
    ConfidenceInterval::new(e.point, e.lower, e.upper, unit)
}

/// The `benchmark-complete` message of a benchmark.
pub(crate) fn benchmark_complete(
    id: &FullId,
    a: &Analysis,
    unit: &str,
    report_directory: &str,
    metrics: &[crate::metered::MetricResult],
) -> Message {
    let e = &a.estimates;
    Message::BenchmarkComplete(BenchmarkComplete {
        id: id.title.clone(),
        report_directory: report_directory.to_owned(),
        iteration_count: a.iters.iter().map(|&n| n as u64).collect(),
        measured_values: a.values.clone(),
        unit: unit.to_owned(),
        throughput: Throughput::entries(id.throughput.as_ref()),
        typical: interval(a.typical(), unit),
        mean: interval(&e.mean, unit),
        median: interval(&e.median, unit),
        median_abs_dev: interval(&e.mad, unit),
        slope: e.slope.as_ref().map(|s| interval(s, unit)),
        change: a.change.as_ref().map(|c| {
            let mut d = change_details(c);
            d.p_value = Some(c.p_value);
            if let Some(j) = &a.suite {
                d.judged_at = Some(j.level);
                d.change_alone = Some(change_type(j.one_by_one));
            }
            d
        }),
        metrics: metrics
            .iter()
            .map(|r| MetricSummary {
                name: r.metric.name().to_owned(),
                unit: r.metric.unit().to_owned(),
                per_iteration: r.estimate.as_ref().map(|e| interval(e, r.metric.unit())),
                peak: r.peak,
                change: r.change.as_ref().map(change_details),
            })
            .collect(),
    })
}

fn change_details(c: &yardstick_stats::Change) -> ChangeDetails {
    ChangeDetails {
        mean: interval(&c.mean, "%"),
        median: interval(&c.median, "%"),
        change: change_type(c.verdict),
        p_value: None,
        judged_at: None,
        change_alone: None,
    }
}

fn change_type(v: Verdict) -> ChangeType {
    match v {
        Verdict::Regressed => ChangeType::Regressed,
        Verdict::Improved => ChangeType::Improved,
        _ => ChangeType::NoChange,
    }
}

/// The `group-complete` message of a group, with its Big-O fits.
pub(crate) fn group_complete(
    group: &str,
    ids: Vec<String>,
    report_directory: &str,
    complexity: &[(Option<String>, crate::complexity::ComplexityFits)],
) -> Message {
    Message::GroupComplete(GroupComplete {
        group_name: group.to_owned(),
        benchmarks: ids,
        report_directory: report_directory.to_owned(),
        complexity: complexity
            .iter()
            .map(|(function, fits)| ComplexityFits {
                function: function.clone(),
                fits: fits
                    .iter()
                    .map(|f| ComplexityFit {
                        name: f.name.clone(),
                        coefficient: f.coefficient,
                        err_pct: f.normalized_rms * 100.0,
                    })
                    .collect(),
            })
            .collect(),
    })
}

/// cargo-criterion's messages as a sink, when `--message-format json` asked
/// for them.
pub(crate) struct Messages;

impl super::sink::Sink for Messages {
    fn benchmark(&mut self, run: &crate::engine::RunSettings, o: &super::sink::Outcome<'_>) {
        let Some(sink) = &run.messages else { return };
        let report_dir = o.dir.root.join("report");
        sink.send(&benchmark_complete(
            o.id,
            o.analysis,
            o.unit,
            &report_dir.to_string_lossy(),
            o.metrics,
        ));
    }

    fn group(&mut self, run: &crate::engine::RunSettings, g: &super::sink::GroupEnd<'_>) {
        let Some(sink) = &run.messages else { return };
        let dir = run
            .home
            .join(crate::id::folder_component(g.id))
            .join("report");
        let ids = g.members.iter().map(|m| m.title.clone()).collect();
        let complexity = crate::group_summary::complexity(g.members);
        sink.send(&group_complete(
            g.id,
            ids,
            &dir.to_string_lossy(),
            &complexity,
        ));
    }
}
