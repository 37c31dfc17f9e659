//! Measuring the selected jobs under Valgrind: one at a time or in
//! parallel, printing in order, and the exit status at the end.

use std::io::Write;
use std::path::Path;

use crate::cli::{NoCapture, Options, OutputFormat};
use crate::compare::{format_line, Diff};
use crate::context::Context;
use crate::job::{hook, Hooks, Job};
use crate::metrics::EventKind;
use crate::printer::Printer;
use crate::summary::BenchmarkSummary;

/// Exit status: a benchmark or tool failed, or Valgrind is missing.
pub const EXIT_FAILED: i32 = 1;
/// Exit status: bad usage.
pub const EXIT_USAGE: i32 = 2;
/// Exit status: a regression limit was breached.
pub const EXIT_REGRESSED: i32 = 3;

pub(crate) fn selected(job: &Job, opts: &Options) -> bool {
    opts.filters.is_empty()
        || opts.filters.iter().any(|f| {
            if opts.exact {
                job.filter_id == *f
            } else {
                job.filter_id.contains(f.as_str())
            }
        })
}

/// `--partition`'s share of the selected jobs, in their order. A group
/// that compares its benchmarks by id is dealt whole.
fn in_shard(jobs: Vec<Job>, opts: &Options) -> Vec<Job> {
    let Some(p) = opts.partition else {
        return jobs;
    };
    let mut selector = yardstick_format::partition::Selector::new(p);
    jobs.into_iter()
        .filter(|j| {
            selector.admits(if j.compare_by_id {
                &j.group
            } else {
                &j.filter_id
            })
        })
        .collect()
}

pub(crate) fn drive(context: &Context, opts: &Options, jobs: Vec<Job>, hooks: &Hooks<'_>) -> i32 {
    let jobs: Vec<Job> = jobs.into_iter().filter(|j| selected(j, opts)).collect();
    let jobs = in_shard(jobs, opts);
    if opts.list {
        for j in &jobs {
            crate::printer::outln!("{}: benchmark", j.filter_id);
        }
        return 0;
    }
    if !opts.bench {
        return if crate::native::test_natively(&jobs, hooks) {
            0
        } else {
            EXIT_FAILED
        };
    }
    if let Err(line) = crate::valgrind::check() {
        crate::printer::errln!("{line}");
        return EXIT_FAILED;
    }
    let mut outcome = Outcome::default();
    let threads = parallelism(opts, &jobs, hooks);
    if threads > 1 {
        measure_in_parallel(&jobs, opts, threads, |job, summary, printer| {
            printer.print();
            outcome.compare_by_id(opts, job, &summary);
            outcome.add(context, opts, job, summary)
        });
    } else {
        let mut current_group: Option<&str> = None;
        for job in &jobs {
            if current_group != Some(job.group.as_str()) {
                if let Some(g) = current_group {
                    hook(hooks, g, false);
                }
                hook(hooks, &job.group, true);
                current_group = Some(job.group.as_str());
            }
            let mut printer = Printer::new(true);
            let summary = crate::measure::run(job, opts, &mut printer);
            outcome.compare_by_id(opts, job, &summary);
            if !outcome.add(context, opts, job, summary) {
                break;
            }
        }
        if let Some(g) = current_group {
            hook(hooks, g, false);
        }
    }
    outcome.finish()
}

/// How many benchmarks to measure at once: `--jobs` (default: the cores
/// available). Counts do not depend on it; one at a time when output is
/// shown live, when a run may stop early, or when hooks change the working
/// directory.
fn parallelism(opts: &Options, jobs: &[Job], hooks: &Hooks<'_>) -> usize {
    let wanted = opts.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let fail_fast = opts.regression_fail_fast
        || jobs
            .iter()
            .any(|j| j.config.regression.as_ref().is_some_and(|r| r.fail_fast));
    let hooked = jobs
        .iter()
        .any(|j| j.setup.is_some() || j.teardown.is_some())
        || hooks.iter().any(|(_, b, a)| b.is_some() || a.is_some());
    if opts.nocapture != NoCapture::False || fail_fast || hooked {
        1
    } else {
        wanted.clamp(1, jobs.len().max(1))
    }
}

/// Measures `jobs` on `threads` threads and hands each result, in the jobs'
/// order, to `done`; stops handing out jobs when `done` returns false.
fn measure_in_parallel(
    jobs: &[Job],
    opts: &Options,
    threads: usize,
    mut done: impl FnMut(&Job, BenchmarkSummary, Printer) -> bool,
) {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= jobs.len() || stop.load(Ordering::SeqCst) {
                    break;
                }
                let mut printer = Printer::new(false);
                let summary = crate::measure::run(&jobs[i], opts, &mut printer);
                if tx.send((i, summary, printer)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending = std::collections::BTreeMap::new();
        let mut expected = 0;
        for (i, summary, printer) in rx {
            pending.insert(i, (summary, printer));
            while let Some((summary, printer)) = pending.remove(&expected) {
                if !done(&jobs[expected], summary, printer) {
                    stop.store(true, Ordering::SeqCst);
                }
                expected += 1;
            }
        }
    });
}

/// What the run has seen so far, for the exit status.
#[derive(Default)]
struct Outcome {
    failed: Vec<BenchmarkSummary>,
    regressions: Vec<BenchmarkSummary>,
    /// Per (group, id): the function, header suffix and counts of each
    /// benchmark measured, for `compare_by_id`.
    by_id: Vec<Measured>,
}

/// A benchmark measured, as `compare_by_id` needs it.
struct Measured {
    group: String,
    id: String,
    function: String,
    suffix: String,
    counts: Vec<(EventKind, Option<u64>)>,
}

impl Outcome {
    /// With `compare_by_id`, prints the comparison of this benchmark with
    /// every earlier one of another function in the group with the same id
    /// (iai-callgrind's lines: the other's count left of `|`, this one's
    /// right).
    fn compare_by_id(&mut self, opts: &Options, job: &Job, summary: &BenchmarkSummary) {
        let (Some(id), Some(cg)) = (&job.id, &summary.callgrind) else {
            return;
        };
        if !job.compare_by_id {
            return;
        }
        let counts: Vec<(EventKind, Option<u64>)> = EventKind::SHOWN
            .into_iter()
            .filter_map(|k| cg.metrics.get(k.name()).map(|d| (k, d.new)))
            .collect();
        let suffix = job
            .header
            .split_once(' ')
            .map_or(String::new(), |(_, rest)| rest.to_owned());
        if opts.output_format == OutputFormat::Default {
            for other in &self.by_id {
                if other.group != job.group || other.id != *id || other.function == job.function {
                    continue;
                }
                crate::printer::outln!("  Comparison with {} {}", other.function, other.suffix);
                for (kind, new) in &counts {
                    let theirs = other
                        .counts
                        .iter()
                        .find(|(k, _)| k == kind)
                        .and_then(|(_, v)| *v);
                    crate::printer::outln!("{}", format_line(*kind, &Diff::new(theirs, *new)));
                }
            }
        }
        self.by_id.push(Measured {
            group: job.group.clone(),
            id: id.clone(),
            function: job.function.clone(),
            suffix,
            counts,
        });
    }

    /// Records one benchmark's summary (and prints or saves it as asked);
    /// false when the run should stop (a regression with fail-fast).
    fn add(
        &mut self,
        context: &Context,
        opts: &Options,
        job: &Job,
        mut summary: BenchmarkSummary,
    ) -> bool {
        summary.package = context.package.to_owned();
        summary.bench_file = Path::new(context.file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        emit(&summary, opts);
        let job_regressed = summary
            .callgrind
            .as_ref()
            .is_some_and(|c| !c.regressions.is_empty());
        let only_regressed = job_regressed
            && summary
                .errors
                .iter()
                .all(|e| e.contains("Performance has regressed"));
        if summary.failed && !only_regressed {
            self.failed.push(summary);
        } else if job_regressed {
            self.regressions.push(summary);
        }
        let fail_fast = opts.regression_fail_fast
            || job.config.regression.as_ref().is_some_and(|r| r.fail_fast);
        !(job_regressed && fail_fast)
    }

    /// Prints the failures and returns the exit status.
    fn finish(self) -> i32 {
        let _ = std::io::stdout().flush();
        for f in self.regressions.iter().chain(&self.failed) {
            for e in &f.errors {
                crate::printer::errln!("error: {e}");
            }
        }
        if !self.failed.is_empty() {
            crate::printer::errln!("error: {} benchmark(s) failed", self.failed.len());
            EXIT_FAILED
        } else if !self.regressions.is_empty() {
            crate::printer::errln!("error: Performance has regressed.");
            EXIT_REGRESSED
        } else {
            0
        }
    }
}

fn emit(summary: &BenchmarkSummary, opts: &Options) {
    match opts.output_format {
        OutputFormat::Default => {}
        OutputFormat::Json => {
            crate::printer::outln!("{}", serde_json::to_string(summary).unwrap_or_default());
        }
        OutputFormat::PrettyJson => {
            crate::printer::outln!(
                "{}",
                serde_json::to_string_pretty(summary).unwrap_or_default()
            );
        }
    }
    if let Some(format) = opts.save_summary {
        let text = if format == OutputFormat::PrettyJson {
            serde_json::to_string_pretty(summary)
        } else {
            serde_json::to_string(summary)
        }
        .unwrap_or_default();
        let path = Path::new(&summary.benchmark_dir).join("summary.json");
        if let Err(e) = yardstick_format::atomic::write_file(&path, text.as_bytes()) {
            crate::printer::errln!("warning: cannot write {}: {e}", path.display());
        }
    }
}
