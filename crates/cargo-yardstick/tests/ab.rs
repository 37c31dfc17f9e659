//! `ab` end to end on a tiny git repository made here: a crate whose only
//! dependency is the harness (by path) and whose bench reports exact times
//! (fake clocks via `iter_custom`) of 1000 ns per iteration in the first
//! commit, 2000 in the second and 3000 in an uncommitted edit, plus
//! routines that panic, exit or hang on one side and a benchmark in one
//! side only. Every row's verdict is exact; the user's tree stays untouched.

mod common;
mod spinner;

use common::{bin, stderr, stdout};
use spinner::{ab, ab_with, git, in_repo, make_repo, plain_repo, take_turn, write_bench};

/// The row of benchmark `id` in a terminal table.
fn row<'a>(out: &'a str, id: &str) -> &'a str {
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(id))
        .unwrap_or_else(|| panic!("no row {id} in\n{out}"))
}

#[test]
fn ab_compares_revisions_and_the_working_tree_in_lock_step() {
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo);
    let head = git(&repo, &["rev-parse", "HEAD"]);

    let o = ab(&repo, &["HEAD~1", "HEAD", "--fail-on-regression=50%"]);
    let out = stdout(&o);
    eprintln!("{out}\n{}", stderr(&o));
    // Each side ran in two code layouts (one per pair with --pairs 2),
    // linked by lld with a shuffled function order.
    assert!(out.contains("over 2 code layouts a side"), "{out}");
    assert!(!stderr(&o).contains("layout not sampled"), "{}", stderr(&o));
    // 2000 ns against 1000 ns, exactly, in every round.
    assert!(
        row(&out, "spin").ends_with("B is 2.000× A [2.000, 2.000]: slower"),
        "{out}"
    );
    // A panic in B's routine, and a B worker that exits mid-round: one
    // line each, and the benchmarks after them still compared.
    assert!(row(&out, "boom").contains("failed: B's worker: "), "{out}");
    assert!(row(&out, "boom").contains("boom at "), "{out}");
    assert!(
        row(&out, "quits").ends_with(
            "failed: B's worker: the worker process exited with status 7 while warming up quits: giving up"
        ),
        "{out}"
    );
    // A worker stuck in B's routine: killed at --hang-timeout, one line.
    assert!(
        row(&out, "hangs").ends_with(
            "failed: B's worker: no answer within 2 s while warming up hangs: the benchmark hangs or runs far past its budget (killed)"
        ),
        "{out}"
    );
    assert!(row(&out, "fresh").ends_with("only in B"), "{out}");
    // A doubling is a regression past 50%.
    assert_eq!(o.status.code(), Some(3), "{out}");

    // The revisions share one target directory. Other cargo arguments miss
    // the binaries' cache, so B (built last) and then A are built again in
    // it: A's checkout, older than B's build, must not be handed B's
    // binary (A then B then A; the swap makes the ratio 0.5).
    let o = ab(&repo, &["HEAD", "HEAD~1", "spin", "--bench", "spin"]);
    let out = stdout(&o);
    assert!(stderr(&o).contains("building HEAD~1 ("), "{}", stderr(&o));
    assert!(
        row(&out, "spin").ends_with("B is 0.500× A [0.500, 0.500]: faster"),
        "{out}\n{}",
        stderr(&o)
    );
    // The same revisions and arguments again: nothing is built. The rounds
    // go to --rounds-json, a line per benchmark in its schema.
    let rounds = dir.path().join("rounds.jsonl");
    let o = ab(
        &repo,
        &[
            "HEAD~1",
            "HEAD",
            "spin",
            "--rounds-json",
            rounds.to_str().unwrap(),
        ],
    );
    let out = stdout(&o);
    let err = stderr(&o);
    let text = std::fs::read_to_string(&rounds).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    for line in text.lines() {
        let doc: serde_json::Value = serde_json::from_str(line).unwrap();
        common::assert_schema("ab-rounds.v1.json", &doc);
        assert_eq!(doc["id"], "spin");
    }
    assert!(err.contains("reusing the build of HEAD~1 ("), "{err}");
    assert!(err.contains("reusing the build of HEAD ("), "{err}");
    assert!(!err.contains("building "), "{err}");
    assert!(
        row(&out, "spin").ends_with("B is 2.000× A [2.000, 2.000]: slower"),
        "{out}"
    );

    let o = ab(
        &repo,
        &[
            "HEAD",
            "HEAD",
            "spin",
            "--format",
            "markdown",
            "--fail-on-regression",
        ],
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", out, stderr(&o));
    assert!(out.starts_with("### yardstick ab: A = HEAD ("), "{out}");
    let md = out.lines().find(|l| l.starts_with("| `spin`")).expect(&out);
    assert!(md.ends_with("| no difference detected |"), "{out}");

    // The user's tree: same commit, nothing changed or added.
    assert_eq!(git(&repo, &["rev-parse", "HEAD"]), head);
    assert_eq!(git(&repo, &["status", "--porcelain"]), "");
    // The worktree is kept for reuse, detached at the revision.
    let wt = repo.join("target/yardstick-ab").join(head.trim());
    assert_eq!(git(&wt, &["rev-parse", "HEAD"]), head);

    // No revisions: HEAD against the working tree, uncommitted edit included.
    write_bench(&repo, 3000, false, true);
    let o = ab(&repo, &["--fail-on-regression=60%"]);
    let out = stdout(&o);
    eprintln!("{out}\n{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{}\n{}", out, stderr(&o));
    assert!(out.contains("B = the working tree (HEAD "), "{out}");
    assert!(out.contains(" + uncommitted changes)"), "{out}");
    assert!(
        row(&out, "spin").ends_with("B is 1.500× A [1.500, 1.500]: slower"),
        "{out}"
    );
    // B's side is fixed now: A's panics and exits are not B's.
    assert!(row(&out, "boom").contains("failed: A's worker: "), "{out}");
}

/// A revision's cached build is reused only under the settings it was
/// built with: a profile variable, or a cargo configuration file outside
/// the commit (in an ancestor of the repository), builds it again, and one
/// line names what differs. (The variable is set to cargo's own default,
/// so that the test rebuilds only the tiny crate; the key goes by what is
/// set, not by what cargo makes of it.)
#[test]
fn ab_rebuilds_a_revision_whose_build_settings_changed() {
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo);
    let args = ["HEAD", "HEAD", "spin", "--layouts", "0"];
    let label = format!("HEAD ({})", &git(&repo, &["rev-parse", "HEAD"])[..10]);
    let o = ab(&repo, &args);
    assert!(
        stderr(&o).contains(&format!("building {label}")),
        "{}",
        stderr(&o)
    );
    let o = ab(&repo, &args);
    assert!(
        stderr(&o).contains(&format!("reusing the build of {label}")),
        "{}",
        stderr(&o)
    );

    let opt = [("CARGO_PROFILE_BENCH_OPT_LEVEL", "3")];
    let o = ab_with(&repo, &args, &opt);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        !err.lines().any(|l| l.starts_with("reusing the build")),
        "{err}"
    );
    let why = format!(
        "not reusing the build of {label}: built with other settings: \
         CARGO_PROFILE_BENCH_OPT_LEVEL (unset then, \"3\" now)\nbuilding {label}\n"
    );
    assert!(err.contains(&why), "{err}");
    // Under these settings again: reused.
    let o = ab_with(&repo, &args, &opt);
    assert!(
        stderr(&o).contains(&format!("reusing the build of {label}")),
        "{}",
        stderr(&o)
    );

    // Cargo reads `.cargo/config.toml` in every ancestor of where it runs.
    let config = dir.path().join(".cargo/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "[profile.bench.package.spinner]\nopt-level = 2\n").unwrap();
    let o = ab(&repo, &args);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let why = format!(
        "not reusing the build of {label}: built with other settings: \
         {} (new); CARGO_PROFILE_BENCH_OPT_LEVEL (\"3\" then, unset now)\n",
        config.display()
    );
    assert!(err.contains(&why), "{err}");
    assert!(err.contains(&format!("building {label}")), "{err}");
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
    let repo = plain_repo(dir.path());
    let home = dir.path().join("home");
    let o = in_repo(&repo)
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
        stderr(&o).contains("recorded run 1: 4 benchmarks"),
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

/// `calibrate --layouts` on the same tiny crate: each bench binary linked
/// in four layouts, every benchmark measured across them, the spread
/// written where the harness reads it. The routines report exact times,
/// so every layout measures alike and the spread is exactly zero.
#[test]
fn calibrate_layouts_writes_each_benchmarks_spread() {
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let repo = plain_repo(dir.path());
    let home = dir.path().join("home");
    let o = in_repo(&repo)
        .args(["calibrate", "--layouts", "4", "--home"])
        .arg(&home)
        .args(["--", "spin"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    // Under the bench target's package and name, where the harness of
    // package `spinner` reads it.
    let file = home.join(".layouts/spinner.spin.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    common::assert_schema("layout.v1.json", &doc);
    assert_eq!(doc["target"], "spin");
    assert_eq!(doc["layouts"], 4);
    let ids: Vec<&str> = doc["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["spin"], "{doc}");
    assert_eq!(doc["benchmarks"][0]["relative_spread"], 0.0, "{doc}");
    assert!(
        row(&stdout(&o), "spin").ends_with("spinner.spin  ±0.00%"),
        "{}",
        stdout(&o)
    );
}

/// `bench --help` and `help bench` print yardstick's own flags first, then
/// cargo bench's help (which the flags after them are passed on to);
/// `--help` after `--` is the bench binaries' own and goes on to them.
#[test]
fn bench_help_shows_its_own_flags_then_cargo_benchs() {
    for args in [
        &["bench", "--help"][..],
        &["help", "bench"],
        &["bench", "-p", "x", "-h"],
    ] {
        let o = bin().args(args).output().unwrap();
        let out = stdout(&o);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(
            out.starts_with("Run `cargo bench` with a progress bar"),
            "{args:?}: {out}"
        );
        let own = out.find("--partition <hash:K/N|count:K/N>").expect(&out);
        let cargos = out.find("Usage: cargo bench").expect(&out);
        assert!(own < cargos, "{out}");
        assert!(
            out.contains("--home <DIR>") && out.contains("--label <NAME>"),
            "{out}"
        );
    }
    let o = bin().args(["help", "calibrate"]).output().unwrap();
    assert!(stdout(&o).contains("--runs <N>"), "{}", stdout(&o));
}

/// How each side was built, compared end to end: a revision that turns on
/// the package's features by default, its code unchanged, is named in one
/// line before measuring; the same revision on both sides, and two
/// revisions that differ only in code, name nothing.
#[test]
fn ab_names_a_difference_of_build_between_the_sides() {
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo);
    let manifest = std::fs::read_to_string(repo.join("Cargo.toml")).unwrap();
    std::fs::write(
        repo.join("Cargo.toml"),
        format!("{manifest}\n[features]\ndefault = [\"fast\"]\nfast = []\n"),
    )
    .unwrap();
    git(&repo, &["commit", "-q", "-am", "fast by default"]);
    let notes = |o: &std::process::Output| -> Vec<String> {
        assert!(o.status.success(), "{}\n{}", stdout(o), stderr(o));
        stderr(o)
            .lines()
            .filter(|l| l.contains("was built"))
            .map(str::to_owned)
            .collect()
    };
    let o = ab(&repo, &["HEAD~1", "HEAD", "spin", "--layouts", "0"]);
    assert_eq!(
        notes(&o),
        ["note: B was built differently from A: the package's features added default, fast"]
    );
    // The same code: the line is why numbers might differ, not a verdict.
    let out = stdout(&o);
    assert!(
        row(&out, "spin").contains("no difference detected"),
        "{out}"
    );
    for sides in [["HEAD", "HEAD"], ["HEAD~2", "HEAD~1"]] {
        let o = ab(&repo, &[sides[0], sides[1], "spin", "--layouts", "0"]);
        assert_eq!(notes(&o), Vec::<String>::new(), "{sides:?}");
    }
}

/// A revision whose own `.cargo/config.toml` sets `RUSTFLAGS` (how two
/// revisions' flags differ: `ab` builds both in one environment), its code
/// unchanged, is named in one line from the flags each binary was compiled
/// with: the flag removed by the next revision, added the other way round.
/// The working tree is the revision without the file (cargo also reads the
/// configuration of the folders above a checkout, the user's tree among
/// them). Its own target directory, kept between test runs: another set of
/// flags compiles the harness again, which would slow the other tests.
#[test]
fn ab_names_a_rustflags_difference_between_the_sides() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo);
    std::fs::create_dir_all(repo.join(".cargo")).unwrap();
    std::fs::write(
        repo.join(".cargo/config.toml"),
        "[build]\nrustflags = [\"--cfg\", \"yardstick_ab_test\"]\n",
    )
    .unwrap();
    git(&repo, &["add", ".cargo/config.toml"]);
    git(&repo, &["commit", "-q", "-m", "a cfg for every crate"]);
    git(&repo, &["rm", "-q", ".cargo/config.toml"]);
    git(&repo, &["commit", "-q", "-m", "no cfg"]);
    let target = common::kept_target_dir("yardstick-ab-rustflags-test");
    let notes = |a: &str, b: &str| -> Vec<String> {
        let o = bin()
            .current_dir(&repo)
            .args(["ab", a, b, "^spin$", "--layouts", "0"])
            .args(["--timeout", "1", "--pairs", "2", "--hang-timeout", "2"])
            .arg("--target-dir")
            .arg(&target)
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("CARGO_BUILD_RUSTFLAGS")
            .env_remove("YARDSTICK_HOME")
            .env_remove("CRITERION_HOME")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
        // The same code on both sides: no verdict, the line says why the
        // numbers might differ.
        assert!(
            row(&stdout(&o), "spin").contains("no difference detected"),
            "{}",
            stdout(&o)
        );
        stderr(&o)
            .lines()
            .filter(|l| l.contains("was built"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        notes("HEAD~1", "HEAD"),
        ["note: B was built differently from A: RUSTFLAGS removed --cfg yardstick_ab_test"]
    );
    assert_eq!(
        notes("HEAD", "HEAD~1"),
        ["note: B was built differently from A: RUSTFLAGS added --cfg yardstick_ab_test"]
    );
    // The same code and flags on both sides name nothing.
    assert_eq!(notes("HEAD~2", "HEAD"), Vec::<String>::new());
}
