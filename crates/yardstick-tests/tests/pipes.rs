//! `cargo bench | head`: a reader that goes away must not make the bench
//! binary panic, and the run must still save its results.

mod common;
use common::{benchmark_files, command, home};

#[test]
fn a_closed_stdout_and_stderr_are_not_a_panic() {
    let h = home("closed-pipes");
    // Both ends read by nobody from the start, so every write fails with
    // EPIPE (Rust ignores SIGPIPE), whatever the timing.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = command(
        &h,
        &[
            "--bench",
            "--warm-up-time",
            "0.02",
            "--measurement-time",
            "0.05",
            "--sample-size",
            "10",
            "--exact",
            "empty",
        ],
        &[],
    )
    .stdout(writer.try_clone().unwrap())
    .stderr(writer)
    .status()
    .unwrap();
    // The empty body prints an "optimised away" warning on stderr, too.
    assert_eq!(status.code(), Some(0), "{status}");
    assert_eq!(benchmark_files(&h).len(), 1, "the results are still saved");

    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = command(&h, &["--list"], &[])
        .stdout(writer)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0), "{status}");
}
