//! The history database: one SQLite file, `history.sqlite`, under the home
//! directory.
//!
//! Tables: `runs` (context of each run), `benchmarks` (one row per id),
//! `results` (typical value and interval of a benchmark in a run, keyed by
//! benchmark then run so a trend reads one index range) and `samples` (the
//! raw samples, read only when two runs are compared). The database runs in
//! WAL mode with a busy timeout, so concurrent writers wait for each other,
//! and each run is written in one transaction, so a run killed midway
//! leaves nothing behind. Each run names its machine and carries a `uid`,
//! so that exports of several machines merge into one history without
//! duplicates (schema version 2). `explained` (version 5) keeps the
//! instructions per iteration `--explain` counted for a benchmark in a
//! run, both sides, so that the site shows them beside the times.

mod migrate;
mod read;
mod uid;
mod write;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;

mod open;

pub use read::{RunInfo, RunKey, Trend};

/// The schema version stored in `PRAGMA user_version`.
const SCHEMA_VERSION: i64 = 5;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time INTEGER NOT NULL,
    commit_hash TEXT,
    branch TEXT,
    dirty INTEGER NOT NULL,
    cpu TEXT NOT NULL,
    cores INTEGER NOT NULL,
    os TEXT NOT NULL,
    rustc TEXT NOT NULL,
    config TEXT NOT NULL,
    source TEXT NOT NULL,
    label TEXT
);
CREATE INDEX IF NOT EXISTS runs_commit ON runs(commit_hash);
CREATE INDEX IF NOT EXISTS runs_branch ON runs(branch);
CREATE INDEX IF NOT EXISTS runs_label ON runs(label);
CREATE TABLE IF NOT EXISTS benchmarks (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS results (
    bench_id INTEGER NOT NULL REFERENCES benchmarks(id),
    run_id INTEGER NOT NULL REFERENCES runs(id),
    unit TEXT NOT NULL,
    n INTEGER NOT NULL,
    typical REAL NOT NULL,
    lower REAL NOT NULL,
    upper REAL NOT NULL,
    PRIMARY KEY (bench_id, run_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS results_run ON results(run_id);
CREATE TABLE IF NOT EXISTS samples (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    bench_id INTEGER NOT NULL REFERENCES benchmarks(id),
    iters BLOB NOT NULL,
    vals BLOB NOT NULL,
    PRIMARY KEY (run_id, bench_id)
) WITHOUT ROWID;
";

/// An open history database.
pub struct Db {
    conn: Connection,
    path: PathBuf,
    /// Held while the database is open for writing (see [`writer_lock`]).
    _writer: Option<std::fs::File>,
}

/// The database file under a home directory.
#[must_use]
pub fn path_in(home: &Path) -> PathBuf {
    home.join("history.sqlite")
}

impl Db {
    /// Opens (creating if needed) the history under `home`.
    ///
    /// # Errors
    ///
    /// A sentence naming the file when it cannot be created or opened, or
    /// is not a yardstick history.
    pub fn open(home: &Path) -> Result<Db, String> {
        std::fs::create_dir_all(home)
            .map_err(|e| format!("cannot create the home directory {}: {e}", home.display()))?;
        let path = path_in(home);
        let writer = writer_lock(&path)?;
        let fail = |e: rusqlite::Error| open::describe(&path, &e);
        let conn = Connection::open(&path).map_err(fail)?;
        conn.busy_timeout(Duration::from_secs(30)).map_err(fail)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(fail)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(fail)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(fail)?;
        let version = open::schema_version(&conn, &path)?;
        conn.execute_batch(&format!("BEGIN IMMEDIATE; {SCHEMA}"))
            .and_then(|()| migrate::to_v2(&conn, version))
            .and_then(|()| migrate::to_v3(&conn, version))
            .and_then(|()| migrate::to_v4(&conn, version))
            .and_then(|()| migrate::to_v5(&conn, version))
            .and_then(|()| {
                conn.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"))
            })
            .map_err(|e| {
                let _ = conn.execute_batch("ROLLBACK");
                fail(e)
            })?;
        Ok(Db {
            conn,
            path,
            _writer: writer,
        })
    }

    /// The database file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, e: &rusqlite::Error) -> String {
        format!("{}: {e}", self.path.display())
    }
}

/// Encodes floats as little-endian bytes.
fn to_blob(xs: &[f64]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Decodes [`to_blob`]'s bytes; a trailing partial value is dropped.
fn from_blob(bytes: &[u8]) -> Vec<f64> {
    bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect()
}

/// Writers take turns on `<history>.lock` (the system's `flock`, released
/// by a killed holder): SQLite's own busy wait gave up after 30 s with
/// "database is locked" when eight imports ran at once on a loaded
/// machine, and a lock queue never times out. Where `flock` does not exist
/// the file is only opened; SQLite's locking still keeps each run whole.
fn writer_lock(db: &Path) -> Result<Option<std::fs::File>, String> {
    let path = db.with_extension("sqlite.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        loop {
            // SAFETY: the descriptor is open for the call; the lock goes
            // with the file when it is closed.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                break;
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(format!("cannot lock {}: {e}", path.display()));
            }
        }
    }
    Ok(Some(file))
}
