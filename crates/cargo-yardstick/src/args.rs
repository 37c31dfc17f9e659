//! The argument types several subcommands share: where the history lives,
//! how a table is printed, and a subcommand's own flags taken out of a
//! command line meant for `cargo bench`. Below `cli.rs` (the command line as
//! a whole) and the subcommands, so that each subcommand keeps its own
//! argument type without importing the parser that collects them.

use std::path::PathBuf;

use clap::Args;

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

/// Output format of tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Aligned plain text.
    Terminal,
    /// A GitHub-flavoured markdown table.
    Markdown,
}

/// Output format of a verdict table (`ab`, `merge`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum VerdictFormat {
    /// Aligned plain text.
    Terminal,
    /// A GitHub-flavoured markdown table.
    Markdown,
    /// The machine-readable result (`ab-result.v1.json`), which `cargo
    /// yardstick merge` reads.
    Json,
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
