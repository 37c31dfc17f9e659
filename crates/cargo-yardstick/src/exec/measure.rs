//! Running one command once: wall time around spawn and wait, user and
//! system CPU time of the child from `getrusage(RUSAGE_CHILDREN)`.

use std::process::{Command, Stdio};
use std::time::Instant;

/// How a command line is started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shell {
    /// Through `SHELL -c CMD` (default `sh`).
    Program(String),
    /// Split into words and spawned directly (`--shell none`).
    None,
}

impl Shell {
    /// `none` or a shell program.
    #[must_use]
    pub fn parse(s: &str) -> Shell {
        if s == "none" {
            Shell::None
        } else {
            Shell::Program(s.to_owned())
        }
    }
}

/// One measured run of a command.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Wall time in seconds.
    pub wall: f64,
    /// User CPU time of the child in seconds.
    pub user: f64,
    /// System CPU time of the child in seconds.
    pub sys: f64,
    /// Exit code (`None` when killed by a signal).
    pub code: Option<i32>,
}

/// The argument vector that runs `cmd` under `shell`.
///
/// # Errors
///
/// A sentence when `cmd` cannot be split into words (`--shell none`).
pub fn argv(shell: &Shell, cmd: &str) -> Result<Vec<String>, String> {
    match shell {
        Shell::Program(p) => Ok(vec![p.clone(), "-c".into(), cmd.into()]),
        Shell::None => {
            let words = split(cmd)?;
            if words.is_empty() {
                return Err("an empty command cannot be run with --shell none".into());
            }
            Ok(words)
        }
    }
}

/// Splits a command line into words with POSIX-like quoting: '…', "…" and
/// backslash escapes.
///
/// # Errors
///
/// A sentence for an unterminated quote.
pub fn split(cmd: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err(format!("unterminated ' in command '{cmd}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x) => cur.push(x),
                            None => return Err(format!("unterminated \" in command '{cmd}'")),
                        },
                        Some(x) => cur.push(x),
                        None => return Err(format!("unterminated \" in command '{cmd}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

fn seconds(t: libc::timeval) -> f64 {
    t.tv_sec as f64 + t.tv_usec as f64 * 1e-6
}

/// User and system CPU seconds of all terminated, waited-for children.
fn children_cpu() -> (f64, f64) {
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `getrusage` only writes into the struct it is given.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    if rc == 0 {
        (seconds(ru.ru_utime), seconds(ru.ru_stime))
    } else {
        (0.0, 0.0)
    }
}

/// Runs `argv` once and measures it. Output is discarded unless `show`.
///
/// # Errors
///
/// A sentence when the program cannot be started.
pub fn run_once(argv: &[String], show: bool) -> Result<Sample, String> {
    let mut c = Command::new(&argv[0]);
    c.args(&argv[1..]).stdin(Stdio::null());
    if !show {
        c.stdout(Stdio::null()).stderr(Stdio::null());
    }
    let (u0, s0) = children_cpu();
    let t0 = Instant::now();
    let status = c
        .status()
        .map_err(|e| format!("cannot run '{}': {e}", argv.join(" ")))?;
    let wall = t0.elapsed().as_secs_f64();
    let (u1, s1) = children_cpu();
    Ok(Sample {
        wall,
        user: (u1 - u0).max(0.0),
        sys: (s1 - s0).max(0.0),
        code: status.code(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_split_with_quotes() {
        assert_eq!(
            split(r#"sh -c 'a b' "c\"d" e\ f"#).unwrap(),
            vec!["sh", "-c", "a b", "c\"d", "e f"]
        );
        assert!(split("echo 'x").is_err());
        assert_eq!(split("  ").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn a_child_is_measured() {
        let s = run_once(&argv(&Shell::None, "true").unwrap(), false).unwrap();
        assert_eq!(s.code, Some(0));
        assert!(s.wall > 0.0 && s.user >= 0.0 && s.sys >= 0.0);
    }
}
