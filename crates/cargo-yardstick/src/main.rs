//! `cargo yardstick`: the yardstick command-line tool.
//!
//! `cargo yardstick analyze FILE.csv [--baseline OLD.csv] [--confidence 95]
//! [--nresamples N] [--seed S]` reads Criterion.rs raw.csv files and prints
//! one JSON document with every statistic yardstick computes; see the
//! README for the schema.
//!
//! Exit status: 0 on success, 1 on an unexpected error, 2 on bad usage or
//! bad input (one line on stderr naming the flag, or the file, line and
//! problem).

mod analyze;
mod cli;
mod rawcsv;
mod report;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;

use crate::cli::{CliError, Invocation};

/// Exit status for bad usage or bad input.
const BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let invocation = match cli::parse(std::env::args_os()) {
        Ok(inv) => inv,
        Err(CliError::Clap(e)) => {
            // Help and version go to stdout with status 0; errors to stderr
            // with status 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(BAD_INPUT));
        }
        Err(CliError::Invalid(message)) => {
            eprintln!("error: {message}");
            return ExitCode::from(BAD_INPUT);
        }
    };
    match invocation {
        Invocation::Analyze(cfg) => match analyze::run(&cfg) {
            Ok(doc) => match print(&doc) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e:#}");
                    ExitCode::FAILURE
                }
            },
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(BAD_INPUT)
            }
        },
    }
}

/// Writes the document to stdout; a closed pipe (`| head`) is not an error.
fn print(doc: &report::Document) -> anyhow::Result<()> {
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
