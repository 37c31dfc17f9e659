//! The guide's CI recipe, run locally at N = 3 on the tiny repository of
//! `spinner.rs`: `ab --partition count:K/3 --format json` per shard, then
//! `merge`, which must give the unsharded comparison's benchmarks and
//! verdicts; a missing and a failed shard fail the merge by name; and
//! `bench --partition` shards exported and imported become one run.

mod common;
mod spinner;
use std::path::Path;

use common::{bin, stderr, stdout};
use spinner::{ab, in_repo, make_repo, plain_repo, take_turn};

/// Without the routine that hangs (each hang costs a time-out).
const FILTER: &str = "spin|boom|quits|fresh";

/// Runs `ab` with `args` and keeps its JSON in `file`; the document.
fn ab_json(repo: &Path, file: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["HEAD~1", "HEAD", FILTER, "--format", "json"];
    all.extend(args);
    let o = ab(repo, &all);
    std::fs::write(file, &o.stdout).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(&o), stderr(&o)));
    common::assert_schema("ab-result.v1.json", &doc);
    doc
}

fn merge(files: &[&Path], args: &[&str]) -> std::process::Output {
    bin().arg("merge").args(files).args(args).output().unwrap()
}

/// Each markdown row's benchmark and the kind of its verdict (a failure's
/// message holds an iteration count, which differs from run to run).
fn verdicts(markdown: &str) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = markdown
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let id = cells[0].trim_start_matches("| `").trim_end_matches('`');
            let verdict = cells[cells.len() - 1].trim_end_matches(" |");
            let kind = verdict.split(": ").next().unwrap_or(verdict);
            (id.to_owned(), kind.to_owned())
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn ab_shards_merge_into_the_unsharded_verdicts() {
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo);
    let whole = dir.path().join("whole.json");
    let doc = ab_json(&repo, &whole, &[]);
    let n_whole = doc["rows"].as_array().unwrap().len();
    let shards: Vec<_> = (1..=3)
        .map(|k| dir.path().join(format!("ab-{k}.json")))
        .collect();
    let mut n_shards = 0;
    for (k, file) in shards.iter().enumerate() {
        let part = format!("count:{}/3", k + 1);
        let doc = ab_json(&repo, file, &["--partition", &part]);
        assert_eq!(doc["shard"], part.as_str());
        n_shards += doc["rows"].as_array().unwrap().len();
    }
    // Each benchmark measured exactly once (merge refuses one in two
    // shards), and every one of them.
    assert_eq!(n_shards, n_whole);
    let files: Vec<&Path> = shards.iter().map(|p| p.as_path()).collect();
    let gate = ["--format", "markdown", "--fail-on-regression=50%"];
    let merged = merge(&files, &gate);
    let single = merge(&[&whole], &gate);
    let (m, s) = (stdout(&merged), stdout(&single));
    assert_eq!(verdicts(&m), verdicts(&s), "{m}\n{s}");
    assert_eq!(verdicts(&m).len(), 4, "{m}");
    assert!(
        m.contains("| `spin` |") && m.contains("B is 2.000× A [2.000, 2.000]: slower"),
        "{m}"
    );
    assert!(
        m.contains("Merged from 3 of 3 shards (count): 1/3, 2/3, 3/3."),
        "{m}"
    );
    // The same exit status: spin doubled, past 50 %.
    assert_eq!(merged.status.code(), Some(3), "{m}\n{}", stderr(&merged));
    assert_eq!(single.status.code(), Some(3), "{s}");

    // A shard whose file never came: named, and the merge fails.
    let o = merge(&files[..2], &["--format", "markdown"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("- shard 3/3: missing (no file names it)"),
        "{}",
        stdout(&o)
    );
    // A shard whose run failed still writes its file, which says so.
    let failed = dir.path().join("ab-3-failed.json");
    let o = ab(
        &repo,
        &[
            "HEAD~1",
            "nope",
            "--format",
            "json",
            "--partition",
            "count:3/3",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    std::fs::write(&failed, &o.stdout).unwrap();
    let o = merge(&[files[0], files[1], &failed], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("shard 3/3 failed (") && stdout(&o).contains("'nope' is not a commit"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bench_shards_import_as_one_run() {
    let _turn = take_turn();
    let dir = tempfile::tempdir().unwrap();
    let repo = plain_repo(dir.path());
    let exports = dir.path().join("exports");
    for k in 1..=3 {
        let home = dir.path().join(format!("home-{k}"));
        let o = in_repo(&repo)
            .args(["bench", "--home"])
            .arg(&home)
            .args(["--partition", &format!("count:{k}/3"), "--"])
            .args([
                "--sample-size",
                "10",
                "--warm-up-time",
                "0.02",
                "--measurement-time",
                "0.05",
            ])
            .env("YARDSTICK_MACHINE", "ci-test")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let o = common::run(&home, &["history", "--export", exports.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let merged = dir.path().join("merged");
    let o = common::run(&merged, &["import", "yardstick", exports.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.starts_with("imported 1 new runs from "), "{out}");
    assert!(
        out.contains("3 shard runs (--partition) were merged by commit and machine kind"),
        "{out}"
    );
    assert!(!out.contains("note:"), "{out}");
    // One run with all four benchmarks, a whole suite again.
    let back = dir.path().join("back");
    let o = common::run(&merged, &["history", "--export", back.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run_file = std::fs::read_dir(back.join("ci-test"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run_file.path()).unwrap()).unwrap();
    common::assert_schema("history-run.v1.json", &doc);
    let mut names: Vec<&str> = doc["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["boom", "hangs", "quits", "spin"]);
    assert!(doc["shard"].is_null(), "{doc}");
    // Importing again changes nothing.
    let o = common::run(&merged, &["import", "yardstick", exports.to_str().unwrap()]);
    assert!(
        stdout(&o).starts_with("imported 0 new runs"),
        "{}",
        stdout(&o)
    );
}
