//! A Criterion.rs (or yardstick) home directory: every benchmark's
//! `new/` folder, or a named baseline's.

use std::path::Path;

use crate::record::{BenchResult, Interval};

/// Reads the latest results (`new/`) of every benchmark under `home`.
///
/// # Errors
///
/// One line naming the folder when it holds no readable benchmark.
pub fn read(home: &Path) -> Result<Vec<BenchResult>, String> {
    read_baseline(home, "new")
}

/// Reads baseline `name` (`new`, `base` or a `--save-baseline` name) of
/// every benchmark under `home`; benchmarks without it are skipped.
///
/// # Errors
///
/// One line naming the folder when no benchmark has that baseline.
pub fn read_baseline(home: &Path, name: &str) -> Result<Vec<BenchResult>, String> {
    if !home.is_dir() {
        return Err(format!(
            "{}: not a directory; give the Criterion.rs home (target/criterion)",
            home.display()
        ));
    }
    let (stored, _problems) = yardstick_report::discover(home)
        .map_err(|e| format!("{}: cannot read it: {e}", home.display()))?;
    let mut out = Vec::new();
    for b in stored {
        let id = b.record.full_id.clone();
        if name == "new" {
            let e = b.estimates.slope.as_ref().unwrap_or(&b.estimates.mean);
            let typical = Interval {
                point: e.point_estimate,
                lower: e.confidence_interval.lower_bound,
                upper: e.confidence_interval.upper_bound,
            };
            // A sample whose per-iteration values overflow is as unreadable
            // as a baseline that fails `from_samples`: skipped.
            let finite = [typical.point, typical.lower, typical.upper]
                .iter()
                .chain(&b.sample.averages())
                .all(|v| v.is_finite());
            if finite {
                let mut r = BenchResult::summary(id, b.unit.clone(), typical);
                r.iters = b.sample.iters.clone();
                r.values = b.sample.times.clone();
                r.processes = b.sample.processes.clone();
                out.push(r);
            }
        } else if let Some(s) = b.baseline(name) {
            let processes = s.processes.clone();
            if let Ok(mut r) = BenchResult::from_samples(id, b.unit.clone(), s.iters, s.times) {
                r.processes = processes;
                out.push(r);
            }
        }
    }
    if out.is_empty() {
        return Err(format!(
            "{}: no benchmark with a readable '{name}' folder; run `cargo bench` (with --save-baseline {name} for a named baseline) first",
            home.display()
        ));
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}
