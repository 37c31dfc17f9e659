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
    // Was: read until out of memory.
    refused(
        home.path(),
        "hyperfine",
        std::path::Path::new("/dev/zero"),
        "MiB an import reads",
    );
}

#[test]
fn a_file_over_the_limit_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let big = home.path().join("big.json");
    let f = std::fs::File::create(&big).unwrap();
    // Sparse: 65 MiB of zeros without writing them.
    f.set_len(65 << 20).unwrap();
    for format in ["hyperfine", "tasty-bench", "cargo-criterion"] {
        refused(home.path(), format, &big, "MiB an import reads");
    }
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
