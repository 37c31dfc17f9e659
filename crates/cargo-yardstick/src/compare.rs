//! Comparing two sets of results: per benchmark, the relative change of the
//! typical value with its interval and a verdict.
//!
//! With samples on both sides (two or more each) the change is Criterion.rs's:
//! the bootstrapped relative change of the mean, a bootstrapped t-test, and
//! a verdict against the noise threshold (`yardstick_stats::compare`); runs
//! the harness sampled in worker processes are compared as it compares
//! them, by the processes' fast ends with the run's own shift counted
//! (`yardstick_stats::processes::compare_runs`).
//! Without samples (summaries, exact instruction counts) the change is
//! `new / old − 1` of the typical values and the verdict compares it with
//! the noise threshold alone; the p-value is then absent.

use yardstick_stats::{compare as stats_compare, ChangeConfig, Verdict};

use crate::record::{BenchResult, Interval};

use clap::Args;

use crate::args::{HomeArg, StatsArgs, TableFormat};

/// `compare` arguments.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// The old side: latest, latest~N, a run id, a label, a branch, a commit or a baseline name.
    /// Without it, the latest run before NEW that shares its benchmarks.
    pub old: Option<String>,
    /// The new side, as OLD.
    #[arg(default_value = "latest")]
    pub new: String,
    /// Table format.
    #[arg(long, value_enum, default_value_t = TableFormat::Terminal)]
    pub format: TableFormat,
    #[command(flatten)]
    pub stats: StatsArgs,
    #[command(flatten)]
    pub home: HomeArg,
}

/// One benchmark's change.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The benchmark id.
    pub name: String,
    /// Unit of `old` and `new`.
    pub unit: String,
    /// The typical value before.
    pub old: Interval,
    /// The typical value after.
    pub new: Interval,
    /// Relative change (0.05 = 5 % slower) with its interval.
    pub change: Interval,
    /// p-value of the test, when both sides had samples.
    pub p_value: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
    /// Whether a change stays flagged once the false-discovery rate across
    /// all the rows with a p-value is held at the significance level
    /// (Benjamini–Hochberg). Rows without a p-value (exact counts) and
    /// unchanged rows are unaffected: true.
    pub survives_fdr: bool,
}

/// Benjamini–Hochberg across a comparison's tested rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Fdr {
    /// The false-discovery rate held (the significance level).
    pub q: f64,
    /// Rows with a p-value.
    pub tested: usize,
    /// Rows that changed (regressed or improved) one by one.
    pub flagged_alone: usize,
    /// The changed rows that survive the correction.
    pub kept: Vec<String>,
}

impl Fdr {
    /// The line under the table, e.g. `3 of 20 benchmarks changed one by
    /// one; with the false-discovery rate held at 5%, 1 remains (about 0.05
    /// of them expected to be false): parse/json`.
    #[must_use]
    pub fn line(&self) -> String {
        let kept: Vec<&str> = self.kept.iter().map(String::as_str).collect();
        format!(
            "{} of {} benchmarks changed one by one; {}",
            self.flagged_alone,
            self.tested,
            yardstick_stats::multiple::survivors_clause(self.q, &kept)
        )
    }
}

/// The comparison of two runs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Comparison {
    /// Benchmarks in both, by id.
    pub rows: Vec<Row>,
    /// Ids only in the old run.
    pub only_old: Vec<String>,
    /// Ids only in the new run.
    pub only_new: Vec<String>,
    /// Benchmarks skipped, with why (units differ, bad samples).
    pub skipped: Vec<String>,
    /// The false-discovery correction, when two or more rows were tested
    /// and at least one changed.
    pub fdr: Option<Fdr>,
}

/// Compares `new` against `old`.
#[must_use]
pub fn compare(old: &[BenchResult], new: &[BenchResult], cfg: &ChangeConfig) -> Comparison {
    let mut out = Comparison::default();
    for n in new {
        let Some(o) = old.iter().find(|o| o.name == n.name) else {
            out.only_new.push(n.name.clone());
            continue;
        };
        if o.unit != n.unit {
            out.skipped.push(format!(
                "{}: unit {} before, {} now",
                n.name, o.unit, n.unit
            ));
            continue;
        }
        match row(o, n, cfg) {
            Ok(r) => out.rows.push(r),
            Err(e) => out.skipped.push(format!("{}: {e}", n.name)),
        }
    }
    for o in old {
        if !new.iter().any(|n| n.name == o.name) {
            out.only_old.push(o.name.clone());
        }
    }
    out.rows.sort_by(|a, b| a.name.cmp(&b.name));
    out.fdr = control_fdr(&mut out.rows, cfg.significance);
    out
}

fn changed(r: &Row) -> bool {
    matches!(r.verdict, Verdict::Regressed | Verdict::Improved)
}

/// Marks the rows whose change does not survive Benjamini–Hochberg at `q`.
fn control_fdr(rows: &mut [Row], q: f64) -> Option<Fdr> {
    let tested: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].p_value.is_some())
        .collect();
    let flagged_alone = tested.iter().filter(|&&i| changed(&rows[i])).count();
    if tested.len() < 2 || flagged_alone == 0 {
        return None;
    }
    let p: Vec<f64> = tested
        .iter()
        .map(|&i| rows[i].p_value.unwrap_or(1.0))
        .collect();
    let outcome = yardstick_stats::multiple::control_fdr(&p, q);
    let mut kept = Vec::new();
    for (&i, &flagged) in tested.iter().zip(&outcome.flagged) {
        let r = &mut rows[i];
        r.survives_fdr = flagged || !changed(r);
        if flagged && changed(r) {
            kept.push(r.name.clone());
        }
    }
    Some(Fdr {
        q,
        tested: tested.len(),
        flagged_alone,
        kept,
    })
}

/// The comparison of two runs sampled in worker processes, as the harness
/// makes it (`yardstick_stats::processes::compare_runs`).
fn between_processes(
    o: &BenchResult,
    n: &BenchResult,
    cfg: &ChangeConfig,
) -> Option<Result<yardstick_stats::Change, yardstick_stats::StatsError>> {
    fn side(r: &BenchResult) -> Option<yardstick_stats::processes::RunSamples<'_>> {
        Some(yardstick_stats::processes::RunSamples {
            iters: &r.iters,
            values: &r.values,
            processes: r.processes.as_deref()?,
        })
    }
    let (old, new) = (side(o)?, side(n)?);
    yardstick_stats::processes::compare_runs(old, new, cfg)
}

fn row(o: &BenchResult, n: &BenchResult, cfg: &ChangeConfig) -> Result<Row, String> {
    let (change, p_value, verdict) = if o.iters.len() >= 2 && n.iters.len() >= 2 {
        // Runs sampled in worker processes: the harness's own comparison.
        let c = match between_processes(o, n, cfg) {
            Some(c) => c,
            None => stats_compare(&o.averages(), &n.averages(), cfg),
        }
        .map_err(|e| e.to_string())?;
        (
            Interval {
                point: c.mean.point,
                lower: c.mean.lower,
                upper: c.mean.upper,
            },
            Some(c.p_value),
            c.verdict,
        )
    } else {
        if o.typical.point <= 0.0 {
            return Err("the old typical value is not positive".into());
        }
        // (new − old) / old: for whole counts the difference is exact, so a
        // count grown by exactly the threshold is not above it (new / old − 1
        // would round 1010 / 1000 − 1 above 0.01).
        let rel = (n.typical.point - o.typical.point) / o.typical.point;
        let verdict = if rel > cfg.noise_threshold {
            Verdict::Regressed
        } else if rel < -cfg.noise_threshold {
            Verdict::Improved
        } else {
            Verdict::NoChange
        };
        (Interval::exact(rel), None, verdict)
    };
    Ok(Row {
        name: n.name.clone(),
        unit: n.unit.clone(),
        old: o.typical,
        new: n.typical,
        change,
        p_value,
        verdict,
        survives_fdr: true,
    })
}

/// The verdict's word in tables.
#[must_use]
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Regressed => "regressed",
        Verdict::Improved => "improved",
        Verdict::NoChange => "no change",
        Verdict::WithinNoise => "within noise",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, p: Option<f64>, verdict: Verdict) -> Row {
        let i = Interval::exact(1.0);
        Row {
            name: name.into(),
            unit: "ns".into(),
            old: i,
            new: i,
            change: Interval::exact(0.1),
            p_value: p,
            verdict,
            survives_fdr: true,
        }
    }

    /// Flat samples in five processes, four each, at `level · (1 + off)`
    /// per iteration with ±0.05 % inside a process.
    fn in_processes(level: f64, offsets: [f64; 5]) -> BenchResult {
        let (mut iters, mut values, mut procs) = (Vec::new(), Vec::new(), Vec::new());
        for (p, off) in offsets.iter().enumerate() {
            for w in [0.0005, -0.0005, 0.0002, -0.0002] {
                iters.push(10.0);
                values.push(10.0 * level * (1.0 + off + w));
                procs.push(p as u32);
            }
        }
        let mut r = BenchResult::from_samples("b".into(), "ns".into(), iters, values).unwrap();
        r.processes = Some(procs);
        r
    }

    #[test]
    fn runs_sampled_in_processes_are_compared_as_the_harness_compares_them() {
        // A whole run 2 % slower, processes ±1 % apart: the samples alone
        // (tight inside each process) call it a regression; counting the
        // run's own shift, as `cargo bench` does, it is not one.
        let offsets = [0.01, -0.01, 0.005, -0.005, 0.0];
        let (old, new) = (in_processes(100.0, offsets), in_processes(102.0, offsets));
        let cfg = ChangeConfig {
            nresamples: 2_000,
            ..ChangeConfig::default()
        };
        let r = super::row(&old, &new, &cfg).unwrap();
        let fast = |b: &BenchResult| {
            yardstick_stats::processes::per_process_fast(
                &b.iters,
                &b.values,
                b.processes.as_deref().unwrap(),
            )
            .unwrap()
        };
        let harness = yardstick_stats::processes::compare(&fast(&old), &fast(&new), &cfg).unwrap();
        assert_eq!(r.verdict, harness.verdict);
        assert_eq!(r.p_value, Some(harness.p_value));
        assert_ne!(r.verdict, Verdict::Regressed);
        let (mut o, mut n) = (old.clone(), new.clone());
        (o.processes, n.processes) = (None, None);
        let by_samples = super::row(&o, &n, &cfg).unwrap();
        assert_eq!(by_samples.verdict, Verdict::Regressed);
    }

    #[test]
    fn benjamini_hochberg_keeps_only_what_survives() {
        // Ten tested rows; three regressed one by one at p = 0.001, 0.02,
        // 0.04. By hand at q = 0.05: 0.001 · 10/1 = 0.01 ≤ 0.05 stays;
        // 0.02 · 10/2 = 0.1 and 0.04 · 10/3 = 0.133 (and every larger rank)
        // exceed it, so those two go. An exact-count row is not tested.
        let mut rows = vec![
            row("a", Some(0.001), Verdict::Regressed),
            row("b", Some(0.02), Verdict::Regressed),
            row("c", Some(0.04), Verdict::Improved),
            row("exact", None, Verdict::Regressed),
        ];
        for i in 0..7 {
            rows.push(row(
                &format!("quiet{i}"),
                Some(0.3 + 0.1 * f64::from(i)),
                Verdict::NoChange,
            ));
        }
        let fdr = control_fdr(&mut rows, 0.05).unwrap();
        assert_eq!((fdr.tested, fdr.flagged_alone), (10, 3));
        assert_eq!(fdr.kept, ["a"]);
        let survives: Vec<bool> = rows.iter().take(4).map(|r| r.survives_fdr).collect();
        assert_eq!(survives, [true, false, false, true]);
        assert!(rows[4..].iter().all(|r| r.survives_fdr));
        assert_eq!(
            fdr.line(),
            "3 of 10 benchmarks changed one by one; with the false-discovery rate across them held at 5%, 1 remains (about 0.05 of them expected to be false): a"
        );
    }

    #[test]
    fn reproduces_the_harness_change_file_bit_for_bit() {
        // The fixture is the harness's own output: `fake/work` saved as
        // `base`, then measured again (FIXTURE_WORK=210) with `--baseline
        // base`, which wrote `new/` and `change/estimates.json`.
        let home = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/criterion/harness");
        let args = ["cargo-yardstick", "compare", "base", "new"];
        let Ok(crate::cli::Invocation::Parsed(command)) = crate::cli::parse(args) else {
            panic!("compare base new parses");
        };
        let crate::cli::Command::Compare(c) = *command else {
            panic!("compare base new is a compare");
        };
        let cfg = crate::commands::change_config(&c.stats);
        let old = crate::import::read_baseline(&home, "base").unwrap();
        let new = crate::import::read_baseline(&home, "new").unwrap();
        let out = compare(&old, &new, &cfg);
        assert_eq!(out.rows.len(), 1, "{out:?}");
        let change = out.rows[0].change;
        let file = home.join("fake_work_419a005c/change/estimates.json");
        let saved: yardstick_format::criterion::ChangeFile =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let want = saved.mean;
        let ci = want.confidence_interval;
        assert_eq!(
            [change.point, change.lower, change.upper].map(f64::to_bits),
            [want.point_estimate, ci.lower_bound, ci.upper_bound].map(f64::to_bits),
            "{change:?} vs {want:?}"
        );
        assert_eq!(out.rows[0].verdict, Verdict::Regressed);
    }

    #[test]
    fn one_tested_row_or_no_change_needs_no_correction() {
        let mut one = vec![row("a", Some(0.04), Verdict::Regressed)];
        assert!(control_fdr(&mut one, 0.05).is_none());
        assert!(one[0].survives_fdr);
        let mut quiet = vec![
            row("a", Some(0.5), Verdict::NoChange),
            row("b", Some(0.6), Verdict::NoChange),
        ];
        assert!(control_fdr(&mut quiet, 0.05).is_none());
    }
}
