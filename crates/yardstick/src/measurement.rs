//! What a benchmark measures.
//!
//! The [`Measurement`] trait is Criterion.rs's, unchanged, so custom
//! measurements written for Criterion.rs (the guide's `HalfSeconds`, CPU-time
//! or cycle counters) keep compiling. [`WallTime`] is the default.

use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::meters::CpuClock;

use crate::format::short;
use crate::Throughput;
use yardstick_format::units::TimeUnit;

/// Formats and scales measured values for people and for machines.
///
/// Values handed to these methods are already converted with
/// [`Measurement::to_f64`], and are per-iteration values.
pub trait ValueFormatter {
    /// Formats one value with its unit, e.g. `26.251 ns`.
    fn format_value(&self, value: f64) -> String {
        let mut values = [value];
        let unit = self.scale_values(value, &mut values);
        format!("{:>6} {}", short(values[0]), unit)
    }

    /// Formats the throughput implied by one measured value, e.g. `1.2 GiB/s`.
    fn format_throughput(&self, throughput: &Throughput, value: f64) -> String {
        let mut values = [value];
        let unit = self.scale_throughputs(value, throughput, &mut values);
        format!("{:>6} {}", short(values[0]), unit)
    }

    /// Scales `values` in place to a unit suited to `typical_value` and
    /// returns that unit.
    fn scale_values(&self, typical_value: f64, values: &mut [f64]) -> &'static str;

    /// Converts `values` in place to throughputs in a unit suited to
    /// `typical_value` and returns that unit.
    fn scale_throughputs(
        &self,
        typical_value: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str;

    /// Scales `values` in place to the unit machine-readable output uses and
    /// returns it (nanoseconds for time).
    fn scale_for_machines(&self, values: &mut [f64]) -> &'static str;
}

/// A way of measuring one run of a benchmark's iterations.
///
/// `start` is called before the timed iterations and `end` after them;
/// `add` accumulates values of several batches. Implementations must be cheap:
/// their cost is part of every sample.
pub trait Measurement {
    /// The value `start` produces and `end` consumes (an `Instant` for time).
    type Intermediate;
    /// The measured value (a `Duration` for time).
    type Value;

    /// Starts a measurement.
    fn start(&self) -> Self::Intermediate;
    /// Ends a measurement started by `start` and returns the value.
    fn end(&self, i: Self::Intermediate) -> Self::Value;
    /// Adds two values.
    fn add(&self, v1: &Self::Value, v2: &Self::Value) -> Self::Value;
    /// The value that `add` leaves unchanged.
    fn zero(&self) -> Self::Value;
    /// Converts a value to a number for the statistics.
    fn to_f64(&self, value: &Self::Value) -> f64;
    /// The formatter for values of this measurement.
    fn formatter(&self) -> &dyn ValueFormatter;
}

/// Time in nanoseconds: by default wall-clock time from the monotonic clock
/// ([`Instant`]); with `--time-mode cpu` the process's CPU time and with
/// `--time-mode thread-cpu` the benchmark thread's (tasty-bench measures CPU
/// time, which other processes on the machine disturb less).
///
/// `iter_custom` routines time themselves and are not affected.
#[derive(Debug, Default, Clone, Copy)]
pub struct WallTime;

/// Which clock [`WallTime`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeMode {
    Wall = 0,
    ProcessCpu = 1,
    ThreadCpu = 2,
}

/// The clock `--time-mode` chose, for the whole process. It is the one
/// setting that cannot travel as a value: [`WallTime`] is a unit struct in
/// Criterion.rs's API (`with_measurement(WallTime)`), so it has no field to
/// carry its clock, and every `Bencher` loop calls its `start`. It is set
/// once, from the command line, before any benchmark runs.
static TIME_MODE: AtomicU8 = AtomicU8::new(TimeMode::Wall as u8);

/// Sets the clock of [`WallTime`] for the whole process.
///
/// # Errors
///
/// When the CPU clock cannot be read here (then wall time stays).
pub(crate) fn set_time_mode(mode: TimeMode) -> Result<(), String> {
    let clock = match mode {
        TimeMode::Wall => None,
        TimeMode::ProcessCpu => Some(CpuClock::Process),
        TimeMode::ThreadCpu => Some(CpuClock::Thread),
    };
    if let Some(c) = clock {
        c.now_ns().map_err(|e| {
            format!("--time-mode: the CPU clock cannot be read here ({e}); measuring wall time")
        })?;
    }
    TIME_MODE.store(mode as u8, Ordering::Relaxed);
    Ok(())
}

/// What a run's times measure, in words: saved with its samples
/// (`sample.json`'s `measurement`), so that a baseline of another kind
/// (CPU time against wall time, another [`Measurement`], another
/// `--measure` set, which adds the meters' cost to every sample) is never
/// compared with.
pub(crate) fn kind<M: Measurement>(metrics: &[crate::meters::Metric]) -> String {
    let name = std::any::type_name::<M>();
    let mut kind = if name == std::any::type_name::<WallTime>() {
        match TIME_MODE.load(Ordering::Relaxed) {
            1 => "process CPU time",
            2 => "thread CPU time",
            _ => "wall time",
        }
        .to_owned()
    } else {
        name.to_owned()
    };
    if !metrics.is_empty() {
        let names: Vec<&str> = metrics.iter().map(|m| m.name()).collect();
        kind.push_str(" with --measure ");
        kind.push_str(&names.join(","));
    }
    kind
}

/// Where a [`WallTime`] measurement started: an instant, or a CPU clock
/// reading.
#[derive(Debug, Clone, Copy)]
pub struct Start(StartKind);

#[derive(Debug, Clone, Copy)]
enum StartKind {
    Wall(Instant),
    Cpu(CpuClock, u64),
}

/// The formatter of [`WallTime`]: ps, ns, µs, ms or s.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct DurationFormatter;

impl DurationFormatter {
    fn per_second(
        amount: f64,
        typical_ns: f64,
        values: &mut [f64],
        base: f64,
        units: [&'static str; 4],
    ) -> &'static str {
        let typical = amount * (1e9 / typical_ns);
        let (denominator, unit) = if typical < base {
            (1.0, units[0])
        } else if typical < base * base {
            (base, units[1])
        } else if typical < base * base * base {
            (base * base, units[2])
        } else {
            (base * base * base, units[3])
        };
        for v in values {
            *v = amount * (1e9 / *v) / denominator;
        }
        unit
    }
}

impl ValueFormatter for DurationFormatter {
    fn scale_values(&self, ns: f64, values: &mut [f64]) -> &'static str {
        let unit = TimeUnit::for_nanos(ns, TimeUnit::Ps);
        for v in values {
            *v *= unit.factor();
        }
        unit.symbol()
    }

    fn scale_throughputs(
        &self,
        typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        const BINARY: [&str; 4] = ["  B/s", "KiB/s", "MiB/s", "GiB/s"];
        const DECIMAL: [&str; 4] = ["  B/s", "KB/s", "MB/s", "GB/s"];
        const BITS: [&str; 4] = ["  b/s", "Kb/s", "Mb/s", "Gb/s"];
        const ELEMENTS: [&str; 4] = [" elem/s", "Kelem/s", "Melem/s", "Gelem/s"];
        match *throughput {
            Throughput::Bytes(b) => Self::per_second(b as f64, typical, values, 1024.0, BINARY),
            Throughput::BytesDecimal(b) => {
                Self::per_second(b as f64, typical, values, 1000.0, DECIMAL)
            }
            Throughput::Bits(b) => Self::per_second(b as f64, typical, values, 1000.0, BITS),
            Throughput::Elements(e) | Throughput::ElementsAndBytes { elements: e, .. } => {
                Self::per_second(e as f64, typical, values, 1000.0, ELEMENTS)
            }
        }
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

impl Measurement for WallTime {
    type Intermediate = Start;
    type Value = Duration;

    #[inline]
    fn start(&self) -> Start {
        let clock = match TIME_MODE.load(Ordering::Relaxed) {
            1 => CpuClock::Process,
            2 => CpuClock::Thread,
            _ => return Start(StartKind::Wall(Instant::now())),
        };
        match clock.now_ns() {
            Ok(ns) => Start(StartKind::Cpu(clock, ns)),
            Err(_) => Start(StartKind::Wall(Instant::now())),
        }
    }
    #[inline]
    fn end(&self, i: Start) -> Duration {
        match i.0 {
            StartKind::Wall(t) => t.elapsed(),
            StartKind::Cpu(clock, ns) => {
                Duration::from_nanos(clock.now_ns().map_or(0, |now| now.saturating_sub(ns)))
            }
        }
    }
    fn add(&self, v1: &Duration, v2: &Duration) -> Duration {
        *v1 + *v2
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &DurationFormatter
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_mode_ignores_a_sleep() {
        // Process-wide setting: this test is the only one that changes it.
        set_time_mode(TimeMode::ThreadCpu).unwrap();
        let s = WallTime.start();
        std::thread::sleep(Duration::from_millis(30));
        let cpu = WallTime.end(s);
        // What the run's samples are saved as measuring: never compared
        // with a baseline of another kind.
        assert_eq!(kind::<WallTime>(&[]), "thread CPU time");
        set_time_mode(TimeMode::Wall).unwrap();
        assert_eq!(kind::<WallTime>(&[]), "wall time");
        let measure = [crate::meters::Metric::Instructions];
        assert_eq!(
            kind::<WallTime>(&measure),
            "wall time with --measure instructions"
        );
        assert!(cpu < Duration::from_millis(10), "{cpu:?}");
        let s = WallTime.start();
        std::thread::sleep(Duration::from_millis(30));
        assert!(WallTime.end(s) >= Duration::from_millis(30));
    }

    #[test]
    fn wall_time_formats_like_criterion() {
        let f = WallTime.formatter();
        assert_eq!(f.format_value(26_251.0), "26.251 µs");
        assert_eq!(f.format_value(0.25), "250.00 ps");
    }

    #[test]
    fn throughput_in_binary_and_decimal_units() {
        let f = WallTime.formatter();
        // 1 MiB in 1 ms is 1000 MiB/s; hand-computed: 1048576 B * 1000 / s.
        assert_eq!(
            f.format_throughput(&Throughput::Bytes(1 << 20), 1e6),
            "1000.0 MiB/s"
        );
        // 1 MB in 1 ms is 1 GB/s.
        assert_eq!(
            f.format_throughput(&Throughput::BytesDecimal(1_000_000), 1e6),
            "1.0000 GB/s"
        );
        // 500 elements in 1 µs is 500 Melem/s.
        assert_eq!(
            f.format_throughput(&Throughput::Elements(500), 1e3),
            "500.00 Melem/s"
        );
        assert_eq!(
            f.format_throughput(
                &Throughput::ElementsAndBytes {
                    elements: 500,
                    bytes: 4000
                },
                1e3
            ),
            "500.00 Melem/s"
        );
    }
}
