//! `cargo yardstick exec --export-json FILE`: hyperfine's export format, so
//! tools written for hyperfine read it, plus a `version` and the confidence
//! intervals. Schema: `schemas/exec.v1.json`.

use std::collections::BTreeMap;

/// The version this crate writes.
pub const VERSION: u32 = 1;

/// The whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecExport {
    /// Format version ([`VERSION`]); absent in hyperfine's own files.
    pub version: Option<u32>,
    /// One entry per command, in the order given.
    pub results: Vec<ExecResult>,
}

crate::json_object!(ExecExport { version (default), results });

/// One command's measurements; times in seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecResult {
    /// The command as run (parameters substituted).
    pub command: String,
    /// Mean wall time.
    pub mean: f64,
    /// Standard deviation; null with a single run.
    pub stddev: Option<f64>,
    /// Median wall time.
    pub median: Option<f64>,
    /// Mean user time.
    pub user: f64,
    /// Mean system time.
    pub system: f64,
    /// Fastest run.
    pub min: Option<f64>,
    /// Slowest run.
    pub max: Option<f64>,
    /// Every run's wall time.
    pub times: Vec<f64>,
    /// Every run's exit code; null when killed by a signal.
    pub exit_codes: Vec<Option<i32>>,
    /// Bootstrap interval of the mean (two or more runs).
    pub mean_ci: Option<[f64; 2]>,
    /// Bootstrap interval of the median (two or more runs).
    pub median_ci: Option<[f64; 2]>,
    /// The parameter's name and value, for `--parameter-scan` and
    /// `--parameter-list` runs.
    pub parameters: Option<BTreeMap<String, String>>,
}

crate::json_object!(ExecResult { command, mean, stddev, median, user, system, min, max, times, exit_codes, mean_ci (skip), median_ci (skip), parameters (skip) });

/// `cargo yardstick exec --callgrind --export-json FILE`: each command's
/// instruction count. Schema: `schemas/exec-callgrind.v1.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct CountExport {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// One entry per command, in the order given.
    pub results: Vec<CountResult>,
}

crate::json_object!(CountExport { version, results });

/// One command's instruction count (the shell's start-up subtracted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountResult {
    /// The command as run.
    pub command: String,
    /// Instructions executed.
    pub instructions: u64,
}

crate::json_object!(CountResult {
    command,
    instructions
});
