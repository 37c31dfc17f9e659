//! Test mode, list mode, help, bad flags and the output formats.

mod common;
use common::{home, run, QUICK};

#[test]
fn without_bench_every_benchmark_runs_once_as_a_test() {
    let h = home("test-mode");
    let r = run(&h, &[], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for id in ["fast/add", "work/spin", "odd names/..", "sizes/sum/64"] {
        assert!(
            r.stdout.contains(&format!("Testing {id}\nSuccess\n")),
            "{id} in\n{}",
            r.stdout
        );
    }
    // Test mode measures nothing and saves nothing.
    assert_eq!(std::fs::read_dir(&h).unwrap().count(), 0);
}

#[test]
fn list_prints_libtest_lines_for_matching_ids() {
    let h = home("list");
    let r = run(&h, &["--list", "--format", "terse"], &[]);
    assert_eq!(r.code, 0);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(lines.contains(&"fast/add: benchmark"), "{}", r.stdout);
    assert!(lines.contains(&"sizes/sum/256: benchmark"));
    assert_eq!(lines.len(), 20, "{}", r.stdout);
    // Criterion.rs 0.3's ids and order: a function over every value, then
    // the next; a lone input or a lone routine named like its group adds
    // nothing to the id.
    let legacy: Vec<&str> = lines[13..].to_vec();
    assert_eq!(
        legacy,
        [
            "legacy_functions/A: benchmark",
            "legacy_functions/B: benchmark",
            "param/A/1: benchmark",
            "param/A/2: benchmark",
            "param/B/1: benchmark",
            "param/B/2: benchmark",
            "alone: benchmark",
        ]
    );
    let r = run(&h, &["--list", "sizes"], &[]);
    assert_eq!(
        r.stdout,
        "sizes/sum/64: benchmark\nsizes/sum/256: benchmark\n"
    );
    let r = run(&h, &["--list", "--exact", "fast/add"], &[]);
    assert_eq!(r.stdout, "fast/add: benchmark\n");
    let r = run(&h, &["--list", "--ignored"], &[]);
    assert_eq!(r.stdout, "");
}

#[test]
fn bad_flags_get_one_line_and_status_2() {
    let h = home("bad-flags");
    for (args, needle) in [
        (&["--bench", "--sample-size", "abc"][..], "--sample-size"),
        (&["--bench", "--frobnicate"][..], "--frobnicate"),
        (&["--bench", "--color", "purple"][..], "--color"),
        (&["--bench", "--save-baseline", "../x"][..], "baseline name"),
    ] {
        let r = run(&h, args, &[]);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
}

#[test]
fn help_lists_the_options() {
    let r = run(&home("help"), &["--help"], &[]);
    assert_eq!(r.code, 0);
    for flag in [
        "--save-baseline",
        "--baseline-lenient",
        "--profile-time",
        "--output-format",
        "--quick",
    ] {
        assert!(r.stdout.contains(flag), "{flag}");
    }
}

#[test]
fn libtest_flags_are_accepted() {
    let r = run(
        &home("libtest"),
        &[
            "--nocapture",
            "--test-threads",
            "1",
            "--show-output",
            "-Z",
            "unstable-options",
            "fast",
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Testing fast/add"));
}

#[test]
fn bencher_format_prints_libtest_lines() {
    let h = home("bencher");
    let mut args = QUICK.to_vec();
    args.extend(["--output-format", "bencher", "fast/add"]);
    let r = run(&h, &args, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("test fast/add ... bench:"))
        .unwrap();
    assert!(
        line.ends_with(')') && line.contains(" ns/iter (+/- "),
        "{line}"
    );
    assert!(!r.stdout.contains("Benchmarking"), "{}", r.stdout);
}

#[test]
fn profile_time_calls_the_profiler_hooks_without_analysis() {
    let h = home("profile");
    let r = run(
        &h,
        &[
            "--bench",
            "--profile-time",
            "0.05",
            "--exact",
            "fast/add",
            "--color",
            "never",
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("profiler: start fast/add in"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("profiler: stop fast/add"), "{}", r.stdout);
    assert!(
        r.stdout.contains("Complete (Analysis Disabled)"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("time:"));
}
