//! Reading the history never writes it: history, compare and check open
//! it read-only, create nothing, and are not held up by a writer; errors
//! say what happened without advising to throw a good history away.

mod common;
use common::{fixture, run, stderr, stdout};

#[test]
fn history_on_a_missing_home_creates_nothing() {
    let home = tempfile::tempdir().unwrap();
    let missing = home.path().join("not").join("here");
    let o = run(&missing, &["history"]);
    // Nothing recorded: one line saying so, not a new empty history.
    assert!(stderr(&o).contains("record runs with"), "{}", stderr(&o));
    assert!(!missing.exists(), "history created {}", missing.display());
}

#[test]
fn reading_is_not_held_up_by_a_writer() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let f = fixture("hyperfine/two.json");
    let o = run(h, &["import", "hyperfine", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A writer in the middle of a transaction. Opening to read used to
    // take a write lock too (BEGIN IMMEDIATE), wait 30 s for this one,
    // then call the history unreadable.
    let writer = rusqlite::Connection::open(h.join("history.sqlite")).unwrap();
    writer.execute_batch("BEGIN IMMEDIATE").unwrap();
    let o = run(h, &["history"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("sleep 0.001"), "{}", stdout(&o));
    writer.execute_batch("ROLLBACK").unwrap();
}

#[test]
fn only_a_file_that_is_not_a_database_is_called_unreadable() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    std::fs::write(h.join("history.sqlite"), vec![b'x'; 4096]).unwrap();
    let o = run(h, &["history"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("move it away to start a new one"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
