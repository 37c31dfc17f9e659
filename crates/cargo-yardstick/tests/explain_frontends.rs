//! `--explain` across the front-ends, end to end on a bench crate built
//! here: one routine (in the crate's library) benchmarked through
//! Criterion.rs's API, through divan's attributes and through
//! `yardstick-callgrind`'s `#[library_benchmark]`. The instructions per
//! iteration `--explain` counts agree with `yardstick-callgrind`'s within
//! 0.1%; a divan benchmark's change is explained with `--explain`, its
//! loops told from its inputs; `iter_custom` says in one line what it
//! cannot separate; the report page shows the explanation beside the
//! verdict. Skipped, with a line, where Valgrind is not installed.

mod common;
mod spinner;

use std::path::Path;
use std::process::{Command, Output};

use common::{bin, stderr, stdout};
use spinner::{shared_target, take_turn};

/// Loop iterations of the routine: 2000 × about 8 instructions, large
/// beside the few instructions of a call either harness adds per
/// iteration (0.1% is 16 of them).
const N: u64 = 2000;

/// The bench crate: `agree::routine(n)` runs `n * factor` iterations of a
/// loop, measured by three bench files.
fn write_crate(dir: &Path, factor: u64) {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap();
    let dep = |name: &str| crates.join(name).to_string_lossy().into_owned();
    std::fs::create_dir_all(dir.join("benches")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let mut manifest = format!(
        "[package]\nname = \"agree\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dev-dependencies]\n\
         criterion = {{ package = \"yardstick\", path = {:?} }}\n\
         divan = {{ package = \"yardstick-divan\", path = {:?} }}\n\
         yardstick-callgrind = {{ path = {:?} }}\n\n\
         [profile.bench]\ndebug = \"line-tables-only\"\n\n[workspace]\n{}",
        dep("yardstick"),
        dep("yardstick-divan"),
        dep("yardstick-callgrind"),
        common::DEPENDENCIES_UNOPTIMISED,
    );
    for name in ["timed", "counted", "divan_form"] {
        manifest.push_str(&format!(
            "\n[[bench]]\nname = \"{name}\"\nharness = false\n"
        ));
    }
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"),
        dir.join("Cargo.lock"),
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        format!(
            "#[inline(never)]\npub fn routine(n: u64) -> u64 {{\n    let mut s = 0u64;\n    \
             for i in 0..n * {factor} {{\n        \
             s = s.wrapping_mul(31).wrapping_add(std::hint::black_box(i));\n    }}\n    s\n}}\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("benches/timed.rs"),
        format!(
            r#"use criterion::{{black_box, criterion_group, criterion_main, Criterion}};

fn benches(c: &mut Criterion) {{
    c.bench_function("routine", |b| b.iter(|| agree::routine(black_box({N}))));
    c.bench_function("custom", |b| {{
        b.iter_custom(|iters| {{
            let start = std::time::Instant::now();
            for _ in 0..iters {{
                black_box(agree::routine(black_box({N})));
            }}
            start.elapsed()
        }})
    }});
}}

criterion_group!(group, benches);
criterion_main!(group);
"#
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("benches/counted.rs"),
        format!(
            r#"use yardstick_callgrind::{{black_box, library_benchmark, library_benchmark_group, main}};

#[library_benchmark]
#[bench::n({N})]
fn routine(n: u64) -> u64 {{
    black_box(agree::routine(n))
}}

library_benchmark_group!(name = group; benchmarks = routine);
main!(library_benchmark_groups = group);
"#
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("benches/divan_form.rs"),
        format!(
            r#"fn main() {{
    divan::main();
}}

#[divan::bench]
fn routine() -> u64 {{
    agree::routine(divan::black_box({N}))
}}

/// Inputs made, and dropped, outside the timed loop (by reference): a
/// vector the routine only reads the length of.
#[divan::bench]
fn inputs(bencher: divan::Bencher) {{
    bencher
        .with_inputs(|| vec![1u64; 64])
        .bench_refs(|v| agree::routine(divan::black_box(v.len() as u64 * {N} / 64)));
}}
"#
        ),
    )
    .unwrap();
}

fn cargo_bench(dir: &Path, home: &Path, bench: &str, args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO"))
        .current_dir(dir)
        .args(["bench", "--bench", bench, "--"])
        .args(args)
        .env("CARGO_TARGET_DIR", shared_target())
        .env("YARDSTICK_HOME", home)
        .env_remove("CRITERION_HOME")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    o
}

/// `cargo yardstick explain --all FILTER --format json`: the one
/// benchmark's explanation.
fn explained(home: &Path, filter: &str) -> serde_json::Value {
    let o = bin()
        .args(["explain", "--all", filter, "--format", "json", "--home"])
        .arg(home)
        .output()
        .unwrap();
    let doc: serde_json::Value =
        serde_json::from_str(&stdout(&o)).unwrap_or_else(|_| panic!("{}", stderr(&o)));
    common::assert_schema("explain.v1.json", &doc);
    assert_eq!(doc["not_explained"], serde_json::json!([]), "{doc:#}");
    assert_eq!(doc["explained"].as_array().unwrap().len(), 1, "{doc:#}");
    doc["explained"][0].clone()
}

#[test]
fn explain_counts_what_yardstick_callgrind_counts() {
    if common::without_valgrind() {
        return;
    }
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let (krate, home) = (dir.path().join("crate"), dir.path().join("home"));
    write_crate(&krate, 1);
    let quick = ["--warm-up-time", "0.2", "--measurement-time", "0.3"];
    // A baseline then a run: both sides are the same code.
    cargo_bench(&krate, &home, "timed", &quick);
    cargo_bench(&krate, &home, "timed", &quick);
    cargo_bench(&krate, &home, "divan_form", &[]);
    cargo_bench(&krate, &home, "divan_form", &[]);
    let cg = dir.path().join("callgrind");
    let o = cargo_bench(
        &krate,
        &home,
        "counted",
        &["--output-format=json", &format!("--home={}", cg.display())],
    );
    let summary: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    // One call of the routine, counted from the benchmark function's entry.
    let reference = summary["callgrind"]["metrics"]["Ir"]["new"]
        .as_f64()
        .unwrap();
    // The loop is 2000 iterations of a few instructions each.
    assert!(
        reference > 4.0 * N as f64 && reference < 20.0 * N as f64,
        "{summary}"
    );

    for (filter, what) in [("^routine$", "iter"), ("^divan_form::routine$", "divan")] {
        let e = explained(&home, filter);
        let counted = e["current_instructions"].as_f64().unwrap();
        let off = (counted - reference).abs() / reference;
        assert!(
            off <= 0.001,
            "{what}: --explain counts {counted} per iteration, yardstick-callgrind {reference} ({:.3}% apart)",
            100.0 * off
        );
        assert_eq!(e["baseline_instructions"], e["current_instructions"]);
        assert_eq!(e["separated"], true, "{what}: {e:#}");
    }

    // iter_custom: the routine times itself, so what it does besides the
    // loop is counted too, and one line says so.
    let o = bin()
        .args(["explain", "--all", "^custom$", "--home"])
        .arg(&home)
        .output()
        .unwrap();
    let out = stdout(&o);
    let notes: Vec<&str> = out.lines().filter(|l| l.contains("iter_custom")).collect();
    assert_eq!(
        notes,
        [
            "  note: the routine times itself (iter_custom): what it does around its own timing \
          is counted too, the loop cannot be told apart"
        ],
        "{out}\n{}",
        stderr(&o)
    );
    assert_eq!(explained(&home, "^custom$")["separated"], false);
}

/// divan's attribute benchmarks: a change compiled into the routine is
/// explained at the end of `cargo bench -- --explain` (the baseline's
/// kept binary is run under Callgrind: its benchmarks keep their ids
/// under the kept copy's name), and divan's own loops are counted, not
/// its inputs nor its sampling around them.
#[test]
fn divan_attribute_benchmarks_are_explained() {
    if common::without_valgrind() {
        return;
    }
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let (krate, home) = (dir.path().join("crate"), dir.path().join("home"));
    write_crate(&krate, 1);
    // yardstick's sampling, for verdicts (divan's plan gives none).
    let verdicts = ["--target-precision", "1"];
    cargo_bench(&krate, &home, "divan_form", &verdicts);
    write_crate(&krate, 3);
    let o = cargo_bench(
        &krate,
        &home,
        "divan_form",
        &["--target-precision", "1", "--explain"],
    );
    let (out, err) = (stdout(&o), stderr(&o));
    for id in ["divan_form::routine", "divan_form::inputs"] {
        assert!(
            out.contains(&format!("explain {id}: ")),
            "{id}\n{out}\n{err}"
        );
    }
    assert!(!err.contains("not explained"), "{err}");
    assert!(!out.contains("iter_custom"), "{out}");
    let folder_of = |id: &str| -> std::path::PathBuf {
        let dirs = std::fs::read_dir(&home).unwrap();
        let folder = dirs
            .filter_map(Result::ok)
            .map(|d| d.path())
            .find(|p| {
                std::fs::read_to_string(p.join("new/benchmark.json"))
                    .is_ok_and(|t| t.contains(&format!("\"full_id\":\"{id}\"")))
            })
            .unwrap_or_else(|| panic!("no folder of {id}"));
        folder
    };
    let saved = |id: &str| -> serde_json::Value {
        let file = folder_of(id).join("explain/explain.json");
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
    };
    for id in ["divan_form::routine", "divan_form::inputs"] {
        let e = saved(id);
        common::assert_schema("explain.v1.json", &e);
        let (a, b) = (
            e["baseline_instructions"].as_f64().unwrap(),
            e["current_instructions"].as_f64().unwrap(),
        );
        // Three times the loop and nothing else changed: the ratio is just
        // under 3 (the call and the harness's loop stay the same). Were
        // the inputs (a 64-number vector made and freed, a few hundred
        // instructions) or the sampling counted, it would be below 2.97.
        assert!(b / a > 2.99 && b / a < 3.0, "{id}: {a} -> {b}");
        assert_eq!(e["functions"][0]["name"], "agree::routine", "{e:#}");
        assert_eq!(e["separated"], true);
    }

    // The report page shows it beside the verdict, with the differential
    // flame graph: the routine's frame is the reddest (it grew the most).
    let report = folder_of("divan_form::routine").join("report");
    let page = std::fs::read_to_string(report.join("index.html")).unwrap();
    let verdict = page.find("Change from the baseline").expect("the verdict");
    let why = page
        .find("What changed in the code it runs")
        .expect("the explanation");
    assert!(verdict < why, "{page}");
    assert!(page.contains("<img src=\"explain.svg\""), "{page}");
    let svg = std::fs::read_to_string(report.join("explain.svg")).unwrap();
    let routine = svg
        .split("<g><title>")
        .find(|g| g.starts_with("agree::routine\n"))
        .unwrap_or_else(|| panic!("{svg}"));
    assert!(routine.contains("fill=\"#dc2626\""), "{routine}");
}
