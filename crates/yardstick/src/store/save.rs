//! The saved files as a sink: `new/`, the named baseline and
//! `change/estimates.json` of every benchmark measured, and one flush to
//! disk when the run ends.

use super::{
    estimate_file, estimates_file, BenchmarkDir, ChangeFile, RawRow, RunFiles, StoreError,
};
use crate::cli::Baseline;
use crate::engine::RunSettings;
use crate::output::sink::{Outcome, RunEnd, Sink};
use crate::output::Terminal;
use yardstick_format::change::VerdictFile;

/// Writes each measured benchmark's files under the home directory.
pub(crate) struct Files;

impl Sink for Files {
    fn benchmark(&mut self, run: &RunSettings, o: &Outcome<'_>) {
        if o.loaded || o.not_saved || run.baseline == Baseline::Discard {
            return;
        }
        save(run, &run.terminal(), o);
    }

    fn finish(&mut self, run: &RunSettings, end: &RunEnd<'_>) -> Vec<(String, String)> {
        if end.measured > 0 && run.baseline != Baseline::Discard {
            // The retention rule for the kept bench binaries, once a run
            // has saved the folders that name its own.
            super::binaries::prune(&run.home);
        }
        // Saving flushes nothing file by file; one flush here makes the
        // run's results survive a system crash (see yardstick_format::atomic).
        if let Err(e) = yardstick_format::atomic::sync_written() {
            run.terminal()
                .warning(&format!("could not flush the results to disk: {e}"));
        }
        Vec::new()
    }
}

fn save(run: &RunSettings, terminal: &Terminal, o: &Outcome<'_>) {
    let (id, dir, a) = (o.id, o.dir, o.analysis);
    let estimates = estimates_file(&a.estimates);
    let raw = raw_rows(o);
    // The steps below (and the owner check) are one unit among runs into
    // this home; an unwritable home fails here, before any folder.
    let Some(_held) = lock_for_saving(run, terminal, o) else {
        return;
    };
    let kept_build = o
        .binary
        .as_ref()
        .is_some_and(|b| super::build::keep_record(&run.home, b));
    let files = RunFiles {
        sample: &o.sample,
        estimates: &estimates,
        benchmark: &o.record,
        tukey: a.tukey.fences.as_array(),
        raw: &raw,
        metrics: o.metrics,
        binary: o.binary.as_ref(),
        // One record a run, beside the kept binary; in the folder only
        // when that cannot be.
        build: (!kept_build).then(super::build::this_build),
    };
    let report = |r: Result<(), StoreError>| {
        if let Err(e) = r {
            terminal.warning(&format!("could not save {}: {e}", id.full_id));
        }
    };
    report(dir.save("new", &files));
    if let Some(change) = &a.change {
        let mean = estimate_file(&change.mean);
        let verdict = VerdictFile {
            version: yardstick_format::change::VERSION,
            mean: mean.point_estimate,
            p_value: change.p_value,
            t: change.t,
            verdict: change.verdict.name().to_owned(),
            lockstep: a.lockstep.map(|l| l.file()),
            judged_at: a.suite.map(|j| j.level),
            verdict_alone: a.suite.map(|j| j.one_by_one.name().to_owned()),
            // Pages drawn again later compare with the baseline this run
            // compared with, and name it as the run did.
            baseline: crate::baseline::compare_target(&run.baseline).map(|(n, _)| n.to_owned()),
        };
        let file = ChangeFile {
            mean,
            median: estimate_file(&change.median),
        };
        report(dir.save_change(&file, &verdict, o.baseline_binary.as_ref()));
        if let Some(m) = relink(o, change.mean.point) {
            report(dir.record_relink(m));
        }
    }
    if let Baseline::Save(name) = &run.baseline {
        if set_aside_unreadable(terminal, dir, name, o.corrupt_baseline) {
            report(dir.save(name, &files));
        }
    }
}

/// The move a comparison between two different builds measured with one
/// code layout of each side (`change` the relative change): what the
/// benchmark's layout allowance is learned from. Identical builds and
/// sampled layouts teach nothing about a rebuild's single layout, and a
/// change whose instructions were counted different is the code's own,
/// not a rebuild's.
fn relink(o: &Outcome<'_>, change: f64) -> Option<yardstick_format::relinks::Move> {
    let how = o.analysis.lockstep?;
    let (this, baseline) = (o.binary.as_ref()?, o.baseline_binary.as_ref()?);
    let rebuild = !how.same_build && how.layouts < 2 && how.instructions_changed.is_none();
    rebuild.then(|| yardstick_format::relinks::Move {
        baseline: baseline.binary.clone(),
        this: this.binary.clone(),
        ratio: 1.0 + change,
        at: super::now(),
    })
}

/// The home's lock, with the benchmark's folder still its own; `None`
/// (said as a warning) when either fails.
fn lock_for_saving(
    run: &RunSettings,
    terminal: &Terminal,
    o: &Outcome<'_>,
) -> Option<super::lock::HomeLock> {
    let held = super::lock::HomeLock::acquire(&run.home)
        .and_then(|held| o.dir.check_owner(&o.id.full_id).map(|()| held));
    match held {
        Ok(held) => Some(held),
        Err(e) => {
            terminal.warning(&format!("could not save {}: {e}", o.id.full_id));
            None
        }
    }
}

/// Moves an unreadable baseline `name` aside before it is replaced; false
/// when it could not be moved (then it is not overwritten).
fn set_aside_unreadable(
    terminal: &Terminal,
    dir: &BenchmarkDir,
    name: &str,
    corrupt_baseline: Option<&str>,
) -> bool {
    if corrupt_baseline != Some(name) {
        return true;
    }
    match dir.set_aside(name) {
        Ok(None) => true,
        Ok(Some(to)) => {
            terminal.warning(&format!(
                "kept the unreadable baseline '{name}' as {}",
                to.display()
            ));
            true
        }
        Err(e) => {
            terminal.warning(&format!(
                "not saving baseline '{name}': the unreadable one could not be moved aside ({e})"
            ));
            false
        }
    }
}

/// `raw.csv`'s rows: each sample in the unit of the typical estimate.
fn raw_rows(o: &Outcome<'_>) -> Vec<RawRow> {
    let (id, a, formatter) = (o.id, o.analysis, o.formatter);
    let (tp_num, tp_type) = match id.throughput {
        Some(t) => {
            let (n, k) = t.csv_columns();
            (Some(n), Some(k))
        }
        None => (None, None),
    };
    a.iters
        .iter()
        .zip(&a.values)
        .map(|(&n, &v)| {
            let mut scaled = [v];
            formatter.scale_for_machines(&mut scaled);
            RawRow {
                group: id.group_id.clone(),
                function: id.function_id.clone().unwrap_or_default(),
                value: id.value_str.clone().unwrap_or_default(),
                throughput_num: tp_num,
                throughput_type: tp_type,
                sample_measured_value: scaled[0],
                unit: o.unit.to_owned(),
                iteration_count: n as u64,
            }
        })
        .collect()
}
