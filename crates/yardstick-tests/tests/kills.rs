//! The kill -9 campaign, kept: a run killed at a random point, over and
//! over, never leaves an unparseable file or a folder mixing two runs, and
//! the next complete run leaves no temporaries. CI runs 12 trials;
//! `YARDSTICK_SLOW_TESTS=1` runs 100.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;
use common::home;

const ARGS: &[&str] = &[
    "--bench",
    "--warm-up-time",
    "0.02",
    "--measurement-time",
    "0.05",
    "--sample-size",
    "10",
    "--nresamples",
    "500",
    "--color",
    "never",
    "^ids/",
];

fn command(h: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hostile"));
    cmd.args(ARGS).arg("--home").arg(h);
    for (var, _) in std::env::vars_os() {
        if var.to_string_lossy().starts_with("YARDSTICK_") {
            cmd.env_remove(var);
        }
    }
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    cmd
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        out.push(path.clone());
        if path.is_dir() {
            walk(&path, out);
        }
    }
}

/// Every problem under `h`: unparseable JSON, a folder whose raw.csv is
/// not the run of its sample.json, and (when `finished`) temporaries.
fn problems(h: &Path, finished: bool) -> Vec<String> {
    let mut paths = Vec::new();
    walk(h, &mut paths);
    let mut out = Vec::new();
    for p in &paths {
        let name = p.file_name().unwrap().to_string_lossy();
        if finished && name.starts_with('.') && (name.ends_with(".tmp") || name.ends_with(".old")) {
            out.push(format!("temporary left: {}", p.display()));
        }
        if p.extension().is_some_and(|e| e == "json") && !name.starts_with('.') {
            let bytes = std::fs::read(p).unwrap();
            if serde_json::from_slice::<serde_json::Value>(&bytes).is_err() {
                out.push(format!("unparseable: {}", p.display()));
            }
        }
        if name == "sample.json" && !p.parent().unwrap().to_string_lossy().contains(".tmp") {
            let Ok(sample) =
                serde_json::from_slice::<serde_json::Value>(&std::fs::read(p).unwrap())
            else {
                continue;
            };
            let iters: Vec<u64> = sample["iters"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap() as u64)
                .collect();
            let raw = std::fs::read_to_string(p.with_file_name("raw.csv")).unwrap_or_default();
            let counts: Vec<u64> = raw
                .lines()
                .skip(1)
                .filter_map(|l| l.rsplit(',').next()?.parse().ok())
                .collect();
            if counts != iters {
                out.push(format!("mixed: {} and its raw.csv", p.display()));
            }
        }
    }
    out
}

#[test]
fn kills_at_random_points_leave_whole_files_and_unmixed_folders() {
    let trials = if std::env::var_os("YARDSTICK_SLOW_TESTS").is_some() {
        100
    } else {
        12
    };
    let h = home("kills");
    // One complete run, so that every later kill lands on a full home.
    assert!(command(&h).status().unwrap().success());
    let mut state = 0x2545_f491_4f6c_dd1du64 ^ u64::from(std::process::id());
    for trial in 0..trials {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut child = command(&h).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(state % 900));
        let _ = child.kill();
        child.wait().unwrap();
        let found = problems(&h, false);
        assert!(found.is_empty(), "trial {trial}: {found:#?}");
    }
    assert!(command(&h).status().unwrap().success());
    let found = problems(&h, true);
    assert!(found.is_empty(), "after a complete run: {found:#?}");
    let _ = std::fs::remove_dir_all(h);
}

/// Three runs at once into one home whose baselines are all unreadable:
/// each folder ends whole and unmixed, its unreadable baseline kept once
/// (`base.corrupt`, never a fresh baseline of another run moved aside as
/// `base.corrupt.2`), and the home's lock lets every run save.
#[test]
fn concurrent_runs_into_one_home_never_corrupt_each_other() {
    let h = home("concurrent");
    assert!(command(&h).status().unwrap().success());
    let mut paths = Vec::new();
    walk(&h, &mut paths);
    let bases: Vec<PathBuf> = paths
        .into_iter()
        .filter(|p| p.ends_with("base/sample.json"))
        .collect();
    assert!(!bases.is_empty());
    for p in &bases {
        std::fs::write(p, b"{\"sampling_mode\":").unwrap();
    }
    let children: Vec<_> = (0..3).map(|_| command(&h).spawn().unwrap()).collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    // The unreadable baselines written above are kept, as they were.
    let found: Vec<String> = problems(&h, true)
        .into_iter()
        .filter(|p| !p.contains("base.corrupt"))
        .collect();
    assert!(found.is_empty(), "{found:#?}");
    for p in &bases {
        let folder = p.parent().unwrap().parent().unwrap();
        let kept: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("base.corrupt"))
            .collect();
        assert_eq!(kept, ["base.corrupt"], "{}", folder.display());
        let sample = std::fs::read(folder.join("base/sample.json")).unwrap();
        serde_json::from_slice::<serde_json::Value>(&sample).unwrap();
    }
    let _ = std::fs::remove_dir_all(h);
}

/// Whether `pid` has ended (gone, or a zombie nobody reaped yet).
#[cfg(target_os = "linux")]
fn ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// `cargo yardstick` killed with SIGKILL: its child (here a shell standing
/// for cargo, which names it as `cargo yardstick` does) dies, and the bench
/// binary the shell started ends with it instead of measuring on.
#[cfg(target_os = "linux")]
#[test]
fn a_bench_binary_ends_with_its_killed_supervisor() {
    let h = home("supervisor");
    let pid_file = h.join("pid");
    let script = format!(
        "YARDSTICK_SUPERVISOR_PID=$$ '{}' --bench --home '{}' --warm-up-time 60 '^ids/' \
         >/dev/null 2>&1 & echo $! > '{}'; wait",
        env!("CARGO_BIN_EXE_hostile"),
        h.display(),
        pid_file.display()
    );
    let mut shell = Command::new("sh").arg("-c").arg(script).spawn().unwrap();
    let start = std::time::Instant::now();
    let pid = loop {
        if let Some(p) = std::fs::read_to_string(&pid_file)
            .ok()
            .filter(|p| p.ends_with('\n'))
        {
            break p.trim().to_owned();
        }
        assert!(start.elapsed() < Duration::from_secs(60), "never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    // Let the binary get as far as its first warm-up.
    std::thread::sleep(Duration::from_millis(500));
    assert!(!ended(&pid), "the bench binary ended by itself");
    shell.kill().unwrap();
    shell.wait().unwrap();
    let start = std::time::Instant::now();
    while !ended(&pid) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the bench binary {pid} outlived its killed parent"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(h);
}
