//! A bench binary exercising the harness's flows. Environment variables
//! switch on the unhappy paths: `FIXTURE_PANIC` adds a benchmark that
//! panics, `FIXTURE_WORK` sets the cost of `work/spin`, and the other
//! `FIXTURE_*` variables each add a group of benchmarks.

use std::path::Path;

use criterion::meters::Metric;
use criterion::profiler::Profiler;
use criterion::{
    black_box, criterion_group, criterion_main, Benchmark, BenchmarkId, Criterion, Fun,
    ParameterizedBenchmark, Throughput,
};

#[global_allocator]
static ALLOC: criterion::meters::CountingAllocator = criterion::meters::CountingAllocator::system();

fn spin(n: u64) -> u64 {
    let mut x = 0u64;
    for i in 0..n {
        x = black_box(x.wrapping_mul(31).wrapping_add(i));
    }
    x
}

/// The constant tests change to make a build of other code
/// (`tests/common/builds.rs`): the harness compares two builds' functions
/// before it counts their instructions, and a copy of the fixture with
/// bytes appended has the same code.
const BUILD_MARK: u64 = 0x5eed_c0de_b1d5_0001;

#[inline(never)]
fn build_mark() -> u64 {
    black_box(BUILD_MARK)
}

fn benches(c: &mut Criterion) {
    black_box(build_mark());
    c.bench_function("fast/add", |b| b.iter(|| black_box(1u64) + black_box(2u64)));

    let work: u64 = std::env::var("FIXTURE_WORK")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(200);
    c.bench_function("work/spin", |b| b.iter(|| spin(black_box(work))));

    // The same cost on a fake clock: FIXTURE_WORK ns per iteration with a
    // ±0.2 % pattern, so verdicts do not depend on the machine's load. The
    // pattern is not the same from run to run (how many calls the warm-up
    // makes depends on the real clock), so it stays small enough that two
    // runs of the same work never differ by 1 %, tasty-bench's resolution.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    c.bench_function("fake/work", |b| {
        b.iter_custom(|n| {
            spin(n);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let noise = 0.998 + (state % 400) as f64 / 100_000.0;
            std::time::Duration::from_nanos((n as f64 * work as f64 * noise) as u64)
        })
    });

    if std::env::var_os("FIXTURE_PANIC").is_some() {
        c.bench_function("panics", |b| {
            b.iter(|| {
                if black_box(true) {
                    panic!("deliberate failure");
                }
            })
        });
    }

    let mut g = c.benchmark_group("odd names");
    for name in [
        "a/b",
        "a_b",
        "..",
        ".",
        "with space",
        "quote\"s",
        "<script>alert(1)</script>",
    ] {
        g.bench_function(name, |b| b.iter(|| spin(black_box(name.len() as u64))));
    }
    g.finish();

    let mut g = c.benchmark_group("sizes");
    for size in [64u64, 256] {
        g.throughput(Throughput::Bytes(size));
        g.bench_with_input(BenchmarkId::new("sum", size), &size, |b, &s| {
            b.iter(|| (0..s).map(black_box).sum::<u64>())
        });
    }
    g.finish();

    c.bench_function("empty", |b| b.iter(|| {}));
}

/// Routines with a known noise, for adaptive sampling: their "time" comes
/// from a fake clock (`iter_custom`), so the machine's noise plays no part.
fn adaptive(c: &mut Criterion) {
    if std::env::var_os("FIXTURE_ADAPTIVE").is_none() {
        return;
    }
    // Each also spins n times, so that the wall clock the warm-up reads
    // grows with n as a real routine's does.
    c.bench_function("adaptive/stable", |b| {
        b.iter_custom(|n| {
            spin(n);
            std::time::Duration::from_nanos(100u64.saturating_mul(n))
        })
    });
    c.bench_function("adaptive/noisy", noisy(100.0));
}

/// `cost` ns per iteration on a fake clock with ±50 % noise per sample,
/// and a short real pause per sample so that time-outs pass. The noise is
/// seeded by the process: worker processes drawing one sequence would
/// agree exactly whenever they took as many samples, and their spread
/// would then reach any precision.
fn noisy(cost: f64) -> impl FnMut(&mut criterion::Bencher<'_>) {
    let mut state = 0x2545_f491_4f6c_dd1du64 ^ (u64::from(std::process::id()) << 20);
    move |b| {
        b.iter_custom(|n| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let noise = 0.5 + (state % 1000) as f64 / 1000.0;
            spin(n);
            std::thread::sleep(std::time::Duration::from_millis(1));
            std::time::Duration::from_nanos((cost * n as f64 * noise) as u64)
        })
    }
}

/// Per-group options, tasty-bench's `localOption`: one group stops by
/// tasty-bench's rule and fails past a 10 % slow-down; another samples to
/// ±0.5 % with a 0.3 s time-out. Both on fake clocks costing FIXTURE_WORK
/// ns per iteration (the second with ±50 % noise, so it times out).
fn local_options(c: &mut Criterion) {
    if std::env::var_os("FIXTURE_LOCAL").is_none() {
        return;
    }
    let work: f64 = std::env::var("FIXTURE_WORK")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(200.0);
    let mut g = c.benchmark_group("local");
    g.stdev(0.05)
        .fail_if_slower(0.10)
        .timeout(std::time::Duration::from_secs(2));
    g.bench_function("work", |b| {
        b.iter_custom(|n| {
            spin(n);
            std::time::Duration::from_nanos((n as f64 * work) as u64)
        })
    });
    g.finish();
    let mut g = c.benchmark_group("local_adaptive");
    g.target_precision(0.005)
        .timeout(std::time::Duration::from_millis(300));
    g.bench_function("noisy", noisy(work));
    g.finish();
}

/// Routines for sampling in worker processes, on a fake clock so that
/// verdicts do not depend on the machine: `processes/steady` costs
/// `FIXTURE_WORK` ns per iteration (times `FIXTURE_SLOWER`, default 1) in
/// every process; `processes/offset` adds +6 % in even-numbered worker
/// processes and −6 % in odd ones, a run-to-run noise the same in every
/// run. `FIXTURE_HANG` adds a benchmark that never returns,
/// `FIXTURE_PROCESS_PANIC` one that panics.
fn processes(c: &mut Criterion) {
    if std::env::var_os("FIXTURE_PROCESSES").is_none() {
        return;
    }
    let var = |name: &str, default: f64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(default)
    };
    let per_iter = var("FIXTURE_WORK", 200.0) * var("FIXTURE_SLOWER", 1.0) * built_in_factor();
    // With `FIXTURE_VALGRIND_SETUP` (seconds), three benchmarks whose
    // setup takes that long under Valgrind only (which preloads its own
    // library): what base64's 30 MB inputs cost the count before
    // measuring, without costing the measurement anything.
    if let Ok(secs) = std::env::var("FIXTURE_VALGRIND_SETUP") {
        let secs: u64 = secs.parse().unwrap_or(0);
        for k in 1..=3 {
            c.bench_function(&format!("processes/valgrind_setup/{k}"), move |b| {
                let preload = std::env::var("LD_PRELOAD").unwrap_or_default();
                if preload.contains("vgpreload") {
                    std::thread::sleep(std::time::Duration::from_secs(secs));
                }
                b.iter(|| black_box(1u64) + 1)
            });
        }
    }
    if std::env::var_os("FIXTURE_HANG").is_some() {
        c.bench_function("processes/hangs", |b| {
            b.iter(|| loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
            })
        });
    }
    if std::env::var_os("FIXTURE_PROCESS_PANIC").is_some() {
        c.bench_function("processes/panics", |b| {
            b.iter(|| assert!(black_box(false), "deliberate failure in a worker"))
        });
    }
    // A large setup (`FIXTURE_SETUP_MB`), built before the benchmarks as a
    // suite's input data is, so that every process that reaches them holds
    // it; with `FIXTURE_SETUP_IN_BENCH`, built by the benchmark itself, so
    // that only the processes that measure it do.
    // With `FIXTURE_SETUP_STATIC`, kept in a static, as data built in a
    // hand-written `main` is: held until the process exits.
    let mb = var("FIXTURE_SETUP_MB", 0.0) as usize;
    // Filled by memset, resident: a loop over a range may call the range's
    // `next` as a dependency compiled it (generics are shared below
    // opt-level 2); with dependencies unoptimised, 80 MB took seconds.
    let make = move || -> Vec<u8> { vec![1u8; mb << 20] };
    let in_bench = std::env::var_os("FIXTURE_SETUP_IN_BENCH").is_some();
    static KEPT: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let kept = std::env::var_os("FIXTURE_SETUP_STATIC").is_some();
    let setup = if in_bench || kept { Vec::new() } else { make() };
    let setup: &[u8] = if kept { KEPT.get_or_init(make) } else { &setup };
    c.bench_function("processes/setup", |b| {
        yardstick_tests::record_parent_memory();
        let own = if in_bench { make() } else { Vec::new() };
        let data = if in_bench { &own[..] } else { setup };
        b.iter(|| black_box(data.len()) + black_box(data.first().copied().unwrap_or(0)) as usize)
    });
    // With `FIXTURE_CALLS` (a file), each call of the function appends
    // `worker <pid> cpu <n>` or `parent <pid> cpu <n>`: how often the code
    // before `iter` (a benchmark's setup) runs in each process, and where.
    c.bench_function("once/calls", |b| {
        record_call();
        // With `FIXTURE_SETUP_PANIC_PAIR` (a worker number), the setup
        // panics in the workers of that number alone.
        if let Ok(index) = std::env::var("YARDSTICK_WORKER_INDEX") {
            if std::env::var("FIXTURE_SETUP_PANIC_PAIR").is_ok_and(|p| p == index) {
                panic!("deliberate setup failure in worker {index}");
            }
        }
        b.iter_custom(|n| {
            spin(n);
            std::time::Duration::from_nanos((n as f64 * per_iter) as u64)
        })
    });
    let turns = built_in_spin();
    c.bench_function("processes/steady", |b| {
        b.iter_custom(|n| {
            // A hundred turns an iteration: the change shows in the
            // instructions of a single iteration, however few are counted.
            spin((n as f64 * 100.0 * turns) as u64);
            std::time::Duration::from_nanos((n as f64 * per_iter * turns) as u64)
        })
    });
    let index: u64 = var("YARDSTICK_WORKER_INDEX", 0.0) as u64;
    let offset = if index % 2 == 0 { 1.06 } else { 0.94 };
    c.bench_function("processes/offset", |b| {
        b.iter_custom(|n| {
            spin(n);
            std::time::Duration::from_nanos((n as f64 * per_iter * offset) as u64)
        })
    });
}

fn record_call() {
    let Some(file) = std::env::var_os("FIXTURE_CALLS") else {
        return;
    };
    let who = if criterion::frontend::is_worker() {
        "worker"
    } else {
        "parent"
    };
    let line = format!("{who} {} cpu {}", std::process::id(), cpu());
    yardstick_tests::append_line(Path::new(&file), &line);
}

/// The CPU this process runs on (-1 where unknown).
fn cpu() -> i32 {
    #[cfg(target_os = "linux")]
    // SAFETY: no arguments; it only reads the calling thread's CPU.
    return unsafe { libc::sched_getcpu() };
    #[cfg(not(target_os = "linux"))]
    -1
}

/// A change compiled into a build, as the lock-step tests need one: a copy
/// of this binary with `\nFIXTURE_FACTOR=<f>` appended (an ELF file runs
/// with bytes after its sections) costs `f` times as much in
/// `processes/*`. Unlike `FIXTURE_SLOWER`, which both sides of a lock-step
/// comparison read from the one environment, it is in the bytes of one
/// side only.
fn built_in_factor() -> f64 {
    built_in(b"\nFIXTURE_FACTOR=")
}

/// `\nFIXTURE_SPIN=<f>` appended: `processes/steady` also spins `f` times
/// as many loop turns, so its instructions change with its time (a change
/// to what the code runs, where `FIXTURE_FACTOR` changes only the time).
fn built_in_spin() -> f64 {
    built_in(b"\nFIXTURE_SPIN=")
}

/// The number after `MARK` near the end of this executable's bytes (up to
/// the next newline, so that two marks can follow each other), 1 when
/// there is none.
fn built_in(mark: &[u8]) -> f64 {
    // Only the tail is read: every worker process asks, and reading the
    // whole 30 MB executable twice a worker was half of the lock-step
    // tests' time (kernel copies and page faults).
    let tail = || -> std::io::Result<Vec<u8>> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = std::fs::File::open(std::env::current_exe()?)?;
        let len = file.metadata()?.len();
        file.seek(SeekFrom::Start(len.saturating_sub(64)))?;
        let mut tail = Vec::with_capacity(64);
        file.read_to_end(&mut tail)?;
        Ok(tail)
    };
    let Ok(tail) = tail() else {
        return 1.0;
    };
    tail.windows(mark.len())
        .rposition(|w| w == mark)
        .and_then(|at| std::str::from_utf8(&tail[at + mark.len()..]).ok())
        .and_then(|f| f.split('\n').next()?.trim().parse().ok())
        .unwrap_or(1.0)
}

/// Known costs for the extra metrics: one allocation of 800 bytes per
/// iteration, and a sleep that costs wall time but almost no CPU time.
fn metered(c: &mut Criterion) {
    if std::env::var_os("FIXTURE_METERS").is_none() {
        return;
    }
    c.bench_function("alloc/vec100", |b| {
        b.iter(|| Vec::<u64>::with_capacity(black_box(100)))
    });
    let mut g = c.benchmark_group("sleep");
    g.sampling_mode(criterion::SamplingMode::Flat);
    g.bench_function("2ms", |b| {
        b.iter(|| std::thread::sleep(std::time::Duration::from_millis(2)))
    });
    g.finish();
}

/// Two alternatives on a fake clock whose speed drifts by 20 % every 30
/// calls (as a shared machine does); B always costs 5 % more than A. A
/// round is 3 calls, so a drift step falls inside at most one round in
/// ten; the others see the same speed throughout.
fn interleaved(c: &mut Criterion) {
    if std::env::var_os("FIXTURE_INTERLEAVE").is_none() {
        return;
    }
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let fake = |cost: f64| {
        move |b: &mut criterion::Bencher<'_>| {
            b.iter_custom(|n| {
                spin(n);
                let call = CALLS.fetch_add(1, Ordering::Relaxed);
                let drift = if (call / 30) % 2 == 0 { 1.0 } else { 1.2 };
                std::time::Duration::from_nanos((n as f64 * cost * drift) as u64)
            })
        }
    };
    c.compare_interleaved("pair")
        .alternative("a", fake(100.0))
        .alternative("b", fake(105.0))
        .alternative("same", fake(100.0))
        .run();
}

/// Known complexities on a fake clock: 5 ns per element and 0.5 ns per
/// element squared, with Big-O fits, ratios and a requirement.
fn scaling(c: &mut Criterion) {
    let Ok(factor) = std::env::var("FIXTURE_SCALING") else {
        return;
    };
    let mut g = c.benchmark_group("scaling");
    g.compare_by_id(true);
    g.require_faster("linear", "quadratic", factor.parse().unwrap());
    for n in [10u64, 100, 1000, 10_000] {
        g.bench_with_input(BenchmarkId::new("quadratic", n), &n, |b, &n| {
            b.iter_custom(|iters| {
                spin(iters);
                std::time::Duration::from_nanos(iters * n * n / 2)
            })
        });
        g.bench_with_input(BenchmarkId::new("linear", n), &n, |b, &n| {
            b.iter_custom(|iters| {
                spin(iters);
                std::time::Duration::from_nanos(iters * n * 5)
            })
        });
    }
    g.finish();
}

/// The 0.3-era API, whose ids follow 0.3's rules.
fn legacy(c: &mut Criterion) {
    c.bench_functions(
        "legacy_functions",
        vec![
            Fun::new("A", |b, i: &u64| b.iter(|| spin(*i))),
            Fun::new("B", |b, i: &u64| b.iter(|| spin(*i + 1))),
        ],
        15,
    );
    c.bench(
        "param",
        ParameterizedBenchmark::new("A", |b, i: &u64| b.iter(|| spin(*i)), vec![1u64, 2])
            .with_function("B", |b, i: &u64| b.iter(|| spin(*i + 1))),
    );
    c.bench("alone", Benchmark::new("alone", |b| b.iter(|| spin(3))));
}

/// The guide's custom measurement: time in half-seconds, with its own
/// formatter (`s/2`).
struct HalfSeconds;

struct HalfSecFormatter;

impl criterion::measurement::ValueFormatter for HalfSecFormatter {
    fn scale_values(&self, _typical: f64, _values: &mut [f64]) -> &'static str {
        "s/2"
    }
    fn scale_throughputs(&self, _: f64, _: &Throughput, values: &mut [f64]) -> &'static str {
        for v in values {
            *v = 1.0 / *v;
        }
        "b/s/2"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "s/2"
    }
}

impl criterion::measurement::Measurement for HalfSeconds {
    type Intermediate = std::time::Instant;
    type Value = std::time::Duration;
    fn start(&self) -> Self::Intermediate {
        std::time::Instant::now()
    }
    fn end(&self, i: Self::Intermediate) -> Self::Value {
        i.elapsed()
    }
    fn add(&self, a: &Self::Value, b: &Self::Value) -> Self::Value {
        *a + *b
    }
    fn zero(&self) -> Self::Value {
        std::time::Duration::ZERO
    }
    fn to_f64(&self, v: &Self::Value) -> f64 {
        v.as_secs_f64() * 2.0
    }
    fn formatter(&self) -> &dyn criterion::measurement::ValueFormatter {
        &HalfSecFormatter
    }
}

fn custom(c: &mut Criterion<HalfSeconds>) {
    if std::env::var_os("FIXTURE_CUSTOM").is_none() {
        return;
    }
    c.bench_function("custom/halfsec", |b| b.iter(|| spin(black_box(100))));
}

/// Writes a line per hook call, so a test can see the hooks ran.
struct LineProfiler;

impl Profiler for LineProfiler {
    fn start_profiling(&mut self, id: &str, dir: &Path) {
        println!("profiler: start {id} in {}", dir.display());
    }
    fn stop_profiling(&mut self, id: &str, _dir: &Path) {
        println!("profiler: stop {id}");
    }
}

criterion_group! {
    name = group;
    config = Criterion::default().with_profiler(LineProfiler);
    targets = benches, legacy, adaptive, metered, interleaved, scaling, processes, local_options
}
criterion_group! {
    name = custom_group;
    config = Criterion::default().with_measurement(HalfSeconds);
    targets = custom
}
/// Extra metrics chosen in code rather than with `--measure`: the whole
/// `Criterion` counts allocations and their bytes, one group deallocations
/// and bytes instead. Each body allocates one `Vec<u64>` and frees it.
fn api_metrics(c: &mut Criterion) {
    // `FIXTURE_NO_SUMMARY`: a hand-written `main` that never calls
    // `final_summary`, which ends here, after the other groups (and the
    // benchmarks they queued) ran.
    if std::env::var_os("FIXTURE_NO_SUMMARY").is_some() {
        std::process::exit(0);
    }
    if std::env::var_os("FIXTURE_API_METRICS").is_none() {
        return;
    }
    c.bench_function("api/vec100", |b| {
        b.iter(|| Vec::<u64>::with_capacity(black_box(100)))
    });
    let mut g = c.benchmark_group("api_group");
    g.metrics(&[Metric::Deallocations, Metric::AllocatedBytes]);
    g.bench_function("vec50", |b| {
        b.iter(|| Vec::<u64>::with_capacity(black_box(50)))
    });
    g.finish();
    // After the group, the Criterion's own choice again.
    c.bench_function("api/vec10", |b| {
        b.iter(|| Vec::<u64>::with_capacity(black_box(10)))
    });
}

criterion_group! {
    name = metrics_group;
    config = Criterion::default().with_metrics(&[Metric::Allocations, Metric::AllocatedBytes]);
    targets = api_metrics
}
criterion_main!(group, custom_group, metrics_group);
