//! Snapshot tests of the lines a benchmark prints, in the order
//! `measure.rs` and `tools.rs` print them: the header, the baselines, one
//! line per event (with the cache simulation's derived metrics), a
//! regression, and another tool's summary. Counts are fixed numbers (a
//! fake measurement), so a change of format shows as a reviewed diff of
//! `snapshots/*.snap` (`cargo insta review`, or `INSTA_UPDATE=always`).

use std::collections::BTreeMap;

use crate::compare::{diffs, format_line};
use crate::config::RegressionConfig;
use crate::measure::{check_regressions, regression_line};
use crate::metrics::{EventKind, Metrics};
use crate::printer::Printer;
use crate::summary::ToolSummary;

/// Callgrind's totals with the cache simulation on, scaled by `k`.
fn counts(k: f64) -> Metrics {
    let raw = [
        ("Ir", 2804.0),
        ("Dr", 780.0),
        ("Dw", 420.0),
        ("I1mr", 14.0),
        ("D1mr", 9.0),
        ("D1mw", 3.0),
        ("ILmr", 12.0),
        ("DLmr", 6.0),
        ("DLmw", 2.0),
    ];
    Metrics::from_raw(raw.iter().map(|(n, c)| (*n, (c * k).round() as u64)))
}

/// The metric lines (colour off, as on a pipe) of `new` against `old`.
fn lines(new: &Metrics, old: Option<&Metrics>, names: (Option<&str>, Option<&str>)) -> String {
    let mut out = vec![crate::printer::header("bench_fib::fib_group::fib short:10")];
    if names.0.is_some() || names.1.is_some() {
        out.push(crate::format::baselines_line(names.0, names.1));
    }
    for (kind, diff) in diffs(new, old) {
        out.push(crate::printer::metric(format_line(kind, &diff)));
    }
    out.join("\n") + "\n"
}

#[test]
fn first_run_without_anything_to_compare_with() {
    insta::assert_snapshot!("first_run", lines(&counts(1.0), None, (None, None)));
}

#[test]
fn a_run_against_a_named_baseline_with_a_regression() {
    let (new, old) = (counts(1.618), counts(1.0));
    let mut text = lines(&new, Some(&old), (Some("main"), Some("main")));
    let mut cfg = RegressionConfig::default();
    cfg.limits([(EventKind::Ir, 10.0), (EventKind::EstimatedCycles, 50.0)]);
    for r in check_regressions(&cfg, &diffs(&new, Some(&old))) {
        text.push_str(&regression_line(&r));
        text.push('\n');
    }
    insta::assert_snapshot!("against_baseline", text);
}

#[test]
fn an_improvement_against_the_run_before() {
    let text = lines(&counts(0.5), Some(&counts(1.0)), (None, None));
    insta::assert_snapshot!("improvement", text);
}

#[test]
fn another_tools_summary() {
    let summary = ToolSummary {
        tool: "dhat".into(),
        out_file: Some("target/yardstick-callgrind/b/f/dhat.fib.short.out".into()),
        log_file: "target/yardstick-callgrind/b/f/dhat.fib.short.log".into(),
        exit_code: Some(0),
        summary: BTreeMap::from([
            ("Total".to_owned(), "1,024 bytes in 8 blocks".to_owned()),
            ("At t-gmax".to_owned(), "512 bytes in 2 blocks".to_owned()),
        ]),
        errors: None,
    };
    let mut p = Printer::new(false);
    crate::tools::print(&summary, &mut p);
    insta::assert_snapshot!("tool_summary", p.held().join("\n") + "\n");
}
