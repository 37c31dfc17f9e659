//! One side counted: the binary started as a worker under Callgrind,
//! walked to the benchmark, asked to run the counted iterations, told to
//! quit so that Callgrind writes its profile, and the profile read.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use yardstick_format::callgrind::{parse_file, CallgrindProfile};

use crate::worker::{Worker, WorkerError};

/// What one side counted.
#[derive(Debug, Clone)]
pub(super) struct Counted {
    pub profile: CallgrindProfile,
    /// Only timed loops were counted (not `iter_custom`).
    pub separated: bool,
}

/// One side's run.
pub(super) struct Run<'a> {
    pub exe: &'a Path,
    pub id: &'a str,
    pub iters: u64,
    pub per_iteration_ns: f64,
    pub cwd: Option<&'a Path>,
    /// Callgrind's profile; its log goes beside it (`.log`).
    pub out: &'a Path,
}

/// Callgrind's slowdown, bounded generously for the time limits.
const SLOWDOWN: f64 = 400.0;

/// Checks that Valgrind runs; its version line.
///
/// # Errors
///
/// One line saying what is missing and how to install it.
pub fn valgrind() -> Result<String, String> {
    let exe = yardstick_format::valgrind::executable();
    match Command::new(&exe)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
    {
        Ok(out) if out.status.success() => {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        }
        _ => Err(format!(
            "Valgrind is not installed ('{}' does not run): explaining needs Callgrind; \
             install it (apt-get install valgrind)",
            exe.to_string_lossy()
        )),
    }
}

/// Valgrind's command for counting into `out` (its log beside it, `.log`):
/// Callgrind, collecting only where the worker switches it on. The
/// program and its arguments follow.
pub(super) fn callgrind(out: &Path) -> Command {
    let mut cmd = Command::new(yardstick_format::valgrind::executable());
    cmd.arg("--tool=callgrind")
        .arg("--collect-atstart=no")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(format!(
            "--log-file={}",
            out.with_extension("log").display()
        ));
    cmd
}

/// Runs one side. `Err` is one line.
pub(super) fn count(run: &Run<'_>) -> Result<Counted, String> {
    let log = run.out.with_extension("log");
    let _ = std::fs::remove_file(run.out);
    let mut cmd = callgrind(run.out);
    cmd.arg("--read-inline-info=yes")
        .arg(run.exe)
        // Only this benchmark: the walk to it under Callgrind is slow.
        .args(["--bench", "--exact", run.id]);
    if let Some(dir) = run.cwd {
        cmd.current_dir(dir);
    }
    let mut worker = Worker::spawn(cmd).map_err(|e| format!("Valgrind did not start ({e})"))?;
    // Valgrind reads the binary's symbols and debug info before it starts.
    let walk = Duration::from_secs(120);
    let failed = |e: WorkerError| failure(&e, &log);
    if !worker.advance_to(run.id, walk).map_err(failed)? {
        return Err("the binary has no benchmark of this id".into());
    }
    let work_ns = run.per_iteration_ns.max(1.0) * (run.iters + 1) as f64 * SLOWDOWN;
    let limit = walk + Duration::from_secs_f64((work_ns / 1e9).min(86_400.0));
    let separated = worker.explain(run.iters, limit).map_err(failed)?;
    if !worker.finish(Duration::from_secs(60)) {
        return Err(format!(
            "Valgrind did not finish writing its profile{}",
            last_words(&log)
        ));
    }
    let profile = parse_file(run.out).map_err(|e| e.to_string())?;
    Ok(Counted { profile, separated })
}

/// A worker's failure in one line, with Valgrind's last words when it
/// said any.
fn failure(e: &WorkerError, log: &Path) -> String {
    match e {
        WorkerError::Failed(m) if m.starts_with("unreadable request") => {
            "the binary was built with a yardstick without --explain".to_owned()
        }
        WorkerError::Failed(m) => format!("the routine failed under Callgrind: {m}"),
        other => format!("{other}{}", last_words(log)),
    }
}

/// The last line of Valgrind's log, when it has one worth showing (its
/// lines start with `==pid==`).
pub(super) fn last_words(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let last = text
        .lines()
        .map(|l| {
            l.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
                .trim()
        })
        .rfind(|l| !l.is_empty());
    match last {
        Some(l) => format!(" (Valgrind: {})", yardstick_format::names::one_line(l)),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valgrinds_last_words_are_its_logs_last_line() {
        let dir =
            std::env::temp_dir().join(format!("yardstick-explain-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("valgrind.log");
        std::fs::write(
            &log,
            "==123== Callgrind, a call-graph generating cache profiler\n\
             ==123== valgrind: failed to start tool 'callgrind' for platform 'amd64-linux'\n\
             ==123== \n",
        )
        .unwrap();
        assert_eq!(
            last_words(&log),
            " (Valgrind: valgrind: failed to start tool 'callgrind' for platform 'amd64-linux')"
        );
        assert_eq!(last_words(&dir.join("missing.log")), "");
        let old = WorkerError::Failed("unreadable request: unknown kind `explain`".into());
        assert_eq!(
            failure(&old, &log),
            "the binary was built with a yardstick without --explain"
        );
        let panic = WorkerError::Failed("panicked at b.rs:3:5: boom".into());
        assert_eq!(
            failure(&panic, &log),
            "the routine failed under Callgrind: panicked at b.rs:3:5: boom"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
