//! How `history` and `compare` scale with the runs in the database: builds
//! histories of 100 and 1,000 runs of 100 benchmarks (one imported run,
//! copied in SQL) and times both commands through the real binary, and the
//! whole history site. The targets: the 1,000-run time is at most 10 times
//! the 100-run time; the site of 1,000 runs takes at most 5 s, pages under
//! 2 MB.
//!
//! Run with `cargo bench -p cargo-yardstick --bench scaling`.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn messages(n: usize) -> String {
    let mut s = String::new();
    for b in 0..n {
        let ci = r#"{"estimate":100.0,"lower_bound":99.0,"upper_bound":101.0,"unit":"ns"}"#;
        let values: Vec<f64> = (1..=100)
            .map(|i| f64::from(i) * (100.0 + f64::from(i % 7)))
            .collect();
        let iters: Vec<u32> = (1..=100).collect();
        s.push_str(&format!(
            r#"{{"reason":"benchmark-complete","id":"g/b{b}","report_directory":"r","iteration_count":{iters:?},"measured_values":{values:?},"unit":"ns","throughput":[],"typical":{ci},"mean":{ci},"median":{ci},"median_abs_dev":{ci},"slope":null,"change":null}}"#
        ));
        s.push('\n');
    }
    s
}

fn bin() -> Command {
    let exe = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .map(|root| {
            std::env::var_os("CARGO_TARGET_DIR")
                .map_or_else(|| root.join("target"), Into::into)
                .join("release/cargo-yardstick")
        })
        .expect("workspace root");
    Command::new(exe)
}

fn build(home: &Path, runs: usize) {
    let f = home.join("m.jsonl");
    std::fs::write(&f, messages(100)).unwrap();
    let ok = bin()
        .args(["import", "cargo-criterion", f.to_str().unwrap(), "--home"])
        .arg(home)
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let conn = rusqlite::Connection::open(home.join("history.sqlite")).unwrap();
    let tx = conn.unchecked_transaction().unwrap();
    for _ in 1..runs {
        tx.execute_batch(
            "INSERT INTO runs (time, commit_hash, branch, dirty, cpu, cores, os, rustc, config, source, label)
               SELECT time, commit_hash, branch, dirty, cpu, cores, os, rustc, config, source, label FROM runs WHERE id = 1;
             INSERT INTO results SELECT bench_id, last_insert_rowid(), unit, n, typical * (1 + random() % 100 / 10000.0), lower, upper FROM results WHERE run_id = 1;
             INSERT INTO samples SELECT (SELECT max(id) FROM runs), bench_id, iters, vals FROM samples WHERE run_id = 1;",
        )
        .unwrap();
    }
    tx.commit().unwrap();
}

fn time(home: &Path, args: &[&str]) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let o = bin().args(args).arg("--home").arg(home).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        best = best.min(t.elapsed());
    }
    best
}

fn main() {
    // `cargo test --benches` (in the README's test command, CI's) runs
    // this file too, without the `--bench` that `cargo bench` passes: a
    // release build and two timed histories took 2.5 minutes of CI there.
    if !std::env::args().any(|a| a == "--bench") {
        println!(
            "scaling: a timed trial; run it with `cargo bench -p cargo-yardstick --bench scaling`"
        );
        return;
    }
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "-p", "cargo-yardstick"])
        .status()
        .unwrap();
    assert!(status.success());
    let mut times = Vec::new();
    for runs in [100, 1000] {
        let dir = tempfile::tempdir().unwrap();
        build(dir.path(), runs);
        let out = dir.path().join("site");
        let h = time(
            dir.path(),
            &["history", "g/b1", "--output", out.to_str().unwrap()],
        );
        let c = time(
            dir.path(),
            &["compare", "1", "latest", "--nresamples", "1000"],
        );
        println!("{runs:>5} runs x 100 benchmarks: history g/b1 {h:?}, compare 1 latest {c:?}");
        // The whole site: every benchmark's page.
        let all = time(dir.path(), &["history", "--output", out.to_str().unwrap()]);
        let largest = std::fs::read_dir(out.join("b"))
            .unwrap()
            .flatten()
            .map(|e| e.metadata().unwrap().len())
            .max()
            .unwrap_or(0);
        println!(
            "{runs:>5} runs x 100 benchmarks: the whole history site {all:?}, largest page {} kB (target at 1,000 runs: 5 s, 2 MB)",
            largest / 1024
        );
        times.push((h, c));
    }
    let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64();
    let (hr, cr) = (ratio(times[0].0, times[1].0), ratio(times[0].1, times[1].1));
    println!("ratio 1000/100: history {hr:.2}, compare {cr:.2} (target: at most 10)");
}
