//! `exec` through the real binary: real commands, relations between their
//! times (never absolute times), history, export, callgrind.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{bin, db_state, stderr, stdout};

fn exec(home: &Path, args: &[&str]) -> Output {
    let mut c = bin();
    c.arg("exec").args(args).arg("--home").arg(home);
    c.env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME")
        .env_remove("YARDSTICK_CONFIG")
        .current_dir(home.parent().expect("parent"));
    c.output().expect("run cargo-yardstick")
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

const LOOP: &str = "i=0; while [ $i -lt {n} ]; do i=$((i+1)); done";

#[test]
fn a_longer_sleep_is_slower_and_the_run_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let out_json = dir.path().join("e.json");
    let o = exec(
        &home,
        &[
            "--runs",
            "5",
            "--warmup",
            "1",
            "sleep 0.1",
            "sleep 0.01",
            "--export-json",
            out_json.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("subtracted from every run"), "{text}");
    assert!(text.contains("Benchmark 1: sleep 0.1"), "{text}");
    assert!(
        text.contains("'sleep 0.01' ran") && text.contains("times faster than 'sleep 0.1'"),
        "{text}"
    );
    let doc = json(&out_json);
    let r = doc["results"].as_array().unwrap();
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["times"].as_array().unwrap().len(), 5);
    let (sleep, t) = (
        r[0]["median"].as_f64().unwrap(),
        r[1]["median"].as_f64().unwrap(),
    );
    assert!(sleep > t, "sleep 0.1: {sleep}, sleep 0.01: {t}");
    // hyperfine's JSON: import reads it back.
    assert_eq!(db_state(&home).0, 1);
    let imp = common::run(&home, &["import", "hyperfine", out_json.to_str().unwrap()]);
    assert!(imp.status.success(), "{}", stderr(&imp));
    let (n, ok) = db_state(&home);
    assert_eq!((n, ok.as_str()), (2, "ok"));
    // compare and history read exec runs.
    let c = common::run(&home, &["compare", "latest~1", "latest"]);
    assert!(c.status.success(), "{}", stderr(&c));
    assert!(stdout(&c).contains("sleep 0.1"), "{}", stdout(&c));
    let h = common::run(&home, &["history", "sleep"]);
    assert!(stdout(&h).contains("sleep 0.1"), "{}", stdout(&h));
}

#[test]
fn a_parameter_scan_orders_loop_sizes_and_markdown_has_relative_speeds() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let out_json = dir.path().join("scan.json");
    let o = exec(
        &home,
        &[
            "--runs",
            "3",
            "--parameter-scan",
            "n",
            "2000",
            "20000",
            "--parameter-step",
            "18000",
            "--format",
            "markdown",
            "--export-json",
            out_json.to_str().unwrap(),
            LOOP,
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("| Command |"), "{text}");
    assert!(
        text.contains("-lt 2000 ]") && text.contains("-lt 20000 ]"),
        "{text}"
    );
    let doc = json(&out_json);
    let r = doc["results"].as_array().unwrap();
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["parameters"]["n"], "2000");
    assert_eq!(r[1]["parameters"]["n"], "20000");
    assert!(r[1]["min"].as_f64().unwrap() > r[0]["median"].as_f64().unwrap());
}

#[test]
fn adaptive_stopping_stays_within_min_and_max_runs() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let out_json = dir.path().join("a.json");
    let o = exec(
        &home,
        &[
            "--min-runs",
            "4",
            "--max-runs",
            "12",
            "--shell",
            "none",
            "--no-history",
            "--export-json",
            out_json.to_str().unwrap(),
            "true",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("spawned directly"), "{}", stdout(&o));
    let n = json(&out_json)["results"][0]["times"]
        .as_array()
        .unwrap()
        .len();
    assert!((4..=12).contains(&n), "{n}");
    assert!(!home.join("history.sqlite").exists());
}

#[test]
fn a_failing_command_and_bad_flags_get_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let o = exec(&home, &["--runs", "2", "false"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("error: 'false' exited with status 1; use --ignore-failure"),
        "{e}"
    );
    let o = exec(&home, &["--runs", "2", "--ignore-failure", "false"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = exec(
        &home,
        &["--runs", "2", "--name", "a", "--name", "b", "true"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--name given 2 times for 1 commands"));
    let o = exec(&home, &["--runs", "2", "--shell", "none", "echo 'x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unterminated"));
}

#[test]
fn prepare_runs_before_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let log = dir.path().join("log");
    let prep = format!("echo x >> {}", log.display());
    let o = exec(
        &home,
        &["--runs", "3", "--warmup", "2", "--prepare", &prep, "true"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 5);
}

fn valgrind() -> bool {
    Command::new("valgrind").arg("--version").output().is_ok()
}

#[test]
fn callgrind_counts_more_instructions_for_a_longer_loop() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let o = exec(
        &home,
        &[
            "--callgrind",
            "--parameter-scan",
            "n",
            "100",
            "400",
            "--parameter-step",
            "300",
            LOOP,
        ],
    );
    if !valgrind() {
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains("needs valgrind"));
        return;
    }
    assert!(o.status.success(), "{}", stderr(&o));
    let counts: Vec<u64> = stdout(&o)
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Instructions: "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 2, "{}", stdout(&o));
    assert!(counts[1] > 2 * counts[0], "{counts:?}");
    assert_eq!(db_state(&home).0, 1);
}

#[test]
fn callgrind_without_valgrind_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let mut c = bin();
    c.args(["exec", "--callgrind", "true", "--home"])
        .arg(&home)
        .env("PATH", dir.path());
    let o = c.output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("error: --callgrind needs valgrind"), "{e}");
}
