//! Opening the requested events as one group, and reading it.

use super::notes::{self, Failure};
use super::sys::{self, Event, EventSpec};
use super::{is_counter, is_hardware};
use crate::meters::Metric;

/// The open counter group of the calling thread.
#[derive(Debug)]
pub(crate) struct PerfGroup {
    leader: Event,
    /// Kept open for as long as the group is read.
    _members: Vec<Event>,
    /// The events in group order (the order of the values of a read).
    metrics: Vec<Metric>,
}

impl PerfGroup {
    /// The counted events, in the order of a read's values.
    pub(crate) fn metrics(&self) -> &[Metric] {
        &self.metrics
    }

    /// The length of the buffer [`read`](Self::read) fills.
    pub(crate) fn buffer_len(&self) -> usize {
        3 + self.metrics.len()
    }

    /// Reads the group (`[nr, time_enabled, time_running, values…]`) with one
    /// system call; false when the read fails.
    #[inline]
    pub(crate) fn read(&self, buf: &mut [u64]) -> bool {
        self.leader.read_group(buf) && buf[0] == self.metrics.len() as u64
    }
}

impl Drop for PerfGroup {
    fn drop(&mut self) {
        // Closing the descriptors frees the events; disabling first only stops
        // the counting a moment earlier, so a failure here changes nothing.
        let _ = self.leader.disable_group();
    }
}

/// Opens the counters among `requested` as one group on the calling thread
/// and enables it. Events that cannot be opened are left out, each cause
/// explained by one note.
///
/// Hardware events count user space only (`exclude_kernel`, `exclude_hv`),
/// as nanobench does, falling back to counting everything where the PMU
/// cannot filter (`EINVAL`). Software events count everything the thread
/// causes, kernel included: context switches and migrations happen in the
/// kernel and would always read zero otherwise. When `perf_event_paranoid`
/// forbids kernel counting (2, for a user without `CAP_PERFMON`), task-clock
/// (which counts time on CPU either way) and page faults (then user-mode
/// faults only, with a note) fall back to user space; context switches and
/// migrations are left out with a note.
pub(crate) fn open(requested: &[Metric]) -> (Option<PerfGroup>, Vec<String>) {
    let order: Vec<Metric> = requested
        .iter()
        .copied()
        .filter(|m| is_counter(*m))
        .collect();
    if order.is_empty() {
        return (None, Vec::new());
    }
    // Hardware first, so that a hardware event leads the group; each kind
    // keeps its order.
    let (mut order, software): (Vec<_>, Vec<_>) = order.into_iter().partition(|m| is_hardware(*m));
    order.extend(software);

    let paranoid = notes::paranoid();
    let mut leader: Option<Event> = None;
    let mut members = Vec::new();
    let mut metrics = Vec::new();
    let mut failures = Vec::new();
    let mut kernel_included = Vec::new();
    let mut user_faults_only = false;

    for m in order {
        match open_one(m, leader.as_ref()) {
            Ok((event, excluded_kernel)) => {
                if is_hardware(m) && !excluded_kernel {
                    kernel_included.push(m);
                }
                if m == Metric::PageFaults && excluded_kernel {
                    user_faults_only = true;
                }
                if leader.is_none() {
                    leader = Some(event);
                } else {
                    members.push(event);
                }
                metrics.push(m);
            }
            Err(errno) => failures.push(Failure { metric: m, errno }),
        }
    }

    let mut notes = notes::failures(&failures, paranoid);
    if !kernel_included.is_empty() {
        notes.push(notes::kernel_included(&kernel_included));
    }
    if user_faults_only {
        notes.push(notes::user_faults_only(paranoid));
    }
    let Some(leader) = leader else {
        return (None, notes);
    };
    let group = PerfGroup {
        leader,
        _members: members,
        metrics,
    };
    if let Err(errno) = group.leader.enable_group() {
        let names: Vec<&str> = group.metrics.iter().map(Metric::name).collect();
        notes.push(format!(
            "counters ({}) could not be enabled (ioctl: {})",
            names.join(", "),
            crate::meters::errno::name(errno)
        ));
        return (None, notes);
    }
    let mut buf = vec![0; group.buffer_len()];
    if !group.read(&mut buf) {
        let names: Vec<&str> = group.metrics.iter().map(Metric::name).collect();
        notes.push(format!(
            "counters ({}) could not be read ({})",
            names.join(", "),
            crate::meters::errno::last_name()
        ));
        return (None, notes);
    }
    (Some(group), notes)
}

/// Opens one event with the attempts its kind allows; returns it with
/// whether it leaves kernel work out, or the first attempt's `errno`.
fn open_one(m: Metric, leader: Option<&Event>) -> Result<(Event, bool), i32> {
    let (kind, config) = event_of(m);
    let attempt = |exclude_kernel| {
        Event::open(
            EventSpec {
                kind,
                config,
                exclude_kernel,
            },
            leader,
        )
        .map(|e| (e, exclude_kernel))
    };
    if is_hardware(m) {
        attempt(true).or_else(|e| {
            if e == libc::EINVAL {
                attempt(false).map_err(|_| e)
            } else {
                Err(e)
            }
        })
    } else {
        attempt(false).or_else(|e| {
            let user_mode_is_enough = matches!(m, Metric::TaskClock | Metric::PageFaults);
            if user_mode_is_enough && (e == libc::EACCES || e == libc::EPERM) {
                attempt(true).map_err(|_| e)
            } else {
                Err(e)
            }
        })
    }
}

/// The perf type and config of a counter metric.
fn event_of(m: Metric) -> (u32, u64) {
    use sys::{TYPE_HARDWARE as HW, TYPE_SOFTWARE as SW};
    match m {
        Metric::Instructions => (HW, sys::HW_INSTRUCTIONS),
        Metric::Cycles => (HW, sys::HW_CPU_CYCLES),
        Metric::Branches => (HW, sys::HW_BRANCH_INSTRUCTIONS),
        Metric::BranchMisses => (HW, sys::HW_BRANCH_MISSES),
        Metric::CacheReferences => (HW, sys::HW_CACHE_REFERENCES),
        Metric::CacheMisses => (HW, sys::HW_CACHE_MISSES),
        Metric::TaskClock => (SW, sys::SW_TASK_CLOCK),
        Metric::ContextSwitches => (SW, sys::SW_CONTEXT_SWITCHES),
        Metric::CpuMigrations => (SW, sys::SW_CPU_MIGRATIONS),
        Metric::PageFaults => (SW, sys::SW_PAGE_FAULTS),
        other => unreachable!("{other} is not a perf event"),
    }
}
