//! The engine's view of a run: the settings of the run as a whole and what
//! the runner needs of the front-end that asked for a benchmark.
//!
//! The front-ends (the Criterion.rs API, divan's entry, the 0.3-era API)
//! fill these in and hand them down; the runner, the workers, the sinks,
//! the store and the tally take them from here, so no engine module names
//! a front-end's type (ARCHITECTURE.md, "Layers").

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use yardstick_format::messages::Message;

use crate::cli::{Baseline, Color, Mode, OutputFormat, Verbosity};
use crate::filter::Filter;
use crate::measurement::Measurement;
use crate::output::{Style, Terminal};
use crate::profiler::Profiler;

/// Settings of the run as a whole (from the command line), as opposed to
/// the settings of each benchmark.
pub(crate) struct RunSettings {
    pub mode: Mode,
    pub filter: Filter,
    /// `--partition`: this shard's benchmarks only, after the filter
    /// ([`crate::state::in_shard`]).
    pub partition: Option<yardstick_format::partition::Partition>,
    pub ignored: bool,
    pub baseline: Baseline,
    pub load_baseline: Option<String>,
    pub home: PathBuf,
    pub color: Color,
    pub verbosity: Verbosity,
    pub output_format: OutputFormat,
    pub plots: bool,
    pub csv: Option<PathBuf>,
    /// Means (ps) by name from `--baseline-csv`.
    pub baseline_csv: Option<std::collections::HashMap<String, f64>>,
    pub hide_successes: bool,
    /// `--complexity`: print the Big-O table even when no model fits.
    pub complexity: bool,
    /// Outputs of the whole run (markdown, --svg, --template).
    pub outputs: RunOutputs,
    /// cargo-criterion's JSON messages, when asked for.
    pub messages: Option<std::sync::Arc<Destination>>,
    /// A front-end's benchmarks sampled by the engine's rule rather than
    /// by the front-end's own plan (`frontend::Sampling`).
    pub engine_sampling: bool,
    /// `--baseline-binary ignore`: compare with the saved numbers.
    pub ignore_baseline_binary: bool,
    /// `--explain`: after the run, the instructions that changed in each
    /// benchmark that regressed or improved (`crate::explain`).
    pub explain: bool,
}

impl RunSettings {
    pub(crate) fn terminal(&self) -> Terminal {
        Terminal::new(
            Style::detect(self.color),
            self.verbosity,
            self.output_format,
        )
    }
}

/// What the runner borrows of a front-end for one benchmark: the run's
/// settings, the measurement and the profiler (`Criterion`'s fields, lent).
pub(crate) struct Session<'a, M: Measurement> {
    pub run: &'a RunSettings,
    pub measurement: &'a M,
    pub profiler: &'a mut dyn Profiler,
}

/// The run-level outputs asked for on the command line.
#[derive(Debug, Clone, Default)]
#[cfg_attr(not(feature = "report"), allow(dead_code))]
pub(crate) struct RunOutputs {
    pub markdown: bool,
    pub svg: Option<std::path::PathBuf>,
    pub template: Option<String>,
    pub template_output: Option<std::path::PathBuf>,
}

impl RunOutputs {
    pub(crate) fn any(&self) -> bool {
        self.markdown || self.svg.is_some() || self.template.is_some()
    }
}

/// Where messages go.
pub(crate) enum Destination {
    Stdout,
    File(Mutex<File>),
}

impl Destination {
    /// Opens `path` for appending (so several bench binaries of one `cargo
    /// bench` share it), or stdout.
    pub(crate) fn open(path: Option<&Path>) -> Result<Destination, String> {
        match path {
            None => Ok(Destination::Stdout),
            Some(p) => OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map(|f| Destination::File(Mutex::new(f)))
                .map_err(|e| format!("cannot open --message-file {}: {e}", p.display())),
        }
    }

    /// Writes one message as one line, in one write.
    pub(crate) fn send(&self, message: &Message) {
        let mut line = yardstick_format::json::to_string(message);
        line.push('\n');
        match self {
            Destination::Stdout => {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(line.as_bytes());
                let _ = out.flush();
            }
            Destination::File(f) => {
                if let Ok(mut f) = f.lock() {
                    let _ = f.write_all(line.as_bytes());
                }
            }
        }
    }
}
