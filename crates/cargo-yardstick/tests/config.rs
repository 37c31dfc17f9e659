//! `yardstick.toml` / `criterion.toml` and `report` through the real binary.

mod common;

use std::path::Path;
use std::process::Output;

use common::{bin, fixture, stderr, stdout};

/// Runs the binary in `dir` with no home from the environment.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    bin()
        .args(args)
        .current_dir(dir)
        .env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME")
        .env_remove("YARDSTICK_CONFIG")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("run cargo-yardstick")
}

const TRUE: [&str; 5] = ["exec", "--runs", "2", "--shell", "none"];

fn exec_true(dir: &Path, extra: &[&str]) -> Output {
    let mut a: Vec<&str> = TRUE.to_vec();
    a.extend_from_slice(extra);
    a.push("true");
    run_in(dir, &a)
}

#[test]
fn home_comes_from_the_file_found_walking_up_and_flags_override_it() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        dir.path().join("yardstick.toml"),
        "home = \"results\"\n[compare]\nformat = \"markdown\"\n",
    )
    .unwrap();
    let o = exec_true(&sub, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.path().join("results/history.sqlite").is_file());
    let o = exec_true(&sub, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // [compare] format applies; --format overrides it.
    let o = run_in(&sub, &["compare", "latest~1", "latest"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("| "), "{}", stdout(&o));
    let o = run_in(
        &sub,
        &["compare", "latest~1", "latest", "--format", "terminal"],
    );
    assert!(!stdout(&o).contains("| "), "{}", stdout(&o));
    // --home overrides the file, and so does YARDSTICK_HOME.
    let o = exec_true(&sub, &["--home", "flag-home"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(sub.join("flag-home/history.sqlite").is_file());
    let o = bin()
        .args(TRUE)
        .arg("true")
        .current_dir(&sub)
        .env("YARDSTICK_HOME", sub.join("env-home"))
        .env_remove("YARDSTICK_CONFIG")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(sub.join("env-home/history.sqlite").is_file());
}

#[test]
fn criterion_toml_is_read_when_there_is_no_yardstick_toml() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("criterion.toml"),
        "criterion_home = \"./crit\"\noutput_format = \"quiet\"\nplotting_backend = \"plotters\"\n\
         [colors]\ncurrent_sample = {r = 31, g = 120, b = 180}\n",
    )
    .unwrap();
    let o = exec_true(dir.path(), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.path().join("crit/history.sqlite").is_file());
    // yardstick.toml wins over criterion.toml beside it.
    std::fs::write(dir.path().join("yardstick.toml"), "home = \"ys\"\n").unwrap();
    let o = exec_true(dir.path(), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.path().join("ys/history.sqlite").is_file());
}

#[test]
fn exec_and_check_defaults_come_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("yardstick.toml"),
        "home = \"h\"\n[exec]\nruns = 3\nshell = \"none\"\n[check]\nthreshold = 1e9\n",
    )
    .unwrap();
    let j = dir.path().join("e.json");
    let o = run_in(
        dir.path(),
        &["exec", "--export-json", j.to_str().unwrap(), "sleep 0.001"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("spawned directly"));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    assert_eq!(doc["results"][0]["times"].as_array().unwrap().len(), 3);
    // --runs overrides [exec] runs.
    let o = run_in(
        dir.path(),
        &[
            "exec",
            "--runs",
            "2",
            "--export-json",
            j.to_str().unwrap(),
            "sleep 0.05",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    assert_eq!(doc["results"][0]["times"].as_array().unwrap().len(), 2);
    // Renamed so that check compares the same benchmark: 1 ms against 50 ms
    // passes only through the file's huge threshold; the flag brings it back.
    let c = run_in(dir.path(), &["exec", "--name", "s", "sleep 0.001"]);
    assert!(c.status.success(), "{}", stderr(&c));
    let c = run_in(dir.path(), &["exec", "--name", "s", "sleep 0.05"]);
    assert!(c.status.success(), "{}", stderr(&c));
    let o = run_in(dir.path(), &["check", "--against", "latest~1"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let o = run_in(
        dir.path(),
        &["check", "--against", "latest~1", "--threshold", "0.05"],
    );
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn a_bad_file_is_one_line_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "home = \"h\"\n[exec]\nrunz = 3\n",
            "yardstick.toml:3:",
            "runz",
        ),
        (
            "home = \"h\"\nnoise_threshold = -0.5\n",
            "yardstick.toml:2:",
            "noise_threshold",
        ),
        ("output_format = \"fancy\"\n", "yardstick.toml:1:", "fancy"),
        ("home = \n", "yardstick.toml:1:", ""),
        (
            "[colors]\nmild_outlier = {r = 300, g = 0, b = 0}\n",
            "yardstick.toml:2:",
            "",
        ),
    ];
    for (text, at, word) in cases {
        std::fs::write(dir.path().join("yardstick.toml"), text).unwrap();
        let o = run_in(dir.path(), &["history"]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(
            e.starts_with("error: ") && e.contains(at) && e.contains(word),
            "{e}"
        );
    }
    // analyze does not read the file.
    let o = run_in(
        dir.path(),
        &[
            "analyze",
            fixture("flat.csv").to_str().unwrap(),
            "--nresamples",
            "100",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn report_regenerates_the_html_from_disk() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let src = fixture("criterion/home/fib_10");
    let dst = home.join("fib_10");
    for sub in ["new", "main"] {
        std::fs::create_dir_all(dst.join(sub)).unwrap();
        for f in std::fs::read_dir(src.join(sub)).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), dst.join(sub).join(f.file_name())).unwrap();
        }
    }
    let o = run_in(
        dir.path(),
        &[
            "report",
            "--home",
            home.to_str().unwrap(),
            "--nresamples",
            "1000",
        ],
    );
    let out = stdout(&o);
    assert!(out.contains("index: "), "{out}{}", stderr(&o));
    assert!(home.join("report/index.html").is_file());
    assert!(
        out.contains("wrote 1 benchmark pages"),
        "{out}{}",
        stderr(&o)
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_in(dir.path(), &["report", "--home", "missing"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no such home directory"));
}
