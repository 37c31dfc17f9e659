//! Tests of `MeterSet` against the real sources of this machine. Every
//! source read here follows the test's own thread, so tests running in
//! parallel do not disturb each other.

use std::time::{Duration, Instant};

use super::{MeterSet, Metric};

/// Runs `f` between `start` and `stop` and returns each metric's value.
fn measure(metrics: &[Metric], f: impl FnOnce()) -> (Vec<(Metric, f64)>, Vec<String>) {
    let (mut set, notes) = MeterSet::open(metrics);
    set.start();
    f();
    set.stop();
    let mut values = Vec::new();
    set.take(&mut values);
    assert_eq!(values.len(), set.metrics().len());
    (set.metrics().iter().copied().zip(values).collect(), notes)
}

fn value(values: &[(Metric, f64)], m: Metric) -> Option<f64> {
    values.iter().find(|(v, _)| *v == m).map(|(_, x)| *x)
}

/// Either `m` was measured, or a note names it: never silently missing.
fn measured_or_explained(values: &[(Metric, f64)], notes: &[String], m: Metric) -> Option<f64> {
    let v = value(values, m);
    if v.is_none() {
        assert!(
            notes.iter().any(|n| n.contains(m.name())),
            "{m} missing without a note: {notes:?}"
        );
    }
    v
}

/// Whether this Linux machine lets this process count software events:
/// `need_kernel` for those that happen in the kernel (context switches).
fn software_events_allowed(need_kernel: bool) -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    let Ok(text) = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid") else {
        return false;
    };
    let paranoid: i32 = text.trim().parse().unwrap_or(3);
    // SAFETY: geteuid has no preconditions and cannot fail.
    #[cfg(unix)]
    let root = unsafe { libc::geteuid() } == 0;
    #[cfg(not(unix))]
    let root = false;
    root || paranoid <= if need_kernel { 1 } else { 2 }
}

#[test]
fn sleeping_takes_wall_time_and_context_switches_but_no_cpu_time() {
    let metrics = [
        Metric::Wall,
        Metric::CpuThread,
        Metric::TaskClock,
        Metric::ContextSwitches,
    ];
    let (values, notes) = measure(&metrics, || {
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    let wall = value(&values, Metric::Wall).unwrap();
    assert!(wall >= 100e6, "wall {wall} ns for 100 ms of sleep");
    if cfg!(unix) {
        let cpu = value(&values, Metric::CpuThread).expect("thread CPU time on unix");
        assert!(cpu < 10e6, "{cpu} ns of CPU time while sleeping");
    }
    if let Some(task) = measured_or_explained(&values, &notes, Metric::TaskClock) {
        assert!(task < 10e6, "task-clock {task} ns while sleeping");
    } else {
        assert!(!software_events_allowed(false), "{notes:?}");
    }
    if let Some(switches) = measured_or_explained(&values, &notes, Metric::ContextSwitches) {
        assert!(switches >= 5.0, "{switches} context switches for 5 sleeps");
    } else {
        assert!(!software_events_allowed(true), "{notes:?}");
    }
}

#[test]
fn a_busy_loop_takes_cpu_time_close_to_its_wall_time() {
    // Other tests (and other processes) share the CPUs, and a thread that
    // loses its CPU keeps taking wall time but no CPU time. Intervals shorter
    // than a scheduler time slice often run undisturbed: try many.
    let metrics = [Metric::Wall, Metric::CpuThread, Metric::TaskClock];
    let mut worst = Vec::new();
    for _ in 0..300 {
        let (values, notes) = measure(&metrics, || {
            let start = Instant::now();
            while start.elapsed() < Duration::from_millis(2) {
                std::hint::black_box(0u64);
            }
        });
        let wall = value(&values, Metric::Wall).unwrap();
        let Some(cpu) = value(&values, Metric::CpuThread) else {
            assert!(cfg!(not(unix)) && notes.iter().any(|n| n.contains("thread-cpu")));
            return;
        };
        let task = measured_or_explained(&values, &notes, Metric::TaskClock).unwrap_or(cpu);
        // Neither can exceed wall time beyond the clocks' granularity.
        let slack = wall * 1.02 + 50e3;
        assert!(cpu < slack && task < slack, "{values:?}");
        if cpu > wall * 0.9 && task > wall * 0.9 {
            return;
        }
        worst = values;
    }
    panic!("a busy loop never got CPU time within 10% of wall time, e.g. {worst:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn touching_fresh_pages_faults_them_in() {
    const LEN: usize = 16 << 20;
    // SAFETY: an anonymous private mapping of LEN bytes, not aliased; it is
    // unmapped below and never touched after.
    let map = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            LEN,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(map, libc::MAP_FAILED);
    let touch = || {
        for offset in (0..LEN).step_by(4096) {
            // SAFETY: `offset` < LEN, inside the mapping, which is writable.
            unsafe { std::ptr::write_volatile(map.cast::<u8>().add(offset), 1) };
        }
    };
    let (fresh, notes) = measure(&[Metric::PageFaults], touch);
    let (again, _) = measure(&[Metric::PageFaults], touch);
    // SAFETY: `map` is the mapping made above, of LEN bytes.
    unsafe { libc::munmap(map, LEN) };
    let Some(fresh) = measured_or_explained(&fresh, &notes, Metric::PageFaults) else {
        assert!(!software_events_allowed(false), "{notes:?}");
        return;
    };
    let again = value(&again, Metric::PageFaults).unwrap();
    // One fault per 4 KiB page, or per 2 MiB page with transparent huge pages.
    assert!(
        fresh >= (LEN >> 21) as f64,
        "{fresh} faults for {LEN} fresh bytes"
    );
    assert!(
        fresh > again,
        "{fresh} faults on fresh pages, {again} on touched ones"
    );
}

#[test]
fn hardware_counters_give_a_number_or_a_note_never_a_placeholder() {
    // The first six counters are the hardware ones.
    let hardware = &Metric::COUNTERS[..6];
    let mut metrics = vec![Metric::Wall];
    metrics.extend(hardware);
    let (values, notes) = measure(&metrics, || {
        std::hint::black_box((0..100_000u64).map(|i| i * i % 7).sum::<u64>());
    });
    assert_eq!(
        values[0].0,
        Metric::Wall,
        "measured metrics keep the order asked"
    );
    for &m in hardware {
        match measured_or_explained(&values, &notes, m) {
            Some(v) => {
                let must_move =
                    matches!(m, Metric::Instructions | Metric::Cycles | Metric::Branches);
                assert!(v.is_finite() && (v > 0.0 || !must_move), "{m} = {v}");
            }
            None if cfg!(target_os = "linux") => assert!(
                notes.iter().any(|n| n.starts_with("hardware counters (")),
                "{notes:?}"
            ),
            None => {}
        }
    }
}

#[test]
fn allocation_metrics_need_the_counting_allocator() {
    // This test binary's global allocator is the system's.
    let (set, notes) = MeterSet::open(&[Metric::Allocations, Metric::Wall, Metric::PeakLiveBytes]);
    assert_eq!(set.metrics(), [Metric::Wall]);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("allocation metrics (allocations, peak-live-bytes) need yardstick's counting allocator: add `#[global_allocator] static ALLOC: yardstick::meters::CountingAllocator ="),
        "{notes:?}"
    );
}

#[test]
fn take_sums_intervals_in_order_and_starts_afresh() {
    let (mut set, _) = MeterSet::open(&[Metric::CpuThread, Metric::Wall, Metric::Wall]);
    let order: Vec<Metric> = if cfg!(unix) {
        vec![Metric::CpuThread, Metric::Wall]
    } else {
        vec![Metric::Wall]
    };
    assert_eq!(set.metrics(), order);
    let wall = order.len() - 1;
    let mut values = Vec::new();
    for _ in 0..2 {
        set.start();
        std::thread::sleep(Duration::from_millis(10));
        set.stop();
    }
    set.stop(); // without a start: ignored
    set.take(&mut values);
    assert!(values[wall] >= 20e6, "{values:?}");
    set.take(&mut values);
    assert_eq!(values[order.len()..], vec![0.0; order.len()][..]);
}

#[test]
fn an_empty_set_measures_nothing() {
    let (mut set, notes) = MeterSet::open(&[]);
    assert!(set.is_empty() && notes.is_empty());
    set.start();
    set.stop();
    let mut values = vec![1.0];
    set.take(&mut values);
    assert_eq!(values, [1.0]);
    assert_eq!(set.multiplexed(), 0);
}
