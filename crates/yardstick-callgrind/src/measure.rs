//! Measuring one job: callgrind (with baselines, comparison, regression
//! limits and flamegraphs), then the other tools (`tools`). Returns the
//! summary and prints through a `Printer`.

use std::ffi::OsString;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cli::{NoCapture, Options, OutputFormat};
use crate::compare::{diffs, format_line, signed_short, Diff};
use crate::config::{FlamegraphKind, RegressionConfig};
use crate::job::{execute, Job};
use crate::metrics::Metrics;
use crate::parser::{self, CallgrindProfile};
use crate::paths::{ToolFiles, Version};
use crate::printer::Printer;
use crate::summary::{BenchmarkSummary, CallgrindSummary, Regression};
use crate::valgrind::Outcome;

/// Callgrind arguments yardstick sets itself; a user's copy is dropped.
const RESERVED: [&str; 5] = [
    "--tool",
    "--callgrind-out-file",
    "--log-file",
    "--collect-atstart",
    "--toggle-collect",
];

/// The simulated caches unless the user sets them: 32 KiB 8-way L1s and an
/// 8 MiB 16-way last level, 64-byte lines.
const CACHE_GEOMETRY: [(&str, &str); 3] = [
    ("--I1", "32768,8,64"),
    ("--D1", "32768,8,64"),
    ("--LL", "8388608,16,64"),
];

/// Measures `job` and returns its summary. Never panics on bad tool output;
/// problems are in `summary.errors`.
pub fn run(job: &Job, opts: &Options, p: &mut Printer) -> BenchmarkSummary {
    let mut s = BenchmarkSummary {
        version: crate::summary::SUMMARY_VERSION.to_owned(),
        kind: job.kind.to_owned(),
        package: String::new(),
        bench_file: String::new(),
        group: job.group.clone(),
        function: job.function.clone(),
        id: job.id.clone(),
        details: job.details.clone(),
        header: job.header.clone(),
        benchmark_dir: job.dir.display().to_string(),
        callgrind: None,
        tools: Vec::new(),
        failed: false,
        errors: Vec::new(),
    };
    let text = opts.output_format == OutputFormat::Default;
    if text {
        p.out(crate::printer::header(&job.header));
    }
    if let Err(e) = std::fs::create_dir_all(&job.dir) {
        fail(&mut s, format!("cannot create {}: {e}", job.dir.display()));
        return s;
    }
    match callgrind(job, opts, &mut s, p) {
        Ok(c) => s.callgrind = Some(c),
        Err(e) => {
            fail(&mut s, e);
            return s;
        }
    }
    if opts.load_baseline.is_none() {
        for tool in crate::tools::tools_of(job, opts) {
            if let Some(m) = &tool.outfile_modifier {
                warn_once(
                    &OUTFILE_MODIFIER_WARNED,
                    p,
                    format!(
                        "warning: Tool::outfile_modifier(\"{m}\") is not supported: {} writes \
                         one output file per benchmark",
                        tool.kind.id()
                    ),
                );
            }
            match crate::tools::run(job, &tool) {
                Ok(t) => {
                    if text {
                        crate::tools::print(&t, p);
                    }
                    if let Some(code) = t.exit_code.filter(|c| *c != 0) {
                        let msg = format!(
                            "{}: {} exited with code {code}{} (log: {})",
                            job.header,
                            t.tool,
                            if code == 201 { ": errors found" } else { "" },
                            t.log_file
                        );
                        fail(&mut s, msg);
                    }
                    s.tools.push(t);
                }
                Err(e) => fail(&mut s, e),
            }
        }
    }
    s
}

static OUTFILE_MODIFIER_WARNED: AtomicBool = AtomicBool::new(false);

/// Prints `message` the first time `flag` is seen unset in this process.
fn warn_once(flag: &AtomicBool, p: &mut Printer, message: String) {
    if !flag.swap(true, Ordering::Relaxed) {
        p.err(message);
    }
}

fn fail(s: &mut BenchmarkSummary, message: String) {
    s.failed = true;
    s.errors.push(message);
}

fn versions(opts: &Options) -> (Option<String>, Option<String>, Version) {
    match (&opts.load_baseline, &opts.save_baseline, &opts.baseline) {
        (Some(load), _, Some(base)) => (
            Some(load.clone()),
            Some(base.clone()),
            Version::Base(base.clone()),
        ),
        (_, Some(save), _) => (
            Some(save.clone()),
            Some(save.clone()),
            Version::Base(save.clone()),
        ),
        (_, None, Some(base)) => (None, Some(base.clone()), Version::Base(base.clone())),
        _ => (None, None, Version::Old),
    }
}

/// Callgrind's part of a job: runs it (or loads the baseline), compares,
/// prints, checks the limits, draws flamegraphs and saves the baseline.
fn callgrind(
    job: &Job,
    opts: &Options,
    s: &mut BenchmarkSummary,
    p: &mut Printer,
) -> Result<CallgrindSummary, String> {
    let files = ToolFiles::new(&job.dir, "callgrind", &job.name);
    let (new_name, old_name, old_version) = versions(opts);
    let new_version = match &opts.load_baseline {
        Some(load) => Version::Base(load.clone()),
        None => run_callgrind(job, opts, &files, p)?,
    };
    let out_path = files.path("out", &new_version);
    let profile = parser::parse_file(&out_path).map_err(|e| e.to_string())?;
    let new = Metrics::from_raw(profile.total_pairs());
    check_counted(job, &new, &new_version)?;
    let old_profile = old_profile(job, opts, &files.path("out", &old_version), &old_name, p);
    let old = old_profile
        .as_ref()
        .map(|p| Metrics::from_raw(p.total_pairs()));
    let all = diffs(&new, old.as_ref());
    if opts.output_format == OutputFormat::Default {
        print_metrics(&all, new_name.as_deref(), old_name.as_deref(), p);
    }
    // Limits reach every counted event, not only the printed ones.
    let every: Vec<(crate::EventKind, Diff)> = new
        .0
        .keys()
        .map(|k| {
            (
                *k,
                Diff::new(new.get(*k), old.as_ref().and_then(|o| o.get(*k))),
            )
        })
        .collect();
    let regressions = regressions(job, opts, &every, p);
    for r in &regressions {
        let line = regression_line(r);
        p.err(line.clone());
        s.failed = true;
        s.errors.push(format!("{}: {line}", job.header));
    }
    let flamegraphs = flamegraphs(
        job,
        opts,
        &files,
        &profile,
        old_profile.as_ref(),
        &old_version,
        p,
    );
    save_baseline(job, opts, &files)?;
    Ok(CallgrindSummary {
        out_file: out_path.display().to_string(),
        log_file: files.path("log", &new_version).display().to_string(),
        baselines: [new_name, old_name],
        metrics: all
            .into_iter()
            .map(|(k, d)| (k.name().to_owned(), d))
            .collect(),
        regressions,
        flamegraphs,
    })
}

/// Runs the job under callgrind into this run's files (the last run's moved
/// aside first); returns the version written.
fn run_callgrind(
    job: &Job,
    opts: &Options,
    files: &ToolFiles,
    p: &mut Printer,
) -> Result<Version, String> {
    files.rotate().map_err(|e| {
        format!(
            "cannot move the last run aside in {}: {e}",
            job.dir.display()
        )
    })?;
    let args = callgrind_args(job, opts, files, p);
    let outcome = execute(job, "callgrind", args, opts.nocapture)?;
    if opts.output_format == OutputFormat::Default && opts.nocapture != NoCapture::False {
        p.out(crate::format::nocapture_footer(opts.nocapture).to_owned());
    }
    check_exit(job, &outcome, &files.path("log", &Version::New), p)?;
    Ok(Version::New)
}

/// Callgrind's arguments: the output files, the cache simulation and
/// geometry unless the user sets them, the toggles, then the user's own
/// (without those yardstick sets itself, with a warning).
fn callgrind_args(job: &Job, opts: &Options, files: &ToolFiles, p: &mut Printer) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec![
        format!(
            "--callgrind-out-file={}",
            files.path("out", &Version::New).display()
        )
        .into(),
        format!("--log-file={}", files.path("log", &Version::New).display()).into(),
    ];
    let user: Vec<String> = job
        .config
        .callgrind_args
        .iter()
        .chain(&opts.callgrind_args)
        .filter(|a| {
            let key = a.split('=').next().unwrap_or("");
            let reserved = RESERVED.contains(&key);
            if reserved {
                p.err(format!(
                    "warning: callgrind argument '{a}' is set by yardstick-callgrind; ignored"
                ));
            }
            !reserved
        })
        .cloned()
        .collect();
    if !user.iter().any(|a| a.starts_with("--cache-sim")) {
        args.push("--cache-sim=yes".into());
    }
    // A fixed cache geometry (iai-callgrind's) instead of the host's: the
    // cache metrics then mean the same on every machine, and Valgrind does
    // not size its simulation after a huge host LL.
    for (flag, geometry) in CACHE_GEOMETRY {
        if !user.iter().any(|a| a.starts_with(flag)) {
            args.push(format!("{flag}={geometry}").into());
        }
    }
    args.extend(["--compress-strings=no".into(), "--compress-pos=no".into()]);
    if !job.toggles.is_empty() {
        args.push("--collect-atstart=no".into());
    }
    for t in &job.toggles {
        args.push(format!("--toggle-collect={t}").into());
    }
    args.extend(user.into_iter().map(OsString::from));
    args
}

/// A fresh run that counted nothing had no symbol to toggle on.
fn check_counted(job: &Job, new: &Metrics, version: &Version) -> Result<(), String> {
    if !job.toggles.is_empty()
        && new.get(crate::EventKind::Ir).unwrap_or(0) == 0
        && *version == Version::New
    {
        return Err(format!(
            "{}: no instructions were counted: the bench binary has no symbol for \
             yardstick-callgrind's measured function (was it stripped? set `strip = false` \
             under [profile.bench])",
            job.header
        ));
    }
    Ok(())
}

/// The profile to compare with: the last run or the named baseline; None
/// (with a warning when it was asked for by name) when there is none.
fn old_profile(
    job: &Job,
    opts: &Options,
    old_path: &Path,
    old_name: &Option<String>,
    p: &mut Printer,
) -> Option<CallgrindProfile> {
    if old_path.exists() {
        return match parser::parse_file(old_path) {
            Ok(profile) => Some(profile),
            Err(e) => {
                p.err(format!("warning: {e}; comparing with nothing"));
                None
            }
        };
    }
    if let (Some(base), Some(_)) = (&opts.baseline, old_name) {
        if opts.save_baseline.is_none() {
            p.err(format!(
                "warning: baseline '{base}' not found for {} — run with --save-baseline={base} first",
                job.header
            ));
        }
    }
    None
}

/// The baselines line (when baselines are named) and one line per metric.
fn print_metrics(
    all: &[(crate::EventKind, Diff)],
    new_name: Option<&str>,
    old_name: Option<&str>,
    p: &mut Printer,
) {
    if new_name.is_some() || old_name.is_some() {
        p.out(crate::format::baselines_line(new_name, old_name));
    }
    for (kind, diff) in all {
        p.out(crate::printer::metric(format_line(*kind, diff)));
    }
}

/// The limits breached: the command line's (or its environment
/// variable's) win over the code's. A limit on an event callgrind did not
/// count (`Bc` without `--branch-sim=yes`, iai-callgrind's system-call
/// kinds) cannot be checked: a warning says so, once.
fn regressions(
    job: &Job,
    opts: &Options,
    all: &[(crate::EventKind, Diff)],
    p: &mut Printer,
) -> Vec<Regression> {
    let from_cli = opts.regression.clone().map(|limits| {
        let mut cfg = RegressionConfig::default();
        cfg.limits(limits).fail_fast(opts.regression_fail_fast);
        cfg
    });
    let Some(cfg) = from_cli.or_else(|| job.config.regression.clone()) else {
        return Vec::new();
    };
    let limited = cfg.limits.iter().map(|(k, _)| *k);
    for kind in limited.chain(cfg.hard_limits.iter().map(|(k, _)| *k)) {
        if !all.iter().any(|(k, d)| *k == kind && d.new.is_some()) {
            warn_once(
                &UNCOUNTED_LIMIT_WARNED,
                p,
                format!(
                    "warning: {}: callgrind counted no {} (see the callgrind arguments); \
                     its regression limit is not checked",
                    job.header,
                    kind.name()
                ),
            );
        }
    }
    check_regressions(&cfg, all)
}

static UNCOUNTED_LIMIT_WARNED: AtomicBool = AtomicBool::new(false);

/// Draws the flamegraphs the configuration (or `--flamegraph`) asks for;
/// returns their paths. A failure is a warning.
fn flamegraphs(
    job: &Job,
    opts: &Options,
    files: &ToolFiles,
    profile: &CallgrindProfile,
    old_profile: Option<&CallgrindProfile>,
    old_version: &Version,
    p: &mut Printer,
) -> Vec<String> {
    let Some(fg) = job.config.flamegraph.clone().or_else(|| {
        opts.flamegraph
            .then(crate::config::FlamegraphConfig::default)
    }) else {
        return Vec::new();
    };
    if fg.kind == FlamegraphKind::None {
        return Vec::new();
    }
    crate::render::flamegraphs(job, &fg, files, profile, old_profile, old_version).unwrap_or_else(
        |e| {
            p.err(format!("warning: {}: {e}", job.header));
            Vec::new()
        },
    )
}

/// With `--save-baseline` (and a fresh run), copies this run's files under
/// the baseline's name.
fn save_baseline(job: &Job, opts: &Options, files: &ToolFiles) -> Result<(), String> {
    let (Some(save), None) = (&opts.save_baseline, &opts.load_baseline) else {
        return Ok(());
    };
    for ext in ["out", "log"] {
        let from = files.path(ext, &Version::New);
        if from.exists() {
            std::fs::copy(&from, files.path(ext, &Version::Base(save.clone()))).map_err(|e| {
                format!(
                    "cannot save baseline '{save}' in {}: {e}",
                    job.dir.display()
                )
            })?;
        }
    }
    Ok(())
}

/// The terminal line of one breached limit.
pub fn regression_line(r: &Regression) -> String {
    let label = r
        .event_kind
        .parse::<crate::EventKind>()
        .map(|k| k.label())
        .unwrap_or(&r.event_kind);
    if r.hard {
        return format!(
            "Performance has regressed: {label} ({} > {}) exceeds the hard limit by {:>+6}",
            r.new,
            r.old,
            format!("{}%", signed_short(r.diff_pct)),
        );
    }
    let cmp = if r.limit >= 0.0 { ">" } else { "<" };
    format!(
        "Performance has regressed: {label} ({} {cmp} {}) regressed by {:>+6} ({cmp}{:>+6})",
        r.new,
        r.old,
        format!("{}%", signed_short(r.diff_pct)),
        signed_short(r.limit)
    )
}

/// The limits `cfg` breaches in `all`: soft limits against the old run,
/// then hard limits against this run's counts.
pub fn check_regressions(
    cfg: &RegressionConfig,
    all: &[(crate::EventKind, Diff)],
) -> Vec<Regression> {
    let mut out = check_soft(cfg, all);
    for (kind, limit) in &cfg.hard_limits {
        let Some(new) = all.iter().find(|(k, _)| k == kind).and_then(|(_, d)| d.new) else {
            continue;
        };
        if new > *limit {
            out.push(Regression {
                event_kind: kind.name().to_owned(),
                new,
                old: *limit,
                diff_pct: crate::compare::percentage(new, *limit),
                limit: *limit as f64,
                hard: true,
            });
        }
    }
    out
}

/// The soft (percentage) limits `cfg` breaches in `all`.
fn check_soft(cfg: &RegressionConfig, all: &[(crate::EventKind, Diff)]) -> Vec<Regression> {
    let mut out = Vec::new();
    for (kind, limit) in &cfg.limits {
        let Some((_, d)) = all.iter().find(|(k, _)| k == kind) else {
            continue;
        };
        let (Some(new), Some(old), Some(pct)) = (d.new, d.old, d.diff_pct) else {
            continue;
        };
        let breached = if *limit >= 0.0 {
            pct > *limit
        } else {
            pct < *limit
        };
        if breached {
            out.push(Regression {
                event_kind: kind.name().to_owned(),
                new,
                old,
                diff_pct: pct,
                limit: *limit,
                hard: false,
            });
        }
    }
    out
}

fn check_exit(job: &Job, outcome: &Outcome, log: &Path, p: &mut Printer) -> Result<(), String> {
    if job.exit_with.accepts(outcome.code) {
        return Ok(());
    }
    if !outcome.output.trim().is_empty() {
        p.err(outcome.output.trim_end().to_owned());
    }
    let got = outcome.code.map_or_else(
        || "was killed by a signal".to_owned(),
        |c| format!("exited with code {c}"),
    );
    Err(format!(
        "{}: the benchmark {got}, expected {} (Valgrind's log: {})",
        job.header,
        job.exit_with.describe(),
        log.display()
    ))
}
