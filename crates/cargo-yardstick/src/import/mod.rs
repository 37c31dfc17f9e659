//! Importers: results of other harnesses, turned into [`BenchResult`]s so
//! that `history`, `compare` and `check` work across them.
//!
//! Each importer is a pure function from the file's text to results; a
//! malformed file is an error sentence, never a panic (property-tested in
//! `fuzz.rs`, the Criterion.rs home with random folder trees). Time units become nanoseconds.

mod cargo_criterion;
mod criterion_home;
#[cfg(test)]
mod fuzz;
mod google;
mod hyperfine;
mod iai;
mod json;
mod nanobench;
mod pyperf;
mod tasty;

use std::path::{Path, PathBuf};

use crate::record::BenchResult;

pub use criterion_home::read_baseline;

use clap::Args;

use crate::args::HomeArg;

/// `import` arguments.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// The format: yardstick (a `history --export` folder), criterion, cargo-criterion, google-benchmark, nanobench, pyperf, hyperfine, iai-callgrind (gungraun), tasty-bench.
    pub format: String,
    /// The file (or folder, for criterion and iai-callgrind).
    pub path: PathBuf,
    /// A label for the run, to name it in compare and check.
    #[arg(long, value_name = "NAME")]
    pub label: Option<String>,
    #[command(flatten)]
    pub home: HomeArg,
}

/// A supported input format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A Criterion.rs (or yardstick) home directory, `target/criterion`.
    Criterion,
    /// cargo-criterion's JSON messages, one per line.
    CargoCriterion,
    /// Google Benchmark's `--benchmark_format=json`.
    GoogleBenchmark,
    /// nanobench's JSON template output.
    Nanobench,
    /// pyperf's JSON.
    Pyperf,
    /// hyperfine's `--export-json`.
    Hyperfine,
    /// iai-callgrind / gungraun `summary.json` files (a file or a folder).
    IaiCallgrind,
    /// tasty-bench's `--csv` output.
    TastyBench,
}

/// Every format name accepted on the command line, for messages.
pub const NAMES: &str = "criterion, cargo-criterion, google-benchmark, nanobench, pyperf, hyperfine, iai-callgrind (or gungraun), tasty-bench";

impl Format {
    /// The format called `name` on the command line.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "criterion" => Format::Criterion,
            "cargo-criterion" => Format::CargoCriterion,
            "google-benchmark" | "gbench" => Format::GoogleBenchmark,
            "nanobench" => Format::Nanobench,
            "pyperf" => Format::Pyperf,
            "hyperfine" => Format::Hyperfine,
            "iai-callgrind" | "gungraun" => Format::IaiCallgrind,
            "tasty-bench" => Format::TastyBench,
            _ => return None,
        })
    }

    /// Its command-line name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Criterion => "criterion",
            Format::CargoCriterion => "cargo-criterion",
            Format::GoogleBenchmark => "google-benchmark",
            Format::Nanobench => "nanobench",
            Format::Pyperf => "pyperf",
            Format::Hyperfine => "hyperfine",
            Format::IaiCallgrind => "iai-callgrind",
            Format::TastyBench => "tasty-bench",
        }
    }
}

/// Parses the text of one file in `format` (not [`Format::Criterion`],
/// which is a directory).
///
/// # Errors
///
/// A sentence saying what is wrong (without the file name).
pub fn parse_text(format: Format, text: &str) -> Result<Vec<BenchResult>, String> {
    let results = match format {
        Format::Criterion => return Err("a criterion home is a directory, not a file".into()),
        Format::CargoCriterion => cargo_criterion::parse(text)?,
        Format::GoogleBenchmark => google::parse(text)?,
        Format::Nanobench => nanobench::parse(text)?,
        Format::Pyperf => pyperf::parse(text)?,
        Format::Hyperfine => hyperfine::parse(text)?,
        Format::IaiCallgrind => iai::parse(text)?,
        Format::TastyBench => tasty::parse(text)?,
    };
    checked(Ok(results))
}

/// The results, unless there are none or one is impossible.
fn checked(results: Result<Vec<BenchResult>, String>) -> Result<Vec<BenchResult>, String> {
    let results = results?;
    if results.is_empty() {
        return Err("no benchmark results in it".into());
    }
    for r in &results {
        check_possible(r)?;
    }
    Ok(results)
}

/// The largest JSON document `import` reads (google-benchmark, pyperf,
/// hyperfine, nanobench, iai-callgrind's summaries): one document is parsed
/// whole, so a larger one (or an endless stream such as /dev/zero) is
/// refused with one line rather than read until memory runs out. The line
/// formats (cargo-criterion's messages, tasty-bench's CSV) are streamed
/// instead, with no limit on their size: see [`MAX_LINE_BYTES`].
pub const MAX_IMPORT_BYTES: u64 = 64 << 20;

/// The longest line of a streamed format: memory stays bounded by what is
/// kept plus one line, even on a stream without line breaks.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// A reader that fails once a line grows past [`MAX_LINE_BYTES`].
struct LineBounded<R> {
    inner: R,
    since_newline: usize,
}

impl<R: std::io::Read> std::io::Read for LineBounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.since_newline = match buf[..n].iter().rposition(|&b| b == b'\n') {
            Some(i) => n - i - 1,
            None => self.since_newline + n,
        };
        if self.since_newline > MAX_LINE_BYTES {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a line longer than {} MiB", MAX_LINE_BYTES >> 20),
            ));
        }
        Ok(n)
    }
}

/// `path` as a buffered stream of lines no longer than [`MAX_LINE_BYTES`].
fn stream(path: &Path) -> Result<impl std::io::BufRead, String> {
    let f = std::fs::File::open(path)
        .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
    Ok(std::io::BufReader::with_capacity(
        1 << 16,
        LineBounded {
            inner: f,
            since_newline: 0,
        },
    ))
}

/// Rejects values no measurement can have: a typical time of zero or less,
/// or negative sample values (they would show as "latest -1.0000 s" and
/// NaN changes later).
fn check_possible(r: &BenchResult) -> Result<(), String> {
    let t = &r.typical;
    if !(t.point > 0.0 && t.point.is_finite() && t.lower.is_finite() && t.upper.is_finite()) {
        return Err(format!(
            "'{}': a typical value of {} {} is impossible (it must be positive and finite)",
            r.name, t.point, r.unit
        ));
    }
    if r.values.iter().any(|&v| !(v >= 0.0 && v.is_finite())) {
        return Err(format!(
            "'{}': a sample value is negative or not finite",
            r.name
        ));
    }
    Ok(())
}

/// The text of `path`, refusing more than [`MAX_IMPORT_BYTES`].
fn read_bounded(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let f = std::fs::File::open(path)
        .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
    let mut bytes = Vec::new();
    f.take(MAX_IMPORT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_IMPORT_BYTES {
        return Err(format!(
            "{}: larger than the {} MiB an import reads; split it or keep only the results",
            path.display(),
            MAX_IMPORT_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))
}

/// Reads `path` in `format`.
///
/// # Errors
///
/// One line naming the file and the problem.
pub fn import(format: Format, path: &Path) -> Result<Vec<BenchResult>, String> {
    match format {
        Format::Criterion => criterion_home::read(path),
        Format::IaiCallgrind if path.is_dir() => iai::read_dir(path),
        Format::CargoCriterion | Format::TastyBench => {
            let lines = stream(path)?;
            let results = if format == Format::TastyBench {
                tasty::parse_reader(lines)
            } else {
                cargo_criterion::parse_reader(lines)
            };
            checked(results).map_err(|e| {
                format!(
                    "{}: not a valid {} file: {e}",
                    path.display(),
                    format.name()
                )
            })
        }
        _ => {
            let text = read_bounded(path)?;
            parse_text(format, &text).map_err(|e| {
                format!(
                    "{}: not a valid {} file: {e}",
                    path.display(),
                    format.name()
                )
            })
        }
    }
}

/// Parses cargo-criterion JSON messages (the harness's `--message-file`).
///
/// # Errors
///
/// A sentence naming the line that is malformed.
pub fn parse_messages(text: &str) -> Result<Vec<BenchResult>, String> {
    cargo_criterion::parse(text)
}
