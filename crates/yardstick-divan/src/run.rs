//! Runs each leaf of the tree of benchmarks (`tree.rs`) through
//! yardstick's engine (one `BenchmarkGroup` per benchmark function), then
//! prints divan's tree table, or lets the engine print yardstick's output.

use std::time::{Duration, Instant};

use yardstick::frontend::{self, FixedPlan, RunMode};
use yardstick::measurement::WallTime;
use yardstick::{BenchmarkGroup, Criterion};

use crate::__private::BenchOptions;
use crate::bencher::{Runner, Sample};
use crate::cli::Args;
use crate::counter::CounterSet;
use crate::table::{self, Stats};
use crate::tree::{build, label_width, list, outline, sort, LeafSpec, Node};

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
    let mut tree = build(args, title);
    sort(&mut tree, args.sort, args.reverse);
    if args.list && args.terse {
        list(&tree, &mut Vec::new());
        return;
    }
    if args.list {
        outline(&tree, title);
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
        on: tree_output && matches!(mode, RunMode::Benchmark | RunMode::Test),
        figures: mode == RunMode::Benchmark,
        width: label_width(&tree, 0).max(title.chars().count()),
        bytes_format: args.bytes_format,
    };
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
        cli: &args.options,
    };
    let n = tree.children.len();
    for (i, child) in tree.children.iter().enumerate() {
        run_node(&mut c, &mut ctx, child, &mut vec![i + 1 == n]);
    }
    if ctx.printer.on {
        // divan ends its tree with a blank line.
        println!();
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
    cli: &'a BenchOptions,
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
        nresamples: ctx.nresamples,
        samples: Vec::new(),
        planned: 0,
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
        row.push_str(&change_text(&change));
    }
    println!("{row}");
    let below = table::continuation(last);
    for cells in stats.extra_rows(&samples, &runner.counters, ctx.printer.bytes_format) {
        println!("{}", table::line(&below, ctx.printer.width, &cells));
    }
}

fn leaf_id(group: &str, param: &Option<String>) -> String {
    match param {
        Some(p) => format!("{group}/{p}"),
        None => group.to_owned(),
    }
}

/// The comparison with the baseline, after the row.
fn change_text(ch: &frontend::Change) -> String {
    let [p, lo, hi] = ch.mean.map(|x| x * 100.0);
    let verdict = match (ch.flagged, p < 0.0) {
        (true, true) => "improved",
        (true, false) => "regressed",
        (false, _) => "no change",
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
    nresamples: Option<usize>,
    /// Every sample the engine took (warm-up included).
    samples: Vec<Sample>,
    /// Samples of the plan (the last ones taken).
    planned: usize,
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

    /// The samples of the plan: the last `planned` ones, all of the same
    /// size (the warm-up's come before them).
    fn measured(&self) -> Vec<Sample> {
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
    fn plan(&self, sample: &mut dyn FnMut(u64) -> Sample) -> FixedPlan {
        let o = self.options;
        let started = Instant::now();
        let timed_only = o.skip_ext_time.unwrap_or(false);
        // One probe: its timed part and its whole cost.
        let mut probe = |iters: u64| {
            let t0 = Instant::now();
            let s = sample(iters);
            (s.time, t0.elapsed())
        };
        let floor = frontend::clock_resolution()
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
        FixedPlan {
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
        }
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
        if self.mode == RunMode::Benchmark {
            let plan = self.plan(sample);
            self.planned = plan.samples;
            frontend::fixed_plan(self.group, &plan);
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
