//! Configuration of benchmarks: at `main!`, group and benchmark level.
//!
//! A lower level refines a higher one: single values (`env_clear`,
//! `regression`, `flamegraph`, `sandbox`, `fixtures`) are replaced,
//! lists (`envs`, `callgrind_args`, `tools`) are added to.

use std::path::PathBuf;

use crate::metrics::EventKind;

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

/// The configuration of library benchmarks (and, as [`BinaryBenchmarkConfig`],
/// of binary benchmarks).
///
/// ```
/// use yardstick_callgrind::{EventKind, LibraryBenchmarkConfig, RegressionConfig, Tool, ValgrindTool};
///
/// // The builders take and return `&mut Self`, as iai-callgrind's: chain
/// // them where a configuration is taken (`config = ...;`), or on a binding.
/// let mut config = LibraryBenchmarkConfig::default();
/// config
///     .pass_through_env("HOME")
///     .env("MY_SEED", "42")
///     .raw_callgrind_args(["--cache-sim=no"])
///     .regression(RegressionConfig::default().limits([(EventKind::Ir, 5.0)]))
///     .tool(Tool::new(ValgrindTool::DHAT));
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
    pub(crate) fixtures: Option<Fixtures>,
    pub(crate) current_dir: Option<PathBuf>,
    pub(crate) entry_point: Option<String>,
    pub(crate) exit_with: Option<ExitWith>,
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
    pub fn env_clear(&mut self, clear: bool) -> &mut Self {
        self.env_clear = Some(clear);
        self
    }

    /// Sets the variable `key` to `value` for the benchmark.
    pub fn env(&mut self, key: impl Into<String>, value: impl Into<String>) -> &mut Self {
        self.envs.push((key.into(), Some(value.into())));
        self
    }

    /// Sets several variables, as [`env`](Self::env) does: `(key, value)`
    /// pairs (iai-callgrind 0.12's form), or strings where `"KEY=VALUE"`
    /// sets and a bare `"KEY"` passes the variable through.
    pub fn envs<I, E>(&mut self, envs: I) -> &mut Self
    where
        I: IntoIterator<Item = E>,
        E: EnvEntry,
    {
        self.envs.extend(envs.into_iter().map(EnvEntry::into_entry));
        self
    }

    /// Passes the variable `key` of the environment `cargo bench` runs in
    /// through to the benchmark (ignored when it is not set).
    pub fn pass_through_env(&mut self, key: impl Into<String>) -> &mut Self {
        self.envs.push((key.into(), None));
        self
    }

    /// Passes several variables through, as
    /// [`pass_through_env`](Self::pass_through_env).
    pub fn pass_through_envs<I, S>(&mut self, keys: I) -> &mut Self
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
    pub fn raw_callgrind_args<I, S>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.callgrind_args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Enables regression checks with these limits.
    pub fn regression(&mut self, regression: impl Into<RegressionConfig>) -> &mut Self {
        self.regression = Some(regression.into());
        self
    }

    list_setters! {
        tools: Tool;
        /// Runs another Valgrind tool after callgrind, for each benchmark.
        fn tool;
        /// Runs several other Valgrind tools, as [`tool`](Self::tool).
        fn tools;
    }

    /// Runs `tool` instead of the tools set at higher levels (and on the
    /// command line) for the tool's kind.
    pub fn tool_override(&mut self, tool: impl Into<Tool>) -> &mut Self {
        let tool = tool.into();
        self.tools.retain(|t| t.kind != tool.kind);
        self.tools.push(tool);
        self
    }

    /// [`tool_override`](Self::tool_override) for several tools.
    pub fn tools_override<I, T>(&mut self, tools: I) -> &mut Self
    where
        I: IntoIterator<Item = T>,
        T: Into<Tool>,
    {
        for tool in tools {
            self.tool_override(tool);
        }
        self
    }

    /// Adds callgrind arguments one iterator item at a time (iai-callgrind's
    /// name for [`raw_callgrind_args`](Self::raw_callgrind_args)).
    pub fn raw_callgrind_args_iter<I, S>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.raw_callgrind_args(args)
    }

    /// A configuration with these callgrind arguments.
    pub fn with_raw_callgrind_args<I, S>(args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut config = Self::default();
        config.raw_callgrind_args(args);
        config
    }

    /// Draws flamegraphs of the callgrind output.
    pub fn flamegraph(&mut self, flamegraph: impl Into<FlamegraphConfig>) -> &mut Self {
        self.flamegraph = Some(flamegraph.into());
        self
    }

    /// Binary benchmarks: run in a fresh temporary directory (the default)
    /// or in the current one.
    pub fn sandbox(&mut self, sandbox: bool) -> &mut Self {
        self.sandbox = Some(sandbox);
        self
    }

    /// Binary benchmarks: a directory (relative to the package root) copied
    /// into the sandbox, under its own name, before each run.
    pub fn fixtures(&mut self, dir: impl Into<Fixtures>) -> &mut Self {
        self.fixtures = Some(dir.into());
        self
    }

    /// Binary benchmarks: the directory the command runs in (relative to the
    /// sandbox when there is one).
    pub fn current_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// Binary benchmarks: counts only from this function on (callgrind's
    /// `--toggle-collect`, e.g. `"my_exe::main"`).
    pub fn entry_point(&mut self, symbol: impl Into<String>) -> &mut Self {
        self.entry_point = Some(symbol.into());
        self
    }

    /// Binary benchmarks: the exit status expected (default: success).
    pub fn exit_with(&mut self, exit_with: impl Into<ExitWith>) -> &mut Self {
        self.exit_with = Some(exit_with.into());
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
        out.current_dir = lower
            .current_dir
            .clone()
            .or_else(|| self.current_dir.clone());
        out.entry_point = lower
            .entry_point
            .clone()
            .or_else(|| self.entry_point.clone());
        out.exit_with = lower.exit_with.or(self.exit_with);
        out
    }
}

/// Limits per event kind beyond which a run counts as a regression.
///
/// Soft limits are percentages against the run compared with: a positive
/// limit `+10.0` is breached when the count grows by more than 10 %, a
/// negative one `-5.0` when it shrinks by more than 5 %. Hard limits are
/// absolute counts, checked on every run (with or without an old one): the
/// count must not exceed them. The default is `Ir` at `+10 %`, no hard
/// limit.
#[derive(Debug, Clone, PartialEq)]
pub struct RegressionConfig {
    pub(crate) limits: Vec<(EventKind, f64)>,
    pub(crate) hard_limits: Vec<(EventKind, u64)>,
    pub(crate) fail_fast: bool,
}

impl Default for RegressionConfig {
    fn default() -> Self {
        RegressionConfig {
            limits: vec![(EventKind::Ir, 10.0)],
            hard_limits: Vec::new(),
            fail_fast: false,
        }
    }
}

impl RegressionConfig {
    /// Replaces the soft limits, as `(event kind, percent)` pairs.
    pub fn limits<T>(&mut self, limits: T) -> &mut Self
    where
        T: IntoIterator<Item = (EventKind, f64)>,
    {
        self.limits = limits.into_iter().collect();
        self
    }

    /// Replaces the soft limits ([`limits`](Self::limits) under the name
    /// later iai-callgrind releases use).
    pub fn soft_limits<T>(&mut self, limits: T) -> &mut Self
    where
        T: IntoIterator<Item = (EventKind, f64)>,
    {
        self.limits(limits)
    }

    /// Sets hard limits, as `(event kind, count)` pairs: a run whose count
    /// exceeds one fails, whatever it is compared with. Setting only hard
    /// limits keeps the default soft limit (`Ir` at +10 %); clear it with
    /// `limits([])`.
    pub fn hard_limits<T>(&mut self, limits: T) -> &mut Self
    where
        T: IntoIterator<Item = (EventKind, u64)>,
    {
        self.hard_limits = limits.into_iter().collect();
        self
    }

    /// Stops at the first regressed benchmark instead of at the end.
    pub fn fail_fast(&mut self, yes: bool) -> &mut Self {
        self.fail_fast = yes;
        self
    }
}

/// The Valgrind tools a benchmark can also be run under (iai-callgrind's
/// names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValgrindTool {
    /// Callgrind: always run first; naming it as an extra tool does nothing.
    Callgrind,
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
    /// Cachegrind: cache and branch simulation (`cg_annotate` reads it).
    Cachegrind,
    /// BBV (experimental): basic block vectors for SimPoint.
    BBV,
}

impl ValgrindTool {
    /// Every tool, in this order.
    pub const ALL: [ValgrindTool; 8] = [
        ValgrindTool::Callgrind,
        ValgrindTool::Memcheck,
        ValgrindTool::Helgrind,
        ValgrindTool::DRD,
        ValgrindTool::Massif,
        ValgrindTool::DHAT,
        ValgrindTool::Cachegrind,
        ValgrindTool::BBV,
    ];

    /// Valgrind's name of the tool (`--tool=<id>`), also the file prefix.
    pub fn id(self) -> &'static str {
        match self {
            ValgrindTool::Callgrind => "callgrind",
            ValgrindTool::Memcheck => "memcheck",
            ValgrindTool::Helgrind => "helgrind",
            ValgrindTool::DRD => "drd",
            ValgrindTool::Massif => "massif",
            ValgrindTool::DHAT => "dhat",
            ValgrindTool::Cachegrind => "cachegrind",
            ValgrindTool::BBV => "exp-bbv",
        }
    }

    /// True for the tools that report errors (`ERROR SUMMARY`).
    pub fn reports_errors(self) -> bool {
        matches!(
            self,
            ValgrindTool::Memcheck | ValgrindTool::Helgrind | ValgrindTool::DRD
        )
    }

    /// The tool named `name` (`memcheck`, `dhat`, `bbv`, …).
    pub fn from_id(name: &str) -> Option<ValgrindTool> {
        let name = if name.eq_ignore_ascii_case("bbv") {
            "exp-bbv"
        } else {
            name
        };
        ValgrindTool::ALL
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
    pub(crate) outfile_modifier: Option<String>,
}

impl Tool {
    /// The tool `kind` with Valgrind's defaults (and `--error-exitcode=201`
    /// for Memcheck, Helgrind and DRD).
    pub fn new(kind: ValgrindTool) -> Tool {
        Tool {
            kind,
            args: Vec::new(),
            enabled: true,
            outfile_modifier: None,
        }
    }

    /// Adds arguments for the tool (`--error-exitcode=0` restores Valgrind's
    /// default for the error-reporting tools).
    pub fn args<I, S>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Switches the tool off (at a lower level than where it was switched
    /// on).
    pub fn enable(&mut self, enabled: bool) -> &mut Self {
        self.enabled = enabled;
        self
    }

    /// Not supported: the output files keep their fixed names
    /// (`<tool>.<function>.<id>.out`), one per benchmark, so a program
    /// traced into its children (`--trace-children=yes`) has them write
    /// into one file. Accepted so iai-callgrind files compile; the run
    /// prints a warning.
    pub fn outfile_modifier(&mut self, modifier: impl Into<String>) -> &mut Self {
        self.outfile_modifier = Some(modifier.into());
        self
    }
}

/// A fixtures directory copied into the sandbox of binary benchmarks
/// (relative to the package root).
#[derive(Debug, Clone, PartialEq)]
pub struct Fixtures {
    pub(crate) dir: PathBuf,
    pub(crate) follow_symlinks: bool,
}

impl Fixtures {
    /// The directory `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Fixtures {
        Fixtures {
            dir: dir.into(),
            follow_symlinks: false,
        }
    }

    /// With `true`, a symbolic link in the directory is copied as what it
    /// points to; by default (as iai-callgrind) the link itself is copied.
    pub fn follow_symlinks(&mut self, follow: bool) -> &mut Self {
        self.follow_symlinks = follow;
        self
    }
}

impl<T: Into<PathBuf>> From<T> for Fixtures {
    fn from(dir: T) -> Fixtures {
        Fixtures::new(dir)
    }
}

impl From<&mut Fixtures> for Fixtures {
    fn from(f: &mut Fixtures) -> Fixtures {
        f.clone()
    }
}

/// One environment entry for `envs`: a `(key, value)` pair sets, a string
/// `"KEY=VALUE"` sets and a bare `"KEY"` passes the variable through.
pub trait EnvEntry {
    /// The key and, unless passed through, the value.
    fn into_entry(self) -> (String, Option<String>);
}

impl<K: Into<String>, V: Into<String>> EnvEntry for (K, V) {
    fn into_entry(self) -> (String, Option<String>) {
        (self.0.into(), Some(self.1.into()))
    }
}

fn split_entry(e: &str) -> (String, Option<String>) {
    match e.split_once('=') {
        Some((k, v)) => (k.to_owned(), Some(v.to_owned())),
        None => (e.to_owned(), None),
    }
}

impl EnvEntry for &str {
    fn into_entry(self) -> (String, Option<String>) {
        split_entry(self)
    }
}

impl EnvEntry for String {
    fn into_entry(self) -> (String, Option<String>) {
        split_entry(&self)
    }
}

impl EnvEntry for &String {
    fn into_entry(self) -> (String, Option<String>) {
        split_entry(self)
    }
}

from_refs!(
    LibraryBenchmarkConfig,
    RegressionConfig,
    Tool,
    FlamegraphConfig
);

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
    pub(crate) subtitle: Option<String>,
    pub(crate) negate_differential: bool,
    pub(crate) normalize_differential: bool,
    pub(crate) direction: Direction,
    pub(crate) min_width: Option<f64>,
}

impl Default for FlamegraphConfig {
    fn default() -> Self {
        FlamegraphConfig {
            kind: FlamegraphKind::All,
            event_kinds: vec![EventKind::Ir],
            title: None,
            subtitle: None,
            negate_differential: false,
            normalize_differential: false,
            direction: Direction::BottomToTop,
            min_width: None,
        }
    }
}

impl FlamegraphConfig {
    /// Which flamegraphs to draw.
    pub fn kind(&mut self, kind: FlamegraphKind) -> &mut Self {
        self.kind = kind;
        self
    }

    /// The raw event kinds to draw (default: `Ir`). Derived metrics have no
    /// per-function costs and are skipped.
    pub fn event_kinds(&mut self, kinds: impl IntoIterator<Item = EventKind>) -> &mut Self {
        self.event_kinds = kinds.into_iter().collect();
        self
    }

    /// The title above the graph (default: the benchmark's id).
    pub fn title(&mut self, title: impl Into<String>) -> &mut Self {
        self.title = Some(title.into());
        self
    }

    /// The line under the title (default: none).
    pub fn subtitle(&mut self, subtitle: impl Into<String>) -> &mut Self {
        self.subtitle = Some(subtitle.into());
        self
    }

    /// Differential flamegraphs drawn on the old profile's shape with the
    /// colours reversed (blue: grew), instead of on the new one's.
    pub fn negate_differential(&mut self, negate: bool) -> &mut Self {
        self.negate_differential = negate;
        self
    }

    /// Scales the old profile's total to the new one's before the
    /// differential flamegraph, so a uniform change shows no colour.
    pub fn normalize_differential(&mut self, normalize: bool) -> &mut Self {
        self.normalize_differential = normalize;
        self
    }

    /// Which way stacks grow (default: bottom to top).
    pub fn direction(&mut self, direction: Direction) -> &mut Self {
        self.direction = direction;
        self
    }

    /// Frames narrower than `min_width` pixels are left out (inferno's
    /// default 0.1 otherwise).
    pub fn min_width(&mut self, min_width: f64) -> &mut Self {
        self.min_width = Some(min_width);
        self
    }
}

/// The direction of a flamegraph (iai-callgrind's `Direction`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Stacks grow from the top down (an icicle graph).
    TopToBottom,
    /// Stacks grow from the bottom up (the default).
    BottomToTop,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_levels_replace_values_and_add_to_lists() {
        let top: LibraryBenchmarkConfig = LibraryBenchmarkConfig::default()
            .env("A", "1")
            .regression(RegressionConfig::default())
            .into();
        let low: LibraryBenchmarkConfig = LibraryBenchmarkConfig::default()
            .env_clear(false)
            .pass_through_env("B")
            .tool(Tool::new(ValgrindTool::DHAT))
            .into();
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
    fn envs_takes_pairs_and_strings() {
        let mut c = LibraryBenchmarkConfig::default();
        c.envs([("K", "V")]).envs(["A=B", "HOME"]);
        assert_eq!(
            c.envs,
            vec![
                ("K".to_owned(), Some("V".to_owned())),
                ("A".to_owned(), Some("B".to_owned())),
                ("HOME".to_owned(), None)
            ]
        );
    }

    #[test]
    fn tool_override_replaces_the_same_kind() {
        let mut c = LibraryBenchmarkConfig::default();
        c.tool(Tool::new(ValgrindTool::DHAT).args(["--a"]))
            .tool_override(Tool::new(ValgrindTool::DHAT).args(["--b"]));
        assert_eq!(c.tools.len(), 1);
        assert_eq!(c.tools[0].args, vec!["--b".to_owned()]);
    }

    #[test]
    fn bbv_and_cachegrind_by_name() {
        assert_eq!(ValgrindTool::from_id("bbv"), Some(ValgrindTool::BBV));
        assert_eq!(ValgrindTool::BBV.id(), "exp-bbv");
        assert_eq!(
            ValgrindTool::from_id("Cachegrind"),
            Some(ValgrindTool::Cachegrind)
        );
    }
}
