//! Helpers shared by the integration tests: run the real binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cargo-yardstick"))
}

/// A fixture path.
pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// Runs `cargo-yardstick ARGS --home HOME`.
pub fn run(home: &Path, args: &[&str]) -> Output {
    let mut c = bin();
    c.args(args).arg("--home").arg(home);
    c.env_remove("YARDSTICK_HOME").env_remove("CRITERION_HOME");
    c.output().expect("run cargo-yardstick")
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Number of runs and a full integrity check of the database.
pub fn db_state(home: &Path) -> (i64, String) {
    let conn = rusqlite::Connection::open(home.join("history.sqlite")).expect("open");
    let n = conn
        .query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
        .expect("count");
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("check");
    (n, ok)
}

/// Checks `doc` against `name`, one of the JSON Schemas checked in under
/// yardstick-format's `schemas/`.
#[track_caller]
pub fn assert_schema(name: &str, doc: &serde_json::Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../yardstick-format/schemas")
        .join(name);
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("schema")).expect("JSON");
    let v = jsonschema::validator_for(&schema).expect("a valid schema");
    let errors: Vec<String> = v.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{name}: {errors:?}\n{doc:#}");
}

/// The profile table a crate a test makes ends its manifest with: its
/// dependencies (the harness among them) unoptimised. Each target
/// directory and set of flags compiles the harness once, and a fresh CI
/// machine compiles it some fifteen times: 37 s each at the bench
/// profile's `opt-level = 3`, 10 s at 0 (two cores, at rest). The crate's
/// own code keeps its profile: that is what the tests measure, count and
/// lay out; the harness's code paths are the same at any level.
pub const DEPENDENCIES_UNOPTIMISED: &str = "\n[profile.bench.package.\"*\"]\nopt-level = 0\n";

/// A target directory kept between test runs (next to this test's
/// binary), so that the crates a test builds compile the harness once per
/// set of flags; one per test that builds, since a different linker or
/// flags would rebuild another test's.
pub fn kept_target_dir(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors()
        .find(|d| d.join("CACHEDIR.TAG").is_file())
        .map_or_else(std::env::temp_dir, Path::to_owned)
        .join(name)
}

/// The harness crate's folder, for a path dependency of a crate a test
/// makes.
pub fn harness_dir() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../yardstick")
        .canonicalize()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// True, with the line saying so, when Valgrind is not installed: the
/// tests that run Callgrind skip.
pub fn without_valgrind() -> bool {
    let here = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !here {
        println!("skipped: valgrind is not installed (apt-get install valgrind)");
    }
    !here
}
