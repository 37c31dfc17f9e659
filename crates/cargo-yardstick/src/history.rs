//! `cargo yardstick history [FILTER]`: the trend of every matching
//! benchmark on each machine, its level shifts, and the history site
//! (`<home>/history/`: an index, a page per benchmark, a page of shifts).

use std::collections::HashMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use yardstick_report::{write_history_site, HistoryRun, HistorySite, Series, SeriesPoint, Shift};

use crate::db::{Db, RunInfo, Trend};
use crate::table::value;
use yardstick_stats::changepoint::{detect, Config};

use clap::Args;

use crate::args::HomeArg;

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

const SPARKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

fn sparkline(xs: &[f64]) -> String {
    let tail = &xs[xs.len().saturating_sub(40)..];
    let lo = tail.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = tail.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    tail.iter()
        .map(|x| {
            let f = if hi > lo { (x - lo) / (hi - lo) } else { 0.5 };
            SPARKS[((f * 7.0).round() as usize).min(7)]
        })
        .collect()
}

/// What `history` shows and where it writes the site.
#[derive(Debug, Clone)]
pub struct Options {
    /// Only benchmarks whose id contains this.
    pub filter: String,
    /// Only the last N runs.
    pub last: Option<i64>,
    /// The site's folder (default `<home>/history`).
    pub out: Option<PathBuf>,
    /// The branch or label changes are also shown against (default `main`,
    /// else `master`, when runs are on it).
    pub reference: Option<String>,
    /// The site's title.
    pub title: String,
    /// Change-point settings.
    pub changes: Config,
}

/// Prints the trends of the benchmarks matching the filter and writes the
/// site. Returns the text to print.
///
/// # Errors
///
/// One line naming the database or the file that could not be written.
pub fn run(db: &Db, home: &Path, opts: &Options) -> Result<String, String> {
    let trends = db.trends(&opts.filter, opts.last)?;
    if trends.is_empty() {
        return Err(format!(
            "no benchmark matching '{}' in {}; record runs with `cargo yardstick bench` or `cargo yardstick import` first",
            opts.filter,
            db.path().display()
        ));
    }
    let runs = db.runs(opts.last)?;
    let site = site(opts, &runs, &trends);
    let mut text = summary(&trends, &site);
    let out = opts.out.clone().unwrap_or_else(|| home.join("history"));
    let written = write_history_site(&out, &site).map_err(|e| e.to_string())?;
    let _ = writeln!(
        text,
        "history site: {} ({} pages, largest {:.0} kB)",
        out.join("index.html").display(),
        written.pages.len(),
        written.largest as f64 / 1024.0
    );
    Ok(text)
}

/// The site's model: the runs, and each trend with its level shifts.
fn site(opts: &Options, runs: &[RunInfo], trends: &[Trend]) -> HistorySite {
    let index: HashMap<i64, usize> = runs.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let series = detect_all(trends, &opts.changes)
        .into_iter()
        .zip(trends)
        .map(|(shifts, t)| Series {
            benchmark: t.name.clone(),
            machine: machine_name(&t.machine),
            unit: t.unit.clone(),
            points: t
                .points
                .iter()
                .filter_map(|p| {
                    Some(SeriesPoint {
                        run: *index.get(&p.run_id)?,
                        point: p.typical.point,
                        lower: p.typical.lower,
                        upper: p.typical.upper,
                        instructions: p.instructions,
                    })
                })
                .collect(),
            shifts,
        })
        .collect();
    let reference = opts.reference.clone().or_else(|| {
        ["main", "master"].into_iter().map(str::to_owned).find(|r| {
            runs.iter().any(|x| {
                x.meta.branch.as_deref() == Some(r.as_str())
                    || x.meta.label.as_deref() == Some(r.as_str())
            })
        })
    });
    HistorySite {
        title: opts.title.clone(),
        reference,
        runs: runs.iter().map(history_run).collect(),
        series,
    }
}

fn machine_name(m: &str) -> String {
    if m.is_empty() {
        "unnamed machine".to_owned()
    } else {
        m.to_owned()
    }
}

fn history_run(r: &RunInfo) -> HistoryRun {
    let m = &r.meta;
    let mut host = Vec::new();
    if !m.cpu.is_empty() {
        host.push(m.cpu.clone());
    }
    if m.cores > 0 {
        host.push(format!("{} cores", m.cores));
    }
    if !m.os.is_empty() {
        host.push(m.os.clone());
    }
    HistoryRun {
        id: r.id,
        time: m.time,
        commit: m.commit.clone(),
        branch: m.branch.clone(),
        dirty: m.dirty,
        machine: machine_name(&m.machine),
        host: host.join(" · "),
        rustc: m.rustc.clone(),
        label: m.label.clone(),
        build: m.build.clone(),
    }
}

/// The level shifts of every trend, computed on all cores (each series is
/// independent and the permutation tests dominate the site's cost).
fn detect_all(trends: &[Trend], cfg: &Config) -> Vec<Vec<Shift>> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    let chunk = trends.len().div_ceil(workers).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = trends
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || part.iter().map(|t| shifts_of(t, cfg)).collect::<Vec<_>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

fn shifts_of(t: &Trend, cfg: &Config) -> Vec<Shift> {
    let xs: Vec<f64> = t.points.iter().map(|p| p.typical.point).collect();
    detect(&xs, cfg)
        .into_iter()
        .map(|c| Shift {
            index: c.index,
            before: c.before,
            after: c.after,
            size: c.size,
            p_value: c.p_value,
        })
        .collect()
}

/// The terminal summary: a line per series and one per level shift. The
/// machine is named only when the history has more than one.
fn summary(trends: &[Trend], site: &HistorySite) -> String {
    let several = trends.iter().any(|t| t.machine != trends[0].machine);
    let mut text = String::new();
    for (t, s) in trends.iter().zip(&site.series) {
        let xs: Vec<f64> = t.points.iter().map(|p| p.typical.point).collect();
        let last = xs.last().copied().unwrap_or(0.0);
        let on = if several {
            format!(" on {}", s.machine)
        } else {
            String::new()
        };
        let _ = writeln!(
            text,
            "{}{on}  {} runs  latest {}  {}",
            t.name,
            xs.len(),
            value(last, &t.unit),
            sparkline(&xs)
        );
        for c in &s.shifts {
            let p = &t.points[c.index];
            let commit = p
                .commit
                .as_deref()
                .map_or_else(|| "no commit".to_owned(), |h| h.chars().take(10).collect());
            let _ = writeln!(
                text,
                "  level moved at run {} (commit {commit}): {} -> {} ({:+.2}%, confidence {:.1}%)",
                p.run_id,
                value(c.before, &t.unit),
                value(c.after, &t.unit),
                c.size * 100.0,
                (1.0 - c.p_value) * 100.0
            );
        }
    }
    text
}
