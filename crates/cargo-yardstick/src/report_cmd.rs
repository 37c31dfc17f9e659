//! `cargo yardstick report`: regenerate the whole HTML report from the
//! files under the home directory.

use std::process::{Command, Stdio};

use yardstick_report::{write_all, RegenerateOptions};

use crate::args::HomeArg;
use crate::failure::Failure;

/// `report` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// Open the index in a browser afterwards (xdg-open / open / $BROWSER).
    #[arg(long)]
    pub open: bool,
    /// Bootstrap resamples of the recomputed distributions (the run's
    /// default is 100000; fewer is faster).
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    pub nresamples: usize,
    /// The baseline `new/` is compared with; by default the one each
    /// benchmark's last run compared with (`base` when its files do not
    /// say).
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Logarithmic axes on the group pages.
    #[arg(long)]
    pub log_scale: bool,
    #[command(flatten)]
    pub home: HomeArg,
    /// Noise threshold of the recomputed comparison (set by the
    /// configuration file's `noise_threshold`).
    #[arg(skip)]
    pub noise_threshold: Option<f64>,
}

/// Runs `report`; returns the exit status (1 when some benchmark could not
/// be rendered; the others are still written).
///
/// # Errors
///
/// A [`Failure`] when the home directory cannot be read or the index
/// cannot be written.
pub fn run(a: &ReportArgs) -> Result<u8, Failure> {
    if !(1..=yardstick_stats::MAX_NRESAMPLES).contains(&a.nresamples) {
        return Err(Failure {
            code: 2,
            message: "--nresamples must be from 1 to 10000000".into(),
        });
    }
    let home = a.home.resolve();
    if !home.is_dir() {
        return Err(Failure {
            code: 2,
            message: format!(
                "{}: no such home directory; run the benchmarks first or pass --home",
                home.display()
            ),
        });
    }
    let defaults = RegenerateOptions::default();
    let opts = RegenerateOptions {
        nresamples: a.nresamples,
        baseline: a
            .baseline
            .clone()
            .unwrap_or_else(|| defaults.baseline.clone()),
        baseline_of_run: a.baseline.is_none(),
        log_scale: a.log_scale,
        noise_threshold: a.noise_threshold.unwrap_or(defaults.noise_threshold),
        ..defaults
    };
    let done = write_all(&home, &opts).map_err(|e| Failure {
        code: 1,
        message: e.to_string(),
    })?;
    for p in &done.problems {
        eprintln!(
            "warning: {}",
            yardstick_format::names::terminal_text(&p.to_string())
        );
    }
    let index = home.join("report").join("index.html");
    println!(
        "wrote {} benchmark pages and {} group pages; index: {}",
        done.benchmarks,
        done.groups,
        index.display()
    );
    if a.open {
        open(&index);
    }
    Ok(u8::from(!done.problems.is_empty()))
}

fn open(path: &std::path::Path) {
    let browser = std::env::var("BROWSER").ok().filter(|b| !b.is_empty());
    let candidates: Vec<String> = browser
        .into_iter()
        .chain(["xdg-open".to_owned(), "open".to_owned()])
        .collect();
    for c in &candidates {
        let ok = Command::new(c)
            .arg(path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .is_ok();
        if ok {
            return;
        }
    }
    eprintln!(
        "warning: could not open a browser (tried {}); open {} yourself",
        candidates.join(", "),
        path.display()
    );
}
