//! What a recorded run carries and how it is found again, through the real
//! binary in temporary git repositories: the commit, branch, dirty flag and
//! host of each run; `compare` naming runs by branch or commit prefix; and
//! `check` gating exact instruction counts with `--instructions-threshold`.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{bin, stderr, stdout};

/// Runs git in `dir` with a fixed identity and dates (so hashes are
/// reproducible) and none of the user's configuration.
fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .args([
            "-c",
            "user.name=yardstick",
            "-c",
            "user.email=yardstick@example.com",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_DATE", "2020-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2020-01-01T00:00:00Z")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("run git");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_owned()
}

/// A repository with one commit on `main` (a tracked file `src.txt`).
fn repo(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q"]);
    std::fs::write(dir.join("src.txt"), "one\n").unwrap();
    git(dir, &["add", "src.txt"]);
    git(dir, &["commit", "-q", "-m", "one"]);
}

/// Runs `cargo-yardstick ARGS --home HOME` from `cwd`; git never looks
/// above `cwd`'s parent, so a folder outside any repository stays outside.
fn run_in(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    bin()
        .args(args)
        .arg("--home")
        .arg(home)
        .current_dir(cwd)
        .env_remove("YARDSTICK_HOME")
        .env_remove("CRITERION_HOME")
        .env_remove("YARDSTICK_CONFIG")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env("GIT_CEILING_DIRECTORIES", cwd.parent().unwrap())
        .output()
        .expect("run cargo-yardstick")
}

/// Imports one tasty-bench benchmark `fib` of `ns` nanoseconds from `cwd`
/// (so the run takes `cwd`'s git state); returns the run id.
fn import_fib(cwd: &Path, home: &Path, ns: f64) -> i64 {
    let f = home.join(format!("fib-{ns}.csv"));
    std::fs::create_dir_all(home).unwrap();
    std::fs::write(
        &f,
        format!("Name,Mean (ps),2*Stdev (ps)\nfib,{},2000\n", ns * 1e3),
    )
    .unwrap();
    let o = run_in(cwd, home, &["import", "tasty-bench", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    text.trim_end()
        .rsplit(' ')
        .next()
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("no run id in {text:?}"))
}

/// The stored context of a run, straight from the database.
#[derive(Debug)]
struct Stored {
    time: i64,
    commit: Option<String>,
    branch: Option<String>,
    dirty: bool,
    cpu: String,
    cores: i64,
    os: String,
    rustc: String,
}

fn stored(home: &Path, id: i64) -> Stored {
    let conn = rusqlite::Connection::open(home.join("history.sqlite")).unwrap();
    conn.query_row(
        "SELECT time, commit_hash, branch, dirty, cpu, cores, os, rustc FROM runs WHERE id = ?1",
        [id],
        |r| {
            Ok(Stored {
                time: r.get(0)?,
                commit: r.get(1)?,
                branch: r.get(2)?,
                dirty: r.get(3)?,
                cpu: r.get(4)?,
                cores: r.get(5)?,
                os: r.get(6)?,
                rustc: r.get(7)?,
            })
        },
    )
    .unwrap()
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

#[test]
fn a_run_records_its_commit_branch_dirty_flag_and_host() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let home = tmp.path().join("home");
    repo(&work);
    let head = git(&work, &["rev-parse", "HEAD"]);
    assert_eq!(head.len(), 40);

    let before = unix_now();
    let clean = import_fib(&work, &home, 100.0);
    let after = unix_now();
    let s = stored(&home, clean);
    assert_eq!(s.commit.as_deref(), Some(head.as_str()));
    assert_eq!(s.branch.as_deref(), Some("main"));
    assert!(!s.dirty, "{s:?}");
    assert!(before <= s.time && s.time <= after, "{s:?}");
    // The host, each from its own source.
    let cores = std::thread::available_parallelism().unwrap().get() as i64;
    assert_eq!(s.cores, cores);
    assert_eq!(
        s.os,
        format!("{} {}", std::env::consts::OS, std::env::consts::ARCH)
    );
    let rustc = Command::new("rustc").arg("--version").output().unwrap();
    let rustc = String::from_utf8_lossy(&rustc.stdout).trim().to_owned();
    assert!(rustc.starts_with("rustc "), "{rustc}");
    assert_eq!(s.rustc, rustc);
    if let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") {
        if let Some(model) = info.lines().find(|l| l.starts_with("model name")) {
            let model = model.split_once(':').unwrap().1.trim();
            assert!(!model.is_empty());
            assert_eq!(s.cpu, model);
        }
    }

    // An untracked file is not a change to the tree.
    std::fs::write(work.join("notes.txt"), "scratch\n").unwrap();
    assert!(!stored(&home, import_fib(&work, &home, 100.0)).dirty);
    // A tracked file edited: dirty; staged: still dirty; committed: clean.
    std::fs::write(work.join("src.txt"), "two\n").unwrap();
    let edited = stored(&home, import_fib(&work, &home, 100.0));
    assert!(edited.dirty, "{edited:?}");
    assert_eq!(edited.commit.as_deref(), Some(head.as_str()));
    git(&work, &["add", "src.txt"]);
    assert!(stored(&home, import_fib(&work, &home, 100.0)).dirty);
    git(&work, &["commit", "-q", "-m", "two"]);
    let second = git(&work, &["rev-parse", "HEAD"]);
    assert_ne!(second, head);
    let committed = stored(&home, import_fib(&work, &home, 100.0));
    assert!(!committed.dirty, "{committed:?}");
    assert_eq!(committed.commit.as_deref(), Some(second.as_str()));

    // A detached HEAD has a commit but no branch.
    git(&work, &["checkout", "-q", "--detach", &head]);
    let detached = stored(&home, import_fib(&work, &home, 100.0));
    assert_eq!(detached.commit.as_deref(), Some(head.as_str()));
    assert_eq!(detached.branch, None);
    assert!(!detached.dirty);

    // Outside any repository: no commit, no branch, not dirty; the host
    // is still recorded.
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let o = stored(&home, import_fib(&outside, &home, 100.0));
    assert_eq!((o.commit, o.branch, o.dirty), (None, None, false));
    assert_eq!(o.cores, cores);
    assert_eq!(o.rustc, rustc);
}

/// The first line (header) of a `compare` table, split at runs of spaces.
fn header(o: &Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o).lines().next().unwrap_or("").to_owned()
}

fn fib_change(o: &Output) -> String {
    let text = stdout(o);
    let line = text
        .lines()
        .find(|l| l.starts_with("fib "))
        .unwrap_or_else(|| panic!("no fib row in {text}"));
    line.split_whitespace()
        .find(|w| w.ends_with('%'))
        .unwrap_or_else(|| panic!("no change in {line}"))
        .to_owned()
}

#[test]
fn compare_names_runs_by_branch_and_commit_prefix() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let home = tmp.path().join("home");
    repo(&work);
    let c1 = git(&work, &["rev-parse", "HEAD"]);
    assert_eq!(import_fib(&work, &home, 100.0), 1);
    git(&work, &["checkout", "-q", "-b", "feature"]);
    std::fs::write(work.join("src.txt"), "faster\n").unwrap();
    git(&work, &["commit", "-q", "-am", "feature"]);
    let c2 = git(&work, &["rev-parse", "HEAD"]);
    assert_eq!(import_fib(&work, &home, 120.0), 2);
    // The latest run of the branch or commit is the one named.
    assert_eq!(import_fib(&work, &home, 110.0), 3);

    let want = |a: i64, ca: &str, b: i64, cb: &str| {
        vec![
            "benchmark".to_owned(),
            format!("run {a} ({})", &ca[..8]),
            format!("run {b} ({})", &cb[..8]),
        ]
    };
    let cols = |o: &Output| -> Vec<String> {
        header(o)
            .split("  ")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .take(3)
            .map(str::to_owned)
            .collect()
    };
    // By branch: main is run 1, feature's latest is run 3; 110/100 − 1.
    let o = run_in(&work, &home, &["compare", "main", "feature"]);
    assert_eq!(cols(&o), want(1, &c1, 3, &c2), "{}", stdout(&o));
    assert_eq!(fib_change(&o), "+10.00%");
    // By commit prefix: 4 digits, git's 7, the whole hash, upper case.
    for (old, new) in [
        (&c1[..4], &c2[..4]),
        (&c1[..7], &c2[..7]),
        (c1.as_str(), c2.as_str()),
    ] {
        let o = run_in(&work, &home, &["compare", old, new]);
        assert_eq!(cols(&o), want(1, &c1, 3, &c2), "{old} {new}");
        assert_eq!(fib_change(&o), "+10.00%");
    }
    let upper = c2[..7].to_ascii_uppercase();
    let o = run_in(&work, &home, &["compare", &upper, "main"]);
    assert_eq!(cols(&o), want(3, &c2, 1, &c1));
    // 100/110 − 1 = −9.0909…%.
    assert_eq!(fib_change(&o), "-9.09%");
    // Mixed with the other selectors: a commit against a run id.
    let o = run_in(&work, &home, &["compare", &c1[..7], "2"]);
    assert_eq!(cols(&o), want(1, &c1, 2, &c2));
    assert_eq!(fib_change(&o), "+20.00%");

    // Neither a prefix of another commit nor one shorter than 4 digits.
    let other = ["0000000", "fffffff", "1111111"]
        .into_iter()
        .find(|p| !c1.starts_with(p) && !c2.starts_with(p))
        .unwrap();
    for sel in [other, &c1[..3]] {
        let o = run_in(&work, &home, &["compare", sel, "latest"]);
        assert_eq!(o.status.code(), Some(2), "{sel}: {}", stdout(&o));
        assert!(
            stderr(&o).contains(&format!("'{sel}' names no run in")),
            "{}",
            stderr(&o)
        );
    }
    // check takes the same names. A time known only by its summary is
    // still a time: gated by --threshold (5 %), not by the instructions
    // threshold; +10 % fails, whatever --instructions-threshold says.
    let gate = |extra: &[&str]| {
        let mut args = vec!["check", "--against", "main", "--run", "feature"];
        args.extend(extra);
        run_in(&work, &home, &args)
    };
    let o = gate(&["--instructions-threshold", "0.5"]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("❌ 1 of 1 benchmarks regressed by more than 5.0% (run 3 ("),
        "{}",
        stdout(&o)
    );
    let o = gate(&["--threshold", "0.15", "--instructions-threshold", "0"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// A commit prefix made of decimal digits only (about one abbreviated hash
/// in 27) still names its commit, not a run id that does not exist.
#[test]
fn a_commit_prefix_of_decimal_digits_names_the_commit() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let home = tmp.path().join("home");
    repo(&work);
    assert_eq!(import_fib(&work, &home, 100.0), 1);
    // Amend the commit message until git's abbreviated hash is all digits
    // (deterministic: fixed identity, dates and tree).
    let mut found = None;
    for i in 0..2000 {
        git(
            &work,
            &["commit", "-q", "--amend", "-m", &format!("try {i}")],
        );
        let h = git(&work, &["rev-parse", "HEAD"]);
        let p = &h[..7];
        if p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<i64>().unwrap() > 100 {
            found = Some(h);
            break;
        }
    }
    let digits = found.expect("a hash starting with 7 decimal digits");
    assert_eq!(import_fib(&work, &home, 125.0), 2);
    let o = run_in(&work, &home, &["compare", "1", &digits[..7]]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        header(&o).contains(&format!("run 2 ({})", &digits[..8])),
        "{}",
        stdout(&o)
    );
    assert_eq!(fib_change(&o), "+25.00%");
    // A number that is a run id still names the run.
    let o = run_in(&work, &home, &["compare", "1", "2"]);
    assert_eq!(fib_change(&o), "+25.00%");
}

/// An iai-callgrind summary of benchmark `name` counting `ir` instructions.
fn iai_summary(name: &str, ir: u64) -> String {
    format!(
        r#"{{"version":"3","module_path":"bench::{name}","id":"case","callgrind_summary":{{"callgrind_run":{{"segments":[],"total":{{"Ir":{{"new":{ir},"old":null}}}}}}}},"regressions":[]}}"#
    )
}

/// Imports a folder of summaries with counts for `a` and `b`.
fn import_counts(home: &Path, a: u64, b: u64, label: Option<&str>) {
    let dir = home.join(format!("iai-{a}-{b}"));
    for (name, ir) in [("a", a), ("b", b)] {
        std::fs::create_dir_all(dir.join(name)).unwrap();
        std::fs::write(dir.join(name).join("summary.json"), iai_summary(name, ir)).unwrap();
    }
    let mut args = vec!["import", "iai-callgrind", dir.to_str().unwrap()];
    if let Some(l) = label {
        args.extend(["--label", l]);
    }
    let o = common::run(home, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("imported 2 benchmarks"));
}

fn check(home: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["check", "--against", "base"];
    args.extend(extra);
    common::run(home, &args)
}

#[test]
fn check_gates_instruction_counts_on_the_instructions_threshold() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    import_counts(home, 1000, 50_000, Some("base"));

    // a grew by exactly 1 % (10 of 1000): not more than the default 1 %.
    import_counts(home, 1010, 50_000, None);
    let o = check(home, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("✅ no benchmark regressed"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("| +1.00% |"), "{}", stdout(&o));

    // a +1.1 % (11 of 1000), b −2 % (1000 of 50000): a fails, b does not.
    import_counts(home, 1011, 49_000, None);
    let summary = home.join("summary.md");
    let o = check(home, &["--summary", summary.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let md = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(md, stdout(&o));
    assert!(
        md.contains("❌ 1 of 2 benchmarks regressed by more than 1.0% in instructions ("),
        "{md}"
    );
    assert!(md.contains("): bench::a/case\n"), "{md}");
    assert!(
        md.contains("| `bench::a/case` | 1000 instructions | 1011 instructions | +1.10% | - |"),
        "{md}"
    );
    assert!(
        md.contains("| `bench::b/case` | 50000 instructions | 49000 instructions | -2.00% | - |"),
        "{md}"
    );
    // The threshold decides, at its boundary: 1.1 % is not more than 1.1 %,
    // but more than 1.09 %.
    for (t, code) in [("0.011", 0), ("0.0109", 3), ("0.02", 0), ("0", 3)] {
        let o = check(home, &["--instructions-threshold", t]);
        assert_eq!(o.status.code(), Some(code), "{t}: {}", stdout(&o));
    }
    // The time threshold does not apply to exact counts, either way.
    let o = check(home, &["--threshold", "0.5"]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let o = check(
        home,
        &["--threshold", "0", "--instructions-threshold", "0.02"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o)
            .contains("✅ no benchmark regressed by more than 2.0% in instructions (2 compared, "),
        "{}",
        stdout(&o)
    );
    // A negative threshold is refused.
    let o = check(home, &["--instructions-threshold=-0.01"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--instructions-threshold must be a non-negative fraction"));
}
