//! Real (quick) runs: results, files, baselines and failures.

mod common;
use common::{benchmark_dir, benchmark_files, home, read_json, run, QUICK};

/// QUICK and `extra`. These tests change a benchmark through the
/// environment (`FIXTURE_WORK`), which both sides of a lock-step comparison
/// share, so they compare with the saved numbers (`tests/lockstep.rs`
/// covers the default, the baseline's binary).
fn quick(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = QUICK.iter().map(|s| (*s).to_owned()).collect();
    v.extend(["--baseline-binary".to_owned(), "ignore".to_owned()]);
    v.extend(extra.iter().map(|s| (*s).to_owned()));
    v
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_run_prints_results_and_writes_criterions_files() {
    let h = home("files");
    let a = quick(&["sizes|fast"]);
    let r = run(&h, &args(&a), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("Benchmarking fast/add: Warming up for"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Collecting 10 samples in estimated"),
        "{}",
        r.stdout
    );
    let time_line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("fast/add"))
        .unwrap();
    assert!(time_line.contains("time:   ["), "{time_line}");
    assert!(r.stdout.contains("thrpt:  ["), "{}", r.stdout);

    let dir = h.join("fast_add_").to_string_lossy().into_owned();
    let bench_dir = std::fs::read_dir(&h)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().starts_with(&dir))
        .expect("a folder for fast/add");
    let new = bench_dir.join("new");
    let sample = read_json(&new.join("sample.json"));
    assert_eq!(sample["iters"].as_array().unwrap().len(), 10);
    assert_eq!(sample["times"].as_array().unwrap().len(), 10);
    assert!(sample["sampling_mode"] == "Linear" || sample["sampling_mode"] == "Flat");
    let est = read_json(&new.join("estimates.json"));
    for key in ["mean", "median", "median_abs_dev", "std_dev"] {
        let e = &est[key];
        let (lo, pt, hi) = (
            e["confidence_interval"]["lower_bound"].as_f64().unwrap(),
            e["point_estimate"].as_f64().unwrap(),
            e["confidence_interval"]["upper_bound"].as_f64().unwrap(),
        );
        assert!(lo <= pt && pt <= hi, "{key}: {lo} {pt} {hi}");
        assert_eq!(e["confidence_interval"]["confidence_level"], 0.95);
    }
    let tukey = read_json(&new.join("tukey.json"));
    assert_eq!(tukey.as_array().unwrap().len(), 4);
    let bench = read_json(&new.join("benchmark.json"));
    assert_eq!(bench["full_id"], "fast/add");
    assert_eq!(bench["group_id"], "fast/add");
    let raw = std::fs::read_to_string(new.join("raw.csv")).unwrap();
    let mut lines = raw.lines();
    assert_eq!(
        lines.next().unwrap(),
        "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count"
    );
    assert_eq!(lines.count(), 10);
    // The default baseline is saved too.
    assert!(bench_dir.join("base").join("sample.json").exists());

    let sized = h.join("sizes").join("sum").join("64").join("new");
    let raw = std::fs::read_to_string(sized.join("raw.csv")).unwrap();
    assert!(
        raw.lines()
            .nth(1)
            .unwrap()
            .starts_with("sizes,sum,64,64,bytes,"),
        "{raw}"
    );
    assert_eq!(
        read_json(&sized.join("benchmark.json"))["throughput"]["Bytes"],
        64
    );
}

#[test]
fn odd_ids_stay_inside_the_home_directory_and_never_share_a_folder() {
    let h = home("odd");
    let r = run(&h, &args(&quick(&["odd names"])), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let files = benchmark_files(&h);
    assert_eq!(files.len(), 7, "{files:?}");
    let home = h.canonicalize().unwrap();
    let mut folders = std::collections::HashSet::new();
    for (folder, json) in &files {
        let folder = folder.canonicalize().unwrap();
        assert!(folder.starts_with(&home), "{} escaped", folder.display());
        assert!(
            folders.insert(folder.clone()),
            "{} shared",
            folder.display()
        );
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.contains(['<', '>', '"']), "{name}");
        assert!(json["full_id"].as_str().unwrap().starts_with("odd names/"));
    }
    let ids: std::collections::HashSet<_> = files
        .iter()
        .map(|(_, j)| j["full_id"].as_str().unwrap().to_owned())
        .collect();
    assert!(ids.contains("odd names/<script>alert(1)</script>"));
    assert!(ids.contains("odd names/quote\"s"));
    assert!(ids.contains("odd names/.."));
}

#[test]
fn a_saved_baseline_is_compared_and_a_slowdown_is_a_regression() {
    let h = home("baseline");
    let base = run(
        &h,
        &args(&quick(&["--save-baseline", "before", "fake/work"])),
        &[("FIXTURE_WORK", "2000")],
    );
    assert_eq!(base.code, 0, "{}", base.stderr);
    assert!(
        !base.stdout.contains("change:"),
        "a first run has nothing to compare"
    );
    let saved = h.join("fake_work_");
    let dir = std::fs::read_dir(&h)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().starts_with(&*saved.to_string_lossy()))
        .unwrap();
    let before = std::fs::read(dir.join("before").join("sample.json")).unwrap();

    // Eight times the work: a regression whatever the machine's noise.
    let slow = run(
        &h,
        &args(&quick(&["--baseline", "before", "fake/work"])),
        &[("FIXTURE_WORK", "16000")],
    );
    assert_eq!(slow.code, 0, "{}", slow.stderr);
    assert!(slow.stdout.contains("change: ["), "{}", slow.stdout);
    assert!(
        slow.stdout.contains("Performance has regressed."),
        "{}",
        slow.stdout
    );
    // The one comparison the baseline plans, at its share of 5 % (LOND:
    // 0.05 · 1/2), printed with the four decimals such a level needs.
    assert!(
        slow.stdout.contains("(p = 0.0000 < 0.0250)"),
        "{}",
        slow.stdout
    );
    let change = read_json(&dir.join("change").join("estimates.json"));
    assert!(
        change["mean"]["point_estimate"].as_f64().unwrap() > 2.0,
        "{change}"
    );
    // --baseline compares but does not overwrite the baseline.
    assert_eq!(
        std::fs::read(dir.join("before").join("sample.json")).unwrap(),
        before
    );

    let fast = run(
        &h,
        &args(&quick(&["--baseline", "before", "fake/work"])),
        &[("FIXTURE_WORK", "250")],
    );
    assert!(
        fast.stdout.contains("Performance has improved."),
        "{}",
        fast.stdout
    );

    // --load-baseline analyses saved samples without running the routine.
    let load = run(
        &h,
        &args(&quick(&[
            "--load-baseline",
            "before",
            "--baseline",
            "before",
            "fake/work",
        ])),
        &[],
    );
    assert_eq!(load.code, 0, "{}", load.stderr);
    assert!(!load.stdout.contains("Warming up"), "{}", load.stdout);
    assert!(
        load.stdout.contains("No change in performance detected."),
        "{}",
        load.stdout
    );
}

#[test]
fn a_missing_strict_baseline_fails_that_benchmark_only() {
    let h = home("missing");
    let r = run(
        &h,
        &args(&quick(&["--baseline", "nope", "fast|work/spin"])),
        &[],
    );
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("baseline 'nope' not found"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("--save-baseline nope"), "{}", r.stderr);
    assert!(r.stderr.contains("2 benchmarks failed"), "{}", r.stderr);
    let lenient = run(
        &h,
        &args(&quick(&["--baseline-lenient", "nope", "fast"])),
        &[],
    );
    assert_eq!(lenient.code, 0, "{}", lenient.stderr);
}

#[test]
fn a_corrupt_baseline_is_reported_kept_and_the_run_goes_on() {
    let h = home("corrupt");
    let first = run(&h, &args(&quick(&["--exact", "sizes/sum/64"])), &[]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let base = h.join("sizes/sum/64/base/sample.json");
    std::fs::write(&base, b"{\"iters\": [1, 2], \"times\": oops").unwrap();
    let r = run(&h, &args(&quick(&["--exact", "sizes/sum/64"])), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warning: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("sample.json"))
        .collect();
    assert_eq!(warning.len(), 1, "{}", r.stderr);
    assert!(warning[0].contains("base"), "{}", warning[0]);
    assert!(
        r.stdout.contains("sizes/sum/64"),
        "the run went on: {}",
        r.stdout
    );
    assert!(!r.stdout.contains("change:"), "nothing to compare with");
    // The unreadable file is kept aside, and a fresh baseline saved.
    let kept = h.join("sizes/sum/64/base.corrupt/sample.json");
    assert_eq!(
        std::fs::read(kept).unwrap(),
        b"{\"iters\": [1, 2], \"times\": oops"
    );
    assert!(read_json(&base)["times"].is_array());

    // With --baseline (compare only) the corrupt file is left as it is.
    std::fs::write(&base, b"not json").unwrap();
    let r = run(
        &h,
        &args(&quick(&[
            "--baseline-lenient",
            "base",
            "--exact",
            "sizes/sum/64",
        ])),
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read(&base).unwrap(), b"not json");
}

#[test]
fn a_panicking_benchmark_fails_alone_and_the_exit_status_says_so() {
    let h = home("panic");
    let r = run(
        &h,
        &args(&quick(&["fast|panics|work/spin"])),
        &[("FIXTURE_PANIC", "1")],
    );
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("FAILED panics: panicked at"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("deliberate failure"), "{}", r.stderr);
    assert!(
        r.stderr.contains("1 benchmark failed: panics"),
        "{}",
        r.stderr
    );
    // Benchmarks before and after it ran and saved.
    assert!(r
        .stdout
        .lines()
        .any(|l| l.starts_with("fast/add") && l.contains("time:")));
    assert!(r
        .stdout
        .lines()
        .any(|l| l.starts_with("work/spin") && l.contains("time:")));
    assert_eq!(benchmark_files(&h).len(), 2);

    let t = run(&h, &["panics"], &[("FIXTURE_PANIC", "1")]);
    assert_eq!(t.code, 1);
    assert!(t.stderr.contains("deliberate failure"), "{}", t.stderr);
}

#[test]
fn an_empty_body_is_flagged_as_optimised_away() {
    let h = home("empty");
    // The check compares the samples with an empty loop timed afterwards
    // on the real clock; a burst of load over the samples alone can hide
    // the flag once, not three times running.
    let flagged = (0..3).any(|_| {
        let r = run(&h, &args(&quick(&["--exact", "empty", "work/spin"])), &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(!r.stderr.contains("work/spin:"), "{}", r.stderr);
        r.stderr.contains("empty:") && r.stderr.contains("optimised away")
    });
    assert!(flagged, "the empty body was never flagged");
}

#[test]
fn verbose_prints_the_spread_lines() {
    let h = home("verbose");
    let r = run(
        &h,
        &args(&quick(&["--verbose", "--exact", "work/spin"])),
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The slope exists in linear sampling, which Auto picks unless a stall
    // in the warm-up made the routine look slow.
    let sample = read_json(&benchmark_dir(&h).join("new/sample.json"));
    let linear = sample["sampling_mode"] == "Linear";
    for start in ["mean   [", "median [", "slope  ["] {
        if start.starts_with("slope") && !linear {
            continue;
        }
        assert!(
            r.stdout.lines().any(|l| l.starts_with(start)),
            "{start}\n{}",
            r.stdout
        );
    }
}

#[test]
fn quick_mode_stops_early() {
    let h = home("quick");
    let r = run(
        &h,
        &[
            "--bench",
            "--quick",
            "--exact",
            "work/spin",
            "--color",
            "never",
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("work/spin") && r.stdout.contains("time:"),
        "{}",
        r.stdout
    );
    let sample = read_json(&benchmark_dir(&h).join("new/sample.json"));
    assert_eq!(sample["iters"].as_array().unwrap().len(), 2);
}

#[test]
fn without_a_plan_sampling_stops_once_precise_or_at_the_time_out() {
    let h = home("adaptive");
    let env = [("FIXTURE_ADAPTIVE", "1")];
    // In one process (`--processes 1`; the default sampling in worker
    // processes is tested in processes.rs) it samples for at least 0.5 s, precise or not: more than
    // the ten samples the fake clock needs. 0.5 s of linear samples from
    // 100 µs up is about 100 samples; a loaded machine makes them fewer.
    let r = run(
        &h,
        &[
            "--bench",
            "--processes",
            "1",
            "--exact",
            "adaptive/stable",
            "--warm-up-time",
            "0.05",
        ],
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sample = read_json(&benchmark_dir(&h).join("new/sample.json"));
    assert!(sample["iters"].as_array().unwrap().len() > 10, "{sample}");
    let r = run(
        &h,
        &[
            "--bench",
            "--processes",
            "1",
            "--exact",
            "adaptive/stable",
            "--warm-up-time",
            "0.05",
            "--min-time",
            "0",
            "--color",
            "never",
        ],
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("Sampling until ±1% (at most 5.0000 s)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("adaptive/stable         time:   [100.00 ns 100.00 ns 100.00 ns]"),
        "{}",
        r.stdout
    );
    assert!(!r.stderr.contains("time-out"), "{}", r.stderr);
    let sample = read_json(&benchmark_dir(&h).join("new/sample.json"));
    assert_eq!(
        sample["iters"].as_array().unwrap().len(),
        10,
        "stops at the minimum"
    );

    let r = run(
        &h,
        &[
            "--bench",
            "--processes",
            "1",
            "--exact",
            "adaptive/noisy",
            "--warm-up-time",
            "0.05",
            "--timeout",
            "1",
            "--color",
            "never",
        ],
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warning = r
        .stderr
        .lines()
        .find(|l| l.contains("time-out"))
        .unwrap_or_else(|| panic!("{}", r.stderr));
    assert!(warning.contains("adaptive/noisy: reached ±"), "{warning}");
    assert!(warning.contains("not the ±1% asked for"), "{warning}");

    // A sample size asked for is obeyed exactly, as Criterion.rs.
    let r = run(
        &h,
        &[
            "--bench",
            "--processes",
            "1",
            "--exact",
            "adaptive/stable",
            "--sample-size",
            "20",
            "--warm-up-time",
            "0.05",
            "--measurement-time",
            "0.1",
        ],
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Collecting 20 samples"), "{}", r.stdout);
}

#[test]
fn interleaved_alternatives_are_compared_round_by_round() {
    let h = home("interleave");
    let env = [("FIXTURE_INTERLEAVE", "1")];
    let r = run(
        &h,
        &[
            "--bench",
            "pair",
            "--warm-up-time",
            "0.05",
            "--color",
            "never",
        ],
        &env,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("pair: 3 alternatives in "),
        "{}",
        r.stdout
    );
    // The drift is shared by the alternatives of most rounds, so it
    // cancels in the median and its sign-test interval.
    assert!(
        r.stdout
            .contains("pair/b is 1.050× pair/a [1.050, 1.050]: slower"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("pair/same: no difference detected from pair/a"),
        "{}",
        r.stdout
    );

    let list = run(&h, &["--list", "pair"], &env);
    assert_eq!(
        list.stdout,
        "pair/a: benchmark\npair/b: benchmark\npair/same: benchmark\n"
    );
    let test = run(&h, &["pair"], &env);
    assert_eq!(test.code, 0);
    assert_eq!(test.stdout.matches("Success").count(), 3, "{}", test.stdout);
}

#[test]
fn a_change_inside_the_measured_drift_is_not_a_regression() {
    let h = home("drift");
    let base = run(
        &h,
        &args(&quick(&["--exact", "fake/work"])),
        &[("FIXTURE_WORK", "2000")],
    );
    assert_eq!(base.code, 0, "{}", base.stderr);
    // +5 % on a fake clock with ±0.2 % noise: a regression...
    let slower = run(
        &h,
        &args(&quick(&["--baseline", "base", "--exact", "fake/work"])),
        &[("FIXTURE_WORK", "2100")],
    );
    assert!(
        slower.stdout.contains("Performance has regressed."),
        "{}",
        slower.stdout
    );
    // ...unless this machine drifts ±10 % between identical runs.
    let dir = benchmark_dir(&h);
    std::fs::write(
        dir.join("drift.json"),
        r#"{"version": 1, "relative_drift": 0.10, "runs": 5}"#,
    )
    .unwrap();
    let r = run(
        &h,
        &args(&quick(&["--baseline", "base", "--exact", "fake/work"])),
        &[("FIXTURE_WORK", "2100")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "Change within machine drift (±10.0%, measured by cargo yardstick calibrate)."
        ),
        "{}",
        r.stdout
    );
    // A corrupt drift file: one warning, Criterion.rs's threshold applies.
    std::fs::write(dir.join("drift.json"), "{oops").unwrap();
    let r = run(
        &h,
        &args(&quick(&["--baseline", "base", "--exact", "fake/work"])),
        &[("FIXTURE_WORK", "2100")],
    );
    assert!(
        r.stderr.contains("ignoring the measured drift") && r.stderr.contains("drift.json"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout.contains("Performance has regressed."),
        "{}",
        r.stdout
    );
}

#[test]
fn a_custom_measurement_is_shown_and_saved_in_its_own_unit() {
    let h = home("custom");
    let r = run(&h, &args(&quick(&["custom"])), &[("FIXTURE_CUSTOM", "1")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("custom/halfsec"))
        .unwrap();
    assert!(line.contains(" s/2 ") && line.ends_with(" s/2]"), "{line}");
    let raw = std::fs::read_to_string(benchmark_dir(&h).join("new/raw.csv")).unwrap();
    assert!(raw.lines().nth(1).unwrap().contains(",s/2,"), "{raw}");
}

#[test]
fn power_lines_say_what_a_comparison_could_have_seen() {
    // adaptive/noisy: ±50 % noise on a fake clock, ten samples a run, in
    // one process (the power of a comparison between samples; one between
    // processes says "too noisy" instead).
    let h = home("power");
    let env = [("FIXTURE_ADAPTIVE", "1")];
    let a = quick(&["--verbose", "--processes", "1", "--exact", "adaptive/noisy"]);
    for _ in 0..2 {
        let r = run(&h, &args(&a), &env);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let r = run(&h, &args(&a), &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // By hand from the saved samples: cv of the per-iteration values (n − 1),
    // then (z(0.975) + z(0.8)) · cv · √(1/10 + 1/10), the z from scipy.
    let sample = read_json(&benchmark_dir(&h).join("new/sample.json"));
    let col = |k: &str| -> Vec<f64> {
        sample[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let avg: Vec<f64> = col("times")
        .iter()
        .zip(col("iters"))
        .map(|(t, n)| t / n)
        .collect();
    let n = avg.len() as f64;
    let mean = avg.iter().sum::<f64>() / n;
    let sd = (avg.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    // The comparison is judged at its share of the suite's 5 % (one
    // planned: 0.025), so the two-sided quantile is
    // scipy.stats.norm.ppf(1 - 0.025 / 2) = 2.241402727604947.
    let expected = (2.241_402_727_604_947 + 0.841_621_233_572_914_3) * sd / mean * 0.2_f64.sqrt();
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("power  ±"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(
        line.ends_with("% detectable with 80% power (10 and 10 samples)"),
        "{line}"
    );
    let shown: f64 = line["power  ±".len()..line.find('%').unwrap()]
        .parse()
        .unwrap();
    assert!(
        (shown - expected * 100.0).abs() <= 0.5,
        "{line} vs {expected}"
    );
    // Noise this large hides a 1 % change: a verdict of no change says so.
    let quiet_verdict = r.stdout.contains("No change in performance detected.")
        || r.stdout.contains("Change within noise threshold.");
    assert_eq!(
        r.stdout
            .contains("could go unseen here (80% power); to see ±1.0%, measure ≥ "),
        quiet_verdict,
        "{}",
        r.stdout
    );
}

#[test]
fn a_run_comparing_several_benchmarks_ends_with_the_false_discovery_line() {
    let h = home("fdr");
    let a = quick(&["fake/work|sizes"]);
    let base = run(&h, &args(&a), &[("FIXTURE_WORK", "2000")]);
    assert_eq!(base.code, 0, "{}", base.stderr);
    // Eight times the work on the fake clock: p = 0 for fake/work, which
    // survives any correction; the two real-clock sizes benchmarks may or
    // may not be flagged, so only the line's shape is fixed for them.
    let r = run(&h, &args(&a), &[("FIXTURE_WORK", "16000")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let all = format!("{}{}", r.stdout, r.stderr);
    let line = all
        .lines()
        .find(|l| l.starts_with("Compared 3 benchmarks with their baseline: "))
        .unwrap_or_else(|| panic!("{all}"));
    assert!(
        line.contains("with the false-discovery rate across them held at 5%"),
        "{line}"
    );
    let kept = line.rsplit("): ").next().unwrap();
    assert!(kept.split(", ").any(|id| id == "fake/work"), "{line}");
}
