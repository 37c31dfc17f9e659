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

#[test]
fn numeric_options_at_their_extremes_are_one_line_and_exit_2() {
    let h = home("extremes");
    for (flag, value) in [
        ("--sample-size", "100000000000"),
        ("--sample-size", "18446744073709551615"),
        ("--nresamples", "18446744073709551615"),
        ("--nresamples", "1"),
        ("--nresamples", "99"),
        ("--noise-threshold", "inf"),
        ("--measurement-time", "1e300"),
        ("--significance-level", "-0"),
    ] {
        let r = run(&h, &["--bench", flag, value, "clock/coarse"]);
        assert_eq!(r.code, 2, "{flag} {value}: {}{}", r.stdout, r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{flag} {value}: {}", r.stderr);
        assert!(r.stderr.contains(flag), "{}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
    // A bad variable names the variable, not the flag.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hostile"));
    let out = cmd
        .args(["--bench", "--home"])
        .arg(&h)
        .env("YARDSTICK_SAMPLE_SIZE", "abc")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("for YARDSTICK_SAMPLE_SIZE: expected an integer"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(h);
}

/// Criterion.rs prints a benchmark by its title: the id cut to 100 bytes on
/// a character boundary, with `...` (half 2.6.0's `f16::from_f64/<f64::MAX>`
/// in the corpus of published crates showed the difference). Filters and
/// files keep the whole id.
#[test]
fn a_long_id_is_printed_by_criterions_title() {
    let h = home("long-id");
    let full = format!("long/{}é{}", "x".repeat(94), "y".repeat(50));
    let title = format!("long/{}...", "x".repeat(94));
    let out = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_hostile"))
            .args(args)
            .arg("--home")
            .arg(&h)
            .args(["--color", "never"])
            .env("HOSTILE_LONG_ID", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(
        out(&["--test", "^long/"]),
        format!("Testing {title}\nSuccess\n")
    );
    assert_eq!(
        out(&["--list", "--exact", &full]),
        format!("{title}: benchmark\n")
    );
    let bench = out(&[
        "--bench",
        "--sample-size",
        "10",
        "--measurement-time",
        "0.05",
        "--warm-up-time",
        "0.01",
        "^long/",
    ]);
    assert!(
        bench.starts_with(&format!("Benchmarking {title}\n")),
        "{bench}"
    );
    assert!(bench.contains(&format!("\n{title}\n")), "{bench}");
    assert!(!bench.contains("yyy"), "{bench}");
    let _ = std::fs::remove_dir_all(h);
}

#[test]
fn ids_whose_folders_collided_get_two_folders_and_a_stolen_folder_is_an_error() {
    let h = home("collide");
    let r = run(&h, &with(&["--sample-size", "10", "^ids/"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // The campaign's pair, which shared `x________c8556df9`: two folders,
    // each recording its own id.
    let ids: Vec<String> = std::fs::read_dir(h.join("ids"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("new").is_dir())
        .map(|p| {
            let record: serde_json::Value =
                serde_json::from_slice(&std::fs::read(p.join("new/benchmark.json")).unwrap())
                    .unwrap();
            record["full_id"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_ne!(ids[0], ids[1]);
    // A collision that happens all the same (here by hand): the folder says
    // whose it is, and the other id fails instead of being compared.
    let folder = std::fs::read_dir(h.join("ids"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.join("new").is_dir())
        .unwrap();
    let record = folder.join("new/benchmark.json");
    let text = std::fs::read_to_string(&record).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mine = doc["full_id"].as_str().unwrap().to_owned();
    doc["full_id"] = "someone/else".into();
    std::fs::write(&record, doc.to_string()).unwrap();
    let sample = std::fs::read(folder.join("new/sample.json")).unwrap();
    let r = run(&h, &with(&["--sample-size", "10", "^ids/"]));
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(&format!("FAILED {mine}:"))
            && r.stderr.contains("holds benchmark 'someone/else'"),
        "{}",
        r.stderr
    );
    assert!(
        !r.stdout
            .lines()
            .any(|l| l.starts_with(&mine) && l.contains("time:")),
        "{}",
        r.stdout
    );
    assert_eq!(
        std::fs::read(folder.join("new/sample.json")).unwrap(),
        sample
    );
    let _ = std::fs::remove_dir_all(h);
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_baseline_of_zeros_is_a_warning_and_the_next_run_replaces_it() {
    let h = home("zeros");
    // In one process: the fake clock ticks on every 4th call of that
    // process, so two samples per worker process could all read zero.
    let args = with(&["--sample-size", "10", "--processes", "1", "clock/coarse"]);
    // A clock that ticks every 25 ms: most samples are zero, so is the
    // median. The run itself still saves (its mean is not zero).
    let r = run(&h, &args);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let base = std::fs::read_dir(&h)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.join("base").is_dir())
        .expect("a folder for clock/coarse");
    // Was: "analysis failed: the baseline's mean or median is zero", exit
    // 1, nothing saved, forever.
    for _ in 0..2 {
        let r = run(&h, &args);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        assert!(
            r.stderr
                .contains("ignoring baseline 'base' of clock/coarse: ")
                && r.stderr.contains("this run replaces it"),
            "{}",
            r.stderr
        );
    }
    // A hand-written baseline of zeros, with every other file corrupt:
    // one warning per file, and the run goes on and saves.
    let zeros = r#"{"sampling_mode":"Flat","iters":[1,1,1],"times":[0,0,0]}"#;
    write(&base.join("base/sample.json"), zeros);
    for file in ["estimates.json", "benchmark.json", "tukey.json", "raw.csv"] {
        write(&base.join("base").join(file), "{garbage");
    }
    write(&base.join("change/estimates.json"), "[");
    let r = run(&h, &args);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    for file in [
        "base/estimates.json",
        "base/benchmark.json",
        "base/tukey.json",
        "base/raw.csv",
        "change/estimates.json",
    ] {
        assert!(r.stderr.contains(file), "{file}: {}", r.stderr);
    }
    assert!(
        r.stderr
            .contains("3 of its 3 samples measured zero time and its mean is zero"),
        "{}",
        r.stderr
    );
    let saved = std::fs::read_to_string(base.join("base/sample.json")).unwrap();
    assert_ne!(saved, zeros);
    // Under a strict --baseline, the same is a failure of that benchmark.
    write(&base.join("base/sample.json"), zeros);
    let mut strict = args.clone();
    strict.extend(["--baseline", "base"]);
    let r = run(&h, &strict);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("cannot be compared with"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(h);
}

#[test]
fn an_empty_id_fails_that_benchmark_not_the_run() {
    let h = home("empty-id");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hostile"));
    let out = cmd
        .args(with(&["--sample-size", "10", "clock/ignores-iters"]))
        .arg("--home")
        .arg(&h)
        .env("HOSTILE_EMPTY_ID", "1")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    // Was a panic (exit 101) before any benchmark ran.
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("FAILED (empty id): bench_function was given an empty id"),
        "{stderr}"
    );
    assert!(stdout.contains("time:   ["), "{stdout}");
    let _ = std::fs::remove_dir_all(h);
}

/// A home that cannot be written (here: under a file, which even root
/// cannot write into) is one line naming it and exit status 1, before
/// anything is measured, not a warning for every file of every benchmark.
#[test]
fn an_unwritable_home_is_one_line_and_a_failed_run() {
    let h = home("unwritable");
    let file = h.join("a-file");
    std::fs::write(&file, b"").unwrap();
    let mut args = with(&["--color", "never", "^ids/"]);
    args.push("--home");
    let out = Command::new(env!("CARGO_BIN_EXE_hostile"))
        .args(&args)
        .arg(file.join("home"))
        .env_remove("YARDSTICK_HOME")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].contains("cannot save results in the home directory"),
        "{stderr}"
    );
    assert!(lines[0].contains("a-file"), "{stderr}");
    // Measuring without saving needs no home.
    let out = Command::new(env!("CARGO_BIN_EXE_hostile"))
        .args(&args)
        .arg(file.join("home"))
        .arg("--discard-baseline")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(h);
}

/// Ids with a NUL byte, line breaks and a terminal's escapes, and a panic
/// message with escapes: no panic, every terminal line and folder name free
/// of control characters, the id and the message shown with escapes.
#[test]
fn control_characters_in_ids_are_shown_escaped() {
    let h = home("control");
    let out = Command::new(env!("CARGO_BIN_EXE_hostile"))
        .args(with(&[
            "--color",
            "never",
            "--sample-size",
            "10",
            "^(nul|two|esc|panics)",
        ]))
        .arg("--home")
        .arg(&h)
        .env("HOSTILE_CONTROL_IDS", "1")
        .env_remove("YARDSTICK_HOME")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // `panics` fails; the others are measured.
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for text in [&out.stdout, &out.stderr] {
        assert!(!text.iter().any(|&b| b == 0 || b == b'\r'), "{stdout}");
    }
    assert!(stdout.contains("nul\\u{0}byte "), "{stdout}");
    assert!(stdout.contains("two\\nlines\\r "), "{stdout}");
    // A terminal's escapes, in an id and in a panic message: none raw
    // (`--color never`, so the harness's own colours are not there either).
    let raw = |text: &[u8]| {
        String::from_utf8_lossy(text)
            .chars()
            .filter(|&c| c.is_control() && c != '\n')
            .count()
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        raw(&out.stdout) + raw(&out.stderr),
        0,
        "{stdout:?}{stderr:?}"
    );
    assert!(
        stdout.contains("esc\\u{1b}[2J\\u{1b}]0;title\\u{7}\n"),
        "{stdout}"
    );
    assert!(
        stderr.contains("FAILED panics: panicked at ")
            && stderr.contains("bell\\u{7} and clear\\u{1b}[2J\\u{1b}[H"),
        "{stderr}"
    );
    for entry in std::fs::read_dir(&h).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.chars().any(char::is_control), "{name:?}");
    }
    let _ = std::fs::remove_dir_all(h);
}

/// Every `href` of the page at `page` that points at a file: relative, and
/// without the anchor.
fn local_links(page: &Path) -> Vec<std::path::PathBuf> {
    let html = std::fs::read_to_string(page).unwrap();
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|l| !l.starts_with('#') && !l.contains("://"))
        .map(|l| {
            let l = l.split('#').next().unwrap().replace("%20", " ");
            page.parent().unwrap().join(l)
        })
        .collect()
}

/// A lone benchmark `clash` and a group `clash` both want
/// `clash/report/index.html`: the benchmark keeps it, the group's page is
/// `clash/report/group.html`, and every link of the index and of the
/// member's page leads to a page that exists.
#[test]
fn a_lone_benchmark_and_a_group_of_the_same_name_both_get_their_page() {
    let h = home("clash");
    let out = Command::new(env!("CARGO_BIN_EXE_hostile"))
        .args(with(&["--color", "never", "--sample-size", "10", "^clash"]))
        .arg("--home")
        .arg(&h)
        .env("HOSTILE_CLASH", "1")
        .env_remove("YARDSTICK_HOME")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = h.join("clash").join("report");
    let lone = std::fs::read_to_string(report.join("index.html")).unwrap();
    let group = std::fs::read_to_string(report.join("group.html")).unwrap();
    assert!(lone.contains("pdf.svg"), "the benchmark's page: {lone}");
    assert!(group.contains("violin.svg"), "the group's page: {group}");
    let member = h.join("clash").join("f").join("report").join("index.html");
    let mut pages = vec![h.join("report").join("index.html"), member.clone()];
    pages.extend(local_links(&h.join("report").join("index.html")));
    let mut followed = 0;
    for page in pages
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
    {
        for link in local_links(page) {
            assert!(
                link.exists(),
                "{} links to missing {}",
                page.display(),
                link.display()
            );
            followed += 1;
        }
    }
    assert!(
        local_links(&member)
            .iter()
            .any(|l| l.ends_with("clash/report/group.html")),
        "the member's crumb leads to the group page"
    );
    assert!(followed > 5, "{followed} links followed");
    let _ = std::fs::remove_dir_all(h);
}

/// Runs the `hostile` fixture's worker benchmarks matching `filter` with
/// the default sampling (worker processes).
fn worker_run(tag: &str, filter: &'static str) -> (Run, std::path::PathBuf) {
    let h = home(tag);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hostile"));
    cmd.args(with(&["--color", "never", filter]))
        .arg("--home")
        .arg(&h)
        .env("HOSTILE_WORKER", "1");
    for (var, _) in std::env::vars_os() {
        if var.to_string_lossy().starts_with("YARDSTICK_") {
            cmd.env_remove(var);
        }
    }
    let start = Instant::now();
    let out = cmd.output().unwrap();
    assert!(start.elapsed() < DEADLINE, "{tag}: {:?}", start.elapsed());
    let r = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    (r, h)
}

/// A routine that prints bytes that are not UTF-8 was "the worker process
/// exited" after 0.1 s: the parent read the worker's output as text and
/// stopped at the first invalid line. What a benchmark prints is ignored,
/// whatever its bytes.
#[test]
fn a_benchmark_printing_bytes_that_are_not_utf8_is_measured_in_workers() {
    let (r, h) = worker_run("worker-bytes", "^worker/binary-output$");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("worker/binary-output") && r.stdout.contains("time:   ["),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_dir_all(h);
}

/// Standard input and output are the protocol's pipes: a routine that
/// read stdin waited for the watchdog ("the benchmark hangs", 17 s), and
/// one that closed stdout was "the worker process exited" though it still
/// ran. Both are now measured (the pipes moved off descriptors 0 and 1).
/// A worker that ends says how (its signal or exit status) and while doing
/// what.
#[test]
fn worker_failures_name_their_cause_and_streams_are_the_routines_own() {
    let (r, h) = worker_run("worker-streams", "^worker/(reads-stdin|closes-stdout)$");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    for id in ["worker/reads-stdin", "worker/closes-stdout"] {
        assert!(
            r.stdout.lines().any(|l| l.starts_with(id)),
            "{id}: {}",
            r.stdout
        );
    }
    let _ = std::fs::remove_dir_all(h);
    let (r, h) = worker_run("worker-ends", "^worker/(aborts|exits|killed)$");
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    for (id, how) in [
        (
            "worker/aborts",
            "the worker process was killed by signal 6 (SIGABRT: it aborted) while warming up worker/aborts",
        ),
        (
            "worker/exits",
            "the worker process exited with status 3 while warming up worker/exits: leaving now",
        ),
        (
            "worker/killed",
            "the worker process was killed by signal 9 (SIGKILL) while warming up worker/killed",
        ),
    ] {
        let line = r
            .stderr
            .lines()
            .find(|l| l.starts_with(&format!("FAILED {id}: ")))
            .unwrap_or_else(|| panic!("{id}: {}", r.stderr));
        assert!(line.contains(how), "{line}");
    }
    let _ = std::fs::remove_dir_all(h);
}

/// `--quick` keeps two samples. Then 55 times slower, it printed
/// `change: [+5300.0% +5473.5% +5651.3%] (p = 0.09 > 0.05)` and "No change
/// in performance detected": an interval of resampled means beside a
/// resampled t-test that cannot go below p ≈ 0.09 with two values. Both
/// now come from one Welch t-test: here p ≈ 0.006 (scipy's ttest_ind of
/// the two pairs), and a regression.
#[test]
fn a_quick_comparison_prints_an_interval_and_a_p_value_that_agree() {
    let h = home("quick-agree");
    let quick = |factor: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_hostile"))
            .args(["--bench", "--quick", "--color", "never", "^quick/scaled$"])
            .arg("--home")
            .arg(&h)
            .env("HOSTILE_QUICK_FACTOR", factor)
            .env_remove("YARDSTICK_HOME")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    quick("1");
    let stdout = quick("55");
    let change = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("change:"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let p: f64 = change
        .split("(p = ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("{change}"));
    assert!(p < 0.05, "{stdout}");
    assert!(stdout.contains("Performance has regressed."), "{stdout}");
    let _ = std::fs::remove_dir_all(h);
}

/// `--time-mode cpu`, then `--time-mode wall`: the CPU-time baseline was
/// judged against wall time ("change: [+493% +5420% +51248%] … regressed").
/// A run is never compared with a baseline of another kind of measurement,
/// and says why there is no comparison.
#[test]
fn a_baseline_of_another_kind_of_measurement_is_not_compared_with() {
    let h = home("kinds");
    let bench = |mode: &'static str| {
        let out = Command::new(env!("CARGO_BIN_EXE_hostile"))
            .args(with(&[
                "--color",
                "never",
                "--sample-size",
                "10",
                "--time-mode",
                mode,
                "^kinds/sleeps$",
            ]))
            .arg("--home")
            .arg(&h)
            .env("HOSTILE_KINDS", "1")
            .env_remove("YARDSTICK_HOME")
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
        assert!(out.status.success(), "{mode}: {stdout}{stderr}");
        (stdout, stderr)
    };
    bench("cpu");
    let (stdout, stderr) = bench("wall");
    assert!(!stdout.contains("change:"), "{stdout}");
    assert!(
        stderr.contains(
            "not comparing kinds/sleeps with baseline 'base': it measured process CPU time, this run wall time"
        ),
        "{stderr}"
    );
    // Wall time against the wall-time baseline just saved: compared.
    let (stdout, _) = bench("wall");
    assert!(stdout.contains("change:"), "{stdout}");
    let _ = std::fs::remove_dir_all(h);
}

/// A lone benchmark `nest` and a group `nest` with members `base` and
/// `new`: the members' folders were the lone benchmark's `nest/base` and
/// `nest/new`, each overwrote the other, and the index listed neither
/// member. The clash is refused with both ids named, run after run; the
/// lone benchmark and the member `f` keep their folders.
#[test]
fn a_lone_benchmark_and_members_named_as_its_folders_are_refused_by_name() {
    let h = home("nested");
    for _ in 0..2 {
        let out = Command::new(env!("CARGO_BIN_EXE_hostile"))
            .args(with(&["--color", "never", "--sample-size", "10", "^nest"]))
            .arg("--home")
            .arg(&h)
            .env("HOSTILE_NESTED", "1")
            .env_remove("YARDSTICK_HOME")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
        for member in ["nest/base", "nest/new"] {
            let line = stderr
                .lines()
                .find(|l| l.starts_with(&format!("FAILED {member}: ")))
                .unwrap_or_else(|| panic!("{member}: {stderr}"));
            assert!(
                line.contains(&format!("benchmarks 'nest' and '{member}' would share it")),
                "{line}"
            );
        }
        assert!(stdout.lines().any(|l| l.starts_with("nest ")), "{stdout}");
        assert!(stdout.lines().any(|l| l.starts_with("nest/f ")), "{stdout}");
        // The lone benchmark's folders hold its own files only.
        let record = std::fs::read_to_string(h.join("nest/new/benchmark.json")).unwrap();
        assert!(record.contains("\"full_id\":\"nest\""), "{record}");
        assert!(!h.join("nest/new/new").exists() && !h.join("nest/base/new").exists());
    }
    let _ = std::fs::remove_dir_all(h);
}
