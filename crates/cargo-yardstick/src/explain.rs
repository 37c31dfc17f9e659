//! `cargo yardstick explain [FILTER] [--all] [--baseline NAME] [--format
//! text|json] [--home DIR]`: the last run's verdicts explained by the
//! instructions that changed, as `cargo bench -- --explain` explains them
//! at the end of a run (the harness's `yardstick::explain` does the work).
//!
//! For each benchmark whose last comparison (`change/estimates.json`)
//! lies wholly beyond 1 % (the rule for a change read back from disk), or
//! every benchmark FILTER selects with `--all`, it runs the benchmark in
//! the baseline's binary (`change/binary.json`, the one the change was
//! measured against; or `<NAME>/binary.json` with `--baseline NAME`) and in
//! the last run's (`new/binary.json`) under Callgrind, and compares them.

use std::path::{Path, PathBuf};

use clap::Args;

use yardstick::explain::{self, ExplainFile, ExplainRun, NotExplained, Target};
use yardstick_format::binary::{self, BinaryFile};
use yardstick_format::messages::{ChangeType, ConfidenceInterval};
use yardstick_report::StoredBenchmark;

use crate::args::HomeArg;

/// `explain` arguments.
#[derive(Debug, Clone, Args)]
pub struct ExplainArgs {
    /// Only benchmarks whose id matches this regular expression.
    pub filter: Option<String>,
    /// Every benchmark the filter selects, changed or not.
    #[arg(long)]
    pub all: bool,
    /// Compare with this saved baseline's binary instead of the one the
    /// last change was measured against.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// `text`, or `json` (one document, schema explain.v1.json's
    /// ExplainRun).
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    #[command(flatten)]
    pub home: HomeArg,
}

/// Runs `explain`; the exit status (2 on bad input). Explanations that
/// fail are one line each and leave the status alone: the verdicts stand.
///
/// # Errors
///
/// A bad filter, an unreadable home, or no Valgrind: one line.
pub fn run(args: &ExplainArgs) -> Result<u8, String> {
    let filter = match &args.filter {
        Some(f) => Some(regex_lite::Regex::new(f).map_err(|e| format!("bad filter '{f}': {e}"))?),
        None => None,
    };
    let home = args.home.resolve();
    let (stored, _unreadable) = yardstick_report::discover(&home)
        .map_err(|e| format!("cannot read the results in {}: {e}", home.display()))?;
    let chosen: Vec<&StoredBenchmark> = stored
        .iter()
        .filter(|b| {
            filter
                .as_ref()
                .map_or(true, |f| f.is_match(&b.record.full_id))
        })
        .filter(|b| args.all || changed(b))
        .collect();
    let json = args.format == "json";
    if chosen.is_empty() {
        let none = "no benchmark to explain: none of the last run's comparisons changed beyond 1% (--all explains every benchmark the filter selects)";
        return say(json, &empty_run(), none);
    }
    explain::valgrind().map_err(|missing| format!("{missing}; the verdicts stand"))?;
    let mut run = empty_run();
    for b in chosen {
        let id = b.record.full_id.clone();
        match explain_one(&home, b, args.baseline.as_deref()) {
            Ok(e) => {
                if !json {
                    println!("{}", explain::render(&e).trim_end());
                }
                run.explained.push(e);
            }
            Err(reason) => {
                eprintln!("{}", explain::not_explained_line(&id, &reason));
                run.not_explained.push(NotExplained { id, reason });
            }
        }
    }
    if json {
        println!("{}", yardstick_format::json::to_string_pretty(&run));
    }
    Ok(0)
}

fn empty_run() -> ExplainRun {
    ExplainRun {
        version: yardstick_format::explain::VERSION,
        explained: Vec::new(),
        not_explained: Vec::new(),
    }
}

fn say(json: bool, run: &ExplainRun, line: &str) -> Result<u8, String> {
    if json {
        println!("{}", yardstick_format::json::to_string_pretty(run));
    }
    eprintln!("{line}");
    Ok(0)
}

/// Whether the last comparison's mean lies wholly beyond 1 %.
fn changed(b: &StoredBenchmark) -> bool {
    b.change.as_ref().is_some_and(|c| {
        let ci = &c.mean.confidence_interval;
        let mean =
            ConfidenceInterval::new(c.mean.point_estimate, ci.lower_bound, ci.upper_bound, "");
        ChangeType::from_verdict(None, &mean) != ChangeType::NoChange
    })
}

fn explain_one(
    home: &Path,
    b: &StoredBenchmark,
    baseline: Option<&str>,
) -> Result<ExplainFile, String> {
    let current = kept(home, &b.dir.join("new"))?.ok_or(
        "the last run was saved without its binary (by Criterion.rs or an earlier yardstick)",
    )?;
    let (folder, missing) = match baseline {
        Some(name) => (b.dir.join(name), format!("baseline '{name}' has no kept binary")),
        None => (
            b.dir.join("change"),
            "the last comparison did not keep the baseline's binary (run the baseline again, then the change)".to_owned(),
        ),
    };
    let baseline = kept(home, &folder)?.ok_or(missing)?;
    let per_iteration_ns = b
        .estimates
        .slope
        .as_ref()
        .unwrap_or(&b.estimates.mean)
        .point_estimate;
    let target = Target {
        id: b.record.full_id.clone(),
        baseline,
        current,
        per_iteration_ns,
        cwd: None,
    };
    let dir = b.dir.join("explain");
    let e = explain::explain(&target, &dir)?;
    explain::save(&e, &dir)?;
    rewrite_page(home, b);
    Ok(e)
}

/// The benchmark's report page, when the run wrote one, written again
/// with the explanation beside its verdict (as `cargo yardstick report`
/// writes it), against the baseline the run compared with
/// (`change/verdict.json` names it; `base` in files of an earlier
/// yardstick), so that the page shows the comparison it showed. A page
/// that cannot be written is a warning: the explanation stands.
fn rewrite_page(home: &Path, b: &StoredBenchmark) {
    if !b.dir.join("report/index.html").is_file() {
        return;
    }
    let opts = yardstick_report::RegenerateOptions {
        baseline_of_run: true,
        ..yardstick_report::RegenerateOptions::default()
    };
    if let Err(e) =
        yardstick_report::write_benchmark_from_disk(home, &b.record.directory_name, &opts)
    {
        eprintln!(
            "warning: the report of {} was not written with its explanation: {e}",
            yardstick_format::names::one_line(&b.record.full_id)
        );
    }
}

/// The kept binary `folder/binary.json` names, if it names one that is
/// still there.
fn kept(home: &Path, folder: &Path) -> Result<Option<PathBuf>, String> {
    let path = folder.join("binary.json");
    if !path.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let record: BinaryFile =
        yardstick_format::json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let exe = binary::kept_path(home, &record.key(), &record.binary);
    if exe.exists() {
        // Run only what the run itself would: a planted or rewritten file
        // is refused here as in lock-step.
        yardstick::kept_binary_checked(&exe)?;
        Ok(Some(exe))
    } else {
        Err(format!(
            "the binary {} names is gone (cleaned up: cargo yardstick binaries lists those kept)",
            path.display()
        ))
    }
}
