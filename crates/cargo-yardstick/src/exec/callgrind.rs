//! `exec --callgrind`: count the instructions of a command under
//! `valgrind --tool=callgrind`, following its children.

use std::path::Path;
use std::process::{Command, Stdio};

/// Whether valgrind can be started; a one-line reason when it cannot.
///
/// # Errors
///
/// The sentence printed when valgrind is missing.
pub fn available() -> Result<(), String> {
    match Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(s) if s.success() => Ok(()),
        _ => Err(
            "--callgrind needs valgrind, which was not found on PATH (install it, e.g. `apt-get install valgrind`)"
                .into(),
        ),
    }
}

/// Instructions executed by `argv` and every process it starts (the sum
/// of callgrind's `totals:`/`summary:` lines over one file per process).
///
/// # Errors
///
/// A sentence when valgrind fails, the command fails, or no count is found.
pub fn count(argv: &[String], dir: &Path, tag: &str) -> Result<u64, String> {
    let _ = std::fs::remove_dir_all(dir.join(tag));
    let out_dir = dir.join(tag);
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("{}: cannot create: {e}", out_dir.display()))?;
    let out = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg("--trace-children=yes")
        .arg(format!(
            "--callgrind-out-file={}",
            out_dir.join("callgrind.out.%p").display()
        ))
        .args(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rfind(|l| !l.trim().is_empty() && !l.starts_with("=="))
            .unwrap_or("");
        return Err(format!(
            "'{}' under callgrind exited with {}{}",
            argv.join(" "),
            out.status,
            if last.is_empty() {
                String::new()
            } else {
                format!(": {last}")
            }
        ));
    }
    let mut total = 0u64;
    let mut found = false;
    let entries = std::fs::read_dir(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    for entry in entries.flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let line = text
            .lines()
            .find(|l| l.starts_with("totals:"))
            .or_else(|| text.lines().find(|l| l.starts_with("summary:")));
        if let Some(n) = line
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
        {
            total += n;
            found = true;
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    if found {
        Ok(total)
    } else {
        Err(format!(
            "callgrind wrote no instruction count for '{}'",
            argv.join(" ")
        ))
    }
}
