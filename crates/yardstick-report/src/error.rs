//! The one error type of the crate.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Why a report could not be written or rendered.
///
/// Every variant names the file (or template) involved, so the message can
/// be printed as it is.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReportError {
    /// A file or folder could not be read or written.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// A saved file is not in the expected format.
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// Nothing to report: no benchmark (or not the one asked for) was found
    /// under the home directory.
    NotFound {
        /// Where it was looked for.
        path: PathBuf,
        /// What was looked for.
        what: String,
    },
    /// The statistics could not be computed (too few samples, a corrupt
    /// sample).
    Stats(yardstick_stats::StatsError),
    /// A template could not be parsed or rendered.
    Template(String),
}

impl ReportError {
    pub(crate) fn io(path: &Path, source: io::Error) -> ReportError {
        ReportError::Io {
            path: path.to_owned(),
            source,
        }
    }
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ReportError::Format { path, problem } => write!(f, "{}: {problem}", path.display()),
            ReportError::NotFound { path, what } => {
                write!(f, "{what} not found under {}", path.display())
            }
            ReportError::Stats(e) => write!(f, "cannot analyse the samples: {e}"),
            ReportError::Template(msg) => write!(f, "template: {msg}"),
        }
    }
}

impl std::error::Error for ReportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReportError::Io { source, .. } => Some(source),
            ReportError::Stats(e) => Some(e),
            _ => None,
        }
    }
}

impl From<yardstick_stats::StatsError> for ReportError {
    fn from(e: yardstick_stats::StatsError) -> ReportError {
        ReportError::Stats(e)
    }
}
