//! Hostile import files: endless streams, huge files and impossible values
//! get one line and exit status 2, never a hang, a panic or an abort.

mod common;
use common::{run, stderr};

fn refused(home: &std::path::Path, format: &str, file: &std::path::Path, needle: &str) {
    let o = run(home, &["import", format, file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{format}: {}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{format}: {err}");
}

#[cfg(unix)]
#[test]
fn an_endless_stream_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let zero = std::path::Path::new("/dev/zero");
    // Was: read until out of memory. A JSON document is read whole, up to
    // its limit; a line format is streamed, one bounded line at a time.
    refused(home.path(), "hyperfine", zero, "MiB an import reads");
    for format in ["tasty-bench", "cargo-criterion"] {
        refused(home.path(), format, zero, "a line longer than 64 MiB");
    }
}

#[test]
fn a_file_over_the_limit_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let big = home.path().join("big.json");
    let f = std::fs::File::create(&big).unwrap();
    // Sparse: 65 MiB of zeros without writing them.
    f.set_len(65 << 20).unwrap();
    refused(home.path(), "hyperfine", &big, "MiB an import reads");
    for format in ["tasty-bench", "cargo-criterion"] {
        refused(home.path(), format, &big, "a line longer than 64 MiB");
    }
}

/// The line formats are streamed: a message file larger than any JSON
/// document import reads is imported whole (here 66 MiB of reruns of one
/// benchmark, of which the last counts).
#[test]
fn a_message_file_over_the_document_limit_is_streamed() {
    use std::io::Write;
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("messages.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let samples = 2_000;
    let iters: Vec<String> = (1..=samples).map(|i| i.to_string()).collect();
    let values: Vec<String> = (1..=samples).map(|i| format!("{}.5", i * 100)).collect();
    let ci = |v: f64| {
        format!(
            r#"{{"estimate":{v},"lower_bound":{},"upper_bound":{},"unit":"ns"}}"#,
            v * 0.99,
            v * 1.01
        )
    };
    let mut written = 0usize;
    let mut run = 0u32;
    while written <= 66 << 20 {
        run += 1;
        let typical = 100.0 + f64::from(run % 7);
        let line = format!(
            r#"{{"reason":"benchmark-complete","id":"parse/json","report_directory":"r","iteration_count":[{}],"measured_values":[{}],"unit":"ns","throughput":[],"typical":{t},"mean":{t},"median":{t},"median_abs_dev":{t},"slope":null,"change":null}}"#,
            iters.join(","),
            values.join(","),
            t = ci(typical)
        );
        writeln!(f, "{line}").unwrap();
        written += line.len() + 1;
    }
    f.flush().unwrap();
    drop(f);
    let o = run_import(home.path(), &path);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("imported 1 benchmark from"), "{out}");
}

fn run_import(home: &std::path::Path, file: &std::path::Path) -> std::process::Output {
    run(home, &["import", "cargo-criterion", file.to_str().unwrap()])
}

#[test]
fn impossible_times_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    for (name, mean) in [("negative", "-1000"), ("zero", "0")] {
        let f = h.join(format!("{name}.csv"));
        std::fs::write(&f, format!("Name,Mean (ps),2*Stdev (ps)\nfib,{mean},10\n")).unwrap();
        refused(h, "tasty-bench", &f, "impossible");
    }
}

/// An exported run (`history --export`'s format) of `benchmarks`, each a
/// name and a typical value.
fn exported_run(uid: &str, time: i64, benchmarks: &[(&str, f64)]) -> serde_json::Value {
    let benchmarks: Vec<serde_json::Value> = benchmarks
        .iter()
        .map(|(name, t)| {
            serde_json::json!({"name": name, "unit": "ns",
                "typical": {"point": t, "lower": t * 0.99, "upper": t * 1.01},
                "iters": [1.0, 2.0], "values": [t, t * 2.0]})
        })
        .collect();
    serde_json::json!({"version": 1, "uid": uid,
        "machine": {"name": "m", "cpu": "", "cores": 2, "os": "linux"},
        "time": time, "commit": null, "branch": "main", "dirty": false,
        "rustc": "", "config": "", "source": "bench", "label": null,
        "benchmarks": benchmarks})
}

/// What the second campaign's `import yardstick` let through: each refused
/// with one line naming the file and the field, exit status 2, nothing
/// recorded.
#[test]
fn impossible_exported_runs_are_refused_with_file_and_field() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    type Spoil = fn(&mut serde_json::Value);
    let cases: [(&str, Spoil, &str); 7] = [
        (
            "negative-typical",
            |r| {
                r["benchmarks"][0]["typical"] =
                    serde_json::json!({"point": -2.0, "lower": -3.0, "upper": -1.0})
            },
            "benchmarks[0] ('fib'): typical.lower -3 is below zero",
        ),
        (
            "negative-sample",
            |r| r["benchmarks"][0]["values"][1] = (-5.0).into(),
            "benchmarks[0] ('fib'): values[1] -5 is below zero",
        ),
        (
            "time-max",
            |r| r["time"] = i64::MAX.into(),
            "time: 9223372036854775807 is not a moment",
        ),
        (
            "time-min",
            |r| r["time"] = i64::MIN.into(),
            "time: -9223372036854775808 is not a moment",
        ),
        (
            "cores",
            |r| r["machine"]["cores"] = (-1).into(),
            "machine.cores: -1 is not a number of cores",
        ),
        (
            "twice",
            |r| {
                let b = r["benchmarks"][0].clone();
                r["benchmarks"].as_array_mut().unwrap().push(b);
            },
            "benchmarks[1]: 'fib' is benchmarks[0] again",
        ),
        (
            "typical-zero-with-negative-bound",
            |r| {
                r["benchmarks"][0]["typical"] =
                    serde_json::json!({"point": 0.0, "lower": -1.0, "upper": 1.0})
            },
            "typical.lower -1 is below zero",
        ),
    ];
    for (name, spoil, needle) in cases {
        let mut doc = exported_run("u1", 1_700_000_000, &[("fib", 100.0)]);
        spoil(&mut doc);
        let file = h.join(format!("{name}.json"));
        std::fs::write(&file, doc.to_string()).unwrap();
        refused(h, "yardstick", &file, needle);
        let err = stderr(&run(h, &["import", "yardstick", file.to_str().unwrap()]));
        assert!(err.contains(&format!("{name}.json: ")), "{err}");
    }
    assert!(!h.join("history.sqlite").exists() || common::db_state(h).0 == 0);
}

/// Bytes that are neither a line break nor printable, in any of `texts`.
fn raw_controls(texts: &[&[u8]]) -> usize {
    texts
        .iter()
        .flat_map(|t| String::from_utf8_lossy(t).chars().collect::<Vec<_>>())
        .filter(|&c| c.is_control() && c != '\n')
        .count()
}

/// Imported ids holding a terminal's escapes (clear the screen, retitle the
/// window, ring the bell): no command prints one raw. The history site
/// drops them already (yardstick-report's escaping tests).
#[test]
fn ids_with_terminal_escapes_never_reach_the_terminal_raw() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let evil = [
        "clear\u{1b}[2J\u{1b}[H",
        "title\u{1b}]0;pwned\u{7}",
        "bel\u{7}\r",
    ];
    let dir = h.join("exports");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, t) in [(1, 100.0), (2, 150.0)] {
        let benchmarks: Vec<(&str, f64)> = evil.iter().map(|e| (*e, t)).collect();
        let run = exported_run(&format!("u{i}"), 1_700_000_000 + i, &benchmarks);
        std::fs::write(dir.join(format!("{i}.json")), run.to_string()).unwrap();
    }
    let o = run(h, &["import", "yardstick", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let site = h.join("site");
    let commands: [&[&str]; 5] = [
        &["history"],
        &["history", "--output", site.to_str().unwrap()],
        &["compare", "latest~1", "latest"],
        &["compare", "latest~1", "latest", "--format", "markdown"],
        &["check", "--against", "latest~1"],
    ];
    let mut shown = 0;
    for args in commands {
        let o = run(h, args);
        assert!(
            o.status.code().is_some_and(|c| c <= 3),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(
            raw_controls(&[&o.stdout, &o.stderr]),
            0,
            "{args:?}: {:?}{:?}",
            stdout_of(&o),
            stderr(&o)
        );
        shown +=
            usize::from(String::from_utf8_lossy(&o.stdout).contains("title\\u{1b}]0;pwned\\u{7}"));
    }
    assert!(shown >= 3, "the ids are shown, escaped");
}

fn stdout_of(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
