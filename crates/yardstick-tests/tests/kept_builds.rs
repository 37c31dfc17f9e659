//! The kept bench binaries with real cargo builds: a workspace whose two
//! packages each have a `benches/bench.rs`, and edit-and-rebuild cycles
//! with each linker (rust-lld, GNU ld, mold where installed) and `strip`,
//! which may rewrite cargo's output file in place.
//!
//! The harness is compiled once into a target directory kept between test
//! runs; the CI runs 2 cycles per linker, `YARDSTICK_REBUILD_CYCLES=10`
//! runs the hand check of 10.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::builds::kept_name;

const LOCKSTEP_LINE: &str = "Measured in lock-step with the baseline's binary";

/// The tests of this file share the target directory: one at a time.
static SHARED_TARGET: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn shared_target() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe
        .ancestors()
        .find(|d| d.join("CACHEDIR.TAG").is_file())
        .map_or_else(std::env::temp_dir, Path::to_owned);
    target.join("yardstick-kept-test")
}

/// `benches/bench.rs` of a package: `work` reports exactly `ns` ns per
/// iteration (a fake clock, with real work in proportion).
fn write_bench(package: &Path, ns: u64) {
    let text = format!(
        r#"use criterion::{{criterion_group, criterion_main, Criterion}};

fn work(c: &mut Criterion) {{
    c.bench_function("work", |b| {{
        b.iter_custom(|iters| {{
            let mut x = 0u64;
            for i in 0..std::hint::black_box(iters * {ns} / 100) {{
                x = std::hint::black_box(x ^ i);
            }}
            std::time::Duration::from_nanos(iters * {ns})
        }})
    }});
}}

criterion_group!(benches, work);
criterion_main!(benches);
"#
    );
    std::fs::write(package.join("benches/bench.rs"), text).unwrap();
}

/// A workspace of packages `alpha` (its `work` 3000 ns) and `beta` (100
/// ns, 30 times cheaper), each with `benches/bench.rs`.
fn workspace(root: &Path) {
    let _ = std::fs::remove_dir_all(root);
    let harness = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../yardstick")
        .canonicalize()
        .unwrap();
    std::fs::create_dir_all(root).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        // The harness unoptimised: CI compiles it in 10 s, not 37.
        "[workspace]\nmembers = [\"alpha\", \"beta\"]\nresolver = \"2\"\n\n\
         [profile.bench.package.\"*\"]\nopt-level = 0\n",
    )
    .unwrap();
    // The workspace's lock file pins the harness's dependencies to
    // versions already downloaded.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"),
        root.join("Cargo.lock"),
    )
    .unwrap();
    for (name, ns) in [("alpha", 3000), ("beta", 100)] {
        let p = root.join(name);
        std::fs::create_dir_all(p.join("benches")).unwrap();
        std::fs::create_dir_all(p.join("src")).unwrap();
        std::fs::write(p.join("src/lib.rs"), "").unwrap();
        std::fs::write(
            p.join("Cargo.toml"),
            format!(
                "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                 [dev-dependencies]\ncriterion = {{ package = \"yardstick\", path = {:?}, \
                 default-features = false }}\n\n[[bench]]\nname = \"bench\"\nharness = false\n",
                harness.to_string_lossy()
            ),
        )
        .unwrap();
        write_bench(&p, ns);
    }
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.env("CARGO_TARGET_DIR", shared_target())
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CRITERION_HOME");
    for (var, _) in std::env::vars_os() {
        if var.to_string_lossy().starts_with("YARDSTICK_") {
            c.env_remove(var);
        }
    }
    c
}

const QUICK: &[&str] = &[
    "--color",
    "never",
    "--warm-up-time",
    "0.05",
    "--measurement-time",
    "0.2",
    "--sample-size",
    "10",
];

#[test]
fn two_packages_bench_targets_of_one_name_are_two_targets() {
    let _turn = SHARED_TARGET.lock().unwrap_or_else(|e| e.into_inner());
    let root = shared_target().join("two-packages");
    workspace(&root);
    let home = root.join("home");
    let out = cargo()
        .current_dir(&root)
        .env("YARDSTICK_HOME", &home)
        .args(["bench", "--workspace", "--bench", "bench", "--"])
        .args(QUICK)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    // The second package's `work` is another target's benchmark of the
    // same id: measured, neither compared with the first's nor saved.
    assert!(!stdout.contains("Performance has"), "{stdout}");
    assert!(!stdout.contains(LOCKSTEP_LINE), "{stdout}");
    let warning = stderr
        .lines()
        .find(|l| l.contains("has a benchmark of the same id"))
        .unwrap_or_else(|| panic!("{stderr}"));
    let both = [
        "bench target bench of package alpha",
        "bench target bench of package beta",
    ];
    assert!(both.iter().all(|t| warning.contains(t)), "{warning}");
    // The first package's binary is kept under its package.
    let mut keys: Vec<String> = std::fs::read_dir(home.join(".binaries"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    keys.sort();
    assert!(
        keys == ["alpha.bench"] || keys == ["beta.bench"],
        "{keys:?}"
    );
}

/// Builds `alpha`'s bench with `link_args` for the final link only (the
/// harness stays built); its executable.
fn build_alpha(root: &Path, link_args: &[&str]) -> PathBuf {
    let out = cargo()
        .current_dir(root)
        .args([
            "rustc",
            "--profile",
            "bench",
            "-p",
            "alpha",
            "--bench",
            "bench",
        ])
        .args(["--message-format=json", "--"])
        .args(link_args.iter().flat_map(|a| ["-C", a]))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["executable"].as_str().map(PathBuf::from))
        .next_back()
        .expect("the bench executable")
}

fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Edit, rebuild, run (and `strip` the output when asked): from the second
/// cycle on the run compares in lock-step with the kept binary of the one
/// before, which every rebuild (and strip) left intact.
fn cycles(root: &Path, home: &Path, link_args: &[&str], strip: bool, n: u64) {
    for k in 0..n {
        // An edit: the same benchmark, other code bytes.
        write_bench(&root.join("alpha"), 3000 + k);
        let exe = build_alpha(root, link_args);
        let out = Command::new(&exe)
            .current_dir(root.join("alpha"))
            .env("YARDSTICK_HOME", home)
            .arg("--bench")
            .args(QUICK)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{link_args:?} cycle {k}: {text}");
        if k > 0 {
            assert!(
                text.contains(LOCKSTEP_LINE),
                "{link_args:?} cycle {k}: {text}"
            );
        }
        if strip {
            // After the run kept it, as a pipeline strips what it ships:
            // GNU strip writes a file with several links in place.
            let s = Command::new("strip").arg(&exe).status().unwrap();
            assert!(s.success());
        }
        let dir = home.join(".binaries").join("alpha.bench");
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            // The binary's build record beside it is not a binary.
            if name.ends_with(".build.json") {
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            assert_eq!(
                name,
                kept_name(&bytes),
                "{link_args:?} cycle {k}: overwritten"
            );
        }
    }
}

#[test]
#[cfg(target_os = "linux")]
fn the_baseline_survives_edit_and_rebuild_with_each_linker_and_strip() {
    let _turn = SHARED_TARGET.lock().unwrap_or_else(|e| e.into_inner());
    let n = std::env::var("YARDSTICK_REBUILD_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let root = shared_target().join("rebuilds");
    workspace(&root);
    let mut linkers: Vec<(&str, Vec<&str>, bool)> = vec![
        ("the default linker (rust-lld)", vec![], false),
        ("strip of the output after each run", vec![], true),
    ];
    for (name, program, arg) in [
        ("GNU ld", "ld.bfd", "link-arg=-fuse-ld=bfd"),
        ("mold", "mold", "link-arg=-fuse-ld=mold"),
    ] {
        if installed(program) {
            linkers.push((name, vec![arg], false));
        } else {
            println!("skipped {name}: {program} is not installed");
        }
    }
    for (name, args, strip) in linkers {
        if strip && !installed("strip") {
            println!("skipped strip: not installed");
            continue;
        }
        let home = root.join("home");
        let _ = std::fs::remove_dir_all(&home);
        println!("{name}: {n} edit-and-rebuild cycles");
        cycles(&root, &home, &args, strip, n);
    }
}
