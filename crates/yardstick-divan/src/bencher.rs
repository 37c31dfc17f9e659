//! [`Bencher`]: what a benchmark function taking one is handed, with
//! divan's methods. Each `bench*` method hands one sampling routine to the
//! runner, which measures it through yardstick's engine.

use std::hint::black_box;
use std::marker::PhantomData;
use std::mem;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{mpsc, Barrier};
use std::time::{Duration, Instant};

use crate::counter::{AnyCounter, CounterSet, IntoCounter};
use yardstick::frontend::AllocCounts;

/// One sample as the routine measured it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sample {
    /// Iterations per thread.
    pub iters: u64,
    /// The thread's time for its iterations.
    pub time: Duration,
    /// The thread's allocations over the timed loop, as divan's rows:
    /// `[count, bytes]` of each of [`ALLOC_ROWS`].
    pub alloc: [[i128; 2]; 5],
    /// Per-input counter totals over the thread's inputs.
    pub input_counts: Vec<(AnyCounter, u128)>,
}

/// divan's allocation rows, in its order: the most allocations and bytes
/// live at once above the start of the sample, then the allocations,
/// deallocations, growing and shrinking reallocations.
pub(crate) const ALLOC_ROWS: [&str; 5] = ["max alloc:", "alloc:", "dealloc:", "grow:", "shrink:"];

/// What measures the routines handed over by [`Bencher`] (the runner).
pub(crate) trait Runner {
    /// Measures `sample` (which runs `iters` iterations on `threads`
    /// threads) with the benchmark's counters.
    fn run(&mut self, counters: CounterSet, local: bool, sample: &mut dyn FnMut(u64) -> Sample);
    /// Threads each sample runs on.
    fn threads(&self) -> usize;
}

/// The default configuration of a [`Bencher`]: no inputs.
#[derive(Debug, Default)]
pub struct BencherConfig<GenI = ()> {
    gen_input: GenI,
}

/// Per-input counters, type-erased: counts one input.
type InputCounter<'i, I> = Box<dyn Fn(&I) -> AnyCounter + Send + Sync + 'i>;

/// Runs a benchmark's routine, as divan's `Bencher`: set counters and
/// inputs, then call one of the `bench*` methods once.
///
/// ```
/// # extern crate yardstick_divan as divan;
/// #[divan::bench]
/// fn sort(bencher: divan::Bencher) {
///     bencher
///         .with_inputs(|| vec![3, 1, 2])
///         .bench_local_refs(|v| v.sort());
/// }
/// # fn main() {}
/// ```
#[must_use = "a benchmark must call one of the bench methods"]
pub struct Bencher<'a, 'b, C = BencherConfig> {
    runner: &'a mut dyn Runner,
    counters: CounterSet,
    config: C,
    _b: PhantomData<&'b ()>,
}

impl<'a, 'b> Bencher<'a, 'b> {
    pub(crate) fn new(runner: &'a mut dyn Runner, counters: CounterSet) -> Self {
        Bencher {
            runner,
            counters,
            config: BencherConfig { gen_input: () },
            _b: PhantomData,
        }
    }

    /// Times `benched`, called repeatedly, on each of the benchmark's
    /// thread counts; its outputs are dropped after the clock stops.
    pub fn bench<O, B>(self, benched: B)
    where
        B: Fn() -> O + Sync,
    {
        let f = &benched;
        run_on_threads(self.runner, self.counters, |n, sync| time_loop(n, sync, f));
    }

    /// Like [`bench`](Self::bench) for routines that are not `Sync`: runs
    /// on the current thread only.
    pub fn bench_local<O, B>(self, mut benched: B)
    where
        B: FnMut() -> O,
    {
        let mut sample = |n: u64| time_loop_mut(n, &|| {}, &mut benched);
        self.runner.run(self.counters, true, &mut sample);
    }

    /// Generates an input for every iteration with `gen_input`, untimed.
    pub fn with_inputs<G>(self, gen_input: G) -> Bencher<'a, 'b, BencherConfig<G>> {
        Bencher {
            runner: self.runner,
            counters: self.counters,
            config: BencherConfig { gen_input },
            _b: PhantomData,
        }
    }
}

impl<C> Bencher<'_, '_, C> {
    /// Sets how much each iteration processes (one counter per kind; a
    /// later one replaces an earlier one of its kind).
    pub fn counter<I: IntoCounter>(mut self, counter: I) -> Self {
        self.counters.set(counter.into_counter().into());
        self
    }
}

impl<'a, 'b, I, G> Bencher<'a, 'b, BencherConfig<G>>
where
    G: FnMut() -> I,
{
    /// Counts each input with `make_counter` (its bytes, characters…);
    /// the rate uses the mean count per iteration.
    pub fn input_counter<F, Ctr>(self, make_counter: F) -> InputBencher<'a, 'b, I, G>
    where
        F: Fn(&I) -> Ctr + Send + Sync + 'static,
        Ctr: IntoCounter,
    {
        InputBencher {
            inner: self,
            counters: vec![Box::new(move |i: &I| make_counter(i).into_counter().into())],
        }
    }

    /// Times `benched` taking each input by value, on the benchmark's thread
    /// counts. Inputs are made before the clock starts, outputs dropped after
    /// it stops.
    pub fn bench_values<O, B>(self, benched: B)
    where
        B: Fn(I) -> O + Sync,
        G: Fn() -> I + Sync,
    {
        InputBencher::from(self).bench_values(benched);
    }

    /// Times `benched` taking each input by mutable reference; inputs are
    /// dropped after the clock stops.
    pub fn bench_refs<O, B>(self, benched: B)
    where
        B: Fn(&mut I) -> O + Sync,
        G: Fn() -> I + Sync,
    {
        InputBencher::from(self).bench_refs(benched);
    }

    /// [`bench_values`](Self::bench_values) on the current thread only, for
    /// routines and generators that are not `Sync`.
    pub fn bench_local_values<O, B>(self, benched: B)
    where
        B: FnMut(I) -> O,
    {
        InputBencher::from(self).bench_local_values(benched);
    }

    /// [`bench_refs`](Self::bench_refs) on the current thread only.
    pub fn bench_local_refs<O, B>(self, benched: B)
    where
        B: FnMut(&mut I) -> O,
    {
        InputBencher::from(self).bench_local_refs(benched);
    }
}

/// A [`Bencher`] with inputs and per-input counters (what
/// [`Bencher::input_counter`] returns).
#[must_use = "a benchmark must call one of the bench methods"]
pub struct InputBencher<'a, 'b, I, G> {
    inner: Bencher<'a, 'b, BencherConfig<G>>,
    counters: Vec<InputCounter<'static, I>>,
}

impl<'a, 'b, I, G> From<Bencher<'a, 'b, BencherConfig<G>>> for InputBencher<'a, 'b, I, G> {
    fn from(inner: Bencher<'a, 'b, BencherConfig<G>>) -> Self {
        InputBencher {
            inner,
            counters: Vec::new(),
        }
    }
}

impl<I, G> InputBencher<'_, '_, I, G>
where
    G: FnMut() -> I,
{
    /// Adds another per-input counter.
    pub fn input_counter<F, Ctr>(mut self, make_counter: F) -> Self
    where
        F: Fn(&I) -> Ctr + Send + Sync + 'static,
        Ctr: IntoCounter,
    {
        self.counters
            .push(Box::new(move |i: &I| make_counter(i).into_counter().into()));
        self
    }

    /// Sets a counter for every iteration.
    pub fn counter<C: IntoCounter>(mut self, counter: C) -> Self {
        self.inner.counters.set(counter.into_counter().into());
        self
    }

    /// See [`Bencher::bench_values`].
    pub fn bench_values<O, B>(self, benched: B)
    where
        B: Fn(I) -> O + Sync,
        G: Fn() -> I + Sync,
    {
        let (gen, counters) = (&self.inner.config.gen_input, &self.counters);
        let f = &benched;
        run_on_threads(self.inner.runner, self.inner.counters, |n, sync| {
            over_inputs(n, gen, counters, |inputs| time_inputs(inputs, sync, f))
        });
    }

    /// See [`Bencher::bench_refs`].
    pub fn bench_refs<O, B>(self, benched: B)
    where
        B: Fn(&mut I) -> O + Sync,
        G: Fn() -> I + Sync,
    {
        let (gen, counters) = (&self.inner.config.gen_input, &self.counters);
        let f = &benched;
        run_on_threads(self.inner.runner, self.inner.counters, |n, sync| {
            over_inputs(n, gen, counters, |inputs| time_refs(inputs, sync, |i| f(i)))
        });
    }

    /// See [`Bencher::bench_local_values`].
    pub fn bench_local_values<O, B>(self, mut benched: B)
    where
        B: FnMut(I) -> O,
    {
        self.run_local(|inputs| time_inputs(inputs, &|| {}, &mut benched));
    }

    /// See [`Bencher::bench_local_refs`].
    pub fn bench_local_refs<O, B>(self, mut benched: B)
    where
        B: FnMut(&mut I) -> O,
    {
        self.run_local(|inputs| time_refs(inputs, &|| {}, &mut benched));
    }

    /// Runs the benchmark on this thread, each sample timed by `time` over
    /// fresh inputs.
    fn run_local(mut self, mut time: impl FnMut(Vec<I>) -> Sample) {
        let (gen, counters) = (&mut self.inner.config.gen_input, &self.counters);
        let mut sample = |n: u64| over_inputs(n, &mut *gen, counters, &mut time);
        self.inner
            .runner
            .run(self.inner.counters, true, &mut sample);
    }
}

/// One sample over `n` fresh inputs from `gen`, which is not timed:
/// counted by the input counters, then timed by `time`.
fn over_inputs<I>(
    n: u64,
    mut gen: impl FnMut() -> I,
    counters: &[InputCounter<'static, I>],
    time: impl FnOnce(Vec<I>) -> Sample,
) -> Sample {
    let inputs: Vec<I> = (0..n).map(|_| gen()).collect();
    let counts = count_inputs(counters, &inputs);
    let mut s = time(inputs);
    s.input_counts = counts;
    s
}

fn count_inputs<I>(counters: &[InputCounter<'static, I>], inputs: &[I]) -> Vec<(AnyCounter, u128)> {
    counters
        .iter()
        .filter_map(|c| {
            let first = c(inputs.first()?);
            let total: u128 = inputs.iter().map(|i| u128::from(c(i).count)).sum();
            Some((first, total))
        })
        .collect()
}

/// Hands the runner a sampling routine that runs `body` on the benchmark's
/// threads (the current one among them), which start their timed loops
/// together. `body(n, sync)` prepares its inputs, calls `sync`, then times
/// `n` iterations.
///
/// Each thread's timing is a sample of its own, as divan's are: a round
/// on `t` threads gives `t` samples, handed out one per call. (Averaging a
/// round into one sample let one descheduled thread lift every sample, and
/// ran `t` times the rounds divan does.)
///
/// The other threads are started once per benchmark and wait for each
/// sample's iteration count, as divan's thread pool does: starting threads
/// for every sample cost tens of microseconds each (more on a busy
/// machine), a hundred times per benchmark, and stretched its wall time
/// several-fold.
fn run_on_threads<F>(runner: &mut dyn Runner, counters: CounterSet, body: F)
where
    F: Fn(u64, &dyn Fn()) -> Sample + Sync,
{
    let threads = runner.threads();
    if threads <= 1 {
        runner.run(counters, false, &mut |n| body(n, &|| {}));
        return;
    }
    let barrier = Barrier::new(threads);
    let sync = || {
        barrier.wait();
    };
    let (body, sync) = (&body, &sync);
    std::thread::scope(|s| {
        let (done_tx, done_rx) = mpsc::channel();
        let jobs: Vec<mpsc::Sender<u64>> = (1..threads)
            .map(|_| {
                let (job_tx, job_rx) = mpsc::channel::<u64>();
                let done = done_tx.clone();
                s.spawn(move || {
                    for n in job_rx {
                        let r = panic::catch_unwind(AssertUnwindSafe(|| body(n, sync)));
                        if done.send(r).is_err() {
                            break;
                        }
                    }
                });
                job_tx
            })
            .collect();
        // The round's samples not handed out yet, all of `n` iterations.
        let mut round: Vec<Sample> = Vec::new();
        let mut sample = |n: u64| {
            round.retain(|s| s.iters == n);
            if let Some(s) = round.pop() {
                return s;
            }
            for job in &jobs {
                // A thread that is gone panicked; its result says so.
                let _ = job.send(n);
            }
            round.push(body(n, sync));
            for _ in 1..threads {
                match done_rx.recv() {
                    Ok(Ok(s)) => round.push(s),
                    Ok(Err(payload)) => panic::resume_unwind(payload),
                    Err(_) => panic!("a benchmark thread ended without a sample"),
                }
            }
            round.pop().expect("a round has a sample per thread")
        };
        runner.run(counters, false, &mut sample);
        // Closing the job channels ends the threads; the scope joins them.
        drop(jobs);
    });
}

/// Times `n` calls of `f`. Outputs that need dropping are kept and dropped
/// after the clock stops, as divan does.
fn time_loop<O>(n: u64, sync: &dyn Fn(), f: &impl Fn() -> O) -> Sample {
    time_loop_mut(n, sync, &mut || f())
}

fn time_loop_mut<O>(n: u64, sync: &dyn Fn(), f: &mut impl FnMut() -> O) -> Sample {
    let mut outs = Outputs::for_inputs(n as usize);
    sync();
    let a0 = yardstick::frontend::alloc_counts_from_here();
    yardstick::frontend::timed_loop(true);
    let start = Instant::now();
    // `needs_drop` is a constant: the loop holds no test.
    for _ in 0..n {
        outs.keep(f());
    }
    let time = start.elapsed();
    yardstick::frontend::timed_loop(false);
    let a1 = yardstick::frontend::alloc_counts();
    drop(black_box(outs));
    finish(n, time, a0, a1)
}

/// Times `f` on every input by value.
fn time_inputs<I, O>(inputs: Vec<I>, sync: &dyn Fn(), mut f: impl FnMut(I) -> O) -> Sample {
    let n = inputs.len() as u64;
    let mut outs = Outputs::for_inputs(inputs.len());
    let inputs = black_box(inputs);
    sync();
    let a0 = yardstick::frontend::alloc_counts_from_here();
    yardstick::frontend::timed_loop(true);
    let start = Instant::now();
    // By hand, so that the inputs' buffer is freed after the clock stops.
    let mut inputs = inputs.into_iter();
    for i in inputs.by_ref() {
        outs.keep(f(i));
    }
    let time = start.elapsed();
    yardstick::frontend::timed_loop(false);
    let a1 = yardstick::frontend::alloc_counts();
    drop(inputs);
    drop(black_box(outs));
    finish(n, time, a0, a1)
}

/// Times `f` on every input by mutable reference.
fn time_refs<I, O>(inputs: Vec<I>, sync: &dyn Fn(), mut f: impl FnMut(&mut I) -> O) -> Sample {
    let n = inputs.len() as u64;
    let mut outs = Outputs::for_inputs(inputs.len());
    let mut inputs = black_box(inputs);
    sync();
    let a0 = yardstick::frontend::alloc_counts_from_here();
    yardstick::frontend::timed_loop(true);
    let start = Instant::now();
    for input in &mut inputs {
        outs.keep(f(input));
    }
    let time = start.elapsed();
    yardstick::frontend::timed_loop(false);
    let a1 = yardstick::frontend::alloc_counts();
    drop(black_box(outs));
    drop(black_box(inputs));
    finish(n, time, a0, a1)
}

/// The outputs of a timed loop: kept, to be dropped after the clock stops,
/// when dropping them does work (as divan does); else only passed through
/// `black_box`.
struct Outputs<O>(Vec<O>);

impl<O> Outputs<O> {
    fn for_inputs(n: usize) -> Self {
        Outputs(Vec::with_capacity(if mem::needs_drop::<O>() {
            n
        } else {
            0
        }))
    }

    #[inline(always)]
    fn keep(&mut self, o: O) {
        if mem::needs_drop::<O>() {
            self.0.push(o);
        } else {
            black_box(o);
        }
    }
}

fn finish(n: u64, time: Duration, a0: AllocCounts, a1: AllocCounts) -> Sample {
    let d = |x: [i128; 2], y: [i128; 2]| [y[0] - x[0], y[1] - x[1]];
    let alloc = [
        d(a0.live, a1.peak),
        d(a0.alloc, a1.alloc),
        d(a0.dealloc, a1.dealloc),
        d(a0.grow, a1.grow),
        d(a0.shrink, a1.shrink),
    ];
    Sample {
        iters: n,
        time,
        alloc,
        input_counts: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::Mutex;
    use std::thread::ThreadId;

    /// A runner that takes `samples` samples of `iters` iterations.
    struct Fake {
        threads: usize,
        samples: usize,
        iters: u64,
        taken: Vec<Sample>,
    }

    impl Runner for Fake {
        fn run(&mut self, _: CounterSet, _: bool, sample: &mut dyn FnMut(u64) -> Sample) {
            for _ in 0..self.samples {
                self.taken.push(sample(self.iters));
            }
        }

        fn threads(&self) -> usize {
            self.threads
        }
    }

    fn fake(threads: usize) -> Fake {
        Fake {
            threads,
            samples: 20,
            iters: 5,
            taken: Vec::new(),
        }
    }

    #[test]
    fn the_threads_start_once_per_benchmark_and_run_every_sample() {
        let seen: Mutex<HashSet<ThreadId>> = Mutex::default();
        let calls = std::sync::atomic::AtomicU64::new(0);
        let mut runner = fake(3);
        Bencher::new(&mut runner, CounterSet::default()).bench(|| {
            seen.lock().unwrap().insert(std::thread::current().id());
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        // 3 threads in all over the 20 samples (a thread per sample would
        // be 41); each round of the three gives three samples, so 7 rounds
        // (21 samples, the last handed out unused) of 5 iterations each.
        assert_eq!(seen.lock().unwrap().len(), 3);
        assert_eq!(calls.into_inner(), 7 * 3 * 5);
        assert_eq!(runner.taken.len(), 20);
        assert!(runner.taken.iter().all(|s| s.iters == 5));
    }

    #[test]
    fn inputs_are_made_on_every_thread() {
        let made = std::sync::atomic::AtomicU64::new(0);
        let mut runner = fake(2);
        Bencher::new(&mut runner, CounterSet::default())
            .with_inputs(|| made.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
            .bench_values(black_box);
        // 10 rounds of two threads.
        assert_eq!(made.into_inner(), 10 * 2 * 5);
    }

    #[test]
    fn each_threads_timing_is_a_sample_of_its_own() {
        // This thread's inputs count 1 item, the other's 3; a sample is
        // 5 inputs. Averaged rounds would all carry this thread's counts.
        let main = std::thread::current().id();
        let mut runner = fake(2);
        Bencher::new(&mut runner, CounterSet::default())
            .with_inputs(|| {
                if std::thread::current().id() == main {
                    1u32
                } else {
                    3
                }
            })
            .input_counter(|&n| crate::counter::ItemsCount::new(n))
            .bench_values(black_box);
        let totals: Vec<u128> = runner.taken.iter().map(|s| s.input_counts[0].1).collect();
        assert_eq!(totals.iter().filter(|&&t| t == 5).count(), 10, "{totals:?}");
        assert_eq!(
            totals.iter().filter(|&&t| t == 15).count(),
            10,
            "{totals:?}"
        );
    }

    #[test]
    fn a_panic_on_another_thread_reaches_the_caller() {
        let main = std::thread::current().id();
        let mut runner = fake(2);
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            Bencher::new(&mut runner, CounterSet::default()).bench(|| {
                assert_eq!(std::thread::current().id(), main, "not the main thread");
            });
        }));
        let payload = outcome.expect_err("the other thread's panic");
        let text = payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(text.contains("not the main thread"), "{text}");
    }
}
