//! Every benchmark of a comparison counted before any is measured: each
//! binary runs once under Callgrind as a worker, walks the run's
//! benchmarks and counts a few iterations of each into a profile part of
//! its own (`WorkerRequest::Count`). The baseline's side counts as many
//! iterations as fit [`BUDGET`] (at most [`MAX_ITERATIONS`]); this run's
//! side counts as many, so that the two totals compare exactly. The whole
//! count has the time its caller gives it (`runner::lockstep`'s
//! `count_time`); the benchmarks not reached by then are left uncounted.
//!
//! What it tells, before the first round, is which benchmarks' own
//! instructions changed between the builds: those are the comparisons a
//! change of code can be found in, and where the run spends more time
//! (`runner::lockstep`): those whose instructions per iteration differ,
//! and, from the addresses each benchmark executed, those that ran an
//! instruction whose bytes differ (`code`). `--explain`'s count (`count`)
//! says which functions moved.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::code::{Builds, Executed};
use crate::worker::{Worker, WorkerError};

/// Wall time, under Callgrind, a benchmark's counted loop is given, judged
/// by one uncounted iteration: a routine of a few microseconds gets its
/// [`MAX_ITERATIONS`] (crc32fast's `baseline/16384`, 8 µs), one of 150 µs
/// (some 8 ms an iteration under Callgrind, hex's) about twelve. One loop,
/// not several: a routine that times itself (`iter_custom`) may do work
/// that is not in proportion to the iterations it is asked for.
pub(crate) const BUDGET: Duration = Duration::from_millis(100);

/// The most iterations counted. A change that runs once in a hundred calls
/// is seen only over a hundred of them.
pub(crate) const MAX_ITERATIONS: u64 = 100;

/// The time one benchmark may take to walk to (its setup runs under
/// Callgrind), beyond which the binary's counting is given up.
const STEP_LIMIT: Duration = Duration::from_secs(60);

/// The time one benchmark's count may take: its two uncounted iterations
/// and at least one counted, under Callgrind. A benchmark slower than that
/// (some 30 ms an iteration, run natively) is not counted: its side is
/// started again after it, and it gets the usual rounds. divan's
/// `fibonacci::recursive/40` (0.9 s an iteration) ran under Callgrind for
/// the whole [`STEP_LIMIT`], and the benchmarks after it went uncounted.
const COUNT_LIMIT: Duration = Duration::from_secs(5);

/// One benchmark's totals over the same loops on both sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Counts {
    /// Instructions per iteration: the baseline's binary, this run's.
    pub baseline: f64,
    pub current: f64,
    /// An instruction it executed differs between the binaries (`code`;
    /// false when their code does not compare).
    pub code_changed: bool,
}

impl Counts {
    /// Both sides execute the same instructions (within
    /// `yardstick_format::explain::SAME_WITHIN`).
    pub(crate) fn same(&self) -> bool {
        super::diff::same(self.baseline, self.current)
    }

    /// Its code changed: the instructions it executes per iteration, or
    /// the bytes of one of them.
    pub(crate) fn changed(&self) -> bool {
        !self.same() || self.code_changed
    }
}

/// The binaries of a comparison and how they run.
pub(crate) struct Pair<'a> {
    pub baseline: &'a Path,
    pub current: &'a Path,
    /// The arguments both run with (this run's: the same walk).
    pub args: Vec<OsString>,
    /// Both binaries' code, when it compares (read once, by the caller
    /// that also asks whether any function changed).
    pub builds: Option<&'a Builds>,
    /// The time the whole count may take: the benchmarks the baseline's
    /// side has not reached by then are left uncounted.
    pub time: Duration,
}

/// Counts `ids` (in the binaries' order) in both binaries: the benchmarks
/// both counted, by id, those left out as too slow to count
/// ([`COUNT_LIMIT`]), and how many were not reached in [`Pair::time`].
/// Both run at once, on two CPUs (Valgrind's start, about 0.6 s, is most
/// of a small binary's count): each benchmark is counted on the
/// baseline's side first, then on this run's with the same iterations
/// while the baseline's goes on to the next. `Err` is one line.
pub(crate) fn count_both(pair: &Pair<'_>, ids: &[String]) -> Result<Counted, String> {
    // Callgrind's files, in a folder of this process's own, removed after.
    let scratch = std::env::temp_dir().join(format!("yardstick-count-{}", std::process::id()));
    // A folder left by an earlier process of the same id.
    let _ = std::fs::remove_dir_all(&scratch);
    private_dir(&scratch).map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    let counted = count_in(pair, ids, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    counted
}

/// What [`count_both`] found.
pub(crate) struct Counted {
    /// The benchmarks both sides counted, by id.
    pub counts: HashMap<String, Counts>,
    /// The benchmarks a side could not count within [`COUNT_LIMIT`].
    pub too_slow: Vec<String>,
    /// How many of the last benchmarks the count had no time left for
    /// ([`Pair::time`]).
    pub not_reached: usize,
}

/// [`count_both`] with Callgrind's files in `scratch`.
fn count_in(pair: &Pair<'_>, ids: &[String], scratch: &Path) -> Result<Counted, String> {
    let start = |exe, name: &str| {
        Side::start(exe, &pair.args, scratch.join(format!("each.{name}.out")))
            .map_err(|e| format!("{name} side: {e}"))
    };
    let deadline = Instant::now() + pair.time;
    let mut a = start(pair.baseline, "baseline")?;
    let mut b = start(pair.current, "current")?;
    let mut not_reached = 0;
    // The baseline's side counts the next benchmark while this run's
    // counts the last one with the same iterations.
    let (tx, rx) = std::sync::mpsc::channel::<(&str, u64)>();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            for (id, n) in rx {
                if b.count(id, Some(n), STEP_LIMIT).is_none() && b.stopped.is_some() {
                    break;
                }
            }
        });
        for (i, id) in ids.iter().enumerate() {
            let left = deadline.saturating_duration_since(Instant::now());
            if a.stopped.is_some() || left.is_zero() {
                not_reached = if left.is_zero() { ids.len() - i } else { 0 };
                break;
            }
            match a.count(id, None, left) {
                Some(n) if tx.send((id, n)).is_err() => break,
                Some(_) => {}
                None if a.out_of_time => {
                    not_reached = ids.len() - i;
                    break;
                }
                None => {}
            }
        }
        drop(tx);
    });
    let mut too_slow = a.too_slow.clone();
    too_slow.extend(b.too_slow.iter().cloned());
    let a = a.finish().map_err(|e| format!("baseline side: {e}"))?;
    let b = b.finish().map_err(|e| format!("current side: {e}"))?;
    let a: HashMap<&str, (u64, &Part)> =
        a.iter().map(|(id, n, p)| (id.as_str(), (*n, p))).collect();
    let counts = b
        .iter()
        .filter_map(|(id, n, part)| {
            let &(an, base) = a.get(id.as_str())?;
            (an == *n && *n > 0).then(|| {
                let per = |total: u64| total as f64 / *n as f64;
                let code_changed = pair
                    .builds
                    .is_some_and(|c| c.ran_changed_code(&base.executed, &part.executed));
                let counts = Counts {
                    baseline: per(base.ir),
                    current: per(part.ir),
                    code_changed,
                };
                (id.clone(), counts)
            })
        })
        .collect();
    Ok(Counted {
        counts,
        too_slow,
        not_reached,
    })
}

/// Makes `dir`, new and readable by this user only: Callgrind writes
/// there, and a folder someone else made in a shared temporary folder is
/// not written into.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

/// `exe` under the file name this process was started as: a front-end may
/// name benchmarks after the program (divan's groups are `<bench
/// target>::<path>`), and under Valgrind the program is the path Valgrind
/// is given, where the lock-step workers are given this run's name
/// (`runner::lockstep`). A link beside `out`, on Unix; `exe` elsewhere.
fn named_as_this_program(exe: &Path, out: &Path) -> std::io::Result<PathBuf> {
    let program = std::env::args_os().next();
    let Some(name) = program.as_deref().map(Path::new).and_then(Path::file_name) else {
        return Ok(exe.to_owned());
    };
    #[cfg(unix)]
    {
        let dir = out.with_extension("program");
        private_dir(&dir)?;
        let link = dir.join(name);
        std::os::unix::fs::symlink(exe, &link)?;
        Ok(link)
    }
    #[cfg(not(unix))]
    {
        let _ = (name, out);
        Ok(exe.to_owned())
    }
}

/// One binary counting under Callgrind, as a worker (started again after
/// a benchmark too slow to count: one Callgrind process a run of it).
struct Side {
    worker: Worker,
    out: PathBuf,
    /// The benchmarks counted so far by this worker and their iterations,
    /// in order.
    counted: Vec<(String, u64)>,
    /// Earlier workers' files and what each counted.
    earlier: Vec<(PathBuf, Vec<(String, u64)>)>,
    /// Why the worker can count no more (it exited or hung); the
    /// benchmarks counted before keep their counts (their parts are
    /// written).
    stopped: Option<String>,
    /// The benchmarks not counted within [`COUNT_LIMIT`].
    too_slow: Vec<String>,
    /// The count's time ran out while it walked to a benchmark or counted
    /// it (the worker was killed): not a failure.
    out_of_time: bool,
    /// The program it runs (as this process's name) and its arguments,
    /// to start again.
    program: PathBuf,
    args: Vec<OsString>,
}

impl Side {
    fn start(exe: &Path, args: &[OsString], out: PathBuf) -> Result<Side, String> {
        let program = named_as_this_program(exe, &out)
            .map_err(|e| format!("cannot link {} ({e})", exe.display()))?;
        Ok(Side {
            worker: callgrind_worker(&program, args, &out)?,
            out,
            counted: Vec::new(),
            earlier: Vec::new(),
            stopped: None,
            too_slow: Vec::new(),
            out_of_time: false,
            program,
            args: args.to_vec(),
        })
    }

    /// A new worker after one killed in the middle of a count, its
    /// profile's files beside the earlier ones': the next benchmark is
    /// walked to from the start.
    fn start_again(&mut self) -> Result<(), String> {
        let mut name = self.out.file_stem().unwrap_or_default().to_owned();
        name.push(format!(".{}.out", self.earlier.len() + 1));
        let out = self.out.with_file_name(name);
        self.worker = callgrind_worker(&self.program, &self.args, &out)?;
        let out = std::mem::replace(&mut self.out, out);
        let counted = std::mem::take(&mut self.counted);
        self.earlier.push((out, counted));
        Ok(())
    }

    /// Counts benchmark `id` (`iters` of them, or as many as fit
    /// [`BUDGET`]), walking to it within `left` of the count's time (and
    /// [`STEP_LIMIT`]): the iterations counted, `None` when the binary
    /// lacks it, its routine failed, the time ran out or the worker
    /// stopped.
    fn count(&mut self, id: &str, iters: Option<u64>, left: Duration) -> Option<u64> {
        if self.stopped.is_some() || self.out_of_time {
            return None;
        }
        match self.worker.advance_to(id, left.min(STEP_LIMIT)) {
            Ok(true) => {}
            Ok(false) => return None,
            Err(WorkerError::TimedOut { .. }) if left < STEP_LIMIT => {
                self.out_of_time = true;
                return None;
            }
            Err(e) => {
                self.stopped = Some(e.to_string());
                return None;
            }
        }
        let (n, budget) = match iters {
            Some(n) => (n, Duration::MAX),
            None => (MAX_ITERATIONS, BUDGET),
        };
        match self.worker.count(n, budget, left.min(COUNT_LIMIT)) {
            Ok((n, _)) => {
                self.counted.push((id.to_owned(), n));
                Some(n)
            }
            // The routine failed: its part was not written.
            Err(WorkerError::Failed(_)) => None,
            // The count's time ran out first (the worker was killed).
            Err(WorkerError::TimedOut { .. }) if left < COUNT_LIMIT => {
                self.out_of_time = true;
                None
            }
            // Too slow to count (the worker was killed): the next one is
            // counted by a new worker.
            Err(WorkerError::TimedOut { .. }) => {
                self.too_slow.push(id.to_owned());
                if let Err(e) = self.start_again() {
                    self.stopped = Some(e);
                }
                None
            }
            Err(e) => {
                self.stopped = Some(e.to_string());
                None
            }
        }
    }

    /// Ends the worker and reads its counts: per benchmark counted, its id,
    /// iterations and part.
    fn finish(self) -> Result<Vec<(String, u64, Part)>, String> {
        let Side {
            worker,
            out,
            counted,
            mut earlier,
            stopped,
            out_of_time,
            ..
        } = self;
        let finished = worker.finish(Duration::from_secs(60));
        let none = counted.is_empty() && earlier.iter().all(|(_, c)| c.is_empty());
        // Out of time before the first: nothing counted, nothing failed.
        if none && !out_of_time {
            // What Valgrind said last, as `--explain`'s count says it: a
            // worker's "exited with status 1" alone does not say why.
            let said = super::count::last_words(&out.with_extension("log"));
            if let Some(why) = stopped {
                return Err(format!("{why}{said}"));
            }
            if !finished {
                return Err(format!("Valgrind did not finish writing its profile{said}"));
            }
        }
        earlier.push((out, counted));
        let mut all = Vec::new();
        for (out, counted) in earlier {
            let parts = parts(&out);
            remove_parts(&out);
            let parts = parts?;
            if parts.len() != counted.len() {
                return Err(format!(
                    "Callgrind wrote {} counts for {} benchmarks",
                    parts.len(),
                    counted.len()
                ));
            }
            all.extend(
                counted
                    .into_iter()
                    .zip(parts)
                    .map(|((id, n), part)| (id, n, part)),
            );
        }
        Ok(all)
    }
}

/// A worker of `program` under Callgrind, writing its profile to `out`.
fn callgrind_worker(program: &Path, args: &[OsString], out: &Path) -> Result<Worker, String> {
    remove_parts(out);
    let mut cmd = super::count::callgrind(out);
    // The instructions executed, by the functions' symbols: which of them
    // changed between the builds (`code`).
    cmd.args(["--dump-line=no", "--dump-instr=yes", "--demangle=no"])
        .arg(program)
        .args(args);
    Worker::spawn(cmd).map_err(|e| format!("Valgrind did not start ({e})"))
}

/// One benchmark's count on one side.
#[derive(Debug)]
struct Part {
    /// The instructions of the counted iterations.
    ir: u64,
    /// The addresses executed, per function.
    executed: Executed,
}

/// The parts Callgrind wrote beside `out` for each count (`out.1`,
/// `out.2`, …), in order.
fn parts(out: &Path) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    for k in 1.. {
        let path = part(out, k);
        let Ok(text) = std::fs::read_to_string(&path) else {
            break;
        };
        let reason = yardstick_format::worker::COUNT_REASON.to_string_lossy();
        if !text.contains(&format!("Trigger: Client Request: {reason}")) {
            continue;
        }
        let profile = yardstick_format::callgrind::parse_str(&text)
            .map_err(|(line, e)| format!("{} line {line}: {e}", path.display()))?;
        let ir = profile
            .event_index("Ir")
            .map(|i| yardstick_format::callgrind::at(&profile.totals, i))
            .ok_or("a profile without instruction counts")?;
        let executed = profile
            .functions
            .into_iter()
            .map(|(name, f)| (name, f.instructions))
            .filter(|(_, at)| !at.is_empty())
            .collect();
        parts.push(Part { ir, executed });
    }
    Ok(parts)
}

fn part(out: &Path, k: usize) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(format!(".{k}"));
    PathBuf::from(name)
}

/// Removes `out` and its parts (an earlier run's would be read as this
/// one's).
fn remove_parts(out: &Path) {
    let _ = std::fs::remove_file(out);
    for k in 1.. {
        if std::fs::remove_file(part(out, k)).is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A profile part as Callgrind writes it with `--dump-line=no` (the
    /// header of a real one), `ir` instructions in one function.
    fn part_text(trigger: &str, ir: u64) -> String {
        format!(
            "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 12501\ncmd:  ./t\npart: 1\n\n\
             desc: I1 cache: \ndesc: Timerange: Basic block 0 - 28762\ndesc: Trigger: {trigger}\n\n\
             positions: line\nevents: Ir\nsummary: {ir}\n\n\
             ob=(5) /tmp/t\nfl=(139) ???\nfn=(502) work\n0 {ir}\n\ntotals: {ir}\n"
        )
    }

    #[test]
    fn the_counts_are_the_parts_the_count_requests_wrote_in_order() {
        let dir = std::env::temp_dir().join(format!("yardstick-each-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("each.out");
        // The program's end is written to `out` itself; a part another
        // request wrote (a user's own dump) is not a count.
        std::fs::write(&out, part_text("Program termination", 7)).unwrap();
        std::fs::write(
            part(&out, 1),
            part_text("Client Request: yardstick-count", 1200),
        )
        .unwrap();
        std::fs::write(part(&out, 2), part_text("Client Request: mine", 99)).unwrap();
        std::fs::write(
            part(&out, 3),
            part_text("Client Request: yardstick-count", 3400),
        )
        .unwrap();
        let ir: Vec<u64> = parts(&out).unwrap().iter().map(|p| p.ir).collect();
        assert_eq!(ir, [1200, 3400]);
        // An unreadable part is an error naming it, not a wrong count.
        std::fs::write(
            part(&out, 4),
            "desc: Trigger: Client Request: yardstick-count\nevents: Ir\nfn=(1)\n0 x\n",
        )
        .unwrap();
        let err = parts(&out).unwrap_err();
        assert!(err.contains("each.out.4"), "{err}");
        remove_parts(&out);
        assert!(!out.exists() && !part(&out, 1).exists() && !part(&out, 4).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn totals_within_a_thousandth_are_the_same_code() {
        let c = |baseline, current| Counts {
            baseline,
            current,
            code_changed: false,
        };
        assert!(c(10_000.0, 10_010.0).same());
        // crc32fast's `baseline/16384` with +1 % compiled in: one call in a
        // hundred runs twice.
        assert!(!c(10_000.0, 10_100.0).same());
        assert!(!c(10_000.0, 9_980.0).same());
    }
}
