//! `cargo yardstick history [FILTER]`: the trend of every matching
//! benchmark, its level shifts, and an HTML page of trend plots.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::db::{Db, Trend};
use crate::plot;
use crate::table::value;
use yardstick_stats::changepoint::{detect, ChangePoint, Config};

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

/// Prints the trends of the benchmarks matching `filter` over the last
/// `last` runs and writes the plot page to `out` (default
/// `<home>/history/index.html`). Returns the text to print.
///
/// # Errors
///
/// One line naming the database or the output file.
pub fn run(
    db: &Db,
    home: &Path,
    filter: &str,
    last: Option<i64>,
    out: Option<PathBuf>,
    cfg: &Config,
) -> Result<String, String> {
    let trends = db.trends(filter, last)?;
    if trends.is_empty() {
        return Err(format!(
            "no benchmark matching '{filter}' in {}; record runs with `cargo yardstick bench` or `cargo yardstick import` first",
            db.path().display()
        ));
    }
    let mut text = String::new();
    let mut analysed: Vec<(Trend, Vec<ChangePoint>)> = Vec::new();
    for t in trends {
        let xs: Vec<f64> = t.points.iter().map(|p| p.typical.point).collect();
        let changes = detect(&xs, cfg);
        let last = t.points.last().map_or(0.0, |p| p.typical.point);
        let _ = writeln!(
            text,
            "{}  {} runs  latest {}  {}",
            t.name,
            xs.len(),
            value(last, &t.unit),
            sparkline(&xs)
        );
        for c in &changes {
            let p = &t.points[c.index];
            let commit = p.commit.as_deref().map_or_else(
                || "no commit".to_owned(),
                |h| h[..h.len().min(10)].to_owned(),
            );
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
        analysed.push((t, changes));
    }
    let out = out.unwrap_or_else(|| home.join("history").join("index.html"));
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create it: {e}", dir.display()))?;
    }
    std::fs::write(&out, plot::page(&analysed))
        .map_err(|e| format!("{}: cannot write the trend plot: {e}", out.display()))?;
    let _ = writeln!(text, "trend plot: {}", out.display());
    Ok(text)
}
