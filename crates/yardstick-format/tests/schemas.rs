//! Every versioned file of this crate against its checked-in JSON Schema:
//! a document serialised from the types validates, and the schema rejects
//! what the readers reject (another version, a missing key, a wrong type).
//! The writers' real output is validated in the tests of the crates that
//! write it (yardstick-tests, cargo-yardstick).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};
use yardstick_format::analyze::{
    BenchmarkReport, ChangeJson, ComplexityJson, Document, EstimateJson, MannWhitneyJson,
    OutlierVarianceJson, Percentiles, StudentJson, TukeyJson, WelchJson,
};
use yardstick_format::change::{CountedFile, LockstepFile, RewrittenFile, VerdictFile};
use yardstick_format::criterion::{ConfidenceInterval, EstimateFile};
use yardstick_format::drift::DriftFile;
use yardstick_format::exec::{ExecExport, ExecResult};
use yardstick_format::json::{self, ToJson};
use yardstick_format::messages::{
    self, BenchmarkComplete, ChangeDetails, ChangeType, GroupComplete, Message,
};
use yardstick_format::metrics::{MetricsFile, SavedMetric};

fn validator(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the schema is checked in");
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("a valid schema")
}

fn assert_valid(v: &jsonschema::Validator, doc: &Value) {
    let errors: Vec<String> = v.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{doc:#}");
}

/// What the crate's writer writes, read by serde_json (an independent
/// reader).
fn to_value(x: &impl ToJson) -> Value {
    serde_json::from_str(&json::to_string(x)).unwrap()
}

/// What the crate's reader makes of serde_json's text of `doc`.
fn from_value<T: json::FromJson>(doc: Value) -> Result<T, json::Error> {
    json::from_str(&doc.to_string())
}

fn estimate_file(point: f64) -> EstimateFile {
    EstimateFile {
        confidence_interval: ConfidenceInterval {
            confidence_level: 0.95,
            lower_bound: point - 1.0,
            upper_bound: point + 1.0,
        },
        point_estimate: point,
        standard_error: 0.5,
    }
}

#[test]
fn metrics_json() {
    let v = validator("metrics.v1.json");
    let file = MetricsFile {
        version: yardstick_format::metrics::VERSION,
        metrics: vec![
            SavedMetric {
                name: "alloc_bytes".into(),
                unit: "B".into(),
                per_iteration: true,
                values: vec![Some(800.0), None, Some(2400.0)],
                estimate: Some(estimate_file(800.0)),
                peak: None,
            },
            SavedMetric {
                name: "peak_bytes".into(),
                unit: "B".into(),
                per_iteration: false,
                values: vec![Some(64.0)],
                estimate: None,
                peak: Some(64.0),
            },
        ],
    };
    let doc = to_value(&file);
    assert_valid(&v, &doc);
    assert_eq!(from_value::<MetricsFile>(doc.clone()).unwrap(), file);
    let mut wrong = doc.clone();
    wrong["version"] = json!(2);
    assert!(!v.is_valid(&wrong));
    let mut wrong = doc;
    wrong["metrics"][0]["values"] = json!("800");
    assert!(!v.is_valid(&wrong));
}

#[test]
fn layout_json() {
    use yardstick_format::layout::{LayoutFile, LayoutSpread};
    let v = validator("layout.v1.json");
    let file = LayoutFile {
        version: yardstick_format::layout::VERSION,
        target: "trust_suite".into(),
        layouts: 8,
        definition: "95% prediction bound".into(),
        benchmarks: vec![LayoutSpread {
            id: "sort/64".into(),
            relative_spread: 0.031,
            estimates: vec![100.0, 102.0, 98.5],
        }],
        measured_at: Some(1_795_000_000),
        rustc: Some("rustc 1.95.0 (59807616e 2026-04-14)".into()),
    };
    let doc = to_value(&file);
    assert_valid(&v, &doc);
    assert_eq!(from_value::<LayoutFile>(doc.clone()).unwrap(), file);
    for (pointer, bad) in [
        ("/version", json!(2)),
        ("/target", json!("../up")),
        ("/benchmarks/0/relative_spread", json!(-0.1)),
    ] {
        let mut wrong = doc.clone();
        *wrong.pointer_mut(pointer).unwrap() = bad;
        assert!(!v.is_valid(&wrong), "{pointer}");
    }
}

#[test]
fn relinks_json() {
    use yardstick_format::relinks::{Move, RelinksFile};
    let v = validator("relinks.v1.json");
    let mut file = RelinksFile::new();
    file.record(Move {
        baseline: "3f2a".into(),
        this: "9c1e".into(),
        ratio: 1.061,
        at: 1_790_000_000,
    });
    assert_valid(&v, &to_value(&file));
    let read: RelinksFile = from_value(to_value(&file)).unwrap();
    assert_eq!(read, file);
    let one = json!({"baseline": "a", "this": "b", "ratio": 1.0, "at": 1});
    for bad in [
        json!({"version": 2, "moves": []}),
        json!({"version": 1}),
        json!({"version": 1, "moves": [{"baseline": "a", "this": "b", "ratio": 0, "at": 1}]}),
        json!({"version": 1, "moves": [{"baseline": "a", "this": "b", "ratio": 1.0}]}),
        json!({"version": 1, "moves": vec![one; 9]}),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
    }
}

#[test]
fn drift_json() {
    let v = validator("drift.v1.json");
    let file = DriftFile {
        version: yardstick_format::drift::VERSION,
        relative_drift: 0.064,
        runs: 5,
        definition: "95% prediction bound".into(),
        estimates: vec![100.0, 102.0, 98.0, 101.0, 99.0],
        unit: "ns".into(),
    };
    let doc = to_value(&file);
    assert_valid(&v, &doc);
    assert_eq!(file.checked_drift(), Ok(0.064));
    // The harness's reader needs only these two keys, as older files had.
    let short = json!({"version": 1, "relative_drift": 0.1, "runs": 5});
    assert_valid(&v, &short);
    let read: DriftFile = from_value(short).unwrap();
    assert_eq!(read.checked_drift(), Ok(0.1));
    for bad in [
        json!({"version": 2, "relative_drift": 0.1}),
        json!({"version": 1, "relative_drift": -0.1}),
        json!({"version": 1}),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
        if let Ok(d) = from_value::<DriftFile>(bad) {
            assert!(d.checked_drift().is_err());
        }
    }
}

#[test]
fn change_verdict_json() {
    let v = validator("change-verdict.v1.json");
    let mut file = VerdictFile {
        version: yardstick_format::change::VERSION,
        mean: 0.0048,
        p_value: 0.63,
        t: 0.48,
        verdict: "NoChange".into(),
        lockstep: None,
        judged_at: None,
        verdict_alone: None,
        baseline: None,
    };
    assert_valid(&v, &to_value(&file));
    // The baseline's name is left out when unknown (files of an earlier
    // yardstick), and read back when kept.
    assert!(to_value(&file).get("baseline").is_none());
    let named = VerdictFile {
        baseline: Some("main".into()),
        ..file.clone()
    };
    assert_valid(&v, &to_value(&named));
    assert_eq!(from_value::<VerdictFile>(to_value(&named)).unwrap(), named);
    // The suite's level and the verdict alone, when the run held its
    // error rate across its comparisons.
    let held = VerdictFile {
        judged_at: Some(0.05 / 64.0),
        verdict_alone: Some("Regressed".into()),
        ..file.clone()
    };
    assert_valid(&v, &to_value(&held));
    assert_eq!(from_value::<VerdictFile>(to_value(&held)).unwrap(), held);
    let mut wrong = to_value(&held);
    wrong["verdict_alone"] = json!("Slower");
    assert!(!v.is_valid(&wrong));
    // Without lock-step the member is left out; with it, it is an object.
    assert!(to_value(&file).get("lockstep").is_none());
    file.lockstep = Some(LockstepFile {
        pairs: 8,
        rounds: 96,
        layouts: 4,
        counted: None,
        same_code: None,
        rewritten: None,
    });
    let doc = to_value(&file);
    assert!(doc["lockstep"].get("counted").is_none(), "{doc}");
    assert!(doc["lockstep"].get("same_code").is_none(), "{doc}");
    assert_valid(&v, &doc);
    assert_eq!(from_value::<VerdictFile>(doc).unwrap(), file);
    // No function differed between the builds: nothing was counted.
    let same = VerdictFile {
        lockstep: Some(LockstepFile {
            same_code: Some(true),
            ..file.lockstep.unwrap()
        }),
        ..file.clone()
    };
    let doc = to_value(&same);
    assert_eq!(doc["lockstep"]["same_code"], json!(true));
    assert_valid(&v, &doc);
    assert_eq!(from_value::<VerdictFile>(doc.clone()).unwrap(), same);
    let mut wrong = doc;
    wrong["lockstep"]["same_code"] = json!("yes");
    assert!(!v.is_valid(&wrong));
    // What the count before measuring found: the bytes it executed
    // changed, not their number.
    file.lockstep = Some(LockstepFile {
        counted: Some(CountedFile {
            baseline: 52_114.0,
            current: 52_114.0,
            code_changed: true,
            longer_rounds: true,
            rounds_factor: Some(1.5),
        }),
        ..file.lockstep.unwrap()
    });
    let doc = to_value(&file);
    assert_eq!(doc["lockstep"]["counted"]["code_changed"], json!(true));
    assert_eq!(doc["lockstep"]["counted"]["rounds_factor"], json!(1.5));
    assert_valid(&v, &doc);
    assert_eq!(from_value::<VerdictFile>(doc.clone()).unwrap(), file);
    // Files written before the factor was kept have none.
    let mut older = doc.clone();
    older["lockstep"]["counted"]
        .as_object_mut()
        .unwrap()
        .remove("rounds_factor");
    assert_valid(&v, &older);
    let read = from_value::<VerdictFile>(older).unwrap();
    assert_eq!(read.lockstep.unwrap().counted.unwrap().rounds_factor, None);
    for (field, value) in [("longer_rounds", json!(4)), ("rounds_factor", json!(0.5))] {
        let mut wrong = doc.clone();
        wrong["lockstep"]["counted"][field] = value;
        assert!(!v.is_valid(&wrong), "{field}");
    }
    // Most functions differ: nothing counted, how many said.
    let rewritten = VerdictFile {
        lockstep: Some(LockstepFile {
            counted: None,
            same_code: Some(false),
            rewritten: Some(RewrittenFile {
                changed: 2486,
                functions: 3402,
            }),
            ..file.lockstep.unwrap()
        }),
        ..file.clone()
    };
    let doc = to_value(&rewritten);
    assert_eq!(
        doc["lockstep"]["rewritten"],
        json!({"changed": 2486, "functions": 3402})
    );
    assert_valid(&v, &doc);
    assert_eq!(from_value::<VerdictFile>(doc.clone()).unwrap(), rewritten);
    let mut wrong = doc;
    wrong["lockstep"]["rewritten"]["changed"] = json!(-1);
    assert!(!v.is_valid(&wrong));
    assert!(file.goes_with(0.0048) && !file.goes_with(0.0049));
    for bad in [
        json!({"version": 2, "mean": 0.0, "p_value": 0.5, "t": 0.0, "verdict": "NoChange"}),
        json!({"version": 1, "mean": 0.0, "p_value": 0.5, "t": 0.0, "verdict": "Slower"}),
        json!({"version": 1, "mean": 0.0, "t": 0.0, "verdict": "NoChange"}),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
    }
}

#[test]
fn exec_export() {
    let v = validator("exec.v1.json");
    let one = ExecResult {
        command: "sleep 0.1".into(),
        mean: 0.1,
        stddev: Some(0.001),
        median: Some(0.1),
        user: 0.0005,
        system: 0.0007,
        min: Some(0.099),
        max: Some(0.102),
        times: vec![0.099, 0.1, 0.102],
        exit_codes: vec![Some(0), Some(0), None],
        mean_ci: Some([0.0995, 0.101]),
        median_ci: Some([0.099, 0.102]),
        parameters: Some(BTreeMap::from([("n".to_owned(), "0.1".to_owned())])),
    };
    let single = ExecResult {
        stddev: None,
        mean_ci: None,
        median_ci: None,
        parameters: None,
        times: vec![0.1],
        exit_codes: vec![Some(0)],
        ..one.clone()
    };
    let file = ExecExport {
        version: Some(yardstick_format::exec::VERSION),
        results: vec![one, single],
    };
    let doc = to_value(&file);
    assert_valid(&v, &doc);
    assert!(doc["results"][1].get("mean_ci").is_none());
    assert_eq!(from_value::<ExecExport>(doc.clone()).unwrap(), file);
    let mut wrong = doc;
    wrong["results"][0]["mean_ci"] = json!([1.0]);
    assert!(!v.is_valid(&wrong));
}

fn ej(point: f64) -> EstimateJson {
    EstimateJson {
        point,
        lower: point - 1.0,
        upper: point + 1.0,
        confidence: 0.95,
    }
}

#[test]
fn analyze_document() {
    let v = validator("analyze.v1.json");
    let bench = BenchmarkReport {
        id: "g/f/10".into(),
        unit: "ns".into(),
        n: 3,
        mean: ej(10.0),
        median: ej(10.0),
        std_dev: ej(1.0),
        mad: ej(1.0),
        slope: None,
        r2: None,
        percentiles: Percentiles {
            min: 9.0,
            p25: 9.5,
            p50: 10.0,
            p75: 10.5,
            max: 11.0,
        },
        tukey: TukeyJson {
            fences: [6.5, 8.0, 12.0, 13.5],
            low_severe: 0,
            low_mild: 0,
            high_mild: 0,
            high_severe: 0,
        },
        outlier_variance: OutlierVarianceJson {
            fraction: 0.01,
            class: "unaffected".into(),
        },
        err_pct: 5.0,
        change: Some(ChangeJson {
            mean: ej(0.1),
            median: ej(0.1),
            p_value: 0.01,
            welch: WelchJson {
                t: f64::INFINITY,
                df: 4.0,
                p: 0.0,
            },
            student: StudentJson {
                diff: 1.0,
                half_width: 0.5,
                confidence: 0.95,
            },
            mann_whitney: MannWhitneyJson { u: 9.0, p: 0.1 },
            verdict: "regressed".into(),
        }),
        complexity: Some(vec![ComplexityJson {
            name: "O(n)".into(),
            coefficient: 1.0,
            err_pct: 2.0,
        }]),
    };
    let doc = Document {
        version: yardstick_format::analyze::VERSION,
        benchmarks: vec![bench],
    };
    let value = to_value(&doc);
    assert!(value["benchmarks"][0]["change"]["welch"]["t"].is_null());
    assert_valid(&v, &value);
    let mut wrong = value;
    wrong["benchmarks"][0]["change"]["verdict"] = json!("slower");
    assert!(!v.is_valid(&wrong));
}

fn ci(estimate: f64, unit: &str) -> messages::ConfidenceInterval {
    messages::ConfidenceInterval {
        estimate,
        lower_bound: estimate - 1.0,
        upper_bound: estimate + 1.0,
        unit: unit.into(),
    }
}

#[test]
fn cargo_criterion_messages() {
    let v = validator("message.v1.json");
    let bench = Message::BenchmarkComplete(BenchmarkComplete {
        id: "fib/10".into(),
        report_directory: "target/criterion/reports/fib/10".into(),
        iteration_count: vec![1, 2],
        measured_values: vec![10.0, 20.0],
        unit: "ns".into(),
        throughput: vec![messages::Throughput {
            per_iteration: 8,
            unit: "bytes".into(),
        }],
        typical: ci(10.0, "ns"),
        mean: ci(10.0, "ns"),
        median: ci(10.0, "ns"),
        median_abs_dev: ci(0.5, "ns"),
        slope: Some(ci(10.0, "ns")),
        change: Some(ChangeDetails {
            mean: ci(0.01, "%"),
            median: ci(0.01, "%"),
            change: ChangeType::Regressed,
            p_value: Some(0.0004),
            judged_at: Some(0.0016),
            change_alone: Some(ChangeType::Regressed),
        }),
        metrics: vec![messages::MetricSummary {
            name: "allocations".into(),
            unit: "allocations".into(),
            per_iteration: Some(ci(1.0, "allocations")),
            peak: None,
            change: None,
        }],
    });
    let group = Message::GroupComplete(GroupComplete {
        group_name: "fib".into(),
        benchmarks: vec!["fib/10".into()],
        report_directory: "target/criterion/reports/fib".into(),
        complexity: Vec::new(),
    });
    for m in [&bench, &group] {
        assert_valid(&v, &to_value(m));
    }
    let mut wrong = to_value(&bench);
    wrong["reason"] = json!("benchmark-done");
    assert!(!v.is_valid(&wrong));
}

/// Criterion.rs's files, as the types serialise them, validate; the
/// schemas reject what Criterion.rs's readers would choke on.
#[test]
fn criterion_files() {
    use yardstick_format::criterion::{
        BenchmarkRecord, ChangeFile, EstimatesFile, SamplingMode, SavedSample, Throughput,
    };
    let sample = SavedSample {
        sampling_mode: SamplingMode::Linear,
        iters: vec![1.0, 2.0],
        times: vec![10.0, 21.0],
        processes: Some(vec![0, 1]),
        measurement: None,
    };
    assert_valid(&validator("criterion-sample.json"), &to_value(&sample));
    let estimates = EstimatesFile {
        mean: estimate_file(10.0),
        median: estimate_file(10.0),
        median_abs_dev: estimate_file(0.5),
        slope: None,
        std_dev: estimate_file(1.0),
    };
    assert_valid(
        &validator("criterion-estimates.json"),
        &to_value(&estimates),
    );
    let change = ChangeFile {
        mean: estimate_file(0.05),
        median: estimate_file(0.04),
    };
    assert_valid(&validator("criterion-change.json"), &to_value(&change));
    let record = BenchmarkRecord {
        group_id: "parse".into(),
        function_id: Some("json".into()),
        value_str: None,
        throughput: Some(Throughput::ElementsAndBytes {
            elements: 3,
            bytes: 64,
        }),
        full_id: "parse/json".into(),
        directory_name: "parse/json".into(),
        title: "parse/json".into(),
    };
    let v = validator("criterion-benchmark.json");
    assert_valid(&v, &to_value(&record));
    let mut bad = to_value(&record);
    bad["throughput"] = json!({"Furlongs": 3});
    assert!(!v.is_valid(&bad), "an unknown throughput kind");
    let s = validator("criterion-sample.json");
    let mut bad = to_value(&sample);
    bad["sampling_mode"] = json!("Auto");
    assert!(!s.is_valid(&bad), "Auto is a plan, never a saved mode");
    assert!(
        !validator("criterion-tukey.json").is_valid(&json!([1.0, 2.0, 3.0])),
        "four fences"
    );
}

#[test]
fn ab_result_of_a_shard_and_of_a_failed_one() {
    use yardstick_format::ab::{AbResult, AbRow, RESULT_VERSION};
    use yardstick_format::history::Machine;
    let v = validator("ab-result.v1.json");
    let row = |outcome: &str| AbRow {
        id: "parse/json".into(),
        outcome: outcome.into(),
        message: None,
        a: Some(1000.0),
        b: Some(1031.0),
        ratio: Some(1.031),
        lower: Some(1.018),
        upper: Some(1.044),
        p_value: Some(0.002),
        rounds: 48,
        pairs: 8,
        seconds: 2.6,
        layout_spread: Some(0.031),
    };
    let doc = AbResult {
        version: RESULT_VERSION,
        status: "ok".into(),
        error: None,
        shard: Some("hash:2/3".into()),
        machine: Machine {
            name: "ci".into(),
            cpu: "X".into(),
            cores: 4,
            os: "linux x86_64".into(),
        },
        a: "main (1a2b3c4d5e)".into(),
        b: "the working tree (HEAD 1a2b3c4d5e, clean)".into(),
        pairs: 8,
        round_ms: 2.0,
        timeout: 2.5,
        seconds: 2.6,
        confidence: 0.95,
        rows: vec![row("measured"), row("only-b")],
        layouts: 4,
        layout_note: None,
    };
    assert_valid(&v, &to_value(&doc));
    let back: AbResult = from_value(to_value(&doc)).unwrap();
    assert_eq!(back, doc);
    let failed = AbResult {
        status: "failed".into(),
        error: Some("'nope' is not a commit of this repository".into()),
        rows: Vec::new(),
        ..doc.clone()
    };
    assert_valid(&v, &to_value(&failed));
    for bad in [
        AbResult {
            shard: Some("2/3".into()),
            ..doc.clone()
        },
        AbResult {
            status: "maybe".into(),
            ..doc.clone()
        },
        AbResult {
            rows: vec![row("skipped")],
            ..doc
        },
    ] {
        assert!(!v.is_valid(&to_value(&bad)), "{bad:?}");
    }
}

fn machine_state() -> yardstick_format::doctor::MachineState {
    yardstick_format::doctor::MachineState {
        cpu: Some("AMD EPYC 7763 64-Core Processor".into()),
        logical_cores: Some(2),
        physical_cores: Some(1),
        smt: None,
        governor: Some("performance".into()),
        boost: Some(false),
        kernel: Some("6.8.0".into()),
        virtualization: vec!["hypervisor flag".into(), "dmi: QEMU".into()],
        cpu_max: Some("max 100000".into()),
        isolated_cpus: Some(String::new()),
        nohz_full: None,
        aslr: Some(2),
        load_start: Some(0.5),
        load_end: Some(1.25),
        steal: Some(0.01),
        busy: Some(0.6),
        memory_available: Some(4 << 30),
        memory_total: Some(8 << 30),
        memory_pressure: Some(0.0),
        cpu_pressure: None,
    }
}

#[test]
fn doctor_report() {
    use yardstick_format::doctor::{
        BusyProcess, DoctorReport, DriftWindow, Finding, MachineState, Timer, VERSION,
    };
    let v = validator("doctor.v1.json");
    let doc = DoctorReport {
        version: VERSION,
        machine: "ci".into(),
        seconds: 6.2,
        state: machine_state(),
        timer: Some(Timer {
            resolution_ns: 20.0,
            overhead_ns: 21.5,
        }),
        empty_loop_ns: Some(0.3),
        drift: Some(DriftWindow {
            work_ns: 30_000.0,
            medians_ns: vec![30_000.0, 30_300.0],
            relative_range: 0.01,
            relative_sd: 0.007,
            definition: "max/min - 1".into(),
            steal: vec![Some(0.0), None],
            window_ns: Some(2e6),
            windows_slowed: Some(0.1),
            window_median_excess: None,
        }),
        busy_processes: vec![BusyProcess {
            pid: 42,
            name: "rustc".into(),
            cpus: 0.9,
        }],
        findings: vec![Finding {
            source: "governor".into(),
            status: "noisy".into(),
            measured: "powersave".into(),
            advice: Some("pin the clock".into()),
            command: Some("sudo cpupower frequency-set -g performance".into()),
            yardstick: None,
        }],
    };
    let value = to_value(&doc);
    assert_valid(&v, &value);
    assert_eq!(from_value::<DoctorReport>(value.clone()).unwrap(), doc);
    // Nothing readable: every value of the state null, no measurement.
    let blind = DoctorReport {
        state: MachineState::default(),
        timer: None,
        empty_loop_ns: None,
        drift: None,
        busy_processes: Vec::new(),
        ..doc
    };
    assert_valid(&v, &to_value(&blind));
    for (pointer, bad) in [
        ("/version", json!(2)),
        ("/state/steal", json!(1.5)),
        ("/state/aslr", json!("2")),
        ("/findings/0/status", json!("fine")),
        ("/drift/medians_ns", json!([1.0])),
    ] {
        let mut wrong = value.clone();
        *wrong.pointer_mut(pointer).unwrap() = bad;
        assert!(!v.is_valid(&wrong), "{pointer}");
    }
    let mut missing = value;
    missing["state"].as_object_mut().unwrap().remove("cpu");
    assert!(!v.is_valid(&missing));
}

#[test]
fn history_run_keeps_the_state_or_leaves_it_out() {
    use yardstick_format::history::{ExportedBenchmark, ExportedRun, Machine, Typical};
    let v = validator("history-run.v1.json");
    let run = ExportedRun {
        version: 1,
        uid: "u1".into(),
        machine: Machine {
            name: "m".into(),
            cpu: String::new(),
            cores: 2,
            os: "linux x86_64".into(),
        },
        time: 1,
        commit: None,
        branch: None,
        dirty: false,
        rustc: String::new(),
        config: String::new(),
        source: "bench".into(),
        label: None,
        shard: None,
        state: Some(machine_state()),
        build: None,
        benchmarks: vec![ExportedBenchmark {
            name: "b".into(),
            unit: "ns".into(),
            typical: Typical {
                point: 1.0,
                lower: 1.0,
                upper: 1.0,
            },
            iters: vec![],
            values: vec![],
            instructions: None,
        }],
    };
    let doc = to_value(&run);
    assert_valid(&v, &doc);
    assert_eq!(from_value::<ExportedRun>(doc).unwrap(), run);
    let old = ExportedRun { state: None, ..run };
    let doc = to_value(&old);
    assert!(
        doc.get("state").is_none(),
        "left out, as before it was kept"
    );
    assert_valid(&v, &doc);
    assert_eq!(from_value::<ExportedRun>(doc).unwrap(), old);
}

/// The state is one type, so the two schemas that hold it must say the
/// same of it.
#[test]
fn the_state_is_described_once() {
    let read = |name: &str| -> Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schemas")
            .join(name);
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    assert_eq!(
        read("doctor.v1.json")["$defs"]["state"],
        read("history-run.v1.json")["$defs"]["state"]
    );
}

fn explained(id: &str) -> yardstick_format::explain::ExplainFile {
    use yardstick_format::explain::{ExplainFile, FunctionChange, VERSION};
    ExplainFile {
        version: VERSION,
        id: id.to_owned(),
        iterations: 20,
        baseline_instructions: 5013.0,
        current_instructions: 15_014.0,
        same: false,
        separated: true,
        debug_info: true,
        functions: vec![FunctionChange {
            name: "b::work".into(),
            file: Some("benches/b.rs".into()),
            line: Some(7),
            presence: "both".into(),
            self_baseline: 5000.0,
            self_current: 15_001.0,
            inclusive_baseline: 5000.0,
            inclusive_current: 15_001.0,
        }],
    }
}

#[test]
fn explain_json() {
    use yardstick_format::explain::{ExplainFile, ExplainRun, NotExplained, VERSION};
    let v = validator("explain.v1.json");
    let file = explained("work");
    let doc = to_value(&file);
    assert_valid(&v, &doc);
    assert_eq!(from_value::<ExplainFile>(doc).unwrap(), file);
    let run = ExplainRun {
        version: VERSION,
        explained: vec![file.clone()],
        not_explained: vec![NotExplained {
            id: "boom".into(),
            reason: "the routine failed under Callgrind: boom".into(),
        }],
    };
    let doc = to_value(&run);
    assert_valid(&v, &doc);
    assert_eq!(from_value::<ExplainRun>(doc).unwrap(), run);
    // Another version, a function of no side, a missing total.
    let mut other = to_value(&file);
    other["version"] = json!(2);
    let mut nowhere = to_value(&file);
    nowhere["functions"][0]["presence"] = json!("elsewhere");
    let mut short = to_value(&file);
    short
        .as_object_mut()
        .unwrap()
        .remove("current_instructions");
    for bad in [other, nowhere, short] {
        assert!(!v.is_valid(&bad), "{bad:#}");
    }
    let mut short = to_value(&file);
    short
        .as_object_mut()
        .unwrap()
        .remove("current_instructions");
    assert!(from_value::<ExplainFile>(short).is_err());
}

#[test]
fn build_json() {
    use yardstick_format::build::{BuildFile, Profile};
    let v = validator("build.v1.json");
    let file = BuildFile {
        version: yardstick_format::build::VERSION,
        yardstick: "0.1.0".into(),
        rustc: "rustc 1.91.1 (ed61e7d7e 2025-11-07)".into(),
        host: "x86_64-unknown-linux-gnu".into(),
        llvm: "21.1.2".into(),
        target: "x86_64-unknown-linux-gnu".into(),
        profile: Profile {
            name: "bench".into(),
            opt_level: "3".into(),
            debug: "false".into(),
            debug_assertions: false,
            panic: "unwind".into(),
            lto: Some("fat".into()),
            codegen_units: None,
            incremental: Some("false".into()),
        },
        rustflags: vec!["-C".into(), "target-cpu=native".into()],
        target_features: vec!["sse2".into()],
        features: None,
        linker: Some("clang".into()),
        layouts: true,
    };
    let doc = to_value(&file);
    assert_valid(&v, &doc);
    assert_eq!(from_value::<BuildFile>(doc.clone()).unwrap(), file);
    for (pointer, bad) in [
        ("/version", json!(2)),
        ("/rustflags", json!("-C target-cpu=native")),
        ("/profile/debug_assertions", json!("no")),
        ("/features", json!([1])),
    ] {
        let mut wrong = doc.clone();
        *wrong.pointer_mut(pointer).unwrap() = bad;
        assert!(!v.is_valid(&wrong), "{pointer}");
    }
    let mut missing = doc;
    missing.as_object_mut().unwrap().remove("rustc");
    assert!(!v.is_valid(&missing));
    assert!(from_value::<BuildFile>(missing).is_err());
}

#[test]
fn linked_layouts_json() {
    use yardstick_format::linked::{LinkedFile, VERSION};
    let v = validator("linked.v1.json");
    let file = LinkedFile {
        version: VERSION,
        binary: Some("af63dc4c8601ec8c-1".into()),
        seeds: (1..=8).collect(),
        error: None,
        seconds: 0.34,
    };
    let doc = to_value(&file);
    assert_valid(&v, &doc);
    assert_eq!(from_value::<LinkedFile>(doc.clone()).unwrap(), file);
    let failed = LinkedFile {
        seeds: vec![],
        error: Some("the linker cannot shuffle sections (ld: unrecognized option)".into()),
        ..file
    };
    assert_valid(&v, &to_value(&failed));
    for (pointer, bad) in [
        ("/version", json!(2)),
        ("/binary", json!("../x")),
        ("/seeds/0", json!(0)),
    ] {
        let mut wrong = doc.clone();
        *wrong.pointer_mut(pointer).unwrap() = bad;
        assert!(!v.is_valid(&wrong), "{pointer}");
    }
    // A kept binary's record lists its layouts by content name.
    let v = validator("binary.v1.json");
    let mut kept = json!({"version": 1, "target": "t", "binary": "af63dc4c8601ec8c-1",
        "protocol": 1, "layouts": ["0123456789abcdef-12"]});
    assert_valid(&v, &kept);
    kept["layouts"][0] = json!("../../x");
    assert!(!v.is_valid(&kept));
}
