//! The default sampling in worker processes: what a user sees, and the
//! protocol the workers speak. Times come from a fake clock (the fixture's
//! `processes/*` benchmarks), so verdicts do not depend on the machine.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use common::{command, home, run};

/// Default sampling (adaptive, in processes), with a cheap bootstrap.
const DEFAULT: &[&str] = &["--bench", "--color", "never", "--nresamples", "2000"];

fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    DEFAULT
        .iter()
        .copied()
        .chain(extra.iter().copied())
        .collect()
}

fn saved_processes(home: &std::path::Path, bench: &str) -> Option<Vec<u64>> {
    // The id `processes/<bench>` has a slash: its folder is sanitised.
    let prefix = format!("processes_{bench}_");
    let folder = common::folder_starting_with(home, &prefix)
        .unwrap_or_else(|| panic!("no folder {prefix}* in {home:?}"));
    let path = folder.join("new/sample.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json.get("processes").map(|p| {
        p.as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect()
    })
}

#[test]
fn a_default_run_samples_each_benchmark_in_several_processes() {
    let home = home("proc-default");
    let env = [("FIXTURE_PROCESSES", "1")];
    let r = run(&home, &args(&["processes/steady"]), &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("processes/steady"), "{}", r.stdout);
    let procs = saved_processes(&home, "steady").expect("sample.json names the processes");
    let mut distinct = procs.clone();
    distinct.dedup();
    assert!(distinct.len() >= 5, "{procs:?}");
    // An exact clock: every process agrees, so the interval has no width.
    assert!(
        r.stdout.contains("[200.00 ns 200.00 ns 200.00 ns]"),
        "{}",
        r.stdout
    );

    // One process, as Criterion.rs samples: no process indices saved.
    let one = home.join("one");
    let r = run(&one, &args(&["--processes", "1", "processes/steady"]), &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(saved_processes(&one, "steady"), None);
}

#[test]
fn a_sample_size_asked_for_is_spread_over_the_processes() {
    // Criterion.rs files often set a sample size: the plan is kept (10
    // samples) and spread over 10 / 2 = 5 processes, two samples each.
    let home = home("proc-planned");
    let env = [("FIXTURE_PROCESSES", "1")];
    let plan = [
        "--sample-size",
        "10",
        "--warm-up-time",
        "0.05",
        "--measurement-time",
        "0.1",
        "processes/steady",
    ];
    let r = run(&home, &args(&plan), &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Collecting 10 samples"), "{}", r.stdout);
    let procs = saved_processes(&home, "steady").expect("sample.json names the processes");
    assert_eq!(procs.len(), 10, "{procs:?}");
    let mut distinct = procs.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct, [0, 1, 2, 3, 4], "{procs:?}");
}

#[test]
fn an_unchanged_run_is_not_a_change_and_a_slower_one_is_a_regression() {
    let home = home("proc-verdicts");
    // Criterion.rs's default 100,000 resamples: the sample bootstrap of a
    // multi-process run draws fewer, and its comparison must agree. The
    // cross-run rule (the saved numbers, not the kept binary: the change
    // comes from the environment, which both sides of a lock-step
    // comparison share).
    let a = [
        "--bench",
        "--color",
        "never",
        "--baseline-binary",
        "ignore",
        "processes/steady",
    ];
    let first = run(&home, &a, &[("FIXTURE_PROCESSES", "1")]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let again = run(&home, &a, &[("FIXTURE_PROCESSES", "1")]);
    assert!(
        again.stdout.contains("No change in performance detected."),
        "{}",
        again.stdout
    );
    let slower = run(
        &home,
        &a,
        &[("FIXTURE_PROCESSES", "1"), ("FIXTURE_SLOWER", "1.1")],
    );
    assert!(
        slower.stdout.contains("Performance has regressed."),
        "{}",
        slower.stdout
    );
    assert!(slower.stdout.contains("+10.000%"), "{}", slower.stdout);
}

#[test]
fn run_to_run_noise_wider_than_the_threshold_is_too_noisy_to_tell() {
    // ±6 % between processes, the same offsets in both runs: no change,
    // but no run of this machine could tell a 5 % change from noise.
    let home = home("proc-noisy");
    let a = args(&["--baseline-binary", "ignore", "processes/offset"]);
    let env = [("FIXTURE_PROCESSES", "1")];
    assert_eq!(run(&home, &a, &env).code, 0);
    let r = run(&home, &a, &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("Too noisy to tell: this machine's run-to-run noise is ±"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("compare in lock-step with cargo yardstick ab."),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("No change in performance detected."));
    // Sampling stopped at the process limit and said why.
    assert!(
        r.stderr.contains(
            "over 10 processes, not the ±1% asked for: this is the machine's run-to-run noise"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn a_hanging_benchmark_is_killed_and_the_others_still_run() {
    let home = home("proc-hang");
    let env = [("FIXTURE_PROCESSES", "1"), ("FIXTURE_HANG", "1")];
    // Time-out 0.3 s: the watchdog ends the hung worker after 2.9 s.
    let r = run(
        &home,
        &args(&["--timeout", "0.3", "processes/(hangs|steady)"]),
        &env,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("FAILED processes/hangs: no answer within"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("processes/steady"), "{}", r.stdout);
    assert!(
        r.stderr.contains("1 benchmark failed: processes/hangs"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_benchmark_that_panics_in_a_worker_fails_alone() {
    let home = home("proc-panic");
    let env = [("FIXTURE_PROCESSES", "1"), ("FIXTURE_PROCESS_PANIC", "1")];
    let r = run(&home, &args(&["processes/(panics|steady)"]), &env);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("FAILED processes/panics: panicked at"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("deliberate failure in a worker"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("processes/steady"), "{}", r.stdout);
}

/// The protocol by hand: a worker says hello and where it waits, answers a
/// warm-up and a sample request, and ends after the last benchmark.
#[test]
fn a_worker_speaks_the_line_protocol() {
    let home = home("proc-protocol");
    let mut cmd = command(
        &home,
        &["--bench", "processes/steady"],
        &[("FIXTURE_PROCESSES", "1")],
    );
    cmd.env("YARDSTICK_WORKER", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        r#"{{"kind":"warm_up","min_ns":1000000,"max_ns":5000000}}"#
    )
    .unwrap();
    writeln!(
        stdin,
        r#"{{"kind":"sample","iters":[10,20,30],"budget_ns":1000000000,"min_samples":3}}"#
    )
    .unwrap();
    writeln!(stdin, r#"{{"kind":"next"}}"#).unwrap();
    drop(stdin);
    let prefix = "\u{1e}yardstick-worker ";
    let lines: Vec<serde_json::Value> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| l.find(prefix).map(|at| l[at + prefix.len()..].to_owned()))
        .map(|json| serde_json::from_str(&json).unwrap())
        .collect();
    assert!(child.wait().unwrap().success());
    let kinds: Vec<&str> = lines.iter().map(|l| l["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["hello", "at", "warmed_up", "samples", "end"],
        "{lines:?}"
    );
    assert_eq!(lines[0]["version"], 1);
    assert_eq!(lines[1]["id"], "processes/steady");
    // The warm-up reads the wall clock (it plans the samples' lengths).
    assert!(lines[2]["per_iteration"].as_f64().unwrap() > 0.0);
    assert_eq!(lines[3]["iters"], serde_json::json!([10.0, 20.0, 30.0]));
    assert_eq!(
        lines[3]["values"],
        serde_json::json!([2000.0, 4000.0, 6000.0])
    );
    // A worker writes no files and prints nothing else.
    assert!(std::fs::read_dir(&home).unwrap().next().is_none());
}
