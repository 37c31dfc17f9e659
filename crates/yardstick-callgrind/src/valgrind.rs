//! Finding Valgrind and running a command under one of its tools.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cli::NoCapture;

/// The Valgrind executable: `YARDSTICK_CALLGRIND_VALGRIND` or `valgrind` on
/// `PATH`.
pub fn executable() -> OsString {
    yardstick_format::valgrind::executable()
}

/// Checks that Valgrind runs; returns its version line.
///
/// # Errors
///
/// One line saying what is missing and what to do.
pub fn check() -> Result<String, String> {
    let exe = executable();
    match Command::new(&exe)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) if out.status.success() => {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        }
        Ok(out) => Err(format!(
            "error: '{}' --version failed ({}): Valgrind is needed for instruction counts; \
             install it (e.g. apt-get install valgrind)",
            exe.to_string_lossy(),
            out.status
        )),
        Err(e) => Err(format!(
            "error: Valgrind not found ('{}': {e}): instruction counts need it; install it \
             (e.g. apt-get install valgrind) or set YARDSTICK_CALLGRIND_VALGRIND to its path",
            exe.to_string_lossy()
        )),
    }
}

/// `setarch` when it can switch address-space randomisation off here
/// (`setarch <arch> -R`, as iai-callgrind does): addresses, and so anything
/// that hashes or sorts by them, are then the same in every run.
fn setarch() -> Option<&'static Path> {
    static SETARCH: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    SETARCH
        .get_or_init(|| {
            if std::env::var_os("YARDSTICK_CALLGRIND_ASLR").is_some_and(|v| v == "on") {
                return None;
            }
            let works = Command::new("setarch")
                .args([std::env::consts::ARCH, "-R", "true"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            works.then(|| PathBuf::from("setarch"))
        })
        .as_deref()
}

/// One Valgrind invocation.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// `--tool=<tool>`.
    pub tool: String,
    /// The tool's arguments (output files, toggles, user arguments).
    pub tool_args: Vec<OsString>,
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// The environment: cleared first when `env_clear`.
    pub env_clear: bool,
    /// Variables to set.
    pub envs: Vec<(OsString, OsString)>,
    /// The working directory.
    pub cwd: Option<PathBuf>,
}

/// What a run left behind.
#[derive(Debug)]
pub struct Outcome {
    /// The exit code, None when killed by a signal.
    pub code: Option<i32>,
    /// Captured stdout and stderr (empty when not captured).
    pub output: String,
}

impl Invocation {
    /// The command line, for messages.
    pub fn display(&self) -> String {
        let mut parts = vec![executable().to_string_lossy().into_owned()];
        parts.push(format!("--tool={}", self.tool));
        parts.extend(
            self.tool_args
                .iter()
                .map(|a| a.to_string_lossy().into_owned()),
        );
        parts.push(self.program.display().to_string());
        parts.extend(self.args.iter().map(|a| a.to_string_lossy().into_owned()));
        parts.join(" ")
    }

    /// Runs it and waits.
    ///
    /// # Errors
    ///
    /// When Valgrind cannot be started.
    pub fn run(&self, nocapture: NoCapture) -> std::io::Result<Outcome> {
        let mut cmd = match setarch() {
            Some(setarch) => {
                let mut c = Command::new(setarch);
                c.args([std::env::consts::ARCH, "-R"]).arg(executable());
                c
            }
            None => Command::new(executable()),
        };
        cmd.arg(format!("--tool={}", self.tool))
            .args(&self.tool_args)
            .arg(&self.program)
            .args(&self.args)
            .stdin(Stdio::null());
        run_command(
            cmd,
            self.env_clear,
            &self.envs,
            self.cwd.as_deref(),
            nocapture,
        )
    }
}

/// Runs `cmd` with the environment and output handling asked for.
///
/// # Errors
///
/// When the command cannot be started.
pub fn run_command(
    mut cmd: Command,
    env_clear: bool,
    envs: &[(OsString, OsString)],
    cwd: Option<&Path>,
    nocapture: NoCapture,
) -> std::io::Result<Outcome> {
    if env_clear {
        cmd.env_clear();
    }
    cmd.envs(envs.iter().map(|(k, v)| (k, v)));
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let (out, err) = match nocapture {
        NoCapture::False => (Stdio::piped(), Stdio::piped()),
        NoCapture::True => (Stdio::inherit(), Stdio::inherit()),
        NoCapture::Stdout => (Stdio::inherit(), Stdio::null()),
        NoCapture::Stderr => (Stdio::null(), Stdio::inherit()),
    };
    let output = cmd.stdout(out).stderr(err).output()?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    Ok(Outcome {
        code: output.status.code(),
        output: text,
    })
}
