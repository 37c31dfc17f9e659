//! Where there is no `perf_event_open`: every counter is left out, with a note.

use super::is_counter;
use crate::meters::Metric;

/// Never constructed off Linux.
#[derive(Debug)]
pub(crate) enum PerfGroup {}

impl PerfGroup {
    pub(crate) fn metrics(&self) -> &[Metric] {
        match *self {}
    }

    pub(crate) fn buffer_len(&self) -> usize {
        match *self {}
    }

    pub(crate) fn read(&self, _: &mut [u64]) -> bool {
        match *self {}
    }
}

/// Leaves every counter out, with one note naming them.
pub(crate) fn open(requested: &[Metric]) -> (Option<PerfGroup>, Vec<String>) {
    let names: Vec<&str> = requested
        .iter()
        .filter(|m| is_counter(**m))
        .map(Metric::name)
        .collect();
    if names.is_empty() {
        return (None, Vec::new());
    }
    let note = format!(
        "performance counters ({}) are measured only on Linux (perf_event_open)",
        names.join(", ")
    );
    (None, vec![note])
}
