//! `ab` end to end on a tiny git repository made here: a crate whose only
//! dependency is the harness (by path) and whose bench spins 1000 times in
//! the first commit and 2000 times in the second, reporting exact times of
//! 1000 and 2000 ns per iteration. B/A must come out as 2 and significant;
//! the same revision against itself must show no difference; the user's
//! tree must stay untouched.

mod common;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{bin, stderr, stdout};

fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .expect("git");
    assert!(o.status.success(), "git {args:?}: {}", stderr(&o));
    stdout(&o)
}

fn write_bench(repo: &Path, spins: u64) {
    std::fs::write(
        repo.join("benches/spin.rs"),
        format!(
            r#"use criterion::{{criterion_group, criterion_main, Criterion}};

fn spin(c: &mut Criterion) {{
    // The work is real but the time reported is exact ({spins} ns per
    // iteration), so that B/A is 2 and A/A is 1 on any machine, however
    // loaded: this test is about the mechanics of `ab`, not about noise.
    c.bench_function("spin", |b| {{
        b.iter_custom(|iters| {{
            let mut x = 0u64;
            for i in 0..std::hint::black_box(iters * {spins}u64 / 100) {{
                x = std::hint::black_box(x ^ i);
            }}
            std::time::Duration::from_nanos(iters * {spins})
        }})
    }});
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

fn take_turn() -> std::sync::MutexGuard<'static, ()> {
    SHARED_TARGET
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A target directory kept between test runs (next to this test's binary),
/// so that the harness is compiled once.
fn shared_target() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe
        .ancestors()
        .find(|d| d.join("CACHEDIR.TAG").is_file())
        .map_or_else(std::env::temp_dir, Path::to_owned);
    target.join("yardstick-ab-test")
}

fn make_repo(repo: &Path) {
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
             [[bench]]\nname = \"spin\"\nharness = false\n",
            harness.to_string_lossy()
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
    write_bench(repo, 1000);
    git(repo, &["init", "-q"]);
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "spin 1000"]);
    write_bench(repo, 2000);
    git(repo, &["commit", "-q", "-am", "spin 2000"]);
}

fn ab(repo: &Path, args: &[&str]) -> std::process::Output {
    bin()
        .current_dir(repo)
        .arg("ab")
        .args(args)
        .args(["--runs", "8", "--time", "0.1", "--target-dir"])
        .arg(shared_target())
        .env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME")
        .output()
        .unwrap()
}

#[test]
fn ab_detects_a_doubling_and_no_difference_between_a_revision_and_itself() {
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo);
    let head = git(&repo, &["rev-parse", "HEAD"]);

    let o = ab(&repo, &["HEAD~1", "HEAD", "spin"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}\n{}", out, stderr(&o));
    let line = out.lines().find(|l| l.starts_with("spin")).expect(&out);
    let ratio: f64 = line
        .split("B is ")
        .nth(1)
        .and_then(|r| r.split('×').next())
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("no verdict in {out}"));
    assert!((ratio - 2.0).abs() < 1e-3, "{out}");
    eprintln!("{out}");

    let o = ab(&repo, &["HEAD", "HEAD", "--format", "markdown"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}\n{}", out, stderr(&o));
    assert!(out.starts_with("### yardstick ab: A = HEAD ("), "{out}");
    let row = out.lines().find(|l| l.starts_with("| `spin`")).expect(&out);
    assert!(row.ends_with("| no difference detected |"), "{out}");
    eprintln!("{out}");

    // The user's tree: same commit, nothing changed or added.
    assert_eq!(git(&repo, &["rev-parse", "HEAD"]), head);
    assert_eq!(git(&repo, &["status", "--porcelain"]), "");
    // The worktree is kept for reuse, detached at the revision.
    let wt = repo.join("target/yardstick-ab").join(head.trim());
    assert_eq!(git(&wt, &["rev-parse", "HEAD"]), head);
}

#[test]
fn ab_names_a_revision_that_does_not_exist() {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    let o = bin()
        .current_dir(dir.path())
        .args(["ab", "nope", "HEAD"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("'nope' is not a commit of this repository"),
        "{}",
        stderr(&o)
    );
}

/// `cargo yardstick bench` through the real `cargo bench` on the same tiny
/// crate: the run is recorded with its samples, and `history` shows it.
#[test]
fn bench_runs_real_cargo_bench_and_records_the_run() {
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo);
    let home = dir.path().join("home");
    let o = bin()
        .current_dir(&repo)
        .args(["bench", "--home"])
        .arg(&home)
        .args([
            "--",
            "--sample-size",
            "10",
            "--warm-up-time",
            "0.02",
            "--measurement-time",
            "0.05",
        ])
        .env("CARGO_TARGET_DIR", shared_target())
        .env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    // The bench's own lines pass through (above the progress bar, on
    // stderr), and its results land in the same home as the history.
    assert!(
        stderr(&o).contains("spin") && stderr(&o).contains("time:"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("recorded run 1: 1 benchmarks"),
        "{}",
        stderr(&o)
    );
    assert!(home.join("spin/new/estimates.json").is_file());
    let h = bin()
        .current_dir(&repo)
        .args(["history", "spin", "--home"])
        .arg(&home)
        .output()
        .unwrap();
    assert!(h.status.success(), "{}", stderr(&h));
    assert!(
        stdout(&h).starts_with("spin  1 runs  latest "),
        "{}",
        stdout(&h)
    );
    assert!(home.join("history.sqlite").is_file());
}
