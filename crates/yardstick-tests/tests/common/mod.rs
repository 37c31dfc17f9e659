//! Running the fixture bench binary as cargo would.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub mod builds;

/// Settings that make a real run take a fraction of a second.
pub const QUICK: &[&str] = &[
    "--bench",
    "--warm-up-time",
    "0.02",
    "--measurement-time",
    "0.05",
    "--sample-size",
    "10",
    "--nresamples",
    "2000",
    "--color",
    "never",
];

/// A fresh, empty home directory for one test. Homes of this tag left by
/// test processes that are gone (a failed assertion skips the clean-up; a
/// home with kept binaries can hold hundreds of MB) are removed first, so
/// at most one per tag outlives its run.
pub fn home(tag: &str) -> PathBuf {
    remove_abandoned(tag);
    let dir = std::env::temp_dir().join(format!("yardstick-e2e-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn remove_abandoned(tag: &str) {
    let prefix = format!("yardstick-e2e-{tag}-");
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(&prefix) else {
            continue;
        };
        let gone = pid.bytes().all(|b| b.is_ascii_digit())
            && cfg!(target_os = "linux")
            && !Path::new("/proc").join(pid).exists();
        if gone {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// The fixture with `args`, results under `home`, plus `env`; none of the
/// caller's colour settings or `YARDSTICK_*` options (every option reads
/// one) reach it.
pub fn command(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    command_of(Path::new(env!("CARGO_BIN_EXE_fixture")), home, args, env)
}

/// [`command`] for another bench binary (a copy of the fixture).
pub fn command_of(exe: &Path, home: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(exe);
    cmd.args(args).arg("--home").arg(home);
    for var in ["NO_COLOR", "CARGO_TERM_COLOR", "CRITERION_HOME"] {
        cmd.env_remove(var);
    }
    for (var, _) in std::env::vars_os() {
        if var.to_string_lossy().starts_with("YARDSTICK_") {
            cmd.env_remove(var);
        }
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

/// Runs the fixture with `args`, results under `home`, plus `env`.
pub fn run(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    finished(command(home, args, env))
}

/// Runs `cmd` to its end. A binary a test has just written can be busy
/// for a moment (ETXTBSY, 26 on Linux and macOS): another test's thread
/// may have forked while the file was open for writing, and its child
/// holds that descriptor until it execs. Seen once in CI's tests; the run
/// is tried again then.
pub fn finished(mut cmd: Command) -> Run {
    const TEXT_FILE_BUSY: i32 = 26;
    let mut tries = 0;
    let Output {
        status,
        stdout,
        stderr,
    } = loop {
        match cmd.output() {
            Err(e) if e.raw_os_error() == Some(TEXT_FILE_BUSY) && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            r => break r.expect("the fixture runs"),
        }
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// Every `benchmark.json` under `home`, as (folder, parsed file).
pub fn benchmark_files(home: &Path) -> Vec<(PathBuf, serde_json::Value)> {
    let mut out = Vec::new();
    let mut stack = vec![home.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().unwrap() == "benchmark.json"
                && path.parent().unwrap().file_name().unwrap() == "new"
            {
                let json = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                out.push((path.parent().unwrap().parent().unwrap().to_owned(), json));
            }
        }
    }
    out
}

/// Every file under `dir` with its contents, sorted by path.
pub fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                out.push((path, bytes));
            }
        }
    }
    out.sort();
    out
}

/// Writes a saved sample (`sample.json`) of the benchmark in folder
/// `bench_dir` under `home` as baseline `name`: flat sampling, one
/// iteration per sample, so the per-iteration values are `values` (ns).
pub fn write_sample(home: &Path, bench_dir: &str, name: &str, values: &[f64]) {
    let dir = home.join(bench_dir).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let doc = serde_json::json!({
        "sampling_mode": "Flat",
        "iters": vec![1.0; values.len()],
        "times": values,
    });
    std::fs::write(dir.join("sample.json"), doc.to_string()).unwrap();
}

pub fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The folder of the only benchmark saved under `home` (the report's own
/// folder and hidden files such as the home's lock aside).
pub fn benchmark_dir(home: &Path) -> PathBuf {
    let dirs: Vec<PathBuf> = std::fs::read_dir(home)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "report")
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

/// How many notes in `stderr` say that perf counters cannot be read: not
/// supported (no PMU, as in most VMs), not allowed (perf_event_paranoid)
/// or refused (a seccomp filter), whichever this machine says.
#[allow(dead_code)]
pub fn counter_notes(stderr: &str) -> usize {
    stderr
        .lines()
        .filter(|l| {
            l.contains("not supported on this machine")
                || l.contains("are not allowed: perf_event_paranoid")
                || l.contains("were refused (")
        })
        .count()
}

/// Checks `doc` against `name`, one of the JSON Schemas checked in under
/// yardstick-format's `schemas/`.
#[track_caller]
pub fn assert_schema(name: &str, doc: &serde_json::Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../yardstick-format/schemas")
        .join(name);
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("schema")).expect("JSON");
    let v = jsonschema::validator_for(&schema).expect("a valid schema");
    let errors: Vec<String> = v.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{name}: {errors:?}\n{doc:#}");
}

/// The folder directly under `home` whose name starts with `prefix` (an id
/// with a slash gets a sanitised name with a hash).
pub fn folder_starting_with(home: &Path, prefix: &str) -> Option<PathBuf> {
    std::fs::read_dir(home)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
}
