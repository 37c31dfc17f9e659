//! The machine's state, read from `/proc` and `/sys`: the one home of these
//! readers, which every recorded run (`bench`, `exec`) and `cargo
//! yardstick doctor` share. Every reader takes the root directory, so
//! tests point it at a folder of hand-written files; a file that is
//! missing, unreadable or garbage gives `None` (reported as unknown),
//! never a guess and never an error.

mod cpu;
pub mod procs;

use std::path::PathBuf;

use yardstick_format::doctor::MachineState;

pub use cpu::cpu_limit;
pub use procs::CpuTimes;

/// Where `/proc` and `/sys` are: `/` on a real machine.
#[derive(Debug, Clone)]
pub struct Root(PathBuf);

impl Root {
    /// This machine's.
    #[must_use]
    pub fn system() -> Root {
        Root(PathBuf::from("/"))
    }

    /// A folder standing for `/` (tests).
    #[cfg(test)]
    #[must_use]
    pub fn at(dir: &std::path::Path) -> Root {
        Root(dir.to_owned())
    }

    /// The file at `rel` (`proc/stat`) as text; `None` when it cannot be
    /// read or is not UTF-8.
    #[must_use]
    pub fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.0.join(rel)).ok()
    }

    /// The file's first line, trimmed.
    #[must_use]
    pub fn line(&self, rel: &str) -> Option<String> {
        self.read(rel)
            .map(|s| s.lines().next().unwrap_or("").trim().to_owned())
    }

    /// Whether the path exists.
    #[must_use]
    pub fn exists(&self, rel: &str) -> bool {
        self.0.join(rel).exists()
    }

    /// The names in a folder (empty when it cannot be listed).
    #[must_use]
    pub fn list(&self, rel: &str) -> Vec<String> {
        std::fs::read_dir(self.0.join(rel))
            .map(|d| {
                d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// What is read when a run begins, to be compared with its end.
#[derive(Debug, Clone, Default)]
pub struct Start {
    /// All CPUs' times (`/proc/stat`).
    pub times: Option<CpuTimes>,
    /// The 1-minute load average.
    pub load: Option<f64>,
}

impl Start {
    /// Reads them now.
    #[must_use]
    pub fn read(root: &Root) -> Start {
        Start {
            times: CpuTimes::read(root),
            load: load_average(root),
        }
    }
}

/// The machine's state now, with the load, steal and busy time since
/// `start`.
#[must_use]
pub fn state(root: &Root, start: &Start) -> MachineState {
    let info = root.read("proc/cpuinfo").unwrap_or_default();
    let (logical, physical) = cpu::cores(&info);
    let times = CpuTimes::read(root);
    let window = start
        .times
        .as_ref()
        .zip(times.as_ref())
        .and_then(|(a, b)| b.since(a));
    let mem = root.read("proc/meminfo").unwrap_or_default();
    MachineState {
        cpu: cpu::model(&info),
        logical_cores: logical,
        physical_cores: physical,
        smt: root
            .line("sys/devices/system/cpu/smt/control")
            .filter(|s| !s.is_empty()),
        governor: cpu::governor(root),
        boost: cpu::boost(root),
        kernel: root
            .line("proc/sys/kernel/osrelease")
            .filter(|s| !s.is_empty()),
        virtualization: cpu::virtualization(root, &info),
        cpu_max: cpu::cgroup_cpu_max(root),
        isolated_cpus: root.line("sys/devices/system/cpu/isolated"),
        nohz_full: root.line("sys/devices/system/cpu/nohz_full"),
        aslr: root
            .line("proc/sys/kernel/randomize_va_space")
            .and_then(|s| s.parse().ok()),
        load_start: start.load,
        load_end: load_average(root),
        steal: window.map(|w| w.steal),
        busy: window.map(|w| w.busy),
        memory_available: meminfo_bytes(&mem, "MemAvailable:"),
        memory_total: meminfo_bytes(&mem, "MemTotal:"),
        memory_pressure: pressure(root, "memory"),
        cpu_pressure: pressure(root, "cpu"),
    }
}

/// The CPU model (`/proc/cpuinfo`'s first `model name`).
#[must_use]
pub fn cpu_model(root: &Root) -> Option<String> {
    cpu::model(&root.read("proc/cpuinfo")?)
}

/// The 1-minute load average (`/proc/loadavg`).
#[must_use]
pub fn load_average(root: &Root) -> Option<f64> {
    let text = root.read("proc/loadavg")?;
    let v: f64 = text.split_whitespace().next()?.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// A `/proc/meminfo` line's value (`MemAvailable:  123 kB`), in bytes.
fn meminfo_bytes(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let mut words = line[key.len()..].split_whitespace();
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => n.checked_mul(1024),
        None => Some(n),
        Some(_) => None,
    }
}

/// `some avg10` of `/proc/pressure/<what>`, in percent.
fn pressure(root: &Root, what: &str) -> Option<f64> {
    let text = root.read(&format!("proc/pressure/{what}"))?;
    let some = text.lines().find(|l| l.starts_with("some "))?;
    let v: f64 = some
        .split_whitespace()
        .find_map(|w| w.strip_prefix("avg10="))?
        .parse()
        .ok()?;
    (v.is_finite() && (0.0..=100.0).contains(&v)).then_some(v)
}

#[cfg(test)]
mod tests;
