//! The hostile-input campaign, kept: routines, ids and homes a careless
//! user produces. Each run has a deadline far above what it needs, so a
//! hang fails the test instead of stalling CI.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::home;

/// A hang, not a slow machine: the runs below take a second or two.
const DEADLINE: Duration = Duration::from_secs(180);

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the `hostile` fixture with `args` under `home`, killing it (and
/// failing) if it outlives [`DEADLINE`].
fn run(home: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hostile"));
    cmd.args(args)
        .arg("--home")
        .arg(home)
        .arg("--color")
        .arg("never");
    for (var, _) in std::env::vars_os() {
        if var.to_string_lossy().starts_with("YARDSTICK_") {
            cmd.env_remove(var);
        }
    }
    let out_path = home.join("stdout.txt");
    let err_path = home.join("stderr.txt");
    cmd.stdout(Stdio::from(std::fs::File::create(&out_path).unwrap()));
    cmd.stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()));
    let mut child = cmd.spawn().expect("the hostile fixture runs");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > DEADLINE {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "hung: {args:?} still running after {DEADLINE:?}; output so far:\n{}",
                std::fs::read_to_string(&out_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(&out_path).unwrap(),
        stderr: std::fs::read_to_string(&err_path).unwrap(),
    }
}

const FAST: &[&str] = &[
    "--bench",
    "--warm-up-time",
    "0.05",
    "--measurement-time",
    "0.1",
    "--nresamples",
    "1000",
];

fn with(extra: &[&'static str]) -> Vec<&'static str> {
    FAST.iter().chain(extra).copied().collect()
}

#[test]
fn a_clock_that_ignores_the_iteration_count_ends_with_a_warning() {
    // Fixed sampling (--sample-size) and adaptive sampling (the default).
    for (tag, args) in [
        (
            "ignores-fixed",
            with(&["--sample-size", "10", "clock/ignores-iters"]),
        ),
        (
            "ignores-adaptive",
            with(&["--timeout", "0.5", "clock/ignores-iters"]),
        ),
    ] {
        let h = home(tag);
        let r = run(&h, &args);
        assert_eq!(r.code, 0, "{tag}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr
                .contains("clock/ignores-iters: its measured time does not grow with the number of iterations"),
            "{tag}: {}",
            r.stderr
        );
        assert!(r.stdout.contains("time:   ["), "{tag}: {}", r.stdout);
        let _ = std::fs::remove_dir_all(h);
    }
}
