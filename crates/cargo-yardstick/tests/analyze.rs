//! End-to-end tests of `cargo yardstick analyze`: the binary runs on the
//! fixtures in `tests/fixtures`, and every deterministic number it prints is
//! compared with `tests/reference/generate.py` (numpy/scipy) to 1e-9
//! relative; bootstrap bounds with a 200,000-resample numpy reference from
//! the same script.

mod common;
#[path = "reference/values.rs"]
mod values;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use values::{BANDS, EXPECTED};

const SCRIPT: &str = "tests/reference/generate.py";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-yardstick"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn analyze(file: &str, baseline: Option<&str>, extra: &[&str]) -> Value {
    let f = fixture(file);
    let mut args = vec!["analyze".to_owned(), f.display().to_string()];
    if let Some(b) = baseline {
        args.push("--baseline".to_owned());
        args.push(fixture(b).display().to_string());
    }
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&argv);
    assert!(
        out.status.success(),
        "{argv:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    common::assert_schema("analyze.v1.json", &doc);
    doc
}

#[track_caller]
fn close(what: &str, got: &Value, want: f64) {
    let got = got
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: {got} is not a number"));
    let tol = 1e-9 * want.abs();
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got:e}, expected {want:e} from {SCRIPT}"
    );
}

fn bench<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["benchmarks"]
        .as_array()
        .expect("benchmarks array")
        .iter()
        .find(|b| b["id"] == id)
        .unwrap_or_else(|| panic!("benchmark {id} missing"))
}

#[test]
fn deterministic_numbers_match_numpy_and_scipy() {
    let mut runs: Vec<((&str, Option<&str>), Value)> = Vec::new();
    for e in EXPECTED {
        let key = (e.file, e.baseline);
        if !runs.iter().any(|(k, _)| *k == key) {
            let doc = analyze(e.file, e.baseline, &["--nresamples", "2000", "--seed", "1"]);
            runs.push((key, doc));
        }
        let doc = &runs.iter().find(|(k, _)| *k == key).expect("ran").1;
        let b = bench(doc, e.id);
        let w = |s: &str| format!("{}: {} {s}", e.file, e.id);
        assert_eq!(b["unit"], e.unit);
        assert_eq!(b["n"], e.n);
        close(&w("mean"), &b["mean"]["point"], e.mean);
        close(&w("median"), &b["median"]["point"], e.median);
        close(&w("std_dev"), &b["std_dev"]["point"], e.std_dev);
        close(&w("mad"), &b["mad"]["point"], e.mad);
        match (e.slope, e.r2) {
            (Some(s), Some(r2)) => {
                close(&w("slope"), &b["slope"]["point"], s);
                close(&w("r2"), &b["r2"], r2);
            }
            _ => {
                assert!(b["slope"].is_null(), "{}", w("flat data has no slope"));
                assert!(b["r2"].is_null());
            }
        }
        for (k, want) in ["min", "p25", "p50", "p75", "max"]
            .iter()
            .zip(e.percentiles)
        {
            close(&w(k), &b["percentiles"][k], want);
        }
        for (i, want) in e.fences.iter().enumerate() {
            close(&w("fence"), &b["tukey"]["fences"][i], *want);
        }
        for (k, want) in ["low_severe", "low_mild", "high_mild", "high_severe"]
            .iter()
            .zip(e.counts)
        {
            assert_eq!(b["tukey"][k], want, "{} from {SCRIPT}", w(k));
        }
        close(
            &w("outlier variance"),
            &b["outlier_variance"]["fraction"],
            e.ov_fraction,
        );
        assert_eq!(b["outlier_variance"]["class"], e.ov_class);
        close(&w("err%"), &b["err_pct"], e.err_pct);
        match &e.change {
            Some(c) => {
                let ch = &b["change"];
                if c.mean == 0.0 {
                    assert_eq!(ch["mean"]["point"], 0.0);
                } else {
                    close(&w("change.mean"), &ch["mean"]["point"], c.mean);
                    close(&w("change.median"), &ch["median"]["point"], c.median);
                }
                for (k, want) in ["t", "df", "p"].iter().zip(c.welch) {
                    if want == 0.0 {
                        assert_eq!(ch["welch"][k], 0.0);
                    } else {
                        close(&w(&format!("welch.{k}")), &ch["welch"][k], want);
                    }
                }
                if c.student[0] != 0.0 {
                    close(&w("student.diff"), &ch["student"]["diff"], c.student[0]);
                }
                close(
                    &w("student.half_width"),
                    &ch["student"]["half_width"],
                    c.student[1],
                );
                close(&w("mann_whitney.u"), &ch["mann_whitney"]["u"], c.mwu[0]);
                close(&w("mann_whitney.p"), &ch["mann_whitney"]["p"], c.mwu[1]);
                assert!(ch["verdict"].is_string());
            }
            None => assert!(b.get("change").is_none(), "{}", w("has no baseline")),
        }
        if e.complexity.is_empty() {
            assert!(b.get("complexity").is_none(), "{}", w("no numeric values"));
        } else {
            let fits = b["complexity"].as_array().expect("complexity list");
            assert_eq!(fits.len(), e.complexity.len());
            for (got, (name, coef, err)) in fits.iter().zip(e.complexity) {
                assert_eq!(
                    got["name"],
                    *name,
                    "{} order from {SCRIPT}",
                    w("complexity")
                );
                close(&w(name), &got["coefficient"], *coef);
                close(&w(name), &got["err_pct"], *err);
            }
        }
    }
}

#[test]
fn bootstrap_bounds_agree_with_numpy_reference() {
    let doc = analyze("multi.csv", Some("multi_base.csv"), &["--seed", "3"]);
    let b = bench(&doc, "fib 10");
    for band in BANDS {
        let est = match band.stat.split_once('.') {
            Some((_, s)) => &b["change"][s],
            None => &b[band.stat],
        };
        let point = est["point"].as_f64().expect("point");
        let (lo, hi) = (
            est["lower"].as_f64().expect("lower"),
            est["upper"].as_f64().expect("upper"),
        );
        // 1 % of the estimate; for a relative change (near 0) 5 % of the
        // reference interval's width instead.
        let tol = if band.stat.starts_with("change") {
            0.05 * (band.upper - band.lower)
        } else {
            0.01 * point.abs()
        };
        assert!(
            (lo - band.lower).abs() <= tol && (hi - band.upper).abs() <= tol,
            "{}: [{lo}, {hi}] vs [{}, {}] from {SCRIPT}",
            band.stat,
            band.lower,
            band.upper
        );
        assert_eq!(est["confidence"], 0.95);
    }
}

#[test]
fn same_seed_same_document_and_flags_apply() {
    let a = analyze(
        "guide_fibonacci.csv",
        None,
        &["--nresamples", "500", "--seed", "9"],
    );
    let b = analyze(
        "guide_fibonacci.csv",
        None,
        &["--nresamples", "500", "--seed", "9"],
    );
    assert_eq!(a, b);
    assert_eq!(a["version"], 1);
    let c = analyze(
        "guide_fibonacci.csv",
        None,
        &["--confidence", "90", "--nresamples", "500"],
    );
    assert_eq!(c["benchmarks"][0]["mean"]["confidence"], 0.9);
    assert_eq!(c["benchmarks"][0]["id"], "Fibonacci/Iterative");
}

#[test]
fn cargo_passes_its_subcommand_name_first() {
    let f = fixture("guide_fibonacci.csv");
    let out = run(&[
        "yardstick",
        "analyze",
        &f.display().to_string(),
        "--nresamples",
        "100",
    ]);
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["benchmarks"].as_array().map(Vec::len), Some(1));
}

/// Writes `content` to a fresh temporary file and returns its path.
fn temp_csv(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cargo-yardstick-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("write");
    path
}

const HEADER: &str =
    "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count\n";

#[test]
fn bad_input_is_one_line_with_file_and_line_and_status_2() {
    let cases = [
        ("empty.csv", String::new(), ":1: empty file"),
        ("header_only.csv", HEADER.to_owned(), ":2: no samples after the header"),
        (
            "missing.csv",
            "group,function,value,unit\ng,f,,ns\n".to_owned(),
            ":1: missing columns throughput_num, throughput_type, sample_measured_value, iteration_count",
        ),
        (
            "nan.csv",
            format!("{HEADER}g,,,,,10,ns,1\ng,,,,,ten,ns,2\n"),
            ":3: sample_measured_value `ten` is not a finite number",
        ),
        (
            "zero.csv",
            format!("{HEADER}g,,,,,10,ns,1\ng,,,,,12,ns,0\n"),
            ":3: iteration_count is 0; every sample needs at least one iteration",
        ),
        (
            "negative.csv",
            format!("{HEADER}g,,,,,10,ns,1\ng,,,,,-12,ns,2\n"),
            ":3: sample_measured_value is -12; a measured time is never negative",
        ),
        (
            "short.csv",
            format!("{HEADER}g,,,,,10,ns\n"),
            ":2: expected 8 fields like the header, found 7",
        ),
        (
            "one.csv",
            format!("{HEADER}g,a,,,,10,ns,1\n"),
            ":2: benchmark `g/a` has 1 sample; at least 2 are needed",
        ),
    ];
    for (name, content, expected) in cases {
        let path = temp_csv(name, &content);
        let out = run(&[
            "analyze",
            &path.display().to_string(),
            "--nresamples",
            "100",
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert_eq!(
            stderr.lines().count(),
            1,
            "{name}: one line, got {stderr:?}"
        );
        assert!(
            stderr.contains(&format!("{}{expected}", path.display())),
            "{name}: {stderr:?} should name the file and say {expected:?}"
        );
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
    }
    let good = temp_csv(
        "good.csv",
        &format!("{HEADER}g,,,,,10,ns,1\ng,,,,,11,ns,1\n"),
    );
    let bad = temp_csv(
        "bad_base.csv",
        &format!("{HEADER}g,,,,,10,ns,1\ng,,,,,x,ns,1\n"),
    );
    let out = run(&[
        "analyze",
        &good.display().to_string(),
        "--baseline",
        &bad.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("{}:3:", bad.display())));
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        vec!["analyze"],
        vec!["analyze", "x.csv", "--confidence", "150"],
        vec!["analyze", "x.csv", "--nresamples", "0"],
        // Was a capacity-overflow panic (exit 101).
        vec!["analyze", "x.csv", "--nresamples", "18446744073709551615"],
        vec!["analyze", "x.csv", "--noise-threshold", "inf"],
        vec!["frobnicate"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = run(&["analyze", "/definitely/not/here.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("/definitely/not/here.csv: cannot read the file"));
}
