//! One benchmark ready to run: what to execute, where its files go, and how
//! it is configured. Library and binary benchmarks both become a `Job`.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::binary::ExitWith;
use crate::config::LibraryBenchmarkConfig;

/// A benchmark ready to run.
#[derive(Debug, Clone)]
pub struct Job {
    /// `library` or `binary`.
    pub kind: &'static str,
    /// The line printed above the metrics.
    pub header: String,
    /// What filters match against.
    pub filter_id: String,
    /// The benchmark's folder.
    pub dir: PathBuf,
    /// The name in the file names (`function.id`).
    pub name: String,
    /// The group ("" for the Iai form).
    pub group: String,
    /// The function or command.
    pub function: String,
    /// The id, if any.
    pub id: Option<String>,
    /// The arguments as written, or the command line.
    pub details: String,
    /// The program run under Valgrind.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Callgrind's `--toggle-collect` patterns; none counts the whole
    /// process.
    pub toggles: Vec<String>,
    /// The merged configuration.
    pub config: LibraryBenchmarkConfig,
    /// The exit status expected.
    pub exit_with: ExitWith,
    /// Binary benchmarks: run before/after each run, in the sandbox.
    pub setup: Option<fn()>,
    /// See `setup`.
    pub teardown: Option<fn()>,
    /// Library benchmarks: the function run in test mode.
    pub native: Option<fn()>,
    /// Compare with the group's benchmarks of other functions that have
    /// the same id.
    pub compare_by_id: bool,
}

impl Job {
    /// Whether the job runs in a sandbox (binary benchmarks, unless off).
    pub fn sandboxed(&self) -> bool {
        self.kind == "binary" && self.config.sandbox.unwrap_or(true)
    }

    /// The environment of the benchmarked process: `(clear, variables)`.
    /// Pass-through variables missing from this process's environment are
    /// left out.
    pub fn environment(&self) -> (bool, Vec<(OsString, OsString)>) {
        let clear = self.config.env_clear.unwrap_or(true);
        let mut vars = Vec::new();
        for (k, v) in &self.config.envs {
            match v {
                Some(v) => vars.push((OsString::from(k), OsString::from(v))),
                None => {
                    if let Some(v) = std::env::var_os(k) {
                        vars.push((OsString::from(k), v));
                    }
                }
            }
        }
        (clear, vars)
    }
}
