//! The timing loops handed to every benchmark routine.

use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::measurement::{Measurement, WallTime};
use crate::BatchSize;

/// Runs a benchmark's routine for the number of iterations the runner asks
/// for and measures it.
///
/// A benchmark function must call exactly one of the `iter*` methods. Each
/// documents what its measurement covers for a sample of `n` iterations.
pub struct Bencher<'a, M: Measurement = WallTime> {
    pub(crate) iterated: bool,
    pub(crate) iters: u64,
    pub(crate) value: M::Value,
    pub(crate) measurement: &'a M,
    /// Wall time of the whole `iter*` call, setup included; the warm-up uses
    /// it to size the samples.
    pub(crate) elapsed_time: Duration,
    /// The benchmark's extra metrics, read around the same timed code.
    pub(crate) meters: Option<crate::metered::Meters>,
}

/// The timing loop of `iter_batched` and `iter_batched_ref`, sync and
/// async. They differ only in how the routine takes its input (by value,
/// or by reference with the input dropped after the clock stops) and in
/// how a batch is run: one template keeps the work timed around the
/// routine the same in all four, with nothing added to it. A batch of one
/// runs without a vector, as Criterion.rs's does.
macro_rules! timed_batches {
    ($b:ident, $setup:ident, $size:ident,
     each: |$input:ident| $each:expr, then: $then:block,
     batch: |$inputs:ident, $outputs:ident| $batch:block) => {{
        $b.iterated = true;
        let batch_size = $size.iters_per_batch($b.iters).max(1);
        let time_start = Instant::now();
        $b.value = $b.measurement.zero();
        if batch_size == 1 {
            for _ in 0..$b.iters {
                #[allow(unused_mut)]
                let mut $input = black_box($setup());
                $b.meters_start();
                let start = $b.measurement.start();
                let output = $each;
                let end = $b.measurement.end(start);
                $b.meters_stop();
                $b.value = $b.measurement.add(&$b.value, &end);
                drop(black_box(output));
                $then
            }
        } else {
            let mut done = 0;
            while done < $b.iters {
                let batch = batch_size.min($b.iters - done);
                #[allow(unused_mut)]
                let mut $inputs = black_box((0..batch).map(|_| $setup()).collect::<Vec<_>>());
                let mut $outputs = Vec::with_capacity(batch as usize);
                $b.meters_start();
                let start = $b.measurement.start();
                $batch
                let end = $b.measurement.end(start);
                $b.meters_stop();
                $b.value = $b.measurement.add(&$b.value, &end);
                black_box($outputs);
                done += batch;
            }
        }
        $b.elapsed_time = time_start.elapsed();
    }};
}
pub(crate) use timed_batches;

impl<'a, M: Measurement> Bencher<'a, M> {
    pub(crate) fn new(measurement: &'a M, iters: u64) -> Self {
        Bencher {
            iterated: false,
            iters,
            value: measurement.zero(),
            measurement,
            elapsed_time: Duration::ZERO,
            meters: None,
        }
    }

    /// Runs `timed` (the timing loop of an `iter*` method, for `self.iters`
    /// iterations) once; or, in a worker process serving this benchmark,
    /// once for each round the parent asks for, from this one call of the
    /// benchmark function (`worker::serve`).
    pub(crate) fn timed(&mut self, mut timed: impl FnMut(&mut Self)) {
        self.iterated = true;
        let served = crate::served::from_loop(&mut |n| {
            self.iters = n;
            timed(self);
            (self.measurement.to_f64(&self.value), self.elapsed_time)
        });
        if served {
            // A second `iter*` call in the same function times nothing.
            self.iters = 0;
        } else {
            timed(self);
        }
    }

    /// Starts the meters, and under `--explain` Callgrind's counting: just
    /// before the clock starts, outside the timed code.
    #[inline]
    pub(crate) fn meters_start(&self) {
        if let Some(m) = &self.meters {
            m.start();
        }
        crate::counting::collect(true);
    }

    #[inline]
    pub(crate) fn meters_stop(&self) {
        crate::counting::collect(false);
        if let Some(m) = &self.meters {
            m.stop();
        }
    }

    /// Times `routine` called `n` times in a loop:
    /// `measurement = end − start` around `for _ in 0..n { black_box(routine()) }`.
    ///
    /// The outputs are dropped inside the timed loop; use
    /// [`iter_with_large_drop`](Self::iter_with_large_drop) when dropping
    /// them is expensive.
    #[inline(never)]
    pub fn iter<O, R>(&mut self, mut routine: R)
    where
        R: FnMut() -> O,
    {
        self.timed(|b| {
            let time_start = Instant::now();
            b.meters_start();
            let start = b.measurement.start();
            for _ in 0..b.iters {
                black_box(routine());
            }
            b.value = b.measurement.end(start);
            b.meters_stop();
            b.elapsed_time = time_start.elapsed();
        });
    }

    /// Lets `routine` time `n` iterations itself and return the measured
    /// value: `measurement = routine(n)`.
    pub fn iter_custom<R>(&mut self, mut routine: R)
    where
        R: FnMut(u64) -> M::Value,
    {
        self.timed(|b| {
            let time_start = Instant::now();
            // Before the meters' hooks: a front-end marking its own loops
            // decides what is counted inside.
            crate::counting::in_custom(true);
            b.meters_start();
            b.value = routine(b.iters);
            b.meters_stop();
            crate::counting::in_custom(false);
            b.elapsed_time = time_start.elapsed();
        });
    }

    /// Deprecated in Criterion.rs; same as
    /// `iter_batched(setup, routine, BatchSize::PerIteration)`.
    #[doc(hidden)]
    pub fn iter_with_setup<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// Times `routine` like [`iter`](Self::iter) but keeps the outputs and
    /// drops them after the clock stops:
    /// `measurement = Σ over batches (end − start)` around
    /// `outputs.extend((0..batch).map(|_| routine()))`.
    pub fn iter_with_large_drop<O, R>(&mut self, mut routine: R)
    where
        R: FnMut() -> O,
    {
        self.iter_batched(|| (), |()| routine(), BatchSize::SmallInput);
    }

    /// Same as `iter_batched(setup, routine, BatchSize::NumBatches(1))`:
    /// every input is built before the clock starts.
    #[doc(hidden)]
    pub fn iter_with_large_setup<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.iter_batched(setup, routine, BatchSize::NumBatches(1));
    }

    /// Times `routine` on inputs made by `setup`, which is not timed, and
    /// drops the outputs after the clock stops. The `n` iterations run in
    /// batches of the size `size` gives:
    /// `measurement = Σ over batches (end − start)` around
    /// `outputs.extend(inputs.into_iter().map(routine))`.
    pub fn iter_batched<I, O, S, R>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.timed(|b| {
            timed_batches!(b, setup, size,
                each: |input| routine(input), then: {},
                batch: |inputs, outputs| { outputs.extend(inputs.into_iter().map(&mut routine)) });
        });
    }

    /// Like [`iter_batched`](Self::iter_batched), but `routine` takes the
    /// input by mutable reference, and the inputs are dropped after the
    /// clock stops too.
    pub fn iter_batched_ref<I, O, S, R>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        self.timed(|b| {
            timed_batches!(b, setup, size,
                each: |input| routine(&mut input), then: { drop(black_box(input)) },
                batch: |inputs, outputs| { outputs.extend(inputs.iter_mut().map(&mut routine)) });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn iter_runs_the_requested_iterations() {
        let calls = Cell::new(0u64);
        let mut b = Bencher::new(&WallTime, 37);
        b.iter(|| calls.set(calls.get() + 1));
        assert_eq!(calls.get(), 37);
        assert!(b.iterated);
    }

    #[test]
    fn batched_calls_setup_once_per_iteration() {
        for size in [
            BatchSize::SmallInput,
            BatchSize::LargeInput,
            BatchSize::PerIteration,
            BatchSize::NumBatches(3),
            BatchSize::NumIterations(4),
        ] {
            let setups = Cell::new(0u64);
            let runs = Cell::new(0u64);
            let mut b = Bencher::new(&WallTime, 101);
            b.iter_batched(
                || setups.set(setups.get() + 1),
                |()| runs.set(runs.get() + 1),
                size,
            );
            assert_eq!((setups.get(), runs.get()), (101, 101), "{size:?}");
            let runs = Cell::new(0u64);
            let mut b = Bencher::new(&WallTime, 101);
            b.iter_batched_ref(|| 5u8, |x| runs.set(runs.get() + u64::from(*x)), size);
            assert_eq!(runs.get(), 505, "{size:?}");
        }
    }

    #[test]
    fn setup_time_is_not_measured() {
        let mut b = Bencher::new(&WallTime, 3);
        b.iter_batched(
            || std::thread::sleep(Duration::from_millis(20)),
            |()| (),
            BatchSize::PerIteration,
        );
        // The routine does nothing; 60 ms of setup must not be in the value.
        assert!(b.value < Duration::from_millis(20), "{:?}", b.value);
        assert!(b.elapsed_time >= Duration::from_millis(60));
    }

    #[test]
    fn iter_custom_returns_the_routines_value() {
        let mut b = Bencher::new(&WallTime, 10);
        b.iter_custom(|n| Duration::from_nanos(n * 7));
        assert_eq!(b.value, Duration::from_nanos(70));
    }
}
