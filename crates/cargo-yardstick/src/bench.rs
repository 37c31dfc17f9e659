//! `cargo yardstick bench [CARGO BENCH ARGS] [-- BENCH ARGS]`: runs the
//! benches through cargo with the harness's machine channel
//! (`--message-format json --message-file FILE`), shows a progress bar over
//! the suite (counted up front with `--list`) with the time left, and
//! records the run in the history in one transaction once it is over.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::db::Db;
use crate::host;
use crate::import::parse_messages;
use crate::machine::{self, Root, Start};
use crate::record::{Explained, Run};
use yardstick_format::explain::ExplainFile;
use yardstick_format::partition::Partition;

/// What a `bench` invocation did.
#[derive(Debug)]
pub struct Outcome {
    /// The recorded run's id, if anything was measured.
    pub run_id: Option<i64>,
    /// Benchmarks recorded.
    pub benchmarks: usize,
    /// Whether cargo bench succeeded.
    pub success: bool,
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// Splits `args` at the first `--` into cargo's and the bench binary's.
fn split(args: &[String]) -> (&[String], &[String]) {
    match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[]),
    }
}

/// Counts the benchmarks `cargo bench -- --list --format terse` announces
/// (a `name: benchmark` line each; without `--format terse` divan's API
/// prints an outline instead, as divan does); `None` when the listing
/// fails.
fn count(cargo_args: &[String], bench_args: &[String]) -> Option<u64> {
    let out = Command::new(cargo())
        .arg("bench")
        .args(cargo_args)
        .arg("--")
        .args(["--list", "--format", "terse"])
        .args(bench_args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status.success().then(|| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.ends_with(": benchmark") || l.ends_with(": bench"))
            .count() as u64
    })
}

fn completed(file: &Path) -> (u64, Option<String>) {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let mut n = 0;
    let mut last = None;
    for line in text.lines() {
        if line.contains("\"benchmark-complete\"") {
            n += 1;
            last = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("id").and_then(|i| i.as_str()).map(str::to_owned));
        }
    }
    (n, last)
}

/// Runs the benches and records the run.
///
/// # Errors
///
/// One line when cargo cannot be started or the run cannot be recorded.
pub fn run(
    db: &mut Db,
    home: &Path,
    args: &[String],
    label: Option<String>,
    partition: Option<Partition>,
) -> Result<Outcome, String> {
    let (cargo_args, bench_args) = split(args);
    // Every bench binary deals its own benchmarks (`count:` counts per
    // binary, as nextest does per test binary).
    let mut bench_args = bench_args.to_vec();
    if let Some(p) = partition {
        bench_args.extend(["--partition".to_owned(), p.to_string()]);
    }
    let bench_args = &bench_args[..];
    // Only bench targets understand the harness's flags: the library's own
    // libtest harness, which a plain `cargo bench` runs too, rejects
    // `--message-format`. Without a target selection, run the benches only.
    let mut cargo_args = cargo_args.to_vec();
    if !crate::runner::selects_targets(&cargo_args) {
        cargo_args.extend(["--bench".to_owned(), "*".to_owned()]);
    }
    let cargo_args = &cargo_args[..];
    let total = count(cargo_args, bench_args);
    let began = Start::read(&Root::system());
    let pb = progress_bar(total);
    // Named as the workspace's temporaries, so that one left by a killed
    // run is cleaned by the next.
    yardstick_format::atomic::clean_temporaries(home);
    let file: PathBuf = home.join(format!(
        ".yardstick-messages.jsonl.{}.0.tmp",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&file);
    let started = std::time::SystemTime::now();
    let mut cmd = Command::new(cargo());
    crate::children::own_group(&mut cmd);
    let mut child = cmd
        .arg("bench")
        .args(cargo_args)
        .arg("--")
        .args(["--message-format", "json", "--message-file"])
        .arg(&file)
        .args(bench_args)
        // The benches write their results where the history lives.
        .env("YARDSTICK_HOME", home)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{} bench`: {e}; is cargo on PATH?", cargo()))?;
    let status = watch(&mut child, &pb, &file)?;
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let _ = std::fs::remove_file(&file);
    let results =
        parse_messages(&text).map_err(|e| format!("the harness's messages are malformed: {e}"))?;
    if results.is_empty() {
        return Ok(Outcome {
            run_id: None,
            benchmarks: 0,
            success: status.success(),
        });
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut meta = host::current(&cwd, "bench", &format!("cargo bench {}", args.join(" ")));
    meta.build = saved_build(home, started);
    meta.label = label;
    meta.shard = partition.map(|p| p.to_string());
    meta.state = Some(machine::state(&Root::system(), &began));
    let benchmarks = results.len();
    let explained = saved_explanations(home, started);
    let id = db.record(&Run {
        meta,
        results,
        explained,
    })?;
    Ok(Outcome {
        run_id: Some(id),
        benchmarks,
        success: status.success(),
    })
}

/// A bar over `total` benchmarks, or a spinner when the count is unknown.
fn progress_bar(total: Option<u64>) -> ProgressBar {
    match total {
        Some(n) if n > 0 => ProgressBar::new(n).with_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} benchmarks, {eta} left  {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        _ => ProgressBar::new_spinner(),
    }
}

/// Waits for `cargo bench`, its output printed above the bar and the bar
/// moved by the benchmarks completed in the message `file`; its status.
fn watch(
    child: &mut std::process::Child,
    pb: &ProgressBar,
    file: &Path,
) -> Result<std::process::ExitStatus, String> {
    crate::children::forward_signals(child.id());
    let forward = |stream: Option<Box<dyn std::io::Read + Send>>, pb: ProgressBar| {
        std::thread::spawn(move || {
            if let Some(s) = stream {
                for line in BufReader::new(s).lines().map_while(Result::ok) {
                    if pb.is_hidden() {
                        eprintln!("{line}");
                    } else {
                        pb.println(line);
                    }
                }
            }
        })
    };
    let t1 = forward(
        child.stdout.take().map(|s| Box::new(s) as Box<_>),
        pb.clone(),
    );
    let t2 = forward(
        child.stderr.take().map(|s| Box::new(s) as Box<_>),
        pb.clone(),
    );
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        let (n, last) = completed(file);
        pb.set_position(n);
        if let Some(id) = last {
            pb.set_message(id);
        }
        pb.tick();
        std::thread::sleep(Duration::from_millis(200));
    };
    crate::children::stop_forwarding();
    let _ = (t1.join(), t2.join());
    pb.finish_and_clear();
    Ok(status)
}

/// What `--explain` counted in this run: the `explain.json` files written
/// at or after `since`. One that cannot be read is left out (the run is
/// recorded all the same).
fn saved_explanations(home: &Path, since: std::time::SystemTime) -> Vec<Explained> {
    let fresh = |file: &Path| {
        std::fs::metadata(file)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t >= since)
    };
    crate::select::saved_files(home, "explain", "explain.json", &fresh)
        .iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).ok()?;
            let e: ExplainFile = yardstick_format::json::from_str(&text).ok()?;
            let finite = e.baseline_instructions.is_finite() && e.current_instructions.is_finite();
            finite.then_some(Explained {
                name: e.id,
                baseline: e.baseline_instructions,
                current: e.current_instructions,
            })
        })
        .collect()
}

/// How the run's bench binaries were built: the build record of a `new/`
/// folder the run saved (its `benchmark.json` written at or after
/// `since`), the first in name order; `None` when none has one (a harness
/// without the record).
fn saved_build(
    home: &Path,
    since: std::time::SystemTime,
) -> Option<yardstick_format::build::BuildFile> {
    let fresh = |folder: &Path| {
        std::fs::metadata(folder.join("benchmark.json"))
            .and_then(|m| m.modified())
            .is_ok_and(|t| t >= since)
    };
    crate::select::first_build(home, "new", &fresh)
}
