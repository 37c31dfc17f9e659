//! The bench binary's command line, turned into a validated [`Args`].
//!
//! Every option can also come from a `YARDSTICK_*` environment variable
//! (`--sample-size` ← `YARDSTICK_SAMPLE_SIZE`); the command line wins.

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use lexopt::prelude::*;

mod options;
use options::{Opt, OPTIONS};

/// What the binary was asked to do.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Mode {
    /// Measure and analyse (`cargo bench`).
    Benchmark,
    /// Run each benchmark once (`cargo test --benches`, or `--test`).
    Test,
    /// Print the benchmarks' ids.
    List,
    /// Iterate for this long without analysis, for a profiler.
    Profile(Duration),
}

/// What happens with baselines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Baseline {
    /// Compare with this baseline if present, then save the run under it.
    Save(String),
    /// Compare with this baseline; it must exist.
    CompareStrict(String),
    /// Compare with this baseline when it exists.
    CompareLenient(String),
    /// Neither compare nor save.
    Discard,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Color {
    Auto,
    Always,
    Never,
}

/// `--output-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputFormat {
    Criterion,
    Bencher,
    /// tasty-bench's tree: `All`, its groups, `name: OK (2.13s)` /
    /// `63 ns ± 3.4 ns`.
    Tasty,
    /// The same with the whole id on each line, no tree.
    TastyFlat,
    /// rebar3_bench's statistics block.
    Stats,
    /// A markdown table of the run at the end (CI step summaries).
    Markdown,
    /// nanobench's markdown table, a row per benchmark.
    Table,
    /// Nothing per benchmark: a front-end (yardstick-divan) prints its own
    /// table. Not a `--output-format` value.
    Silent,
}

impl OutputFormat {
    /// tasty-bench's lines, as a tree or flat.
    pub(crate) fn is_tasty(self) -> bool {
        matches!(self, OutputFormat::Tasty | OutputFormat::TastyFlat)
    }
}

/// How much the terminal output says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Verbosity {
    Quiet,
    Normal,
    Verbose,
}

/// The validated command line.
#[derive(Debug, Clone)]
pub(crate) struct Args {
    pub mode: Mode,
    pub filters: Vec<String>,
    pub exact: bool,
    /// `--partition`: only this shard's benchmarks, after the filter.
    pub partition: Option<yardstick_format::partition::Partition>,
    pub ignored: bool,
    pub baseline: Option<Baseline>,
    pub load_baseline: Option<String>,
    pub sample_size: Option<usize>,
    pub warm_up_time: Option<Duration>,
    pub measurement_time: Option<Duration>,
    pub nresamples: Option<usize>,
    pub noise_threshold: Option<f64>,
    pub confidence_level: Option<f64>,
    pub significance_level: Option<f64>,
    pub target_precision: Option<f64>,
    /// tasty-bench's `--stdev`, a fraction: its own stopping rule.
    pub stdev: Option<f64>,
    pub processes: Option<usize>,
    /// `--baseline-binary ignore`: compare with the baseline's saved
    /// numbers, not its kept binary in lock-step.
    pub ignore_baseline_binary: bool,
    /// `--complexity`: the Big-O table even when no model fits.
    pub complexity: bool,
    /// `--explain`: count instructions of the changed benchmarks.
    pub explain: bool,
    pub timeout: Option<Duration>,
    pub min_time: Option<Duration>,
    pub noplot: bool,
    pub quick: bool,
    pub verbosity: Verbosity,
    pub color: Color,
    pub output_format: OutputFormat,
    pub home: Option<PathBuf>,
    pub csv: Option<PathBuf>,
    pub baseline_csv: Option<PathBuf>,
    pub fail_if_slower: Option<f64>,
    pub fail_if_faster: Option<f64>,
    pub hide_successes: bool,
    pub metrics: Option<Vec<crate::meters::Metric>>,
    /// `--message-format json`: cargo-criterion's messages.
    pub json_messages: bool,
    pub time_mode: Option<crate::measurement::TimeMode>,
    pub svg: Option<PathBuf>,
    pub template: Option<String>,
    pub template_output: Option<PathBuf>,
    pub message_file: Option<PathBuf>,
    pub help: bool,
}

/// A bad flag or value; printed as one line, exit status 2.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<lexopt::Error> for CliError {
    fn from(e: lexopt::Error) -> Self {
        CliError(format!("{e} (run with --help for the list of options)"))
    }
}

impl Args {
    /// Reads the process's environment and command line.
    pub(crate) fn from_env() -> Result<Args, CliError> {
        let env: Vec<(String, String)> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .collect();
        Args::parse(std::env::args_os().skip(1), &env)
    }

    /// Parses `args` (without the program name) over the environment `env`.
    pub(crate) fn parse<I>(args: I, env: &[(String, String)]) -> Result<Args, CliError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut b = Builder::default();
        for opt in OPTIONS.iter().filter(|o| o.env) {
            let var = opt.env_var();
            if let Some((_, value)) = env.iter().find(|(k, _)| *k == var) {
                if opt.value.is_none() {
                    if !matches!(value.as_str(), "" | "0" | "false") {
                        b.flags.push(opt.long);
                    }
                } else {
                    b.value(opt, value, var)?;
                }
            }
        }
        let mut parser = lexopt::Parser::from_args(args);
        while let Some(arg) = parser.next()? {
            let opt = match &arg {
                Long(name) => options::by_long(name),
                Short(c) => options::by_short(*c),
                _ => None,
            };
            match (opt, arg) {
                (Some(opt), _) if opt.value.is_none() => b.flags.push(opt.long),
                (Some(opt), _) => {
                    let v = parser
                        .value()
                        .map_err(|_| CliError(format!("--{} needs a value", opt.long)))?
                        .into_string()
                        .map_err(|_| {
                            CliError(format!("--{}: the value is not valid UTF-8", opt.long))
                        })?;
                    b.value(opt, &v, format!("--{}", opt.long))?;
                }
                // libtest's flags, which cargo and IDEs pass: accepted, unused.
                (
                    None,
                    Long(
                        "nocapture"
                        | "show-output"
                        | "include-ignored"
                        | "force-run-in-process"
                        | "no-fail-fast",
                    ),
                ) => {}
                (None, Long("test-threads" | "format" | "logfile" | "skip" | "report-time"))
                | (None, Short('Z')) => {
                    parser.value()?;
                }
                (None, Value(v)) => b.filters.push(v.string()?),
                (None, arg) => return Err(arg.unexpected().into()),
            }
        }
        b.finish()
    }
}

/// The options as given: each value already checked against its bounds.
#[derive(Default)]
struct Builder {
    filters: Vec<String>,
    values: Vec<(&'static str, String)>,
    flags: Vec<&'static str>,
}

impl Builder {
    /// Records `value` of `opt`, from `source` (`--flag` or a variable),
    /// after checking its bounds: a bad value names where it came from.
    fn value(&mut self, opt: &'static Opt, value: &str, source: String) -> Result<(), CliError> {
        opt.check(value)
            .map_err(|expected| bad(&source, value, &expected))?;
        self.values.retain(|(k, _)| *k != opt.long);
        self.values.push((opt.long, value.trim().to_owned()));
        Ok(())
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    fn has(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }

    /// A checked number (the table's bounds hold, so it parses).
    fn number<T: std::str::FromStr>(&self, name: &str) -> Option<T> {
        self.get(name).and_then(|v| v.parse().ok())
    }

    fn seconds(&self, name: &str) -> Option<Duration> {
        self.number::<f64>(name).map(Duration::from_secs_f64)
    }

    fn percent(&self, name: &str) -> Option<f64> {
        self.number::<f64>(name).map(|p| p / 100.0)
    }

    fn path(&self, name: &str) -> Option<PathBuf> {
        self.get(name).map(PathBuf::from)
    }

    fn finish(self) -> Result<Args, CliError> {
        let confidence_level = match (self.number("confidence-level"), self.percent("confidence")) {
            (Some(_), Some(_)) => {
                return Err(CliError(
                    "--confidence and --confidence-level are the same option; give one".into(),
                ))
            }
            (level, percent) => level.or(percent),
        };
        if self.get("target-precision").is_some() && self.get("stdev").is_some() {
            return Err(CliError(
                "--stdev (tasty-bench's stopping rule) and --target-precision (the interval's) choose different sampling; give one".into(),
            ));
        }
        let metrics = self
            .get("measure")
            .map(|list| {
                crate::meters::parse_metrics(list).map_err(|e| CliError(format!("--measure: {e}")))
            })
            .transpose()?;
        let (baseline, load_baseline) = self.baselines()?;
        Ok(Args {
            mode: self.mode(),
            filters: self.filters.clone(),
            exact: self.has("exact"),
            partition: self
                .get("partition")
                .and_then(|v| yardstick_format::partition::Partition::from_text(v).ok()),
            ignored: self.has("ignored"),
            baseline,
            load_baseline,
            sample_size: self.number("sample-size"),
            warm_up_time: self.seconds("warm-up-time"),
            measurement_time: self.seconds("measurement-time"),
            nresamples: self.number("nresamples"),
            noise_threshold: self.number("noise-threshold"),
            confidence_level,
            significance_level: self.number("significance-level"),
            target_precision: self.percent("target-precision"),
            stdev: self.percent("stdev"),
            processes: self.number("processes"),
            ignore_baseline_binary: self.get("baseline-binary") == Some("ignore"),
            complexity: self.has("complexity"),
            explain: self.has("explain"),
            timeout: self.seconds("timeout"),
            min_time: self.seconds("min-time"),
            noplot: self.has("noplot"),
            quick: self.has("quick"),
            verbosity: self.verbosity()?,
            color: match self.get("color") {
                Some("always") => Color::Always,
                Some("never") => Color::Never,
                _ => Color::Auto,
            },
            output_format: self.output_format(),
            home: self.path("home"),
            csv: self.path("csv"),
            baseline_csv: self.path("baseline-csv"),
            fail_if_slower: self.percent("fail-if-slower"),
            fail_if_faster: self.percent("fail-if-faster"),
            hide_successes: self.has("hide-successes"),
            metrics,
            json_messages: self.get("message-format") == Some("json"),
            time_mode: self.get("time-mode").map(|m| match m {
                "cpu" => crate::measurement::TimeMode::ProcessCpu,
                "thread-cpu" => crate::measurement::TimeMode::ThreadCpu,
                _ => crate::measurement::TimeMode::Wall,
            }),
            svg: self.path("svg"),
            template: self.get("template").map(str::to_owned),
            template_output: self.path("template-output"),
            message_file: self.path("message-file"),
            help: self.has("help"),
        })
    }

    /// As libtest and Criterion.rs: without --bench (cargo test --benches
    /// runs the binary so), each benchmark runs once as a test.
    fn mode(&self) -> Mode {
        if self.has("list") {
            Mode::List
        } else if self.has("test") || !self.has("bench") {
            Mode::Test
        } else if let Some(t) = self.seconds("profile-time") {
            Mode::Profile(t)
        } else {
            Mode::Benchmark
        }
    }

    fn verbosity(&self) -> Result<Verbosity, CliError> {
        Ok(match (self.has("verbose"), self.has("quiet")) {
            (true, true) => {
                return Err(CliError(
                    "--verbose and --quiet cannot be used together".into(),
                ))
            }
            (true, false) => Verbosity::Verbose,
            (false, true) => Verbosity::Quiet,
            (false, false) => Verbosity::Normal,
        })
    }

    fn output_format(&self) -> OutputFormat {
        match self.get("output-format") {
            Some("bencher") => OutputFormat::Bencher,
            Some("tasty") => OutputFormat::Tasty,
            Some("tasty-flat") => OutputFormat::TastyFlat,
            Some("stats") => OutputFormat::Stats,
            Some("markdown") => OutputFormat::Markdown,
            Some("table") => OutputFormat::Table,
            _ => OutputFormat::Criterion,
        }
    }

    /// The baseline options, which exclude each other, and --load-baseline.
    fn baselines(&self) -> Result<(Option<Baseline>, Option<String>), CliError> {
        let mut baselines = Vec::new();
        if let Some(name) = self.get("save-baseline") {
            baselines.push(("--save-baseline", Baseline::Save(name.to_owned())));
        }
        if let Some(name) = self.get("baseline") {
            baselines.push(("--baseline", Baseline::CompareStrict(name.to_owned())));
        }
        if let Some(name) = self.get("baseline-lenient") {
            baselines.push((
                "--baseline-lenient",
                Baseline::CompareLenient(name.to_owned()),
            ));
        }
        if self.has("discard-baseline") {
            baselines.push(("--discard-baseline", Baseline::Discard));
        }
        if baselines.len() > 1 {
            return Err(CliError(format!(
                "{} and {} cannot be used together",
                baselines[0].0, baselines[1].0
            )));
        }
        for (_, b) in &baselines {
            if let Baseline::Save(n) | Baseline::CompareStrict(n) | Baseline::CompareLenient(n) = b
            {
                check_baseline_name(n)?;
            }
        }
        let load_baseline = self.get("load-baseline").map(str::to_owned);
        if let Some(name) = &load_baseline {
            check_baseline_name(name)?;
            if !matches!(
                baselines.first(),
                Some((_, Baseline::CompareStrict(_) | Baseline::CompareLenient(_)))
            ) {
                return Err(CliError(
                    "--load-baseline needs --baseline NAME (the baseline to compare it with)"
                        .into(),
                ));
            }
        }
        Ok((baselines.pop().map(|(_, b)| b), load_baseline))
    }
}

/// `source` is `--flag` or the `YARDSTICK_*` variable the value came from.
fn bad(source: &str, value: &str, expected: &str) -> CliError {
    CliError(format!(
        "invalid value '{value}' for {source}: expected {expected}"
    ))
}

/// Baseline names become folder names: keep them to one plain component.
fn check_baseline_name(name: &str) -> Result<(), CliError> {
    let reserved = matches!(name, "" | "." | ".." | "new" | "change" | "report");
    if reserved || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(CliError(format!(
            "invalid baseline name '{name}': use a plain name such as 'main' (not empty, no '/', not 'new', 'change' or 'report')"
        )));
    }
    Ok(())
}

/// Whether long option `--name` takes a value (for front-ends that pass
/// yardstick's options through).
pub(crate) fn takes_value(name: &str) -> bool {
    OPTIONS.iter().any(|o| o.long == name && o.value.is_some())
}

/// The text of `--help`; the options come from [`OPTIONS`].
pub(crate) fn help() -> String {
    format!(
        "\
Runs the benchmarks of this binary (yardstick, a Criterion.rs-compatible harness).

Usage: cargo bench [--bench NAME] -- [OPTIONS] [FILTER]...

Arguments:
  [FILTER]...  Run only benchmarks whose id matches (a regex; a plain substring works)

Options:
{}
Without --sample-size or --measurement-time (in code or here), each benchmark is
sampled adaptively: until its estimate is within the target precision or the
time-out passes. With either, sampling is exactly Criterion.rs's.

Every option can be set by an environment variable: YARDSTICK_SAMPLE_SIZE=20 is
--sample-size 20. The home directory is, in order: --home, YARDSTICK_HOME,
CRITERION_HOME, $CARGO_TARGET_DIR/criterion, the target folder of the binary,
then target/criterion in the workspace root.
libtest's --nocapture, --show-output, --test-threads, --format and -Z are accepted
and ignored.
",
        options::help_lines()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, CliError> {
        Args::parse(args.iter().copied(), &[])
    }

    #[test]
    fn cargo_bench_runs_benchmarks_and_cargo_test_runs_tests() {
        assert_eq!(parse(&["--bench"]).unwrap().mode, Mode::Benchmark);
        assert_eq!(parse(&[]).unwrap().mode, Mode::Test);
        assert_eq!(parse(&["--bench", "--test"]).unwrap().mode, Mode::Test);
        assert_eq!(
            parse(&["--list", "--format", "terse"]).unwrap().mode,
            Mode::List
        );
        assert_eq!(
            parse(&["--bench", "--profile-time", "2"]).unwrap().mode,
            Mode::Profile(Duration::from_secs(2))
        );
    }

    #[test]
    fn values_and_filters() {
        let a = parse(&[
            "--bench",
            "fib",
            "--sample-size=20",
            "--measurement-time",
            "0.5",
            "-s",
            "main",
            "--noise-threshold",
            "0.02",
        ])
        .unwrap();
        assert_eq!(a.filters, ["fib"]);
        assert_eq!(a.sample_size, Some(20));
        assert_eq!(a.measurement_time, Some(Duration::from_millis(500)));
        assert_eq!(a.baseline, Some(Baseline::Save("main".into())));
        assert_eq!(a.noise_threshold, Some(0.02));
        let a = parse(&["--bench", "--min-time", "0"]).unwrap();
        assert_eq!(a.min_time, Some(Duration::ZERO));
        assert!(parse(&["--bench", "--min-time", "-1"]).is_err());
        let a = parse(&["--bench", "--stdev", "5", "--timeout", "2"]).unwrap();
        assert_eq!((a.stdev, a.target_precision), (Some(0.05), None));
        assert!(parse(&["--stdev", "0"]).is_err());
        assert_eq!(a.timeout, Some(Duration::from_secs(2)));
        assert!(parse(&["--target-precision", "0"]).is_err());
        assert!(parse(&["--target-precision", "1", "--stdev", "2"]).is_err());
        let a = parse(&["--bench", "--measure", "cpu,page-faults"]).unwrap();
        assert_eq!(a.metrics.unwrap().len(), 2);
        let e = parse(&["--bench", "--measure", "cpu,bogus"]).unwrap_err();
        assert!(
            e.0.starts_with("--measure: ") && e.0.contains("bogus"),
            "{e}"
        );
    }

    #[test]
    fn libtest_flags_are_ignored() {
        let a = parse(&[
            "--bench",
            "--nocapture",
            "--test-threads",
            "1",
            "-Z",
            "unstable-options",
            "--show-output",
        ])
        .unwrap();
        assert!(a.filters.is_empty());
    }

    #[test]
    fn bad_values_name_the_flag() {
        let e = parse(&["--sample-size", "abc"]).unwrap_err();
        assert_eq!(
            e.0,
            "invalid value 'abc' for --sample-size: expected an integer from 10 to 100000"
        );
        let e = parse(&["--sample-size", "5"]).unwrap_err();
        assert!(e.0.contains("--sample-size"), "{e}");
        let e = parse(&["--confidence-level", "1.5"]).unwrap_err();
        assert!(e.0.contains("--confidence-level"), "{e}");
        let e = parse(&["--color", "purple"]).unwrap_err();
        assert!(e.0.contains("auto, always, never"), "{e}");
        let e = parse(&["--frobnicate"]).unwrap_err();
        assert!(e.0.contains("--frobnicate"), "{e}");
        let e = parse(&["--warm-up-time", "-1"]).unwrap_err();
        assert!(e.0.contains("--warm-up-time"), "{e}");
        let e = parse(&["--sample-size"]).unwrap_err();
        assert!(e.0.contains("--sample-size"), "{e}");
    }

    #[test]
    fn partitions_are_read_and_bad_ones_named() {
        let a = parse(&["--bench", "--partition", "count:2/3"]).unwrap();
        assert_eq!(
            a.partition.map(|p| p.to_string()).as_deref(),
            Some("count:2/3")
        );
        assert_eq!(parse(&["--bench"]).unwrap().partition, None);
        for (value, why) in [
            ("hash:0/3", "it names shard 0, outside 1 to 3"),
            ("count:4/3", "it names shard 4, outside 1 to 3"),
            ("foo:1/2", "it has an unknown kind 'foo'"),
            ("hash:1", "it has no /N"),
        ] {
            let e = parse(&["--partition", value]).unwrap_err();
            assert!(
                e.0.starts_with(&format!(
                    "invalid value '{value}' for --partition: expected hash:K/N or count:K/N"
                )),
                "{e}"
            );
            assert!(e.0.contains(why), "{e}");
        }
    }

    #[test]
    fn baseline_options_exclude_each_other() {
        assert!(parse(&["--save-baseline", "a", "--baseline", "b"]).is_err());
        assert!(parse(&["--load-baseline", "a"]).is_err());
        let a = parse(&["--bench", "--load-baseline", "new1", "--baseline", "old"]).unwrap();
        assert_eq!(a.load_baseline.as_deref(), Some("new1"));
        assert!(parse(&["--save-baseline", "../evil"]).is_err());
        assert!(parse(&["--save-baseline", "new"]).is_err());
    }

    #[test]
    fn environment_variables_set_options_and_flags_win() {
        let env = [
            ("YARDSTICK_SAMPLE_SIZE".to_owned(), "30".to_owned()),
            ("YARDSTICK_NOPLOT".to_owned(), "1".to_owned()),
        ];
        let a = Args::parse(["--bench"], &env).unwrap();
        assert_eq!(a.sample_size, Some(30));
        assert!(a.noplot);
        let a = Args::parse(["--bench", "--sample-size", "40"], &env).unwrap();
        assert_eq!(a.sample_size, Some(40));
        let env = [("YARDSTICK_SAMPLE_SIZE".to_owned(), "abc".to_owned())];
        assert_eq!(
            Args::parse(["--bench"], &env).unwrap_err().0,
            "invalid value 'abc' for YARDSTICK_SAMPLE_SIZE: expected an integer from 10 to 100000"
        );
    }

    #[test]
    fn numeric_options_are_bounded_at_their_extremes() {
        // The campaign's crashes: each is now one line naming the flag.
        for (flag, value) in [
            ("--sample-size", "100000000000"),
            ("--sample-size", "18446744073709551615"),
            ("--nresamples", "18446744073709551615"),
            ("--nresamples", "0"),
            ("--noise-threshold", "inf"),
            ("--noise-threshold", "NaN"),
            ("--measurement-time", "1e300"),
            ("--warm-up-time", "inf"),
            ("--timeout", "0"),
            ("--min-time", "-0.5"),
            ("--fail-if-slower", "inf"),
            ("--confidence", "85"),
            ("--stdev", "0"),
            ("--processes", "0"),
            ("--processes", "65"),
        ] {
            let e = parse(&["--bench", flag, value]).unwrap_err();
            assert!(
                e.0.starts_with(&format!("invalid value '{value}' for {flag}: expected ")),
                "{flag} {value}: {e}"
            );
            assert!(!e.0.contains('\n'), "{e}");
        }
        let a = parse(&["--bench", "--confidence", "90"]).unwrap();
        assert_eq!(a.confidence_level, Some(0.9));
        assert!(parse(&["--confidence", "90", "--confidence-level", "0.9"]).is_err());
    }
}
