//! What can be measured, and how the command line names it.

use std::fmt;

/// One thing to measure besides (or instead of) the primary measurement.
///
/// Every metric has a command-line [name](Metric::name) and a
/// [unit](Metric::unit). Values are totals over a sample's iterations, except
/// [`PeakLiveBytes`](Metric::PeakLiveBytes), a maximum (see
/// [`Metric::is_additive`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    /// Wall-clock time from the monotonic clock, in nanoseconds.
    Wall,
    /// CPU time of the whole process (`CLOCK_PROCESS_CPUTIME_ID`): every
    /// thread's user and system time, in nanoseconds.
    CpuProcess,
    /// CPU time of the measuring thread (`CLOCK_THREAD_CPUTIME_ID`), in
    /// nanoseconds.
    CpuThread,
    /// Instructions retired in user space (hardware counter).
    Instructions,
    /// CPU cycles in user space (hardware counter).
    Cycles,
    /// Branch instructions retired (hardware counter).
    Branches,
    /// Mispredicted branches (hardware counter).
    BranchMisses,
    /// Last-level cache accesses (hardware counter).
    CacheReferences,
    /// Last-level cache misses (hardware counter).
    CacheMisses,
    /// Time the measuring thread was on a CPU, counted by the kernel
    /// (software counter), in nanoseconds.
    TaskClock,
    /// Context switches of the measuring thread (software counter).
    ContextSwitches,
    /// Moves of the measuring thread to another CPU (software counter).
    CpuMigrations,
    /// Page faults of the measuring thread (software counter).
    PageFaults,
    /// Calls to `alloc` and `alloc_zeroed` on the measuring thread
    /// (needs [`CountingAllocator`](super::CountingAllocator)).
    Allocations,
    /// Calls to `dealloc` on the measuring thread.
    Deallocations,
    /// Calls to `realloc` on the measuring thread.
    Reallocations,
    /// Bytes requested by allocations plus the growth of reallocations
    /// (shrinking reallocations add nothing), so a buffer grown by
    /// reallocation counts its final size once.
    AllocatedBytes,
    /// The highest number of live bytes during a measured interval, above the
    /// number live when it started.
    PeakLiveBytes,
}

impl Metric {
    /// Every metric, in the order of the command line's list.
    pub const ALL: [Metric; 18] = [
        Metric::Wall,
        Metric::CpuProcess,
        Metric::CpuThread,
        Metric::Instructions,
        Metric::Cycles,
        Metric::Branches,
        Metric::BranchMisses,
        Metric::CacheReferences,
        Metric::CacheMisses,
        Metric::TaskClock,
        Metric::ContextSwitches,
        Metric::CpuMigrations,
        Metric::PageFaults,
        Metric::Allocations,
        Metric::Deallocations,
        Metric::Reallocations,
        Metric::AllocatedBytes,
        Metric::PeakLiveBytes,
    ];

    /// The metrics the name `allocs` stands for: the last five.
    pub const ALLOCS: [Metric; 5] = Metric::run_of(Metric::Allocations);

    /// The metrics the name `counters` stands for: every perf event, the
    /// ten from [`Instructions`](Metric::Instructions) on.
    pub const COUNTERS: [Metric; 10] = Metric::run_of(Metric::Instructions);

    /// `N` metrics of [`ALL`](Metric::ALL) from `first` on (`ALL` lists the
    /// metrics in the order they are declared in).
    const fn run_of<const N: usize>(first: Metric) -> [Metric; N] {
        let mut out = [first; N];
        let mut i = 0;
        while i < N {
            out[i] = Metric::ALL[first as usize + i];
            i += 1;
        }
        out
    }

    /// The name on the command line and in output, e.g. `thread-cpu`.
    pub fn name(&self) -> &'static str {
        match self {
            Metric::Wall => "wall",
            Metric::CpuProcess => "cpu",
            Metric::CpuThread => "thread-cpu",
            Metric::Instructions => "instructions",
            Metric::Cycles => "cycles",
            Metric::Branches => "branches",
            Metric::BranchMisses => "branch-misses",
            Metric::CacheReferences => "cache-references",
            Metric::CacheMisses => "cache-misses",
            Metric::TaskClock => "task-clock",
            Metric::ContextSwitches => "context-switches",
            Metric::CpuMigrations => "cpu-migrations",
            Metric::PageFaults => "page-faults",
            Metric::Allocations => "allocations",
            Metric::Deallocations => "deallocations",
            Metric::Reallocations => "reallocations",
            Metric::AllocatedBytes => "allocated-bytes",
            Metric::PeakLiveBytes => "peak-live-bytes",
        }
    }

    /// The unit of the values: `ns` for the times, `bytes` for memory, and
    /// the counted thing otherwise (`instructions`, `misses`, `allocations`).
    pub fn unit(&self) -> &'static str {
        match self {
            Metric::Wall | Metric::CpuProcess | Metric::CpuThread | Metric::TaskClock => "ns",
            Metric::Instructions => "instructions",
            Metric::Cycles => "cycles",
            Metric::Branches => "branches",
            Metric::BranchMisses | Metric::CacheMisses => "misses",
            Metric::CacheReferences => "references",
            Metric::ContextSwitches => "switches",
            Metric::CpuMigrations => "migrations",
            Metric::PageFaults => "faults",
            Metric::Allocations => "allocations",
            Metric::Deallocations => "deallocations",
            Metric::Reallocations => "reallocations",
            Metric::AllocatedBytes | Metric::PeakLiveBytes => "bytes",
        }
    }

    /// Whether the values of several intervals add up (and so divide by the
    /// iteration count). Only [`PeakLiveBytes`](Metric::PeakLiveBytes) is not
    /// additive: the value of several intervals is their maximum.
    pub fn is_additive(&self) -> bool {
        !matches!(self, Metric::PeakLiveBytes)
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The group names `parse_metrics` accepts besides each metric's own name.
const GROUPS: [&str; 3] = ["allocs", "counters", "all"];

/// Parses a comma-separated list of metrics as the command line gives it,
/// e.g. `wall,cpu,instructions,allocs`.
///
/// Each item is a metric's [name](Metric::name) (`wall`, `cpu` for the
/// process's CPU time, `thread-cpu`, `instructions`, `cycles`, `branches`,
/// `branch-misses`, `cache-references`, `cache-misses`, `task-clock`,
/// `context-switches`, `cpu-migrations`, `page-faults`, `allocations`,
/// `deallocations`, `reallocations`, `allocated-bytes`, `peak-live-bytes`) or
/// a group: `allocs` (every allocation metric), `counters` (every perf
/// event) or `all`. Case and spaces around items are ignored; a metric named
/// twice is kept once, where it first appears.
///
/// # Errors
///
/// One line naming the first bad item (or the empty list) and listing the
/// valid names.
///
/// # Examples
///
/// ```
/// use yardstick::meters::{parse_metrics, Metric};
///
/// let metrics = parse_metrics("wall, cpu,allocs")?;
/// assert_eq!(metrics[..3], [Metric::Wall, Metric::CpuProcess, Metric::Allocations]);
/// assert!(parse_metrics("wall,ram").unwrap_err().contains("`ram`"));
/// # Ok::<(), String>(())
/// ```
pub fn parse_metrics(list: &str) -> Result<Vec<Metric>, String> {
    let mut metrics = Vec::new();
    let mut add = |m: Metric| {
        if !metrics.contains(&m) {
            metrics.push(m);
        }
    };
    for raw in list.split(',') {
        let item = raw.trim().to_ascii_lowercase();
        match item.as_str() {
            "" => {
                return Err(format!(
                    "empty item in metric list `{list}`; {}",
                    valid_names()
                ))
            }
            "allocs" => Metric::ALLOCS.into_iter().for_each(&mut add),
            "counters" => Metric::COUNTERS.into_iter().for_each(&mut add),
            "all" => Metric::ALL.into_iter().for_each(&mut add),
            name => match Metric::ALL.into_iter().find(|m| m.name() == name) {
                Some(m) => add(m),
                None => {
                    return Err(format!(
                        "unknown metric `{}`; {}",
                        raw.trim(),
                        valid_names()
                    ))
                }
            },
        }
    }
    Ok(metrics)
}

fn valid_names() -> String {
    let names: Vec<&str> = Metric::ALL.iter().map(Metric::name).chain(GROUPS).collect();
    format!("valid metrics: {}", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_groups_are_the_metrics_their_names_say() {
        for (i, m) in Metric::ALL.into_iter().enumerate() {
            assert_eq!(m as usize, i, "ALL lists the metrics in declaration order");
        }
        assert_eq!(Metric::ALLOCS[0], Metric::Allocations);
        assert_eq!(Metric::ALLOCS[4], Metric::PeakLiveBytes);
        assert_eq!(Metric::COUNTERS[0], Metric::Instructions);
        assert_eq!(Metric::COUNTERS[9], Metric::PageFaults);
    }

    #[test]
    fn every_name_parses_back_to_its_metric() {
        for m in Metric::ALL {
            assert_eq!(parse_metrics(m.name()), Ok(vec![m]), "{m}");
        }
    }

    #[test]
    fn groups_expand_in_order_without_duplicates() {
        let got = parse_metrics("page-faults, COUNTERS,wall,allocs,wall").unwrap();
        let mut want = vec![Metric::PageFaults];
        want.extend(
            Metric::COUNTERS
                .iter()
                .filter(|m| **m != Metric::PageFaults),
        );
        want.push(Metric::Wall);
        want.extend(Metric::ALLOCS);
        assert_eq!(got, want);
        assert_eq!(parse_metrics("all").unwrap(), Metric::ALL);
        assert_eq!(parse_metrics("cpu").unwrap(), [Metric::CpuProcess]);
    }

    #[test]
    fn errors_name_the_bad_item_and_list_the_valid_ones() {
        let err = parse_metrics("wall,Cycels,cpu").unwrap_err();
        assert!(err.starts_with("unknown metric `Cycels`;"), "{err}");
        for name in [
            "wall",
            "thread-cpu",
            "cache-misses",
            "allocs",
            "counters",
            "all",
        ] {
            assert!(err.contains(name), "{err} lacks {name}");
        }
        let err = parse_metrics("wall,,cpu").unwrap_err();
        assert!(
            err.starts_with("empty item in metric list `wall,,cpu`"),
            "{err}"
        );
        assert!(parse_metrics("").unwrap_err().starts_with("empty item"));
    }

    #[test]
    fn units_and_additivity() {
        assert_eq!(Metric::CpuThread.unit(), "ns");
        assert_eq!(Metric::AllocatedBytes.unit(), "bytes");
        assert_eq!(Metric::Instructions.unit(), "instructions");
        assert!(Metric::AllocatedBytes.is_additive());
        assert!(!Metric::PeakLiveBytes.is_additive());
    }
}
