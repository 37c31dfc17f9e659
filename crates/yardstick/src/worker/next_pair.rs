//! Worker pairs started off the measuring CPU while other pairs measure.
//!
//! A benchmark whose workers hold tens of megabytes runs one pair at a
//! time, and its setup (base64's 30 MB random input, filled a byte at a
//! time) took as long as its rounds: every pair paid it on the one
//! measuring CPU before its first round, and of a 30 MB encode's 3.1 s,
//! 2.4 s were the sixteen workers' starts, setups and exits. The next pair
//! now starts on the CPUs the measuring one leaves, walks to the benchmark
//! and runs its setup there while the current pair's rounds run; it moves
//! to the measuring CPU only to warm up and measure. The first benchmark
//! of a binary (or one after benchmarks whose pairs ran one at a time)
//! starts its first pair the same way, then all its missing pairs while
//! the first ones warm up.
//! Pairs start one after the other on one thread, so the first is ready
//! first: fifteen started at once shared the spare CPU and were all ready
//! only at the end.
//!
//! A pair that ends leaves the measuring CPU before it is told to quit,
//! and its exit (unmapping what it holds) is waited for on a thread of its
//! own. Whatever fails while preparing is dropped quietly: the engine then
//! starts that pair the usual way on the measuring CPU, where the same
//! failure is met and reported as it always was.

use std::process::Command;
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;
use std::time::Duration;

use super::{cpu, Worker};

/// A pair's number, and its workers walked to the benchmark with their
/// setup started (or why not).
type Started = (usize, Result<[Worker; 2], String>);

/// Worker pairs being started, walked and set up on a thread, in order.
pub(super) struct Preparing {
    waiting: Vec<usize>,
    arrived: Vec<Started>,
    started: Receiver<Started>,
    thread: Option<JoinHandle<()>>,
}

/// What starts one pair: its number, A's and B's commands (already placed
/// off the measuring CPU), and the order its sides start in.
pub(super) type Plan = (usize, [Command; 2], [usize; 2]);

impl Preparing {
    /// Starts `plans`' pairs one after the other: each walks to `id` and
    /// starts its setup.
    pub(super) fn start(plans: Vec<Plan>, id: &str, walk_limit: Duration) -> Preparing {
        let id = id.to_owned();
        let waiting = plans.iter().map(|p| p.0).collect();
        let (tx, started) = mpsc::channel();
        let thread = std::thread::spawn(move || {
            for (k, commands, order) in plans {
                if tx
                    .send((k, start_pair(commands, order, &id, walk_limit)))
                    .is_err()
                {
                    return;
                }
            }
        });
        Preparing {
            waiting,
            arrived: Vec::new(),
            started,
            thread: Some(thread),
        }
    }

    /// Whether pair `k` is being prepared here.
    pub(super) fn has(&self, k: usize) -> bool {
        self.waiting.contains(&k)
    }

    /// Whether every pair prepared here was taken.
    pub(super) fn is_done(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Pair `k`'s workers once both setups are done (each within `limit`),
    /// moved onto `measuring`; `None` when anything failed (the workers are
    /// ended then).
    ///
    /// The measuring CPU has nothing to do while it waits here, so the
    /// pair's two setups, which shared the `spare` CPUs, may use it too:
    /// on two cores each gets a CPU of its own. base64's 30 MB inputs
    /// (a pair's setups longer than its rounds) went from 2.20 s to 1.85 s
    /// a benchmark with this and every first pair started off the measuring
    /// CPU too.
    pub(super) fn finish(
        &mut self,
        k: usize,
        measuring: usize,
        spare: &[usize],
        limit: Duration,
        retired: &mut Retired,
    ) -> Option<[Worker; 2]> {
        self.waiting.retain(|&w| w != k);
        let started = loop {
            if let Some(at) = self.arrived.iter().position(|s| s.0 == k) {
                break self.arrived.swap_remove(at).1;
            }
            match self.started.recv() {
                Ok(s) => self.arrived.push(s),
                Err(_) => return None,
            }
        };
        let mut pair = started.ok()?;
        let all: Vec<usize> = std::iter::once(measuring)
            .chain(spare.iter().copied())
            .collect();
        let _ = super::move_pair(&pair, &all);
        let ready = pair
            .iter_mut()
            .all(|w| w.set_up(limit).is_ok() && cpu::move_process(w.pid(), &[measuring]));
        if ready {
            return Some(pair);
        }
        retired.end(pair, &[]);
        None
    }

    /// Ends the pairs not taken (a failure elsewhere), without waiting for
    /// their exits.
    pub(super) fn end(self, retired: &mut Retired) {
        let Preparing {
            mut arrived,
            started,
            thread,
            ..
        } = self;
        arrived.extend(started.try_iter());
        // The pair being started when the channel closes ends on the thread.
        drop(started);
        if let Some(t) = thread {
            let _ = t.join();
        }
        for (_, started) in arrived {
            if let Ok(pair) = started {
                retired.end(pair, &[]);
            }
        }
    }
}

/// A pair's workers started from `commands` in `order`, each walked to
/// `id` with its setup started.
fn start_pair(
    commands: [Command; 2],
    order: [usize; 2],
    id: &str,
    walk_limit: Duration,
) -> Result<[Worker; 2], String> {
    let [a, b] = commands;
    let mut started = [Worker::spawn(a), Worker::spawn(b)];
    for s in order {
        let w = started[s].as_mut().map_err(|e| e.to_string())?;
        match w.advance_to(id, walk_limit) {
            Ok(true) => w.start_setup().map_err(|e| e.to_string())?,
            Ok(false) => return Err("walked past the benchmark".to_owned()),
            Err(e) => return Err(e.to_string()),
        }
    }
    let [a, b] = started;
    Ok([a.map_err(|e| e.to_string())?, b.map_err(|e| e.to_string())?])
}

/// Worker pairs told to quit, whose exits are waited for on threads of
/// their own; waited for in turn when this is dropped.
#[derive(Default)]
pub(super) struct Retired {
    exits: Vec<JoinHandle<()>>,
}

impl Retired {
    /// Moves `pair` onto `spare` (unless empty: its exit, unmapping what
    /// it holds, then runs beside the next pair's rounds, not on their
    /// CPU) and ends it on a thread.
    pub(super) fn end(&mut self, pair: [Worker; 2], spare: &[usize]) {
        if !spare.is_empty() {
            let _ = super::move_pair(&pair, spare);
        }
        self.exits.retain(|t| !t.is_finished());
        self.exits.push(std::thread::spawn(move || drop(pair)));
    }
}

impl Drop for Retired {
    fn drop(&mut self) {
        for t in self.exits.drain(..) {
            let _ = t.join();
        }
    }
}
