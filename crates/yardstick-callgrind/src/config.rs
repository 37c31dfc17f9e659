//! Configuration of benchmarks: at `main!`, group and benchmark level.
//!
//! A lower level refines a higher one: single values (`env_clear`,
//! `regression`, `flamegraph`, `sandbox`, `fixtures`) are replaced,
//! lists (`envs`, `callgrind_args`, `tools`) are added to.

use std::path::PathBuf;

use crate::metrics::EventKind;

/// The configuration of library benchmarks (and, as [`BinaryBenchmarkConfig`],
/// of binary benchmarks).
///
/// ```
/// use yardstick_callgrind::{EventKind, LibraryBenchmarkConfig, RegressionConfig, Tool, ValgrindTool};
///
/// let config = LibraryBenchmarkConfig::default()
///     .pass_through_env("HOME")
///     .env("MY_SEED", "42")
///     .raw_callgrind_args(["--cache-sim=no"])
///     .regression(RegressionConfig::default().limits([(EventKind::Ir, 5.0)]))
///     .tool(Tool::new(ValgrindTool::DHAT));
/// # let _ = config;
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LibraryBenchmarkConfig {
    pub(crate) env_clear: Option<bool>,
    pub(crate) envs: Vec<(String, Option<String>)>,
    pub(crate) callgrind_args: Vec<String>,
    pub(crate) regression: Option<RegressionConfig>,
    pub(crate) tools: Vec<Tool>,
    pub(crate) flamegraph: Option<FlamegraphConfig>,
    pub(crate) sandbox: Option<bool>,
    pub(crate) fixtures: Option<PathBuf>,
}

/// The configuration of binary benchmarks: the same type as
/// [`LibraryBenchmarkConfig`]; [`sandbox`](LibraryBenchmarkConfig::sandbox)
/// and [`fixtures`](LibraryBenchmarkConfig::fixtures) apply to binary
/// benchmarks only.
pub type BinaryBenchmarkConfig = LibraryBenchmarkConfig;

impl LibraryBenchmarkConfig {
    /// Whether the environment is cleared before the benchmark runs (the
    /// default: yes). Variables set with [`env`](Self::env) and passed with
    /// [`pass_through_env`](Self::pass_through_env) are there either way.
    pub fn env_clear(mut self, clear: bool) -> Self {
        self.env_clear = Some(clear);
        self
    }

    /// Sets the variable `key` to `value` for the benchmark.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.envs.push((key.into(), Some(value.into())));
        self
    }

    /// Sets several variables, as [`env`](Self::env) does. An entry
    /// `"KEY=VALUE"` sets, a bare `"KEY"` passes the variable through (as
    /// iai-callgrind's `envs`).
    pub fn envs<I, S>(mut self, envs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for e in envs {
            match e.as_ref().split_once('=') {
                Some((k, v)) => self.envs.push((k.to_owned(), Some(v.to_owned()))),
                None => self.envs.push((e.as_ref().to_owned(), None)),
            }
        }
        self
    }

    /// Passes the variable `key` of the environment `cargo bench` runs in
    /// through to the benchmark (ignored when it is not set).
    pub fn pass_through_env(mut self, key: impl Into<String>) -> Self {
        self.envs.push((key.into(), None));
        self
    }

    /// Passes several variables through, as
    /// [`pass_through_env`](Self::pass_through_env).
    pub fn pass_through_envs<I, S>(mut self, keys: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.envs.extend(keys.into_iter().map(|k| (k.into(), None)));
        self
    }

    /// Adds arguments for callgrind (`--cache-sim=no`, `--I1=…`, …).
    /// Arguments yardstick sets itself (the output files, `--tool`) are
    /// ignored with a warning.
    pub fn raw_callgrind_args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.callgrind_args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Enables regression checks with these limits.
    pub fn regression(mut self, regression: RegressionConfig) -> Self {
        self.regression = Some(regression);
        self
    }

    /// Runs another Valgrind tool after callgrind, for each benchmark.
    pub fn tool(mut self, tool: Tool) -> Self {
        self.tools.push(tool);
        self
    }

    /// Runs several other Valgrind tools, as [`tool`](Self::tool).
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool>) -> Self {
        self.tools.extend(tools);
        self
    }

    /// Draws flamegraphs of the callgrind output.
    pub fn flamegraph(mut self, flamegraph: FlamegraphConfig) -> Self {
        self.flamegraph = Some(flamegraph);
        self
    }

    /// Binary benchmarks: run in a fresh temporary directory (the default)
    /// or in the current one.
    pub fn sandbox(mut self, sandbox: bool) -> Self {
        self.sandbox = Some(sandbox);
        self
    }

    /// Binary benchmarks: a directory (relative to the package root) copied
    /// into the sandbox, under its own name, before each run.
    pub fn fixtures(mut self, dir: impl Into<PathBuf>) -> Self {
        self.fixtures = Some(dir.into());
        self
    }

    /// `self` refined by the lower level `lower`.
    pub(crate) fn merged(&self, lower: &LibraryBenchmarkConfig) -> LibraryBenchmarkConfig {
        let mut out = self.clone();
        out.env_clear = lower.env_clear.or(self.env_clear);
        out.envs.extend(lower.envs.iter().cloned());
        out.callgrind_args
            .extend(lower.callgrind_args.iter().cloned());
        out.regression = lower.regression.clone().or_else(|| self.regression.clone());
        out.tools.extend(lower.tools.iter().cloned());
        out.flamegraph = lower.flamegraph.clone().or_else(|| self.flamegraph.clone());
        out.sandbox = lower.sandbox.or(self.sandbox);
        out.fixtures = lower.fixtures.clone().or_else(|| self.fixtures.clone());
        out
    }
}

/// Limits per event kind beyond which a run counts as a regression.
///
/// A positive limit `+10.0` is breached when the count grows by more than
/// 10 %; a negative one `-5.0` when it shrinks by more than 5 %. The default
/// is `Ir` at `+10 %`.
#[derive(Debug, Clone, PartialEq)]
pub struct RegressionConfig {
    pub(crate) limits: Vec<(EventKind, f64)>,
    pub(crate) fail_fast: bool,
}

impl Default for RegressionConfig {
    fn default() -> Self {
        RegressionConfig {
            limits: vec![(EventKind::Ir, 10.0)],
            fail_fast: false,
        }
    }
}

impl RegressionConfig {
    /// Replaces the limits, as `(event kind, percent)` pairs.
    pub fn limits(mut self, limits: impl IntoIterator<Item = (EventKind, f64)>) -> Self {
        self.limits = limits.into_iter().collect();
        self
    }

    /// Stops at the first regressed benchmark instead of at the end.
    pub fn fail_fast(mut self, yes: bool) -> Self {
        self.fail_fast = yes;
        self
    }
}

/// The Valgrind tools a benchmark can also be run under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValgrindTool {
    /// Memcheck: memory errors. Errors fail the benchmark (exit code 201).
    Memcheck,
    /// Helgrind: data races. Errors fail the benchmark (exit code 201).
    Helgrind,
    /// DRD: data races. Errors fail the benchmark (exit code 201).
    DRD,
    /// Massif: heap profile over time (`ms_print` reads it).
    Massif,
    /// DHAT: heap allocation profile (`dh_view.html` reads it).
    DHAT,
}

impl ValgrindTool {
    /// Valgrind's name of the tool (`--tool=<id>`), also the file prefix.
    pub fn id(self) -> &'static str {
        match self {
            ValgrindTool::Memcheck => "memcheck",
            ValgrindTool::Helgrind => "helgrind",
            ValgrindTool::DRD => "drd",
            ValgrindTool::Massif => "massif",
            ValgrindTool::DHAT => "dhat",
        }
    }

    /// True for the tools that report errors (`ERROR SUMMARY`).
    pub fn reports_errors(self) -> bool {
        matches!(
            self,
            ValgrindTool::Memcheck | ValgrindTool::Helgrind | ValgrindTool::DRD
        )
    }

    /// The tool named `name` (`memcheck`, `dhat`, …).
    pub fn from_id(name: &str) -> Option<ValgrindTool> {
        [
            ValgrindTool::Memcheck,
            ValgrindTool::Helgrind,
            ValgrindTool::DRD,
            ValgrindTool::Massif,
            ValgrindTool::DHAT,
        ]
        .into_iter()
        .find(|t| t.id().eq_ignore_ascii_case(name))
    }
}

/// Another Valgrind tool to run a benchmark under, with its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub(crate) kind: ValgrindTool,
    pub(crate) args: Vec<String>,
    pub(crate) enabled: bool,
}

impl Tool {
    /// The tool `kind` with Valgrind's defaults (and `--error-exitcode=201`
    /// for Memcheck, Helgrind and DRD).
    pub fn new(kind: ValgrindTool) -> Tool {
        Tool {
            kind,
            args: Vec::new(),
            enabled: true,
        }
    }

    /// Adds arguments for the tool (`--error-exitcode=0` restores Valgrind's
    /// default for the error-reporting tools).
    pub fn args<I, S>(mut self, args: I) -> Tool
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Switches the tool off (at a lower level than where it was switched
    /// on).
    pub fn enable(mut self, enabled: bool) -> Tool {
        self.enabled = enabled;
        self
    }
}

/// Which flamegraphs to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlamegraphKind {
    /// Only the flamegraph of this run.
    Regular,
    /// Only the differential flamegraph against the run compared with.
    Differential,
    /// Both (the default).
    All,
    /// None.
    None,
}

/// Flamegraphs of the callgrind output, one per event kind, drawn as SVG
/// beside the callgrind files.
#[derive(Debug, Clone, PartialEq)]
pub struct FlamegraphConfig {
    pub(crate) kind: FlamegraphKind,
    pub(crate) event_kinds: Vec<EventKind>,
    pub(crate) title: Option<String>,
}

impl Default for FlamegraphConfig {
    fn default() -> Self {
        FlamegraphConfig {
            kind: FlamegraphKind::All,
            event_kinds: vec![EventKind::Ir],
            title: None,
        }
    }
}

impl FlamegraphConfig {
    /// Which flamegraphs to draw.
    pub fn kind(mut self, kind: FlamegraphKind) -> Self {
        self.kind = kind;
        self
    }

    /// The raw event kinds to draw (default: `Ir`). Derived metrics have no
    /// per-function costs and are skipped.
    pub fn event_kinds(mut self, kinds: impl IntoIterator<Item = EventKind>) -> Self {
        self.event_kinds = kinds.into_iter().collect();
        self
    }

    /// The title above the graph (default: the benchmark's id).
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_levels_replace_values_and_add_to_lists() {
        let top = LibraryBenchmarkConfig::default()
            .env("A", "1")
            .regression(RegressionConfig::default());
        let low = LibraryBenchmarkConfig::default()
            .env_clear(false)
            .pass_through_env("B")
            .tool(Tool::new(ValgrindTool::DHAT));
        let m = top.merged(&low);
        assert_eq!(m.env_clear, Some(false));
        assert_eq!(
            m.envs,
            vec![
                ("A".to_owned(), Some("1".to_owned())),
                ("B".to_owned(), None)
            ]
        );
        assert_eq!(m.regression, Some(RegressionConfig::default()));
        assert_eq!(m.tools.len(), 1);
    }

    #[test]
    fn envs_splits_pairs_from_pass_through_keys() {
        let c = LibraryBenchmarkConfig::default().envs(["K=V", "HOME"]);
        assert_eq!(
            c.envs,
            vec![
                ("K".to_owned(), Some("V".to_owned())),
                ("HOME".to_owned(), None)
            ]
        );
    }
}
