//! The other harnesses' output formats: tasty-bench's (with its CSV, baseline
//! comparison and failure limits) and rebar3_bench's statistics block.

mod common;
use common::{counter_notes, home, run, QUICK};

fn quick(extra: &[&str]) -> Vec<String> {
    QUICK.iter().chain(extra).map(|s| (*s).to_owned()).collect()
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn tasty_format_csv_baseline_and_fail_if_slower() {
    let h = home("tasty");
    let csv = h.join("before.csv");
    let csv_arg = csv.to_str().unwrap();
    let a = quick(&[
        "--output-format",
        "tasty",
        "--csv",
        csv_arg,
        "fake/work|sizes",
    ]);
    let r = run(&h, &args(&a), &[("FIXTURE_WORK", "2000")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // tasty-bench's tree: All, then each group opened once, ids split on
    // '/', the result two spaces under its name.
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[..2], ["All", "  fake"], "{}", r.stdout);
    assert!(
        lines[2].starts_with("    work: OK (") && lines[2].ends_with("s)"),
        "{}",
        lines[2]
    );
    let second = lines[3];
    assert!(
        second.starts_with("      ") && second.contains(" ± ") && second.ends_with("s"),
        "{second}"
    );
    assert_eq!(lines[4..6], ["  sizes", "    sum"], "{}", r.stdout);
    assert!(lines[6].starts_with("      64: OK ("), "{}", r.stdout);
    assert!(lines[8].starts_with("      256: OK ("), "{}", r.stdout);
    assert!(r.stdout.contains("All 3 tests passed ("), "{}", r.stdout);
    assert!(
        !r.stdout.contains("Benchmarking"),
        "no progress lines: {}",
        r.stdout
    );

    let text = std::fs::read_to_string(&csv).unwrap();
    let mut rows = text.lines();
    assert_eq!(rows.next().unwrap(), "Name,Mean (ps),2*Stdev (ps)");
    let spin: Vec<&str> = rows
        .find(|l| l.starts_with("fake/work,"))
        .unwrap()
        .split(',')
        .collect();
    let mean_ps: f64 = spin[1].parse().unwrap();
    assert!(mean_ps > 1000.0, "{spin:?}");

    // Eight times the work against the CSV: more than baseline, and a
    // failure past --fail-if-slower 20, named, with a non-zero exit.
    let a = quick(&[
        "--output-format",
        "tasty-flat",
        "--baseline-csv",
        csv_arg,
        "--fail-if-slower",
        "20",
        "fake/work",
    ]);
    let slow = run(&h, &args(&a), &[("FIXTURE_WORK", "16000")]);
    assert_eq!(slow.code, 1, "{}\n{}", slow.stdout, slow.stderr);
    assert!(slow.stdout.contains("fake/work: FAIL ("), "{}", slow.stdout);
    assert!(
        slow.stdout.contains("% more than baseline"),
        "{}",
        slow.stdout
    );
    assert!(
        slow.stdout
            .contains("more than the 20% --fail-if-slower allows"),
        "{}",
        slow.stdout
    );
    assert!(
        slow.stdout.contains("1 out of 1 tests failed"),
        "{}",
        slow.stdout
    );
    assert!(
        slow.stderr.contains("1 benchmark failed: fake/work"),
        "{}",
        slow.stderr
    );

    // The same work within a generous limit passes.
    // (the fake clock repeats itself exactly, so the same work is the same
    // time to well within 5 %).
    let a = quick(&[
        "--output-format",
        "tasty-flat",
        "--baseline-csv",
        csv_arg,
        "--fail-if-slower",
        "5",
        "--fail-if-faster",
        "5",
        "fake/work",
    ]);
    let same = run(&h, &args(&a), &[("FIXTURE_WORK", "2000")]);
    assert_eq!(same.code, 0, "{}\n{}", same.stdout, same.stderr);
    assert!(
        same.stdout.contains(", same as baseline"),
        "{}",
        same.stdout
    );

    // --hide-successes prints only the failures.
    let a = quick(&[
        "--output-format",
        "tasty-flat",
        "--hide-successes",
        "--baseline-csv",
        csv_arg,
        "--fail-if-faster",
        "50",
        "fake/work|sizes",
    ]);
    let fast = run(&h, &args(&a), &[("FIXTURE_WORK", "100")]);
    assert_eq!(fast.code, 1, "{}", fast.stderr);
    assert!(fast.stdout.contains("fake/work: FAIL"), "{}", fast.stdout);
    assert!(!fast.stdout.contains("sizes/sum/64: OK"), "{}", fast.stdout);
}

#[test]
fn fail_if_slower_20_fails_a_22_percent_slowdown_and_passes_a_10_percent_one() {
    // fake/work costs FIXTURE_WORK ns per iteration with a ±0.2 % pattern,
    // so the ratio of two runs' estimates is within ±0.4 % of the ratio of
    // the works, whatever the machine's load.
    let h = home("tasty-limit");
    let csv = h.join("before.csv");
    let csv_arg = csv.to_str().unwrap();
    let a = quick(&[
        "--output-format",
        "tasty-flat",
        "--csv",
        csv_arg,
        "fake/work",
    ]);
    let r = run(&h, &args(&a), &[("FIXTURE_WORK", "2000")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let limit = quick(&[
        "--output-format",
        "tasty-flat",
        "--baseline-csv",
        csv_arg,
        "--fail-if-slower",
        "20",
        "fake/work",
    ]);

    // 2450 / 2000 = 1.225: 22.5 % slower (22.1–22.9 % with the pattern),
    // past the 20 % allowed. tasty-bench truncates to whole percent.
    let slow = run(&h, &args(&limit), &[("FIXTURE_WORK", "2450")]);
    assert_eq!(slow.code, 1, "{}\n{}", slow.stdout, slow.stderr);
    assert!(slow.stdout.contains("fake/work: FAIL ("), "{}", slow.stdout);
    assert!(
        slow.stdout.contains(", 22% more than baseline"),
        "{}",
        slow.stdout
    );
    let why = slow
        .stdout
        .lines()
        .find(|l| {
            l.ends_with("% slower than the baseline, more than the 20% --fail-if-slower allows")
        })
        .unwrap_or_else(|| panic!("{}", slow.stdout));
    let pct: f64 = why.trim_start()[..why.trim_start().find('%').unwrap()]
        .parse()
        .unwrap();
    assert!((pct - 22.5).abs() < 0.5, "{why}");
    assert!(
        slow.stderr.contains("1 benchmark failed: fake/work"),
        "{}",
        slow.stderr
    );

    // 2210 / 2000 = 1.105: 10.5 % slower, within the 20 %.
    let fine = run(&h, &args(&limit), &[("FIXTURE_WORK", "2210")]);
    assert_eq!(fine.code, 0, "{}\n{}", fine.stdout, fine.stderr);
    assert!(fine.stdout.contains("fake/work: OK ("), "{}", fine.stdout);
    assert!(
        fine.stdout.contains(", 10% more than baseline"),
        "{}",
        fine.stdout
    );
    assert!(
        fine.stdout.contains("All 1 tests passed ("),
        "{}",
        fine.stdout
    );
    assert!(!fine.stderr.contains("failed"), "{}", fine.stderr);
}

#[test]
fn a_broken_baseline_csv_is_one_line_and_status_2() {
    let h = home("tasty-bad");
    let csv = h.join("bad.csv");
    std::fs::write(&csv, "Name,Mean (ps),2*Stdev (ps)\nfake/work,fast,1\n").unwrap();
    let a = quick(&["--baseline-csv", csv.to_str().unwrap(), "fake/work"]);
    let r = run(&h, &args(&a), &[]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("bad.csv:2: the mean 'fast' is not a number"),
        "{}",
        r.stderr
    );
}

#[test]
fn rebar3_statistics_block_with_a_student_t_difference() {
    let h = home("stats");
    let a = quick(&[
        "--output-format",
        "stats",
        "--save-baseline",
        "old",
        "--exact",
        "fake/work",
    ]);
    let r = run(&h, &args(&a), &[("FIXTURE_WORK", "2000")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let labels = [
        "===> Testing fake/work",
        "===> Stats for wall_time",
        "Min:",
        "25 percentile:",
        "Median:",
        "75 percentile:",
        "Max:",
        "Outliers:         Lo: ",
        "Outlier variance: ",
        "> Bootstrapped",
        "Mean:",
        "Std deviation:",
    ];
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), labels.len(), "{}", r.stdout);
    for (line, label) in lines.iter().zip(labels) {
        assert!(
            line.starts_with(label),
            "{line:?} should start with {label:?}"
        );
    }
    assert!(
        lines[2].ends_with("ns") || lines[2].ends_with("us"),
        "{}",
        lines[2]
    );

    // The change comes from the environment, which both sides of a
    // lock-step comparison share: compare with the saved numbers.
    let a = quick(&[
        "--output-format",
        "stats",
        "--baseline",
        "old",
        "--baseline-binary",
        "ignore",
        "--confidence",
        "99",
        "--exact",
        "fake/work",
    ]);
    let slow = run(&h, &args(&a), &[("FIXTURE_WORK", "16000")]);
    assert_eq!(slow.code, 0, "{}", slow.stderr);
    assert!(
        slow.stdout
            .contains("> Relative\nDifference at 99.0 confidence\n"),
        "{}",
        slow.stdout
    );
    assert!(
        slow.stdout.contains(" (Student's t, pooled s = "),
        "{}",
        slow.stdout
    );
    let min = slow.stdout.lines().find(|l| l.starts_with("Min:")).unwrap();
    assert!(min.contains("(+ "), "a slowdown has a + delta: {min}");
}

#[test]
fn json_messages_go_to_their_file_one_line_each() {
    let h = home("messages");
    let file = h.join("messages.jsonl");
    let a = quick(&[
        "--message-format",
        "json",
        "--message-file",
        file.to_str().unwrap(),
        "sizes|fast/add",
    ]);
    let r = run(&h, &args(&a), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.stdout.contains("\"reason\""),
        "the terminal output stays human: {}",
        r.stdout
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let msgs: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for m in &msgs {
        common::assert_schema("message.v1.json", m);
    }
    let reasons: Vec<&str> = msgs.iter().map(|m| m["reason"].as_str().unwrap()).collect();
    assert_eq!(
        reasons,
        [
            "benchmark-complete",
            "group-complete",
            "benchmark-complete",
            "benchmark-complete",
            "group-complete"
        ],
        "{text}"
    );
    let sized = &msgs[2];
    assert_eq!(sized["id"], "sizes/sum/64");
    assert_eq!(sized["unit"], "ns");
    assert_eq!(sized["throughput"][0]["per_iteration"], 64);
    assert_eq!(sized["throughput"][0]["unit"], "bytes");
    assert_eq!(sized["iteration_count"].as_array().unwrap().len(), 10);
    assert_eq!(sized["measured_values"].as_array().unwrap().len(), 10);
    for key in ["typical", "mean", "median", "median_abs_dev"] {
        let e = &sized[key];
        assert!(
            e["lower_bound"].as_f64().unwrap() <= e["estimate"].as_f64().unwrap(),
            "{key}"
        );
        assert_eq!(e["unit"], "ns");
    }
    assert!(sized["change"].is_null(), "a first run has no change");
    assert_eq!(msgs[4]["group_name"], "sizes");
    assert_eq!(
        msgs[4]["benchmarks"],
        serde_json::json!(["sizes/sum/64", "sizes/sum/256"])
    );

    // A second run compares: the change carries a verdict.
    let r = run(&h, &args(&a), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().nth(7).unwrap()).unwrap();
    assert_eq!(last["reason"], "benchmark-complete");
    let verdict = last["change"]["change"].as_str().unwrap();
    assert!(
        ["NoChange", "Improved", "Regressed"].contains(&verdict),
        "{last}"
    );
    assert_eq!(last["change"]["mean"]["unit"], "%");
}

#[test]
fn json_messages_on_stdout_are_whole_lines() {
    let h = home("messages-stdout");
    let a = quick(&["--message-format", "json", "--exact", "fast/add"]);
    let r = run(&h, &args(&a), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let msgs: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(msgs.len(), 2, "{}", r.stdout);
    assert_eq!(msgs[0]["id"], "fast/add");
}

#[test]
fn groups_fit_big_o_compare_by_id_and_check_requirements() {
    let h = home("scaling");
    let a = quick(&["scaling"]);
    // Linear is 5 n ns and quadratic n²/2 ns: equal at n = 10, linear
    // 1000x faster at n = 10 000. "At least 1x faster" holds everywhere.
    let r = run(&h, &args(&a), &[("FIXTURE_SCALING", "1")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let table = |name: &str| {
        let start = r
            .stdout
            .find(&format!("{name}: complexity over the inputs"))
            .unwrap_or_else(|| panic!("{}", r.stdout));
        r.stdout[start..].lines().nth(3).unwrap().to_owned()
    };
    assert!(table("scaling/linear").ends_with("| O(n)"), "{}", r.stdout);
    assert!(
        table("scaling/quadratic").ends_with("| O(n^2)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("scaling/linear/10: 1.00x scaling/quadratic/10"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("scaling/linear/100: 0.10x scaling/quadratic/100"),
        "{}",
        r.stdout
    );

    // "At least 2x faster" fails at n = 10, in words, with a non-zero exit.
    let strict = run(&h, &args(&a), &[("FIXTURE_SCALING", "2")]);
    assert_eq!(strict.code, 1, "{}", strict.stderr);
    assert!(
        strict.stderr.contains(
            "FAILED scaling: scaling/linear/10 is 1.00x faster than scaling/quadratic/10, but must be at least 2.00x faster"
        ),
        "{}",
        strict.stderr
    );
    assert!(
        !strict.stderr.contains("linear/100 is"),
        "{}",
        strict.stderr
    );

    // The fits travel in the group-complete message too.
    let file = h.join("m.jsonl");
    let a = quick(&[
        "--message-format",
        "json",
        "--message-file",
        file.to_str().unwrap(),
        "scaling",
    ]);
    let r = run(&h, &args(&a), &[("FIXTURE_SCALING", "1")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    let group: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(group["reason"], "group-complete");
    let fits = group["complexity"].as_array().unwrap();
    let linear = fits.iter().find(|f| f["function"] == "linear").unwrap();
    assert_eq!(linear["fits"][0]["name"], "O(n)");
    assert!((linear["fits"][0]["coefficient"].as_f64().unwrap() - 5e-9).abs() < 1e-12);
}

#[test]
fn markdown_svg_and_templates_cover_the_run() {
    let h = home("run-outputs");
    let svg = h.join("quick.svg");
    let out = h.join("run.csv");
    let a = quick(&[
        "--output-format",
        "markdown",
        "--svg",
        svg.to_str().unwrap(),
        "--template",
        "csv",
        "--template-output",
        out.to_str().unwrap(),
        "sizes",
    ]);
    let r = run(&h, &args(&a), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("Benchmarking"), "{}", r.stdout);
    let table: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with('|')).collect();
    assert!(table.len() >= 4, "header, rule and two rows: {}", r.stdout);
    assert!(
        table.iter().any(|l| l.contains("sizes/sum/64")),
        "{}",
        r.stdout
    );
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg_text.starts_with("<svg") || svg_text.starts_with("<?xml"),
        "{svg_text}"
    );
    assert!(
        svg_text.contains("sizes/sum/256"),
        "every benchmark is on the plot"
    );
    let csv = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        csv.lines().count(),
        3,
        "a header and a row per benchmark: {csv}"
    );

    // A template that does not exist: one line, and the run fails.
    let a = quick(&["--template", "no/such/file.tpl", "--exact", "fast/add"]);
    let bad = run(&h, &args(&a), &[]);
    assert_eq!(bad.code, 1, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("--template no/such/file.tpl"),
        "{}",
        bad.stderr
    );
}

#[test]
fn nanobench_table_with_dashes_for_what_was_not_measured() {
    let h = home("table");
    let a = quick(&[
        "--output-format",
        "table",
        "--measure",
        "instructions",
        "fake/work|sizes",
    ]);
    let r = run(&h, &args(&a), &[("FIXTURE_WORK", "2000")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with('|')).collect();
    assert!(
        lines[0].starts_with(
            "|               ns/op |                op/s |    err% |          ins/op |"
        ),
        "{}",
        r.stdout
    );
    assert!(lines[0].ends_with("| benchmark"), "{}", lines[0]);
    let row = lines.iter().find(|l| l.ends_with("`fake/work`")).unwrap();
    // 2000 ns per op (±0.2 %) on the fake clock, 500,000 op/s.
    let cells: Vec<f64> = row
        .split('|')
        .skip(1)
        .take(2)
        .map(|c| c.trim().replace(',', "").parse().unwrap())
        .collect();
    assert!((cells[0] - 2000.0).abs() < 20.0, "{row}");
    assert!((cells[1] - 500_000.0).abs() < 5000.0, "{row}");
    let instructions_measured = counter_notes(&r.stderr) == 0;
    assert_eq!(
        row.contains("|               - |"),
        !instructions_measured,
        "{row}"
    );
    // A note above the first header says why the other columns are `-`.
    let note = if instructions_measured {
        "`-`: not measured. `--measure cycles,branches,branch-misses` reads the counter columns where the machine has hardware counters.\n"
    } else {
        "`-`: not measured. `--measure instructions,cycles,branches,branch-misses` reads the counter columns where the machine has hardware counters.\n"
    };
    assert!(r.stdout.contains(note), "{}", r.stdout);
    // Throughput in bytes: a new header, per byte.
    assert!(
        r.stdout
            .contains("|             ns/byte |              byte/s |"),
        "{}",
        r.stdout
    );
}

#[test]
fn stdev_is_tasty_benchs_rule_on_a_fake_clock() {
    // fake/work: 2000 ns per iteration (±0.2 %). tasty-bench's rule with
    // its 1 ms perturbation: the pair (n, 2n) is off the line by about
    // 3 ms / √5 = 1.342 ms (±9 % with the pattern), so σ per iteration is
    // 1.342 ms / n; below 5 % of 2000 ns first at n = 16 384 (81.9 ns; at
    // 8192 it is 163.8 ns). The estimate is (t₁ + 2t₂) / 5n = 2000 ns and
    // ± is 2σ = 163.8 ns, both in tasty-bench's CSV.
    let h = home("stdev");
    let csv = h.join("stdev.csv");
    let a = [
        "--bench",
        "--stdev",
        "5",
        "--nresamples",
        "2000",
        "--output-format",
        "tasty-flat",
        "--csv",
        csv.to_str().unwrap(),
        "--exact",
        "fake/work",
    ];
    let r = run(&h, &a, &[("FIXTURE_WORK", "2000")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("fake/work: OK ("), "{}", r.stdout);
    assert!(r.stdout.contains("  2.0 μs ± "), "{}", r.stdout);
    let text = std::fs::read_to_string(&csv).unwrap();
    let row: Vec<f64> = text
        .lines()
        .find_map(|l| l.strip_prefix("fake/work,"))
        .unwrap()
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    assert!((row[0] / 2_000_000.0 - 1.0).abs() < 0.005, "{row:?}");
    assert!((140_000.0..190_000.0).contains(&row[1]), "{row:?}");
    // The doubling pair is what was saved: n = 16 384 and 32 768.
    let dir = std::fs::read_dir(&h)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("fake_work")
        })
        .unwrap();
    let sample = std::fs::read_to_string(dir.join("new/sample.json")).unwrap();
    assert!(sample.contains("[16384.0,32768.0]"), "{sample}");

    // Criterion.rs's interval target and tasty-bench's rule are two ways
    // to stop: asking for both is an error, in one line.
    let both = run(
        &h,
        &["--bench", "--stdev", "5", "--target-precision", "1"],
        &[],
    );
    assert_eq!(both.code, 2);
    assert!(both.stderr.contains("--stdev"), "{}", both.stderr);
}

#[test]
fn group_options_are_tasty_benchs_local_options() {
    let h = home("local");
    let base = ["--bench", "--nresamples", "2000", "--color", "never"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        base.iter().chain(extra).copied().collect()
    };
    let env = [("FIXTURE_LOCAL", "1"), ("FIXTURE_WORK", "2000")];
    let first = run(&h, &with(&["--save-baseline", "old", "local"]), &env);
    assert_eq!(first.code, 0, "{}", first.stderr);
    // The group's stdev chose tasty-bench's rule; the other group's
    // target and time-out replaced the defaults (±1 %, 5 s): its ±50 %
    // noise cannot reach ±0.5 % in 0.3 s.
    assert!(
        first
            .stdout
            .contains("Benchmarking local/work: Doubling until the relative standard deviation is below 5% (at most 2.0000 s)"),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains(
            "Benchmarking local_adaptive/noisy: Sampling until ±0.5% (at most 300.00 ms)"
        ),
        "{}",
        first.stdout
    );
    assert!(
        first.stderr.contains("not the ±0.5% asked for"),
        "{}",
        first.stderr
    );

    // 25 % slower: past the group's 10 % limit, with no limit on the
    // command line; the run fails naming the benchmark.
    let slow_env = [("FIXTURE_LOCAL", "1"), ("FIXTURE_WORK", "2500")];
    let slow = run(&h, &with(&["--baseline", "old", "local/work"]), &slow_env);
    assert_eq!(slow.code, 1, "{}\n{}", slow.stdout, slow.stderr);
    assert!(
        slow.stderr
            .contains("more than the 10% --fail-if-slower allows"),
        "{}",
        slow.stderr
    );
    assert!(
        slow.stderr.contains("1 benchmark failed: local/work"),
        "{}",
        slow.stderr
    );
}

#[test]
fn allocations_show_on_the_tasty_line_and_in_a_memory_block() {
    // alloc/vec100 allocates one Vec<u64> of 100: 800 bytes an iteration.
    let h = home("memory");
    let env = [("FIXTURE_METERS", "1")];
    let tasty = quick(&[
        "--measure",
        "allocs",
        "--output-format",
        "tasty-flat",
        "--exact",
        "alloc/vec100",
    ]);
    let r = run(&h, &args(&tasty), &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains(" ± "))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(line.contains(", 800 B allocated, "), "{line}");
    assert!(line.ends_with(" peak memory"), "{line}");

    let stats = quick(&[
        "--measure",
        "allocs",
        "--output-format",
        "stats",
        "--exact",
        "alloc/vec100",
    ]);
    let r = run(&h, &args(&stats), &env);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let block: Vec<&str> = r
        .stdout
        .lines()
        .skip_while(|l| *l != "===> Stats for memory")
        .collect();
    assert!(block.len() >= 12, "{}", r.stdout);
    for (line, label) in block[1..6].iter().zip([
        "Min:",
        "25 percentile:",
        "Median:",
        "75 percentile:",
        "Max:",
    ]) {
        assert!(line.starts_with(label), "{line}");
        // Compared with the first run's: the same 800 bytes.
        assert!(line.ends_with(" 800.00 (+      0.00 /  0.0%)"), "{line}");
    }
    assert_eq!(block[6], "Outliers:         Lo: 0; Hi: 0; Sum: 0");
    assert_eq!(block[7], "Outlier variance:  0.00000e0 (unaffected)");
    assert_eq!(
        block[9],
        "Mean:                 800.00 (+      0.00 /  0.0%)"
    );
    assert_eq!(block[10], "Std deviation:          0.00");
    assert_eq!(
        block[11..],
        ["> Relative", "No difference proven at 95.0% confidence"]
    );
}

/// A run-level output that cannot be written fails the run, and the closing
/// lines (printed after every output is written) count it: tasty's totals
/// and the failure line.
#[test]
fn an_unwritable_csv_fails_the_run_and_is_counted_in_the_closing_lines() {
    let h = home("csv-unwritable");
    // A file where the folder should be: the writer cannot create it.
    std::fs::write(h.join("a-file"), "").unwrap();
    let csv = h.join("a-file").join("out.csv");
    let a = quick(&[
        "--output-format",
        "tasty",
        "--csv",
        csv.to_str().unwrap(),
        "fake/work",
    ]);
    let r = run(&h, &args(&a), &[("FIXTURE_WORK", "2000")]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("could not write --csv"), "{}", r.stderr);
    assert!(
        r.stdout.contains("1 out of 1 tests failed ("),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains("error: 1 benchmark failed: --csv"),
        "{}",
        r.stderr
    );
}
