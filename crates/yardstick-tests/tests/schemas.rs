//! Every JSON file a run writes into its home validates against its
//! checked-in schema (yardstick-format's `schemas/`): a run that saves, a
//! second that compares (so `change/estimates.json` exists), with metrics
//! (`metrics.json`), a calibrated drift (`drift.json`, read back) and the
//! kept bench binary's record (`binary.json`) and its build record beside
//! it (`.binaries/<key>/<hash>-<size>.build.json`). A JSON
//! file the mapping below does not know fails the test, so a new file
//! cannot ship without a schema.

mod common;
use common::{assert_schema, home, run, QUICK};

use std::path::{Path, PathBuf};

/// The schema of a file the harness writes, by its name and folder.
fn schema_of(path: &Path) -> Option<&'static str> {
    let in_change = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|d| d == "change");
    Some(match path.file_name()?.to_str()? {
        "sample.json" => "criterion-sample.json",
        "estimates.json" if in_change => "criterion-change.json",
        "verdict.json" if in_change => "change-verdict.v1.json",
        "estimates.json" => "criterion-estimates.json",
        "benchmark.json" => "criterion-benchmark.json",
        "tukey.json" => "criterion-tukey.json",
        "metrics.json" => "metrics.v1.json",
        "drift.json" => "drift.v1.json",
        "binary.json" => "binary.v1.json",
        "build.json" => "build.v1.json",
        // The build record kept once beside the kept binary.
        n if n.ends_with(".build.json") => "build.v1.json",
        _ if path.parent()?.file_name()? == ".layouts" => "layout.v1.json",
        _ => return None,
    })
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

#[test]
fn every_json_file_of_a_run_has_a_schema_and_validates() {
    let h = home("schemas");
    let args = |extra: &[&'static str]| -> Vec<&'static str> {
        QUICK.iter().chain(extra).copied().collect()
    };
    let first = run(
        &h,
        &args(&["--measure", "wall", "fake/work|sizes"]),
        &[("FIXTURE_WORK", "2000")],
    );
    assert_eq!(first.code, 0, "{}", first.stderr);
    // A drift calibrate would have written, which the next run reads.
    let work = std::fs::read_dir(&h)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("new").join("sample.json").exists())
        .expect("a saved benchmark");
    std::fs::write(
        work.join("drift.json"),
        r#"{"version":1,"relative_drift":0.02,"runs":5,"estimates":[1.0,1.01,0.99,1.0,1.02],"unit":"ns"}"#,
    )
    .unwrap();
    let second = run(
        &h,
        &args(&["--measure", "wall", "fake/work|sizes"]),
        &[("FIXTURE_WORK", "2000")],
    );
    assert_eq!(second.code, 0, "{}", second.stderr);
    let mut files = Vec::new();
    json_files(&h, &mut files);
    let mut seen = std::collections::BTreeSet::new();
    for f in &files {
        let schema = schema_of(f).unwrap_or_else(|| {
            panic!(
                "{} has no schema: add one to yardstick-format/schemas",
                f.display()
            )
        });
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        assert_schema(schema, &doc);
        seen.insert(schema);
    }
    // Every kind of file was written, and checked.
    assert_eq!(seen.len(), 10, "{seen:?}");
    // The build is recorded once, beside the kept binary both runs share,
    // and in no saved folder.
    let named = |f: &&PathBuf| f.file_name().unwrap().to_string_lossy().into_owned();
    let records: Vec<String> = files.iter().map(|f| named(&f)).collect();
    assert_eq!(
        records
            .iter()
            .filter(|n| n.ends_with(".build.json"))
            .count(),
        1,
        "{records:?}"
    );
    assert!(!records.iter().any(|n| n == "build.json"), "{records:?}");
    let _ = std::fs::remove_dir_all(h);
}
