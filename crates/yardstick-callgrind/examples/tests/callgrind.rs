//! End-to-end tests: the fixture bench binaries run as `cargo bench` runs
//! them, under real Valgrind.
//!
//! Without `valgrind` on PATH these tests print a note and pass, except when
//! `CI` is set (CI installs Valgrind), where they fail saying so.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

const LIB: &str = env!("CARGO_BIN_EXE_cg-lib");
const BIN: &str = env!("CARGO_BIN_EXE_cg-bin");
const IAI: &str = env!("CARGO_BIN_EXE_cg-iai");
const ABI: &str = env!("CARGO_BIN_EXE_cg-abi");

fn have_valgrind() -> bool {
    let found = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "valgrind is not on PATH: CI must install it (apt-get install valgrind)"
        );
        eprintln!("note: valgrind is not on PATH; skipping this test");
    }
    found
}

/// Whether Valgrind's script `program` (`callgrind_annotate`, `ms_print`)
/// can be started; like Valgrind itself, required under `CI`. (Their
/// `--version` exits with 255: only starting them is checked.)
fn have_script(program: &str) -> bool {
    let found = Command::new(program).arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{program} is not on PATH: CI must install it (it comes with valgrind)"
        );
        eprintln!("note: {program} is not on PATH; skipping this check");
    }
    found
}

/// A fresh home directory for one test.
fn home(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "yardstick-callgrind-e2e-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(bin: &str, home: &Path, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin);
    cmd.arg("--bench").arg(format!("--home={}", home.display()));
    cmd.args(args);
    for var in [
        "YARDSTICK_CALLGRIND_REGRESSION",
        "YARDSTICK_CALLGRIND_OUTPUT_FORMAT",
        "YARDSTICK_CALLGRIND_VALGRIND",
        "CG_WORK",
        "CG_EXPECT",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(envs.iter().copied());
    cmd.output().expect("run the fixture bench binary")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn summaries(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn ir(summary: &Value) -> u64 {
    summary["callgrind"]["metrics"]["Ir"]["new"]
        .as_u64()
        .expect("an Ir count")
}

fn find<'a>(all: &'a [Value], header_part: &str) -> &'a Value {
    all.iter()
        .find(|s| s["header"].as_str().unwrap_or("").contains(header_part))
        .unwrap_or_else(|| panic!("no benchmark '{header_part}' in {all:?}"))
}

/// The benchmark function is counted in Rust's calling convention, as
/// iai-callgrind counts it when its call crosses codegen units: `reverse`
/// (called only by the harness) costs what its twin `reverse_escaped`
/// (whose address escapes) costs. Called directly, LLVM rewrote its
/// signature (the array passed in registers, the returned pointer
/// dropped) and it counted fewer: glam's small benchmarks read 1–3 below
/// iai-callgrind's.
#[test]
fn the_benchmark_keeps_rusts_calling_convention() {
    if !have_valgrind() {
        return;
    }
    let h = home("abi");
    let o = run(ABI, &h, &["--output-format=json"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let all = summaries(&o);
    let plain = ir(find(&all, "abi::reverse four"));
    let escaped = ir(find(&all, "abi::reverse_escaped four"));
    assert_eq!(plain, escaped, "{out}");
}

#[test]
fn the_same_benchmark_twice_gives_identical_counts() {
    if !have_valgrind() {
        return;
    }
    let h = home("twice");
    let first = run(LIB, &h, &["sums"], &[]);
    let (out, err) = text(&first);
    assert!(first.status.success(), "{out}\n{err}");
    assert!(out.contains("cg_lib::sums::bench_sum small:1000"), "{out}");
    assert!(
        out.lines()
            .filter(|l| l.starts_with("  "))
            .all(|l| l.contains("|N/A") && l.ends_with("(*********)")),
        "{out}"
    );
    // One at a time this time (the first run measured in parallel): the
    // counts must not depend on it.
    let second = run(LIB, &h, &["sums", "--jobs=1"], &[]);
    let (out, err) = text(&second);
    assert!(second.status.success(), "{out}\n{err}");
    let metric_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(metric_lines.len(), 18, "{out}");
    for line in metric_lines {
        assert!(
            line.ends_with("(No change)"),
            "counts differ between runs: {line}"
        );
    }
    // The files callgrind_annotate reads are kept beside each other.
    let dir = h.join("yardstick-callgrind-examples/cg_lib/sums/bench_sum.small");
    assert!(dir.join("callgrind.bench_sum.small.out").is_file());
    assert!(dir.join("callgrind.bench_sum.small.out.old").is_file());
    assert!(dir.join("callgrind.bench_sum.small.log").is_file());
}

#[test]
fn more_work_shows_the_expected_increase() {
    if !have_valgrind() {
        return;
    }
    let h = home("work");
    let o = run(
        LIB,
        &h,
        &["sums", "--output-format=json"],
        &[("CG_WORK", "3000")],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let all = summaries(&o);
    let small = ir(find(&all, "small:1000"));
    let large = ir(find(&all, "large:2000"));
    let env = ir(find(&all, "bench_work env"));
    // sum_to does the same instructions per iteration: 1000 more iterations
    // add an exact multiple of 1000, and 2000 more add twice that.
    let per_1000 = large - small;
    assert!(
        per_1000 >= 1000 && per_1000 / 1000 * 1000 == per_1000,
        "{small} {large}"
    );
    assert_eq!(env - large, per_1000, "{small} {large} {env}");
    // Only the benchmark is counted: the harness adds a few dozen
    // instructions at most beyond the loop.
    let fixed = small - per_1000;
    assert!(fixed < 200, "overhead of {fixed} instructions");
}

#[test]
fn a_regression_limit_fails_the_run() {
    if !have_valgrind() {
        return;
    }
    let h = home("regress");
    let base = run(LIB, &h, &["bench_work"], &[("CG_WORK", "1000")]);
    assert!(base.status.success(), "{:?}", text(&base));
    // Same work: no regression.
    let same = run(
        LIB,
        &h,
        &["bench_work", "--regression=Ir=5"],
        &[("CG_WORK", "1000")],
    );
    assert!(same.status.success(), "{:?}", text(&same));
    // 10 % more work against a 5 % limit, from the environment variable.
    let worse = run(
        LIB,
        &h,
        &["bench_work"],
        &[
            ("CG_WORK", "1100"),
            ("YARDSTICK_CALLGRIND_REGRESSION", "Ir=5"),
        ],
    );
    let (out, err) = text(&worse);
    assert_eq!(worse.status.code(), Some(3), "{out}\n{err}");
    assert!(
        err.contains("Performance has regressed: Instructions (")
            && err.contains("regressed by +")
            && err.contains("(>+5.00000)"),
        "{err}"
    );
    assert!(
        // iai-callgrind's display: a setup's arguments inside its call.
        err.contains("cg_lib::sums::bench_work env:work_from_env(1000)"),
        "names the benchmark: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // Limits reach events that are counted but not printed: 10 % more
    // work reads about 10 % more data (Dr) too.
    let reads = run(
        LIB,
        &h,
        &["bench_work", "--regression=Dr=5"],
        &[("CG_WORK", "1210")],
    );
    let (out, err) = text(&reads);
    assert_eq!(reads.status.code(), Some(3), "{out}\n{err}");
    assert!(err.contains("Performance has regressed: Dr ("), "{err}");
    // A limit on an event callgrind did not count says so, and passes.
    let branches = run(
        LIB,
        &h,
        &["bench_work", "--regression=Bc=5"],
        &[("CG_WORK", "1210")],
    );
    let (out, err) = text(&branches);
    assert!(branches.status.success(), "{out}\n{err}");
    assert_eq!(err.matches("callgrind counted no Bc").count(), 1, "{err}");
}

#[test]
fn baselines_are_saved_and_compared() {
    if !have_valgrind() {
        return;
    }
    let h = home("baseline");
    let save = run(LIB, &h, &["small", "--save-baseline=main"], &[]);
    assert!(save.status.success(), "{:?}", text(&save));
    let cmp = run(LIB, &h, &["small", "--baseline=main"], &[]);
    let (out, _) = text(&cmp);
    assert!(
        out.contains("  Baselines:                       |main"),
        "{out}"
    );
    assert!(out.contains("(No change)"), "{out}");
    let load = run(
        LIB,
        &h,
        &["small", "--load-baseline=main", "--baseline=main"],
        &[],
    );
    let (out, err) = text(&load);
    assert!(load.status.success(), "{out}\n{err}");
    assert!(
        out.contains("  Baselines:                   main|main"),
        "{out}"
    );
    // --separate-targets puts the target triple first.
    let sep = run(LIB, &h, &["small", "--separate-targets"], &[]);
    assert!(sep.status.success(), "{:?}", text(&sep));
    let triples: Vec<String> = std::fs::read_dir(&h)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("-linux-") || n.contains("-apple-") || n.contains("-unknown-"))
        .collect();
    assert_eq!(triples.len(), 1, "{triples:?}");
    assert!(h
        .join(&triples[0])
        .join("yardstick-callgrind-examples/cg_lib/sums/bench_sum.small")
        .is_dir());
    // Without the cache simulation only instructions are counted.
    let nosim = run(LIB, &h, &["small", "--callgrind-args=--cache-sim=no"], &[]);
    let (out, _) = text(&nosim);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("  Instructions:"), "{out}");
}

#[test]
fn a_binary_benchmark_with_fixtures_and_an_expected_exit_code() {
    if !have_valgrind() {
        return;
    }
    let h = home("binary");
    let ok = run(BIN, &h, &[], &[]);
    let (out, err) = text(&ok);
    assert!(ok.status.success(), "{out}\n{err}");
    assert!(
        out.contains("cg_bin::tool count:cg-tool count fixtures/words.txt"),
        "{out}"
    );
    assert!(out.contains("cg_bin::tool exit:cg-tool exit 3"), "{out}");
    assert_eq!(out.matches("  Instructions:").count(), 2, "{out}");
    // The code differs from the one expected: the benchmark fails.
    let bad = run(BIN, &h, &["exit"], &[("CG_EXPECT", "4")]);
    let (out, err) = text(&bad);
    assert_eq!(bad.status.code(), Some(1), "{out}\n{err}");
    assert!(err.contains("exited with code 3, expected 4"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn json_summaries_validate_against_the_schema() {
    if !have_valgrind() {
        return;
    }
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/summary.v1.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(&schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let h = home("json");
    let check = |v: &Value| {
        let errors: Vec<String> = validator.iter_errors(v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}\n{v:#}");
    };
    let lib = run(
        LIB,
        &h,
        &[
            "small",
            "--output-format=json",
            "--save-summary=pretty-json",
            "--tools=dhat,memcheck",
            "--flamegraph",
        ],
        &[],
    );
    assert!(lib.status.success(), "{:?}", text(&lib));
    let lib_summaries = summaries(&lib);
    assert_eq!(lib_summaries.len(), 1);
    lib_summaries.iter().for_each(check);
    let s = &lib_summaries[0];
    assert_eq!(s["version"], "1");
    let tools: Vec<&str> = s["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tool"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["dhat", "memcheck"]);
    assert_eq!(s["tools"][1]["errors"], 0);
    assert!(Path::new(s["tools"][0]["out_file"].as_str().unwrap()).is_file());
    let saved = Path::new(s["benchmark_dir"].as_str().unwrap()).join("summary.json");
    check(&serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap());
    let svg = s["callgrind"]["flamegraphs"][0].as_str().unwrap();
    assert!(std::fs::read_to_string(svg).unwrap().contains("<svg"));
    // The second run compares, and draws the differential flamegraph too.
    let again = run(
        LIB,
        &h,
        &["small", "--output-format=json", "--flamegraph"],
        &[],
    );
    let again = summaries(&again);
    again.iter().for_each(check);
    assert_eq!(again[0]["callgrind"]["metrics"]["Ir"]["diff_pct"], 0.0);
    assert_eq!(
        again[0]["callgrind"]["flamegraphs"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let bin = run(BIN, &h, &["--output-format=json"], &[]);
    summaries(&bin).iter().for_each(check);
}

#[test]
fn valgrind_missing_is_one_clear_line() {
    let h = home("missing");
    let o = run(
        LIB,
        &h,
        &[],
        &[("YARDSTICK_CALLGRIND_VALGRIND", "/nonexistent/valgrind")],
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("Valgrind not found"), "{err}");
    assert!(err.contains("apt-get install valgrind"), "{err}");
}

#[test]
fn without_bench_each_benchmark_runs_once_natively() {
    let o = Command::new(LIB).env_remove("CG_WORK").output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(out.matches("Success").count(), 12, "{out}");
    // `cargo bench -- --test` runs `<bench> --test --bench`: natively too,
    // so not even a missing Valgrind is noticed.
    let o = Command::new(LIB)
        .args(["--test", "--bench"])
        .env_remove("CG_WORK")
        .env("YARDSTICK_CALLGRIND_VALGRIND", "/nonexistent/valgrind")
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(out.matches("Success").count(), 12, "{out}");
    assert!(!out.contains("Instructions:"), "{out}");
    let list = Command::new(LIB).arg("--list").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&list.stdout),
        "cg_lib::sums::bench_sum small: benchmark\n\
         cg_lib::sums::bench_sum large: benchmark\n\
         cg_lib::sums::bench_work env: benchmark\n\
         cg_lib::sorts::bench_sorted case_3: benchmark\n\
         cg_lib::sorts::bench_reversed case_3: benchmark\n\
         cg_lib::leaks::bench_leak: benchmark\n\
         cg_lib::teardowns::bench_teardown without: benchmark\n\
         cg_lib::teardowns::bench_teardown with_costly: benchmark\n\
         cg_lib::teardowns::bench_moved page: benchmark\n\
         cg_lib::heap::bench_block kib_256: benchmark\n\
         cg_lib::threads::bench_disjoint: benchmark\n\
         cg_lib::threads::bench_racy: benchmark\n"
    );
}

/// `--partition`: the shards' lists are disjoint and together the whole
/// list (no Valgrind needed to list).
#[test]
fn partitions_list_every_benchmark_once() {
    let list = |args: &[&str]| {
        let o = Command::new(LIB).arg("--list").args(args).output().unwrap();
        assert!(o.status.success(), "{}", text(&o).1);
        let out = text(&o).0;
        out.lines().map(str::to_owned).collect::<Vec<_>>()
    };
    let mut all = list(&[]);
    all.sort();
    for kind in ["count", "hash"] {
        let mut union: Vec<String> = (1..=3)
            .flat_map(|k| list(&["--partition", &format!("{kind}:{k}/3")]))
            .collect();
        union.sort();
        assert_eq!(union, all, "{kind}");
    }
}

#[test]
fn compare_by_id_compares_functions_with_the_same_id() {
    if !have_valgrind() {
        return;
    }
    let h = home("by-id");
    let o = run(LIB, &h, &["sorts"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let (_, after) = out
        // iai-callgrind's display of the arguments: as the compiler prints
        // the tokens (its README shows `case_3:vec! [1, 2, 3]`).
        .split_once("cg_lib::sorts::bench_reversed case_3:vec! [3, 2, 1]\n")
        .expect("the second function's header");
    let lines: Vec<&str> = after.lines().collect();
    assert_eq!(
        lines[6], "  Comparison with bench_sorted case_3:vec! [1, 2, 3]",
        "{out}"
    );
    // The sorted input does less work: the left (other) count is lower.
    assert!(lines[7].starts_with("  Instructions:"), "{out}");
    assert!(lines[7].contains("%) [-"), "{out}");
}

#[test]
fn a_stripped_bench_binary_is_one_clear_line() {
    if !have_valgrind() {
        return;
    }
    let h = home("stripped");
    std::fs::create_dir_all(&h).unwrap();
    let copy = h.join("cg-lib-stripped");
    std::fs::copy(LIB, &copy).unwrap();
    match Command::new("strip").arg(&copy).status() {
        Ok(s) if s.success() => {}
        _ => {
            eprintln!("note: `strip` is not available; skipping");
            return;
        }
    }
    let o = run(copy.to_str().unwrap(), &h, &["small"], &[]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("no instructions were counted") && err.contains("strip = false"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_tool_that_finds_errors_fails_the_benchmark() {
    if !have_valgrind() {
        return;
    }
    let h = home("memcheck");
    let o = run(LIB, &h, &["leaks"], &[]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(out.contains("  ======= MEMCHECK ===="), "{out}");
    assert!(
        err.contains("cg_lib::leaks::bench_leak: memcheck exited with code 201: errors found"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn nocapture_shows_the_benchmarks_output() {
    if !have_valgrind() {
        return;
    }
    let h = home("nocapture");
    let o = run(BIN, &h, &["count", "--nocapture"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "cg_bin::tool count:cg-tool count fixtures/words.txt"
    );
    assert_eq!(lines[1], "9", "cg-tool's own output: {out}");
    assert_eq!(lines[2], "- end of stdout/stderr", "{out}");
    assert!(lines[3].starts_with("  Instructions:"), "{out}");
}

#[test]
fn teardown_is_not_counted() {
    if !have_valgrind() {
        return;
    }
    let h = home("teardown");
    // stderr shown, stdout JSON: the teardown prints to stderr.
    let o = run(
        LIB,
        &h,
        &[
            "bench_teardown",
            "--output-format=json",
            "--nocapture=stderr",
        ],
        &[],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    // The teardown ran, once, and did its work: sum_to(100_000), some
    // 700,000 instructions, against the benchmark's sum_to(3000).
    assert_eq!(
        err.matches("costly teardown ran: 4498500 4999950000")
            .count(),
        1,
        "{err}"
    );
    let all = summaries(&o);
    let without = ir(find(&all, "bench_teardown without:"));
    let with = ir(find(&all, "bench_teardown with_costly:"));
    // Exactly equal: the measured region is the same code with the same
    // input; the teardown runs after it returns. (The cache metrics may
    // differ by a miss or two: the two benchmarks' code sits at different
    // addresses. They are not compared.)
    assert_eq!(with, without, "the teardown was counted");
    assert!(without > 3000 * 7, "{without}");
}

#[test]
fn moving_a_set_up_argument_into_the_call_is_not_counted() {
    if !have_valgrind() {
        return;
    }
    let h = home("moved");
    let o = run(LIB, &h, &["bench_moved", "--output-format=json"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    // The function's body is one load and a return (two instructions, three
    // if the compiler keeps a frame); copying its 4 KiB argument, had it
    // been counted, would be a memcpy call of far more.
    let count = ir(find(&summaries(&o), "bench_moved page:"));
    assert!((1..=3).contains(&count), "{count}");
}

/// `<tool>`'s summary in a benchmark's JSON summary.
fn tool<'a>(summary: &'a Value, name: &str) -> &'a Value {
    summary["tools"]
        .as_array()
        .expect("a tools array")
        .iter()
        .find(|t| t["tool"] == name)
        .unwrap_or_else(|| panic!("no {name} run in {summary:#}"))
}

fn check_schema(all: &[Value]) {
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/summary.v1.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(&schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    for v in all {
        let errors: Vec<String> = validator.iter_errors(v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}\n{v:#}");
    }
}

#[test]
fn massif_records_the_peak_heap_of_a_known_block() {
    if !have_valgrind() {
        return;
    }
    let h = home("massif");
    let o = run(
        LIB,
        &h,
        &["bench_block", "--tools=massif", "--output-format=json"],
        &[],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let all = summaries(&o);
    check_schema(&all);
    let massif = tool(&all[0], "massif");
    assert_eq!(massif["exit_code"], 0, "{massif:#}");
    assert_eq!(massif["errors"], Value::Null, "Massif reports no errors");
    let out = Path::new(massif["out_file"].as_str().expect("an out file"));
    assert_eq!(
        out,
        h.join("yardstick-callgrind-examples/cg_lib/heap/bench_block.kib_256")
            .join("massif.bench_block.kib_256.out")
    );
    assert!(Path::new(massif["log_file"].as_str().unwrap()).is_file());
    let profile = std::fs::read_to_string(out).unwrap();
    // Massif's snapshots: `mem_heap_B=` (bytes asked for) precedes
    // `heap_tree=peak` in the peak snapshot.
    let mut heap = Vec::new();
    let mut peak = None;
    for line in profile.lines() {
        if let Some(b) = line.strip_prefix("mem_heap_B=") {
            heap.push(b.parse::<u64>().unwrap());
        }
        if line == "heap_tree=peak" {
            peak = heap.last().copied();
        }
    }
    let peak = peak.unwrap_or_else(|| panic!("no peak snapshot:\n{profile}"));
    assert_eq!(Some(&peak), heap.iter().max(), "{heap:?}");
    // The 256 KiB block, plus what the rest of the process holds then (the
    // harness's registrations, std's buffers: some 15 KB here). Massif counts
    // the bytes asked for; its allocator overhead is `mem_heap_extra_B`.
    let block = 256 * 1024;
    assert!(
        (block..block + 64 * 1024).contains(&peak),
        "peak {peak} bytes for a {block}-byte block"
    );
    // ms_print reads it.
    if have_script("ms_print") {
        let printed = Command::new("ms_print").arg(out).output().unwrap();
        assert!(printed.status.success(), "{printed:?}");
        let printed = String::from_utf8_lossy(&printed.stdout);
        assert!(printed.contains("(peak)"), "{printed}");
    }
}

#[test]
fn helgrind_and_drd_report_a_race_and_pass_a_race_free_benchmark() {
    if !have_valgrind() {
        return;
    }
    let h = home("threads");
    let o = run(
        LIB,
        &h,
        &["threads", "--tools=helgrind,drd", "--output-format=json"],
        &[],
    );
    let (out, err) = text(&o);
    // The racy benchmark fails the run.
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    let all = summaries(&o);
    check_schema(&all);
    let disjoint = find(&all, "bench_disjoint");
    let racy = find(&all, "bench_racy");
    assert_eq!(disjoint["failed"], false, "{disjoint:#}");
    assert_eq!(racy["failed"], true, "{racy:#}");
    for (name, race_line) in [
        ("helgrind", "Possible data race"),
        ("drd", "Conflicting store"),
    ] {
        let clean = tool(disjoint, name);
        assert_eq!(clean["errors"], 0, "{clean:#}");
        assert_eq!(clean["exit_code"], 0, "{clean:#}");
        let found = tool(racy, name);
        assert!(found["errors"].as_u64().unwrap() >= 1, "{found:#}");
        assert_eq!(found["exit_code"], 201, "{found:#}");
        let log = std::fs::read_to_string(found["log_file"].as_str().unwrap()).unwrap();
        assert!(log.contains(race_line), "{name} log:\n{log}");
        let message =
            format!("cg_lib::threads::bench_racy: {name} exited with code 201: errors found");
        assert!(err.contains(&message), "{err}");
        assert!(
            racy["errors"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e.as_str().unwrap().starts_with(&message)),
            "{racy:#}"
        );
    }
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("bench_disjoint"), "{err}");
}

#[test]
fn callgrind_annotate_reads_the_output_and_names_the_benchmark() {
    if !have_valgrind() || !have_script("callgrind_annotate") {
        return;
    }
    let h = home("annotate");
    // The library form (an #[inline(never)] function) and the Iai form (a
    // plain function, called through a pointer): both small enough to be
    // inlined into the measured function if nothing stopped it.
    for (bin, filter, function) in [
        (LIB, "bench_sum small", "cg_lib::bench_sum"),
        (IAI, "iai_sum", "cg_iai::iai_sum"),
    ] {
        let o = run(bin, &h, &[filter, "--output-format=json"], &[]);
        assert!(o.status.success(), "{:?}", text(&o));
        let all = summaries(&o);
        let file = all[0]["callgrind"]["out_file"].as_str().unwrap();
        let count = ir(&all[0]);
        for args in [&[][..], &["--inclusive=yes"][..]] {
            let annotated = Command::new("callgrind_annotate")
                .args(args)
                .arg(file)
                .output()
                .unwrap();
            let (report, diag) = text(&annotated);
            assert!(annotated.status.success(), "{args:?}:\n{report}\n{diag}");
            // Its total is the count the framework reported.
            let totals = report
                .lines()
                .find(|l| l.ends_with("PROGRAM TOTALS"))
                .unwrap_or_else(|| panic!("no totals:\n{report}"));
            let total: u64 = totals
                .split_whitespace()
                .next()
                .unwrap()
                .replace(',', "")
                .parse()
                .unwrap();
            assert_eq!(total, count, "{totals}");
            if args.is_empty() {
                continue;
            }
            // Inclusive costs list every function on the measured path,
            // the benchmark with nearly all of the count.
            assert!(
                report
                    .lines()
                    .any(|l| l.contains(&format!(":{function}")) && l.contains("(99.")),
                "{function} is not named:\n{report}"
            );
        }
    }
}
