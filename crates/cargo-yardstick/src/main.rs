//! `cargo yardstick`: the yardstick command-line tool.
//!
//! - `analyze FILE.csv` reads Criterion.rs raw.csv files and prints one JSON
//!   document with every statistic yardstick computes;
//! - `bench` runs `cargo bench` with a progress bar and records the run in
//!   the history (`<home>/history.sqlite`);
//! - `history [FILTER]` prints trends and level shifts and writes the
//!   history site; `history --export DIR` writes one JSON file per run;
//! - `compare A B` tabulates the changes between two runs or baselines;
//! - `import FORMAT PATH` records another harness's results;
//! - `check --against B` is the CI gate;
//! - `doctor` measures how noisy this machine is and says what to do;
//! - `init` sets a project up so that every `cargo bench` samples code
//!   layouts (bench binaries link through this executable, see `layouts`);
//! - `merge SHARD_FILE...` merges the shards of an `ab` split over a CI
//!   matrix (`--partition`) into one verdict.
//!
//! Exit status: 0 on success, 1 on an unexpected error, 2 on bad usage or
//! bad input (one line on stderr naming the flag, or the file and problem),
//! 3 when `check` found a regression.

mod ab;
mod analyze;
mod args;
mod atomic;
mod bench;
mod binaries;
mod calibrate;
mod calibrate_layouts;
mod check;
mod children;
mod cli;
mod commands;
mod compare;
mod config;
mod db;
mod doctor;
mod exec;
mod explain;
mod export;
mod failure;
mod help;
mod history;
mod host;
mod import;
mod init;
mod layouts;
mod machine;
mod merge;
mod rawcsv;
mod record;
mod report_cmd;
mod runner;
mod select;
mod shard_runs;
#[cfg(test)]
mod snapshots;
mod table;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use yardstick_format::names::terminal_text;

use crate::cli::{CliError, Invocation};

/// Exit status for bad usage or bad input.
const BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    // Started by rustc as the linker (`ab`'s builds, and a project's after
    // `init`).
    if let Some(code) = layouts::link_if_asked() {
        return ExitCode::from(code);
    }
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let mut invocation = match cli::parse(args.clone()) {
        Ok(inv) => inv,
        Err(CliError::Clap(e)) => {
            // Help and version go to stdout with status 0; errors to stderr
            // with status 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(BAD_INPUT));
        }
        Err(CliError::Invalid(message)) => {
            eprintln!("error: {}", terminal_text(&message));
            return ExitCode::from(BAD_INPUT);
        }
    };
    if !matches!(invocation, Invocation::Analyze(_)) {
        let text: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        match config::load() {
            Ok(c) => config::apply(&mut invocation, &c, &text),
            Err(message) => {
                eprintln!("error: {}", terminal_text(&message));
                return ExitCode::from(BAD_INPUT);
            }
        }
    }
    match invocation {
        Invocation::Analyze(cfg) => match analyze::run(&cfg) {
            Ok(doc) => match print(&doc) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {}", terminal_text(&format!("{e:#}")));
                    ExitCode::FAILURE
                }
            },
            Err(e) => {
                eprintln!("error: {}", terminal_text(&e.to_string()));
                ExitCode::from(BAD_INPUT)
            }
        },
        other => match commands::run(other) {
            Ok(code) => {
                // Files are written without a flush each; one flush at the
                // end (see yardstick_format::atomic).
                if let Err(e) = yardstick_format::atomic::sync_written() {
                    eprintln!("warning: could not flush the written files to disk: {e}");
                }
                ExitCode::from(code)
            }
            Err(failure::Failure { code, message }) => {
                eprintln!("error: {}", terminal_text(&message));
                ExitCode::from(code)
            }
        },
    }
}

/// Writes the document to stdout; a closed pipe (`| head`) is not an error.
fn print(doc: &yardstick_format::analyze::Document) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = serde_json::to_writer_pretty(&mut out, doc)
        .map_err(io::Error::from)
        .and_then(|()| writeln!(out))
        .and_then(|()| out.flush());
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write the JSON document to stdout"),
    }
}
