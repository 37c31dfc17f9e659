//! Measurements beyond wall time: CPU time, performance counters and
//! allocations, several at once.
//!
//! ```
//! use yardstick::meters::{parse_metrics, MeterSet};
//!
//! let metrics = parse_metrics("wall,cpu,instructions,page-faults")?;
//! let (mut meters, notes) = MeterSet::open(&metrics);
//! for note in notes {
//!     eprintln!("note: {note}"); // what this machine cannot measure, and why
//! }
//! let mut values = Vec::new();
//! for _ in 0..3 {
//!     meters.start();
//!     std::hint::black_box(vec![7u8; 1 << 16]);
//!     meters.stop();
//! }
//! meters.take(&mut values);
//! for (metric, value) in meters.metrics().iter().zip(&values) {
//!     println!("{metric}: {value} {}", metric.unit());
//! }
//! # Ok::<(), String>(())
//! ```
//!
//! # Overview
//!
//! A [`Metric`] names one thing to measure; [`parse_metrics`] reads the
//! command line's list of them. [`MeterSet::open`] opens what a list needs
//! and says in words what cannot be measured on this machine; the set is then
//! read with [`start`](MeterSet::start) and [`stop`](MeterSet::stop) around
//! each measured interval, and [`take`](MeterSet::take) hands over one total
//! per metric per sample.
//!
//! | metrics | source | where |
//! | --- | --- | --- |
//! | `wall` | [`Instant`](std::time::Instant) (monotonic clock) | everywhere |
//! | `cpu`, `thread-cpu` | `clock_gettime(CLOCK_PROCESS_CPUTIME_ID / CLOCK_THREAD_CPUTIME_ID)` | Unix |
//! | `instructions`, `cycles`, `branches`, `branch-misses`, `cache-references`, `cache-misses` | hardware events of `perf_event_open`, user space only | Linux with a PMU the kernel exposes (not most VMs) |
//! | `task-clock`, `context-switches`, `cpu-migrations`, `page-faults` | software events of `perf_event_open` | Linux |
//! | `allocations`, `deallocations`, `reallocations`, `allocated-bytes`, `peak-live-bytes` | [`CountingAllocator`], installed as the global allocator | everywhere |
//!
//! Besides, [`clock_resolution`] and [`cpu_clock_resolution`] measure how
//! fine the clocks are, and [`peak_rss`] reads the process's peak resident
//! memory.
//!
//! # Honest values
//!
//! A metric this machine cannot measure is left out of the set with a note;
//! it never reads as zero. The counters are opened as one group and read
//! with one system call, so their values cover the same interval; see
//! [`MeterSet`] for the reading order and multiplexing.

mod alloc;
mod clock;
#[cfg(unix)]
mod errno;
mod metric;
mod perf;
mod resolution;
mod set;
#[cfg(test)]
mod tests;

pub(crate) use alloc::snapshot as alloc_snapshot;
pub(crate) use alloc::snapshot_and_reset_peak as alloc_snapshot_and_reset_peak;
pub(crate) use alloc::AllocSnapshot;
pub use alloc::CountingAllocator;
pub use clock::peak_rss;
pub(crate) use clock::CpuClock;
pub use metric::{parse_metrics, Metric};
pub use resolution::{clock_resolution, cpu_clock_resolution};
pub use set::MeterSet;
