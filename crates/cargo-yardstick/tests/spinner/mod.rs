//! The tiny git repository the `ab` and sharding tests build: a crate
//! whose only dependency is the harness (by path) and whose bench reports
//! exact times (fake clocks via `iter_custom`), with routines that panic,
//! exit or hang on one side and a benchmark in one side only.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{bin, stderr, stdout};

pub fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        // Fixed dates make fixed commits, so that the revisions' builds
        // are found again from one test run to the next.
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .args(args)
        .output()
        .expect("git");
    assert!(o.status.success(), "git {args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The bench file of one revision: `spin` reports exactly `spins` ns per
/// iteration; `boom` panics and `quits` exits the process when `broken`;
/// `fresh` exists only when `fresh`.
pub fn write_bench(repo: &Path, spins: u64, broken: bool, fresh: bool) {
    let extra = if fresh {
        "c.bench_function(\"fresh\", |b| b.iter_custom(|iters| work(iters * 100)));"
    } else {
        ""
    };
    std::fs::write(
        repo.join("benches/spin.rs"),
        format!(
            r#"use criterion::{{criterion_group, criterion_main, Criterion}};

/// Real work in proportion to the time reported, which is exact (`ns`),
/// so that ratios are exact on any machine, however loaded: this test is
/// about the mechanics of `ab`, not about noise.
fn work(ns: u64) -> std::time::Duration {{
    let mut x = 0u64;
    for i in 0..std::hint::black_box(ns / 100) {{
        x = std::hint::black_box(x ^ i);
    }}
    std::time::Duration::from_nanos(ns)
}}

fn spin(c: &mut Criterion) {{
    // A routine that fails on one side only: its row says so, and the
    // benchmarks after it are still compared.
    c.bench_function("boom", |b| {{
        b.iter_custom(|iters| {{
            if {broken} {{
                panic!("boom at {{iters}} iterations");
            }}
            work(iters * 50)
        }})
    }});
    c.bench_function("quits", |b| {{
        b.iter_custom(|iters| {{
            if {broken} {{
                eprintln!("giving up");
                std::process::exit(7);
            }}
            work(iters * 50)
        }})
    }});
    c.bench_function("hangs", |b| {{
        b.iter_custom(|iters| {{
            if {broken} {{
                // Stuck without burning a core: killed at --hang-timeout.
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }}
            work(iters * 50)
        }})
    }});
    c.bench_function("spin", |b| b.iter_custom(|iters| work(iters * {spins})));
    {extra}
}}

criterion_group!(benches, spin);
criterion_main!(benches);
"#
        ),
    )
    .unwrap();
}

/// The tests of this file build the same crate (`spinner`, bench `spin`)
/// into one target directory: run at once, one build would replace the
/// other's binary between its build and its use. They take turns.
static SHARED_TARGET: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub fn take_turn() -> std::sync::MutexGuard<'static, ()> {
    SHARED_TARGET
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A target directory kept between test runs (next to this test's binary),
/// so that the harness is compiled once.
pub fn shared_target() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe
        .ancestors()
        .find(|d| d.join("CACHEDIR.TAG").is_file())
        .map_or_else(std::env::temp_dir, Path::to_owned);
    target.join("yardstick-ab-test")
}

pub fn make_repo(repo: &Path) {
    let harness = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../yardstick")
        .canonicalize()
        .unwrap();
    std::fs::create_dir_all(repo.join("benches")).unwrap();
    std::fs::create_dir_all(repo.join("src")).unwrap();
    std::fs::write(
        repo.join("Cargo.toml"),
        format!(
            "[package]\nname = \"spinner\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dev-dependencies]\ncriterion = {{ package = \"yardstick\", path = {:?}, default-features = false }}\n\n\
             [[bench]]\nname = \"spin\"\nharness = false\n{}",
            harness.to_string_lossy(),
            crate::common::DEPENDENCIES_UNOPTIMISED
        ),
    )
    .unwrap();
    std::fs::write(repo.join("src/lib.rs"), "").unwrap();
    std::fs::write(repo.join(".gitignore"), "/target\n").unwrap();
    // The workspace's lock file pins the harness's dependencies to versions
    // already downloaded.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"),
        repo.join("Cargo.lock"),
    )
    .unwrap();
    write_bench(repo, 1000, false, false);
    git(repo, &["init", "-q"]);
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "spin 1000"]);
    write_bench(repo, 2000, true, true);
    git(repo, &["commit", "-q", "-am", "spin 2000"]);
}

pub fn ab(repo: &Path, args: &[&str]) -> std::process::Output {
    ab_with(repo, args, &[])
}

/// `ab` with environment variables set.
pub fn ab_with(repo: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    bin()
        .current_dir(repo)
        .envs(env.iter().copied())
        .arg("ab")
        .args(args)
        .args(["--timeout", "1", "--pairs", "2", "--hang-timeout", "2"])
        .arg("--target-dir")
        .arg(shared_target())
        .env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME")
        .output()
        .unwrap()
}

/// The tiny crate at its first commit's state, without the routines that
/// panic or exit, in `dir/repo`.
pub fn plain_repo(dir: &Path) -> PathBuf {
    let repo = dir.join("repo");
    make_repo(&repo);
    write_bench(&repo, 1000, false, false);
    repo
}

/// `cargo-yardstick` in `repo`, building into the shared target directory
/// (cargo's own commands: `bench`, `calibrate`), with no home set from
/// outside.
pub fn in_repo(repo: &Path) -> Command {
    let mut c = bin();
    c.current_dir(repo)
        .env("CARGO_TARGET_DIR", shared_target())
        .env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME");
    c
}
