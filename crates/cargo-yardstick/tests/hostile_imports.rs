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
