//! Without `--bench`: every benchmark once, natively, as a test.

use crate::cli::NoCapture;
use crate::job::{hook, with_dir, Hooks, Job};

/// Without `--bench` (as `cargo test --benches` runs bench binaries): each
/// benchmark runs once, natively, and must not fail. Returns whether every
/// one passed; the driver turns that into the exit status.
pub(crate) fn test_natively(jobs: &[Job], hooks: &Hooks<'_>) -> bool {
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
        crate::printer::outln!("Testing {}", job.header);
        let result = match job.native {
            Some(f) => std::panic::catch_unwind(f).map_err(|_| "panicked".to_owned()),
            None => test_binary(job),
        };
        match result {
            Ok(()) => crate::printer::outln!("Success"),
            Err(e) => {
                crate::printer::outln!("FAILED {}: {e}", job.header);
                failed += 1;
            }
        }
    }
    if let Some(g) = current_group {
        hook(hooks, g, false);
    }
    failed == 0
}

fn test_binary(job: &Job) -> Result<(), String> {
    let sandbox = if job.sandboxed() {
        Some(crate::sandbox::Sandbox::new(job.config.fixtures.as_ref())?)
    } else {
        None
    };
    let cwd = sandbox.as_ref().map(|s| s.path().to_owned());
    let (clear, envs) = job.environment();
    with_dir(cwd.as_deref(), job.setup);
    let mut cmd = std::process::Command::new(&job.program);
    cmd.args(&job.args).stdin(std::process::Stdio::null());
    let outcome = crate::valgrind::run_command(cmd, clear, &envs, cwd.as_deref(), NoCapture::False)
        .map_err(|e| format!("cannot start {}: {e}", job.program.display()))?;
    with_dir(cwd.as_deref(), job.teardown);
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
