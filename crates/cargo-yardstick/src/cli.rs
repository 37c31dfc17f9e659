//! The command line: parsed by clap, validated into an [`AnalyzeConfig`].

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

#[derive(Debug, Subcommand)]
enum Command {
    /// Analyze Criterion.rs raw.csv files and print one JSON document.
    Analyze(AnalyzeArgs),
}

#[derive(Debug, Args)]
struct AnalyzeArgs {
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
        Command::Analyze(a) => {
            if !(a.confidence > 0.0 && a.confidence < 100.0) {
                return Err(CliError::Invalid(format!(
                    "--confidence must be a percentage strictly between 0 and 100 (e.g. 95), got {}",
                    a.confidence
                )));
            }
            if a.nresamples == 0 {
                return Err(CliError::Invalid(
                    "--nresamples must be at least 1 (Criterion.rs uses 100000)".to_owned(),
                ));
            }
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
