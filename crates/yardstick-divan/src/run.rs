//! Runs each leaf of the tree of benchmarks (`tree.rs`) through
//! yardstick's engine (one `BenchmarkGroup` per benchmark function), then
//! prints divan's tree table, or lets the engine print yardstick's output.

use std::time::{Duration, Instant};

use yardstick::frontend::{self, FixedPlan, RunMode, Sampling};
use yardstick::measurement::WallTime;
use yardstick::{BenchmarkGroup, Criterion};

use crate::__private::BenchOptions;
use crate::bencher::{Runner, Sample};
use crate::cli::Args;
use crate::counter::CounterSet;
use crate::precision;
use crate::table::{self, Stats};
use crate::tree::{build, label_width, leaf_id, list, outline, sort, LeafSpec, Node};

/// Samples per benchmark unless told otherwise (divan's default).
const DEFAULT_SAMPLE_COUNT: u32 = 100;

/// Where divan-style tuning stops doubling a sample's iterations, whatever
/// the clock says (the engine's own cap on a sample).
const MAX_TUNED_ITERS: u64 = 1 << 40;

/// Bootstrap resamples of each analysis unless `--nresamples` (or
/// `YARDSTICK_NRESAMPLES`) says otherwise. divan's plan takes a few
/// milliseconds per benchmark, and at 10,000 resamples the bootstrap of the
/// estimates (and of the comparison) took twice that again. 2,000 is
/// the usual count for percentile intervals (Efron and Tibshirani, *An
/// Introduction to the Bootstrap*, 1993): the Monte Carlo error of a 95 %
/// bound is then 1.6 % of the interval's width (0.7 % at 10,000; simulated
/// with 100 normal samples), and p-values resolve to 0.0005.
const DEFAULT_NRESAMPLES: usize = 2_000;

/// Said under the tree when it shows changes of divan's plan.
const NO_VERDICT_NOTE: &str = "\
The changes above compare divan's plan with the baseline's: samples taken over
milliseconds, which leave out what differs from one run to the next, so they
are not verdicts. For verdicts, run with --target-precision 1: yardstick's own
sampling, in worker processes until ±1 %, about half a second a benchmark.";

/// Runs every registered benchmark as `args` asks.
pub(crate) fn main(args: &Args, title: &str) {
    if args.help {
        print!("{}", crate::cli::HELP);
        return;
    }
    let mut c = match frontend::configure(Criterion::default(), args.forward.clone()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    // Its loops are timed here, inside `iter_custom`: `--explain` counts
    // them, not the inputs made around them.
    frontend::times_its_own_loops();
    let mut tree = build(args, title);
    sort(&mut tree, args.sort, args.reverse);
    if args.list && args.terse {
        list(&tree, &mut vec![crate::tree::bench_crate().to_owned()]);
        return;
    }
    // divan prints nothing at all when the filters leave no benchmark.
    let selected = !tree.children.is_empty();
    if args.list {
        if selected {
            outline(&tree, title);
        }
        return;
    }
    // yardstick's output on request: any `--output-format` is one of its.
    let tree_output = !args
        .forward
        .iter()
        .any(|a| a.to_string_lossy().starts_with("--output-format"));
    if tree_output {
        frontend::silence(&mut c);
    }
    let mode = frontend::mode(&c);
    let printer = Printer {
        // A worker process measures on request and prints nothing.
        on: tree_output
            && selected
            && matches!(mode, RunMode::Benchmark | RunMode::Test)
            && !frontend::is_worker(),
        figures: mode == RunMode::Benchmark,
        width: label_width(&tree, 0).max(title.chars().count()),
        bytes_format: args.bytes_format,
    };
    if printer.on && printer.figures {
        // divan's first line, on stderr as divan writes it.
        eprintln!(
            "Timer precision: {}",
            precision::divan_duration(precision::timer_precision())
        );
    }
    if printer.on && printer.figures {
        println!("{}", table::header(title, printer.width));
    } else if printer.on {
        println!("{title}");
    }
    let nresamples_given = args
        .forward
        .iter()
        .any(|a| a.to_string_lossy().starts_with("--nresamples"))
        || std::env::var_os("YARDSTICK_NRESAMPLES").is_some();
    let mut ctx = Ctx {
        nresamples: (!nresamples_given).then_some(DEFAULT_NRESAMPLES),
        printer,
        mode,
        sampling: frontend::sampling(&c),
        cli: &args.options,
        changes_without_verdict: false,
    };
    let n = tree.children.len();
    for (i, child) in tree.children.iter().enumerate() {
        run_node(&mut c, &mut ctx, child, &mut vec![i + 1 == n]);
    }
    if ctx.printer.on {
        // divan ends its tree with a blank line.
        println!();
    }
    if ctx.changes_without_verdict {
        println!("{NO_VERDICT_NOTE}\n");
    }
    c.final_summary();
}

struct Printer {
    on: bool,
    /// Benchmarking (else testing: divan prints the tree without columns).
    figures: bool,
    width: usize,
    bytes_format: crate::counter::BytesFormat,
}

impl Printer {
    /// The row of a node without figures.
    fn empty(&self, label: &str) {
        if self.on && self.figures {
            println!("{}", table::empty(label, self.width));
        } else if self.on {
            println!("{label}");
        }
    }

    /// The row of a benchmark not run.
    fn ignored(&self, label: &str) {
        if self.on {
            println!("{}", table::ignored(label, self.width, self.figures));
        }
    }
}

struct Ctx<'a> {
    /// The plan's resamples (`None`: the run's, set on the command line).
    nresamples: Option<usize>,
    printer: Printer,
    mode: RunMode,
    sampling: Sampling,
    cli: &'a BenchOptions,
    /// Whether a change of divan's plan was printed (not a verdict).
    changes_without_verdict: bool,
}

fn run_node(c: &mut Criterion<WallTime>, ctx: &mut Ctx<'_>, node: &Node, last: &mut Vec<bool>) {
    let label = format!("{}{}", table::prefix(last), node.label);
    if let Some(path) = &node.function {
        let mut g = c.benchmark_group(path.clone());
        run_under(&mut g, ctx, node, &label, last);
        return;
    }
    ctx.printer.empty(&label);
    let n = node.children.len();
    for (i, child) in node.children.iter().enumerate() {
        last.push(i + 1 == n);
        run_node(c, ctx, child, last);
        last.pop();
    }
}

/// Runs a benchmark function's node and what is below it, in its group.
fn run_under(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ctx: &mut Ctx<'_>,
    node: &Node,
    label: &str,
    last: &mut Vec<bool>,
) {
    if node.ignored {
        ctx.printer.ignored(label);
        return;
    }
    if let Some(spec) = &node.leaf {
        run_leaf(g, ctx, spec, label, last);
    } else {
        ctx.printer.empty(label);
    }
    let n = node.children.len();
    for (i, child) in node.children.iter().enumerate() {
        last.push(i + 1 == n);
        let label = format!("{}{}", table::prefix(last), child.label);
        run_under(g, ctx, child, &label, last);
        last.pop();
    }
}

fn run_leaf(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ctx: &mut Ctx<'_>,
    spec: &LeafSpec,
    label: &str,
    last: &[bool],
) {
    let options = ctx.cli.over(&spec.options);
    if options.sample_count == Some(0) || options.sample_size == Some(0) {
        return;
    }
    let mut runner = LeafRunner {
        group: g,
        param: spec.param.clone(),
        threads: spec.threads,
        options: &options,
        mode: ctx.mode,
        sampling: ctx.sampling,
        nresamples: ctx.nresamples,
        samples: Vec::new(),
        planned: 0,
        probe: None,
        counters: CounterSet::default(),
        called: false,
    };
    let counters = options.counters.clone();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        (spec.leaf.run)(crate::Bencher::new(&mut runner, counters));
    }));
    if let Err(payload) = outcome {
        // A panic outside the timed routine (in the benchmark function's
        // own code): report it as the engine reports failures.
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        eprintln!(
            "FAILED {}: panicked: {what}",
            leaf_id(runner.group_name(), &spec.param)
        );
        yardstick::frontend::record_failure(&leaf_id(runner.group_name(), &spec.param));
        return;
    }
    if !runner.called && ctx.mode != RunMode::List {
        eprintln!(
            "warning: {}: the benchmark function never called a Bencher::bench method",
            leaf_id(runner.group_name(), &spec.param)
        );
    }
    let samples = runner.measured();
    let stats = Stats::of(&samples).filter(|_| ctx.printer.figures);
    let Some(stats) = stats.filter(|_| ctx.printer.on) else {
        ctx.printer.empty(label);
        return;
    };
    let mut row = table::line(label, ctx.printer.width, &stats.time_cells());
    if let Some(change) = frontend::change(runner.c(), runner.group_name(), spec.param.as_deref()) {
        // Only the engine's sampling is judged as a verdict: divan's plan
        // lasts too short a time for its processes (one, or `--processes`)
        // to show what differs between runs.
        let verdict = ctx.sampling == Sampling::Engine && change.between_processes;
        row.push_str(&change_text(&change, verdict));
        ctx.changes_without_verdict |= ctx.sampling == Sampling::OwnPlan;
    }
    println!("{row}");
    let below = table::continuation(last);
    for cells in stats.extra_rows(&samples, &runner.counters, ctx.printer.bytes_format) {
        println!("{}", table::line(&below, ctx.printer.width, &cells));
    }
}

/// The comparison with the baseline, after the row; the engine's verdict
/// with it when `verdict`.
fn change_text(ch: &frontend::Change, verdict: bool) -> String {
    let [p, lo, hi] = ch.mean.map(|x| x * 100.0);
    if !verdict {
        return format!("   {p:+.2}% [{lo:+.2}% {hi:+.2}%]");
    }
    let verdict = match (ch.flagged, p < 0.0, ch.too_noisy) {
        (true, true, _) => "improved".to_owned(),
        (true, false, _) => "regressed".to_owned(),
        (false, _, Some(half)) => format!("too noisy to tell (±{:.1}%)", half * 100.0),
        (false, _, None) => "no change".to_owned(),
    };
    format!("   {p:+.2}% [{lo:+.2}% {hi:+.2}%] {verdict}")
}

/// Hands a leaf's routine to the engine.
struct LeafRunner<'g, 'c, 'o> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
    param: Option<String>,
    threads: usize,
    options: &'o BenchOptions,
    mode: RunMode,
    sampling: Sampling,
    nresamples: Option<usize>,
    /// Every sample the engine took (warm-up included).
    samples: Vec<Sample>,
    /// Samples of the plan (the last ones taken).
    planned: usize,
    /// The plan's last probe, of the plan's iterations: what the table
    /// shows of allocations and inputs when the engine took the samples
    /// (in worker processes, or by its own rule).
    probe: Option<Sample>,
    counters: CounterSet,
    called: bool,
}

impl LeafRunner<'_, '_, '_> {
    fn group_name(&self) -> &str {
        frontend::group_name(self.group)
    }

    fn c(&self) -> &Criterion<WallTime> {
        frontend::group_criterion(self.group)
    }

    /// The samples of the plan: the engine's when worker processes took
    /// them, else the last `planned` ones taken here, all of the same size
    /// (the warm-up's come before them).
    fn measured(&self) -> Vec<Sample> {
        let engine = frontend::measured(self.group_name(), self.param.as_deref());
        let own_here = self.sampling == Sampling::OwnPlan;
        if let Some(m) = engine.filter(|m| m.in_workers || !own_here) {
            return from_engine(&m, self.probe.as_ref());
        }
        let Some(last) = self.samples.last() else {
            return Vec::new();
        };
        let mut out: Vec<Sample> = self
            .samples
            .iter()
            .rev()
            .take(self.planned)
            .take_while(|s| s.iters == last.iters)
            .cloned()
            .collect();
        out.reverse();
        out
    }

    /// divan's plan: `sample_count` samples of `sample_size` iterations, or
    /// of as many as divan's tuning finds (doubling from one until a sample
    /// takes over 100 times the clock's resolution); fewer samples when
    /// `max_time` would be passed, more when `min_time` would not be
    /// reached. The iterations are exact: the engine's own sizing times
    /// whole calls, input generation included, and came out several times
    /// smaller.
    ///
    /// As divan's, the time limits count from the benchmark's first sample
    /// and include what is not timed (making inputs, dropping outputs)
    /// unless `skip_ext_time` is set: a benchmark whose inputs take 100 ms
    /// each to make stops after about `max_time`, however fast the timed
    /// part is.
    fn plan(&self, sample: &mut dyn FnMut(u64) -> Sample) -> (FixedPlan, Option<Sample>) {
        let o = self.options;
        let started = Instant::now();
        let timed_only = o.skip_ext_time.unwrap_or(false);
        // One probe: its timed part and its whole cost.
        let mut last = None;
        let mut probe = |iters: u64| {
            let t0 = Instant::now();
            let s = sample(iters);
            let cost = (s.time, t0.elapsed());
            last = Some(s);
            cost
        };
        // The precision divan prints (and tunes with), not the engine's
        // clock resolution: the two are measured differently.
        let floor = precision::timer_precision()
            .saturating_mul(100)
            .max(Duration::from_micros(1));
        let mut iters = u64::from(o.sample_size.unwrap_or(1)).max(1);
        let (mut sample_time, mut whole) = probe(iters);
        let mut timed = sample_time;
        let spent = |timed: Duration| if timed_only { timed } else { started.elapsed() };
        if o.sample_size.is_none() {
            while sample_time <= floor
                && iters < MAX_TUNED_ITERS
                && o.max_time.map_or(true, |max| spent(timed) < max)
            {
                iters = iters.saturating_mul(2);
                (sample_time, whole) = probe(iters);
                timed += sample_time;
            }
        }
        let sample_time = sample_time.max(Duration::from_nanos(1));
        // A round on t threads gives t samples (see `run_on_threads`).
        let threads = self.threads.max(1);
        let per_sample = if timed_only {
            sample_time
        } else {
            whole.max(sample_time) / threads as u32
        };
        let left = |limit: Duration| {
            limit.saturating_sub(spent(timed)).as_secs_f64() / per_sample.as_secs_f64()
        };
        let mut samples = o.sample_count.unwrap_or(DEFAULT_SAMPLE_COUNT) as usize;
        if let Some(max) = o.max_time {
            samples = samples.min(left(max) as usize);
        }
        if let Some(min) = o.min_time {
            samples = samples.max(left(min).ceil() as usize);
        }
        let plan = FixedPlan {
            // Whole rounds, as divan's: 100 samples on 16 threads are 112.
            samples: samples.max(2).next_multiple_of(threads),
            sample_time,
            // Caches and the threads' first wake-ups; the iterations are
            // fixed, so the warm-up sizes nothing.
            warm_up: sample_time
                .saturating_mul(10)
                .clamp(Duration::from_micros(100), Duration::from_millis(50)),
            iters: Some(iters),
            nresamples: self.nresamples,
        };
        (plan, last)
    }
}

impl Runner for LeafRunner<'_, '_, '_> {
    fn threads(&self) -> usize {
        self.threads
    }

    fn run(&mut self, counters: CounterSet, _local: bool, sample: &mut dyn FnMut(u64) -> Sample) {
        if self.called {
            eprintln!(
                "warning: {}: a Bencher was used twice; the second routine is ignored",
                leaf_id(self.group_name(), &self.param)
            );
            return;
        }
        self.called = true;
        self.counters = counters;
        // A worker is told its samples by its parent, which sized them.
        if self.mode == RunMode::Benchmark && !frontend::is_worker() {
            let (plan, probe) = self.plan(sample);
            self.probe = probe;
            if self.sampling == Sampling::OwnPlan {
                self.planned = plan.samples;
                frontend::fixed_plan(self.group, &plan);
            }
        }
        let samples = &mut self.samples;
        frontend::bench(self.group, self.param.as_deref(), |b| {
            b.iter_custom(|n| {
                let s = sample(n);
                let t = s.time;
                samples.push(s);
                t
            });
        });
    }
}

/// The engine's samples (taken in worker processes, or by its own rule) as
/// the table's rows: the times as measured; the allocations and input
/// counts, which the engine does not keep, from this process's probe, per
/// iteration.
fn from_engine(m: &frontend::Measured, probe: Option<&Sample>) -> Vec<Sample> {
    m.iters
        .iter()
        .zip(&m.values)
        .map(|(&n, &ns)| {
            let iters = n as u64;
            let per = |total: i128, of: u64| total * i128::from(iters) / i128::from(of.max(1));
            let (alloc, input_counts) = probe.map_or_else(Default::default, |p| {
                let alloc = p.alloc.map(|row| row.map(|x| per(x, p.iters)));
                let inputs = (p.input_counts.iter())
                    .map(|&(c, total)| (c, per(total as i128, p.iters).max(0) as u128))
                    .collect();
                (alloc, inputs)
            });
            Sample {
                iters,
                time: Duration::from_secs_f64(ns.max(0.0) / 1e9),
                alloc,
                input_counts,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counter::{AnyCounter, Kind};

    fn change(flagged: bool, too_noisy: Option<f64>) -> frontend::Change {
        frontend::Change {
            mean: [0.05, 0.02, 0.08],
            flagged,
            between_processes: true,
            too_noisy,
        }
    }

    #[test]
    fn a_change_of_divans_plan_has_no_verdict() {
        assert_eq!(
            change_text(&change(true, None), false),
            "   +5.00% [+2.00% +8.00%]"
        );
    }

    #[test]
    fn a_change_between_processes_has_the_engines_verdict() {
        let text = |ch| change_text(&ch, true);
        assert_eq!(
            text(change(true, None)),
            "   +5.00% [+2.00% +8.00%] regressed"
        );
        let mut faster = change(true, None);
        faster.mean = [-0.05, -0.08, -0.02];
        assert_eq!(text(faster), "   -5.00% [-8.00% -2.00%] improved");
        assert_eq!(
            text(change(false, None)),
            "   +5.00% [+2.00% +8.00%] no change"
        );
        assert_eq!(
            text(change(false, Some(0.123))),
            "   +5.00% [+2.00% +8.00%] too noisy to tell (±12.3%)"
        );
    }

    #[test]
    fn engine_samples_take_their_counts_from_the_probe_per_iteration() {
        // The probe: 4 iterations, 8 allocations of 400 bytes in all, 4
        // inputs of 64 bytes (256). A sample of 10 iterations then counts
        // 20 allocations, 1000 bytes and 640 input bytes.
        let probe = Sample {
            iters: 4,
            time: Duration::from_nanos(400),
            alloc: [[0, 0], [8, 400], [0, 0], [0, 0], [0, 0]],
            input_counts: vec![(
                AnyCounter {
                    kind: Kind::Bytes,
                    count: 64,
                },
                256,
            )],
        };
        let m = frontend::Measured {
            iters: vec![10.0, 20.0],
            values: vec![1500.0, 2500.0],
            in_workers: true,
        };
        let samples = from_engine(&m, Some(&probe));
        assert_eq!(samples[0].iters, 10);
        assert_eq!(samples[0].time, Duration::from_nanos(1500));
        assert_eq!(samples[0].alloc[1], [20, 1000]);
        assert_eq!(samples[0].input_counts[0].1, 640);
        assert_eq!(samples[1].alloc[1], [40, 2000]);
        assert_eq!(samples[1].time, Duration::from_nanos(2500));
        // Without a probe (none taken), times only.
        assert_eq!(from_engine(&m, None)[0].alloc, [[0, 0]; 5]);
    }
}
