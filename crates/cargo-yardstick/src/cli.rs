//! The command line: parsed by clap, validated into an [`Invocation`].

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// `cargo yardstick`: statistics for benchmark results.
#[derive(Debug, Parser)]
#[command(name = "cargo-yardstick", bin_name = "cargo yardstick", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands, as clap parses them.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Analyze Criterion.rs raw.csv files and print one JSON document.
    Analyze(AnalyzeArgs),
    /// Run `cargo bench` with a progress bar and record the run:
    /// `cargo yardstick bench [--home DIR] [--label NAME] [CARGO BENCH ARGS] [-- BENCH ARGS]`.
    #[command(disable_help_flag = true)]
    Bench {
        /// Everything after `bench`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Print the trend of every benchmark in the history, with level shifts,
    /// and write the history site (or export the runs with --export).
    History(HistoryArgs),
    /// Compare two runs, baselines, commits or branches.
    Compare(CompareArgs),
    /// Import another harness's results into the history.
    Import(ImportArgs),
    /// The CI gate: exit 3 when a benchmark regressed beyond a threshold.
    Check(CheckArgs),
    /// Benchmark shell commands like hyperfine (`--callgrind`: count their instructions).
    Exec(crate::exec::ExecArgs),
    /// Regenerate the whole HTML report from the files under the home directory.
    Report(crate::report_cmd::ReportArgs),
    /// Compare two git revisions in interleaved rounds (ABBA), paired by round.
    Ab(crate::ab::AbArgs),
    /// List the bench binaries kept with the baselines (measured in
    /// lock-step by the next `cargo bench`), or remove them.
    Binaries(crate::binaries::BinariesArgs),
    /// Measure each benchmark's run-to-run drift with A/A runs and write drift.json:
    /// `cargo yardstick calibrate [--runs N] [--home DIR] [CARGO BENCH ARGS] [-- BENCH ARGS]`.
    #[command(disable_help_flag = true)]
    Calibrate {
        /// Everything after `calibrate`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// Where the history lives.
#[derive(Debug, Clone, Args)]
pub struct HomeArg {
    /// The home directory (default: $YARDSTICK_HOME, $CRITERION_HOME,
    /// $CARGO_TARGET_DIR/criterion, then target/criterion in the workspace
    /// root).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
}

impl HomeArg {
    /// The home directory this invocation uses.
    #[must_use]
    pub fn resolve(&self) -> PathBuf {
        resolve_home(self.home.clone())
    }
}

/// The home directory, by the one order of [`yardstick_format::home`]:
/// the flag, `YARDSTICK_HOME`, `CRITERION_HOME`, `$CARGO_TARGET_DIR/criterion`,
/// then `target/criterion` in the workspace holding the working directory.
/// The tool's own executable says nothing about the user's target folder.
#[must_use]
pub fn resolve_home(flag: Option<PathBuf>) -> PathBuf {
    yardstick_format::home::resolve_here(&yardstick_format::home::CRITERION, flag.as_deref(), None)
}

/// How two runs are compared.
#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// Bootstrap resamples per comparison (the harness's default, so a
    /// comparison of saved samples reproduces its change/estimates.json).
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    pub nresamples: usize,
    /// Seed of the bootstrap (the harness's).
    #[arg(long, default_value_t = yardstick_stats::DEFAULT_SEED, value_name = "S")]
    pub seed: u64,
    /// Relative changes within ± this fraction are noise.
    #[arg(long, default_value_t = 0.01, value_name = "FRACTION")]
    pub noise_threshold: f64,
    /// p-value below which a change is significant.
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    pub significance_level: f64,
}

/// `history` arguments.
#[derive(Debug, Clone, Args)]
pub struct HistoryArgs {
    /// Only benchmarks whose id contains this.
    #[arg(default_value = "")]
    pub filter: String,
    /// Only the last N runs.
    #[arg(long, value_name = "N")]
    pub last: Option<i64>,
    /// The folder of the history site (default `<home>/history`).
    #[arg(long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Also show each benchmark's change since the newest run on this branch
    /// or with this label (default: main, else master, when runs are on it).
    #[arg(long, value_name = "BRANCH|LABEL")]
    pub reference: Option<String>,
    /// The site's title.
    #[arg(long, default_value = "Benchmark history", value_name = "TEXT")]
    pub title: String,
    /// Write every run (or the last N) as one JSON file per run into DIR,
    /// for `cargo yardstick import yardstick DIR` on another machine; no site.
    #[arg(long, value_name = "DIR")]
    pub export: Option<PathBuf>,
    /// Seed of the change-point permutation test.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    /// p-value below which a level shift is reported.
    #[arg(long, default_value_t = 0.01, value_name = "P")]
    pub alpha: f64,
    #[command(flatten)]
    pub home: HomeArg,
}

/// Output format of tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Aligned plain text.
    Terminal,
    /// A GitHub-flavoured markdown table.
    Markdown,
}

/// `compare` arguments.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// The old side: latest, latest~N, a run id, a label, a branch, a commit or a baseline name.
    /// Without it, the latest run before NEW that shares its benchmarks.
    pub old: Option<String>,
    /// The new side, as OLD.
    #[arg(default_value = "latest")]
    pub new: String,
    /// Table format.
    #[arg(long, value_enum, default_value_t = TableFormat::Terminal)]
    pub format: TableFormat,
    #[command(flatten)]
    pub stats: StatsArgs,
    #[command(flatten)]
    pub home: HomeArg,
}

/// `import` arguments.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// The format: yardstick (a `history --export` folder), criterion, cargo-criterion, google-benchmark, nanobench, pyperf, hyperfine, iai-callgrind (gungraun), tasty-bench.
    pub format: String,
    /// The file (or folder, for criterion and iai-callgrind).
    pub path: PathBuf,
    /// A label for the run, to name it in compare and check.
    #[arg(long, value_name = "NAME")]
    pub label: Option<String>,
    #[command(flatten)]
    pub home: HomeArg,
}

/// `check` arguments.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The baseline: a run id, label, branch, commit or baseline name.
    #[arg(long, value_name = "RUN")]
    pub against: String,
    /// The run checked.
    #[arg(long, default_value = "latest", value_name = "RUN")]
    pub run: String,
    /// Fail when a change's lower bound exceeds this fraction, significantly.
    #[arg(long, default_value_t = 0.05, value_name = "FRACTION")]
    pub threshold: f64,
    /// Fail when an exact count (instructions) grew by more than this fraction.
    #[arg(long, default_value_t = 0.01, value_name = "FRACTION")]
    pub instructions_threshold: f64,
    /// Also write the markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    #[command(flatten)]
    pub stats: StatsArgs,
    #[command(flatten)]
    pub home: HomeArg,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// A raw.csv file in the Criterion.rs format (one or more benchmarks).
    file: PathBuf,
    /// A raw.csv file of an earlier run to compare against.
    #[arg(long, value_name = "OLD.csv")]
    baseline: Option<PathBuf>,
    /// Confidence level of every interval, in percent.
    #[arg(long, default_value_t = 95.0, value_name = "PERCENT")]
    confidence: f64,
    /// Bootstrap resamples per estimate.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    nresamples: usize,
    /// Seed of the bootstrap; the same seed gives the same numbers.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// Relative changes of the mean within ± this fraction are noise.
    #[arg(long, default_value_t = 0.01, value_name = "FRACTION")]
    noise_threshold: f64,
    /// p-value below which a change is significant.
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    significance_level: f64,
}

/// A validated `analyze` invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalyzeConfig {
    /// The file to analyze.
    pub file: PathBuf,
    /// The baseline file, if any.
    pub baseline: Option<PathBuf>,
    /// Confidence level as a fraction (0.95).
    pub confidence: f64,
    /// Bootstrap resamples.
    pub nresamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Noise threshold as a fraction.
    pub noise_threshold: f64,
    /// Significance level.
    pub significance: f64,
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Invocation {
    /// Run `analyze`.
    Analyze(AnalyzeConfig),
    /// Run `bench`.
    Bench(BenchConfig),
    /// Run `calibrate`.
    Calibrate(crate::calibrate::CalibrateConfig),
    /// Run any other subcommand: its values checked, its arguments as clap
    /// parsed them.
    Parsed(Box<Command>),
}

/// A `bench` invocation: yardstick's own flags taken out of cargo's.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchConfig {
    /// `--home DIR`.
    pub home: PathBuf,
    /// `--label NAME`.
    pub label: Option<String>,
    /// Everything else, for `cargo bench` (with its `--`).
    pub args: Vec<String>,
}

fn bench_config(args: Vec<String>) -> Result<BenchConfig, CliError> {
    let (own, rest) = take_own_flags(args, &["--home", "--label"]).map_err(CliError::Invalid)?;
    let (mut home, mut label) = (None, None);
    for (flag, value) in own {
        match flag {
            "--home" => home = Some(PathBuf::from(value)),
            _ => label = Some(value),
        }
    }
    Ok(BenchConfig {
        home: resolve_home(home),
        label,
        args: rest,
    })
}

/// A subcommand's own flags and their values, in command-line order.
pub(crate) type OwnFlags = Vec<(&'static str, String)>;

/// Takes the subcommand's own flags (`--flag VALUE` or `--flag=VALUE`, each
/// one of `own`) out of a command line meant for `cargo bench`, up to a
/// `--`. Returns them in order, and the rest of the line as it was.
///
/// # Errors
///
/// One line, when a flag has no value.
pub(crate) fn take_own_flags(
    args: Vec<String>,
    own: &[&'static str],
) -> Result<(OwnFlags, Vec<String>), String> {
    let (mut taken, mut rest) = (Vec::new(), Vec::new());
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if a == "--" {
            rest.push(a);
            rest.extend(it.by_ref());
            break;
        }
        let (name, inline) = a
            .split_once('=')
            .map_or((a.as_str(), None), |(f, v)| (f, Some(v)));
        let Some(&flag) = own.iter().find(|&&f| f == name) else {
            rest.push(a);
            continue;
        };
        let value = match inline {
            Some(v) => v.to_owned(),
            None => it.next().ok_or_else(|| format!("{flag} needs a value"))?,
        };
        taken.push((flag, value));
    }
    Ok((taken, rest))
}

fn check_fraction(flag: &str, v: f64) -> Result<(), CliError> {
    if v >= 0.0 && v.is_finite() {
        Ok(())
    } else {
        Err(CliError::Invalid(format!(
            "{flag} must be a non-negative fraction (e.g. 0.05), got {v}"
        )))
    }
}

/// Within yardstick-stats' bounds: enough resamples for an interval to
/// mean something, few enough to hold in memory.
fn check_nresamples(n: usize) -> Result<(), CliError> {
    if (yardstick_stats::MIN_NRESAMPLES..=yardstick_stats::MAX_NRESAMPLES).contains(&n) {
        Ok(())
    } else {
        Err(CliError::Invalid(format!(
            "--nresamples must be from 100 to 10000000 (Criterion.rs uses 100000), got {n}"
        )))
    }
}

fn check_stats(s: &StatsArgs) -> Result<(), CliError> {
    check_nresamples(s.nresamples)?;
    check_fraction("--noise-threshold", s.noise_threshold)?;
    if !(s.significance_level > 0.0 && s.significance_level < 1.0) {
        return Err(CliError::Invalid(format!(
            "--significance-level must be strictly between 0 and 1 (e.g. 0.05), got {}",
            s.significance_level
        )));
    }
    Ok(())
}

/// Why the command line was not accepted.
#[derive(Debug)]
pub enum CliError {
    /// clap's own error or help/version output: print it and exit with its
    /// code.
    Clap(clap::Error),
    /// A flag value out of range: one line naming the flag.
    Invalid(String),
}

/// Parses the arguments. Cargo runs `cargo-yardstick yardstick analyze …`
/// for `cargo yardstick analyze …`; both spellings are accepted.
///
/// # Errors
///
/// [`CliError`] for unknown flags, missing arguments or values out of range.
pub fn parse<I, T>(args: I) -> Result<Invocation, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    if args.get(1).is_some_and(|a| a == "yardstick") {
        args.remove(1);
    }
    let cli = Cli::try_parse_from(args).map_err(CliError::Clap)?;
    match cli.command {
        Command::Bench { args } => Ok(Invocation::Bench(bench_config(args)?)),
        Command::History(h) => {
            if !(h.alpha > 0.0 && h.alpha < 1.0) {
                return Err(CliError::Invalid(format!(
                    "--alpha must be strictly between 0 and 1 (e.g. 0.01), got {}",
                    h.alpha
                )));
            }
            if h.output.as_ref().is_some_and(|o| {
                o.extension()
                    .is_some_and(|x| x.eq_ignore_ascii_case("html"))
            }) {
                return Err(CliError::Invalid(
                    "--output names the history site's folder (it holds index.html, regressions.html and b/), not an .html file".into(),
                ));
            }
            Ok(Invocation::Parsed(Box::new(Command::History(h))))
        }
        Command::Compare(c) => {
            check_stats(&c.stats)?;
            Ok(Invocation::Parsed(Box::new(Command::Compare(c))))
        }
        Command::Check(c) => {
            check_stats(&c.stats)?;
            check_fraction("--threshold", c.threshold)?;
            check_fraction("--instructions-threshold", c.instructions_threshold)?;
            Ok(Invocation::Parsed(Box::new(Command::Check(c))))
        }
        command @ (Command::Import(_)
        | Command::Exec(_)
        | Command::Report(_)
        | Command::Ab(_)
        | Command::Binaries(_)) => Ok(Invocation::Parsed(Box::new(command))),
        Command::Calibrate { args } => crate::calibrate::parse(args)
            .map(Invocation::Calibrate)
            .map_err(CliError::Invalid),
        Command::Analyze(a) => {
            if !(a.confidence > 0.0 && a.confidence < 100.0) {
                return Err(CliError::Invalid(format!(
                    "--confidence must be a percentage strictly between 0 and 100 (e.g. 95), got {}",
                    a.confidence
                )));
            }
            check_nresamples(a.nresamples)?;
            if !(a.noise_threshold >= 0.0 && a.noise_threshold.is_finite()) {
                return Err(CliError::Invalid(format!(
                    "--noise-threshold must be a non-negative fraction (e.g. 0.01), got {}",
                    a.noise_threshold
                )));
            }
            if !(a.significance_level > 0.0 && a.significance_level < 1.0) {
                return Err(CliError::Invalid(format!(
                    "--significance-level must be strictly between 0 and 1 (e.g. 0.05), got {}",
                    a.significance_level
                )));
            }
            Ok(Invocation::Analyze(AnalyzeConfig {
                file: a.file,
                baseline: a.baseline,
                confidence: a.confidence / 100.0,
                nresamples: a.nresamples,
                seed: a.seed,
                noise_threshold: a.noise_threshold,
                significance: a.significance_level,
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(args: &[&str]) -> AnalyzeConfig {
        match parse(args.iter().copied()) {
            Ok(Invocation::Analyze(c)) => c,
            Ok(other) => panic!("{args:?}: {other:?}"),
            Err(e) => panic!("{args:?}: {e:?}"),
        }
    }

    #[test]
    fn cargo_subcommand_spelling_is_accepted() {
        let a = analyze(&["cargo-yardstick", "yardstick", "analyze", "x.csv"]);
        let b = analyze(&["cargo-yardstick", "analyze", "x.csv"]);
        assert_eq!(a, b);
        assert_eq!(a.confidence, 0.95);
        assert_eq!(a.nresamples, 100_000);
    }

    #[test]
    fn flags_are_parsed_and_checked() {
        let c = analyze(&[
            "cargo-yardstick",
            "analyze",
            "x.csv",
            "--baseline",
            "old.csv",
            "--confidence",
            "99",
            "--nresamples",
            "500",
            "--seed",
            "7",
        ]);
        assert_eq!(c.baseline, Some(PathBuf::from("old.csv")));
        assert_eq!((c.confidence, c.nresamples, c.seed), (0.99, 500, 7));
        assert!(matches!(
            parse([
                "cargo-yardstick",
                "analyze",
                "x.csv",
                "--confidence",
                "0.95x"
            ]),
            Err(CliError::Clap(_))
        ));
        assert!(matches!(
            parse(["cargo-yardstick", "analyze", "x.csv", "--confidence", "100"]),
            Err(CliError::Invalid(_))
        ));
    }
}
