//! Each noise source judged from the values read and measured: what it
//! measured, what a user can do (with the command where there is one) and
//! what yardstick already does about it. No I/O: the snapshot tests feed
//! it fixed values.

use yardstick_format::doctor::{Finding, MachineState};

use super::measure::Measured;
use crate::machine::cpu_limit;

/// The fraction of CPU time stolen over the window above which doctor
/// calls the machine noisy: each stolen tick is time the benchmark was not
/// running, and a sample it falls in is that much longer.
pub const STEAL_NOISY: f64 = 0.005;

/// The drift above which doctor calls the machine noisy: changes smaller
/// than this between two runs are within what the machine does alone.
pub const DRIFT_NOISY: f64 = 0.01;

/// The share of round-long windows slowed by more than 5 % at which
/// doctor calls the machine noisy: a lock-step pair's eight rounds a side
/// then rarely all run clean, and its ratio takes the interruptions in.
pub const INTERRUPTED_NOISY: f64 = 0.25;

const INTERRUPTED_DONE: &str = "lock-step rounds are 2 ms a side, both sides' workers on one CPU, and each pair's median round ratio sets a single interrupted round aside, but interruptions this frequent slow the two sides' rounds unevenly: each pair's ratio spreads and the interval widens (on a quiet 2-core machine a side's rounds move by about 4 % and each pair's ratio by about 1 %)";

const LOCKSTEP: &str = "lock-step comparison (`cargo bench` against the baseline's binary, `cargo yardstick ab`): both sides run in alternating rounds and see the same drift";

const DRIFT_DONE: &str = "`cargo bench` compares with the baseline's binary in lock-step (AB BA rounds of both binaries as worker processes), so drift moves both sides alike, as `cargo yardstick ab` does for two revisions; `cargo yardstick calibrate` measures each benchmark's run-to-run drift for comparisons with saved numbers";

fn finding(source: &str, status: &str, measured: String) -> Finding {
    Finding {
        source: source.to_owned(),
        status: status.to_owned(),
        measured,
        advice: None,
        command: None,
        yardstick: None,
    }
}

fn unknown(source: &str, what: &str) -> Finding {
    finding(source, "unknown", format!("unknown (cannot read {what})"))
}

fn with(mut f: Finding, advice: &str, command: Option<&str>, yardstick: Option<&str>) -> Finding {
    f.advice = Some(advice.to_owned());
    f.command = command.map(str::to_owned);
    f.yardstick = yardstick.map(str::to_owned);
    f
}

/// A fraction as a percentage, with two decimals below 1 % (a quiet
/// machine's drift is a few hundredths of a percent).
fn pct(x: f64) -> String {
    if x.abs() < 0.01 {
        format!("{:.2} %", x * 100.0)
    } else {
        format!("{:.1} %", x * 100.0)
    }
}

/// Every finding, in the order they are printed.
#[must_use]
pub fn findings(s: &MachineState, m: &Measured) -> Vec<Finding> {
    vec![
        drift(m),
        interruptions(m),
        steal(s, m),
        load(s, m),
        governor(s),
        boost(s),
        smt(s),
        isolation(s),
        aslr(s),
        virtualization(s),
        cgroup(s),
        memory(s),
        timer(m),
    ]
}

fn drift(m: &Measured) -> Finding {
    let Some(d) = &m.drift else {
        return finding(
            "drift",
            "unknown",
            "unknown (the work could not be timed)".into(),
        );
    };
    let noisy = d.relative_range >= DRIFT_NOISY;
    let mut f = finding(
        "drift",
        if noisy { "noisy" } else { "ok" },
        format!(
            "the same {:.1} µs of work moved {} from second to second over {} s (sd {})",
            d.work_ns / 1000.0,
            pct(d.relative_range),
            d.medians_ns.len(),
            pct(d.relative_sd)
        ),
    );
    if !noisy {
        f.yardstick = Some(DRIFT_DONE.to_owned());
        return f;
    }
    with(
        f,
        "quiet the sources below; a saved baseline compared without lock-step cannot tell a change smaller than this from the machine",
        Some("cargo yardstick calibrate"),
        Some(DRIFT_DONE),
    )
}

fn interruptions(m: &Measured) -> Finding {
    let windows = m
        .drift
        .as_ref()
        .and_then(|d| Some((d.window_ns?, d.windows_slowed?, d.window_median_excess?)));
    let Some((window_ns, slowed, excess)) = windows else {
        return finding(
            "interruptions",
            "unknown",
            "unknown (the work could not be timed in short windows)".into(),
        );
    };
    let noisy = slowed >= INTERRUPTED_NOISY;
    let f = finding(
        "interruptions",
        if noisy { "noisy" } else { "ok" },
        format!(
            "{} of {:.0} ms windows of the same work ran more than 5 % slower than the fastest (the median window {} slower)",
            pct(slowed),
            window_ns / 1e6,
            pct(excess)
        ),
    );
    if !noisy {
        return f;
    }
    with(
        f,
        "something takes this core for moments shorter than a second (the busy processes below, interrupts, another guest on a shared core): stop them, or give benchmarks cores of their own",
        None,
        Some(INTERRUPTED_DONE),
    )
}

fn steal(s: &MachineState, m: &Measured) -> Finding {
    let seconds: Vec<f64> = m
        .drift
        .iter()
        .flat_map(|d| d.steal.iter().flatten().copied())
        .collect();
    let worst = seconds
        .iter()
        .copied()
        .fold(None, |a: Option<f64>, x| Some(a.map_or(x, |a| a.max(x))));
    let Some(all) = s.steal else {
        return unknown("steal", "/proc/stat");
    };
    let worst = worst.unwrap_or(all);
    // One tick of 100 a second on 2 CPUs is 0.5 % of a second: a single
    // tick is not yet noise.
    let noisy = all >= STEAL_NOISY || worst >= 4.0 * STEAL_NOISY;
    let f = finding(
        "steal",
        if noisy { "noisy" } else { "ok" },
        format!(
            "{} of CPU time stolen by the hypervisor over the window, {} in the worst second",
            pct(all),
            pct(worst)
        ),
    );
    if !noisy {
        return f;
    }
    with(
        f,
        "another guest runs on this host's CPUs: use a dedicated (bare-metal or dedicated-CPU) instance for benchmarks",
        None,
        Some(LOCKSTEP),
    )
}

fn load(s: &MachineState, m: &Measured) -> Finding {
    let others: f64 = m.busy.iter().map(|b| b.cpus).sum();
    let mut parts = Vec::new();
    if let (Some(a), Some(b)) = (s.load_start, s.load_end) {
        parts.push(format!("load average {a:.2} → {b:.2}"));
    }
    if let Some(cores) = s.logical_cores {
        parts.push(format!("on {cores} CPUs"));
    }
    if let Some(p) = s.cpu_pressure {
        parts.push(format!("tasks waited for a CPU {p:.0} % of the last 10 s"));
    }
    let busiest: Vec<String> = m
        .busy
        .iter()
        .map(|b| format!("{} ({:.2} CPU)", b.name, b.cpus))
        .collect();
    if !busiest.is_empty() {
        parts.push(format!("other processes: {}", busiest.join(", ")));
    }
    if parts.is_empty() {
        return unknown("load", "/proc/loadavg or /proc/<pid>/stat");
    }
    let noisy = others >= 0.1 || s.cpu_pressure.is_some_and(|p| p >= 5.0);
    let f = finding("load", if noisy { "noisy" } else { "ok" }, parts.join("; "));
    if !noisy {
        return f;
    }
    with(
        f,
        "stop the busy processes while measuring, or keep them off the benchmark's CPU",
        Some("taskset -c 1 cargo bench"),
        Some(LOCKSTEP),
    )
}

fn governor(s: &MachineState) -> Finding {
    let Some(g) = &s.governor else {
        return unknown(
            "governor",
            "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; a VM's clock is the host's",
        );
    };
    if g == "performance" {
        return finding("governor", "ok", g.clone());
    }
    with(
        finding("governor", "noisy", g.clone()),
        "a governor other than performance changes the clock with the load",
        Some("sudo cpupower frequency-set -g performance"),
        Some(LOCKSTEP),
    )
}

fn boost(s: &MachineState) -> Finding {
    match s.boost {
        None => unknown(
            "boost",
            "intel_pstate/no_turbo or cpufreq/boost under /sys/devices/system/cpu",
        ),
        Some(false) => finding("boost", "ok", "off".into()),
        Some(true) => with(
            finding("boost", "noisy", "on: the clock rises while the package is cool".into()),
            "turn turbo off while measuring (on AMD: echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost)",
            Some("echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo"),
            Some(LOCKSTEP),
        ),
    }
}

fn smt(s: &MachineState) -> Finding {
    let siblings = s
        .logical_cores
        .zip(s.physical_cores)
        .is_some_and(|(l, p)| l > p);
    match s.smt.as_deref() {
        None if !siblings => unknown("smt", "/sys/devices/system/cpu/smt/control"),
        Some("on") | None => with(
            finding(
                "smt",
                "noisy",
                "on: a sibling thread shares the benchmark's core".into(),
            ),
            "turn SMT off, or keep other work off the benchmark core's sibling",
            Some("echo off | sudo tee /sys/devices/system/cpu/smt/control"),
            None,
        ),
        Some(other) => finding("smt", "ok", other.to_owned()),
    }
}

fn isolation(s: &MachineState) -> Finding {
    let Some(iso) = &s.isolated_cpus else {
        return unknown("isolated CPUs", "/sys/devices/system/cpu/isolated");
    };
    let nohz = s
        .nohz_full
        .as_deref()
        .filter(|n| !n.is_empty() && *n != "(null)")
        .map_or(String::new(), |n| format!(", nohz_full {n}"));
    if !iso.is_empty() {
        return with(
            finding("isolated CPUs", "ok", format!("{iso}{nohz}")),
            "run the benchmarks on them",
            Some(&format!("taskset -c {iso} cargo bench")),
            None,
        );
    }
    with(
        finding("isolated CPUs", "ok", format!("none{nohz}")),
        "on a machine kept for benchmarks, keep the scheduler and timer ticks off two CPUs (kernel command line isolcpus=2,3 nohz_full=2,3) and run there",
        Some("taskset -c 2 cargo bench"),
        None,
    )
}

fn aslr(s: &MachineState) -> Finding {
    match s.aslr {
        None => unknown("ASLR", "/proc/sys/kernel/randomize_va_space"),
        Some(0) => finding("ASLR", "ok", "off".into()),
        Some(n) => with(
            finding("ASLR", "noisy", format!("on ({n}): each process gets other stack and heap addresses")),
            "for one process's numbers to repeat, turn it off (or run one command without it: setarch -R cargo bench)",
            Some("echo 0 | sudo tee /proc/sys/kernel/randomize_va_space"),
            Some("benchmarks are sampled in several worker processes, so what addresses (and code layouts: `cargo yardstick calibrate --layouts`) do is counted in the interval instead of fixed by one lucky process"),
        ),
    }
}

fn virtualization(s: &MachineState) -> Finding {
    if s.virtualization.is_empty() && s.logical_cores.is_none() {
        return unknown("virtualization", "/proc/cpuinfo");
    }
    if s.virtualization.is_empty() {
        return finding(
            "virtualization",
            "ok",
            "no hint of a VM or container".into(),
        );
    }
    with(
        finding("virtualization", "noisy", s.virtualization.join(", ")),
        "the host's clock policy and neighbours are out of reach; prefer bare metal for small changes",
        None,
        Some(LOCKSTEP),
    )
}

fn cgroup(s: &MachineState) -> Finding {
    let Some(max) = &s.cpu_max else {
        return unknown(
            "cgroup CPU limit",
            "cpu.max or cpu.cfs_quota_us under /sys/fs/cgroup",
        );
    };
    let Some(limit) = cpu_limit(max) else {
        return finding("cgroup CPU limit", "ok", format!("none ({max})"));
    };
    let f = finding(
        "cgroup CPU limit",
        "noisy",
        format!(
            "{limit:.2} CPUs ({max}): the cgroup is throttled once it uses them up in a period"
        ),
    );
    with(
        f,
        "raise the quota or run the benchmarks with one thread per allowed CPU",
        None,
        None,
    )
}

fn memory(s: &MachineState) -> Finding {
    let (Some(avail), Some(total)) = (s.memory_available, s.memory_total) else {
        return unknown("memory", "/proc/meminfo");
    };
    let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
    let low = total > 0 && (avail as f64) < 0.1 * total as f64;
    let pressure = s.memory_pressure.unwrap_or(0.0);
    let mut measured = format!("{:.1} of {:.1} GiB available", gib(avail), gib(total));
    if let Some(p) = s.memory_pressure {
        measured.push_str(&format!(
            ", tasks waited for memory {p:.1} % of the last 10 s"
        ));
    }
    if !(low || pressure >= 1.0) {
        return finding("memory", "ok", measured);
    }
    with(
        finding("memory", "noisy", measured),
        "close memory-hungry programs: reclaim and swapping stall whatever runs",
        None,
        None,
    )
}

fn timer(m: &Measured) -> Finding {
    let Some(t) = m.timer else {
        return finding(
            "timer",
            "unknown",
            "unknown (the clock was not measured)".into(),
        );
    };
    let loop_ns = m.empty_loop_ns.map_or(String::new(), |l| {
        format!("; an empty loop iteration {l:.2} ns")
    });
    let f = finding(
        "timer",
        if t.resolution_ns > 100.0 {
            "noisy"
        } else {
            "ok"
        },
        format!(
            "steps of {:.0} ns, a reading costs {:.1} ns{loop_ns}",
            t.resolution_ns, t.overhead_ns
        ),
    );
    with(
        f,
        "nothing to do: a benchmark faster than a few loop iterations measures mostly the loop",
        None,
        Some("each sample runs enough iterations to last far longer than the clock's step, and a benchmark the compiler optimised away is flagged"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use yardstick_format::doctor::DriftWindow;

    fn slowed(share: Option<f64>) -> Finding {
        let drift = DriftWindow {
            work_ns: 20_000.0,
            medians_ns: vec![20_000.0, 20_000.0],
            relative_range: 0.0,
            relative_sd: 0.0,
            definition: String::new(),
            steal: vec![],
            window_ns: Some(2e6),
            windows_slowed: share,
            window_median_excess: Some(0.01),
        };
        interruptions(&Measured {
            drift: Some(drift),
            ..Measured::default()
        })
    }

    #[test]
    fn a_quarter_of_the_windows_slowed_is_noisy() {
        assert_eq!(slowed(Some(0.24)).status, "ok");
        assert!(slowed(Some(0.24)).advice.is_none());
        let noisy = slowed(Some(0.25));
        assert_eq!(noisy.status, "noisy");
        assert!(
            noisy.measured.starts_with("25.0 % of 2 ms windows"),
            "{}",
            noisy.measured
        );
        assert_eq!(slowed(None).status, "unknown");
    }
}
