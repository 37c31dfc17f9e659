//! The part of doctor that touches the machine: the clock, the empty loop,
//! one fixed piece of work timed second after second, and the processes'
//! CPU time around that window. Everything else reads its values.

use std::hint::black_box;
use std::time::{Duration, Instant};

use yardstick_format::doctor::{BusyProcess, DriftWindow, Timer};
use yardstick_stats::drift::{second_to_second, short_windows, SECOND_DEFINITION};
use yardstick_stats::univariate::median;

use crate::machine::{procs, CpuTimes, Root};

/// What doctor measured (the machine's state aside).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measured {
    /// The clock.
    pub timer: Option<Timer>,
    /// Nanoseconds per iteration of an empty loop.
    pub empty_loop_ns: Option<f64>,
    /// The work's time second after second.
    pub drift: Option<DriftWindow>,
    /// Other processes busy during the window.
    pub busy: Vec<BusyProcess>,
}

/// Measures for about `seconds` seconds.
#[must_use]
pub fn measure(root: &Root, seconds: u64) -> Measured {
    let timer = timer();
    let empty_loop_ns = empty_loop();
    let before = procs::processes(root);
    let window = Instant::now();
    let drift = drift_window(root, seconds);
    let elapsed = window.elapsed().as_secs_f64();
    let after = procs::processes(root);
    let busy = procs::busiest(
        &before,
        &after,
        std::process::id(),
        clock_ticks(),
        elapsed,
        5,
    )
    .into_iter()
    .map(|(pid, name, cpus)| BusyProcess { pid, name, cpus })
    .collect();
    Measured {
        timer: Some(timer),
        empty_loop_ns,
        drift,
        busy,
    }
}

/// The smallest step `Instant::now` takes, and what a reading costs (the
/// cheapest of a few batches, as the clock is what is measured here, not
/// the interruptions).
fn timer() -> Timer {
    let mut step = u128::MAX;
    for _ in 0..2_000 {
        let a = Instant::now();
        let mut b = Instant::now();
        while b == a {
            b = Instant::now();
        }
        step = step.min((b - a).as_nanos());
    }
    const READS: u32 = 200_000;
    let mut overhead = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..READS {
            black_box(Instant::now());
        }
        overhead = overhead.min(t.elapsed().as_nanos() as f64 / f64::from(READS));
    }
    Timer {
        resolution_ns: step as f64,
        overhead_ns: overhead,
    }
}

/// Nanoseconds per iteration of a loop that does nothing but keep its
/// counter (`black_box`), the cheapest of five batches.
fn empty_loop() -> Option<f64> {
    const N: u64 = 5_000_000;
    let best = (0..5)
        .map(|_| {
            let t = Instant::now();
            for i in 0..N {
                black_box(i);
            }
            t.elapsed().as_nanos() as f64 / N as f64
        })
        .fold(f64::INFINITY, f64::min);
    (best.is_finite() && best > 0.0).then_some(best)
}

/// The fixed work: a chain of dependent multiply-adds (an LCG), so its
/// time is the core's clock and nothing else (no memory, no branches to
/// mispredict). `compare/doctor/drift.py` times the same chain.
#[inline(never)]
pub fn work(steps: u64) -> u64 {
    let mut x = black_box(1u64);
    for i in 0..steps {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407 ^ i);
    }
    black_box(x)
}

/// Steps of [`work`] per timing: about 0.2 ms on a 3 GHz core. A median
/// moves by whole clock steps (10 to 20 ns on a VM's TSC), so the work
/// must be long enough for a step to be a small fraction of it (0.005 %
/// here; at 20 µs every second's median was the same step, 0.05 %
/// apart from the next), and short enough that a second holds thousands.
pub const WORK_STEPS: u64 = 200_000;

/// Times [`work`] for `seconds` seconds, each second in a fresh process
/// of this binary (`doctor --work-second`), with each second's steal
/// time. Fresh processes, as runs are: on a 2-CPU VM one process saw
/// the work move 0.33 % on average over 5 s where one process a second
/// saw 0.76 % (`compare/doctor/drift.py`); where moves come from which
/// CPU a process lands on and how it starts, only new processes see them.
fn drift_window(root: &Root, seconds: u64) -> Option<DriftWindow> {
    let mut per_second = Vec::new();
    let mut steal = Vec::new();
    for _ in 0..seconds {
        let start = CpuTimes::read(root);
        // Timed in this process when a child cannot be started (no
        // path to this binary): still the same work, one process.
        let times = second_in_child().unwrap_or_else(one_second);
        let stolen = start
            .zip(CpuTimes::read(root))
            .and_then(|(a, b)| b.since(&a))
            .map(|w| w.steal);
        steal.push(stolen);
        per_second.push(times);
    }
    let d = second_to_second(&per_second)?;
    let all: Vec<f64> = per_second.concat();
    let round_ns = yardstick::worker::lockstep::ROUND.as_nanos() as f64;
    let windows = short_windows(&per_second, round_ns);
    Some(DriftWindow {
        work_ns: median(&all)?,
        medians_ns: d.medians,
        relative_range: d.relative_range,
        relative_sd: d.relative_sd,
        definition: SECOND_DEFINITION.to_owned(),
        steal,
        window_ns: windows.as_ref().map(|w| w.window_ns),
        windows_slowed: windows.as_ref().map(|w| w.slowed_share),
        window_median_excess: windows.as_ref().map(|w| w.median_excess),
    })
}

/// One second of timings of [`work`], in ns.
fn one_second() -> Vec<f64> {
    let end = Instant::now() + Duration::from_secs(1);
    let mut times = Vec::with_capacity(10_000);
    loop {
        let t = Instant::now();
        work(WORK_STEPS);
        let now = Instant::now();
        times.push((now - t).as_nanos() as f64);
        if now >= end {
            return times;
        }
    }
}

/// What `doctor --work-second` prints: one second of timings, in whole
/// ns, separated by spaces.
#[must_use]
pub fn work_second_text() -> String {
    let words: Vec<String> = one_second().iter().map(|t| format!("{t:.0}")).collect();
    words.join(" ") + "\n"
}

fn second_in_child() -> Option<Vec<f64>> {
    let exe = std::env::current_exe().ok()?;
    let out = std::process::Command::new(exe)
        .args(["doctor", "--work-second"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let times: Vec<f64> = String::from_utf8(out.stdout)
        .ok()?
        .split_whitespace()
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    (!times.is_empty()).then_some(times)
}

/// The kernel's clock ticks per second, in which `/proc/<pid>/stat`
/// counts CPU time; 0 when unknown (no process is then reported).
fn clock_ticks() -> f64 {
    #[cfg(unix)]
    {
        // SAFETY: sysconf reads a constant of the system.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if hz > 0 {
            return hz as f64;
        }
    }
    0.0
}
