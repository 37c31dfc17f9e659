//! The bench binary's main loop: parse the command line, then either run one
//! benchmark inside Valgrind (the child), list, test natively, or measure
//! every benchmark under callgrind and report.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::__private::{Context, TOGGLE_PATTERN};
use crate::bench::LibraryBenchmarkGroup;
use crate::binary::{BinaryBenchmarkGroup, ExitWith};
use crate::cli::{self, NoCapture, Options, OutputFormat, Parsed};
use crate::compare::{format_line, Diff};
use crate::config::LibraryBenchmarkConfig;
use crate::job::Job;
use crate::metrics::EventKind;
use crate::printer::Printer;
use crate::summary::BenchmarkSummary;

/// Exit status: a benchmark or tool failed, or Valgrind is missing.
pub const EXIT_FAILED: i32 = 1;
/// Exit status: bad usage.
pub const EXIT_USAGE: i32 = 2;
/// Exit status: a regression limit was breached.
pub const EXIT_REGRESSED: i32 = 3;

fn parse_options() -> Result<Options, i32> {
    match cli::parse(std::env::args_os().skip(1), |k| std::env::var(k).ok()) {
        Ok(Parsed::Run(o)) => Ok(*o),
        Ok(Parsed::Help) => {
            print!("{}", cli::HELP);
            Err(0)
        }
        Err(e) => {
            eprintln!("{e}");
            Err(EXIT_USAGE)
        }
    }
}

/// Runs a bench binary of library benchmarks; returns the exit status.
pub fn run_library(
    context: Context,
    config: LibraryBenchmarkConfig,
    groups: Vec<LibraryBenchmarkGroup>,
) -> i32 {
    // Inside Valgrind every new line of code executed costs a translation:
    // the child looks for its flag before parsing anything else.
    let mut args = std::env::args_os().skip(1);
    if args.next().is_some_and(|a| a == cli::CHILD_FLAG) {
        let spec = args.next().map(|s| s.to_string_lossy().into_owned());
        return run_child(spec.as_deref().unwrap_or(""), &groups);
    }
    let opts = match parse_options() {
        Ok(o) => o,
        Err(code) => return code,
    };
    if let Some(child) = &opts.child {
        return run_child(child, &groups);
    }
    let exe = std::env::current_exe().ok();
    let base = base_dir(&context, &opts, exe.as_deref());
    let mut jobs = Vec::new();
    for (gi, group) in groups.iter().enumerate() {
        let group_config = match &group.config {
            Some(c) => config.merged(c),
            None => config.clone(),
        };
        for (bi, bench) in group.benchmarks.iter().enumerate() {
            let mut merged = group_config.clone();
            if let Some(c) = &bench.function_config {
                merged = merged.merged(c);
            }
            if let Some(c) = &bench.config {
                merged = merged.merged(c);
            }
            let mut dir = base.clone();
            let mut path = context.module.to_owned();
            if !group.name.is_empty() {
                dir.push(crate::paths::sanitize(group.name));
                path.push_str("::");
                path.push_str(group.name);
            }
            path.push_str("::");
            path.push_str(bench.function);
            dir.push(crate::paths::sanitize(&bench.file_name()));
            let filter_id = match &bench.id {
                Some(id) => format!("{path} {id}"),
                None => path.clone(),
            };
            jobs.push(Job {
                kind: "library",
                header: format!("{path}{}", bench.header_suffix()),
                filter_id,
                dir,
                name: bench.file_name(),
                group: group.name.to_owned(),
                function: bench.function.to_owned(),
                id: bench.id.clone(),
                details: bench.args.clone(),
                program: exe.clone().unwrap_or_default(),
                args: vec![
                    OsString::from(cli::CHILD_FLAG),
                    OsString::from(format!("{gi}/{bi}")),
                ],
                toggle: Some(TOGGLE_PATTERN.to_owned()),
                config: merged,
                exit_with: ExitWith::Success,
                setup: None,
                teardown: None,
                native: Some(bench.run),
                compare_by_id: group.compare_by_id,
            });
        }
    }
    drive(&context, &opts, jobs, &[])
}

/// Runs a bench binary of binary benchmarks; returns the exit status.
pub fn run_binary(
    context: Context,
    config: LibraryBenchmarkConfig,
    groups: Vec<BinaryBenchmarkGroup>,
) -> i32 {
    let opts = match parse_options() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let exe = std::env::current_exe().ok();
    let base = base_dir(&context, &opts, exe.as_deref());
    let mut jobs = Vec::new();
    let mut hooks = Vec::new();
    for group in &groups {
        let group_config = config.merged(&group.config);
        hooks.push((group.name, group.before, group.after));
        for run in &group.runs {
            let cmd = match (&run.cmd, &group.crate_cmd) {
                (Some(c), _) => c.clone(),
                (None, Some(name)) => crate_binary(exe.as_deref(), name),
                (None, None) => {
                    eprintln!(
                        "error: a Run of group '{}' has no command: use Run::with_cmd or name a \
                         binary in binary_benchmark_group!(benchmark = |\"name\", group: …| …)",
                        group.name
                    );
                    return EXIT_USAGE;
                }
            };
            let mut merged = group_config.merged(&run.config);
            if let Some(f) = &merged.fixtures {
                if f.is_relative() {
                    merged.fixtures = Some(Path::new(context.manifest_dir).join(f));
                }
            }
            for arg in &run.args {
                let shown = std::iter::once(short_cmd(&cmd))
                    .chain(arg.args.iter().map(|a| quote(&a.to_string_lossy())))
                    .collect::<Vec<_>>()
                    .join(" ");
                let path = format!("{}::{}", context.module, group.name);
                jobs.push(Job {
                    kind: "binary",
                    header: format!("{path} {}:{shown}", arg.id),
                    filter_id: format!("{path} {}", arg.id),
                    dir: base
                        .join(crate::paths::sanitize(group.name))
                        .join(crate::paths::sanitize(&arg.id)),
                    name: arg.id.clone(),
                    group: group.name.to_owned(),
                    function: cmd.display().to_string(),
                    id: Some(arg.id.clone()),
                    details: shown,
                    program: cmd.clone(),
                    args: arg.args.clone(),
                    toggle: run.entry_point.clone(),
                    config: merged.clone(),
                    exit_with: run.exit_with,
                    setup: group.setup,
                    teardown: group.teardown,
                    native: None,
                    compare_by_id: false,
                });
            }
        }
    }
    drive(&context, &opts, jobs, &hooks)
}

/// A binary of the benchmarking package: beside the bench binary's folder
/// (`target/<profile>/<name>` for `target/<profile>/deps/<bench>`).
fn crate_binary(exe: Option<&Path>, name: &str) -> PathBuf {
    exe.and_then(Path::parent)
        .map(|deps| {
            let beside = deps.join(name);
            if beside.is_file() {
                beside
            } else {
                deps.parent().unwrap_or(deps).join(name)
            }
        })
        .unwrap_or_else(|| PathBuf::from(name))
}

fn short_cmd(cmd: &Path) -> String {
    cmd.file_name().map_or_else(
        || cmd.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn quote(s: &str) -> String {
    if s.is_empty() || s.contains(char::is_whitespace) || s.contains('"') {
        format!("\"{}\"", s.replace('"', "\\\""))
    } else {
        s.to_owned()
    }
}

/// `<home>/[<triple>/]<package>/<bench file>`.
fn base_dir(context: &Context, opts: &Options, exe: Option<&Path>) -> PathBuf {
    let mut home = crate::paths::home(opts.home.as_deref(), exe, Path::new(context.manifest_dir));
    if opts.separate_targets {
        home.push(env!("YARDSTICK_CALLGRIND_TARGET"));
    }
    let file = Path::new(context.file).file_stem().map_or_else(
        || context.module.to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    home.join(crate::paths::sanitize(context.package))
        .join(crate::paths::sanitize(&file))
}

fn run_child(spec: &str, groups: &[LibraryBenchmarkGroup]) -> i32 {
    let found = spec.split_once('/').and_then(|(g, b)| {
        let g: usize = g.parse().ok()?;
        let b: usize = b.parse().ok()?;
        groups.get(g)?.benchmarks.get(b)
    });
    match found {
        Some(bench) => {
            (bench.run)();
            0
        }
        None => {
            eprintln!("error: no benchmark '{spec}' in this binary");
            EXIT_USAGE
        }
    }
}

fn selected(job: &Job, opts: &Options) -> bool {
    opts.filters.is_empty()
        || opts.filters.iter().any(|f| {
            if opts.exact {
                job.filter_id == *f
            } else {
                job.filter_id.contains(f.as_str())
            }
        })
}

type Hooks<'a> = [(&'a str, Option<fn()>, Option<fn()>)];

fn drive(context: &Context, opts: &Options, jobs: Vec<Job>, hooks: &Hooks<'_>) -> i32 {
    let jobs: Vec<Job> = jobs.into_iter().filter(|j| selected(j, opts)).collect();
    if opts.list {
        for j in &jobs {
            println!("{}: benchmark", j.filter_id);
        }
        return 0;
    }
    if !opts.bench {
        return test_natively(&jobs, hooks);
    }
    if let Err(line) = crate::valgrind::check() {
        eprintln!("{line}");
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
                println!("  Comparison with {} {}", other.function, other.suffix);
                for (kind, new) in &counts {
                    let theirs = other
                        .counts
                        .iter()
                        .find(|(k, _)| k == kind)
                        .and_then(|(_, v)| *v);
                    println!("{}", format_line(*kind, &Diff::new(theirs, *new)));
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
                eprintln!("error: {e}");
            }
        }
        if !self.failed.is_empty() {
            eprintln!("error: {} benchmark(s) failed", self.failed.len());
            EXIT_FAILED
        } else if !self.regressions.is_empty() {
            eprintln!("error: Performance has regressed.");
            EXIT_REGRESSED
        } else {
            0
        }
    }
}

fn hook(hooks: &Hooks<'_>, group: &str, before: bool) {
    for (name, b, a) in hooks {
        if *name == group {
            let f = if before { b } else { a };
            if let Some(f) = f {
                f();
            }
        }
    }
}

fn emit(summary: &BenchmarkSummary, opts: &Options) {
    match opts.output_format {
        OutputFormat::Default => {}
        OutputFormat::Json => {
            println!("{}", serde_json::to_string(summary).unwrap_or_default());
        }
        OutputFormat::PrettyJson => {
            println!(
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
        let tmp = path.with_extension("json.tmp");
        if let Err(e) = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &path)) {
            eprintln!("warning: cannot write {}: {e}", path.display());
        }
    }
}

/// Without `--bench` (as `cargo test --benches` runs bench binaries): each
/// benchmark runs once, natively, and must not fail.
fn test_natively(jobs: &[Job], hooks: &Hooks<'_>) -> i32 {
    let mut failed = 0;
    let mut current_group: Option<&str> = None;
    for job in jobs {
        if current_group != Some(job.group.as_str()) {
            if let Some(g) = current_group {
                hook(hooks, g, false);
            }
            hook(hooks, &job.group, true);
            current_group = Some(job.group.as_str());
        }
        println!("Testing {}", job.header);
        let result = match job.native {
            Some(f) => std::panic::catch_unwind(f).map_err(|_| "panicked".to_owned()),
            None => test_binary(job),
        };
        match result {
            Ok(()) => println!("Success"),
            Err(e) => {
                println!("FAILED {}: {e}", job.header);
                failed += 1;
            }
        }
    }
    if let Some(g) = current_group {
        hook(hooks, g, false);
    }
    if failed > 0 {
        EXIT_FAILED
    } else {
        0
    }
}

fn test_binary(job: &Job) -> Result<(), String> {
    let sandbox = if job.sandboxed() {
        Some(crate::sandbox::Sandbox::new(
            job.config.fixtures.as_deref(),
        )?)
    } else {
        None
    };
    let cwd = sandbox.as_ref().map(|s| s.path().to_owned());
    let (clear, envs) = job.environment();
    crate::measure::with_dir(cwd.as_deref(), job.setup);
    let mut cmd = std::process::Command::new(&job.program);
    cmd.args(&job.args).stdin(std::process::Stdio::null());
    let outcome = crate::valgrind::run_command(cmd, clear, &envs, cwd.as_deref(), NoCapture::False)
        .map_err(|e| format!("cannot start {}: {e}", job.program.display()))?;
    crate::measure::with_dir(cwd.as_deref(), job.teardown);
    if job.exit_with.accepts(outcome.code) {
        Ok(())
    } else {
        Err(format!(
            "exit code {:?}, expected {}\n{}",
            outcome.code,
            job.exit_with.describe(),
            outcome.output.trim_end()
        ))
    }
}
