//! Schema versions after the first: each step runs once, inside the
//! transaction that opens the database, so an interrupted upgrade leaves
//! the old schema.

use rusqlite::{params, Connection};

use super::uid;
use crate::record::RunMeta;

/// Version 2 adds each run's machine (series never mix machines) and its
/// `uid` (an export imported twice changes nothing). Runs recorded before
/// get a uid from their content, and the current host's name when their
/// CPU, cores and OS are this host's (the machine that made them, unless
/// they were imported); the others keep an empty machine name, shown as
/// "unnamed machine".
pub(super) fn to_v2(conn: &Connection, version: i64) -> rusqlite::Result<()> {
    if version >= 2 {
        return Ok(());
    }
    let has_machine: bool = conn
        .prepare("SELECT 1 FROM pragma_table_info('runs') WHERE name = 'machine'")?
        .exists([])?;
    if !has_machine {
        conn.execute_batch(
            "ALTER TABLE runs ADD COLUMN machine TEXT NOT NULL DEFAULT '';
             ALTER TABLE runs ADD COLUMN uid TEXT;",
        )?;
    }
    conn.execute_batch(
        "CREATE UNIQUE INDEX IF NOT EXISTS runs_uid ON runs(uid);
         CREATE INDEX IF NOT EXISTS runs_machine ON runs(machine);",
    )?;
    let unnamed = conn
        .prepare("SELECT 1 FROM runs WHERE machine = ''")?
        .exists([])?;
    if unnamed {
        let here = crate::host::current(std::path::Path::new("."), "", "");
        conn.execute(
            "UPDATE runs SET machine = ?1 WHERE machine = '' AND cpu = ?2 AND cores = ?3 AND os = ?4",
            params![here.machine, here.cpu, here.cores, here.os],
        )?;
    }
    // The backfill reads runs with every column of today's schema.
    to_v3(conn, version)?;
    to_v4(conn, version)?;
    backfill_uids(conn)
}

/// Version 3 adds the shard a run measured (`hash:2/3`, `--partition`),
/// so that an export names it and an import can merge a suite's shards
/// into one run. Runs recorded before were whole suites: no shard.
pub(super) fn to_v3(conn: &Connection, version: i64) -> rusqlite::Result<()> {
    if version >= 3 {
        return Ok(());
    }
    let has_shard: bool = conn
        .prepare("SELECT 1 FROM pragma_table_info('runs') WHERE name = 'shard'")?
        .exists([])?;
    if !has_shard {
        conn.execute_batch("ALTER TABLE runs ADD COLUMN shard TEXT;")?;
    }
    Ok(())
}

/// Version 4 adds the machine's state over each run (JSON), so that a
/// slow run can be told from a busy machine, and how a run's bench
/// binaries were built (`build.json`'s text), so that a trend can mark
/// where the toolchain or flags changed. Runs recorded before have
/// neither.
pub(super) fn to_v4(conn: &Connection, version: i64) -> rusqlite::Result<()> {
    if version >= 4 {
        return Ok(());
    }
    let has_state: bool = conn
        .prepare("SELECT 1 FROM pragma_table_info('runs') WHERE name = 'state'")?
        .exists([])?;
    if !has_state {
        conn.execute_batch("ALTER TABLE runs ADD COLUMN state TEXT;")?;
    }
    let has_build: bool = conn
        .prepare("SELECT 1 FROM pragma_table_info('runs') WHERE name = 'build'")?
        .exists([])?;
    if !has_build {
        conn.execute_batch("ALTER TABLE runs ADD COLUMN build TEXT;")?;
    }
    Ok(())
}

/// Version 5 adds `explained`: per run and benchmark, the instructions
/// per iteration `--explain` counted in the baseline's binary and in the
/// run's, so that the history shows instruction counts beside times. Runs
/// recorded before, and runs without `--explain`, have none.
pub(super) fn to_v5(conn: &Connection, version: i64) -> rusqlite::Result<()> {
    if version >= 5 {
        return Ok(());
    }
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS explained (
             run_id INTEGER NOT NULL REFERENCES runs(id),
             bench_id INTEGER NOT NULL REFERENCES benchmarks(id),
             baseline REAL NOT NULL,
             current REAL NOT NULL,
             PRIMARY KEY (bench_id, run_id)
         ) WITHOUT ROWID;",
    )
}

fn backfill_uids(conn: &Connection) -> rusqlite::Result<()> {
    let ids: Vec<i64> = conn
        .prepare("SELECT id FROM runs WHERE uid IS NULL")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for id in ids {
        let meta: RunMeta = conn.query_row(
            &format!(
                "SELECT {} FROM runs WHERE id = ?1",
                super::read::RUN_COLUMNS
            ),
            [id],
            |r| super::read::run_info(r).map(|i| i.meta),
        )?;
        let mut stmt = conn.prepare_cached(
            "SELECT b.name, r.unit, r.typical, r.lower, r.upper FROM results r
             JOIN benchmarks b ON b.id = r.bench_id WHERE r.run_id = ?1 ORDER BY b.name",
        )?;
        let rows: Vec<(String, String, [f64; 3])> = stmt
            .query_map([id], |r| {
                Ok((r.get(0)?, r.get(1)?, [r.get(2)?, r.get(3)?, r.get(4)?]))
            })?
            .collect::<Result<_, _>>()?;
        let u = uid::of(
            &meta,
            rows.iter().map(|(n, u, t)| (n.as_str(), u.as_str(), *t)),
            "",
        );
        conn.execute("UPDATE runs SET uid = ?1 WHERE id = ?2", params![u, id])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::super::{path_in, Db, SCHEMA};

    #[test]
    fn a_version_1_history_gets_machines_and_uids() {
        let home = tempfile::tempdir().unwrap();
        let here = crate::host::current(std::path::Path::new("."), "", "");
        {
            let conn = Connection::open(path_in(home.path())).unwrap();
            conn.execute_batch(SCHEMA).unwrap();
            let add = "INSERT INTO runs (time, commit_hash, branch, dirty, cpu, cores, os, rustc, config, source, label)
                       VALUES (1, NULL, NULL, 0, ?1, ?2, ?3, '', '', 'bench', NULL)";
            conn.execute(add, rusqlite::params![here.cpu, here.cores, here.os])
                .unwrap();
            conn.execute(add, rusqlite::params!["Other CPU", 64, "plan9"])
                .unwrap();
            conn.execute_batch(
                "INSERT INTO benchmarks (id, name) VALUES (1, 'b');
                 INSERT INTO results VALUES (1, 1, 'ns', 0, 1.0, 0.5, 1.5);
                 INSERT INTO results VALUES (1, 2, 'ns', 0, 1.0, 0.5, 1.5);
                 PRAGMA user_version = 1;",
            )
            .unwrap();
        }
        let db = Db::open(home.path()).unwrap();
        let runs = db.runs(None).unwrap();
        assert_eq!(runs[0].meta.machine, here.machine);
        assert_eq!(runs[1].meta.machine, "", "not this host's: left unnamed");
        assert_eq!(runs[0].uid.len(), 32);
        assert_ne!(runs[0].uid, runs[1].uid);
        drop(db);
        // Opening again changes nothing.
        let again = Db::open(home.path()).unwrap().runs(None).unwrap();
        assert_eq!(again, runs);
    }
}
