#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod density;
mod disk;
mod error;
mod escape;
mod explained;
mod history;
mod markdown;
pub mod messages;
mod pages;
mod plots;
mod pyperf;
mod regenerate;
mod results;
mod summaries;
mod svg;
#[cfg(feature = "templates")]
mod template;
pub mod units;
mod write;

use std::path::Path;

use yardstick_format::criterion::{BenchmarkRecord, SavedSample};

pub use disk::{discover, StoredBenchmark};
pub use error::ReportError;
pub use explained::{load_explanation, Explanation};
pub use history::{
    write_history_site, HistoryRun, HistorySite, Series, SeriesPoint, Shift, SiteSummary,
};
pub use markdown::markdown_summary;
pub use plots::quick::quick_svg;
pub use pyperf::pyperf_json;
pub use regenerate::{
    load_results, write_all, write_benchmark_from_disk, RegenerateOptions, Regenerated,
    DEFAULT_SEED,
};
pub use results::{
    BenchmarkResult, BoxPlot, ChangeValue, EstimateValue, Outliers, RunResults, SampleValue,
    ThroughputValue,
};
#[cfg(feature = "templates")]
pub use template::{render_template, render_template_file, Builtin};

/// Everything the page of one benchmark shows, as the harness has it after
/// the analysis.
#[derive(Debug, Clone, Copy)]
pub struct BenchmarkReport<'a> {
    /// Who the benchmark is: id, throughput, folder.
    pub record: &'a BenchmarkRecord,
    /// This run's samples.
    pub sample: &'a SavedSample,
    /// The unit of the measured values: `ns` for wall time (scaled to
    /// ps/ns/µs/ms/s on the page); any other unit is shown as it is.
    pub unit: &'a str,
    /// The estimates of this run.
    pub estimates: &'a yardstick_stats::Estimates,
    /// Their bootstrap distributions; without them the distribution plots
    /// are left out (the numbers are still shown).
    pub distributions: Option<&'a yardstick_stats::Distributions>,
    /// The outlier classification of this run's per-iteration values.
    pub tukey: &'a yardstick_stats::Tukey,
    /// The run compared with (the previous run or a named baseline).
    pub baseline: Option<&'a SavedSample>,
    /// The change from `baseline`.
    pub change: Option<&'a yardstick_stats::Change>,
    /// The bootstrap distributions of the change (for its plots).
    pub change_distributions: Option<&'a yardstick_stats::ChangeDistributions>,
    /// How the change was measured in lock-step with the baseline's binary,
    /// when it was (its interval is then of the ratio of means alone: there
    /// is no median change).
    pub lockstep: Option<yardstick_format::change::LockstepFile>,
    /// What `--explain` found for this change ([`load_explanation`]):
    /// shown beside the verdict, with its differential flame graph.
    pub explanation: Option<&'a Explanation>,
    /// How this run's build differs from the baseline's, in the words of
    /// every comparison (`yardstick_format::build::compare_line`), when
    /// it does: shown beside the verdict.
    pub build_line: Option<&'a str>,
}

/// Writes the report of one benchmark: `<home>/<directory_name>/report/`
/// with `index.html` and its SVG plots (Criterion.rs's file names:
/// `pdf.svg`, `regression.svg` or `iteration_times.svg`, `mean.svg`,
/// `median.svg`, `SD.svg`, `MAD.svg`, `slope.svg`, and with a baseline
/// `both/*.svg` and `change/{mean,median,t-test}.svg`). Plots an earlier
/// report left and this one does not have are removed.
///
/// # Errors
///
/// [`ReportError::Format`] when `directory_name` is not a plain relative
/// path (it would leave `home`), [`ReportError::Io`] when a file cannot be
/// written.
pub fn write_benchmark(home: &Path, report: &BenchmarkReport<'_>) -> Result<(), ReportError> {
    let dir = write::inside(home, &report.record.directory_name)?.join("report");
    let files = pages::benchmark::render(report);
    for stale in pages::benchmark::ALL_PLOTS {
        if !files.iter().any(|(name, _)| name == stale) {
            write::remove_stale(&dir.join(stale));
        }
    }
    write_files(&dir, &files)
}

/// Writes the page of group `group_id`, `<home>/<group folder>/report/`,
/// from the benchmarks of that group saved under `home`: a violin plot of
/// every benchmark, and — when their values are numbers — line charts of
/// the time and the throughput over the inputs, on logarithmic axes when
/// `log_scale` (Criterion.rs's `AxisScale::Logarithmic`).
///
/// The page is `group.html`, and `index.html` too (Criterion.rs's name)
/// unless a lone benchmark of the same name owns that folder's
/// `index.html`. A group whose only benchmark is such a lone
/// `bench_function` has no group page; nothing is written for it.
///
/// # Errors
///
/// [`ReportError::NotFound`] when no benchmark of the group is saved,
/// [`ReportError::Io`] when the home directory cannot be read or a file
/// cannot be written.
pub fn write_group(home: &Path, group_id: &str, log_scale: bool) -> Result<(), ReportError> {
    let (all, _) = discover(home)?;
    let members: Vec<StoredBenchmark> = all
        .into_iter()
        .filter(|b| b.record.group_id == group_id)
        .collect();
    if members.is_empty() {
        return Err(ReportError::NotFound {
            path: home.to_owned(),
            what: format!("benchmark group '{group_id}'"),
        });
    }
    write_group_members(home, group_id, &members, log_scale).map(|_| ())
}

/// Writes a group's page from its members; `Ok(false)` when the group has
/// no page of its own.
fn write_group_members(
    home: &Path,
    group_id: &str,
    members: &[StoredBenchmark],
    log_scale: bool,
) -> Result<bool, ReportError> {
    let Some(group_dir) = members.iter().find_map(StoredBenchmark::group_dir) else {
        return Ok(false);
    };
    // A lone benchmark `g` beside group `g` owns `g/report/index.html`.
    let shared = members.iter().any(|b| b.record.directory_name == group_dir);
    let parts = summaries::parts(group_id, group_dir, members);
    let summary = pages::group::Summary {
        title: group_id,
        group_id,
        to_home: "../../",
        parts: parts
            .iter()
            .map(|p| {
                (
                    format!("../{}/report/index.html", p.folder),
                    p.title.clone(),
                )
            })
            .collect(),
    };
    let dir = write::inside(home, group_dir)?.join("report");
    let files = pages::group::render(&summary, members, log_scale);
    write_files(&dir, &as_group_page(files, shared))?;
    for part in &parts {
        let summary = pages::group::Summary {
            title: &part.title,
            group_id,
            to_home: "../../../",
            parts: Vec::new(),
        };
        let dir = write::inside(home, &format!("{group_dir}/{}", part.folder))?.join("report");
        write_files(
            &dir,
            &pages::group::render(&summary, &part.members, log_scale),
        )?;
    }
    Ok(true)
}

/// Writes `<home>/report/index.html`, listing every benchmark saved under
/// `home` (by group, with links to the benchmark and group pages) and any
/// result that could not be read.
///
/// # Errors
///
/// [`ReportError::Io`] when `home` cannot be read or the page cannot be
/// written.
pub fn write_index(home: &Path) -> Result<(), ReportError> {
    let (found, problems) = discover(home)?;
    let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
    write_index_of(home, &found, &messages)
}

fn write_index_of(
    home: &Path,
    found: &[StoredBenchmark],
    problems: &[String],
) -> Result<(), ReportError> {
    let html = pages::index::render(found, problems);
    write::atomic(&home.join("report").join("index.html"), html.as_bytes())
}

/// The group page's files under the name every link to a group uses,
/// [`GROUP_PAGE`], and also as `index.html` (Criterion.rs's name, for
/// bookmarks and scripts) unless the folder is a lone benchmark's too.
fn as_group_page(mut files: Vec<(String, String)>, shared: bool) -> Vec<(String, String)> {
    if let Some(i) = files.iter().position(|(name, _)| name == "index.html") {
        let page = if shared {
            files.remove(i).1
        } else {
            files[i].1.clone()
        };
        files.push((GROUP_PAGE.to_owned(), page));
    }
    files
}

/// The file name of a group's page in `<home>/<group>/report/`.
pub(crate) const GROUP_PAGE: &str = "group.html";

fn write_files(dir: &Path, files: &[(String, String)]) -> Result<(), ReportError> {
    for (name, contents) in files {
        write::atomic(&dir.join(name), contents.as_bytes())?;
    }
    Ok(())
}
