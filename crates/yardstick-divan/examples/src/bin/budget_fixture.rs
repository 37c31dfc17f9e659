//! A divan bench file whose inputs are slow to make, for the time limits'
//! test: divan counts the time spent making inputs against `max_time`
//! unless `skip_ext_time` is set.

use std::thread::sleep;
use std::time::Duration;

use divan::Bencher;

fn main() {
    divan::main();
}

/// Inputs take at least 20 ms each; the timed part at least 1 ms.
fn slow_inputs(bencher: Bencher) {
    bencher
        .with_inputs(|| sleep(Duration::from_millis(20)))
        .bench_values(|()| sleep(Duration::from_millis(1)));
}

#[divan::bench(max_time = 0.1)]
fn counted(bencher: Bencher) {
    slow_inputs(bencher);
}

#[divan::bench(max_time = 1, sample_count = 3, skip_ext_time)]
fn skipped(bencher: Bencher) {
    slow_inputs(bencher);
}
