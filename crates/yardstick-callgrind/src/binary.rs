//! Binary benchmarks: executables run under callgrind with arguments,
//! environment, a sandbox with fixtures and an expected exit code.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::config::{
    BinaryBenchmarkConfig, EnvEntry, ExitWith, FlamegraphConfig, RegressionConfig, Tool,
};

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

/// A command with one or more argument sets: each set is one benchmark.
#[derive(Debug, Clone)]
pub struct Run {
    pub(crate) cmd: Option<PathBuf>,
    pub(crate) args: Vec<Arg>,
    pub(crate) config: BinaryBenchmarkConfig,
}

impl Run {
    /// Runs `cmd` (a path, or a name looked up on `PATH`) with `arg`.
    pub fn with_cmd(cmd: impl Into<PathBuf>, arg: impl Into<Arg>) -> Run {
        Run::with_cmd_args(cmd, [arg])
    }

    /// Runs `cmd` once per argument set.
    pub fn with_cmd_args<I, A>(cmd: impl Into<PathBuf>, args: I) -> Run
    where
        I: IntoIterator<Item = A>,
        A: Into<Arg>,
    {
        Run {
            cmd: Some(cmd.into()),
            args: args.into_iter().map(Into::into).collect(),
            config: BinaryBenchmarkConfig::default(),
        }
    }

    /// Runs the group's command (the `"name"` of `binary_benchmark_group!`)
    /// with `arg`.
    pub fn with_arg(arg: impl Into<Arg>) -> Run {
        Run::with_args([arg])
    }

    /// Runs the group's command once per argument set.
    pub fn with_args<I, A>(args: I) -> Run
    where
        I: IntoIterator<Item = A>,
        A: Into<Arg>,
    {
        Run {
            cmd: None,
            args: args.into_iter().map(Into::into).collect(),
            config: BinaryBenchmarkConfig::default(),
        }
    }

    list_setters! {
        args: Arg;
        /// Adds another argument set (another benchmark of the same command).
        fn arg;
        /// Adds several argument sets.
        fn args;
    }

    /// Environment variables: `(key, value)` pairs, or `"KEY=VALUE"` to set
    /// and `"KEY"` to pass through.
    pub fn envs<I, E>(&mut self, envs: I) -> &mut Self
    where
        I: IntoIterator<Item = E>,
        E: EnvEntry,
    {
        self.config.envs(envs);
        self
    }

    forward_to_config! {
        config;
        /// Sets the variable `key` to `value`.
        fn env(key: impl Into<String>, value: impl Into<String>);
        /// Passes the variable `key` through.
        fn pass_through_env(key: impl Into<String>);
    }

    /// Passes several variables through.
    pub fn pass_through_envs<I, S>(&mut self, keys: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.config.pass_through_envs(keys);
        self
    }

    forward_to_config! {
        config;
        /// Whether the environment is cleared first (default: yes).
        fn env_clear(clear: bool);
        /// The directory the command runs in.
        fn current_dir(dir: impl Into<PathBuf>);
        /// The exit status expected (default: [`ExitWith::Success`]); any other
        /// fails the benchmark.
        fn exit_with(exit_with: impl Into<ExitWith>);
        /// Counts only from this function on (callgrind's `--toggle-collect`,
        /// e.g. `"my_exe::main"`); default: the whole process.
        fn entry_point(symbol: impl Into<String>);
    }

    /// iai-callgrind's `Options` (`Options::default().exit_with(..)`, as
    /// its README writes it): what they set replaces this run's.
    pub fn options(&mut self, options: impl Into<Options>) -> &mut Self {
        self.config = self.config.merged(&options.into().0);
        self
    }

    /// Adds callgrind arguments for this run.
    pub fn raw_callgrind_args<I, S>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.config.raw_callgrind_args(args);
        self
    }

    forward_to_config! {
        config;
        /// Regression limits for this run.
        fn regression(regression: impl Into<RegressionConfig>);
        /// Flamegraphs for this run.
        fn flamegraph(flamegraph: impl Into<FlamegraphConfig>);
        /// Another Valgrind tool for this run.
        fn tool(tool: impl Into<Tool>);
    }

    /// Other Valgrind tools for this run.
    pub fn tools<I, T>(&mut self, tools: I) -> &mut Self
    where
        I: IntoIterator<Item = T>,
        T: Into<Tool>,
    {
        self.config.tools(tools);
        self
    }

    forward_to_config! {
        config;
        /// Replaces the tool of the same kind set at higher levels.
        fn tool_override(tool: impl Into<Tool>);
    }

    /// The configuration at this level (refines the group's).
    pub fn config(&mut self, config: impl Into<BinaryBenchmarkConfig>) -> &mut Self {
        self.config = self.config.merged(&config.into());
        self
    }
}

/// iai-callgrind's run options, applied to the [`Run`] they are given to
/// (the same as its own builder methods): a configuration of which only
/// these four can be set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options(BinaryBenchmarkConfig);

impl Options {
    forward_to_config! {
        0;
        /// Whether the environment is cleared first (default: yes).
        fn env_clear(clear: bool);
        /// The directory the command runs in.
        fn current_dir(dir: impl Into<PathBuf>);
        /// Counts only from this function on (see [`Run::entry_point`]).
        fn entry_point(symbol: impl Into<String>);
        /// The exit status expected.
        fn exit_with(exit_with: impl Into<ExitWith>);
    }
}

from_refs!(Run, Arg, Options, ExitWith);

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
    pub fn __set_config(&mut self, config: impl Into<BinaryBenchmarkConfig>) {
        self.config = self.config.merged(&config.into());
    }

    /// Sets the group's `before`, `after`, `setup` or `teardown` function.
    /// iai-callgrind's `bench = true` (measure the function itself) is not
    /// supported: the function runs, unmeasured, with a warning.
    #[doc(hidden)]
    pub fn __set_hook(&mut self, which: &str, f: fn(), bench: bool) {
        if bench {
            crate::printer::errln!(
                "warning: group '{}': `{which} = .., bench = true` is not supported; the {which} \
                 function runs but is not measured",
                self.name
            );
        }
        match which {
            "before" => self.before = Some(f),
            "after" => self.after = Some(f),
            "setup" => self.setup = Some(f),
            _ => self.teardown = Some(f),
        }
    }

    #[doc(hidden)]
    pub fn __set_crate_cmd(&mut self, name: &str) {
        self.crate_cmd = Some(name.to_owned());
    }

    /// Adds a benchmarked run.
    pub fn bench(&mut self, run: impl Into<Run>) -> &mut Self {
        self.runs.push(run.into());
        self
    }

    /// Runs in a fresh temporary directory (default) or in the current one.
    pub fn sandbox(&mut self, sandbox: bool) -> &mut Self {
        self.config.sandbox(sandbox);
        self
    }

    /// A directory (relative to the package root) copied into the sandbox.
    pub fn fixtures(&mut self, dir: impl Into<crate::config::Fixtures>) -> &mut Self {
        self.config.fixtures(dir);
        self
    }

    /// Refines the group's configuration.
    pub fn config(&mut self, config: impl Into<BinaryBenchmarkConfig>) -> &mut Self {
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

    #[test]
    fn options_reach_the_run() {
        let mut run = Run::with_arg(Arg::empty("a"));
        run.options(
            Options::default()
                .env_clear(false)
                .current_dir("inputs")
                .entry_point("my_exe::main")
                .exit_with(ExitWith::Code(3)),
        );
        assert_eq!(run.config.env_clear, Some(false));
        assert_eq!(run.config.current_dir, Some(PathBuf::from("inputs")));
        assert_eq!(run.config.entry_point.as_deref(), Some("my_exe::main"));
        assert_eq!(run.config.exit_with, Some(ExitWith::Code(3)));
        // Options that say nothing change nothing.
        run.options(Options::default());
        assert_eq!(run.config.env_clear, Some(false));
    }
}
