//! `cargo yardstick exec`: benchmark shell commands like hyperfine, with
//! yardstick's analysis (bootstrap intervals, Tukey outliers) and history.

mod callgrind;
pub mod measure;
mod report;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use std::collections::BTreeMap;

use yardstick_format::exec::{CountExport, CountResult, ExecExport, ExecResult};
use yardstick_format::names::terminal_text;
use yardstick_format::units::TimeUnit;
use yardstick_stats::precision::{mean_relative_half_width, Stop, StopRule};
use yardstick_stats::univariate::{max, median, min};
use yardstick_stats::{classify, estimates, BootstrapConfig, Estimates, OutlierCounts};

use crate::args::{HomeArg, TableFormat};
use crate::db::Db;
use crate::failure::Failure;
use crate::host;
use crate::machine::{self, Root, Start};
use crate::record::{BenchResult, Interval, Run};
use measure::{Sample, Shell};

/// `exec` arguments. Options left out fall back to `[exec]` in the
/// configuration file, then to the defaults shown.
#[derive(Debug, Clone, clap::Args)]
pub struct ExecArgs {
    /// The commands to benchmark, each one argument (quote it).
    #[arg(required = true, value_name = "CMD")]
    pub commands: Vec<String>,
    /// Runs before measuring, not recorded (default 0).
    #[arg(long, short = 'w', value_name = "N")]
    pub warmup: Option<usize>,
    /// Exactly N runs per command (no adaptive stopping).
    #[arg(long, short = 'r', value_name = "N", conflicts_with_all = ["min_runs", "max_runs"])]
    pub runs: Option<usize>,
    /// At least N runs (default 10).
    #[arg(long, short = 'm', value_name = "N")]
    pub min_runs: Option<usize>,
    /// At most N runs (default 1000).
    #[arg(long, short = 'M', value_name = "N")]
    pub max_runs: Option<usize>,
    /// Stop once the 95% interval of the mean is within ± this fraction
    /// (default 0.01).
    #[arg(long, value_name = "FRACTION")]
    pub precision: Option<f64>,
    /// Stop after this many seconds of runs per command, when at least
    /// --min-runs are done (default 3).
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// A command run before every run (once for all, or once per command).
    #[arg(long, short = 'p', value_name = "CMD")]
    pub prepare: Vec<String>,
    /// Run each command for VAR = MIN, MIN+STEP, …, MAX, replacing {VAR}.
    #[arg(long, num_args = 3, value_names = ["VAR", "MIN", "MAX"])]
    pub parameter_scan: Vec<String>,
    /// Step of --parameter-scan (default 1).
    #[arg(long, value_name = "STEP", requires = "parameter_scan")]
    pub parameter_step: Option<f64>,
    /// The shell running each command (`sh`), or `none` to split the command
    /// into words and run it directly.
    #[arg(long, short = 'S', value_name = "SHELL")]
    pub shell: Option<String>,
    /// A name per command (instead of the command line).
    #[arg(long, short = 'n', value_name = "NAME")]
    pub name: Vec<String>,
    /// Write the results as hyperfine's JSON (readable by `import hyperfine`).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: Option<TableFormat>,
    /// Count instructions under `valgrind --tool=callgrind` instead of timing.
    #[arg(long)]
    pub callgrind: bool,
    /// Keep benchmarking commands that exit non-zero.
    #[arg(long, short = 'i')]
    pub ignore_failure: bool,
    /// Show the commands' output instead of discarding it.
    #[arg(long)]
    pub show_output: bool,
    /// A label for the recorded run.
    #[arg(long, value_name = "NAME")]
    pub label: Option<String>,
    /// Do not record the run in the history.
    #[arg(long)]
    pub no_history: bool,
    /// Also save each command's runs under the home directory in the
    /// Criterion.rs layout (benchmark `exec/<name>`) and write their HTML
    /// report, the one `cargo yardstick report` writes.
    #[arg(long, conflicts_with = "callgrind")]
    pub report: bool,
    /// Bootstrap resamples of the intervals.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub nresamples: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    #[command(flatten)]
    pub home: HomeArg,
}

/// What one benchmark is: its name, the command and its prepare command.
#[derive(Debug, Clone, PartialEq)]
struct Job {
    name: String,
    command: String,
    prepare: Option<String>,
    parameter: Option<(String, String)>,
}

fn bad(message: String) -> Failure {
    Failure { code: 2, message }
}

fn fail(message: String) -> Failure {
    Failure { code: 1, message }
}

fn number_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

fn jobs(a: &ExecArgs) -> Result<Vec<Job>, Failure> {
    let n = a.commands.len();
    if !a.prepare.is_empty() && a.prepare.len() != 1 && a.prepare.len() != n {
        return Err(bad(format!(
            "--prepare given {} times for {n} commands; give it once or once per command",
            a.prepare.len()
        )));
    }
    if !a.name.is_empty() && a.name.len() != n {
        return Err(bad(format!(
            "--name given {} times for {n} commands; give it once per command",
            a.name.len()
        )));
    }
    let values: Vec<Option<(String, String)>> = if a.parameter_scan.is_empty() {
        vec![None]
    } else {
        let var = a.parameter_scan[0].clone();
        let num = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad(format!("--parameter-scan: '{s}' is not a number")))
        };
        let (lo, hi) = (num(&a.parameter_scan[1])?, num(&a.parameter_scan[2])?);
        let step = a.parameter_step.unwrap_or(1.0);
        if !(step > 0.0 && step.is_finite()) || hi < lo {
            return Err(bad(format!(
                "--parameter-scan needs MIN ≤ MAX and a positive --parameter-step, got {lo}..{hi} step {step}"
            )));
        }
        let count = ((hi - lo) / step + 1e-9).floor() as usize + 1;
        if count > 10_000 {
            return Err(bad(format!(
                "--parameter-scan would run {count} values; at most 10000"
            )));
        }
        (0..count)
            .map(|i| Some((var.clone(), number_text(lo + step * i as f64))))
            .collect()
    };
    let mut out = Vec::new();
    for p in &values {
        for (i, c) in a.commands.iter().enumerate() {
            let subst = |s: &str| match p {
                Some((var, v)) => s.replace(&format!("{{{var}}}"), v),
                None => s.to_owned(),
            };
            let command = subst(c);
            let name = a.name.get(i).map_or_else(|| command.clone(), |n| subst(n));
            let prepare = match a.prepare.len() {
                0 => None,
                1 => Some(subst(&a.prepare[0])),
                _ => Some(subst(&a.prepare[i])),
            };
            out.push(Job {
                name,
                command,
                prepare,
                parameter: p.clone(),
            });
        }
    }
    Ok(out)
}

/// Settings after the configuration file and defaults.
#[derive(Debug, Clone, Copy)]
struct Plan {
    warmup: usize,
    min_runs: usize,
    max_runs: usize,
    precision: f64,
    max_time: f64,
}

fn plan(a: &ExecArgs) -> Result<Plan, Failure> {
    let (min_runs, max_runs) = match a.runs {
        Some(r) => (r, r),
        None => (a.min_runs.unwrap_or(10), a.max_runs.unwrap_or(1000)),
    };
    if min_runs == 0 || max_runs < min_runs {
        return Err(bad(format!(
            "runs must be at least 1 and --max-runs at least --min-runs, got {min_runs}..{max_runs}"
        )));
    }
    let precision = a.precision.unwrap_or(0.01);
    let max_time = a.max_time.unwrap_or(3.0);
    if !(precision > 0.0 && precision.is_finite()) {
        return Err(bad(format!(
            "--precision must be a positive fraction (e.g. 0.01), got {precision}"
        )));
    }
    if !(max_time >= 0.0 && max_time.is_finite()) {
        return Err(bad(format!(
            "--max-time must be a non-negative number of seconds, got {max_time}"
        )));
    }
    Ok(Plan {
        warmup: a.warmup.unwrap_or(0),
        min_runs,
        max_runs,
        precision,
        max_time,
    })
}

/// The start-up cost of the shell: medians of an empty command's runs.
#[derive(Debug, Clone, Copy)]
struct Startup {
    wall: f64,
    user: f64,
    sys: f64,
    runs: usize,
}

fn startup(shell: &Shell) -> Result<Option<Startup>, Failure> {
    let Shell::Program(p) = shell else {
        return Ok(None);
    };
    let argv = measure::argv(shell, "").map_err(bad)?;
    let mut xs = Vec::new();
    for i in 0..55 {
        let s = measure::run_once(&argv, false).map_err(fail)?;
        if s.code != Some(0) {
            return Err(fail(format!(
                "the shell '{p}' failed to run an empty command (exit {:?})",
                s.code
            )));
        }
        if i >= 5 {
            xs.push(s);
        }
    }
    let med = |f: fn(&Sample) -> f64| median(&xs.iter().map(f).collect::<Vec<_>>()).unwrap_or(0.0);
    Ok(Some(Startup {
        wall: med(|s| s.wall),
        user: med(|s| s.user),
        sys: med(|s| s.sys),
        runs: xs.len(),
    }))
}

/// Why sampling stopped.
fn stop_reason(n: usize, p: &Plan, rel: Option<f64>, elapsed: f64) -> Option<String> {
    // A fixed number of runs (`--runs`) is a plan, not a target.
    if p.min_runs == p.max_runs {
        return (n >= p.max_runs).then(|| format!("{n} runs as asked"));
    }
    let rule = StopRule {
        target: p.precision,
        min_count: p.min_runs,
        max_count: p.max_runs,
        min_time: 0.0,
        max_time: p.max_time,
    };
    Some(match rule.check(n, rel, elapsed)? {
        Stop::Precise => format!(
            "precise: the mean's 95% interval is within ±{:.2}%",
            rel.unwrap_or_default() * 100.0
        ),
        Stop::Count => format!("--max-runs {n} reached"),
        Stop::Time => format!(
            "time limit of {} s reached{}",
            number_text(p.max_time),
            rel.map_or(String::new(), |r| format!(" at ±{:.2}%", r * 100.0))
        ),
    })
}

/// One benchmark's measurements and analysis.
struct Measured {
    job: Job,
    samples: Vec<Sample>,
    /// Wall seconds after subtracting the shell start-up.
    times: Vec<f64>,
    est: Option<Estimates>,
    outliers: OutlierCounts,
    stopped: String,
}

impl Measured {
    fn mean(&self) -> f64 {
        self.est
            .as_ref()
            .map_or_else(|| self.times[0], |e| e.mean.point)
    }
    fn std_dev(&self) -> f64 {
        self.est.as_ref().map_or(0.0, |e| e.std_dev.point)
    }
    /// Mean user seconds per run, less the shell's start-up.
    fn user(&self, s: Option<Startup>) -> f64 {
        self.mean_over(|x| x.user - s.map_or(0.0, |s| s.user))
    }
    /// Mean system seconds per run, less the shell's start-up.
    fn sys(&self, s: Option<Startup>) -> f64 {
        self.mean_over(|x| x.sys - s.map_or(0.0, |s| s.sys))
    }
    fn mean_over(&self, f: impl Fn(&Sample) -> f64) -> f64 {
        let xs: Vec<f64> = self.samples.iter().map(|x| f(x).max(0.0)).collect();
        yardstick_stats::univariate::mean(&xs).unwrap_or(f64::NAN)
    }
}

fn run_checked(argv: &[String], a: &ExecArgs, what: &str) -> Result<Sample, Failure> {
    let s = measure::run_once(argv, a.show_output).map_err(fail)?;
    if s.code != Some(0) && !a.ignore_failure {
        let status = s
            .code
            .map_or("a signal".to_owned(), |c| format!("status {c}"));
        return Err(fail(format!(
            "{what} exited with {status}; use --ignore-failure to benchmark it anyway"
        )));
    }
    Ok(s)
}

fn measure_job(
    job: &Job,
    a: &ExecArgs,
    shell: &Shell,
    p: &Plan,
    start: Option<Startup>,
) -> Result<Measured, Failure> {
    let argv = measure::argv(shell, &job.command).map_err(bad)?;
    let prep = match &job.prepare {
        Some(c) => Some(measure::argv(shell, c).map_err(bad)?),
        None => None,
    };
    let what = format!("'{}'", job.command);
    let prepare = |argv: &Option<Vec<String>>| -> Result<(), Failure> {
        if let Some(pa) = argv {
            let s = measure::run_once(pa, a.show_output).map_err(fail)?;
            if s.code != Some(0) {
                return Err(fail(format!(
                    "the prepare command '{}' failed",
                    job.prepare.as_deref().unwrap_or("")
                )));
            }
        }
        Ok(())
    };
    for _ in 0..p.warmup {
        prepare(&prep)?;
        run_checked(&argv, a, &what)?;
    }
    let shell_wall = start.map_or(0.0, |s| s.wall);
    let mut samples = Vec::new();
    let mut times = Vec::new();
    let t0 = Instant::now();
    let stopped = loop {
        prepare(&prep)?;
        let s = run_checked(&argv, a, &what)?;
        times.push((s.wall - shell_wall).max(0.0));
        samples.push(s);
        let rel = mean_relative_half_width(&times, 0.95);
        if let Some(r) = stop_reason(times.len(), p, rel, t0.elapsed().as_secs_f64()) {
            break r;
        }
    };
    let ns: Vec<f64> = times.iter().map(|t| t * 1e9).collect();
    let est = if ns.len() >= 2 {
        let cfg = BootstrapConfig {
            nresamples: a.nresamples,
            confidence: 0.95,
            seed: a.seed,
        };
        let ones = vec![1.0; ns.len()];
        estimates(&ones, &ns, false, &cfg)
            .ok()
            .map(|e| scale(e, 1e-9))
    } else {
        None
    };
    Ok(Measured {
        job: job.clone(),
        outliers: classify(&times).counts,
        samples,
        times,
        est,
        stopped,
    })
}

fn scale(mut e: Estimates, k: f64) -> Estimates {
    for x in [&mut e.mean, &mut e.median, &mut e.std_dev, &mut e.mad] {
        x.point *= k;
        x.lower *= k;
        x.upper *= k;
    }
    e
}

/// A duration in seconds in `unit`, three decimals.
fn dur(s: f64, unit: TimeUnit) -> String {
    unit.fixed(s * 1e9, 3)
}

/// The unit for `s` seconds: µs, ms or s (hyperfine's).
fn unit_for(s: f64) -> TimeUnit {
    TimeUnit::for_nanos(s * 1e9, TimeUnit::Us)
}

fn outlier_text(o: &OutlierCounts, n: usize) -> String {
    if o.total() == 0 {
        return "none".into();
    }
    let mut parts = Vec::new();
    for (k, v) in [
        ("low severe", o.low_severe),
        ("low mild", o.low_mild),
        ("high mild", o.high_mild),
        ("high severe", o.high_severe),
    ] {
        if v > 0 {
            parts.push(format!("{v} {k}"));
        }
    }
    format!(
        "{} of {n} ({:.0}%): {}",
        o.total(),
        100.0 * o.total() as f64 / n as f64,
        parts.join(", ")
    )
}

/// Relative speed of `slow` to `fast` with hyperfine's error propagation.
fn ratio(slow: &Measured, fast: &Measured) -> Option<(f64, f64)> {
    let (ms, mf) = (slow.mean(), fast.mean());
    if mf <= 0.0 || ms <= 0.0 {
        return None;
    }
    let r = ms / mf;
    let e = r * ((slow.std_dev() / ms).powi(2) + (fast.std_dev() / mf).powi(2)).sqrt();
    Some((r, e))
}

fn startup_note(shell: &Shell, s: Option<Startup>) -> String {
    match (shell, s) {
        (Shell::Program(p), Some(s)) => format!(
            "Shell start-up ({p} -c '', median of {} runs: {}) was subtracted from every run; --shell none measures the spawn as well.\n",
            s.runs,
            dur(s.wall, unit_for(s.wall))
        ),
        _ => "No shell: commands were spawned directly; times include the spawn.\n".into(),
    }
}

fn terminal(ms: &[Measured], shell: &Shell, s: Option<Startup>) -> String {
    let mut o = String::new();
    o.push_str(&startup_note(shell, s));
    for (i, m) in ms.iter().enumerate() {
        let u = unit_for(m.mean());
        let _ = writeln!(o, "Benchmark {}: {}", i + 1, m.job.name);
        let _ = writeln!(
            o,
            "  Time (mean ± σ):     {} ± {}    [User: {}, System: {}]",
            dur(m.mean(), u),
            dur(m.std_dev(), u),
            dur(m.user(s), u),
            dur(m.sys(s), u)
        );
        if let Some(e) = &m.est {
            let _ = writeln!(
                o,
                "  Mean 95% CI:         [{} {}]    Median: {} [{} {}]",
                dur(e.mean.lower, u),
                dur(e.mean.upper, u),
                dur(e.median.point, u),
                dur(e.median.lower, u),
                dur(e.median.upper, u)
            );
        }
        let _ = writeln!(
            o,
            "  Range (min … max):   {} … {}    {} runs ({})",
            dur(min(&m.times).unwrap_or(0.0), u),
            dur(max(&m.times).unwrap_or(0.0), u),
            m.times.len(),
            m.stopped
        );
        let _ = writeln!(
            o,
            "  Outliers: {}",
            outlier_text(&m.outliers, m.times.len())
        );
        if m.mean() < 5e-3 && s.is_some() {
            let _ = writeln!(
                o,
                "  Note: under 5 ms; the shell start-up subtracted is of the same size, so treat this figure as rough."
            );
        }
        o.push('\n');
    }
    o.push_str(&summary(ms));
    o
}

fn summary(ms: &[Measured]) -> String {
    if ms.len() < 2 {
        return String::new();
    }
    let fastest = ms
        .iter()
        .min_by(|a, b| a.mean().total_cmp(&b.mean()))
        .expect("two or more");
    let mut o = String::from("Summary\n");
    for m in ms {
        if std::ptr::eq(m, fastest) {
            continue;
        }
        match ratio(m, fastest) {
            Some((r, e)) => {
                let _ = writeln!(
                    o,
                    "  '{}' ran {r:.2} ± {e:.2} times faster than '{}'",
                    fastest.job.name, m.job.name
                );
            }
            None => {
                let _ = writeln!(
                    o,
                    "  '{}' and '{}' cannot be compared: a mean is zero after subtracting the shell start-up",
                    fastest.job.name, m.job.name
                );
            }
        }
    }
    o
}

fn markdown(ms: &[Measured], shell: &Shell, s: Option<Startup>) -> String {
    let fastest = ms
        .iter()
        .min_by(|a, b| a.mean().total_cmp(&b.mean()))
        .expect("one or more");
    let u = unit_for(fastest.mean());
    let mut o = format!(
        "| Command | Mean [{0}] | Median [{0}] | Min [{0}] | Max [{0}] | Runs | Relative |\n|:---|---:|---:|---:|---:|---:|---:|\n",
        u.symbol()
    );
    for m in ms {
        let rel = if std::ptr::eq(m, fastest) {
            "1.00".to_owned()
        } else {
            ratio(m, fastest).map_or("–".into(), |(r, e)| format!("{r:.2} ± {e:.2}"))
        };
        let f = |x: f64| format!("{:.3}", u.scale(x * 1e9));
        let med = m.est.as_ref().map_or(m.mean(), |e| e.median.point);
        let _ = writeln!(
            o,
            "| `{}` | {} ± {} | {} | {} | {} | {} | {rel} |",
            m.job.name.replace('|', "\\|"),
            f(m.mean()),
            f(m.std_dev()),
            f(med),
            f(min(&m.times).unwrap_or(0.0)),
            f(max(&m.times).unwrap_or(0.0)),
            m.times.len()
        );
    }
    o.push('\n');
    o.push_str(&startup_note(shell, s));
    o
}

/// Writes `--export-json`'s file, pretty-printed, atomically.
fn write_json(path: &std::path::Path, doc: &impl serde::Serialize) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(doc).map_err(|e| fail(e.to_string()))? + "\n";
    crate::atomic::write_atomic(path, text.as_bytes()).map_err(fail)
}

fn export_json(ms: &[Measured], s: Option<Startup>) -> ExecExport {
    let results = ms
        .iter()
        .map(|m| ExecResult {
            command: m.job.name.clone(),
            mean: m.mean(),
            stddev: m.est.as_ref().map(|e| e.std_dev.point),
            median: median(&m.times),
            user: m.user(s),
            system: m.sys(s),
            min: min(&m.times),
            max: max(&m.times),
            times: m.times.clone(),
            exit_codes: m.samples.iter().map(|x| x.code).collect(),
            mean_ci: m.est.as_ref().map(|e| [e.mean.lower, e.mean.upper]),
            median_ci: m.est.as_ref().map(|e| [e.median.lower, e.median.upper]),
            parameters: m
                .job
                .parameter
                .as_ref()
                .map(|(var, v)| BTreeMap::from([(var.clone(), v.clone())])),
        })
        .collect();
    ExecExport {
        version: Some(yardstick_format::exec::VERSION),
        results,
    }
}

fn record(a: &ExecArgs, results: Vec<BenchResult>, began: &Start) -> Result<(), Failure> {
    if a.no_history || results.is_empty() {
        return Ok(());
    }
    let home = a.home.resolve();
    let mut db = Db::open(&home).map_err(fail)?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let cfg: Vec<String> = std::env::args().skip(1).collect();
    let mut meta = host::current(&cwd, "exec", &cfg.join(" "));
    meta.label.clone_from(&a.label);
    meta.state = Some(machine::state(&Root::system(), began));
    let n = results.len();
    let id = db
        .record(&Run {
            meta,
            results,
            explained: Vec::new(),
        })
        .map_err(fail)?;
    eprintln!("recorded run {id}: {n} commands in {}", db.path().display());
    Ok(())
}

fn print(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let text = terminal_text(text);
    let mut o = std::io::stdout().lock();
    match o.write_all(text.as_bytes()).and_then(|()| o.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(fail(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

/// Runs `exec`; returns the exit status.
///
/// # Errors
///
/// A [`Failure`]: 2 for bad arguments, 1 when a command fails or valgrind
/// is missing.
pub fn run(a: &ExecArgs) -> Result<u8, Failure> {
    if !(1..=yardstick_stats::MAX_NRESAMPLES).contains(&a.nresamples) {
        return Err(bad("--nresamples must be from 1 to 10000000".into()));
    }
    let p = plan(a)?;
    if a.report && p.min_runs < 2 {
        return Err(bad(format!(
            "--report needs at least 2 runs per command (a page shows their distribution), got {}; raise --runs or --min-runs",
            p.min_runs
        )));
    }
    let jobs = jobs(a)?;
    let shell = Shell::parse(a.shell.as_deref().unwrap_or("sh"));
    let began = Start::read(&Root::system());
    if a.callgrind {
        return run_callgrind(a, &jobs, &shell, &began);
    }
    let start = startup(&shell)?;
    let mut ms = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        eprintln!(
            "Benchmark {}/{}: {}",
            i + 1,
            jobs.len(),
            terminal_text(&job.name)
        );
        ms.push(measure_job(job, a, &shell, &p, start)?);
    }
    let text = match a.format.unwrap_or(TableFormat::Terminal) {
        TableFormat::Terminal => terminal(&ms, &shell, start),
        TableFormat::Markdown => markdown(&ms, &shell, start),
    };
    if let Some(path) = &a.export_json {
        write_json(path, &export_json(&ms, start))?;
    }
    let mut results = Vec::new();
    for m in &ms {
        let ns: Vec<f64> = m.times.iter().map(|t| t * 1e9).collect();
        let ones = vec![1.0; ns.len()];
        let r =
            BenchResult::from_samples(m.job.name.clone(), "ns".into(), ones, ns).map_err(fail)?;
        results.push(r);
    }
    if a.report {
        let home = a.home.resolve();
        let timed: Vec<report::Timed<'_>> = results
            .iter()
            .map(|r| report::Timed {
                name: &r.name,
                ns: &r.values,
            })
            .collect();
        let settings = report::Settings {
            nresamples: a.nresamples,
            seed: a.seed,
        };
        let index = report::write(&home, &timed, settings).map_err(fail)?;
        eprintln!(
            "wrote the report of {} commands; index: {}",
            timed.len(),
            index.display()
        );
    }
    record(a, results, &began)?;
    print(&text)?;
    Ok(0)
}

fn run_callgrind(a: &ExecArgs, jobs: &[Job], shell: &Shell, began: &Start) -> Result<u8, Failure> {
    callgrind::available().map_err(fail)?;
    let dir = std::env::temp_dir().join(format!("yardstick-exec-{}", std::process::id()));
    let base = match shell {
        Shell::Program(_) => Some(
            callgrind::count(&measure::argv(shell, "").map_err(bad)?, &dir, "shell")
                .map_err(fail)?,
        ),
        Shell::None => None,
    };
    let mut text = match (shell, base) {
        (Shell::Program(p), Some(b)) => format!(
            "Instructions counted by callgrind, following child processes; the shell start-up ({p} -c '': {b} instructions) was subtracted.\n"
        ),
        _ => "Instructions counted by callgrind, following child processes.\n".into(),
    };
    let mut results = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        eprintln!(
            "Benchmark {}/{}: {} (callgrind)",
            i + 1,
            jobs.len(),
            terminal_text(&job.name)
        );
        let argv = measure::argv(shell, &job.command).map_err(bad)?;
        let n = callgrind::count(&argv, &dir, &format!("job{i}")).map_err(fail)?;
        let n = n.saturating_sub(base.unwrap_or(0));
        let _ = writeln!(
            text,
            "Benchmark {}: {}\n  Instructions: {n}",
            i + 1,
            job.name
        );
        results.push(BenchResult::summary(
            job.name.clone(),
            "instructions".into(),
            Interval::exact(n as f64),
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(path) = &a.export_json {
        let doc = CountExport {
            version: yardstick_format::exec::VERSION,
            results: results
                .iter()
                .map(|r| CountResult {
                    command: r.name.clone(),
                    // Whole counts, stored as f64 by the history's record.
                    instructions: r.typical.point as u64,
                })
                .collect(),
        };
        write_json(path, &doc)?;
    }
    record(a, results, began)?;
    print(&text)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_values_are_substituted() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct T {
            #[command(flatten)]
            a: ExecArgs,
        }
        let t = T::parse_from([
            "t",
            "--parameter-scan",
            "n",
            "1",
            "2",
            "--parameter-step",
            "0.5",
            "sleep {n}",
        ]);
        let j = jobs(&t.a).unwrap();
        let names: Vec<&str> = j.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["sleep 1", "sleep 1.5", "sleep 2"]);
    }

    /// A benchmark measured `wall` seconds per run, with fixed CPU times.
    fn measured(name: &str, wall: &[f64], stopped: &str) -> Measured {
        let ns: Vec<f64> = wall.iter().map(|t| t * 1e9).collect();
        let cfg = BootstrapConfig {
            nresamples: 1_000,
            confidence: 0.95,
            seed: 0,
        };
        let est = estimates(&vec![1.0; ns.len()], &ns, false, &cfg)
            .ok()
            .map(|e| scale(e, 1e-9));
        Measured {
            job: Job {
                name: name.into(),
                command: name.into(),
                prepare: None,
                parameter: None,
            },
            samples: wall
                .iter()
                .map(|&w| measure::Sample {
                    wall: w + 0.001,
                    user: w * 0.8,
                    sys: w * 0.1,
                    code: Some(0),
                })
                .collect(),
            times: wall.to_vec(),
            est,
            outliers: classify(wall).counts,
            stopped: stopped.into(),
        }
    }

    /// The terminal, markdown and JSON outputs of two commands, from fixed
    /// times: a change of format shows as a reviewed diff.
    #[test]
    fn the_outputs() {
        let ms = [
            measured(
                "sleep 0.01",
                &[0.0102, 0.0101, 0.0104, 0.0103, 0.0101, 0.0150],
                "time limit of 3 s reached at ±11.47%",
            ),
            measured(
                "sleep 0.02",
                &[0.0203, 0.0201, 0.0202, 0.0204],
                "precise: the mean's 95% interval is within ±0.64%",
            ),
        ];
        let shell = Shell::Program("sh".into());
        let start = Some(Startup {
            wall: 0.001,
            user: 0.0004,
            sys: 0.0003,
            runs: 20,
        });
        insta::assert_snapshot!("exec_terminal", terminal(&ms, &shell, start));
        insta::assert_snapshot!("exec_markdown", markdown(&ms, &shell, start));
        let json = serde_json::to_string_pretty(&export_json(&ms, start)).unwrap();
        insta::assert_snapshot!("exec_export_json", json);
    }
}
