//! The JSON summary of one benchmark: printed with `--output-format=json`
//! and saved as `summary.json` with `--save-summary`.
//!
//! The format is described by `schemas/summary.v1.json` (JSON Schema,
//! draft 2020-12), committed with the crate; `version` names it. A change
//! that removes or renames a field makes a new version and a new schema file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::compare::Diff;

/// The version of the summary format (and of its schema file).
pub const SUMMARY_VERSION: &str = "1";

/// The summary of one benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchmarkSummary {
    /// Always [`SUMMARY_VERSION`].
    pub version: String,
    /// `library` or `binary`.
    pub kind: String,
    /// The benchmarking package.
    pub package: String,
    /// The bench file's name (without `.rs`).
    pub bench_file: String,
    /// The group, empty for the Iai form.
    pub group: String,
    /// The function (library) or command (binary) benchmarked.
    pub function: String,
    /// The benchmark's id, if any.
    pub id: Option<String>,
    /// The arguments as written (library) or the command line (binary).
    pub details: String,
    /// The header printed above the metrics.
    pub header: String,
    /// The benchmark's folder.
    pub benchmark_dir: String,
    /// The callgrind run, absent with `--load-baseline` when nothing ran.
    pub callgrind: Option<CallgrindSummary>,
    /// The other Valgrind tools that ran.
    pub tools: Vec<ToolSummary>,
    /// Whether the benchmark failed (a tool failed, an unexpected exit code,
    /// or a regression).
    pub failed: bool,
    /// Why it failed, one line each.
    pub errors: Vec<String>,
}

/// The callgrind part of a summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallgrindSummary {
    /// The callgrind output file of this run (`callgrind_annotate` reads it).
    pub out_file: String,
    /// Valgrind's log of this run.
    pub log_file: String,
    /// The baseline names compared: `[new, old]`, either may be null (`old`
    /// is null for the previous run).
    pub baselines: [Option<String>; 2],
    /// Per event kind (`Ir`, `L1hits`, …): new, old, change in percent and
    /// factor.
    pub metrics: BTreeMap<String, Diff>,
    /// The regression limits breached.
    pub regressions: Vec<Regression>,
    /// The flamegraph files drawn.
    pub flamegraphs: Vec<String>,
}

/// A breached regression limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Regression {
    /// The event kind (`Ir`, …).
    pub event_kind: String,
    /// This run's count.
    pub new: u64,
    /// The count compared with.
    pub old: u64,
    /// The change in percent.
    pub diff_pct: f64,
    /// The limit: in percent for a soft limit, a count for a hard one.
    pub limit: f64,
    /// A hard (absolute) limit: `old` is then the limit itself.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hard: bool,
}

/// The run of another Valgrind tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSummary {
    /// The tool (`dhat`, `memcheck`, …).
    pub tool: String,
    /// Its output file, if the tool writes one (DHAT, Massif).
    pub out_file: Option<String>,
    /// Its log file.
    pub log_file: String,
    /// The exit code of the run (201: errors found).
    pub exit_code: Option<i32>,
    /// `Key: value` lines of the tool's final report (DHAT's `Total`, …).
    pub summary: BTreeMap<String, String>,
    /// Errors reported (Memcheck, Helgrind, DRD), if the tool reports them.
    pub errors: Option<u64>,
}
