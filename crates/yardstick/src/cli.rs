//! The bench binary's command line, turned into a validated [`Args`].
//!
//! Every option can also come from a `YARDSTICK_*` environment variable
//! (`--sample-size` ← `YARDSTICK_SAMPLE_SIZE`); the command line wins.

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use lexopt::prelude::*;

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
    pub timeout: Option<Duration>,
    pub min_time: Option<Duration>,
    pub processes: Option<usize>,
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

pub(crate) const VALUE_OPTIONS: &[&str] = &[
    "save-baseline",
    "baseline",
    "baseline-lenient",
    "load-baseline",
    "sample-size",
    "warm-up-time",
    "measurement-time",
    "nresamples",
    "noise-threshold",
    "confidence-level",
    "significance-level",
    "profile-time",
    "target-precision",
    "stdev",
    "timeout",
    "min-time",
    "processes",
    "color",
    "output-format",
    "plotting-backend",
    "home",
    "csv",
    "baseline-csv",
    "fail-if-slower",
    "fail-if-faster",
    "confidence",
    "measure",
    "message-format",
    "message-file",
    "time-mode",
    "svg",
    "template",
    "template-output",
];

const FLAG_OPTIONS: &[&str] = &[
    "discard-baseline",
    "noplot",
    "quick",
    "verbose",
    "quiet",
    "hide-successes",
];

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
        for name in VALUE_OPTIONS.iter().chain(FLAG_OPTIONS) {
            let var = format!("YARDSTICK_{}", name.replace('-', "_").to_uppercase());
            if let Some((_, value)) = env.iter().find(|(k, _)| *k == var) {
                if FLAG_OPTIONS.contains(name) {
                    if !matches!(value.as_str(), "" | "0" | "false") {
                        b.flag(name)?;
                    }
                } else {
                    b.value(name, value, &var)?;
                }
            }
        }
        let mut parser = lexopt::Parser::from_args(args);
        while let Some(arg) = parser.next()? {
            match arg {
                Short('h') | Long("help") => b.help = true,
                Long("bench") => b.bench = true,
                Long("test") => b.test = true,
                Long("list") => b.list = true,
                Long("exact") => b.exact = true,
                Long("ignored") => b.ignored = true,
                Short('v') => b.flag("verbose")?,
                Short('q') => b.flag("quiet")?,
                Short('n') => b.flag("noplot")?,
                Short('s') => b.value_from(&mut parser, "save-baseline")?,
                Short('b') => b.value_from(&mut parser, "baseline")?,
                Short('c') => b.value_from(&mut parser, "color")?,
                // libtest's flags, which cargo and IDEs pass: accepted, unused.
                Long(
                    "nocapture"
                    | "show-output"
                    | "include-ignored"
                    | "force-run-in-process"
                    | "no-fail-fast",
                ) => {}
                Long("test-threads" | "format" | "logfile" | "skip" | "report-time")
                | Short('Z') => {
                    parser.value()?;
                }
                Long(name) if FLAG_OPTIONS.contains(&name) => {
                    let name = name.to_owned();
                    b.flag(&name)?;
                }
                Long(name) if VALUE_OPTIONS.contains(&name) => {
                    let name = name.to_owned();
                    b.value_from(&mut parser, &name)?;
                }
                Value(v) => b.filters.push(v.string()?),
                _ => return Err(arg.unexpected().into()),
            }
        }
        b.finish()
    }
}

#[derive(Default)]
struct Builder {
    help: bool,
    bench: bool,
    test: bool,
    list: bool,
    exact: bool,
    ignored: bool,
    filters: Vec<String>,
    values: Vec<(String, String)>,
    flags: Vec<String>,
}

impl Builder {
    fn flag(&mut self, name: &str) -> Result<(), CliError> {
        self.flags.push(name.to_owned());
        Ok(())
    }

    fn value(&mut self, name: &str, value: &str, _source: &str) -> Result<(), CliError> {
        self.values.retain(|(k, _)| k != name);
        self.values.push((name.to_owned(), value.to_owned()));
        Ok(())
    }

    fn value_from(&mut self, parser: &mut lexopt::Parser, name: &str) -> Result<(), CliError> {
        let v = parser
            .value()
            .map_err(|_| CliError(format!("--{name} needs a value")))?
            .into_string()
            .map_err(|_| CliError(format!("--{name}: the value is not valid UTF-8")))?;
        self.value(name, &v, "")
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    fn finish(self) -> Result<Args, CliError> {
        let sample_size = self
            .parse_num::<usize>("sample-size", "an integer of at least 10")?
            .map(|n| check(n, n >= 10, "sample-size", "an integer of at least 10"))
            .transpose()?;
        let processes_expected = "an integer from 1 (sample in this process) to 64";
        let processes = self
            .parse_num::<usize>("processes", processes_expected)?
            .map(|n| check(n, (1..=64).contains(&n), "processes", processes_expected))
            .transpose()?;
        let nresamples = self
            .parse_num::<usize>("nresamples", "a positive integer")?
            .map(|n| check(n, n > 0, "nresamples", "a positive integer"))
            .transpose()?;
        let noise_threshold = self
            .parse_num::<f64>("noise-threshold", "a fraction of at least 0, e.g. 0.02")?
            .map(|x| {
                check(
                    x,
                    x >= 0.0,
                    "noise-threshold",
                    "a fraction of at least 0, e.g. 0.02",
                )
            })
            .transpose()?;
        let mut confidence_level = self.unit_interval("confidence-level")?;
        if let Some(v) = self.get("confidence") {
            // rebar3_bench's --confidence, in percent.
            let expected = "one of 80, 90, 95, 98, 99 (percent)";
            let p: f64 = v
                .trim()
                .parse()
                .map_err(|_| bad("confidence", v, expected))?;
            if !(p > 0.0 && p < 100.0) {
                return Err(bad("confidence", v, expected));
            }
            if confidence_level.is_some() {
                return Err(CliError(
                    "--confidence and --confidence-level are the same option; give one".into(),
                ));
            }
            confidence_level = Some(p / 100.0);
        }
        let percent = |name: &str| -> Result<Option<f64>, CliError> {
            let expected = "a percentage of at least 0, e.g. 10";
            self.parse_num::<f64>(name, expected)?
                .map(|p| check(p, p.is_finite() && p >= 0.0, name, expected).map(|p| p / 100.0))
                .transpose()
        };
        let metrics = self
            .get("measure")
            .map(|list| {
                crate::meters::parse_metrics(list).map_err(|e| CliError(format!("--measure: {e}")))
            })
            .transpose()?;
        let json_messages = match self.get("message-format") {
            None | Some("human") => false,
            Some("json") => true,
            Some(v) => return Err(bad("message-format", v, "json or human")),
        };
        let time_mode = match self.get("time-mode") {
            None => None,
            Some("wall") => Some(crate::measurement::TimeMode::Wall),
            Some("cpu") => Some(crate::measurement::TimeMode::ProcessCpu),
            Some("thread-cpu") => Some(crate::measurement::TimeMode::ThreadCpu),
            Some(v) => return Err(bad("time-mode", v, "one of wall, cpu, thread-cpu")),
        };
        let fail_if_slower = percent("fail-if-slower")?;
        let fail_if_faster = percent("fail-if-faster")?;
        let significance_level = self.unit_interval("significance-level")?;
        let warm_up_time = self.seconds("warm-up-time")?;
        let measurement_time = self.seconds("measurement-time")?;
        let profile_time = self.seconds("profile-time")?;
        let timeout = self.seconds("timeout")?;
        // 0 is allowed: stop as soon as the precision is reached.
        let min_time = self
            .parse_num::<f64>("min-time", "a number of seconds, 0 or more, e.g. 0.5")?
            .map(|x| {
                check(
                    x,
                    x.is_finite() && (0.0..1e9).contains(&x),
                    "min-time",
                    "a number of seconds, 0 or more, e.g. 0.5",
                )
                .map(Duration::from_secs_f64)
            })
            .transpose()?;
        let precision = |name: &str, max: f64| -> Result<Option<f64>, CliError> {
            let expected = "a percentage above 0, e.g. 1 for ±1 %";
            self.parse_num::<f64>(name, expected)?
                .map(|p| check(p, p > 0.0 && p < max, name, expected).map(|p| p / 100.0))
                .transpose()
        };
        let target_precision = precision("target-precision", 100.0)?;
        // tasty-bench's rule and the interval's are two ways to stop; a
        // relative standard deviation may exceed 100 %, as tasty-bench's.
        let stdev = precision("stdev", f64::INFINITY)?;
        if target_precision.is_some() && stdev.is_some() {
            return Err(CliError(
                "--stdev (tasty-bench's stopping rule) and --target-precision (the interval's) choose different sampling; give one".into(),
            ));
        }

        let color = match self.get("color") {
            None | Some("auto") => Color::Auto,
            Some("always") => Color::Always,
            Some("never") => Color::Never,
            Some(v) => return Err(bad("color", v, "one of auto, always, never")),
        };
        let output_format = match self.get("output-format") {
            None | Some("criterion") => OutputFormat::Criterion,
            Some("bencher") => OutputFormat::Bencher,
            Some("tasty") => OutputFormat::Tasty,
            Some("tasty-flat") => OutputFormat::TastyFlat,
            Some("stats") => OutputFormat::Stats,
            Some("markdown") => OutputFormat::Markdown,
            Some("table") => OutputFormat::Table,
            Some(v) => {
                return Err(bad(
                    "output-format",
                    v,
                    "one of criterion, bencher, tasty, tasty-flat, stats, markdown, table",
                ))
            }
        };
        if let Some(v) = self.get("plotting-backend") {
            if !matches!(v, "gnuplot" | "plotters") {
                return Err(bad("plotting-backend", v, "one of gnuplot, plotters"));
            }
        }

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

        let verbosity = match (self.has("verbose"), self.has("quiet")) {
            (true, true) => {
                return Err(CliError(
                    "--verbose and --quiet cannot be used together".into(),
                ))
            }
            (true, false) => Verbosity::Verbose,
            (false, true) => Verbosity::Quiet,
            (false, false) => Verbosity::Normal,
        };

        // As libtest and Criterion.rs: without --bench (cargo test --benches
        // runs the binary so), each benchmark runs once as a test.
        let mode = if self.list {
            Mode::List
        } else if self.test || !self.bench {
            Mode::Test
        } else if let Some(t) = profile_time {
            Mode::Profile(t)
        } else {
            Mode::Benchmark
        };

        Ok(Args {
            mode,
            filters: self.filters.clone(),
            exact: self.exact,
            ignored: self.ignored,
            baseline: baselines.pop().map(|(_, b)| b),
            load_baseline,
            sample_size,
            warm_up_time,
            measurement_time,
            nresamples,
            noise_threshold,
            confidence_level,
            significance_level,
            target_precision,
            stdev,
            timeout,
            min_time,
            processes,
            noplot: self.has("noplot"),
            quick: self.has("quick"),
            verbosity,
            color,
            output_format,
            home: self.get("home").map(PathBuf::from),
            csv: self.get("csv").map(PathBuf::from),
            baseline_csv: self.get("baseline-csv").map(PathBuf::from),
            fail_if_slower,
            fail_if_faster,
            hide_successes: self.has("hide-successes"),
            metrics,
            json_messages,
            time_mode,
            svg: self.get("svg").map(PathBuf::from),
            template: self.get("template").map(str::to_owned),
            template_output: self.get("template-output").map(PathBuf::from),
            message_file: self.get("message-file").map(PathBuf::from),
            help: self.help,
        })
    }

    fn parse_num<T: std::str::FromStr>(
        &self,
        name: &str,
        expected: &str,
    ) -> Result<Option<T>, CliError> {
        self.get(name)
            .map(|v| v.trim().parse::<T>().map_err(|_| bad(name, v, expected)))
            .transpose()
    }

    fn unit_interval(&self, name: &str) -> Result<Option<f64>, CliError> {
        let expected = "a number strictly between 0 and 1, e.g. 0.95";
        self.parse_num::<f64>(name, expected)?
            .map(|x| check(x, x > 0.0 && x < 1.0, name, expected))
            .transpose()
    }

    fn seconds(&self, name: &str) -> Result<Option<Duration>, CliError> {
        let expected = "a positive number of seconds, e.g. 2.5";
        self.parse_num::<f64>(name, expected)?
            .map(|x| {
                check(x, x.is_finite() && x > 0.0 && x < 1e9, name, expected)
                    .map(Duration::from_secs_f64)
            })
            .transpose()
    }
}

fn check<T: fmt::Display>(x: T, ok: bool, name: &str, expected: &str) -> Result<T, CliError> {
    if ok {
        Ok(x)
    } else {
        Err(bad(name, &x.to_string(), expected))
    }
}

fn bad(name: &str, value: &str, expected: &str) -> CliError {
    CliError(format!(
        "invalid value '{value}' for --{name}: expected {expected}"
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

/// The text of `--help`.
pub(crate) const HELP: &str = "\
Runs the benchmarks of this binary (yardstick, a Criterion.rs-compatible harness).

Usage: cargo bench [--bench NAME] -- [OPTIONS] [FILTER]...

Arguments:
  [FILTER]...  Run only benchmarks whose id matches (a regex; a plain substring works)

Options:
      --exact                        Match FILTER against the whole id, literally
      --list                         List the benchmarks (`<id>: benchmark`) and exit
      --ignored                      Run only ignored benchmarks (yardstick has none)
      --test                         Run each benchmark once, as a test (the default without --bench)
  -s, --save-baseline <NAME>         Save results under NAME (default: base)
  -b, --baseline <NAME>              Compare with baseline NAME, which must exist; save nothing
      --baseline-lenient <NAME>      Compare with baseline NAME when it exists; save nothing
      --load-baseline <NAME>         Analyse saved baseline NAME instead of running (needs --baseline)
      --discard-baseline             Neither compare nor save
      --sample-size <N>              Samples per benchmark (at least 10; default 100)
      --warm-up-time <SECS>          Warm-up time (default 3)
      --measurement-time <SECS>      Target measurement time (default 5)
      --nresamples <N>               Bootstrap resamples (default 100000)
      --noise-threshold <FRACTION>   Changes smaller than this are noise (default 0.01)
      --confidence-level <LEVEL>     Confidence level of intervals (default 0.95)
      --significance-level <LEVEL>   Significance level of the change test (default 0.05)
      --target-precision <PERCENT>   Sample until the 95% interval is within ±PERCENT (default 1)
      --stdev <PERCENT>              tasty-bench's rule instead: double the iterations until the
                                     relative standard deviation of its estimate is below PERCENT
      --timeout <SECS>               Stop sampling a benchmark after this long (default 5)
      --min-time <SECS>              Sample at least this long, precise or not (default 0.5)
      --processes <N>                Sample each benchmark in up to N worker processes, so its
                                     interval carries run-to-run noise (default 10; 1: in this one)
      --quick                        Stop as soon as two measurements agree (tasty-bench's rule)
      --profile-time <SECS>          Iterate each benchmark this long without analysis (profilers)
  -n, --noplot                       Write no HTML report
      --home <DIR>                   Where results go (default: target/criterion)
  -v, --verbose                      Print slope, mean, median and their spreads
      --quiet                        Print only the result lines
  -c, --color <WHEN>                 auto, always or never (honours NO_COLOR and CARGO_TERM_COLOR)
      --output-format <FORMAT>       criterion (default), bencher (`test id ... bench: N ns/iter`),
                                     tasty (`All`, groups, `id: OK (0.44s)` / `53 ns ± 2.7 ns`),
                                     tasty-flat (the same, whole ids), stats (rebar3_bench),
                                     markdown (a table of the run, for CI step summaries) or
                                     table (nanobench's: ns/op, op/s, err%, ins/op, cyc/op, IPC, …)
      --time-mode <MODE>             What time is: wall (default), cpu (the process's CPU time, as
                                     tasty-bench) or thread-cpu (the benchmark thread's)
      --measure <LIST>               Also measure, per iteration: wall, cpu, thread-cpu, instructions,
                                     cycles, branches, branch-misses, cache-references, cache-misses,
                                     task-clock, context-switches, cpu-migrations, page-faults, allocs
                                     (needs yardstick's counting allocator), counters, all
      --message-format <json|human>  json: cargo-criterion's messages, one JSON line per benchmark
                                     and group, to --message-file FILE (appended) or to stdout
      --svg <FILE>                   Write one SVG of every benchmark's mean and interval (tasty-bench)
      --template <NAME|FILE>         Render the run with a template: csv, json, html, pyperf or a file
                                     (needs the `templates` feature)
      --template-output <FILE>       Where the template's output goes (default: stdout)
      --csv <FILE>                   Write tasty-bench's CSV of results (Name,Mean (ps),2*Stdev (ps))
      --baseline-csv <FILE>          Compare with such a CSV (`8% more than baseline`)
      --fail-if-slower <PERCENT>     Fail benchmarks more than PERCENT slower than the baseline
      --fail-if-faster <PERCENT>     Fail benchmarks more than PERCENT faster than the baseline
      --hide-successes               Print only benchmarks that failed
      --confidence <PERCENT>         rebar3_bench's name for --confidence-level, in percent (95)
      --plotting-backend <NAME>      Accepted for compatibility (gnuplot, plotters)
  -h, --help                         Print this help

Without --sample-size or --measurement-time (in code or here), each benchmark is
sampled adaptively: until its estimate is within the target precision or the
time-out passes. With either, sampling is exactly Criterion.rs's.

Every option can be set by an environment variable: YARDSTICK_SAMPLE_SIZE=20 is
--sample-size 20. The home directory is, in order: --home, YARDSTICK_HOME,
CRITERION_HOME, $CARGO_TARGET_DIR/criterion, then the target folder of the binary.
libtest's --nocapture, --show-output, --test-threads, --format and -Z are accepted
and ignored.
";

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
            "invalid value 'abc' for --sample-size: expected an integer of at least 10"
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
        let env = [("YARDSTICK_SAMPLE_SIZE".to_owned(), "x".to_owned())];
        assert!(Args::parse(["--bench"], &env).is_err());
    }
}
