//! A build's difference named at comparison time, end to end: a tiny crate
//! made here (its only dependency the harness, by path) is benchmarked by
//! `cargo bench` again and again, each time built differently from the
//! baseline the run before saved: a comment in `Cargo.toml` and an edit
//! of the code (name nothing), another compiler, `RUSTFLAGS` (also on the
//! benchmark's report page, and on the page `cargo yardstick report` draws
//! again), a feature, the profile. The compiler cannot
//! be swapped here (one toolchain is installed), so that change is
//! simulated by a baseline measured by another binary whose build record
//! an older compiler would have written. Each line is checked by
//! hand-written phrases, and all of them together by a snapshot.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{stderr, stdout};

const BENCH: &str = r#"use criterion::{criterion_group, criterion_main, Criterion};

fn spin(c: &mut Criterion) {
    // An exact fake time: the verdict is not what this test is about.
    c.bench_function("spin", |b| {
        b.iter_custom(|iters| std::time::Duration::from_nanos(iters * 1000))
    });
}

criterion_group!(benches, spin);
criterion_main!(benches);
"#;

/// The dependencies, the harness among them, are left unoptimised to
/// compile faster (`common::DEPENDENCIES_UNOPTIMISED`), so the harness's
/// build script is told opt-level 0: the level recorded is the bench
/// crate's, `[profile.bench]`'s, read from this manifest.
fn manifest(opt_level: u32, comment: &str) -> String {
    format!(
        "[package]\nname = \"builds\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [features]\nfast = []\n\n\
         [dev-dependencies]\ncriterion = {{ package = \"yardstick\", path = {:?}, default-features = false, features = [\"report\"] }}\n\n\
         [[bench]]\nname = \"spin\"\nharness = false\n\n\
         {comment}\n[profile.bench]\nopt-level = {opt_level}\n{}",
        common::harness_dir(),
        common::DEPENDENCIES_UNOPTIMISED
    )
}

/// A target directory kept between test runs (next to this test's
/// binary), so that the harness is compiled once per set of flags.
fn target_dir() -> PathBuf {
    common::kept_target_dir("yardstick-builds-test")
}

/// `cargo bench` of the crate, quick, into `home`; returns the lines of
/// its error output that name a build.
fn bench(krate: &Path, home: &Path, rustflags: Option<&str>, cargo_args: &[&str]) -> Vec<String> {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(krate)
        .env("CARGO_TARGET_DIR", target_dir())
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME")
        .args(["bench", "--bench", "spin"])
        .args(cargo_args)
        .args(["--", "--quick", "--color", "never", "--home"])
        .arg(home);
    match rustflags {
        Some(f) => c.env("RUSTFLAGS", f),
        None => c.env_remove("RUSTFLAGS"),
    };
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    stderr(&o)
        .lines()
        .filter(|l| l.contains("was built"))
        .map(str::to_owned)
        .collect()
}

/// The build record of the binary that saved `folder`, as the guide's
/// Files page lays it out: `<home>/.binaries/<package>.<target>/<binary>.build.json`,
/// the names read from the folder's `binary.json`.
fn kept_record(home: &Path, folder: &Path) -> PathBuf {
    let text = std::fs::read_to_string(folder.join("binary.json")).unwrap();
    let b: serde_json::Value = serde_json::from_str(&text).unwrap();
    let key = format!(
        "{}.{}",
        b["package"].as_str().unwrap(),
        b["target"].as_str().unwrap()
    );
    let name = format!("{}.build.json", b["binary"].as_str().unwrap());
    home.join(".binaries").join(key).join(name)
}

/// Makes `folder`'s `binary.json` name the binary `name` (as another
/// build would have kept it); the record `kept_record` finds for it then.
fn name_binary(folder: &Path, name: &str) {
    let path = folder.join("binary.json");
    let mut b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    b["binary"] = name.into();
    std::fs::write(&path, b.to_string()).unwrap();
}

/// `rustc 1.95.0 (59807616e 2026-04-14)` → `rustc [version]`: the
/// installed compiler is not the test's business.
fn normalised(line: &str, rustc: &str) -> String {
    let release: String = rustc
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    line.replace(&release, "rustc [version]")
}

#[test]
fn each_change_of_build_is_named_once_and_identical_builds_name_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("builds");
    std::fs::create_dir_all(krate.join("benches")).unwrap();
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(krate.join("src/lib.rs"), "").unwrap();
    std::fs::write(krate.join("benches/spin.rs"), BENCH).unwrap();
    std::fs::write(krate.join("Cargo.toml"), manifest(1, "")).unwrap();
    // The workspace's lock file pins the harness's dependencies to
    // versions already downloaded.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"),
        krate.join("Cargo.lock"),
    )
    .unwrap();
    let home = dir.path().join("home");
    let mut said = Vec::new();

    // No baseline, then the same build again: nothing to name.
    assert_eq!(bench(&krate, &home, None, &[]), Vec::<String>::new());
    assert_eq!(bench(&krate, &home, None, &[]), Vec::<String>::new());
    // One record, kept beside the binary the baseline's binary.json names;
    // none in the folders.
    let base = home.join("spin").join("base");
    let record = kept_record(&home, &base);
    assert!(!base.join("build.json").exists());
    assert!(!home.join("spin").join("new").join("build.json").exists());
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    common::assert_schema("build.v1.json", &saved);
    assert_eq!(saved["profile"]["opt_level"], "1");
    assert_eq!(saved["features"], serde_json::json!([]));
    assert_eq!(saved["rustflags"], serde_json::json!([]));
    let rustc = saved["rustc"].as_str().unwrap().to_owned();

    // A comment in Cargo.toml cannot move timings.
    std::fs::write(krate.join("Cargo.toml"), manifest(1, "# tuned later")).unwrap();
    assert_eq!(bench(&krate, &home, None, &[]), Vec::<String>::new());
    // Nor can an edit of the code, built alike: another binary, whose
    // record is read and found the same.
    let before = kept_record(&home, &base);
    std::fs::write(
        krate.join("benches/spin.rs"),
        BENCH.replace("iters * 1000", "iters * 1001"),
    )
    .unwrap();
    assert_eq!(bench(&krate, &home, None, &[]), Vec::<String>::new());
    assert_ne!(kept_record(&home, &base), before);
    std::fs::write(krate.join("benches/spin.rs"), BENCH).unwrap();
    assert_eq!(bench(&krate, &home, None, &[]), Vec::<String>::new());
    let record = kept_record(&home, &base);

    // Another compiler: the baseline was measured by another binary (the
    // same bytes are the same build, and are not compared), whose record
    // rustc 1.0.0 wrote.
    let text = std::fs::read_to_string(&record).unwrap();
    let old = text.replace(&rustc, "rustc 1.0.0 (a59807616 2015-05-15)");
    assert_ne!(old, text);
    name_binary(&base, "00000000000000aa-1");
    let other = kept_record(&home, &base);
    assert_ne!(other, record);
    std::fs::write(&other, &old).unwrap();
    let lines = bench(&krate, &home, None, &[]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("note: the baseline was built by rustc 1.0.0, this run by rustc 1."),
        "{lines:?}"
    );
    said.extend(lines);
    // Saved over, the baseline names this run's binary again, whose record
    // is still this compiler's.
    assert_eq!(kept_record(&home, &base), record);
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text);

    // The previous layout: another binary, no record beside it, and the
    // record in the baseline's folder, which is read.
    name_binary(&base, "00000000000000bb-1");
    std::fs::write(base.join("build.json"), &old).unwrap();
    let lines = bench(&krate, &home, None, &[]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("note: the baseline was built by rustc 1.0.0, this run by rustc 1."),
        "{lines:?}"
    );
    assert!(!base.join("build.json").exists());

    // RUSTFLAGS added; the benchmark's report page says it under the
    // verdict.
    let lines = bench(&krate, &home, Some("--cfg yardstick_builds_test"), &[]);
    assert_eq!(
        lines,
        ["note: this run was built differently from the baseline: RUSTFLAGS added --cfg yardstick_builds_test"]
    );
    said.extend(lines);
    let said_on_page =
        "This run was built differently from the baseline: RUSTFLAGS added --cfg yardstick_builds_test.";
    let page = std::fs::read_to_string(home.join("spin/report/index.html")).unwrap();
    assert!(page.contains(said_on_page), "{page}");
    // `cargo yardstick report` draws the page again from the saved files:
    // the line stays (the baseline is the binary the change was measured
    // against, although `base/` now holds this run).
    std::fs::remove_file(home.join("spin/report/index.html")).unwrap();
    let o = common::run(&home, &["report", "--nresamples", "1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(home.join("spin/report/index.html")).unwrap();
    assert!(page.contains(said_on_page), "{page}");
    // The verdict's file names the baseline the run compared with.
    let verdict: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(home.join("spin/change/verdict.json")).unwrap(),
    )
    .unwrap();
    common::assert_schema("change-verdict.v1.json", &verdict);
    assert_eq!(verdict["baseline"], "base");

    // RUSTFLAGS removed and a feature added, in one line.
    let lines = bench(&krate, &home, None, &["--features", "fast"]);
    assert_eq!(
        lines,
        ["note: this run was built differently from the baseline: RUSTFLAGS removed --cfg yardstick_builds_test; the package's features added fast"]
    );
    said.extend(lines);

    // The profile: opt-level 1 → 2 (and the feature gone).
    std::fs::write(krate.join("Cargo.toml"), manifest(2, "")).unwrap();
    let lines = bench(&krate, &home, None, &[]);
    assert_eq!(
        lines,
        ["note: this run was built differently from the baseline: the package's features removed fast; the profile changed opt-level from 1 to 2"]
    );
    said.extend(lines);

    // A baseline an older yardstick saved (no binary.json, no build
    // record): one line, nothing fails.
    std::fs::remove_file(base.join("binary.json")).unwrap();
    let lines = bench(&krate, &home, None, &[]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    said.extend(lines);

    // The history: two runs recorded by `cargo yardstick bench`, built at
    // opt-level 2 and then 1; `compare` and `check` name the change.
    let history = dir.path().join("history");
    let record_run = || {
        let o = common::bin()
            .current_dir(&krate)
            .env("CARGO_TARGET_DIR", target_dir())
            .env_remove("RUSTFLAGS")
            .args(["bench", "--home"])
            .arg(&history)
            .args(["--bench", "spin", "--", "--quick"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    };
    record_run();
    std::fs::write(krate.join("Cargo.toml"), manifest(1, "")).unwrap();
    record_run();
    let expected =
        "note: run 2 was built differently from run 1: the profile changed opt-level from 2 to 1";
    for args in [&["compare"][..], &["check", "--against", "latest~1"]] {
        let o = common::bin()
            .args(args)
            .arg("--home")
            .arg(&history)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert!(err.lines().any(|l| l == expected), "{args:?}: {err}");
        said.extend(
            err.lines()
                .filter(|l| l.contains("was built"))
                .map(str::to_owned),
        );
    }

    let said: Vec<String> = said.iter().map(|l| normalised(l, &rustc)).collect();
    insta::assert_snapshot!("build_differences", said.join("\n"));
}
