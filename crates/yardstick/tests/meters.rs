//! `yardstick::meters` with the counting allocator installed: exact
//! allocation figures for known code, and the process-wide CPU clock.

use std::alloc::System;
use std::hint::black_box;
use std::sync::{Arc, Barrier, Mutex};
use std::time::Duration;

use yardstick::meters::{CountingAllocator, MeterSet, Metric};

#[global_allocator]
static ALLOC: CountingAllocator<System> = CountingAllocator::new(System);

/// The process CPU-time test needs the process quiet: tests take turns.
static TURN: Mutex<()> = Mutex::new(());

/// Allocation figures of `f`, by metric, as [allocations, deallocations,
/// reallocations, allocated bytes, peak live bytes].
fn allocs(f: impl FnOnce()) -> [f64; 5] {
    let (mut set, notes) = MeterSet::open(&Metric::ALLOCS);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(set.metrics(), Metric::ALLOCS);
    let mut values = Vec::with_capacity(5);
    set.start();
    f();
    set.stop();
    set.take(&mut values);
    values.try_into().unwrap()
}

#[test]
fn a_vec_with_capacity_100_of_u64_is_one_allocation_of_800_bytes() {
    let _turn = TURN.lock().unwrap();
    let got = allocs(|| drop(black_box(Vec::<u64>::with_capacity(100))));
    assert_eq!(got, [1.0, 1.0, 0.0, 800.0, 800.0]);
}

#[test]
fn growing_by_push_reallocates_and_counts_the_final_size_once() {
    let _turn = TURN.lock().unwrap();
    // Capacity 4, then 8, then 16 elements of 8 bytes.
    let got = allocs(|| {
        let mut v = Vec::new();
        for i in 0..16u64 {
            black_box(&mut v).push(i);
        }
        drop(black_box(v));
    });
    assert_eq!(got, [1.0, 1.0, 2.0, 128.0, 128.0]);
}

#[test]
fn shrinking_reallocates_without_adding_bytes() {
    let _turn = TURN.lock().unwrap();
    let got = allocs(|| {
        let mut v = black_box(Vec::<u8>::with_capacity(1000));
        v.extend_from_slice(&[1; 10]);
        v.shrink_to_fit();
        drop(black_box(v));
    });
    assert_eq!(got, [1.0, 1.0, 1.0, 1000.0, 1000.0]);
}

#[test]
fn zeroed_boxes_and_strings_count_their_sizes() {
    let _turn = TURN.lock().unwrap();
    let got = allocs(|| {
        let zeroed = black_box(vec![0u8; 4096]);
        let boxed = black_box(Box::new([7u8; 1000]));
        let text = black_box(String::from("hello"));
        drop((zeroed, boxed, text));
    });
    assert_eq!(got, [3.0, 3.0, 0.0, 5101.0, 5101.0]);
}

#[test]
fn the_peak_is_of_live_bytes_above_the_start() {
    let _turn = TURN.lock().unwrap();
    let kept = black_box(vec![1u8; 10_000]);
    let got = allocs(|| {
        drop(black_box(vec![1u8; 1000]));
        let a = black_box(vec![1u8; 300]);
        let b = black_box(vec![1u8; 500]);
        drop((a, b));
    });
    assert_eq!(got, [3.0, 3.0, 0.0, 1800.0, 1000.0]);
    drop(kept);
}

#[test]
fn several_intervals_add_counts_and_keep_the_highest_peak() {
    let _turn = TURN.lock().unwrap();
    let (mut set, _) = MeterSet::open(&[Metric::AllocatedBytes, Metric::PeakLiveBytes]);
    for size in [100, 300, 200] {
        set.start();
        drop(black_box(vec![1u8; size]));
        set.stop();
    }
    let mut values = Vec::new();
    set.take(&mut values);
    assert_eq!(values, [600.0, 300.0]);
}

#[test]
fn allocations_of_other_threads_are_not_counted() {
    let _turn = TURN.lock().unwrap();
    let (go, done) = (Arc::new(Barrier::new(2)), Arc::new(Barrier::new(2)));
    let worker = {
        let (go, done) = (Arc::clone(&go), Arc::clone(&done));
        std::thread::spawn(move || {
            go.wait();
            drop(black_box(vec![1u8; 1 << 20]));
            done.wait();
        })
    };
    let got = allocs(|| {
        go.wait();
        done.wait();
    });
    worker.join().unwrap();
    assert_eq!(got, [0.0; 5]);
}

#[test]
fn a_sleeping_process_uses_almost_no_cpu_time() {
    let _turn = TURN.lock().unwrap();
    let (mut set, notes) = MeterSet::open(&[Metric::Wall, Metric::CpuProcess]);
    if cfg!(not(unix)) {
        assert!(notes[0].contains("cpu"), "{notes:?}");
        return;
    }
    set.start();
    std::thread::sleep(Duration::from_millis(100));
    set.stop();
    let mut values = Vec::new();
    set.take(&mut values);
    let [wall, cpu] = values[..] else {
        panic!("{values:?}")
    };
    assert!(wall >= 100e6, "wall {wall} ns for 100 ms of sleep");
    assert!(cpu < 20e6, "process CPU {cpu} ns while sleeping");
}
