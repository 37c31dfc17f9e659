//! [`AsyncBencher`]: the timing loops for async routines.

use std::future::Future;
use std::hint::black_box;
use std::time::Instant;

use crate::async_executor::AsyncExecutor;
use crate::bencher::timed_batches;
use crate::measurement::Measurement;
use crate::{BatchSize, Bencher};

/// The timing loops of [`Bencher`] for routines that return futures; made by
/// [`Bencher::to_async`]. Each loop runs inside one `block_on`, so the
/// executor's start-up is outside the measurement.
pub struct AsyncBencher<'a, 'b, A: AsyncExecutor, M: Measurement> {
    b: &'b mut Bencher<'a, M>,
    runner: A,
}

impl<'a, M: Measurement> Bencher<'a, M> {
    /// Benchmarks async routines on `runner`.
    pub fn to_async<'b, A: AsyncExecutor>(&'b mut self, runner: A) -> AsyncBencher<'a, 'b, A, M> {
        AsyncBencher { b: self, runner }
    }
}

impl<A: AsyncExecutor, M: Measurement> AsyncBencher<'_, '_, A, M> {
    /// Times `n` sequential awaits of `routine()`.
    pub fn iter<O, R, F>(&mut self, mut routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        let runner = &self.runner;
        self.b.timed(|b| {
            runner.block_on(async {
                let time_start = Instant::now();
                b.meters_start();
                let start = b.measurement.start();
                for _ in 0..b.iters {
                    black_box(routine().await);
                }
                b.value = b.measurement.end(start);
                b.meters_stop();
                b.elapsed_time = time_start.elapsed();
            });
        });
    }

    /// The routine times `n` iterations itself.
    pub fn iter_custom<R, F>(&mut self, mut routine: R)
    where
        R: FnMut(u64) -> F,
        F: Future<Output = M::Value>,
    {
        let runner = &self.runner;
        self.b.timed(|b| {
            runner.block_on(async {
                let time_start = Instant::now();
                b.meters_start();
                b.value = routine(b.iters).await;
                b.meters_stop();
                b.elapsed_time = time_start.elapsed();
            });
        });
    }

    /// Like [`iter`](Self::iter), dropping outputs after the clock stops.
    pub fn iter_with_large_drop<O, R, F>(&mut self, mut routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(|| (), |()| routine(), BatchSize::SmallInput);
    }

    /// Same as `iter_batched(setup, routine, BatchSize::NumBatches(1))`.
    #[doc(hidden)]
    pub fn iter_with_large_setup<I, O, S, R, F>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(setup, routine, BatchSize::NumBatches(1));
    }

    /// Times `routine` on inputs from `setup` (not timed), in batches.
    pub fn iter_batched<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        let runner = &self.runner;
        self.b.timed(|b| {
            runner.block_on(async {
                timed_batches!(b, setup, size,
                each: |input| routine(input).await, then: {},
                batch: |inputs, outputs| {
                    for input in inputs {
                        outputs.push(routine(input).await);
                    }
                })
            });
        });
    }

    /// Like [`iter_batched`](Self::iter_batched), with the input by
    /// mutable reference.
    pub fn iter_batched_ref<I, O, S, R, F>(&mut self, mut setup: S, mut routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> F,
        F: Future<Output = O>,
    {
        let runner = &self.runner;
        self.b.timed(|b| {
            runner.block_on(async {
                timed_batches!(b, setup, size,
                each: |input| routine(&mut input).await, then: { drop(black_box(input)) },
                batch: |inputs, outputs| {
                    for input in &mut inputs {
                        outputs.push(routine(input).await);
                    }
                })
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::async_executor::FuturesExecutor;
    use crate::measurement::WallTime;
    use crate::{BatchSize, Bencher};
    use std::cell::Cell;

    #[test]
    fn async_loops_await_every_iteration() {
        let runs = Cell::new(0u64);
        let mut b = Bencher::new(&WallTime, 25);
        b.to_async(FuturesExecutor)
            .iter(|| async { runs.set(runs.get() + 1) });
        assert_eq!(runs.get(), 25);
        assert!(b.iterated);
        let runs = Cell::new(0u64);
        let mut b = Bencher::new(&WallTime, 25);
        b.to_async(FuturesExecutor).iter_batched(
            || 2u64,
            |x| {
                let r = &runs;
                async move { r.set(r.get() + x) }
            },
            BatchSize::NumIterations(4),
        );
        assert_eq!(runs.get(), 50);
    }
}
