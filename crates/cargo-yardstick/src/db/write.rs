//! Recording a run: one transaction, so a run is stored whole or not at all.

use rusqlite::{params, OptionalExtension, TransactionBehavior};

use super::{to_blob, uid, Db};
use crate::record::Run;

impl Db {
    /// Stores `run` and returns its id, under a new uid.
    ///
    /// # Errors
    ///
    /// A sentence naming the database when the write fails (after waiting
    /// for other writers up to the busy timeout).
    pub fn record(&mut self, run: &Run) -> Result<i64, String> {
        let mut sorted: Vec<&crate::record::BenchResult> = run.results.iter().collect();
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        let uid = uid::of(
            &run.meta,
            sorted.iter().map(|r| {
                let t = r.typical;
                (
                    r.name.as_str(),
                    r.unit.as_str(),
                    [t.point, t.lower, t.upper],
                )
            }),
            &uid::fresh_salt(),
        );
        self.merge(run, &uid)?
            .ok_or_else(|| format!("{}: this very run is already recorded", self.path.display()))
    }

    /// Stores `run` under `uid` unless a run with that uid is already
    /// there (then `None`): what makes importing an export idempotent.
    ///
    /// # Errors
    ///
    /// As [`Db::record`].
    pub fn merge(&mut self, run: &Run, uid: &str) -> Result<Option<i64>, String> {
        let path = self.path.clone();
        let err = |e: rusqlite::Error| format!("{}: cannot record the run: {e}", path.display());
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        let known = tx
            .query_row("SELECT 1 FROM runs WHERE uid = ?1", [uid], |_| Ok(()))
            .optional()
            .map_err(err)?;
        if known.is_some() {
            return Ok(None);
        }
        let m = &run.meta;
        let state = m.state.as_ref().map(yardstick_format::json::to_string);
        let build = m.build.as_ref().map(yardstick_format::json::to_string);
        tx.execute(
            "INSERT INTO runs (time, commit_hash, branch, dirty, cpu, cores, os, rustc, config, source, label, machine, uid, shard, state, build)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            params![m.time, m.commit, m.branch, m.dirty, m.cpu, m.cores, m.os, m.rustc, m.config, m.source, m.label, m.machine, uid, m.shard, state, build],
        )
        .map_err(err)?;
        let run_id = tx.last_insert_rowid();
        {
            let mut find = tx
                .prepare_cached("SELECT id FROM benchmarks WHERE name = ?1")
                .map_err(err)?;
            let mut add = tx
                .prepare_cached("INSERT INTO benchmarks (name) VALUES (?1)")
                .map_err(err)?;
            let mut result = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO results (bench_id, run_id, unit, n, typical, lower, upper)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .map_err(err)?;
            let mut sample = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO samples (run_id, bench_id, iters, vals) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(err)?;
            let mut ids = std::collections::HashMap::new();
            for r in &run.results {
                let bench_id: i64 = match find
                    .query_row([&r.name], |row| row.get(0))
                    .optional()
                    .map_err(err)?
                {
                    Some(id) => id,
                    None => {
                        add.execute([&r.name]).map_err(err)?;
                        tx.last_insert_rowid()
                    }
                };
                ids.insert(r.name.as_str(), bench_id);
                let t = r.typical;
                result
                    .execute(params![
                        bench_id,
                        run_id,
                        r.unit,
                        r.iters.len() as i64,
                        t.point,
                        t.lower,
                        t.upper
                    ])
                    .map_err(err)?;
                if !r.iters.is_empty() {
                    sample
                        .execute(params![
                            run_id,
                            bench_id,
                            to_blob(&r.iters),
                            to_blob(&r.values)
                        ])
                        .map_err(err)?;
                }
            }
            let mut explained = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO explained (run_id, bench_id, baseline, current) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(err)?;
            // Only beside a result of the run: a count without a time has
            // no row of the history to stand beside.
            for e in &run.explained {
                if let Some(bench_id) = ids.get(e.name.as_str()) {
                    explained
                        .execute(params![run_id, bench_id, e.baseline, e.current])
                        .map_err(err)?;
                }
            }
        }
        tx.commit().map_err(err)?;
        Ok(Some(run_id))
    }
}
