//! `cargo yardstick check`: the CI gate. Compares a run with a baseline and
//! fails when a benchmark regressed beyond a threshold with significance.

use std::fmt::Write;
use std::path::PathBuf;

use yardstick_stats::Verdict;

use crate::compare::{Comparison, Row};
use crate::table::markdown;

use clap::Args;

use crate::args::{HomeArg, StatsArgs};

/// `check` arguments.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The baseline: a run id, label, branch, commit or baseline name.
    #[arg(long, value_name = "RUN")]
    pub against: String,
    /// The run checked.
    #[arg(long, default_value = "latest", value_name = "RUN")]
    pub run: String,
    /// Fail when a change's lower bound exceeds this fraction, significantly.
    #[arg(long, default_value_t = 0.05, value_name = "FRACTION")]
    pub threshold: f64,
    /// Fail when an exact count (instructions) grew by more than this fraction.
    #[arg(long, default_value_t = 0.01, value_name = "FRACTION")]
    pub instructions_threshold: f64,
    /// Also write the markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    #[command(flatten)]
    pub stats: StatsArgs,
    #[command(flatten)]
    pub home: HomeArg,
}

/// Limits of the gate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// A timed benchmark fails when the lower bound of its change exceeds
    /// this fraction and the change is significant.
    pub threshold: f64,
    /// An exact count (no samples, a unit other than time: instructions)
    /// fails when it grew by more than this fraction.
    pub exact_threshold: f64,
}

/// Whether `r` is an exact count (an instruction count), gated by
/// [`Limits::exact_threshold`]: no samples and not a time. A time known
/// only by its summary (tasty-bench, a hyperfine mean) is still a time.
#[must_use]
pub fn is_exact(r: &Row) -> bool {
    r.p_value.is_none() && r.unit != "ns"
}

/// Whether `r` breaks the limits.
#[must_use]
pub fn is_regression(r: &Row, l: &Limits) -> bool {
    if is_exact(r) {
        r.change.point > l.exact_threshold
    } else {
        // A regression among many comparisons must survive the
        // false-discovery correction: one in twenty no-change benchmarks
        // crosses p < 0.05 by chance.
        r.verdict == Verdict::Regressed && r.change.lower > l.threshold && r.survives_fdr
    }
}

/// The limits that applied to `c`'s rows, for the summary line.
fn limits_text(c: &Comparison, l: &Limits) -> String {
    let exact = c.rows.iter().any(is_exact);
    let timed = c.rows.iter().any(|r| !is_exact(r));
    let (t, e) = (l.threshold * 100.0, l.exact_threshold * 100.0);
    match (timed, exact) {
        (true, true) => format!("{t:.1}% in time or {e:.1}% in instructions"),
        (false, true) => format!("{e:.1}% in instructions"),
        _ => format!("{t:.1}%"),
    }
}

/// The markdown summary and the failing benchmarks.
#[must_use]
pub fn summary(c: &Comparison, l: &Limits, old: &str, new: &str) -> (String, Vec<String>) {
    let failing: Vec<String> = c
        .rows
        .iter()
        .filter(|r| is_regression(r, l))
        .map(|r| r.name.clone())
        .collect();
    let mut s = String::from("## yardstick check\n\n");
    if failing.is_empty() {
        let _ = writeln!(
            s,
            "✅ no benchmark regressed by more than {} ({} compared, {new} against {old}).\n",
            limits_text(c, l),
            c.rows.len()
        );
    } else {
        let _ = writeln!(
            s,
            "❌ {} of {} benchmarks regressed by more than {} ({new} against {old}): {}\n",
            failing.len(),
            c.rows.len(),
            limits_text(c, l),
            failing.join(", ")
        );
    }
    s.push_str(&markdown(&judged(c, l), old, new));
    (s, failing)
}

/// `c` with each exact count's verdict judged by the check's own limit, so
/// that the table says "regressed" beside every count the check fails (the
/// comparison judged it by the noise threshold).
fn judged(c: &Comparison, l: &Limits) -> Comparison {
    let mut c = c.clone();
    for r in c.rows.iter_mut().filter(|r| is_exact(r)) {
        if is_regression(r, l) {
            r.verdict = Verdict::Regressed;
        }
    }
    c
}
