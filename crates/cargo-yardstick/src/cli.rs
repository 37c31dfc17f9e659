//! The command line: parsed by clap, validated into an [`Invocation`].

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use yardstick_format::partition::Partition;

use crate::analyze::{AnalyzeArgs, AnalyzeConfig};
use crate::args::{resolve_home, take_own_flags, StatsArgs};
use crate::check::CheckArgs;
use crate::compare::CompareArgs;
use crate::help::{self, Passthrough};
use crate::history::HistoryArgs;
use crate::import::ImportArgs;

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
    /// `cargo yardstick bench [--home DIR] [--label NAME] [--partition hash:K/N|count:K/N] [CARGO BENCH ARGS] [-- BENCH ARGS]`.
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
    /// Merge the shards of one `ab` comparison (`--partition K/N --format
    /// json`, one file per CI runner) into one summary and exit status,
    /// the false-discovery control applied over the whole suite.
    Merge(crate::merge::MergeArgs),
    /// Explain the last run's verdicts by the instructions that changed:
    /// each changed benchmark run in the baseline's binary and the last
    /// run's under Callgrind (needs Valgrind).
    Explain(crate::explain::ExplainArgs),
    /// List the bench binaries kept with the baselines (measured in
    /// lock-step by the next `cargo bench`), or remove them.
    Binaries(crate::binaries::BinariesArgs),
    /// Set this project up so that every `cargo bench` samples code
    /// layouts: bench binaries link through yardstick's linker wrapper
    /// (`--remove` undoes it).
    Init(crate::init::InitArgs),
    /// Measure how noisy this machine is for benchmarks (clock, drift,
    /// governor, load, steal, VM…) and print each noise source with what
    /// to do about it.
    Doctor(crate::doctor::DoctorArgs),
    /// Measure each benchmark's run-to-run drift with A/A runs and write drift.json,
    /// or with `--layouts[=N]` how far relinking the same code moves it:
    /// `cargo yardstick calibrate [--runs N | --layouts[=N]] [--home DIR] [CARGO BENCH ARGS] [-- BENCH ARGS]`.
    #[command(disable_help_flag = true)]
    Calibrate {
        /// Everything after `calibrate`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
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
    /// Print the help of `bench` or `calibrate` (their own flags, then
    /// cargo bench's).
    Help(crate::help::Passthrough),
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
    /// `--partition hash:K/N|count:K/N`: passed on to every bench binary,
    /// and recorded with the run so that an import merges the shards.
    pub partition: Option<Partition>,
    /// Everything else, for `cargo bench` (with its `--`).
    pub args: Vec<String>,
}

fn bench_config(args: Vec<String>) -> Result<BenchConfig, CliError> {
    let (own, rest) =
        take_own_flags(args, &["--home", "--label", "--partition"]).map_err(CliError::Invalid)?;
    let (mut home, mut label, mut partition) = (None, None, None);
    for (flag, value) in own {
        match flag {
            "--home" => home = Some(PathBuf::from(value)),
            "--partition" => {
                partition =
                    Some(Partition::parse(&value, "--partition").map_err(CliError::Invalid)?);
            }
            _ => label = Some(value),
        }
    }
    Ok(BenchConfig {
        home: resolve_home(home),
        label,
        partition,
        args: rest,
    })
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
    // `help bench` says what `bench --help` says.
    if args.get(1).is_some_and(|a| a == "help") {
        if let Some(p) = args
            .get(2)
            .and_then(|a| a.to_str())
            .and_then(Passthrough::named)
        {
            return Ok(Invocation::Help(p));
        }
    }
    let cli = Cli::try_parse_from(args).map_err(CliError::Clap)?;
    match cli.command {
        Command::Bench { args } if help::asked(&args) => Ok(Invocation::Help(Passthrough::Bench)),
        Command::Calibrate { args } if help::asked(&args) => {
            Ok(Invocation::Help(Passthrough::Calibrate))
        }
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
        | Command::Merge(_)
        | Command::Explain(_)
        | Command::Binaries(_)
        | Command::Doctor(_)
        | Command::Init(_)) => Ok(Invocation::Parsed(Box::new(command))),
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
    fn partitions_of_bench_and_ab_are_checked_by_name() {
        let bench = |p: &str| parse(["cargo-yardstick", "bench", "--partition", p, "--", "x"]);
        match bench("count:2/3") {
            Ok(Invocation::Bench(b)) => {
                assert_eq!(
                    b.partition.map(|p| p.to_string()).as_deref(),
                    Some("count:2/3")
                );
                assert_eq!(b.args, ["--", "x"]);
            }
            other => panic!("{other:?}"),
        }
        for (value, why) in [
            ("hash:0/3", "names shard 0, outside 1 to 3"),
            ("count:4/3", "names shard 4, outside 1 to 3"),
            ("foo:1/2", "has an unknown kind 'foo'"),
            ("hash:1", "has no /N"),
        ] {
            match bench(value) {
                Err(CliError::Invalid(e)) => {
                    assert!(
                        e.starts_with(&format!("--partition: '{value}' {why}")),
                        "{e}"
                    );
                }
                other => panic!("{value}: {other:?}"),
            }
            let Ok(Invocation::Parsed(c)) = parse(["cargo-yardstick", "ab", "--partition", value])
            else {
                panic!("ab parses; the value is checked when it runs");
            };
            let Command::Ab(a) = *c else { panic!() };
            let (code, e) = crate::ab::run(&a).unwrap_err();
            assert_eq!(code, 2);
            assert!(
                e.starts_with(&format!("--partition: '{value}' {why}")),
                "{e}"
            );
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
