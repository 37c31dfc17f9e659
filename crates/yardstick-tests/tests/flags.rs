//! Command-line flags that change what is printed, written or concluded:
//! colours, `--quiet`, `--discard-baseline`, `--noplot`, `--ignored` and
//! the statistics' levels. Wherever a verdict or an interval is asserted,
//! the samples are written by the test and analysed with `--load-baseline`
//! (nothing is measured), so the numbers follow from them by hand.

mod common;
use std::path::Path;

use common::{files_under, home, run, write_sample, Run, QUICK};

fn quick(extra: &[&str]) -> Vec<String> {
    QUICK.iter().chain(extra).map(|s| (*s).to_owned()).collect()
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The folder of `sizes/sum/64` (a benchmark with a throughput of 64
/// bytes) under the home directory.
const SIZES: &str = "sizes/sum/64";

/// Analyses the saved sample `cur` of `sizes/sum/64` against baseline
/// `old`, with `extra` flags; nothing is measured.
fn load(h: &Path, extra: &[&str], env: &[(&str, &str)]) -> Run {
    let mut a = vec![
        "--bench",
        "--load-baseline",
        "cur",
        "--baseline",
        "old",
        "--exact",
        SIZES,
    ];
    a.extend(extra);
    let r = run(h, &a, env);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    r
}

/// Whether `text` holds an SGR escape (`ESC [ … m`), the kind that colours
/// text; a terminal's line clearing (`ESC [2K`) is not one.
fn coloured(text: &str) -> bool {
    text.split('\x1b').skip(1).any(|rest| {
        rest.strip_prefix('[').is_some_and(|r| {
            let end = r.find(|c: char| !(c.is_ascii_digit() || c == ';'));
            end.is_some_and(|i| r[i..].starts_with('m'))
        })
    })
}

#[test]
fn the_colour_check_tells_colours_from_line_clearing() {
    assert!(coloured("a \x1b[32mid\x1b[0m"));
    assert!(coloured("\x1b[1;31mx"));
    assert!(!coloured("\r\x1b[2KBenchmarking x"));
    assert!(!coloured("plain"));
}

/// Runs the fixture with its stdout and stderr on a new pseudo-terminal,
/// as in an interactive shell; returns what it wrote there.
#[cfg(target_os = "linux")]
fn on_a_terminal(h: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    use std::io::Read;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two descriptors through the valid pointers;
    // the name, settings and window size it may take are left null.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and nothing else owns them.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    for fd in [&master, &slave] {
        // Other tests spawn processes meanwhile: they must not inherit the
        // terminal and keep it open. SAFETY: a valid descriptor we own.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    let mut cmd = common::command(h, args, env);
    cmd.stdin(std::process::Stdio::null())
        .stdout(slave.try_clone().unwrap())
        .stderr(slave);
    let mut child = cmd.spawn().expect("the fixture runs");
    drop(cmd); // the parent's copies of the terminal's other end
    let mut out = Vec::new();
    // Linux answers EIO once no process holds the other end: the end of
    // the output.
    let _ = std::fs::File::from(master).read_to_end(&mut out);
    let status = child.wait().unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    assert!(status.success(), "{text}");
    text
}

#[test]
fn colours_follow_the_flag_then_no_color_then_cargo_term_color() {
    let h = home("colour");
    let values: Vec<f64> = (0..10).map(|i| 100.0 + f64::from(i % 5)).collect();
    write_sample(&h, SIZES, "old", &values);
    write_sample(&h, SIZES, "cur", &values);
    let on = |extra: &[&str], env: &[(&str, &str)]| {
        let r = load(&h, extra, env);
        coloured(&r.stdout)
    };
    // The flag decides, whatever the environment says.
    assert!(on(&["--color", "always"], &[]));
    assert!(on(&["--color", "always"], &[("NO_COLOR", "1")]));
    assert!(on(&["-c", "always"], &[("CARGO_TERM_COLOR", "never")]));
    assert!(!on(&["--color", "never"], &[]));
    assert!(!on(
        &["--color", "never"],
        &[("CARGO_TERM_COLOR", "always")]
    ));
    // auto (also the default): stdout here is a pipe, so no colour...
    assert!(!on(&["--color", "auto"], &[]));
    assert!(!on(&[], &[]));
    // ...unless cargo's setting asks for it, and NO_COLOR is not set.
    assert!(on(&[], &[("CARGO_TERM_COLOR", "always")]));
    assert!(on(&["--color", "auto"], &[("CARGO_TERM_COLOR", "always")]));
    assert!(!on(
        &[],
        &[("CARGO_TERM_COLOR", "always"), ("NO_COLOR", "1")]
    ));
    // An empty NO_COLOR is no NO_COLOR (no-color.org).
    assert!(on(&[], &[("CARGO_TERM_COLOR", "always"), ("NO_COLOR", "")]));
    // Every line stays the same apart from the escapes.
    let plain = load(&h, &["--color", "never"], &[]).stdout;
    let painted = load(&h, &["--color", "always"], &[]).stdout;
    assert_eq!(strip_sgr(&painted), plain);
}

/// `text` without its SGR escapes.
fn strip_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("\x1b[") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let end = after.find('m').expect("an escape ends in m");
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(target_os = "linux")]
#[test]
fn on_a_terminal_auto_colours_unless_no_color_or_cargo_term_color_never() {
    let h = home("colour-tty");
    let values: Vec<f64> = (0..10).map(|i| 100.0 + f64::from(i % 5)).collect();
    write_sample(&h, SIZES, "old", &values);
    write_sample(&h, SIZES, "cur", &values);
    let base = [
        "--bench",
        "--load-baseline",
        "cur",
        "--baseline",
        "old",
        "--exact",
        SIZES,
    ];
    let with = |extra: &[&'static str]| base.iter().chain(extra).copied().collect::<Vec<_>>();
    let out = on_a_terminal(&h, &base, &[]);
    assert!(out.contains("time:   ["), "{out}");
    assert!(coloured(&out), "auto on a terminal colours: {out:?}");
    assert!(coloured(&on_a_terminal(
        &h,
        &with(&["--color", "auto"]),
        &[]
    )));
    assert!(coloured(&on_a_terminal(
        &h,
        &base,
        &[("CARGO_TERM_COLOR", "auto")]
    )));
    for env in [
        &[("NO_COLOR", "1")][..],
        &[("CARGO_TERM_COLOR", "never")][..],
        &[("CARGO_TERM_COLOR", "always"), ("NO_COLOR", "1")][..],
    ] {
        let out = on_a_terminal(&h, &base, env);
        assert!(out.contains("time:   ["), "{env:?}: {out}");
        assert!(!coloured(&out), "{env:?}: {out:?}");
    }
    let out = on_a_terminal(&h, &with(&["--color", "never"]), &[]);
    assert!(!coloured(&out), "{out:?}");
}

#[test]
fn quiet_prints_only_the_time_and_throughput_lines() {
    let h = home("quiet");
    // Eight samples of 100 ns and two of 1000 ns: the quartiles are both
    // 100, so every fence is 100 and the two are high severe outliers.
    let mut values = vec![100.0; 8];
    values.extend([1000.0, 1000.0]);
    write_sample(&h, SIZES, "old", &values);
    write_sample(&h, SIZES, "cur", &values);
    let nresamples = ["--nresamples", "2000", "--color", "never"];

    let normal = load(&h, &nresamples, &[]);
    for line in [
        "                 change:",
        "No change in performance detected.",
        "Found 2 outliers among 10 measurements (20.00%)",
        "  2 (20.00%) high severe",
    ] {
        assert!(normal.stdout.contains(line), "{line}\n{}", normal.stdout);
    }

    let mut a = nresamples.to_vec();
    a.push("--quiet");
    let quiet = load(&h, &a, &[]);
    let lines: Vec<&str> = quiet.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", quiet.stdout);
    assert!(
        lines[0].starts_with("sizes/sum/64            time:   ["),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("                        thrpt:  ["),
        "{}",
        lines[1]
    );
    // The same result lines as without --quiet.
    assert!(normal.stdout.contains(quiet.stdout.as_str()));

    // A real run: no progress lines either.
    let h = home("quiet-run");
    let r = run(
        &h,
        &args(&quick(&["--quiet", "--exact", "fake/work"])),
        &[("FIXTURE_WORK", "2000")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{}", r.stdout);
    assert!(
        lines[0].starts_with("fake/work               time:   ["),
        "{}",
        r.stdout
    );
}

#[test]
fn discard_baseline_neither_compares_nor_writes() {
    // Into an empty home: not one file, even with extra metrics.
    let h = home("discard-empty");
    let r = run(
        &h,
        &args(&quick(&[
            "--discard-baseline",
            "--measure",
            "wall",
            "fake/work|sizes",
        ])),
        &[("FIXTURE_WORK", "2000")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.lines().any(|l| l.starts_with("fake/work")),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("wall:"), "{}", r.stdout);
    let written: Vec<_> = files_under(&h).into_iter().map(|(p, _)| p).collect();
    assert!(written.is_empty(), "{written:#?}");

    // Beside a saved run: eight times the work is not compared with it,
    // and no file is written again (files are replaced by a rename, so a
    // rewrite with the same bytes still changes the modification time).
    let h = home("discard-saved");
    let filter = "^(fake/work|sizes/sum/64)$";
    let saved = run(
        &h,
        &args(&quick(&["--measure", "wall", filter])),
        &[("FIXTURE_WORK", "2000")],
    );
    assert_eq!(saved.code, 0, "{}", saved.stderr);
    let snapshot = || {
        files_under(&h)
            .into_iter()
            .map(|(p, bytes)| {
                let modified = std::fs::metadata(&p).unwrap().modified().unwrap();
                (p, bytes, modified)
            })
            .collect::<Vec<_>>()
    };
    let before = snapshot();
    for file in [
        "sizes/sum/64/base/sample.json",
        "sizes/sum/64/new/metrics.json",
        "sizes/report/index.html",
        "report/index.html",
    ] {
        assert!(before.iter().any(|(p, ..)| p.ends_with(file)), "{file}");
    }
    // Far enough apart for any file system's timestamps.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let r = run(
        &h,
        &args(&quick(&["--discard-baseline", "--measure", "wall", filter])),
        &[("FIXTURE_WORK", "16000")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("fake/work"), "{}", r.stdout);
    assert!(!r.stdout.contains("change"), "{}", r.stdout);
    assert!(!r.stdout.contains("Performance has"), "{}", r.stdout);
    let after = snapshot();
    let changed: Vec<_> = after
        .iter()
        .filter(|f| !before.contains(f))
        .map(|(p, ..)| p)
        .collect();
    assert!(
        changed.is_empty() && after.len() == before.len(),
        "{changed:#?}"
    );
}

#[test]
fn noplot_writes_no_report_but_still_saves_the_results() {
    let is_report = |p: &Path| {
        p.components().any(|c| c.as_os_str() == "report")
            || p.extension().is_some_and(|e| e == "html" || e == "svg")
    };
    for flag in ["--noplot", "-n"] {
        let h = home(&format!("noplot{flag}"));
        let r = run(&h, &args(&quick(&[flag, "sizes"])), &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let files: Vec<_> = files_under(&h).into_iter().map(|(p, _)| p).collect();
        let reports: Vec<_> = files.iter().filter(|p| is_report(p)).collect();
        assert!(reports.is_empty(), "{flag}: {reports:#?}");
        assert!(
            h.join("sizes/sum/64/new/sample.json").exists(),
            "{files:#?}"
        );
        assert!(h.join("sizes/sum/256/base/estimates.json").exists());
    }
    // Without it, the same run writes the index, the group's and each
    // benchmark's page.
    let h = home("plots");
    let r = run(&h, &args(&quick(&["sizes"])), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for page in [
        "report/index.html",
        "sizes/report/index.html",
        "sizes/sum/64/report/index.html",
    ] {
        assert!(h.join(page).exists(), "{page}");
    }
}

#[test]
fn ignored_selects_nothing_to_run() {
    let h = home("ignored");
    let env = [("FIXTURE_INTERLEAVE", "1"), ("FIXTURE_METERS", "1")];
    let r = run(&h, &args(&quick(&["--ignored"])), &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "", "{}", r.stdout);
    assert!(files_under(&h).is_empty());
    // With a filter that matches, and as tests (without --bench).
    let r = run(&h, &args(&quick(&["--ignored", "fast/add"])), &env);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    let t = run(&h, &["--ignored"], &env);
    assert_eq!((t.code, t.stdout.as_str()), (0, ""), "{}", t.stderr);
    assert!(files_under(&h).is_empty());
    // The same runs without --ignored do run (the check above is not
    // vacuous).
    let t = run(&h, &["fast/add"], &[]);
    assert!(
        t.stdout.contains("Testing fast/add\nSuccess"),
        "{}",
        t.stdout
    );
}

/// The `benchmark-complete` message of a `--load-baseline` analysis.
fn message(h: &Path, extra: &[&str]) -> serde_json::Value {
    let mut a = vec!["--message-format", "json", "--color", "never"];
    a.extend(extra);
    let r = load(h, &a, &[]);
    r.stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|m| m["reason"] == "benchmark-complete")
        .unwrap_or_else(|| panic!("{}", r.stdout))
}

#[test]
fn confidence_level_sets_the_width_of_the_intervals() {
    let h = home("confidence");
    // 30 values, 100 + {-4.5, -3.5, …, 4.5} three times: mean 100,
    // population variance (10² − 1)/12 = 8.25, so the bootstrap's standard
    // error of the mean is √(8.25/30) = 0.52440; its distribution is close
    // to normal, so the percentile interval's half-width is z · 0.52440:
    // 0.35371 at 50 % (z = 0.67449) and 1.35077 at 99 % (z = 2.57583).
    let values: Vec<f64> = (0..30).map(|i| 95.5 + f64::from(i % 10)).collect();
    write_sample(&h, SIZES, "old", &values);
    write_sample(&h, SIZES, "cur", &values);
    let se = (8.25f64 / 30.0).sqrt();
    for (level, z) in [("0.5", 0.674_489_75), ("0.99", 2.575_829_3)] {
        let m = message(&h, &["--confidence-level", level]);
        let mean = &m["mean"];
        let (lo, est, hi) = (
            mean["lower_bound"].as_f64().unwrap(),
            mean["estimate"].as_f64().unwrap(),
            mean["upper_bound"].as_f64().unwrap(),
        );
        assert!((est - 100.0).abs() < 1e-9, "{m}");
        let expected = z * se;
        for half in [est - lo, hi - est] {
            assert!(
                (half / expected - 1.0).abs() < 0.06,
                "at {level}: [{lo} {est} {hi}], half-width {expected} expected"
            );
        }
    }
}

#[test]
fn nresamples_is_the_number_of_bootstrap_resamples() {
    let h = home("nresamples");
    let values: Vec<f64> = (0..30).map(|i| 95.5 + f64::from(i % 10)).collect();
    write_sample(&h, SIZES, "old", &values);
    write_sample(&h, SIZES, "cur", &values);
    // The fewest accepted: each interval still holds its point.
    let few = message(&h, &["--nresamples", "100"]);
    for key in ["mean", "median", "typical"] {
        let e = &few[key];
        let (lo, hi) = (
            e["lower_bound"].as_f64().unwrap(),
            e["upper_bound"].as_f64().unwrap(),
        );
        let point = e["estimate"]
            .as_f64()
            .unwrap_or_else(|| e["point_estimate"].as_f64().unwrap());
        assert!(lo <= point && point <= hi, "{key}: {few}");
    }
    let many = message(&h, &["--nresamples", "5000"]);
    let e = &many["mean"];
    assert!(
        e["lower_bound"].as_f64().unwrap() < e["upper_bound"].as_f64().unwrap(),
        "{many}"
    );
}

#[test]
fn significance_level_decides_between_a_change_and_none() {
    let h = home("significance");
    // old: 100 + d, cur: 102 + d, d = -2, -1, 0, 1, 2 twice. By hand: the
    // means differ by 2 (+2 %), each sample's variance is 20/9, so
    // t = 2 / √(2 · (20/9) / 10) = 3.0 with 18 degrees of freedom:
    // p = 0.0077 (two-sided), far from both levels below.
    let d = [-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0];
    let old: Vec<f64> = d.iter().map(|d| 100.0 + d).collect();
    let cur: Vec<f64> = d.iter().map(|d| 102.0 + d).collect();
    write_sample(&h, SIZES, "old", &old);
    write_sample(&h, SIZES, "cur", &cur);
    // A noise threshold of 0.1 %, so the verdict turns on p alone.
    let common = ["--noise-threshold", "0.001", "--color", "never"];
    let verdict = |level: &str| {
        let mut a = common.to_vec();
        a.extend(["--significance-level", level]);
        load(&h, &a, &[]).stdout
    };
    let at_5 = verdict("0.05");
    assert!(at_5.contains("Performance has regressed."), "{at_5}");
    assert!(at_5.contains(" +2.0000% "), "{at_5}");
    assert!(at_5.contains(" < 0.05)"), "{at_5}");
    let at_01 = verdict("0.001");
    assert!(
        at_01.contains("No change in performance detected."),
        "{at_01}"
    );
    assert!(!at_01.contains("regressed"), "{at_01}");
    // By default the one comparison the baseline plans is judged at its
    // share of 5 % (LOND: 0.05 · 1/2 = 0.025), which p = 0.0077 clears.
    let default = load(&h, &common, &[]).stdout;
    assert!(default.contains(" < 0.0250)"), "{default}");
    assert!(default.contains("Performance has regressed."), "{default}");
}
