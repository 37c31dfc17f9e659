//! The state of the machine a run was made on, and `cargo yardstick doctor
//! --format json`: how noisy this machine is for benchmarks.
//!
//! [`MachineState`] is what every recorded run keeps (the history's
//! optional `state`, [`crate::history::ExportedRun`]) and what doctor
//! reads before it measures. A value that could not be read is `null`,
//! never guessed. Schema: `schemas/doctor.v1.json` (the state is its
//! `$defs/state`, which `schemas/history-run.v1.json` repeats).

/// The version of doctor's document (and of its schema file).
pub const VERSION: u32 = 1;

/// What a run records of the machine's state, over the run (`load_*`,
/// `steal`, `busy`) or at its end (the rest). Every field is `None` when
/// it could not be read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MachineState {
    /// CPU model, from `/proc/cpuinfo`.
    pub cpu: Option<String>,
    /// Logical CPUs online.
    pub logical_cores: Option<u64>,
    /// Physical cores (distinct core ids per package).
    pub physical_cores: Option<u64>,
    /// Simultaneous multithreading: `/sys/devices/system/cpu/smt/control`
    /// (`on`, `off`, `forceoff`, `notsupported`, `notimplemented`).
    pub smt: Option<String>,
    /// The cpufreq governor; several, comma-separated, when CPUs differ.
    pub governor: Option<String>,
    /// Whether turbo/boost may raise the clock (intel_pstate `no_turbo`,
    /// cpufreq `boost`).
    pub boost: Option<bool>,
    /// The kernel's release.
    pub kernel: Option<String>,
    /// Hints of a virtual machine or container (`hypervisor flag`,
    /// `dmi: QEMU`, `cgroup`…); empty when none was seen.
    pub virtualization: Vec<String>,
    /// The cgroup's `cpu.max` as written (`max 100000`, `200000 100000`).
    pub cpu_max: Option<String>,
    /// `/sys/devices/system/cpu/isolated` (empty: none isolated).
    pub isolated_cpus: Option<String>,
    /// `/sys/devices/system/cpu/nohz_full` (empty or `(null)`: none).
    pub nohz_full: Option<String>,
    /// `/proc/sys/kernel/randomize_va_space`: 0 off, 2 full.
    pub aslr: Option<u32>,
    /// The 1-minute load average when the run began.
    pub load_start: Option<f64>,
    /// The 1-minute load average when it ended.
    pub load_end: Option<f64>,
    /// The fraction of all CPUs' time the hypervisor stole over the run.
    pub steal: Option<f64>,
    /// The fraction of all CPUs' time not idle over the run (every
    /// process, the run's own included).
    pub busy: Option<f64>,
    /// `MemAvailable`, in bytes.
    pub memory_available: Option<u64>,
    /// `MemTotal`, in bytes.
    pub memory_total: Option<u64>,
    /// `/proc/pressure/memory`'s `some avg10`: percent of the last 10 s
    /// some task waited for memory.
    pub memory_pressure: Option<f64>,
    /// `/proc/pressure/cpu`'s `some avg10`: percent of the last 10 s some
    /// runnable task waited for a CPU.
    pub cpu_pressure: Option<f64>,
}

crate::json_object!(MachineState {
    cpu,
    logical_cores,
    physical_cores,
    smt,
    governor,
    boost,
    kernel,
    virtualization,
    cpu_max,
    isolated_cpus,
    nohz_full,
    aslr,
    load_start,
    load_end,
    steal,
    busy,
    memory_available,
    memory_total,
    memory_pressure,
    cpu_pressure
});

/// `cargo yardstick doctor --format json`.
#[derive(Debug, Clone, PartialEq)]
pub struct DoctorReport {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The machine's name (`YARDSTICK_MACHINE`, else the host name).
    pub machine: String,
    /// Wall seconds doctor took.
    pub seconds: f64,
    /// The state read around the measuring window.
    pub state: MachineState,
    /// The clock.
    pub timer: Option<Timer>,
    /// Nanoseconds per iteration of an empty loop.
    pub empty_loop_ns: Option<f64>,
    /// The same work's time from second to second.
    pub drift: Option<DriftWindow>,
    /// Other processes that used a CPU during the window, busiest first.
    pub busy_processes: Vec<BusyProcess>,
    /// Each noise source: what was measured, what to do about it.
    pub findings: Vec<Finding>,
}

crate::json_object!(DoctorReport {
    version,
    machine,
    seconds,
    state,
    timer,
    empty_loop_ns,
    drift,
    busy_processes,
    findings
});

/// The clock benchmarks read (`Instant::now`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timer {
    /// The smallest step between two readings that differ, in ns.
    pub resolution_ns: f64,
    /// What one reading costs, in ns.
    pub overhead_ns: f64,
}

crate::json_object!(Timer {
    resolution_ns,
    overhead_ns
});

/// One fixed piece of work timed over and over for a few seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct DriftWindow {
    /// The work's median time over the window, in ns.
    pub work_ns: f64,
    /// Each second's median, in ns.
    pub medians_ns: Vec<f64>,
    /// `max / min − 1` of the medians (0.02 = 2 %).
    pub relative_range: f64,
    /// Standard deviation of the medians over their mean.
    pub relative_sd: f64,
    /// What `relative_range` is, in words.
    pub definition: String,
    /// The fraction of CPU time stolen in each second (`null`: unreadable).
    pub steal: Vec<Option<f64>>,
    /// The length of the short windows the work was also grouped into, in
    /// ns (a lock-step round's); `None` in files of older doctors.
    pub window_ns: Option<f64>,
    /// The share of those windows more than 5 % slower than the fastest.
    pub windows_slowed: Option<f64>,
    /// The median window over the fastest, less 1.
    pub window_median_excess: Option<f64>,
}

crate::json_object!(DriftWindow {
    work_ns,
    medians_ns,
    relative_range,
    relative_sd,
    definition,
    steal,
    window_ns,
    windows_slowed,
    window_median_excess
});

/// A process that used CPU time during the window.
#[derive(Debug, Clone, PartialEq)]
pub struct BusyProcess {
    /// Its id.
    pub pid: u32,
    /// Its command name.
    pub name: String,
    /// CPUs it kept busy on average (1.0 = one whole CPU).
    pub cpus: f64,
}

crate::json_object!(BusyProcess { pid, name, cpus });

/// One source of noise as doctor judges it.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// What it is (`governor`, `drift`…).
    pub source: String,
    /// `ok`, `noisy` or `unknown`.
    pub status: String,
    /// What was measured or read, in words.
    pub measured: String,
    /// What a user can do, when there is something.
    pub advice: Option<String>,
    /// The command that does it, when there is one.
    pub command: Option<String>,
    /// What yardstick already does about it, when it does something.
    pub yardstick: Option<String>,
}

crate::json_object!(Finding {
    source,
    status,
    measured,
    advice,
    command,
    yardstick
});
