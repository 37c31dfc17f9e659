//! Opening the history for reading, and saying what went wrong in words
//! that do not invite throwing a good history away.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags};

use super::{path_in, Db, SCHEMA, SCHEMA_VERSION};

/// What happened to the history at `path`, in one line. Only a file that
/// is not a database gets the advice to move it away; a full disk, a
/// read-only file system or a lock leave the history as it was, and say so.
pub(super) fn describe(path: &Path, e: &rusqlite::Error) -> String {
    let code = e.sqlite_error_code();
    let p = path.display();
    match code {
        Some(ErrorCode::NotADatabase) => format!(
            "{p}: {e}; it is not a readable yardstick history (move it away to start a new one)"
        ),
        Some(ErrorCode::DiskFull) => {
            format!("{p}: the disk is full ({e}); the history is unchanged — free some space")
        }
        Some(ErrorCode::ReadOnly | ErrorCode::PermissionDenied) => format!(
            "{p}: cannot write the history ({e}); it is unchanged — check the permissions of \
             the file and its folder"
        ),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
            format!("{p}: another process holds the history ({e}); try again when it is done")
        }
        Some(ErrorCode::CannotOpen) => format!("{p}: cannot open the history ({e})"),
        _ => format!("{p}: {e}"),
    }
}

impl Db {
    /// Opens the history under `home` for reading only: nothing is
    /// created (neither the folder nor the file; a missing history reads
    /// as an empty one), nothing is locked for writing, and a read-only
    /// file system or a full disk does not stop reading.
    ///
    /// # Errors
    ///
    /// One line saying what happened.
    pub fn open_read_only(home: &Path) -> Result<Db, String> {
        let path = path_in(home);
        let fail = |e: rusqlite::Error| describe(&path, &e);
        if !path.exists() {
            let conn = Connection::open_in_memory().map_err(fail)?;
            conn.execute_batch(SCHEMA)
                .and_then(|()| super::migrate::to_v2(&conn, 0))
                .and_then(|()| super::migrate::to_v3(&conn, 0))
                .and_then(|()| super::migrate::to_v5(&conn, 0))
                .map_err(fail)?;
            return Ok(Db {
                conn,
                path,
                _writer: None,
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(&path, flags)
            .and_then(|c| check_version(&c).map(|()| c))
            .or_else(|_| {
                // A WAL history on a read-only file system: its -shm file
                // cannot be made, but nothing else writes there either.
                let uri = format!("file:{}?immutable=1", path.display());
                let c = Connection::open_with_flags(uri, flags)?;
                check_version(&c)?;
                Ok(c)
            })
            .map_err(fail)?;
        conn.busy_timeout(Duration::from_secs(30)).map_err(fail)?;
        let version = schema_version(&conn, &path)?;
        if version < SCHEMA_VERSION {
            // An older history is upgraded once, which is a write.
            drop(conn);
            return Db::open(home);
        }
        Ok(Db {
            conn,
            path,
            _writer: None,
        })
    }
}

/// The history's schema version; an error naming the file when it is newer
/// than this cargo-yardstick understands.
pub(super) fn schema_version(conn: &Connection, path: &Path) -> Result<i64, String> {
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| describe(path, &e))?;
    if version > SCHEMA_VERSION {
        return Err(format!(
            "{}: history schema version {version} is newer than this cargo-yardstick understands ({SCHEMA_VERSION}); update cargo-yardstick",
            path.display()
        ));
    }
    Ok(version)
}

/// Reads the schema version, which fails on a file that is not a database.
fn check_version(c: &Connection) -> rusqlite::Result<()> {
    c.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(code: i32) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None)
    }

    #[test]
    fn only_a_non_database_is_advised_away() {
        let p = Path::new("h.sqlite");
        // SQLite's result codes: SQLITE_FULL 13, SQLITE_READONLY 8,
        // SQLITE_NOTADB 26, SQLITE_BUSY 5.
        let full = describe(p, &error(13));
        assert!(
            full.contains("the disk is full") && !full.contains("move it away"),
            "{full}"
        );
        let ro = describe(p, &error(8));
        assert!(
            ro.contains("cannot write") && !ro.contains("move it away"),
            "{ro}"
        );
        let busy = describe(p, &error(5));
        assert!(
            busy.contains("another process") && !busy.contains("move it away"),
            "{busy}"
        );
        assert!(describe(p, &error(26)).contains("move it away"));
    }
}
