//! Queries. None reads the `samples` table except [`Db::results`] with
//! samples, which reads one run's.

use rusqlite::{params, OptionalExtension, Row};

use super::{from_blob, Db};
use crate::record::{BenchResult, Explained, Interval, RunMeta};

/// A stored run's id and context.
#[derive(Debug, Clone, PartialEq)]
pub struct RunInfo {
    /// Its id in the database.
    pub id: i64,
    /// Its context.
    pub meta: RunMeta,
    /// Its identity across histories.
    pub uid: String,
}

/// A benchmark's typical value in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryPoint {
    /// The run.
    pub run_id: i64,
    /// When it was made (Unix seconds).
    pub time: i64,
    /// Its commit, if known.
    pub commit: Option<String>,
    /// The typical value and interval.
    pub typical: Interval,
    /// Instructions per iteration `--explain` counted in this run: the
    /// baseline's binary's and this run's.
    pub instructions: Option<[f64; 2]>,
}

/// One benchmark's values over the runs of one machine, oldest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    /// The benchmark id.
    pub name: String,
    /// The machine the runs were made on.
    pub machine: String,
    /// Its unit (of the latest run).
    pub unit: String,
    /// Its values, in run order.
    pub points: Vec<HistoryPoint>,
}

pub(super) const RUN_COLUMNS: &str =
    "id, time, commit_hash, branch, dirty, cpu, cores, os, rustc, config, source, label, machine, uid, shard, state, build";

pub(super) fn run_info(r: &Row<'_>) -> rusqlite::Result<RunInfo> {
    Ok(RunInfo {
        id: r.get(0)?,
        meta: RunMeta {
            time: r.get(1)?,
            commit: r.get(2)?,
            branch: r.get(3)?,
            dirty: r.get(4)?,
            cpu: r.get(5)?,
            cores: r.get(6)?,
            os: r.get(7)?,
            rustc: r.get(8)?,
            config: r.get(9)?,
            source: r.get(10)?,
            label: r.get(11)?,
            machine: r.get(12)?,
            shard: r.get(14)?,
            // A state this version cannot read is left out, not an error:
            // the results are what the history is for.
            state: r
                .get::<_, Option<String>>(15)?
                .and_then(|s| yardstick_format::json::from_str(&s).ok()),
            // A record this yardstick cannot read is as good as none.
            build: r
                .get::<_, Option<String>>(16)?
                .and_then(|t| yardstick_format::json::from_str(&t).ok()),
        },
        uid: r.get::<_, Option<String>>(13)?.unwrap_or_default(),
    })
}

/// Which column a run is looked up by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKey {
    /// Its label (baseline name).
    Label,
    /// A prefix of its commit hash.
    CommitPrefix,
    /// Its branch.
    Branch,
}

impl Db {
    /// The run with this id.
    ///
    /// # Errors
    ///
    /// A sentence naming the database when the query fails.
    pub fn run(&self, id: i64) -> Result<Option<RunInfo>, String> {
        self.conn
            .query_row(
                &format!("SELECT {RUN_COLUMNS} FROM runs WHERE id = ?1"),
                [id],
                run_info,
            )
            .optional()
            .map_err(|e| self.err(&e))
    }

    /// The latest run, skipping `skip` newer ones.
    ///
    /// # Errors
    ///
    /// As [`Db::run`].
    pub fn latest(&self, skip: i64) -> Result<Option<RunInfo>, String> {
        self.conn
            .query_row(
                &format!("SELECT {RUN_COLUMNS} FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?1"),
                [skip],
                run_info,
            )
            .optional()
            .map_err(|e| self.err(&e))
    }

    /// The latest run before run `id` that has a result for one of run
    /// `id`'s benchmarks: the run a comparison with `id` means when none is
    /// named (an unrelated `exec` or `import` in between is passed over).
    ///
    /// # Errors
    ///
    /// As [`Db::run`].
    pub fn previous_sharing(&self, id: i64) -> Result<Option<RunInfo>, String> {
        self.conn
            .query_row(
                &format!(
                    "SELECT {RUN_COLUMNS} FROM runs WHERE id < ?1 AND id IN (
                         SELECT run_id FROM results WHERE bench_id IN (
                             SELECT bench_id FROM results WHERE run_id = ?1))
                     ORDER BY id DESC LIMIT 1"
                ),
                [id],
                run_info,
            )
            .optional()
            .map_err(|e| self.err(&e))
    }

    /// The latest run whose `key` matches `value`.
    ///
    /// # Errors
    ///
    /// As [`Db::run`].
    pub fn latest_by(&self, key: RunKey, value: &str) -> Result<Option<RunInfo>, String> {
        let (cond, v) = match key {
            RunKey::Label => ("label = ?1", value.to_owned()),
            RunKey::CommitPrefix => (
                "commit_hash >= ?1 AND commit_hash < ?1 || 'g'",
                value.to_ascii_lowercase(),
            ),
            RunKey::Branch => ("branch = ?1", value.to_owned()),
        };
        self.conn
            .query_row(
                &format!("SELECT {RUN_COLUMNS} FROM runs WHERE {cond} ORDER BY id DESC LIMIT 1"),
                [v],
                run_info,
            )
            .optional()
            .map_err(|e| self.err(&e))
    }

    /// The benchmarks of run `id`, with their samples when `samples`.
    ///
    /// # Errors
    ///
    /// As [`Db::run`].
    pub fn results(&self, id: i64, samples: bool) -> Result<Vec<BenchResult>, String> {
        let sql = if samples {
            "SELECT b.name, r.unit, r.typical, r.lower, r.upper, s.iters, s.vals
             FROM results r JOIN benchmarks b ON b.id = r.bench_id
             LEFT JOIN samples s ON s.run_id = r.run_id AND s.bench_id = r.bench_id
             WHERE r.run_id = ?1 ORDER BY b.name"
        } else {
            "SELECT b.name, r.unit, r.typical, r.lower, r.upper, NULL, NULL
             FROM results r JOIN benchmarks b ON b.id = r.bench_id
             WHERE r.run_id = ?1 ORDER BY b.name"
        };
        let mut stmt = self.conn.prepare(sql).map_err(|e| self.err(&e))?;
        let rows = stmt
            .query_map([id], |r| {
                let iters: Option<Vec<u8>> = r.get(5)?;
                let vals: Option<Vec<u8>> = r.get(6)?;
                Ok(BenchResult {
                    name: r.get(0)?,
                    unit: r.get(1)?,
                    typical: Interval {
                        point: r.get(2)?,
                        lower: r.get(3)?,
                        upper: r.get(4)?,
                    },
                    iters: iters.map(|b| from_blob(&b)).unwrap_or_default(),
                    values: vals.map(|b| from_blob(&b)).unwrap_or_default(),
                    processes: None,
                })
            })
            .map_err(|e| self.err(&e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(&e))
    }

    /// The instructions per iteration `--explain` counted in run `id`, by
    /// benchmark (none for a run that explained nothing).
    ///
    /// # Errors
    ///
    /// As [`Db::run`].
    pub fn explained(&self, id: i64) -> Result<Vec<Explained>, String> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT b.name, e.baseline, e.current
                 FROM explained e JOIN benchmarks b ON b.id = e.bench_id
                 WHERE e.run_id = ?1 ORDER BY b.name",
            )
            .map_err(|e| self.err(&e))?;
        let rows = stmt
            .query_map([id], |r| {
                Ok(Explained {
                    name: r.get(0)?,
                    baseline: r.get(1)?,
                    current: r.get(2)?,
                })
            })
            .map_err(|e| self.err(&e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(&e))
    }

    /// The trends of every benchmark whose id contains `filter`, one per
    /// machine, in time order, over the last `last` runs (all when `None`). Reads only the `results` index
    /// ranges of the matching benchmarks, never the samples.
    ///
    /// # Errors
    ///
    /// As [`Db::run`].
    pub fn trends(&self, filter: &str, last: Option<i64>) -> Result<Vec<Trend>, String> {
        let min_run = self.first_of_last(last)?;
        let mut stmt = self
            .conn
            .prepare(
                "SELECT b.name, r.unit, r.run_id, u.time, u.commit_hash, r.typical, r.lower, r.upper, u.machine,
                        e.baseline, e.current
                 FROM benchmarks b
                 JOIN results r ON r.bench_id = b.id AND r.run_id >= ?2
                 JOIN runs u ON u.id = r.run_id
                 LEFT JOIN explained e ON e.bench_id = r.bench_id AND e.run_id = r.run_id
                 WHERE instr(b.name, ?1) > 0
                 ORDER BY b.name, u.machine, u.time, r.run_id",
            )
            .map_err(|e| self.err(&e))?;
        let mut rows = stmt
            .query(params![filter, min_run])
            .map_err(|e| self.err(&e))?;
        let mut trends: Vec<Trend> = Vec::new();
        while let Some(r) = rows.next().map_err(|e| self.err(&e))? {
            let get = |e: rusqlite::Error| self.err(&e);
            let name: String = r.get(0).map_err(get)?;
            let unit: String = r.get(1).map_err(get)?;
            let machine: String = r.get(8).map_err(get)?;
            let point = HistoryPoint {
                run_id: r.get(2).map_err(get)?,
                time: r.get(3).map_err(get)?,
                commit: r.get(4).map_err(get)?,
                typical: Interval {
                    point: r.get(5).map_err(get)?,
                    lower: r.get(6).map_err(get)?,
                    upper: r.get(7).map_err(get)?,
                },
                instructions: match (r.get(9).map_err(get)?, r.get(10).map_err(get)?) {
                    (Some(a), Some(b)) => Some([a, b]),
                    _ => None,
                },
            };
            match trends.last_mut() {
                Some(t) if t.name == name && t.machine == machine => {
                    t.unit = unit;
                    t.points.push(point);
                }
                _ => trends.push(Trend {
                    name,
                    machine,
                    unit,
                    points: vec![point],
                }),
            }
        }
        Ok(trends)
    }

    /// The smallest run id among the last `last` runs (0 for all).
    fn first_of_last(&self, last: Option<i64>) -> Result<i64, String> {
        match last {
            Some(n) => self.latest(n.max(1) - 1).map(|r| r.map_or(0, |r| r.id)),
            None => Ok(0),
        }
    }

    /// Every run among the last `last` (all when `None`), oldest id first.
    ///
    /// # Errors
    ///
    /// As [`Db::run`].
    pub fn runs(&self, last: Option<i64>) -> Result<Vec<RunInfo>, String> {
        let min_run = self.first_of_last(last)?;
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT {RUN_COLUMNS} FROM runs WHERE id >= ?1 ORDER BY id"
            ))
            .map_err(|e| self.err(&e))?;
        let rows = stmt
            .query_map([min_run], run_info)
            .map_err(|e| self.err(&e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(&e))
    }
}
