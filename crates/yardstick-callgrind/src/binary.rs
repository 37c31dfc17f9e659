//! Binary benchmarks: executables run under callgrind with arguments,
//! environment, a sandbox with fixtures and an expected exit code.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::config::BinaryBenchmarkConfig;

/// One set of command-line arguments with its id.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    pub(crate) id: String,
    pub(crate) args: Vec<OsString>,
}

impl Arg {
    /// Arguments `args` under the id `id` (unique within the group).
    pub fn new<I, S>(id: impl Into<String>, args: I) -> Arg
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        Arg {
            id: id.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// No arguments, under the id `id`.
    pub fn empty(id: impl Into<String>) -> Arg {
        Arg {
            id: id.into(),
            args: Vec::new(),
        }
    }
}

/// The exit status a benchmarked command is expected to end with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitWith {
    /// Exit code 0 (the default).
    Success,
    /// Any non-zero exit code.
    Failure,
    /// Exactly this exit code.
    Code(i32),
}

impl ExitWith {
    /// Whether `code` (None: killed by a signal) is what was expected.
    pub(crate) fn accepts(self, code: Option<i32>) -> bool {
        match (self, code) {
            (ExitWith::Success, Some(0)) => true,
            (ExitWith::Failure, Some(c)) => c != 0,
            (ExitWith::Code(want), Some(c)) => c == want,
            _ => false,
        }
    }

    pub(crate) fn describe(self) -> String {
        match self {
            ExitWith::Success => "0".to_owned(),
            ExitWith::Failure => "a non-zero code".to_owned(),
            ExitWith::Code(c) => c.to_string(),
        }
    }
}

/// A command with one or more argument sets: each set is one benchmark.
#[derive(Debug, Clone)]
pub struct Run {
    pub(crate) cmd: Option<PathBuf>,
    pub(crate) args: Vec<Arg>,
    pub(crate) config: BinaryBenchmarkConfig,
    pub(crate) exit_with: ExitWith,
    pub(crate) entry_point: Option<String>,
}

impl Run {
    /// Runs `cmd` (a path, or a name looked up on `PATH`) with `arg`.
    pub fn with_cmd(cmd: impl Into<PathBuf>, arg: Arg) -> Run {
        Run {
            cmd: Some(cmd.into()),
            args: vec![arg],
            config: BinaryBenchmarkConfig::default(),
            exit_with: ExitWith::Success,
            entry_point: None,
        }
    }

    /// Runs the group's command (the `"name"` of `binary_benchmark_group!`)
    /// with `arg`.
    pub fn with_arg(arg: Arg) -> Run {
        Run {
            cmd: None,
            args: vec![arg],
            config: BinaryBenchmarkConfig::default(),
            exit_with: ExitWith::Success,
            entry_point: None,
        }
    }

    /// Runs the group's command once per argument set.
    pub fn with_args(args: impl IntoIterator<Item = Arg>) -> Run {
        let mut run = Run::with_arg(Arg::empty(""));
        run.args = args.into_iter().collect();
        run
    }

    /// Adds another argument set (another benchmark of the same command).
    pub fn arg(mut self, arg: Arg) -> Run {
        self.args.push(arg);
        self
    }

    /// Environment variables: `"KEY=VALUE"` sets, `"KEY"` passes through.
    pub fn envs<I, S>(mut self, envs: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.config = self.config.envs(envs);
        self
    }

    /// Whether the environment is cleared first (default: yes).
    pub fn env_clear(mut self, clear: bool) -> Run {
        self.config = self.config.env_clear(clear);
        self
    }

    /// The exit status expected (default: [`ExitWith::Success`]); any other
    /// fails the benchmark.
    pub fn exit_with(mut self, exit_with: ExitWith) -> Run {
        self.exit_with = exit_with;
        self
    }

    /// Counts only from this function on (callgrind's `--toggle-collect`,
    /// e.g. `"my_exe::main"`); default: the whole process.
    pub fn entry_point(mut self, symbol: impl Into<String>) -> Run {
        self.entry_point = Some(symbol.into());
        self
    }

    /// The configuration at this level (refines the group's).
    pub fn config(mut self, config: BinaryBenchmarkConfig) -> Run {
        self.config = self.config.merged(&config);
        self
    }
}

/// A group of binary benchmarks, filled by the closure of
/// [`binary_benchmark_group!`](crate::binary_benchmark_group).
#[derive(Debug, Clone)]
pub struct BinaryBenchmarkGroup {
    pub(crate) name: &'static str,
    pub(crate) config: BinaryBenchmarkConfig,
    pub(crate) crate_cmd: Option<String>,
    pub(crate) runs: Vec<Run>,
    pub(crate) setup: Option<fn()>,
    pub(crate) teardown: Option<fn()>,
    pub(crate) before: Option<fn()>,
    pub(crate) after: Option<fn()>,
}

impl BinaryBenchmarkGroup {
    #[doc(hidden)]
    pub fn __new(name: &'static str) -> Self {
        BinaryBenchmarkGroup {
            name,
            config: BinaryBenchmarkConfig::default(),
            crate_cmd: None,
            runs: Vec::new(),
            setup: None,
            teardown: None,
            before: None,
            after: None,
        }
    }

    #[doc(hidden)]
    pub fn __set_config(&mut self, config: BinaryBenchmarkConfig) {
        self.config = self.config.merged(&config);
    }

    #[doc(hidden)]
    pub fn __set_setup(&mut self, f: fn()) {
        self.setup = Some(f);
    }

    #[doc(hidden)]
    pub fn __set_teardown(&mut self, f: fn()) {
        self.teardown = Some(f);
    }

    #[doc(hidden)]
    pub fn __set_before(&mut self, f: fn()) {
        self.before = Some(f);
    }

    #[doc(hidden)]
    pub fn __set_after(&mut self, f: fn()) {
        self.after = Some(f);
    }

    #[doc(hidden)]
    pub fn __set_crate_cmd(&mut self, name: &str) {
        self.crate_cmd = Some(name.to_owned());
    }

    /// Adds a benchmarked run.
    pub fn bench(&mut self, run: Run) -> &mut Self {
        self.runs.push(run);
        self
    }

    /// Runs in a fresh temporary directory (default) or in the current one.
    pub fn sandbox(&mut self, sandbox: bool) -> &mut Self {
        self.config = self.config.clone().sandbox(sandbox);
        self
    }

    /// A directory (relative to the package root) copied into the sandbox.
    pub fn fixtures(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.config = self.config.clone().fixtures(dir);
        self
    }

    /// Refines the group's configuration.
    pub fn config(&mut self, config: BinaryBenchmarkConfig) -> &mut Self {
        self.__set_config(config);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        assert!(ExitWith::Success.accepts(Some(0)));
        assert!(!ExitWith::Success.accepts(Some(3)));
        assert!(ExitWith::Failure.accepts(Some(3)));
        assert!(ExitWith::Code(3).accepts(Some(3)));
        assert!(!ExitWith::Code(3).accepts(Some(0)));
        assert!(!ExitWith::Code(3).accepts(None));
    }
}
