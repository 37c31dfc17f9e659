//! Snapshot tests of the tables `cargo yardstick` prints: `compare` and
//! `check` (terminal and markdown), `calibrate` and `ab`. The rows are fixed
//! values, so the text is the same on every machine; a change of format
//! shows as a reviewed diff of `snapshots/*.snap`.

use std::path::PathBuf;

use yardstick_stats::Verdict;

use crate::calibrate::{table as drift_table, Drift};
use crate::compare::{Comparison, Fdr, Row};
use crate::record::Interval;
use crate::table::{markdown, terminal};

fn interval(point: f64, half: f64) -> Interval {
    Interval {
        point,
        lower: point - half,
        upper: point + half,
    }
}

fn row(name: &str, unit: &str, old: f64, new: f64, p: Option<f64>, verdict: Verdict) -> Row {
    let change = new / old - 1.0;
    Row {
        name: name.into(),
        unit: unit.into(),
        old: interval(old, old * 0.01),
        new: interval(new, new * 0.01),
        change: if p.is_some() {
            interval(change, 0.012)
        } else {
            Interval::exact(change)
        },
        p_value: p,
        verdict,
        survives_fdr: true,
    }
}

fn comparison() -> Comparison {
    let mut rows = vec![
        row(
            "fib/10",
            "ns",
            312.5,
            351.0,
            Some(0.0001),
            Verdict::Regressed,
        ),
        row(
            "fib/20",
            "ns",
            38_400.0,
            38_500.0,
            Some(0.61),
            Verdict::NoChange,
        ),
        row(
            "parse/json",
            "ns",
            1.25e6,
            1.1e6,
            Some(0.002),
            Verdict::Improved,
        ),
        row(
            "sort/1k",
            "ns",
            9_100.0,
            9_150.0,
            Some(0.03),
            Verdict::WithinNoise,
        ),
        row(
            "count",
            "instructions",
            1000.0,
            1010.0,
            None,
            Verdict::NoChange,
        ),
    ];
    rows[2].survives_fdr = false;
    Comparison {
        rows,
        only_old: vec!["gone/away".into()],
        only_new: vec!["brand/new".into()],
        skipped: vec!["units/differ: unit ns before, bytes now".into()],
        fdr: Some(Fdr {
            q: 0.05,
            tested: 4,
            flagged_alone: 2,
            kept: vec!["fib/10".into()],
        }),
    }
}

#[test]
fn compare_tables() {
    let c = comparison();
    insta::assert_snapshot!("compare_terminal", terminal(&c, "main (abc1234)", "latest"));
    insta::assert_snapshot!("compare_markdown", markdown(&c, "main (abc1234)", "latest"));
    let empty = Comparison::default();
    insta::assert_snapshot!("compare_empty", terminal(&empty, "1", "2"));
}

#[test]
fn calibrate_table() {
    let drift = |id: &str, estimates: &[f64], drift| Drift {
        id: id.into(),
        folder: PathBuf::from(id),
        estimates: estimates.to_vec(),
        unit: "ns".into(),
        drift,
    };
    let rows = [
        drift(
            "fib/10",
            &[100.0, 102.0, 98.0, 101.0, 99.0],
            Some(0.064_059_5),
        ),
        drift("a/very/long/benchmark/name", &[5.0, 5.0], Some(0.0)),
        drift("once", &[7.5], None),
    ];
    insta::assert_snapshot!("calibrate", drift_table(&rows));
}

#[test]
fn check_summaries() {
    use crate::check::{summary, Limits};
    let limits = Limits {
        threshold: 0.05,
        exact_threshold: 0.0,
    };
    let (failing, names) = summary(&comparison(), &limits, "main (abc1234)", "latest");
    assert_eq!(names, ["fib/10", "count"]);
    insta::assert_snapshot!("check_fail", failing);
    let mut quiet = comparison();
    quiet
        .rows
        .retain(|r| r.verdict != Verdict::Regressed && r.unit == "ns");
    // One benchmark changed alone, nothing else to say.
    quiet.fdr = None;
    quiet.only_old.clear();
    quiet.only_new.clear();
    quiet.skipped.clear();
    let (passing, names) = summary(&quiet, &limits, "main (abc1234)", "latest");
    assert!(names.is_empty());
    insta::assert_snapshot!("check_pass", passing);
}

#[test]
fn ab_tables() {
    use crate::ab::verdict::{markdown, terminal, Header, Outcome, Paired, Row as AbRow};
    use yardstick_stats::paired::RatioInterval;
    let measured = |ratio: f64, lower: f64, upper: f64, survives_fdr: bool| {
        Outcome::Measured(Paired {
            a: 1250.0,
            b: 1250.0 * ratio,
            interval: Some(RatioInterval {
                ratio,
                lower,
                upper,
                coverage: 0.95,
                rounds: 48,
            }),
            p_value: Some(0.01),
            rounds: 48,
            pairs: 8,
            seconds: 0.9,
            survives_fdr,
            layout: None,
        })
    };
    let mut moved = measured(0.985, 0.962, 1.009, true);
    if let Outcome::Measured(p) = &mut moved {
        p.layout = Some(yardstick_stats::layouts::Spread {
            share: 0.0312,
            limiting: true,
            p_value: 0.001,
        });
    }
    let rows = [
        AbRow {
            id: "fib/20".into(),
            outcome: measured(1.031, 1.012, 1.049, true),
        },
        AbRow {
            id: "parse|json".into(),
            outcome: measured(0.998, 0.991, 1.004, true),
        },
        AbRow {
            id: "sort/1k".into(),
            outcome: measured(1.02, 1.001, 1.04, false),
        },
        AbRow {
            id: "work200".into(),
            outcome: moved,
        },
        AbRow {
            id: "new/only".into(),
            outcome: Outcome::OnlyB,
        },
        AbRow {
            id: "old/only".into(),
            outcome: Outcome::OnlyA,
        },
        AbRow {
            id: "panics".into(),
            outcome: Outcome::Failed("panicked at src/lib.rs:3:5: boom".into()),
        },
    ];
    let header = Header {
        a: "HEAD (abc1234)".into(),
        b: "working tree".into(),
        how: "8 worker pairs in lock-step, ABBA rounds".into(),
    };
    let fdr = Some("Compared 3 benchmarks: 2 changed one by one; 1 remains: fib/20");
    insta::assert_snapshot!("ab_terminal", terminal(&header, &rows, fdr));
    insta::assert_snapshot!("ab_markdown", markdown(&header, &rows, fdr));
}

/// `merge`'s summary of three shards whose changes survive the
/// false-discovery control in their own shard but not across the suite,
/// with shard 3 failed: the same table one run gives, the control's line
/// over all of it, the merged shards, and the failure named.
#[test]
fn merged_shards() {
    use crate::merge::tests::disagreeing_shards;
    use crate::merge::{merge, render};
    let mut docs = disagreeing_shards();
    let complete: Vec<_> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| (PathBuf::from(format!("ab-{}.json", i + 1)), Ok(d.clone())))
        .collect();
    let m = merge(complete, Some(3)).unwrap();
    insta::assert_snapshot!("merge_markdown", render(&m, true));
    docs[2].status = "failed".into();
    docs[2].error = Some("building pr (6f7a8b9c0d): cargo exited with status 101".into());
    docs[2].rows.clear();
    let failed: Vec<_> = docs
        .into_iter()
        .enumerate()
        .map(|(i, d)| (PathBuf::from(format!("ab-{}.json", i + 1)), Ok(d)))
        .collect();
    let m = merge(failed, Some(3)).unwrap();
    insta::assert_snapshot!("merge_failed_terminal", render(&m, false));
}

/// `doctor`'s report of a noisy VM (the figures a 2-CPU cloud guest gives
/// under a build) and of a machine nothing could be read of: every
/// unknown on one line.
#[test]
fn doctor_reports() {
    use crate::doctor::measure::Measured;
    use crate::doctor::{report, terminal};
    use yardstick_format::doctor::{BusyProcess, DriftWindow, MachineState, Timer};
    let state = MachineState {
        cpu: Some("AMD EPYC".into()),
        logical_cores: Some(2),
        physical_cores: Some(2),
        smt: Some("notsupported".into()),
        governor: None,
        boost: None,
        kernel: Some("6.1.0".into()),
        virtualization: vec!["hypervisor flag".into(), "container: docker".into()],
        cpu_max: Some("max 100000".into()),
        isolated_cpus: Some(String::new()),
        nohz_full: None,
        aslr: Some(2),
        load_start: Some(3.1),
        load_end: Some(4.25),
        steal: Some(0.012),
        busy: Some(0.97),
        memory_available: Some(3 << 30),
        memory_total: Some(8 << 30),
        memory_pressure: Some(0.0),
        cpu_pressure: Some(61.0),
    };
    let measured = Measured {
        timer: Some(Timer {
            resolution_ns: 10.0,
            overhead_ns: 24.6,
        }),
        empty_loop_ns: Some(0.31),
        drift: Some(DriftWindow {
            work_ns: 21_480.0,
            medians_ns: vec![21_400.0, 21_480.0, 22_900.0, 21_450.0, 21_500.0],
            relative_range: 22_900.0 / 21_400.0 - 1.0,
            relative_sd: 0.029,
            definition: yardstick_stats::drift::SECOND_DEFINITION.into(),
            steal: vec![Some(0.0), Some(0.05), None, Some(0.0), Some(0.0)],
            window_ns: Some(2e6),
            windows_slowed: Some(0.38),
            window_median_excess: Some(0.031),
        }),
        busy: vec![
            BusyProcess {
                pid: 4242,
                name: "rustc".into(),
                cpus: 0.98,
            },
            BusyProcess {
                pid: 77,
                name: "cc".into(),
                cpus: 0.12,
            },
        ],
    };
    let r = report("ci-vm".into(), state, measured, 5.62);
    insta::assert_snapshot!("doctor_noisy_vm", terminal(&r));
    let blind = report(
        "unknown".into(),
        MachineState::default(),
        Measured::default(),
        5.0,
    );
    insta::assert_snapshot!("doctor_nothing_readable", terminal(&blind));
}

/// `bench --help` and `calibrate --help` begin with yardstick's own flags
/// (cargo bench's help, printed after them, is cargo's and varies with it).
#[test]
fn passthrough_help() {
    use crate::help::Passthrough;
    insta::assert_snapshot!("bench_help", Passthrough::Bench.own());
    insta::assert_snapshot!("calibrate_help", Passthrough::Calibrate.own());
}
