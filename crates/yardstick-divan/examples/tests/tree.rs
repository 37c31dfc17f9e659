//! The fixture bench file run end to end: divan's tree table, `--list`,
//! `--test`, filters, saved baselines and comparisons, JSON messages.

use std::path::Path;
use std::process::Command;

fn run(home: &Path, args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_tree_fixture"))
        .args(args)
        .env("YARDSTICK_HOME", home)
        .env_remove("DIVAN_SAMPLE_COUNT")
        .env_remove("DIVAN_THREADS")
        .output()
        .expect("the fixture runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

fn home(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("yardstick-divan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Each line's label column (the tree, as wide as the header's title
/// column), numbers dropped.
fn labels(table: &str) -> Vec<String> {
    let header = table.lines().next().unwrap_or("");
    let width = header.split("fastest").next().unwrap_or("").chars().count();
    table
        .lines()
        .map(|l| {
            l.chars()
                .take(width)
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect()
}

/// The order and the rows are those divan 0.1.21 prints for the same file:
/// plain benchmarks, then generic ones and groups; an ignored benchmark
/// stays as an `(ignored)` row.
#[test]
fn the_tree_lists_every_benchmark_in_divans_order() {
    let h = home("tree");
    let (out, err, ok) = run(
        &h,
        &["--bench", "--sample-count", "5", "--discard-baseline"],
    );
    assert!(ok, "{err}");
    assert_eq!(
        labels(&out),
        [
            "tree_fixture",
            "├─ args",
            "│  ├─ 1",
            "│  │",
            "│  ╰─ 2",
            "│",
            "├─ plain",
            "├─ generic",
            "│  ├─ u8",
            "│  │  ├─ t=1",
            "│  │  ╰─ t=2",
            "│  ╰─ u32",
            "│     ├─ t=1",
            "│     ╰─ t=2",
            "╰─ grouped",
            "   ├─ inner",
            "   ╰─ skipped",
            // divan ends the table with a blank line.
            "",
        ],
        "{out}"
    );
    let skipped = out.lines().nth_back(1).unwrap();
    assert!(skipped.contains("(ignored)"), "{skipped}");
    let header = out.lines().next().unwrap();
    assert!(
        header.ends_with(
            "fastest       │ slowest       │ median        │ mean          │ samples │ iters"
        ),
        "{header}"
    );
    // Every measured row has 5 samples; the counter rows are rates.
    let plain = out.lines().find(|l| l.starts_with("├─ plain")).unwrap();
    let cells: Vec<&str> = plain.split('│').map(str::trim).collect();
    assert_eq!(cells[4], "5", "{plain}");
    assert!(
        cells[0].ends_with(" ns") || cells[0].ends_with(" µs"),
        "{plain}"
    );
    assert!(out.contains("item/s"), "{out}");
}

/// divan 0.1.21 writes `Timer precision: 20 ns` to stderr before the tree
/// when it measures, and not in a test run, a listing or when no benchmark
/// passes the filter.
#[test]
fn the_timer_precision_comes_first_as_in_divan() {
    let h = home("precision");
    let (out, err, ok) = run(
        &h,
        &[
            "--bench",
            "--sample-count",
            "2",
            "--discard-baseline",
            "plain",
        ],
    );
    assert!(ok, "{err}");
    let first = err.lines().next().unwrap_or("");
    let figure = first.strip_prefix("Timer precision: ").expect(&err);
    let (number, unit) = figure.split_once(' ').expect(figure);
    assert!(number.parse::<f64>().is_ok_and(|n| n > 0.0), "{first}");
    assert!(["ps", "ns", "µs", "ms"].contains(&unit), "{first}");
    assert_eq!(err.matches("Timer precision").count(), 1, "{err}");
    assert!(out.starts_with("tree_fixture"), "{out}");
    for quiet in [&[][..], &["--list"], &["--bench", "no_such_benchmark"]] {
        let (_, err, ok) = run(&h, quiet);
        assert!(ok, "{err}");
        assert!(!err.contains("Timer precision"), "{quiet:?}: {err}");
    }
}

/// The `--list` outlines below are what divan 0.1.21 prints for the same
/// file.
#[test]
fn list_test_and_filters_behave_like_divan() {
    let h = home("list");
    let (out, _, ok) = run(&h, &["--list"]);
    assert!(ok);
    assert_eq!(
        out,
        "tree_fixture
├─ args
├─ plain
├─ generic
│  ├─ u8
│  ╰─ u32
╰─ grouped
   ├─ inner
   ╰─ skipped  (ignored)

"
    );
    let (out, _, _) = run(&h, &["--list", "--ignored"]);
    assert_eq!(
        out,
        "tree_fixture
├─ args        (ignored)
├─ plain       (ignored)
├─ generic
│  ├─ u8       (ignored)
│  ╰─ u32      (ignored)
╰─ grouped
   ├─ inner    (ignored)
   ╰─ skipped

"
    );
    // cargo-nextest's form: a line per benchmark that would run, its path
    // from the crate's name on, as divan prints it.
    let (out, _, ok) = run(&h, &["--list", "--format", "terse"]);
    assert!(ok);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "tree_fixture::args::1: benchmark",
            "tree_fixture::args::2: benchmark",
            "tree_fixture::plain: benchmark",
            "tree_fixture::generic::u8::t=1: benchmark",
            "tree_fixture::generic::u8::t=2: benchmark",
            "tree_fixture::generic::u32::t=1: benchmark",
            "tree_fixture::generic::u32::t=2: benchmark",
            "tree_fixture::grouped::inner: benchmark",
        ]
    );
    let terse = |extra: &[&str]| {
        let mut a = vec!["--list", "--format", "terse"];
        a.extend_from_slice(extra);
        run(&h, &a).0
    };
    assert_eq!(
        terse(&["--ignored"]).trim(),
        "tree_fixture::grouped::skipped: benchmark"
    );
    // Filters match divan's paths (a published crate's `--exact
    // display::display_inner_display` selected nothing before), and the
    // path without the crate's name as before.
    for filter in [
        &["--exact", "tree_fixture::plain"][..],
        &["^tree_fixture::plain$"],
        &["--exact", "plain"],
        &["^plain$"],
    ] {
        assert_eq!(
            terse(filter).trim(),
            "tree_fixture::plain: benchmark",
            "{filter:?}"
        );
    }
    assert_eq!(terse(&["tree_fixture::grouped::"]).lines().count(), 1);
    // Nothing selected: divan prints nothing, not even the title.
    for args in [&["--list", "nothing_matches"][..], &["nothing_matches"]] {
        let (out, err, ok) = run(&h, args);
        assert!(ok, "{err}");
        assert_eq!(out, "", "{args:?}");
    }
    let (out, err, ok) = run(&h, &["--bench", "nothing_matches"]);
    assert!(ok && out.is_empty(), "{out}{err}");
    assert!(!err.contains("Timer precision"), "{err}");
    assert_eq!(terse(&["--skip", "^tree_fixture::g"]).lines().count(), 3);
    let out = terse(&["gen", "--skip", "u32"]);
    assert_eq!(out.lines().count(), 2, "{out}");
    // Without --bench (cargo test --benches): each benchmark runs once,
    // the tree has no columns (as divan 0.1.21 prints it), nothing is
    // saved.
    let (out, err, ok) = run(&h, &[]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "tree_fixture
├─ args
│  ├─ 1
│  ╰─ 2
├─ plain
├─ generic
│  ├─ u8
│  │  ├─ t=1
│  │  ╰─ t=2
│  ╰─ u32
│     ├─ t=1
│     ╰─ t=2
╰─ grouped
   ├─ inner
   ╰─ skipped  (ignored)

"
    );
    assert!(!h.exists(), "a test run saves nothing");
}

#[test]
fn baselines_are_saved_and_compared() {
    let h = home("baseline");
    let args = ["--bench", "--sample-count", "10", "--exact", "plain"];
    let (_, err, ok) = run(&h, &[&args[..], &["--save-baseline", "before"]].concat());
    assert!(ok, "{err}");
    let saved = h
        .join("tree_fixture__plain")
        .join("before")
        .join("sample.json");
    let found: Vec<_> = walk(&h)
        .into_iter()
        .filter(|p| p.ends_with("before/sample.json"))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one saved baseline ({saved:?} or similar): {found:?}"
    );
    // divan's plan, one process each way: a change, not a verdict, and
    // the note under the tree says so.
    let (out, err, ok) = run(&h, &[&args[..], &["--baseline", "before"]].concat());
    assert!(ok, "{err}");
    let row = out.lines().find(|l| l.starts_with("╰─ plain")).unwrap();
    assert!(row.contains("% [") && row.ends_with("%]"), "{row}");
    assert!(out.contains("are not verdicts"), "{out}");
    // A missing strict baseline fails, naming it.
    let (_, err, ok) = run(&h, &[&args[..], &["--baseline", "never-saved"]].concat());
    assert!(!ok);
    assert!(err.contains("baseline 'never-saved' not found"), "{err}");
}

/// `--target-precision` asks for the engine's sampling: worker processes
/// on both sides of the comparison, so each row ends with a verdict, and
/// the table shows the engine's samples. The second run compares in
/// lock-step with the first one's kept binary, whose groups are named
/// after this run's program, not the kept file's hash.
#[test]
fn verdicts_on_request_come_from_worker_processes() {
    let h = home("verdicts");
    let args = [
        "--bench",
        "--exact",
        "plain",
        "--target-precision",
        "20",
        "--processes",
        "2",
    ];
    let (_, err, ok) = run(&h, &args);
    assert!(ok, "{err}");
    let (out, err, ok) = run(&h, &args);
    assert!(ok, "{err}");
    assert!(!err.contains("not in lock-step"), "{err}");
    let row = out.lines().find(|l| l.starts_with("╰─ plain")).unwrap();
    let verdict = row.rsplit("%] ").next().unwrap();
    assert!(
        ["improved", "regressed", "no change"].contains(&verdict)
            || verdict.starts_with("too noisy to tell (±"),
        "{row}"
    );
    assert!(!out.contains("are not verdicts"), "{out}");
    let samples: u64 = row.split('│').nth(4).unwrap().trim().parse().unwrap();
    assert!(samples >= 4, "two processes' samples: {row}");
}

/// divan's plan spread over worker processes (`--processes 2`): the
/// table is filled from the samples the workers took.
#[test]
fn divans_plan_in_worker_processes_fills_the_table() {
    let h = home("workers");
    let (out, err, ok) = run(
        &h,
        &[
            "--bench",
            "--exact",
            "plain",
            "--sample-count",
            "10",
            "--processes",
            "2",
            "--discard-baseline",
        ],
    );
    assert!(ok, "{err}");
    let row = out.lines().find(|l| l.starts_with("╰─ plain")).unwrap();
    let cells: Vec<&str> = row.split('│').map(str::trim).collect();
    assert!(
        cells[0].ends_with(" ns") || cells[0].ends_with(" µs"),
        "{row}"
    );
    assert_eq!(cells[4], "10", "{row}");
}

#[test]
fn json_messages_and_yardstick_output_on_request() {
    let h = home("json");
    let (out, err, ok) = run(
        &h,
        &[
            "--bench",
            "--sample-count",
            "5",
            "--exact",
            "plain",
            "--message-format",
            "json",
            "--discard-baseline",
        ],
    );
    assert!(ok, "{err}");
    let messages: Vec<serde_json::Value> = out
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let ids: Vec<&str> = messages.iter().filter_map(|m| m["id"].as_str()).collect();
    assert!(ids.contains(&"tree_fixture::plain"), "{out}");
    let (out, err, ok) = run(
        &h,
        &[
            "--bench",
            "--sample-count",
            "5",
            "--exact",
            "plain",
            "--output-format",
            "bencher",
            "--discard-baseline",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains("test tree_fixture::plain ... bench:"), "{out}");
    assert!(!out.contains("fastest"), "{out}");
}

#[test]
fn bad_options_name_the_flag() {
    let h = home("bad");
    let (_, err, ok) = run(&h, &["--sample-count", "lots"]);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        "error: invalid value 'lots' for --sample-count: expected a non-negative whole number"
    );
    let (_, err, ok) = run(&h, &["--save-baseline"]);
    assert!(!ok);
    assert!(err.contains("save-baseline"), "{err}");
}

#[test]
fn max_time_counts_the_making_of_inputs_unless_skip_ext_time() {
    // Each input takes at least 20 ms to make and each iteration 1 ms.
    // `counted` has 0.1 s in all, so at most four samples of one
    // iteration (divan's 100 would take over 2 s); `skipped` counts only
    // the timed part against its 1 s and takes all of its three.
    let h = home("budget");
    let out = Command::new(env!("CARGO_BIN_EXE_budget_fixture"))
        .args(["--bench", "--discard-baseline"])
        .env("YARDSTICK_HOME", &h)
        .env_remove("DIVAN_SAMPLE_COUNT")
        .output()
        .expect("the fixture runs");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let samples = |name: &str| -> u64 {
        let row = table
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("no row {name}: {table}"));
        let cells: Vec<&str> = row.split('│').map(str::trim).collect();
        cells[cells.len() - 2].parse().expect("a sample count")
    };
    let counted = samples("counted");
    assert!((2..=4).contains(&counted), "{counted} samples: {table}");
    assert_eq!(samples("skipped"), 3, "{table}");
}

#[test]
fn allocation_rows_are_divans() {
    // Each iteration: `with_capacity(100)` allocates 100 bytes,
    // `reserve_exact(200)` grows them by 100 to 200, `shrink_to(10)`
    // shrinks them by 190, and the drop frees 10. At most one allocation
    // and 200 bytes are live at once in a sample of 4 iterations; divan
    // divides those by the sample's iterations too: 0.25 and 50 B.
    // The same rows when worker processes take the samples: the counts
    // come from this process's probe, of the plan's iterations.
    for extra in [&[][..], &["--processes", "2"]] {
        allocation_rows(extra);
    }
}

fn allocation_rows(extra: &[&str]) {
    let h = home("alloc");
    let out = Command::new(env!("CARGO_BIN_EXE_alloc_fixture"))
        .args(["--bench", "--discard-baseline"])
        .args(extra)
        .env("YARDSTICK_HOME", &h)
        .env_remove("DIVAN_SAMPLE_COUNT")
        .output()
        .expect("the fixture runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<Vec<String>> = table
        .lines()
        .skip(2)
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.split('│')
                .map(|c| c.trim_start_matches(['╰', '─', ' ']).trim().to_owned())
                .collect()
        })
        .collect();
    let same = |v: &str| vec![v.to_owned(), v.to_owned(), v.to_owned(), v.to_owned()];
    let expected = [
        ("max alloc:", "0.25", "50 B"),
        ("alloc:", "1", "100 B"),
        ("dealloc:", "1", "10 B"),
        ("grow:", "1", "100 B"),
        ("shrink:", "1", "190 B"),
    ];
    assert_eq!(rows.len(), expected.len() * 3, "{table}");
    for (i, (label, count, bytes)) in expected.iter().enumerate() {
        assert_eq!(rows[3 * i][0], *label, "{table}");
        assert_eq!(rows[3 * i + 1][..4], same(count), "{table}");
        assert_eq!(rows[3 * i + 2][..4], same(bytes), "{table}");
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Every syntax form of the attribute registers under divan's names, in
/// divan's order: the outline is the one divan 0.1.21 prints for the same
/// file (`python3 compare/divan_macros.py` compares the two).
#[test]
fn every_syntax_form_registers_under_divans_names() {
    let out = Command::new(env!("CARGO_BIN_EXE_syntax_fixture"))
        .arg("--list")
        .output()
        .expect("the fixture runs");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "syntax_fixture
├─ args_arrays
├─ args_display
├─ args_iterator
├─ args_with_pattern
├─ c_abi
├─ concat
├─ ignore_by_expression
├─ macro_bencher
├─ macro_ignored                                                      (ignored)
├─ macro_private
├─ macro_public
├─ macro_typed
├─ option_expressions
├─ type
├─ const_block
│  ├─ 1
│  ╰─ 5
├─ const_expressions
│  ├─ 3
│  ├─ 6
│  ╰─ 7
├─ group
│  ╰─ inside
├─ lifetimes_and_where
│  ├─ u8
│  ╰─ u16
├─ macro_types
│  ├─ u8
│  ╰─ u16
╰─ nested_types
   ├─ &str
   ├─ (u8, u16)
   ├─ Option<alloc::boxed::Box<dyn core::ops::function::Fn() -> u8>>
   ├─ Vec<alloc::vec::Vec<u8>>
   ╰─ [u8; 4]

"
    );
    let args = Command::new(env!("CARGO_BIN_EXE_syntax_fixture"))
        .args(["--list", "--format", "terse", "args_"])
        .output()
        .expect("the fixture runs");
    assert_eq!(
        String::from_utf8_lossy(&args.stdout),
        "syntax_fixture::args_arrays::[1, 2]: benchmark
syntax_fixture::args_arrays::[3, 4]: benchmark
syntax_fixture::args_display::1ns: benchmark
syntax_fixture::args_iterator::2: benchmark
syntax_fixture::args_iterator::4: benchmark
syntax_fixture::args_with_pattern::1: benchmark
syntax_fixture::args_with_pattern::2: benchmark
"
    );
}

/// A benchmark that panics (in its body, on one of its threads, or before
/// it measures) fails alone, named with its message; the others still run
/// and the run ends with status 1 — in this process and in workers.
#[test]
fn a_panicking_benchmark_fails_alone() {
    for extra in [&[][..], &["--processes", "2"]] {
        let h = home("fail");
        let out = Command::new(env!("CARGO_BIN_EXE_fail_fixture"))
            .args(["--bench", "--sample-count", "10", "--discard-baseline"])
            .args(extra)
            .env("YARDSTICK_HOME", &h)
            .env_remove("DIVAN_SAMPLE_COUNT")
            .output()
            .expect("the fixture runs");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
        for (name, message) in [
            ("body_panics", "the body failed"),
            ("thread_panics", "a thread failed"),
            ("setup_panics", "the setup failed"),
        ] {
            assert!(
                stderr
                    .lines()
                    .any(|l| l.contains(&format!("fail_fixture::{name}")) && l.contains(message)),
                "{name} with {extra:?}: {stderr}"
            );
        }
        for name in ["fine", "zz_after"] {
            let row = stdout.lines().find(|l| l.contains(name)).unwrap_or("");
            assert!(row.contains(" ns"), "{name} with {extra:?}: {stdout}");
        }
    }
}
