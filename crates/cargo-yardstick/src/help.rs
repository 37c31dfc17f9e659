//! `--help` of the subcommands that hand the rest of their arguments to
//! `cargo bench` (`bench`, `calibrate`): clap cannot parse their own flags
//! out of cargo's, so it would print only a summary, and `--help` was
//! cargo's. Here yardstick's own flags come first, then cargo bench's own
//! help, which yardstick passes on.

use std::process::{Command, Stdio};

/// A subcommand whose flags sit among cargo bench's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passthrough {
    /// `cargo yardstick bench`.
    Bench,
    /// `cargo yardstick calibrate`.
    Calibrate,
}

/// The home flag's help, as every subcommand words it.
const HOME: &str = "The home directory (default: $YARDSTICK_HOME, $CRITERION_HOME, $CARGO_TARGET_DIR/criterion, then target/criterion in the workspace root)";

impl Passthrough {
    /// The subcommand by name (`help bench`).
    #[must_use]
    pub fn named(name: &str) -> Option<Passthrough> {
        match name {
            "bench" => Some(Passthrough::Bench),
            "calibrate" => Some(Passthrough::Calibrate),
            _ => None,
        }
    }

    /// What it does, its usage and its own flags: (flag, help).
    fn parts(
        self,
    ) -> (
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str)],
    ) {
        match self {
            Passthrough::Bench => (
                "Run `cargo bench` with a progress bar and record the run in the history.",
                "cargo yardstick bench [OPTIONS] [CARGO BENCH OPTIONS] [-- BENCH OPTIONS]",
                &[
                    ("--home <DIR>", HOME),
                    ("--label <NAME>", "A name for the recorded run, which `compare` takes in place of its number"),
                    ("--partition <hash:K/N|count:K/N>", "Only shard K of N of the benchmarks, by a hash of the id or round-robin (passed on to every bench binary, and recorded with the run so that an import merges the shards)"),
                    ("-h, --help", "Print this help"),
                ],
            ),
            Passthrough::Calibrate => (
                "Measure each benchmark's run-to-run drift with A/A runs and write drift.json, or with --layouts how far relinking the same code moves it.",
                "cargo yardstick calibrate [OPTIONS] [CARGO BENCH OPTIONS] [-- BENCH OPTIONS]",
                &[
                    ("--runs <N>", "Runs of the suite [default: 5]"),
                    ("--layouts[=<N>]", "Measure the layout spread in N code layouts (2 to 64, default {layouts}) instead of the drift between runs"),
                    ("--home <DIR>", HOME),
                    ("-h, --help", "Print this help"),
                ],
            ),
        }
    }

    /// Yardstick's part of the help: what it does, the usage and its own
    /// flags, each flag's help wrapped under it at 80 columns.
    #[must_use]
    pub fn own(self) -> String {
        let (about, usage, flags) = self.parts();
        let mut out = format!("{about}\n\nUsage: {usage}\n\nyardstick's options (taken out before cargo sees the rest):\n");
        for (flag, help) in flags {
            out.push_str(&format!("  {flag}\n"));
            let help = help.replace("{layouts}", &crate::calibrate_layouts::DEFAULT.to_string());
            for line in wrap(&help, 80 - 10) {
                out.push_str(&format!("          {line}\n"));
            }
        }
        out.push_str("\nEvery other option is cargo bench's; after `--`, the bench binaries'.\n");
        out
    }
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// Whether the arguments ask for help: `-h` or `--help` among cargo's
/// (before any `--`; after it, the bench binaries' help is asked for).
#[must_use]
pub fn asked(args: &[String]) -> bool {
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--help" || a == "-h")
}

/// Prints yardstick's part of the help, then cargo bench's own.
pub fn print(command: Passthrough) {
    print!("{}", command.own());
    let cargo = crate::runner::cargo();
    let theirs = Command::new(&cargo)
        .args(["bench", "--help"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success());
    match theirs {
        Some(o) => {
            println!("\ncargo bench's options (`cargo bench --help`):\n");
            print!("{}", String::from_utf8_lossy(&o.stdout));
        }
        None => {
            println!("\n`{cargo} bench --help` could not run: see it for cargo bench's options.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_is_asked_before_the_bench_binaries_arguments() {
        let s = |a: &[&str]| a.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert!(asked(&s(&["--help"])));
        assert!(asked(&s(&["--bench", "x", "-h"])));
        assert!(!asked(&s(&["--", "--help"])));
        assert!(!asked(&s(&["--label", "x"])));
    }

    #[test]
    fn lines_are_wrapped_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("a", 5), ["a"]);
    }
}
