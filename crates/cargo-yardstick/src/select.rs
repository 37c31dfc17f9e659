//! Naming a run on the command line: `latest`, `latest~N`, a run id, a
//! label (`--label` at record time, a baseline name), a commit (a prefix of
//! at least 4 hex digits), a branch, or a Criterion.rs baseline folder under
//! the home directory (`new`, `base`, a `--save-baseline` name).

use std::path::Path;

use crate::db::{Db, RunInfo, RunKey};
use crate::import::read_baseline;
use crate::record::BenchResult;

/// A resolved selector.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// How to show it in a table header.
    pub label: String,
    /// The run id, when it came from the history.
    pub run_id: Option<i64>,
    /// Its benchmarks, with samples.
    pub results: Vec<BenchResult>,
    /// How its bench binaries were built, when that was recorded.
    pub build: Option<yardstick_format::build::BuildFile>,
}

/// Resolves `sel`.
///
/// # Errors
///
/// One line naming the selector, what was tried and what to do.
pub fn resolve(db: &Db, home: &Path, sel: &str) -> Result<Side, String> {
    let mut run = if sel == "latest" {
        db.latest(0)?
    } else if let Some(n) = sel.strip_prefix("latest~") {
        // u32: `latest~-1` (a run after the latest) and `latest~+1` are
        // errors, not silently the latest.
        let n: u32 = n
            .parse()
            .ok()
            .filter(|_| !n.starts_with('+'))
            .ok_or_else(|| {
                format!("'{sel}': expected latest~N with N a number of runs back (0 or more)")
            })?;
        db.latest(i64::from(n))?
    } else if let Ok(id) = sel.parse::<i64>() {
        db.run(id)?
    } else {
        None
    };
    // A number that is no run id may still be a label, a branch or a commit
    // prefix of decimal digits only (one abbreviated hash in 27).
    let relative = sel == "latest" || sel.starts_with("latest~");
    if run.is_none() && !relative {
        run = db.latest_by(RunKey::Label, sel)?;
    }
    if run.is_none() && !relative {
        run = db.latest_by(RunKey::Branch, sel)?;
    }
    if run.is_none() && sel.len() >= 4 && sel.chars().all(|c| c.is_ascii_hexdigit()) {
        run = db.latest_by(RunKey::CommitPrefix, sel)?;
    }
    if let Some(r) = run {
        return side(db, &r);
    }
    if !sel.is_empty() && !sel.contains(['/', '\\', '.']) {
        if let Ok(results) = read_baseline(home, sel) {
            return Ok(Side {
                label: sel.to_owned(),
                run_id: None,
                results,
                build: baseline_build(home, sel),
            });
        }
    }
    Err(format!(
        "'{sel}' names no run in {} and no baseline folder under {}; use `latest`, a run id, a label, a branch, a commit, or a baseline saved with --save-baseline (see `cargo yardstick history`)",
        db.path().display(),
        home.display()
    ))
}

/// A run of the history as a side: labelled by its id and commit.
fn side(db: &Db, r: &RunInfo) -> Result<Side, String> {
    let short = r
        .meta
        .commit
        .as_deref()
        .map_or("", |c| &c[..c.len().min(8)]);
    let label = if short.is_empty() {
        format!("run {}", r.id)
    } else {
        format!("run {} ({short})", r.id)
    };
    Ok(Side {
        label,
        run_id: Some(r.id),
        results: db.results(r.id, true)?,
        build: r.meta.build.clone(),
    })
}

/// The old side when only the new one is named: the latest earlier run
/// that shares a benchmark with `new`, and a sentence naming both runs
/// (their ids, commits and what recorded them).
///
/// # Errors
///
/// One line saying why there is nothing to compare `new` with.
pub fn previous_sharing(db: &Db, new: &Side) -> Result<(Side, String), String> {
    let Some(id) = new.run_id else {
        return Err(format!(
            "'{}' is a baseline folder, not a run of the history: name the run to compare it with",
            new.label
        ));
    };
    let describe = |r: &RunInfo| {
        let what = r.meta.label.as_deref().map_or_else(
            || r.meta.source.clone(),
            |l| format!("{}, label {l}", r.meta.source),
        );
        format!("run {} ({what})", r.id)
    };
    let new_run = db
        .run(id)?
        .ok_or_else(|| format!("run {id} is no longer in the history"))?;
    let old = db.previous_sharing(id)?.ok_or_else(|| {
        format!(
            "no run before {} has any of its benchmarks; name the two runs to compare (see `cargo yardstick history`)",
            describe(&new_run)
        )
    })?;
    let sentence = format!(
        "comparing {} with {}, the latest earlier run with the same benchmarks",
        describe(&new_run),
        describe(&old)
    );
    Ok((side(db, &old)?, sentence))
}

/// The line naming how `new`'s build differs from `old`'s
/// (`yardstick_format::build::compare_line`), for `compare` and `check`.
#[must_use]
pub fn build_line(old: &Side, new: &Side) -> Option<String> {
    let sides = yardstick_format::build::Sides {
        old: &old.label,
        new: &new.label,
    };
    yardstick_format::build::compare_line(old.build.as_ref(), new.build.as_ref(), sides)
}

/// How baseline folder `name`'s binary was built: the first benchmark's
/// (in name order) that has a record.
fn baseline_build(home: &Path, name: &str) -> Option<yardstick_format::build::BuildFile> {
    first_build(home, name, &|_| true)
}

/// The build record of the first (in path order) folder under `home`
/// named `name` that `keep` accepts and that has one
/// (`yardstick_format::build::of_folder`: the record kept beside the
/// binary its `binary.json` names, else the folder's own `build.json`);
/// `None` when there is none.
pub(crate) fn first_build(
    home: &Path,
    name: &str,
    keep: &dyn Fn(&Path) -> bool,
) -> Option<yardstick_format::build::BuildFile> {
    let saved = |p: &Path| {
        ["binary.json", yardstick_format::build::FILE_NAME]
            .iter()
            .any(|f| p.join(f).is_file())
    };
    saved_folders(home, name, &|p| saved(p) && keep(p))
        .iter()
        .find_map(|folder| yardstick_format::build::of_folder(home, folder).ok()?)
}

/// Every file `file` under `home` in a folder named `folder` (a benchmark
/// folder's `new/`, `explain/`…) that `keep` accepts, in path order.
pub(crate) fn saved_files(
    home: &Path,
    folder: &str,
    file: &str,
    keep: &dyn Fn(&Path) -> bool,
) -> Vec<std::path::PathBuf> {
    let accept = |p: &Path| {
        let record = p.join(file);
        record.is_file() && keep(&record)
    };
    saved_folders(home, folder, &accept)
        .into_iter()
        .map(|p| p.join(file))
        .collect()
}

/// The folders named `name` under `home` that `accept` takes, in path
/// order; those it does not take are searched further down.
fn saved_folders(
    home: &Path,
    name: &str,
    accept: &dyn Fn(&Path) -> bool,
) -> Vec<std::path::PathBuf> {
    let mut stack = vec![(home.to_path_buf(), 0)];
    let mut found = Vec::new();
    while let Some((dir, depth)) = stack.pop() {
        // Benchmark folders nest by the id's parts; 16 is far deeper.
        if depth > 16 {
            continue;
        }
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with('.') || !path.is_dir() {
                continue;
            }
            if entry.file_name() == name && accept(&path) {
                found.push(path);
            } else {
                stack.push((path, depth + 1));
            }
        }
    }
    found.sort();
    found
}
