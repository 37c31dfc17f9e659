//! A deterministic suite written to a home directory as the harness writes
//! it (files of `new/`, `base/`, `change/`), then reported with the public
//! API. Shared by the integration tests.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use yardstick_format::criterion::{
    raw_csv, BenchmarkRecord, ChangeFile, ConfidenceInterval, EstimateFile, EstimatesFile, RawRow,
    SamplingMode, SavedSample, Throughput,
};
use yardstick_report::{
    write_benchmark, write_group, write_index, BenchmarkReport, BenchmarkResult, RunResults,
};
use yardstick_stats::rng::Rng;
use yardstick_stats::{
    classify, compare_with_distributions, estimates_with_distributions, BootstrapConfig, Change,
    ChangeConfig, Estimate, Verdict,
};

/// An id with a hostile group name: markup, quotes, a slash and `..`.
pub const HOSTILE_GROUP: &str = "<script>alert(\"x\")</script> & 'q'";
pub const HOSTILE_FUNCTION: &str = "a/b";
pub const HOSTILE_VALUE: &str = "..";

/// A fresh, empty folder under Cargo's temporary directory for tests.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// One benchmark of the suite.
pub struct Spec {
    pub group: &'static str,
    pub function: Option<&'static str>,
    pub value: Option<&'static str>,
    pub directory_name: String,
    pub per_iter: f64,
    pub linear: bool,
    pub throughput: Option<Throughput>,
    pub unit: &'static str,
    /// Slowdown of this run against the baseline, if there is one.
    pub baseline_ratio: Option<f64>,
}

/// The suite: a group over numeric inputs with two functions and a
/// baseline, a lone flat-sampled benchmark, a benchmark in another unit
/// and one with a hostile id.
pub fn specs() -> Vec<Spec> {
    let mut v = Vec::new();
    for (f, k) in [("json", 1.0), ("xml", 2.5)] {
        for n in ["1", "10", "100", "1000"] {
            let input: f64 = n.parse().unwrap();
            v.push(Spec {
                group: "parse",
                function: Some(f),
                value: Some(n),
                directory_name: format!("parse/{f}/{n}"),
                per_iter: 40.0 * k * input.powf(0.9),
                linear: true,
                throughput: Some(Throughput::Bytes(64 * input as u64)),
                unit: "ns",
                baseline_ratio: Some(if f == "xml" { 1.12 } else { 0.85 }),
            });
        }
    }
    v.push(Spec {
        group: "fib 20",
        function: None,
        value: None,
        directory_name: "fib 20".into(),
        per_iter: 2.6e7,
        linear: false,
        throughput: None,
        unit: "ns",
        baseline_ratio: None,
    });
    v.push(Spec {
        group: "cycles",
        function: Some("count"),
        value: None,
        directory_name: "cycles/count".into(),
        per_iter: 1234.0,
        linear: true,
        throughput: Some(Throughput::Elements(8)),
        unit: "cycles",
        baseline_ratio: Some(1.0),
    });
    v.push(Spec {
        group: HOSTILE_GROUP,
        function: Some(HOSTILE_FUNCTION),
        value: Some(HOSTILE_VALUE),
        directory_name: "_script_alert(_x_)__script_ & 'q'_1a2b3c4d/a_b_5e6a3b2f/_.._0badf00d"
            .into(),
        per_iter: 3.5,
        linear: true,
        throughput: Some(Throughput::ElementsAndBytes {
            elements: 4,
            bytes: 32,
        }),
        unit: "ns",
        baseline_ratio: Some(1.3),
    });
    v
}

fn sample(rng: &mut Rng, per_iter: f64, linear: bool) -> SavedSample {
    let d = (2e6 / per_iter).max(1.0).round();
    let iters: Vec<f64> = (1..=60)
        .map(|i| if linear { d * f64::from(i) } else { d * 30.0 })
        .collect();
    let times = iters
        .iter()
        .map(|&n| {
            let u: f64 = (0..4).map(|_| rng.next_f64()).sum::<f64>() - 2.0;
            let spike = if rng.next_f64() < 0.05 { 1.3 } else { 1.0 };
            n * per_iter * (1.0 + 0.04 * u) * spike
        })
        .collect();
    SavedSample {
        sampling_mode: if linear {
            SamplingMode::Linear
        } else {
            SamplingMode::Flat
        },
        iters,
        times,
        processes: None,
        measurement: None,
    }
}

fn file(e: &Estimate) -> EstimateFile {
    EstimateFile {
        confidence_interval: ConfidenceInterval {
            confidence_level: e.confidence,
            lower_bound: e.lower,
            upper_bound: e.upper,
        },
        point_estimate: e.point,
        standard_error: e.standard_error,
    }
}

fn save(dir: &Path, s: &SavedSample, est: &EstimatesFile, record: &BenchmarkRecord, unit: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("sample.json"), serde_json::to_vec(s).unwrap()).unwrap();
    fs::write(dir.join("estimates.json"), serde_json::to_vec(est).unwrap()).unwrap();
    fs::write(
        dir.join("benchmark.json"),
        serde_json::to_vec(record).unwrap(),
    )
    .unwrap();
    let tukey = classify(&s.averages()).fences.as_array();
    fs::write(dir.join("tukey.json"), serde_json::to_vec(&tukey).unwrap()).unwrap();
    let rows: Vec<RawRow> = s
        .iters
        .iter()
        .zip(&s.times)
        .map(|(&n, &t)| RawRow {
            group: record.group_id.clone(),
            function: record.function_id.clone().unwrap_or_default(),
            value: record.value_str.clone().unwrap_or_default(),
            throughput_num: record.throughput.map(|t| t.csv_columns().0),
            throughput_type: record.throughput.map(|t| t.csv_columns().1),
            sample_measured_value: t,
            unit: unit.to_owned(),
            iteration_count: n as u64,
        })
        .collect();
    fs::write(dir.join("raw.csv"), raw_csv(&rows)).unwrap();
}

/// Writes the suite's files and its whole report under `home` (as the
/// harness does during a run) and returns the run's results.
pub fn write_suite(home: &Path) -> RunResults {
    let mut rng = Rng::new(7);
    let boot = BootstrapConfig {
        nresamples: 10_000,
        confidence: 0.95,
        seed: 11,
    };
    let change_cfg = ChangeConfig {
        nresamples: 10_000,
        seed: 11,
        ..ChangeConfig::default()
    };
    let mut results = Vec::new();
    let mut groups: Vec<&str> = Vec::new();
    for spec in specs() {
        let mut parts = vec![spec.group.to_owned()];
        parts.extend(spec.function.map(str::to_owned));
        parts.extend(spec.value.map(str::to_owned));
        let full_id = parts.join("/");
        let record = BenchmarkRecord {
            group_id: spec.group.to_owned(),
            function_id: spec.function.map(str::to_owned),
            value_str: spec.value.map(str::to_owned),
            throughput: spec.throughput,
            title: full_id.clone(),
            full_id,
            directory_name: spec.directory_name.clone(),
        };
        let new = sample(&mut rng, spec.per_iter, spec.linear);
        let (estimates, dists) =
            estimates_with_distributions(&new.iters, &new.times, spec.linear, &boot).unwrap();
        let tukey = classify(&new.averages());
        let est_file = EstimatesFile {
            mean: file(&estimates.mean),
            median: file(&estimates.median),
            median_abs_dev: file(&estimates.mad),
            slope: estimates.slope.as_ref().map(file),
            std_dev: file(&estimates.std_dev),
        };
        let dir = home.join(&spec.directory_name);
        let base = spec
            .baseline_ratio
            .map(|r| sample(&mut rng, spec.per_iter / r, spec.linear));
        let change = base.as_ref().map(|b| {
            compare_with_distributions(&b.averages(), &new.averages(), &change_cfg).unwrap()
        });
        if let (Some(b), Some((c, _))) = (&base, &change) {
            let (be, _) =
                estimates_with_distributions(&b.iters, &b.times, spec.linear, &boot).unwrap();
            let be_file = EstimatesFile {
                mean: file(&be.mean),
                median: file(&be.median),
                median_abs_dev: file(&be.mad),
                slope: be.slope.as_ref().map(file),
                std_dev: file(&be.std_dev),
            };
            save(&dir.join("base"), b, &be_file, &record, spec.unit);
            let ch = ChangeFile {
                mean: file(&c.mean),
                median: file(&c.median),
            };
            fs::create_dir_all(dir.join("change")).unwrap();
            fs::write(
                dir.join("change/estimates.json"),
                serde_json::to_vec(&ch).unwrap(),
            )
            .unwrap();
        }
        save(&dir.join("new"), &new, &est_file, &record, spec.unit);
        let report = BenchmarkReport {
            record: &record,
            sample: &new,
            unit: spec.unit,
            estimates: &estimates,
            distributions: Some(&dists),
            tukey: &tukey,
            baseline: base.as_ref(),
            change: change.as_ref().map(|c| &c.0),
            change_distributions: change.as_ref().map(|c| &c.1),
            lockstep: None,
            explanation: None,
            build_line: None,
        };
        write_benchmark(home, &report).unwrap();
        results.push(BenchmarkResult::from_report(&report));
        if !groups.contains(&spec.group) {
            groups.push(spec.group);
        }
    }
    for g in groups {
        write_group(home, g, g == "parse").unwrap();
    }
    write_index(home).unwrap();
    RunResults::new("suite", results)
}

/// Every file under `dir`, recursively.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Writes the report of the benchmark in `dir` again with its saved sample
/// as its own baseline, as a second run that compared with the first.
pub fn rewrite_with_baseline(home: &Path, dir: &str) {
    let stored = yardstick_report::StoredBenchmark::load(&home.join(dir)).unwrap();
    let s = &stored.sample;
    let linear = s.sampling_mode == SamplingMode::Linear;
    let boot = BootstrapConfig {
        nresamples: 2_000,
        confidence: 0.95,
        seed: 3,
    };
    let (estimates, dists) =
        estimates_with_distributions(&s.iters, &s.times, linear, &boot).unwrap();
    let change_cfg = ChangeConfig {
        nresamples: 2_000,
        seed: 3,
        ..ChangeConfig::default()
    };
    let (change, change_dists) =
        compare_with_distributions(&s.averages(), &s.averages(), &change_cfg).unwrap();
    let tukey = classify(&s.averages());
    write_benchmark(
        home,
        &BenchmarkReport {
            record: &stored.record,
            sample: s,
            unit: &stored.unit,
            estimates: &estimates,
            distributions: Some(&dists),
            tukey: &tukey,
            baseline: Some(s),
            change: Some(&change),
            change_distributions: Some(&change_dists),
            lockstep: None,
            explanation: None,
            build_line: None,
        },
    )
    .unwrap();
}

/// A change of the mean of `point` in [`lower`, `upper`] (the median's
/// 1 % lower), with its p-value and verdict.
pub fn change(point: f64, lower: f64, upper: f64, p_value: f64, verdict: Verdict) -> Change {
    let est = |shift: f64| Estimate {
        point: point + shift,
        lower: lower + shift,
        upper: upper + shift,
        confidence: 0.95,
        standard_error: (upper - lower) / 3.92,
    };
    Change {
        mean: est(0.0),
        median: est(-0.01),
        p_value,
        t: 0.5,
        verdict,
    }
}

/// The page of the suite's `dir` written again as a run that measured
/// `change` (in lock-step when `lockstep`) would write it.
pub fn page_with_change(
    home: &Path,
    dir: &str,
    change: &Change,
    lockstep: Option<yardstick_format::change::LockstepFile>,
) -> String {
    page_with_build(home, dir, change, lockstep, None)
}

/// [`page_with_change`] by a run built differently from its baseline
/// (`build_line`, the comparison's line naming how).
pub fn page_with_build(
    home: &Path,
    dir: &str,
    change: &Change,
    lockstep: Option<yardstick_format::change::LockstepFile>,
    build_line: Option<&str>,
) -> String {
    let stored = yardstick_report::StoredBenchmark::load(&home.join(dir)).unwrap();
    let s = &stored.sample;
    let boot = BootstrapConfig {
        nresamples: 1_000,
        confidence: 0.95,
        seed: 3,
    };
    let (estimates, dists) = estimates_with_distributions(&s.iters, &s.times, true, &boot).unwrap();
    let tukey = classify(&s.averages());
    write_benchmark(
        home,
        &BenchmarkReport {
            record: &stored.record,
            sample: s,
            unit: &stored.unit,
            estimates: &estimates,
            distributions: Some(&dists),
            tukey: &tukey,
            baseline: Some(s),
            change: Some(change),
            change_distributions: None,
            lockstep,
            explanation: None,
            build_line,
        },
    )
    .unwrap();
    fs::read_to_string(home.join(dir).join("report/index.html")).unwrap()
}
