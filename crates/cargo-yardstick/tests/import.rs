//! `cargo yardstick import` on files made by the real tools (pyperf,
//! hyperfine, Google Benchmark) and on the documented formats of the others;
//! malformed files get one line and exit status 2.

mod common;
use common::{fixture, run, stderr, stdout};

fn import(home: &std::path::Path, format: &str, rel: &str) -> String {
    let f = fixture(rel);
    let o = run(home, &["import", format, f.to_str().unwrap()]);
    assert!(o.status.success(), "{format}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn every_format_imports_into_the_history() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let cases = [
        ("pyperf", "pyperf/timeit.json", 1, "timeit"),
        ("hyperfine", "hyperfine/two.json", 2, "sleep 0.001"),
        (
            "google-benchmark",
            "google-benchmark/repetitions.json",
            2,
            "BM_sum/64",
        ),
        (
            "nanobench",
            "nanobench/json_template.json",
            1,
            "compare/std::vector",
        ),
        (
            "tasty-bench",
            "tasty-bench/results.csv",
            3,
            "All.fibonacci numbers.fifth",
        ),
        (
            "iai-callgrind",
            "iai-callgrind",
            1,
            "my_bench::bench_fibonacci_group::bench_fibonacci/short",
        ),
        (
            "cargo-criterion",
            "cargo-criterion/messages.jsonl",
            1,
            "fib/10",
        ),
        ("criterion", "criterion/home", 1, "fib_10"),
    ];
    for (i, (format, rel, n, name)) in cases.iter().enumerate() {
        let text = import(h, format, rel);
        assert_eq!(
            text,
            format!(
                "imported {n} benchmark{} from {} as run {}\n",
                if *n == 1 { "" } else { "s" },
                fixture(rel).display(),
                i + 1
            )
        );
        let o = run(h, &["history", name]);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        assert!(stdout(&o).starts_with(name), "{format}: {}", stdout(&o));
    }
    // Google Benchmark: three repetitions become three samples.
    let o = run(h, &["compare", "3", "3"]);
    assert!(stdout(&o).contains("BM_sum/512"), "{}", stdout(&o));
    // Instruction counts keep their unit.
    let o = run(h, &["history", "bench_fibonacci"]);
    assert!(stdout(&o).contains("1733 instructions"), "{}", stdout(&o));
}

#[test]
fn malformed_files_get_one_line_and_status_2() {
    let home = tempfile::tempdir().unwrap();
    let cases = [
        (
            "hyperfine",
            "malformed/truncated.json",
            "not a valid hyperfine file: invalid JSON",
        ),
        (
            "pyperf",
            "malformed/truncated.json",
            "not a valid pyperf file: invalid JSON",
        ),
        (
            "tasty-bench",
            "malformed/tasty_missing_column.csv",
            "missing column \"2*Stdev (ps)\"",
        ),
        (
            "nanobench",
            "hyperfine/two.json",
            "not a valid nanobench file: results[0]: expected a string \"name\"",
        ),
        ("google-benchmark", "does-not-exist.json", "cannot read it"),
        (
            "criterion",
            "tasty-bench",
            "no benchmark with a readable 'new' folder",
        ),
    ];
    for (format, rel, expected) in cases {
        let f = fixture(rel);
        let o = run(home.path(), &["import", format, f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{format} {rel}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("error: {}", f.display())), "{err}");
        assert!(err.contains(expected), "{err}");
    }
    let o = run(home.path(), &["import", "junit", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown import format 'junit'; expected one of: yardstick, criterion")
    );
}

/// Homes written by the real Criterion.rs 0.8.2 and by yardstick's harness
/// (the comparison crate's runs of the same workloads): both import, with
/// their samples, and compare with each other.
#[test]
fn real_criterion_and_yardstick_homes_import_and_compare() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let text = import(h, "criterion", "criterion/real-criterion-0.8");
    assert!(text.starts_with("imported 2 benchmarks from "), "{text}");
    let text = import(h, "criterion", "criterion/real-yardstick");
    assert!(text.starts_with("imported 1 benchmark from "), "{text}");
    let o = run(h, &["history", "us_loop"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("us_loop"), "{}", stdout(&o));
    // Both ran the same 3.7 µs loop: the comparison finds them close.
    let o = run(h, &["compare", "1", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("us_loop"), "{}", stdout(&o));
}

/// A summary written by the real iai-callgrind 0.16.1 (the comparison
/// crate's `compare/callgrind` run, its paths replaced by placeholders).
#[test]
fn a_real_iai_callgrind_summary_imports_its_instruction_count() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let text = import(h, "iai-callgrind", "iai-callgrind/real-0.16.1-summary.json");
    assert!(text.starts_with("imported 1 benchmark from "), "{text}");
    let o = run(h, &["history", "bench_fibonacci"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // iai-callgrind counted 1734 instructions for fibonacci(10) here.
    assert!(
        stdout(&o).starts_with(
            "workloads::workloads::bench_fibonacci/short  1 runs  latest 1734 instructions"
        ),
        "{}",
        stdout(&o)
    );
}

/// Messages written by the real cargo-criterion 1.1.0 over Criterion.rs
/// 0.8 (`cargo criterion --message-format=json` on the comparison crate).
#[test]
fn real_cargo_criterion_messages_import_with_their_samples() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let text = import(h, "cargo-criterion", "cargo-criterion/real-1.1.0.jsonl");
    assert!(text.starts_with("imported 2 benchmarks from "), "{text}");
    for name in ["ns_op", "us_loop"] {
        let o = run(h, &["history", name]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).starts_with(name), "{}", stdout(&o));
    }
    // The samples came along: a run compares with itself as no change.
    let o = run(h, &["compare", "1", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("us_loop"), "{}", stdout(&o));
}

/// nanobench 4.3's own JSON template (`templates::json()`), rendered by a
/// small C++ program compiled with g++ against nanobench.h.
#[test]
fn real_nanobench_json_imports_every_result() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let text = import(h, "nanobench", "nanobench/real-4.3-json.json");
    assert!(text.starts_with("imported 2 benchmarks from "), "{text}");
    let o = run(h, &["history", "compare/sort 100"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("compare/sort 100  1 runs  latest "),
        "{}",
        stdout(&o)
    );
}
