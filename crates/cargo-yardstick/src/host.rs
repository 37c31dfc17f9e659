//! The context of a run: git state, host and toolchain, read from the
//! environment. Anything that cannot be found is left empty, never guessed.

use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::record::RunMeta;

/// The context of a run made now in `dir`, with `source` and `config`.
#[must_use]
pub fn current(dir: &Path, source: &str, config: &str) -> RunMeta {
    let commit = git(dir, &["rev-parse", "HEAD"]);
    let branch = git(dir, &["rev-parse", "--abbrev-ref", "HEAD"])
        .filter(|b| b != "HEAD")
        .or_else(ci_branch);
    let dirty = commit.is_some()
        && git(dir, &["status", "--porcelain", "--untracked-files=no"])
            .is_some_and(|s| !s.is_empty());
    RunMeta {
        time: now(),
        commit,
        branch,
        dirty,
        machine: machine_name(),
        cpu: crate::machine::cpu_model(&crate::machine::Root::system()).unwrap_or_default(),
        cores: std::thread::available_parallelism().map_or(0, |n| n.get() as i64),
        os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        rustc: output("rustc", &["--version"], dir).unwrap_or_default(),
        config: config.to_owned(),
        source: source.to_owned(),
        label: None,
        shard: None,
        state: None,
        build: None,
    }
}

/// Seconds since the Unix epoch.
#[must_use]
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// `rustc -vV` of the compiler cargo uses (`RUSTC`, else `rustc`), as it
/// prints it; empty when it cannot run. `ab` keys its builds by it and the
/// layouts' linker reads its `host:` line.
#[must_use]
pub fn rustc_verbose() -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    Command::new(rustc)
        .arg("-vV")
        .stderr(std::process::Stdio::null())
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    output("git", args, dir)
}

fn output(program: &str, args: &[&str], dir: &Path) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The machine's name: `YARDSTICK_MACHINE` when set (CI runners get a new
/// host name per job, so a workflow names its machine), else the host
/// name, else `unknown`.
#[must_use]
pub fn machine_name() -> String {
    let named = std::env::var("YARDSTICK_MACHINE")
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty());
    named
        .or_else(|| {
            std::fs::read_to_string("/proc/sys/kernel/hostname")
                .ok()
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
        })
        .or_else(|| std::env::var("COMPUTERNAME").ok().filter(|s| !s.is_empty()))
        .or_else(|| output("hostname", &[], Path::new(".")).filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The branch a CI job checked out at a detached commit, as GitHub Actions
/// names it (`GITHUB_REF=refs/heads/main`), so that runs made in CI are on
/// their branch like runs made at a desk.
fn ci_branch() -> Option<String> {
    std::env::var("GITHUB_REF")
        .ok()?
        .strip_prefix("refs/heads/")
        .filter(|b| !b.is_empty())
        .map(str::to_owned)
}
