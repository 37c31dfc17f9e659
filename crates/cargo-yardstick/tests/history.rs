//! The history through the real binary: `bench` with a stand-in cargo,
//! `history` with a level shift, `compare`, `check`, two concurrent
//! writers and runs killed midway.

mod common;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::{bin, db_state, fixture, run, stderr, stdout};

/// cargo-criterion messages for `n` benchmarks whose samples are around
/// `level` ns per iteration.
fn messages(n: usize, level: f64) -> String {
    let mut s = String::new();
    for b in 0..n {
        let iters: Vec<u64> = (1..=10).collect();
        let values: Vec<f64> = iters
            .iter()
            .map(|&i| i as f64 * level * (1.0 + 0.001 * ((i * 7 + b as u64) % 5) as f64))
            .collect();
        let ci = format!(
            r#"{{"estimate":{level},"lower_bound":{},"upper_bound":{},"unit":"ns"}}"#,
            level * 0.99,
            level * 1.01
        );
        s.push_str(&format!(
            r#"{{"reason":"benchmark-complete","id":"g/b{b}","report_directory":"r","iteration_count":{iters:?},"measured_values":{values:?},"unit":"ns","throughput":[],"typical":{ci},"mean":{ci},"median":{ci},"median_abs_dev":{ci},"slope":null,"change":null}}"#
        ));
        s.push('\n');
    }
    s
}

fn import_messages(home: &Path, text: &str, label: Option<&str>) {
    let f = home.join(format!("m{}.jsonl", rand_name()));
    std::fs::write(&f, text).unwrap();
    let mut args = vec!["import", "cargo-criterion", f.to_str().unwrap()];
    if let Some(l) = label {
        args.extend(["--label", l]);
    }
    let o = run(home, &args);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `text` with what changes between runs replaced: the site's folder, the
/// commit the runs were recorded at and the pages' size (they carry dates).
fn redacted(text: &str, site: &Path) -> String {
    let text = text.replace(site.to_str().unwrap(), "[SITE]");
    let text = match text.find("largest ") {
        Some(i) => {
            let end = text[i..].find(" kB").map_or(text.len(), |j| i + j);
            format!("{}largest [N]{}", &text[..i], &text[end..])
        }
        None => text,
    };
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("(commit ") {
        let (head, tail) = rest.split_at(i + "(commit ".len());
        out.push_str(head);
        let sha: String = tail.chars().take_while(char::is_ascii_hexdigit).collect();
        out.push_str(if sha.is_empty() { "" } else { "[SHA]" });
        rest = &tail[sha.len()..];
    }
    out.push_str(rest);
    out
}

fn rand_name() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

#[test]
fn history_names_the_run_where_the_level_moved_and_writes_the_site() {
    let home = tempfile::tempdir().unwrap();
    for r in 0..40 {
        let noise = 1.0 + 0.01 * (((r * 37) % 11) as f64 - 5.0) / 5.0;
        let level = if r < 25 { 100.0 } else { 110.0 } * noise;
        let csv = format!("Name,Mean (ps),2*Stdev (ps)\nfib,{},{}\n", level * 1e3, 2e3);
        let f = home.path().join(format!("t{r}.csv"));
        std::fs::write(&f, csv).unwrap();
        let o = run(home.path(), &["import", "tasty-bench", f.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let out = home.path().join("site");
    let o = run(
        home.path(),
        &["history", "fib", "--output", out.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("fib  40 runs  latest "), "{text}");
    assert!(text.contains("level moved at run 26 (commit "), "{text}");
    assert!(text.contains("%, confidence 99.9%)"), "{text}");
    assert!(text.contains("history site: "), "{text}");
    insta::assert_snapshot!("history_terminal", redacted(&text, &out));
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("<svg") && index.contains(">fib</a>"),
        "{index}"
    );
    let page = std::fs::read_dir(out.join("b"))
        .unwrap()
        .flatten()
        .next()
        .unwrap();
    let html = std::fs::read_to_string(page.path()).unwrap();
    assert!(
        html.contains("<svg") && html.contains("class=\"shift\" data-commit=\""),
        "{html}"
    );
    let o = run(home.path(), &["history", "nothing-matches"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no benchmark matching 'nothing-matches'"));
}

#[test]
fn compare_and_check_gate_on_a_regression() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    import_messages(h, &messages(3, 100.0), Some("main"));
    import_messages(h, &messages(3, 100.0), None);
    let o = run(h, &["check", "--against", "main"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("✅ no benchmark regressed"));
    import_messages(h, &messages(3, 120.0), None);
    let summary = h.join("summary.md");
    let o = run(
        h,
        &[
            "check",
            "--against",
            "main",
            "--summary",
            summary.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.contains("❌ 3 of 3 benchmarks regressed by more than 5.0%"),
        "{md}"
    );
    assert!(
        md.contains("| `g/b0` | 100.0000 ns | 120.0000 ns | +20.00% ["),
        "{md}"
    );
    assert!(md.contains("🔴 regressed"), "{md}");
    // A 20 % threshold lets it pass.
    let o = run(h, &["check", "--against", "main", "--threshold", "0.25"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));

    let o = run(h, &["compare", "1", "latest"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = stdout(&o);
    assert!(t.starts_with("benchmark  run 1"), "{t}");
    assert!(t.contains("regressed"), "{t}");
    let o = run(h, &["compare", "main", "latest~1", "--format", "markdown"]);
    assert!(
        stdout(&o).starts_with("| benchmark | run 1"),
        "{}",
        stdout(&o)
    );
    let o = run(h, &["compare", "nope", "latest"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'nope' names no run in"),
        "{}",
        stderr(&o)
    );
    let o = run(h, &["check", "--against", "main", "--threshold=-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--threshold must be a non-negative fraction"));
}

#[test]
fn compare_with_no_argument_takes_the_last_run_with_the_same_benchmarks() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    import_messages(h, &messages(2, 100.0), None);
    import_messages(h, &messages(2, 130.0), None);
    // Unrelated runs in between: another harness's benchmarks.
    let csv = h.join("t.csv");
    std::fs::write(&csv, "Name,Mean (ps),2*Stdev (ps)\nfib,1000,20\n").unwrap();
    let o = run(h, &["import", "tasty-bench", csv.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Run 4 has the benchmarks of runs 1 and 2: compared with run 2, not 3.
    import_messages(h, &messages(2, 100.0), None);
    let o = run(h, &["compare"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).trim_end(),
        "comparing run 4 (cargo-criterion) with run 2 (cargo-criterion), the latest earlier run with the same benchmarks"
    );
    let t = stdout(&o);
    assert!(t.starts_with("benchmark  run 2"), "{t}");
    assert!(t.contains("improved"), "{t}");
    assert!(!t.contains("only in"), "{t}");
    // Naming the old side still compares exactly that run, saying nothing.
    let o = run(h, &["compare", "latest~1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("benchmark  run 3"), "{}", stdout(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // A run after the latest, or a sign, is one line and exit 2.
    for bad in ["latest~-1", "latest~+1", "latest~x", "latest~99999999999"] {
        let o = run(h, &["compare", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stdout(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("latest~N"), "{bad}: {}", stderr(&o));
    }
}

#[test]
fn compare_with_no_argument_says_when_nothing_came_before() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    import_messages(h, &messages(2, 100.0), None);
    let o = run(h, &["compare"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("no run before run 1 (cargo-criterion) has any of its benchmarks"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn compare_reads_criterion_baseline_folders() {
    let home = tempfile::tempdir().unwrap();
    let src = fixture("criterion/home/fib_10");
    let dst = home.path().join("fib_10");
    for sub in ["new", "main"] {
        std::fs::create_dir_all(dst.join(sub)).unwrap();
        for f in std::fs::read_dir(src.join(sub)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, dst.join(sub).join(f.file_name().unwrap())).unwrap();
        }
    }
    let o = run(home.path(), &["compare", "main", "new"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("fib_10") && stdout(&o).contains("improved"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn two_concurrent_writers_never_corrupt_the_history() {
    let home = tempfile::tempdir().unwrap();
    let f = home.path().join("m.jsonl");
    std::fs::write(&f, messages(200, 50.0)).unwrap();
    let children: Vec<_> = (0..8)
        .map(|_| {
            bin()
                .args(["import", "cargo-criterion", f.to_str().unwrap(), "--home"])
                .arg(home.path())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(db_state(home.path()), (8, "ok".to_owned()));
}

/// Every stored run has all `n` results: no run was half-written.
fn runs_are_whole(home: &Path, n: i64) -> i64 {
    let conn = rusqlite::Connection::open(home.join("history.sqlite")).unwrap();
    // Killed before the schema was created: an empty database is consistent.
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name = 'runs'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    if tables == 0 {
        return 0;
    }
    let mut stmt = conn
        .prepare("SELECT u.id, (SELECT count(*) FROM results r WHERE r.run_id = u.id) FROM runs u")
        .unwrap();
    let counts: Vec<(i64, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(counts.iter().all(|c| c.1 == n), "{counts:?}");
    counts.len() as i64
}

#[test]
fn a_run_killed_midway_leaves_the_history_consistent() {
    let home = tempfile::tempdir().unwrap();
    let f = home.path().join("big.jsonl");
    std::fs::write(&f, messages(3000, 10.0)).unwrap();
    for delay_ms in [5, 20, 40, 80, 120, 200, 400] {
        let mut c = bin()
            .args(["import", "cargo-criterion", f.to_str().unwrap(), "--home"])
            .arg(home.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = c.kill();
        let _ = c.wait();
        if home.path().join("history.sqlite").exists() {
            runs_are_whole(home.path(), 3000);
        }
    }
    let o = run(
        home.path(),
        &["import", "cargo-criterion", f.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(runs_are_whole(home.path(), 3000) >= 1);
    assert_eq!(db_state(home.path()).1, "ok");
}

/// A stand-in for cargo: lists two benchmarks, writes their messages to
/// the `--message-file`, then sleeps `FAKE_SLEEP` seconds.
fn fake_cargo(dir: &Path) -> std::path::PathBuf {
    let script = dir.join("fake-cargo");
    std::fs::write(
        &script,
        r#"#!/bin/sh
for a in "$@"; do
  if [ "$a" = "--list" ]; then echo "g/b0: benchmark"; echo "g/b1: benchmark"; exit 0; fi
done
prev=""; file=""
for a in "$@"; do
  if [ "$prev" = "--message-file" ]; then file="$a"; fi
  prev="$a"
done
echo "Benchmarking g/b0"
cat "$FAKE_MESSAGES" >> "$file"
if [ -n "$FAKE_EXPLAIN" ]; then
  mkdir -p "$YARDSTICK_HOME/g/b0/explain"
  cp "$FAKE_EXPLAIN" "$YARDSTICK_HOME/g/b0/explain/explain.json"
fi
sleep "${FAKE_SLEEP:-0}"
"#,
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    script
}

#[cfg(unix)]
#[test]
fn bench_records_the_run_and_a_killed_bench_records_nothing() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let cargo = fake_cargo(h);
    let msgs = h.join("msgs.jsonl");
    std::fs::write(&msgs, messages(2, 100.0)).unwrap();
    let bench = |sleep: &str| {
        let mut c = bin();
        c.args(["yardstick", "bench", "--home"])
            .arg(h)
            .args(["--label", "pr", "--bench", "fib", "--", "--quick"])
            .env("CARGO", &cargo)
            .env("FAKE_MESSAGES", &msgs)
            .env("FAKE_SLEEP", sleep);
        c
    };
    let mut killed = bench("30")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    killed.kill().unwrap();
    killed.wait().unwrap();
    let o = bench("0").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("Benchmarking g/b0"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("recorded run 1: 2 benchmarks in "),
        "{}",
        stderr(&o)
    );
    assert_eq!(db_state(h), (1, "ok".to_owned()));
    let conn = rusqlite::Connection::open(h.join("history.sqlite")).unwrap();
    let (label, config, source): (String, String, String) = conn
        .query_row("SELECT label, config, source FROM runs", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!(
        (label.as_str(), config.as_str(), source.as_str()),
        ("pr", "cargo bench --bench fib -- --quick", "bench")
    );
}

/// `bench -- --explain`: the instructions per iteration the run's
/// explanations counted go into the history beside its times (an
/// explanation left from an earlier run does not), and the benchmark's
/// page of the site shows them; an older history is upgraded to keep them.
#[cfg(unix)]
#[test]
fn bench_keeps_the_explained_instruction_counts_and_the_site_shows_them() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    // A history of schema version 4 (before `explained`): one run.
    import_messages(h, &messages(2, 90.0), None);
    {
        let conn = rusqlite::Connection::open(h.join("history.sqlite")).unwrap();
        conn.execute_batch("DROP TABLE explained; PRAGMA user_version = 4;")
            .unwrap();
    }
    let cargo = fake_cargo(h);
    let msgs = h.join("msgs.jsonl");
    std::fs::write(&msgs, messages(2, 100.0)).unwrap();
    let explanation = |id: &str, a: f64, b: f64| {
        format!(
            r#"{{"version":1,"id":"{id}","iterations":100,"baseline_instructions":{a},"current_instructions":{b},"same":false,"separated":true,"debug_info":true,"functions":[]}}"#
        )
    };
    // g/b1's explanation is older than the run: not this run's.
    std::fs::create_dir_all(h.join("g/b1/explain")).unwrap();
    let stale = h.join("g/b1/explain/explain.json");
    std::fs::write(&stale, explanation("g/b1", 10.0, 20.0)).unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let fresh = h.join("explain.json");
    std::fs::write(&fresh, explanation("g/b0", 16_014.0, 48_020.0)).unwrap();
    let o = bin()
        .args(["yardstick", "bench", "--home"])
        .arg(h)
        .args(["--bench", "fib", "--", "--explain"])
        .env("CARGO", &cargo)
        .env("FAKE_MESSAGES", &msgs)
        .env("FAKE_EXPLAIN", &fresh)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let conn = rusqlite::Connection::open(h.join("history.sqlite")).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 5);
    let rows: Vec<(String, i64, f64, f64)> = conn
        .prepare(
            "SELECT b.name, e.run_id, e.baseline, e.current FROM explained e
             JOIN benchmarks b ON b.id = e.bench_id",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows, [("g/b0".to_owned(), 2, 16_014.0, 48_020.0)]);
    drop(conn);
    let site = h.join("site");
    let o = run(h, &["history", "g/b", "--output", site.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pages: Vec<String> = std::fs::read_dir(site.join("b"))
        .unwrap()
        .flatten()
        .map(|p| std::fs::read_to_string(p.path()).unwrap())
        .collect();
    let b0 = pages
        .iter()
        .find(|p| p.contains("<title>g/b0 · yardstick</title>"))
        .unwrap();
    // 48020 / 16014 - 1 = +199.86%; the first run explained nothing.
    assert!(b0.contains("<td>16014 → 48020 (+199.86%)</td>"), "{b0}");
    assert!(b0.contains("<td class=\"dim\">—</td></tr>"), "{b0}");
    let b1 = pages
        .iter()
        .find(|p| p.contains("<title>g/b1 · yardstick</title>"))
        .unwrap();
    assert!(!b1.contains("Instructions"), "{b1}");
}
