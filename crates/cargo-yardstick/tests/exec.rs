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

/// An `--export-json` file, checked against its schema.
fn export(path: &Path) -> serde_json::Value {
    let doc = json(path);
    let schema = if doc["results"][0].get("instructions").is_some() {
        "exec-callgrind.v1.json"
    } else {
        "exec.v1.json"
    };
    common::assert_schema(schema, &doc);
    doc
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
    let doc = export(&out_json);
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
    let doc = export(&out_json);
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
    let n = export(&out_json)["results"][0]["times"]
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
    let out_json = dir.path().join("counts.json");
    let o = exec(
        &home,
        &[
            "--callgrind",
            "--export-json",
            out_json.to_str().unwrap(),
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
    let exported = export(&out_json);
    assert_eq!(exported["results"][1]["instructions"], counts[1]);
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

/// The `new/` folder of exec benchmark `name` (whose folder name is found
/// by its `benchmark.json`, since names are made safe for file systems).
fn saved(home: &Path, name: &str) -> std::path::PathBuf {
    let full = format!("exec/{name}");
    for e in std::fs::read_dir(home.join("exec")).unwrap() {
        let dir = e.unwrap().path();
        let b = dir.join("new").join("benchmark.json");
        if b.is_file() && json(&b)["full_id"] == full.as_str() {
            return dir;
        }
    }
    panic!("no saved benchmark {full} under {}", home.display());
}

fn numbers(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

#[test]
fn report_saves_criterion_files_and_writes_the_pages() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let out_json = dir.path().join("r.json");
    // Without a shell nothing is subtracted: every run takes some time.
    let args = [
        "--runs",
        "4",
        "--shell",
        "none",
        "--report",
        "--name",
        "nothing",
        "--name",
        "a/b:c",
        "--export-json",
        out_json.to_str().unwrap(),
        "true",
        "sh -c true",
    ];
    let o = exec(&home, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let index = home.join("report").join("index.html");
    assert!(
        stderr(&o).contains(&format!(
            "wrote the report of 2 commands; index: {}",
            index.display()
        )),
        "{}",
        stderr(&o)
    );
    assert_eq!(db_state(&home).0, 1);
    let exported = export(&out_json);

    for (i, name) in ["nothing", "a/b:c"].into_iter().enumerate() {
        let b = saved(&home, name);
        let folder = b.file_name().unwrap().to_str().unwrap().to_owned();
        if name == "a/b:c" {
            // '/' and ':' are not file-name characters: replaced, and a
            // hash keeps the name apart from "a_b_c".
            assert!(
                folder.starts_with("a_b_c_") && folder.len() == 22,
                "{folder}"
            );
        } else {
            assert_eq!(folder, "nothing");
        }
        let new = b.join("new");
        let rec = json(&new.join("benchmark.json"));
        assert_eq!(rec["group_id"], "exec");
        assert_eq!(rec["function_id"], name);
        assert_eq!(rec["directory_name"], format!("exec/{folder}").as_str());
        // The same runs as the export, in nanoseconds, one iteration each.
        let sample = json(&new.join("sample.json"));
        assert_eq!(sample["sampling_mode"], "Flat");
        assert_eq!(numbers(&sample["iters"]), [1.0; 4]);
        let ns = numbers(&sample["times"]);
        let secs = numbers(&exported["results"][i]["times"]);
        assert_eq!(ns.len(), 4);
        for (n, s) in ns.iter().zip(&secs) {
            assert!(close(*n, s * 1e9), "{n} ns against {s} s");
        }
        // Estimates by their definitions: the mean, the median of four
        // (the middle two averaged), the n − 1 standard deviation.
        let est = json(&new.join("estimates.json"));
        let mean = ns.iter().sum::<f64>() / 4.0;
        let mut sorted = ns.clone();
        sorted.sort_by(f64::total_cmp);
        let median = (sorted[1] + sorted[2]) / 2.0;
        let sd = (ns.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
        let point = |k: &str| est[k]["point_estimate"].as_f64().unwrap();
        assert!(close(point("mean"), mean), "{est}");
        assert!(close(point("median"), median), "{est}");
        assert!(close(point("std_dev"), sd), "{est}");
        assert_eq!(est["mean"]["confidence_interval"]["confidence_level"], 0.95);
        assert!(est["slope"].is_null());
        let fences = numbers(&json(&new.join("tukey.json")));
        assert!(fences.windows(2).all(|w| w[0] <= w[1]), "{fences:?}");
        let raw = std::fs::read_to_string(new.join("raw.csv")).unwrap();
        let mut lines = raw.lines();
        assert_eq!(
            lines.next(),
            Some("group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count")
        );
        let rows: Vec<&str> = lines.collect();
        assert_eq!(rows.len(), 4);
        assert!(
            rows.iter()
                .all(|r| r.starts_with(&format!("exec,{name},,,,")) && r.ends_with(",ns,1")),
            "{raw}"
        );
        // As after a Criterion.rs run, base/ is this run; nothing to compare
        // with yet.
        assert_eq!(json(&b.join("base").join("sample.json")), sample);
        assert!(!b.join("change").exists());
        let page = std::fs::read_to_string(b.join("report").join("index.html")).unwrap();
        assert!(page.contains(&format!("<h1>exec/{name}</h1>")), "{page}");
        assert!(!page.contains("Change in mean"));
    }
    assert!(home.join("exec/report/index.html").is_file());
    let html = std::fs::read_to_string(&index).unwrap();
    // Listed under the group exec, by name, linking to their pages.
    assert!(
        html.contains(r#"<a href="../exec/report/group.html">exec</a>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<a href="../exec/nothing/report/index.html">nothing</a>"#),
        "{html}"
    );
    assert!(html.contains(">a/b:c</a>"), "{html}");

    // A second run is compared with the first (base/), then replaces it;
    // without the history it still writes the report.
    let mut again = args.to_vec();
    again.push("--no-history");
    let o = exec(&home, &again);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(db_state(&home).0, 1);
    let b = saved(&home, "nothing");
    let change = json(&b.join("change").join("estimates.json"));
    assert!(change["mean"]["point_estimate"].is_f64(), "{change}");
    let page = std::fs::read_to_string(b.join("report").join("index.html")).unwrap();
    assert!(page.contains("Change in mean"), "{page}");
    assert!(b.join("report/change/mean.svg").is_file());
    assert_eq!(
        json(&b.join("base").join("sample.json")),
        json(&b.join("new").join("sample.json"))
    );

    // cargo yardstick report reads them like any benchmark.
    let o = common::run(&home, &["report", "--nresamples", "1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "wrote 2 benchmark pages and 1 group pages; index: {}\n",
            index.display()
        )
    );

    // Refused: a single run, and instruction counts.
    let o = exec(&home, &["--runs", "1", "--report", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--report needs at least 2 runs per command"),
        "{}",
        stderr(&o)
    );
    let o = exec(&home, &["--callgrind", "--report", "true"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}
