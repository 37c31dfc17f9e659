//! The hardware counters of the table (`ins/op`, `cyc/op`, `IPC`, `bra/op`,
//! `miss%`), read around every epoch with [`crate::meters`].
//!
//! The counters are opened once per [`Bench`](super::Bench), on its first
//! run with counters on. What this machine cannot count is left out, the
//! table shows `-` for it, and the reason is said once per process, before
//! the first table that lacks a counter.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::meters::{MeterSet, Metric};

use super::result::Counters;

/// The counters of the table, in the order of [`Counters`]' fields.
const WANTED: [Metric; 4] = [
    Metric::Instructions,
    Metric::Cycles,
    Metric::Branches,
    Metric::BranchMisses,
];

/// The open counters of one builder.
#[derive(Debug)]
pub(super) struct EpochCounters {
    set: MeterSet,
    values: Vec<f64>,
    notes: Vec<String>,
}

impl EpochCounters {
    /// Opens the counters the table shows, on the calling thread.
    pub(super) fn open() -> EpochCounters {
        let (set, notes) = MeterSet::open(&WANTED);
        EpochCounters {
            values: Vec::with_capacity(set.metrics().len()),
            set,
            notes,
        }
    }

    /// The sentence saying what cannot be counted here, the first time a
    /// caller in this process asks; `None` afterwards or when every counter
    /// works.
    pub(super) fn note_once(&self) -> Option<String> {
        static SAID: AtomicBool = AtomicBool::new(false);
        if self.notes.is_empty() || SAID.swap(true, Ordering::Relaxed) {
            return None;
        }
        Some(format!(
            "Note: {}; the table shows `-` for what cannot be counted.\n",
            self.notes.join("; ")
        ))
    }

    /// Starts counting an epoch.
    #[inline]
    pub(super) fn start(&mut self) {
        self.set.start();
    }

    /// Stops counting the epoch of `iterations` and returns its counters
    /// per iteration; a counter that is not measured, or could not be read
    /// this time, is `None`.
    #[inline]
    pub(super) fn stop(&mut self, iterations: u64) -> Counters {
        self.set.stop();
        self.values.clear();
        self.set.take(&mut self.values);
        let per_iteration = |metric: Metric| {
            let at = self.set.metrics().iter().position(|m| *m == metric)?;
            let total = self.values[at];
            total.is_finite().then(|| total / iterations.max(1) as f64)
        };
        Counters {
            instructions: per_iteration(Metric::Instructions),
            cycles: per_iteration(Metric::Cycles),
            branches: per_iteration(Metric::Branches),
            branch_misses: per_iteration(Metric::BranchMisses),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_measured_or_absent_never_zero_for_missing() {
        let mut c = EpochCounters::open();
        c.start();
        std::hint::black_box((0..10_000_u64).sum::<u64>());
        let counters = c.stop(10_000);
        for (metric, value) in WANTED.iter().zip([
            counters.instructions,
            counters.cycles,
            counters.branches,
            counters.branch_misses,
        ]) {
            if c.set.metrics().contains(metric) {
                // Measured: a number (possibly None if unreadable this time).
                assert!(value.map_or(true, f64::is_finite));
            } else {
                assert_eq!(value, None, "{metric:?} is not measured here");
            }
        }
        // A missing counter comes with its reason.
        assert_eq!(c.set.metrics().len() < WANTED.len(), !c.notes.is_empty());
    }
}
