//! Live worker pairs walked to the next benchmark and warmed up off the
//! measuring CPU while the first pair warms up and the rounds begin.
//!
//! At a suite's short measurement time the rounds are short too (base64's
//! 3 s gives 0.36 s of them), and the fifteen other pairs' walks and
//! warm-ups on the measuring CPU took 55–110 ms of a 0.5 s benchmark. A
//! warm-up there bought little the spare CPU cannot: between a pair's
//! warm-up and its first round the other pairs' rounds ran on the
//! measuring CPU anyway, so its caches there were cold again; what stays
//! warm is the pair's own (its pages, its setup, what its code builds
//! lazily), and that is built on whichever CPU it runs. So the pairs walk
//! and warm up one after the other on the spare CPU while the first pair
//! warms up where it measures, and each moves to the measuring CPU just
//! before its first block.
//!
//! Whatever fails here is not reported: the pair is ended and the engine
//! starts it the usual way on the measuring CPU, where the same failure
//! is met and reported as it always was (`super::next_pair` does the
//! same).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use super::{move_pair, Worker};

/// A pair's number, its workers, and whether they were walked to the
/// benchmark and warmed up.
type Back = (usize, [Worker; 2], bool);

/// How a pair is walked and warmed: its number, its workers and the order
/// its sides go in.
pub(super) type Plan = (usize, [Worker; 2], [usize; 2]);

/// The warm-up's bounds and the limits of a walk and of one warm-up.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub min: Duration,
    pub max: Duration,
    pub walk: Duration,
    pub hang: Duration,
}

/// Pairs being walked and warmed on a thread, in order.
pub(super) struct Warming {
    waiting: Vec<usize>,
    arrived: Vec<Back>,
    back: Receiver<Back>,
    /// Pairs numbered from here on are handed back unwarmed.
    upto: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl Warming {
    /// Moves `plans`' pairs onto `spare` and walks each to `id` and warms
    /// it up there, one after the other.
    pub(super) fn start(plans: Vec<Plan>, id: &str, spare: &[usize], limits: Limits) -> Warming {
        let (id, spare) = (id.to_owned(), spare.to_vec());
        let waiting = plans.iter().map(|p| p.0).collect();
        let upto = Arc::new(AtomicUsize::new(usize::MAX));
        let (tx, back) = mpsc::channel();
        let until = Arc::clone(&upto);
        let thread = std::thread::spawn(move || {
            for (k, mut pair, order) in plans {
                let warmed = k < until.load(Ordering::Relaxed)
                    && move_pair(&pair, &spare)
                    && walk_and_warm(&mut pair, order, &id, limits);
                if tx.send((k, pair, warmed)).is_err() {
                    return;
                }
            }
        });
        Warming {
            waiting,
            arrived: Vec::new(),
            back,
            upto,
            thread: Some(thread),
        }
    }

    /// Whether pair `k` is being warmed here.
    pub(super) fn has(&self, k: usize) -> bool {
        self.waiting.contains(&k)
    }

    /// Only pairs numbered under `pairs` are warmed from now on: the
    /// design that the first pair's warm-up fixes may use fewer.
    pub(super) fn only(&self, pairs: usize) {
        self.upto.store(pairs, Ordering::Relaxed);
    }

    /// Pair `k` once its turn is done, moved onto `measuring`, and whether
    /// it is warmed at the benchmark; `None` if the thread is gone.
    pub(super) fn take(&mut self, k: usize, measuring: usize) -> Option<([Worker; 2], bool)> {
        self.waiting.retain(|&w| w != k);
        let (_, pair, warmed) = loop {
            if let Some(at) = self.arrived.iter().position(|b| b.0 == k) {
                break self.arrived.swap_remove(at);
            }
            self.arrived.push(self.back.recv().ok()?);
        };
        let moved = move_pair(&pair, &[measuring]);
        Some((pair, warmed && moved))
    }

    /// Every pair not taken with its number, after the one being warmed
    /// (the others are handed back as they are).
    pub(super) fn end(mut self) -> Vec<(usize, [Worker; 2])> {
        self.only(0);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.arrived.extend(self.back.try_iter());
        self.arrived
            .drain(..)
            .map(|(k, pair, _)| (k, pair))
            .collect()
    }
}

/// Walks both workers to `id` in `order`, then warms each up; whether all
/// of it went well.
fn walk_and_warm(pair: &mut [Worker; 2], order: [usize; 2], id: &str, limits: Limits) -> bool {
    order
        .iter()
        .all(|&s| matches!(pair[s].advance_to(id, limits.walk), Ok(true)))
        && order
            .iter()
            .all(|&s| pair[s].warm_up(limits.min, limits.max, limits.hang).is_ok())
}
