//! The bench binary's entry points: run one benchmark when this process is
//! the child inside Valgrind; otherwise parse the command line and turn the
//! registered benchmarks into jobs for `drive`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::bench::LibraryBenchmarkGroup;
use crate::binary::BinaryBenchmarkGroup;
use crate::cli::{self, Options, Parsed};
use crate::config::{ExitWith, LibraryBenchmarkConfig};
use crate::context::{Context, MainHooks, TOGGLE_PATTERNS};
use crate::drive::{drive, EXIT_USAGE};
use crate::job::Job;

fn parse_options() -> Result<Options, i32> {
    match cli::parse(std::env::args_os().skip(1), |k| std::env::var(k).ok()) {
        Ok(Parsed::Run(o)) => {
            crate::printer::set_color(o.color);
            iai_notes();
            Ok(*o)
        }
        Ok(Parsed::Help) => {
            crate::printer::outln!("{}", cli::HELP.trim_end());
            Err(0)
        }
        Err(e) => {
            crate::printer::errln!("{e}");
            Err(EXIT_USAGE)
        }
    }
}

/// One line for each iai-callgrind variable that has no effect here.
fn iai_notes() {
    if std::env::var_os("IAI_CALLGRIND_RUNNER").is_some() {
        crate::printer::errln!(
            "note: IAI_CALLGRIND_RUNNER is ignored: yardstick-callgrind needs no separate runner"
        );
    }
    if std::env::var_os("IAI_CALLGRIND_LOG").is_some() {
        crate::printer::errln!(
            "note: IAI_CALLGRIND_LOG is ignored: yardstick-callgrind has no log; use --nocapture \
             to see the benchmarks' output"
        );
    }
}

/// Runs a bench binary of library benchmarks; returns the exit status.
pub fn run_library(
    context: Context,
    config: LibraryBenchmarkConfig,
    groups: Vec<LibraryBenchmarkGroup>,
    main_hooks: MainHooks,
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
                toggles: TOGGLE_PATTERNS.map(str::to_owned).to_vec(),
                config: merged,
                exit_with: ExitWith::Success,
                setup: None,
                teardown: None,
                native: Some(bench.run),
                compare_by_id: group.compare_by_id,
            });
        }
    }
    with_main_hooks(&opts, main_hooks, || drive(&context, &opts, jobs, &[]))
}

/// Runs a bench binary of binary benchmarks; returns the exit status.
pub fn run_binary(
    context: Context,
    config: LibraryBenchmarkConfig,
    groups: Vec<BinaryBenchmarkGroup>,
    main_hooks: MainHooks,
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
                    crate::printer::errln!(
                        "error: a Run of group '{}' has no command: use Run::with_cmd or name a \
                         binary in binary_benchmark_group!(benchmark = |\"name\", group: …| …)",
                        group.name
                    );
                    return EXIT_USAGE;
                }
            };
            let mut merged = group_config.merged(&run.config);
            if let Some(f) = &mut merged.fixtures {
                if f.dir.is_relative() {
                    f.dir = Path::new(context.manifest_dir).join(&f.dir);
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
                    toggles: merged.entry_point.iter().cloned().collect(),
                    config: merged.clone(),
                    exit_with: merged.exit_with.unwrap_or(ExitWith::Success),
                    setup: group.setup,
                    teardown: group.teardown,
                    native: None,
                    compare_by_id: false,
                });
            }
        }
    }
    with_main_hooks(&opts, main_hooks, || drive(&context, &opts, jobs, &hooks))
}

/// Runs `main!`'s setup, the benchmarks, then its teardown (not for
/// `--list`).
fn with_main_hooks(opts: &Options, hooks: MainHooks, run: impl FnOnce() -> i32) -> i32 {
    if opts.list {
        return run();
    }
    if let Some(setup) = hooks.setup {
        setup();
    }
    let code = run();
    if let Some(teardown) = hooks.teardown {
        teardown();
    }
    code
}

/// A binary of the benchmarking package: beside the bench binary's folder
/// (`target/<profile>/<name>` for `target/<profile>/deps/<bench>`).
fn crate_binary(exe: Option<&Path>, name: &str) -> PathBuf {
    exe.and_then(Path::parent)
        .map(|deps| {
            let beside = deps.join(name);
            let above = deps.parent().unwrap_or(deps).join(name);
            // Neither: a command on PATH, as iai-callgrind falls back to.
            [beside, above]
                .into_iter()
                .find(|p| p.is_file())
                .unwrap_or_else(|| PathBuf::from(name))
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

/// `<home>/[<triple>/]<package>/<module path>`.
fn base_dir(context: &Context, opts: &Options, exe: Option<&Path>) -> PathBuf {
    let name = crate::paths::home_name(context.dependency);
    let manifest = Path::new(context.manifest_dir);
    let mut home = crate::paths::home(opts.home.as_deref(), exe, manifest, name);
    if opts.separate_targets {
        home.push(env!("YARDSTICK_CALLGRIND_TARGET"));
    }
    home.join(crate::paths::sanitize(context.package))
        .join(crate::paths::module_dir(context.module))
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
            crate::printer::errln!("error: no benchmark '{spec}' in this binary");
            EXIT_USAGE
        }
    }
}
