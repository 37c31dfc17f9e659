//! `history --export DIR` and `import yardstick DIR`: the history as one
//! JSON file per run (`yardstick_format::history`), so that CI runners can
//! commit their runs to a branch (file names never collide, as in asv's
//! results folders) and one job can merge them all and publish the site.
//! Both directions are idempotent: exporting again rewrites nothing that
//! is unchanged, and a run whose uid is already in the history is skipped.
//! A benchmark's file keeps the instructions per iteration `--explain`
//! counted with it, so that the merged history's site shows them too.

use std::path::{Path, PathBuf};

use yardstick_format::history::{
    ExportedBenchmark, ExportedRun, Instructions, Machine, Typical, RUN_VERSION,
};

use crate::atomic::write_atomic;
use crate::db::{Db, RunInfo};
use crate::record::{BenchResult, Explained, Interval, Run, RunMeta};

/// Writes every run among the last `last` into `dir`, as
/// `<machine>/<date>-<commit>-<uid>.json`. Returns the line to print.
///
/// # Errors
///
/// One line naming the database or the file that failed.
pub fn export(db: &Db, dir: &Path, last: Option<i64>) -> Result<String, String> {
    let runs = db.runs(last)?;
    let (mut written, mut same) = (0, 0);
    for info in &runs {
        let results = db.results(info.id, true)?;
        let explained = db.explained(info.id)?;
        let run = to_exported(info, &results, &explained);
        let path = dir.join(file_name(&run));
        let mut text = serde_json::to_string_pretty(&run)
            .map_err(|e| format!("run {}: cannot encode it: {e}", info.id))?;
        text.push('\n');
        if std::fs::read(&path).is_ok_and(|old| old == text.as_bytes()) {
            same += 1;
            continue;
        }
        write_atomic(&path, text.as_bytes())?;
        written += 1;
    }
    Ok(format!(
        "exported {} runs to {}: {written} written, {same} already there\n",
        runs.len(),
        dir.display()
    ))
}

fn to_exported(info: &RunInfo, results: &[BenchResult], explained: &[Explained]) -> ExportedRun {
    let m = &info.meta;
    ExportedRun {
        version: RUN_VERSION,
        uid: info.uid.clone(),
        machine: Machine {
            name: if m.machine.is_empty() {
                "unnamed".to_owned()
            } else {
                m.machine.clone()
            },
            cpu: m.cpu.clone(),
            cores: m.cores,
            os: m.os.clone(),
        },
        time: m.time,
        commit: m.commit.clone(),
        branch: m.branch.clone(),
        dirty: m.dirty,
        rustc: m.rustc.clone(),
        config: m.config.clone(),
        source: m.source.clone(),
        label: m.label.clone(),
        shard: m.shard.clone(),
        state: m.state.clone(),
        build: m.build.clone(),
        benchmarks: results
            .iter()
            .map(|r| ExportedBenchmark {
                name: r.name.clone(),
                unit: r.unit.clone(),
                typical: Typical {
                    point: r.typical.point,
                    lower: r.typical.lower,
                    upper: r.typical.upper,
                },
                iters: r.iters.clone(),
                values: r.values.clone(),
                instructions: explained
                    .iter()
                    .find(|e| e.name == r.name)
                    .map(|e| Instructions {
                        baseline: e.baseline,
                        current: e.current,
                    }),
            })
            .collect(),
    }
}

/// `<machine>/<YYYYMMDDTHHMMSS>-<commit>-<uid>.json`, every part made of
/// letters, digits, `-`, `_` and `.` only.
fn file_name(run: &ExportedRun) -> PathBuf {
    let plain = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(60)
            .collect()
    };
    let [y, mo, d, h, mi, se] = yardstick_report::units::utc_fields(run.time);
    let stamp = format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{se:02}");
    let commit = run.commit.as_deref().map_or_else(
        || "nocommit".to_owned(),
        |c| plain(&c.chars().take(10).collect::<String>()),
    );
    Path::new(&plain(&run.machine.name)).join(format!("{stamp}-{commit}-{}.json", plain(&run.uid)))
}

/// Merges every `*.json` under `path` (a folder, searched recursively, or
/// one file) into the history. Returns the line to print.
///
/// # Errors
///
/// One line naming the first file that is not a valid exported run (then
/// nothing is merged), or the database (runs merged before the failure
/// stay, each in its own transaction, and importing again completes it).
pub fn import(db: &mut Db, path: &Path) -> Result<String, String> {
    let mut files = Vec::new();
    collect(path, &mut files)?;
    if files.is_empty() {
        return Err(format!("{}: no .json file in it", path.display()));
    }
    // Every file is checked before any is merged, and runs are merged in
    // time order, so that new runs get ids in the order they were made.
    // A suite's shards become one run (`shard_runs`).
    let read = files
        .iter()
        .map(|f| read_run(f).map(|r| (f.as_path(), r)))
        .collect::<Result<Vec<_>, String>>()?;
    let shards = read.iter().filter(|(_, r)| r.shard.is_some()).count();
    let (mut runs, notes) = crate::shard_runs::merge(read)?;
    runs.sort_by(|a, b| (a.time, &a.uid).cmp(&(b.time, &b.uid)));
    let (mut added, mut known) = (0, 0);
    for run in &runs {
        match db.merge(&from_exported(run), &run.uid)? {
            Some(_) => added += 1,
            None => known += 1,
        }
    }
    let mut text = format!(
        "imported {added} new runs from {} ({known} already in the history)\n",
        path.display()
    );
    if shards > 0 {
        text.push_str(&format!(
            "{shards} shard runs (--partition) were merged by commit and machine kind\n"
        ));
    }
    for note in notes {
        text.push_str(&format!("note: {note}\n"));
    }
    Ok(text)
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if path.is_file() {
        out.push(path.to_owned());
        return Ok(());
    }
    let entries =
        std::fs::read_dir(path).map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
    for e in entries {
        let p = e
            .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?
            .path();
        let hidden = p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if hidden {
            continue;
        }
        if p.is_dir() {
            collect(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    Ok(())
}

fn read_run(f: &Path) -> Result<ExportedRun, String> {
    let text =
        std::fs::read_to_string(f).map_err(|e| format!("{}: cannot read it: {e}", f.display()))?;
    let bad = |e: String| {
        format!(
            "{}: not a yardstick history run (version {RUN_VERSION}): {e}",
            f.display()
        )
    };
    let run: ExportedRun = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    run.validate().map_err(bad)?;
    Ok(run)
}

fn from_exported(run: &ExportedRun) -> Run {
    Run {
        meta: RunMeta {
            time: run.time,
            commit: run.commit.clone(),
            branch: run.branch.clone(),
            dirty: run.dirty,
            machine: run.machine.name.clone(),
            cpu: run.machine.cpu.clone(),
            cores: run.machine.cores,
            os: run.machine.os.clone(),
            rustc: run.rustc.clone(),
            config: run.config.clone(),
            source: run.source.clone(),
            label: run.label.clone(),
            shard: run.shard.clone(),
            state: run.state.clone(),
            build: run.build.clone(),
        },
        results: run
            .benchmarks
            .iter()
            .map(|b| BenchResult {
                name: b.name.clone(),
                unit: b.unit.clone(),
                iters: b.iters.clone(),
                values: b.values.clone(),
                typical: Interval {
                    point: b.typical.point,
                    lower: b.typical.lower,
                    upper: b.typical.upper,
                },
                processes: None,
            })
            .collect(),
        explained: run
            .benchmarks
            .iter()
            .filter_map(|b| {
                let i = b.instructions?;
                Some(Explained {
                    name: b.name.clone(),
                    baseline: i.baseline,
                    current: i.current,
                })
            })
            .collect(),
    }
}
