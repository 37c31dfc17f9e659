//! The meters for a list of metrics, read together around samples.

use std::marker::PhantomData;
use std::time::Instant;

use super::alloc::{self, AllocSnapshot};
use super::clock::CpuClock;
use super::perf::{self, Coverage, PerfGroup};
use super::Metric;

/// The meters for a list of metrics, opened once and read around every
/// sample.
///
/// ```
/// use yardstick::meters::{MeterSet, Metric};
///
/// let (mut meters, notes) = MeterSet::open(&[Metric::Wall, Metric::CpuThread, Metric::Cycles]);
/// for note in &notes {
///     eprintln!("note: {note}"); // e.g. cycles are not supported here
/// }
/// let mut values = Vec::new();
/// meters.start();
/// std::hint::black_box((0..1000u64).sum::<u64>());
/// meters.stop();
/// meters.take(&mut values);
/// assert_eq!(values.len(), meters.metrics().len());
/// ```
///
/// # Reading order
///
/// [`start`](Self::start) reads the sources from the costliest to the
/// cheapest (allocation counters, the counter group, the CPU clocks, the wall
/// clock) and [`stop`](Self::stop) in the reverse order, so each source's
/// interval encloses the reads of the sources inside it: the wall time
/// contains no system call of the meters, while the counters and CPU times
/// include the few nanoseconds of the clock reads inside them. That cost is
/// the same for every sample, which a slope over samples of different
/// iteration counts removes.
///
/// # Cost
///
/// Per sample, not per iteration: two reads of each source. The wall clock
/// and the allocation counters cost nanoseconds; each CPU clock is a system
/// call per read, and the counter group is one `read` system call per read
/// however many events it holds (the `alloc_overhead` bench prints the
/// figures of the machine it runs on). [`start`](Self::start) and
/// [`stop`](Self::stop) allocate nothing, so they never show in the
/// allocation metrics.
///
/// # Threads
///
/// CPU time of the thread, the counters and the allocation counts all
/// follow the thread that opened the set, so a `MeterSet` cannot be sent to
/// another thread. Work a benchmark hands to other threads shows only in
/// [`Metric::Wall`] and [`Metric::CpuProcess`]. Two sets measuring
/// [`Metric::PeakLiveBytes`] on one thread at the same time disturb each
/// other's peak.
///
/// # Missing values
///
/// A value [`take`](Self::take) returns is NaN when its source could not be
/// read during one of the intervals (a clock or counter read failed, or the
/// counter group was never scheduled). Counters multiplexed with other
/// events are scaled to the whole interval; [`multiplexed`](Self::multiplexed)
/// counts those intervals.
#[derive(Debug)]
pub struct MeterSet {
    metrics: Vec<Metric>,
    totals: Vec<f64>,
    running: bool,
    wall: Option<usize>,
    wall_start: Instant,
    cpu_process: Option<(usize, u64)>,
    cpu_thread: Option<(usize, u64)>,
    perf: Option<PerfMeter>,
    alloc: Option<AllocMeter>,
    /// The sources follow the opening thread.
    _not_send: PhantomData<*const ()>,
}

#[derive(Debug)]
struct PerfMeter {
    group: PerfGroup,
    /// The output position of each group position.
    at: Vec<usize>,
    start: Vec<u64>,
    end: Vec<u64>,
    deltas: Vec<f64>,
    start_ok: bool,
    multiplexed: u64,
}

#[derive(Debug)]
struct AllocMeter {
    /// Output positions of allocations, deallocations, reallocations,
    /// allocated bytes and peak live bytes.
    at: [Option<usize>; 5],
    start: AllocSnapshot,
}

impl MeterSet {
    /// Opens the meters for `metrics` (duplicates are measured once) on the
    /// calling thread.
    ///
    /// Returns the set, measuring what can be measured here in the order
    /// asked, and one note per reason something cannot be, e.g. "hardware
    /// counters (instructions, cycles) are not supported on this machine
    /// (perf_event_open: ENOENT)". Printing each note once per process is the
    /// caller's job. A metric that cannot be measured is left out of
    /// [`metrics`](Self::metrics); it never reads as zero.
    pub fn open(metrics: &[Metric]) -> (MeterSet, Vec<String>) {
        let mut wanted: Vec<Metric> = Vec::new();
        for m in metrics {
            if !wanted.contains(m) {
                wanted.push(*m);
            }
        }
        let mut notes = Vec::new();
        cpu_notes(&mut wanted, &mut notes);

        let (group, perf_notes) = perf::open(&wanted);
        notes.extend(perf_notes);
        let counted: &[Metric] = group.as_ref().map_or(&[], PerfGroup::metrics);
        wanted.retain(|m| !perf::is_counter(*m) || counted.contains(m));

        let wants_allocs = wanted.iter().any(|m| Metric::ALLOCS.contains(m));
        if wants_allocs && !alloc::is_installed() {
            let names: Vec<&str> = wanted
                .iter()
                .filter(|m| Metric::ALLOCS.contains(m))
                .map(Metric::name)
                .collect();
            notes.push(format!(
                "allocation metrics ({}) need yardstick's counting allocator: add \
                 `#[global_allocator] static ALLOC: yardstick::meters::CountingAllocator = \
                 yardstick::meters::CountingAllocator::system();` to the bench file",
                names.join(", ")
            ));
            wanted.retain(|m| !Metric::ALLOCS.contains(m));
        }

        let at = |m: Metric| wanted.iter().position(|w| *w == m);
        let perf = group.map(|group| {
            let n = group.buffer_len();
            PerfMeter {
                at: group
                    .metrics()
                    .iter()
                    .map(|m| at(*m).expect("kept above"))
                    .collect(),
                deltas: vec![0.0; group.metrics().len()],
                start: vec![0; n],
                end: vec![0; n],
                start_ok: false,
                multiplexed: 0,
                group,
            }
        });
        let alloc_at = Metric::ALLOCS.map(at);
        let set = MeterSet {
            totals: vec![0.0; wanted.len()],
            running: false,
            wall: at(Metric::Wall),
            wall_start: Instant::now(),
            cpu_process: at(Metric::CpuProcess).map(|i| (i, 0)),
            cpu_thread: at(Metric::CpuThread).map(|i| (i, 0)),
            perf,
            alloc: alloc_at.iter().any(Option::is_some).then(|| AllocMeter {
                at: alloc_at,
                start: AllocSnapshot::default(),
            }),
            metrics: wanted,
            _not_send: PhantomData,
        };
        (set, notes)
    }

    /// The metrics actually measured, in the order of [`take`](Self::take)'s
    /// values.
    pub fn metrics(&self) -> &[Metric] {
        &self.metrics
    }

    /// Whether nothing is measured.
    pub fn is_empty(&self) -> bool {
        self.metrics.is_empty()
    }

    /// Counter intervals (since opening) during which the counter group was
    /// multiplexed with other events and its values were scaled.
    pub fn multiplexed(&self) -> u64 {
        self.perf.as_ref().map_or(0, |p| p.multiplexed)
    }

    /// Starts an interval: reads every source. Allocates nothing.
    #[inline]
    pub fn start(&mut self) {
        if let Some(a) = &mut self.alloc {
            a.start = alloc::snapshot_and_reset_peak();
        }
        if let Some(p) = &mut self.perf {
            p.start_ok = p.group.read(&mut p.start);
        }
        if let Some((_, t)) = &mut self.cpu_process {
            *t = CpuClock::Process.now_ns().unwrap_or(u64::MAX);
        }
        if let Some((_, t)) = &mut self.cpu_thread {
            *t = CpuClock::Thread.now_ns().unwrap_or(u64::MAX);
        }
        self.running = true;
        if self.wall.is_some() {
            self.wall_start = Instant::now();
        }
    }

    /// Ends the interval [`start`](Self::start) began: reads every source
    /// again and adds the differences to the running totals. Allocates
    /// nothing. Without a matching `start` it does nothing.
    #[inline]
    pub fn stop(&mut self) {
        if !std::mem::replace(&mut self.running, false) {
            return;
        }
        if let Some(i) = self.wall {
            self.totals[i] += self.wall_start.elapsed().as_nanos() as f64;
        }
        if let Some((i, start)) = self.cpu_thread {
            self.totals[i] += cpu_delta(CpuClock::Thread, start);
        }
        if let Some((i, start)) = self.cpu_process {
            self.totals[i] += cpu_delta(CpuClock::Process, start);
        }
        if let Some(p) = &mut self.perf {
            let coverage = if p.start_ok && p.group.read(&mut p.end) {
                perf::deltas(&p.start, &p.end, &mut p.deltas)
            } else {
                p.deltas.fill(f64::NAN);
                Coverage::None
            };
            if coverage == Coverage::Scaled {
                p.multiplexed += 1;
            }
            for (i, d) in p.at.iter().zip(&p.deltas) {
                self.totals[*i] += d;
            }
        }
        if let Some(a) = &self.alloc {
            let (s, e) = (a.start, alloc::snapshot());
            let values = [
                e.allocations.wrapping_sub(s.allocations) as f64,
                e.deallocations.wrapping_sub(s.deallocations) as f64,
                e.reallocations.wrapping_sub(s.reallocations) as f64,
                e.allocated_bytes.wrapping_sub(s.allocated_bytes) as f64,
            ];
            for (at, v) in a.at.iter().zip(values) {
                if let Some(i) = at {
                    self.totals[*i] += v;
                }
            }
            if let Some(i) = a.at[4] {
                let peak = e.peak_live_bytes.wrapping_sub(s.live_bytes).max(0) as f64;
                self.totals[i] = self.totals[i].max(peak);
            }
        }
    }

    /// Pushes one value per metric (in [`metrics`](Self::metrics) order) to
    /// `out`: the sum over the intervals since the last `take` (the maximum
    /// for [`Metric::PeakLiveBytes`]); then starts the totals afresh.
    pub fn take(&mut self, out: &mut Vec<f64>) {
        out.extend_from_slice(&self.totals);
        self.totals.fill(0.0);
    }
}

/// Nanoseconds of CPU time since `start`, NaN when a read failed.
#[inline]
fn cpu_delta(clock: CpuClock, start: u64) -> f64 {
    match clock.now_ns() {
        Ok(end) if start != u64::MAX => end.saturating_sub(start) as f64,
        _ => f64::NAN,
    }
}

/// Leaves out the CPU clocks that cannot be read, with a note.
fn cpu_notes(wanted: &mut Vec<Metric>, notes: &mut Vec<String>) {
    let mut failed: Vec<(Metric, &str)> = Vec::new();
    for (m, clock) in [
        (Metric::CpuProcess, CpuClock::Process),
        (Metric::CpuThread, CpuClock::Thread),
    ] {
        if wanted.contains(&m) {
            if let Err(why) = clock.now_ns() {
                failed.push((m, why));
            }
        }
    }
    if failed.is_empty() {
        return;
    }
    wanted.retain(|m| !failed.iter().any(|(f, _)| f == m));
    let names: Vec<&str> = failed.iter().map(|(m, _)| m.name()).collect();
    let names = names.join(", ");
    if cfg!(unix) {
        let why: Vec<&str> = failed.iter().map(|(_, w)| *w).collect();
        notes.push(format!(
            "CPU time ({names}) cannot be read here (clock_gettime: {})",
            why.join(", ")
        ));
    } else {
        notes.push(format!(
            "CPU time ({names}) is measured only on Unix-like systems"
        ));
    }
}
