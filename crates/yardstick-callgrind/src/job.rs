//! One benchmark ready to run: what to execute, where its files go, and how
//! it is configured. Library and binary benchmarks both become a `Job`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::cli::NoCapture;
use crate::config::{ExitWith, LibraryBenchmarkConfig};
use crate::sandbox::Sandbox;
use crate::valgrind::{Invocation, Outcome};

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

pub(crate) type Hooks<'a> = [(&'a str, Option<fn()>, Option<fn()>)];

pub(crate) fn hook(hooks: &Hooks<'_>, group: &str, before: bool) {
    for (name, b, a) in hooks {
        if *name == group {
            let f = if before { b } else { a };
            if let Some(f) = f {
                f();
            }
        }
    }
}

/// Runs the job's program under `tool` with `tool_args`, in a sandbox for
/// binary benchmarks, with setup and teardown around it.
pub(crate) fn execute(
    job: &Job,
    tool: &str,
    tool_args: Vec<OsString>,
    nocapture: NoCapture,
) -> Result<Outcome, String> {
    let sandbox = if job.sandboxed() {
        Some(
            Sandbox::new(job.config.fixtures.as_ref())
                .map_err(|e| format!("{}: {e}", job.header))?,
        )
    } else {
        None
    };
    let cwd = sandbox.as_ref().map(|s| s.path().to_owned());
    let (env_clear, envs) = job.environment();
    let invocation = Invocation {
        tool: tool.to_owned(),
        tool_args,
        program: job.program.clone(),
        args: job.args.clone(),
        env_clear,
        envs,
        cwd: cwd.clone(),
    };
    with_dir(cwd.as_deref(), job.setup);
    let outcome = invocation
        .run(nocapture)
        .map_err(|e| format!("cannot start '{}': {e}", invocation.display()));
    with_dir(cwd.as_deref(), job.teardown);
    outcome
}

/// Calls `f` (setup or teardown) with `dir` as the working directory.
pub(crate) fn with_dir(dir: Option<&Path>, f: Option<fn()>) {
    let Some(f) = f else { return };
    let before = std::env::current_dir().ok();
    if let Some(d) = dir {
        let _ = std::env::set_current_dir(d);
    }
    f();
    if let (Some(_), Some(b)) = (dir, before) {
        let _ = std::env::set_current_dir(b);
    }
}
