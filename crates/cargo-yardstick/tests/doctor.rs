//! `cargo yardstick doctor` on this machine, and the machine's state a
//! recorded run keeps. Nothing here asserts a time: only that the
//! documents parse and match their schemas.

mod common;

use serde_json::Value;

#[test]
fn doctor_json_runs_and_parses() {
    let o = common::bin()
        .args(["yardstick", "doctor", "--format", "json", "--seconds", "2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", common::stderr(&o));
    let doc: Value = serde_json::from_str(&common::stdout(&o)).expect("one JSON document");
    common::assert_schema("doctor.v1.json", &doc);
    assert_eq!(doc["version"], 1);
    let sources: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["source"].as_str().unwrap())
        .collect();
    for s in [
        "drift",
        "interruptions",
        "steal",
        "load",
        "governor",
        "ASLR",
        "timer",
    ] {
        assert!(sources.contains(&s), "{s} missing from {sources:?}");
    }
    // The short windows are a lock-step round long (2 ms a side).
    assert_eq!(doc["drift"]["window_ns"], 2e6);
    let slowed = doc["drift"]["windows_slowed"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&slowed), "{slowed}");
}

#[test]
fn doctor_rejects_a_window_out_of_range_in_one_line() {
    let o = common::bin()
        .args(["doctor", "--seconds", "60"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("--seconds"),
        "{}",
        common::stderr(&o)
    );
}

#[test]
fn a_recorded_run_keeps_the_machine_state_and_exports_it() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let o = common::run(
        &home,
        &[
            "exec", "--runs", "2", "--shell", "none", "--name", "t", "true",
        ],
    );
    assert!(o.status.success(), "{}", common::stderr(&o));
    let out = dir.path().join("export");
    let o = common::run(&home, &["history", "--export", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    // One run: `<machine>/<time>-<commit>-<uid>.json`.
    let machine = std::fs::read_dir(&out)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let file = std::fs::read_dir(machine)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    common::assert_schema("history-run.v1.json", &doc);
    let state = doc.get("state").expect("exec keeps the state");
    // The record stays small: every field's name and value in well under
    // 2 KB, so a history of thousands of runs grows by a few MB.
    let size = serde_json::to_string(state).unwrap().len();
    assert!(size < 2048, "{size} bytes: {state}");
}
