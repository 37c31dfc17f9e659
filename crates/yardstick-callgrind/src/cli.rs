//! The bench binary's command line, with a `YARDSTICK_CALLGRIND_*`
//! environment variable behind each option (the command line wins).

use std::ffi::OsString;
use std::path::PathBuf;

use crate::metrics::EventKind;

/// Where the terminal output goes and in what form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// iai-callgrind's lines.
    Default,
    /// One JSON summary per line.
    Json,
    /// Pretty-printed JSON summaries.
    PrettyJson,
}

/// Which output of the benchmarked code is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoCapture {
    /// Captured (default): shown only when the benchmark fails.
    False,
    /// stdout and stderr shown.
    True,
    /// stdout shown, stderr dropped.
    Stdout,
    /// stderr shown, stdout dropped.
    Stderr,
}

/// What the run was asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `--bench`: measure under Valgrind. Without it (as `cargo test
    /// --benches` runs the binary) each benchmark runs once natively.
    pub bench: bool,
    /// `--list`.
    pub list: bool,
    /// `--exact`.
    pub exact: bool,
    /// Filters (substrings of the benchmark's id).
    pub filters: Vec<String>,
    /// `--partition hash:K/N|count:K/N`: only this shard, after the filters.
    pub partition: Option<yardstick_format::partition::Partition>,
    /// `--save-baseline[=NAME]`.
    pub save_baseline: Option<String>,
    /// `--baseline[=NAME]`.
    pub baseline: Option<String>,
    /// `--load-baseline[=NAME]`.
    pub load_baseline: Option<String>,
    /// `--callgrind-args=ARGS` (split on whitespace).
    pub callgrind_args: Vec<String>,
    /// `--regression=KIND=LIMIT,…` (empty: `Ir=10`).
    pub regression: Option<Vec<(EventKind, f64)>>,
    /// `--regression-fail-fast`.
    pub regression_fail_fast: bool,
    /// `--output-format`.
    pub output_format: OutputFormat,
    /// `--save-summary[=json|pretty-json]`.
    pub save_summary: Option<OutputFormat>,
    /// `--nocapture[=true|false|stdout|stderr]`.
    pub nocapture: NoCapture,
    /// `--home DIR`.
    pub home: Option<PathBuf>,
    /// `--separate-targets`.
    pub separate_targets: bool,
    /// `--tools=memcheck,dhat,…`: run these tools for every benchmark.
    pub tools: Vec<String>,
    /// `--flamegraph`: draw flamegraphs for every benchmark.
    pub flamegraph: bool,
    /// `--jobs N`: benchmarks measured at once (default: the cores).
    pub jobs: Option<usize>,
    /// `--color`, `*_COLOR`, `CARGO_TERM_COLOR` and `NO_COLOR`.
    pub color: Color,
    /// Internal: the benchmark to run inside Valgrind.
    pub child: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            bench: false,
            list: false,
            exact: false,
            filters: Vec::new(),
            partition: None,
            save_baseline: None,
            baseline: None,
            load_baseline: None,
            callgrind_args: Vec::new(),
            regression: None,
            regression_fail_fast: false,
            output_format: OutputFormat::Default,
            save_summary: None,
            nocapture: NoCapture::False,
            home: None,
            separate_targets: false,
            tools: Vec::new(),
            flamegraph: false,
            jobs: None,
            color: Color::Auto,
            child: None,
        }
    }
}

/// Whether the terminal output is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    /// When stdout is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The flag used to run one benchmark inside Valgrind.
pub const CHILD_FLAG: &str = "--yardstick-callgrind-child";

/// The help text.
pub const HELP: &str = "\
Instruction-count benchmarks under Valgrind (yardstick-callgrind)

USAGE: cargo bench --bench <NAME> -- [OPTIONS] [FILTER]...

Every option also reads YARDSTICK_CALLGRIND_<OPTION>, else iai-callgrind's IAI_CALLGRIND_<OPTION>
(e.g. IAI_CALLGRIND_SAVE_BASELINE=main); colour also follows CARGO_TERM_COLOR and NO_COLOR.

  FILTER                      run benchmarks whose id contains FILTER
  --exact                     the filter must equal the whole id
  --partition KIND:K/N        only shard K of N (hash:K/N or count:K/N, after the filter)
  --list                      list the benchmarks
  --save-baseline[=NAME]      compare with baseline NAME (default: default), then overwrite it
  --baseline[=NAME]           compare with baseline NAME, keep it
  --load-baseline[=NAME]      no run: compare saved NAME with --baseline
  --callgrind-args=ARGS       extra callgrind arguments (e.g. --cache-sim=no)
  --regression[=KIND=PCT,..]  fail when an event grows beyond PCT percent (default Ir=10)
  --regression-fail-fast      stop at the first regression
  --output-format=FMT         default | json | pretty-json
  --save-summary[=FMT]        write summary.json per benchmark (json | pretty-json)
  --nocapture[=WHAT]          show the benchmark's output: true | false | stdout | stderr
  --home=DIR                  where results go (default: <target>/yardstick-callgrind)
  --separate-targets          one folder per target triple under the home directory
  --tools=TOOL,..             also run memcheck, helgrind, drd, massif, dhat, cachegrind, bbv
  --flamegraph                draw flamegraphs of every benchmark (feature `flamegraph`)
  --color=WHEN                auto | always | never
  -j, --jobs=N                benchmarks measured at once (default: the cores; counts do not change)
  --bench                     measure (cargo bench passes it); without it each benchmark runs once
  --test                      each benchmark once, natively, even with --bench (cargo bench -- --test)
  -h, --help                  this text

Exit status: 0 ok, 1 a benchmark or tool failed (or Valgrind is missing), 2 bad usage, 3 a regression.
";

/// A usage error: one line naming the flag and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The outcome of parsing: options, or the help text to print.
#[derive(Debug)]
pub enum Parsed {
    /// Run with these options.
    Run(Box<Options>),
    /// Print the help and exit.
    Help,
}

/// Parses the command line `args` (without the program name) over the
/// environment variables read through `env`.
///
/// # Errors
///
/// A [`UsageError`] naming the bad flag or value.
pub fn parse(
    args: impl IntoIterator<Item = OsString>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Parsed, UsageError> {
    let mut o = Options::default();
    apply_env(&mut o, &env)?;
    let mut test = false;
    let mut parser = lexopt::Parser::from_args(args);
    use lexopt::prelude::*;
    loop {
        let arg = parser
            .next()
            .map_err(|e| UsageError(format!("error: {e} (see --help)")))?;
        let Some(arg) = arg else { break };
        let optional = |parser: &mut lexopt::Parser| -> Option<String> {
            parser
                .optional_value()
                .map(|v| v.to_string_lossy().into_owned())
        };
        match arg {
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Long("bench") => o.bench = true,
            // `cargo bench -- --test` puts `--bench` after it: `--test`
            // wins wherever it is, as in `cargo test --benches`.
            Long("test") => test = true,
            Long("list") => o.list = true,
            Long("exact") => o.exact = true,
            Long("save-baseline") => {
                o.save_baseline = Some(optional(&mut parser).unwrap_or_else(default_name))
            }
            Long("baseline") => {
                o.baseline = Some(optional(&mut parser).unwrap_or_else(default_name))
            }
            Long("load-baseline") => {
                o.load_baseline = Some(optional(&mut parser).unwrap_or_else(default_name))
            }
            Long("callgrind-args") => {
                let v = value_of(&mut parser, "--callgrind-args")?;
                o.callgrind_args
                    .extend(v.split_whitespace().map(str::to_owned));
            }
            Long("regression") => {
                o.regression = Some(parse_regression(
                    optional(&mut parser).as_deref().unwrap_or(""),
                )?)
            }
            Long("regression-fail-fast") => o.regression_fail_fast = true,
            Long("output-format") => {
                o.output_format = parse_format(&value_of(&mut parser, "--output-format")?)?
            }
            Long("save-summary") => {
                o.save_summary = Some(match optional(&mut parser) {
                    Some(v) => parse_format(&v)?,
                    None => OutputFormat::Json,
                })
            }
            Long("nocapture") => {
                o.nocapture = parse_nocapture(optional(&mut parser).as_deref().unwrap_or("true"))?
            }
            Long("home") => o.home = Some(value_of(&mut parser, "--home")?.into()),
            Long("partition") => {
                let v = value_of(&mut parser, "--partition")?;
                o.partition = Some(
                    yardstick_format::partition::Partition::parse(&v, "--partition")
                        .map_err(|e| UsageError(format!("error: {e}")))?,
                );
            }
            Long("separate-targets") => o.separate_targets = true,
            Long("tools") => o.tools = parse_tools(&value_of(&mut parser, "--tools")?)?,
            Long("flamegraph") => o.flamegraph = true,
            Short('j') | Long("jobs") => {
                o.jobs = Some(parse_jobs(&value_of(&mut parser, "--jobs")?)?)
            }
            Long("yardstick-callgrind-child") => {
                o.child = Some(value_of(&mut parser, CHILD_FLAG)?);
            }
            // iai-callgrind runs Valgrind with ASLR off unless allowed; counts
            // here do not depend on it (nothing is measured before the
            // benchmark's first instruction): accepted, ignored.
            Long("allow-aslr") => {
                let _ = optional(&mut parser);
            }
            // libtest flags cargo or users may pass: accepted, ignored.
            Long("show-output") | Long("ignored") | Long("quiet") | Short('q') => {}
            Long("color") => o.color = parse_color(&value_of(&mut parser, "--color")?)?,
            Long("format") | Long("test-threads") | Short('Z') | Long("logfile") => {
                let _ = parser.value();
            }
            Value(v) => o.filters.push(v.to_string_lossy().into_owned()),
            other => {
                return Err(UsageError(format!(
                    "error: unknown option {} (see --help)",
                    describe(&other)
                )))
            }
        }
    }
    if test {
        o.bench = false;
    }
    if o.load_baseline.is_some() && o.baseline.is_none() {
        return Err(UsageError(
            "error: --load-baseline needs --baseline=NAME to compare with".to_owned(),
        ));
    }
    Ok(Parsed::Run(Box::new(o)))
}

fn default_name() -> String {
    "default".to_owned()
}

fn describe(arg: &lexopt::Arg<'_>) -> String {
    match arg {
        lexopt::Arg::Short(c) => format!("-{c}"),
        lexopt::Arg::Long(l) => format!("--{l}"),
        lexopt::Arg::Value(v) => v.to_string_lossy().into_owned(),
    }
}

fn value_of(parser: &mut lexopt::Parser, flag: &str) -> Result<String, UsageError> {
    parser
        .value()
        .map(|v| v.to_string_lossy().into_owned())
        .map_err(|_| UsageError(format!("error: {flag} needs a value (see --help)")))
}

/// `YARDSTICK_CALLGRIND_<name>`, else iai-callgrind's `IAI_CALLGRIND_<name>`
/// (empty counts as unset).
fn env_var(env: &impl Fn(&str) -> Option<String>, name: &str) -> Option<String> {
    ["YARDSTICK_CALLGRIND_", "IAI_CALLGRIND_"]
        .iter()
        .find_map(|prefix| env(&format!("{prefix}{name}")).filter(|v| !v.is_empty()))
}

fn apply_env(o: &mut Options, env: &impl Fn(&str) -> Option<String>) -> Result<(), UsageError> {
    let var = |name: &str| env_var(env, name);
    let yes = |v: &str| matches!(v.to_ascii_lowercase().as_str(), "1" | "yes" | "true" | "on");
    o.filters.extend(var("FILTER"));
    o.save_baseline = var("SAVE_BASELINE");
    o.baseline = var("BASELINE");
    o.load_baseline = var("LOAD_BASELINE");
    if let Some(v) = var("CALLGRIND_ARGS") {
        o.callgrind_args = v.split_whitespace().map(str::to_owned).collect();
    }
    for name in ["YARDSTICK_CALLGRIND_REGRESSION", "IAI_CALLGRIND_REGRESSION"] {
        if let Some(v) = env(name) {
            o.regression = Some(
                parse_regression(&v).map_err(|e| UsageError(e.0.replace("--regression", name)))?,
            );
            break;
        }
    }
    o.regression_fail_fast = var("REGRESSION_FAIL_FAST").is_some_and(|v| yes(&v));
    if let Some(v) = var("OUTPUT_FORMAT") {
        o.output_format = parse_format(&v)?;
    }
    if let Some(v) = var("SAVE_SUMMARY") {
        o.save_summary = Some(parse_format(&v)?);
    }
    if let Some(v) = var("NOCAPTURE") {
        o.nocapture = parse_nocapture(&v)?;
    }
    o.home = var("HOME").map(PathBuf::from);
    o.separate_targets = var("SEPARATE_TARGETS").is_some_and(|v| yes(&v));
    if let Some(v) = var("TOOLS") {
        o.tools = parse_tools(&v)?;
    }
    o.flamegraph = var("FLAMEGRAPH").is_some_and(|v| yes(&v));
    if let Some(v) = var("JOBS") {
        o.jobs = Some(parse_jobs(&v)?);
    }
    // iai-callgrind: its own variable, then cargo's; NO_COLOR (any value)
    // switches colour off unless a variable asks for it.
    o.color = match var("COLOR").or_else(|| env("CARGO_TERM_COLOR").filter(|v| !v.is_empty())) {
        Some(v) => parse_color(&v)?,
        None if env("NO_COLOR").is_some_and(|v| !v.is_empty()) => Color::Never,
        None => Color::Auto,
    };
    Ok(())
}

fn parse_color(v: &str) -> Result<Color, UsageError> {
    match v.to_ascii_lowercase().as_str() {
        "auto" => Ok(Color::Auto),
        "always" => Ok(Color::Always),
        "never" => Ok(Color::Never),
        other => Err(UsageError(format!(
            "error: --color takes auto, always or never, not '{other}'"
        ))),
    }
}

/// Parses `Ir=5,EstimatedCycles=10`; empty means the default `Ir=10`.
///
/// # Errors
///
/// A [`UsageError`] naming the bad part.
pub fn parse_regression(spec: &str) -> Result<Vec<(EventKind, f64)>, UsageError> {
    if spec.trim().is_empty() {
        return Ok(vec![(EventKind::Ir, 10.0)]);
    }
    spec.split(',')
        .map(|part| {
            let (kind, limit) = part.split_once('=').ok_or_else(|| {
                UsageError(format!(
                    "error: --regression expects KIND=PERCENT (e.g. Ir=5), got '{part}'"
                ))
            })?;
            let kind: EventKind = kind
                .parse()
                .map_err(|e| UsageError(format!("error: --regression: {e}")))?;
            let limit: f64 = limit.trim().parse().map_err(|_| {
                UsageError(format!(
                    "error: --regression: '{limit}' is not a percentage (e.g. Ir=5.0)"
                ))
            })?;
            Ok((kind, limit))
        })
        .collect()
}

fn parse_jobs(v: &str) -> Result<usize, UsageError> {
    v.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| {
            UsageError(format!(
                "error: --jobs takes a number of at least 1, not '{v}'"
            ))
        })
}

fn parse_format(v: &str) -> Result<OutputFormat, UsageError> {
    match v {
        "default" => Ok(OutputFormat::Default),
        "json" => Ok(OutputFormat::Json),
        "pretty-json" => Ok(OutputFormat::PrettyJson),
        other => Err(UsageError(format!(
            "error: unknown output format '{other}' (expected default, json or pretty-json)"
        ))),
    }
}

fn parse_nocapture(v: &str) -> Result<NoCapture, UsageError> {
    match v {
        "true" | "yes" => Ok(NoCapture::True),
        "false" | "no" => Ok(NoCapture::False),
        "stdout" => Ok(NoCapture::Stdout),
        "stderr" => Ok(NoCapture::Stderr),
        other => Err(UsageError(format!(
            "error: --nocapture takes true, false, stdout or stderr, not '{other}'"
        ))),
    }
}

fn parse_tools(v: &str) -> Result<Vec<String>, UsageError> {
    v.split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            crate::config::ValgrindTool::from_id(t.trim())
                .map(|t| t.id().to_owned())
                .ok_or_else(|| {
                    UsageError(format!(
                        "error: --tools: unknown tool '{t}' (expected memcheck, helgrind, drd, massif, dhat, cachegrind or bbv)"
                    ))
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str], env: &[(&str, &str)]) -> Result<Options, UsageError> {
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        match parse(args.iter().map(OsString::from), |k| {
            env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
        })? {
            Parsed::Run(o) => Ok(*o),
            Parsed::Help => panic!("help"),
        }
    }

    /// `cargo bench -- --test` runs `<bench> --test --bench`: each
    /// benchmark once, natively, as `cargo test --benches` does.
    #[test]
    fn test_wins_over_bench_in_any_order() {
        assert!(!run(&["--test", "--bench"], &[]).unwrap().bench);
        assert!(!run(&["--bench", "--test"], &[]).unwrap().bench);
        assert!(run(&["--bench"], &[]).unwrap().bench);
    }

    #[test]
    fn partitions_are_read_and_bad_ones_named() {
        let o = run(&["--bench", "--partition", "hash:2/3"], &[]).unwrap();
        assert_eq!(
            o.partition.map(|p| p.to_string()).as_deref(),
            Some("hash:2/3")
        );
        for bad in ["hash:0/3", "count:4/3", "foo:1/2", "hash:1"] {
            let e = run(&["--partition", bad], &[]).unwrap_err().0;
            assert!(
                e.starts_with(&format!("error: --partition: '{bad}' ")),
                "{e}"
            );
        }
    }

    #[test]
    fn flags_and_env_vars() {
        let o = run(
            &["--bench", "--save-baseline=main", "--regression", "fib"],
            &[("YARDSTICK_CALLGRIND_HOME", "h")],
        )
        .unwrap();
        assert!(o.bench);
        assert_eq!(o.save_baseline.as_deref(), Some("main"));
        assert_eq!(o.regression, Some(vec![(EventKind::Ir, 10.0)]));
        assert_eq!(o.filters, vec!["fib"]);
        assert_eq!(o.home, Some(PathBuf::from("h")));
        let o = run(&["--baseline"], &[]).unwrap();
        assert_eq!(o.baseline.as_deref(), Some("default"));
    }

    #[test]
    fn command_line_wins_over_env() {
        let o = run(
            &["--output-format=json"],
            &[("YARDSTICK_CALLGRIND_OUTPUT_FORMAT", "pretty-json")],
        )
        .unwrap();
        assert_eq!(o.output_format, OutputFormat::Json);
    }

    #[test]
    fn bad_values_name_the_flag() {
        let e = run(&["--output-format=xml"], &[]).unwrap_err();
        assert!(e.0.contains("xml"), "{e}");
        let e = run(&["--regression=Ir"], &[]).unwrap_err();
        assert!(e.0.contains("--regression"), "{e}");
        let e = run(&["--frobnicate"], &[]).unwrap_err();
        assert!(e.0.contains("--frobnicate"), "{e}");
        let e = run(&["--load-baseline=a"], &[]).unwrap_err();
        assert!(e.0.contains("--baseline"), "{e}");
    }

    #[test]
    fn iai_callgrinds_variables_are_read_after_ours() {
        let o = run(
            &[],
            &[
                ("IAI_CALLGRIND_SAVE_BASELINE", "iai"),
                ("IAI_CALLGRIND_CALLGRIND_ARGS", "--cache-sim=no"),
                ("IAI_CALLGRIND_NOCAPTURE", "stdout"),
                ("IAI_CALLGRIND_REGRESSION", "Ir=5"),
                ("YARDSTICK_CALLGRIND_BASELINE", "ours"),
                ("IAI_CALLGRIND_BASELINE", "theirs"),
            ],
        )
        .unwrap();
        assert_eq!(o.save_baseline.as_deref(), Some("iai"));
        assert_eq!(o.callgrind_args, vec!["--cache-sim=no"]);
        assert_eq!(o.nocapture, NoCapture::Stdout);
        assert_eq!(o.regression, Some(vec![(EventKind::Ir, 5.0)]));
        assert_eq!(o.baseline.as_deref(), Some("ours"));
    }

    #[test]
    fn colour_choice() {
        assert_eq!(run(&[], &[]).unwrap().color, Color::Auto);
        assert_eq!(run(&[], &[("NO_COLOR", "1")]).unwrap().color, Color::Never);
        let o = run(&[], &[("NO_COLOR", "1"), ("IAI_CALLGRIND_COLOR", "always")]).unwrap();
        assert_eq!(o.color, Color::Always);
        assert_eq!(
            run(&[], &[("CARGO_TERM_COLOR", "never")]).unwrap().color,
            Color::Never
        );
        let o = run(&["--color", "always"], &[("CARGO_TERM_COLOR", "never")]).unwrap();
        assert_eq!(o.color, Color::Always);
        assert!(run(&["--color=pink"], &[]).is_err());
    }

    #[test]
    fn regression_specs() {
        assert_eq!(
            parse_regression("Ir=5, EstimatedCycles=-2.5").unwrap(),
            vec![(EventKind::Ir, 5.0), (EventKind::EstimatedCycles, -2.5)]
        );
    }
}
