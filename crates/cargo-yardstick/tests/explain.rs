//! `--explain` and `cargo yardstick explain` end to end on a real bench
//! crate built here: a change compiled into one named function (a loop
//! doing three times the work) is named as the top change; a setup that
//! grows while the routine stays is not counted (the timing excludes it);
//! an A/A' build (a never-called function added) executes the same
//! instructions. Skipped, with a line, where Valgrind is not installed.

mod common;
mod spinner;

use std::path::Path;
use std::process::{Command, Output};

use common::{bin, stderr, stdout};
use spinner::{shared_target, take_turn};

/// The bench crate: `work` runs `1000 * factor` loop iterations in the
/// named function `work`; `batched`'s setup makes `1000 * setup` numbers,
/// its routine reads the first 1000 and hands the input back (a routine
/// that drops its input counts the drop: with a larger input, `free` does
/// more work, which `--explain` shows).
fn write_crate(dir: &Path, factor: u64, setup: u64, extra: &str) {
    let harness = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../yardstick")
        .canonicalize()
        .unwrap();
    std::fs::create_dir_all(dir.join("benches")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"explainer\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dev-dependencies]\ncriterion = {{ package = \"yardstick\", path = {:?}, default-features = false }}\n\n\
             [[bench]]\nname = \"explained\"\nharness = false\n\n\
             [profile.bench]\ndebug = \"line-tables-only\"\n\n[workspace]\n{}",
            harness.to_string_lossy(),
            common::DEPENDENCIES_UNOPTIMISED
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"),
        dir.join("Cargo.lock"),
    )
    .unwrap();
    std::fs::write(
        dir.join("benches/explained.rs"),
        format!(
            r#"use criterion::{{black_box, criterion_group, criterion_main, BatchSize, Criterion}};

#[inline(never)]
fn work(n: u64) -> u64 {{
    let mut s = 0u64;
    for i in 0..n * {factor} {{
        s = s.wrapping_add(black_box(i));
    }}
    s
}}

#[inline(never)]
fn read(v: &[u64]) -> u64 {{
    v.iter().map(|x| black_box(*x) * 3).sum()
}}

{extra}

fn benches(c: &mut Criterion) {{
    c.bench_function("work", |b| b.iter(|| work(black_box(1000))));
    c.bench_function("batched", |b| {{
        // The input goes back out: it is dropped after the clock stops,
        // so the timed routine is the same whatever its size.
        b.iter_batched(
            || vec![1u64; 1000 * {setup}],
            |v| {{
                black_box(read(&v[..1000]));
                v
            }},
            BatchSize::SmallInput,
        )
    }});
    // Panics under Valgrind only (its preload library is in the
    // environment there).
    c.bench_function("boom", |b| {{
        let valgrind = std::env::var("LD_PRELOAD").map_or(false, |p| p.contains("vgpreload"));
        b.iter(|| assert!(!black_box(valgrind), "boom under valgrind"))
    }});
}}

criterion_group!(group, benches);
criterion_main!(group);
"#
        ),
    )
    .unwrap();
}

fn cargo_bench(dir: &Path, home: &Path, args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO"))
        .current_dir(dir)
        .args(["bench", "--bench", "explained", "--"])
        .args([
            "--warm-up-time",
            "0.3",
            "--measurement-time",
            "0.5",
            "--color",
            "never",
        ])
        .args(args)
        .env("CARGO_TARGET_DIR", shared_target())
        .env("YARDSTICK_HOME", home)
        .env_remove("CRITERION_HOME")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    o
}

fn explain(home: &Path, args: &[&str]) -> Output {
    bin()
        .arg("explain")
        .args(args)
        .arg("--home")
        .arg(home)
        .output()
        .unwrap()
}

fn saved(home: &Path, id: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(home.join(id).join("explain/explain.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn the_changed_function_is_named_and_equal_code_counts_the_same() {
    if common::without_valgrind() {
        return;
    }
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let (krate, home) = (dir.path().join("crate"), dir.path().join("home"));
    write_crate(&krate, 1, 1, "");
    cargo_bench(&krate, &home, &[]);

    // Three times the loop in `work`; ten times the setup of `batched`.
    write_crate(&krate, 3, 10, "");
    let o = cargo_bench(&krate, &home, &["--explain"]);
    let out = stdout(&o);
    assert!(out.contains("explain work: "), "{out}\n{}", stderr(&o));
    let e = saved(&home, "work");
    common::assert_schema("explain.v1.json", &e);
    let (a, b) = (
        e["baseline_instructions"].as_f64().unwrap(),
        e["current_instructions"].as_f64().unwrap(),
    );
    // 1000 loop iterations against 3000, a few instructions each, plus
    // the same call: the ratio is just under 3.
    assert!(b / a > 2.9 && b / a < 3.01, "{a} -> {b}");
    let top = &e["functions"][0];
    assert_eq!(top["name"], "explained::work", "{e:#}");
    let share =
        (top["self_current"].as_f64().unwrap() - top["self_baseline"].as_f64().unwrap()) / (b - a);
    assert!(share > 0.99, "{share}");
    assert!(
        top["file"]
            .as_str()
            .unwrap()
            .ends_with("benches/explained.rs"),
        "{top}"
    );
    let self_row = out
        .lines()
        .skip_while(|l| !l.contains("self (own instructions)"))
        .nth(1)
        .unwrap_or_default();
    assert!(self_row.contains("explained::work  "), "{out}");

    // The setup grew tenfold, the routine did not: the inputs are not
    // counted, as they are not timed.
    let o = explain(&home, &["--all", "^batched$"]);
    assert!(
        stdout(&o).contains("both sides execute the same instructions"),
        "{}\n{}",
        stdout(&o),
        stderr(&o)
    );

    // A/A': a function added that nothing calls.
    write_crate(
        &krate,
        3,
        10,
        "#[inline(never)]\npub fn never_called(x: u64) -> u64 { black_box(x) * 7 }",
    );
    cargo_bench(&krate, &home, &[]);
    let o = explain(&home, &["--all", "--format", "json"]);
    let doc: serde_json::Value =
        serde_json::from_str(&stdout(&o)).unwrap_or_else(|_| panic!("{}", stderr(&o)));
    common::assert_schema("explain.v1.json", &doc);
    let work = doc["explained"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "work");
    assert_eq!(work.expect("work explained")["same"], true, "{doc:#}");
    // A routine that panics under Callgrind: one line, the others explained.
    assert_eq!(doc["explained"].as_array().unwrap().len(), 2, "{doc:#}");
    assert_eq!(doc["not_explained"][0]["id"], "boom", "{doc:#}");
    let line = stderr(&o);
    assert_eq!(line.trim().lines().count(), 1, "{line}");
    assert!(
        line.starts_with(
            "explain boom: not explained: baseline side: the routine failed under Callgrind: "
        ) && line.contains("boom under valgrind"),
        "{line}"
    );

    // Without Valgrind: one line naming it and how to install it.
    let o = bin()
        .args(["explain", "--all", "^work$", "--home"])
        .arg(&home)
        .env(
            "YARDSTICK_CALLGRIND_VALGRIND",
            dir.path().join("no-valgrind"),
        )
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("apt-get install valgrind") && err.contains("the verdicts stand"),
        "{err}"
    );
}

/// `cargo yardstick explain` writes the page again against the baseline
/// the run compared with: after a run with `--baseline old`, the page
/// still compares with `old` (both runs' plots beside the change), not
/// with `base`, which that run neither read nor saved.
#[test]
fn the_page_is_written_again_against_the_runs_baseline() {
    if common::without_valgrind() {
        return;
    }
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let (krate, home) = (dir.path().join("crate"), dir.path().join("home"));
    let with_pages = |factor: u64| {
        write_crate(&krate, factor, 1, "");
        let manifest = std::fs::read_to_string(krate.join("Cargo.toml")).unwrap();
        let report = manifest.replace(
            "default-features = false }",
            "default-features = false, features = [\"report\"] }",
        );
        assert_ne!(report, manifest);
        std::fs::write(krate.join("Cargo.toml"), report).unwrap();
    };
    with_pages(1);
    cargo_bench(&krate, &home, &["work", "--save-baseline", "old"]);
    with_pages(3);
    cargo_bench(&krate, &home, &["work", "--baseline", "old"]);
    let page = || std::fs::read_to_string(home.join("work/report/index.html")).unwrap();
    let both_runs = "orange: baseline, blue: this run";
    assert!(page().contains(both_runs), "{}", page());
    assert!(!home.join("work/base").exists());

    let o = explain(&home, &["^work$"]);
    assert!(
        stdout(&o).contains("explain work: "),
        "{}\n{}",
        stdout(&o),
        stderr(&o)
    );
    let page = page();
    assert!(page.contains("explain.svg"), "{page}");
    assert!(page.contains(both_runs), "{page}");
}

#[test]
fn nothing_to_explain_is_said_and_fails_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let o = explain(dir.path(), &["--all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no benchmark to explain"),
        "{}",
        stderr(&o)
    );
}

/// `ab --explain`: the row that differs (`spin`, twice the loop in B) is
/// explained after the table; its routine times itself (`iter_custom`),
/// which a note says.
#[test]
fn ab_explains_the_rows_that_differ() {
    if common::without_valgrind() {
        return;
    }
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    spinner::make_repo(&repo);
    let o = spinner::ab(&repo, &["HEAD~1", "HEAD", "^spin$", "--explain"]);
    let out = stdout(&o);
    assert!(out.contains("explain spin: "), "{out}\n{}", stderr(&o));
    // Twice the loop, nothing else: +100 %, all of it in one function
    // (`work` is inlined into the routine, so that is where it shows).
    assert!(out.contains(", +100.0%)\n"), "{out}");
    let row = out
        .lines()
        .skip_while(|l| !l.contains("self (own instructions)"))
        .nth(1)
        .unwrap_or_default();
    assert!(row.contains(" 100.0%  "), "{out}");
    assert!(
        out.contains("the routine times itself (iter_custom)"),
        "{out}"
    );
}
