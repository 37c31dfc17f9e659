//! The error of the checked printing macros (`valgrind_printf!` and kin).

use std::ffi::FromVecWithNulError;
use std::fmt;

/// A message for Valgrind's log that cannot be sent: it contains a NUL byte.
#[derive(Debug)]
pub enum ClientRequestError {
    /// The formatted message had a NUL byte before its end.
    ValgrindPrintError(FromVecWithNulError),
}

impl std::error::Error for ClientRequestError {}

impl From<FromVecWithNulError> for ClientRequestError {
    fn from(value: FromVecWithNulError) -> Self {
        ClientRequestError::ValgrindPrintError(value)
    }
}

impl fmt::Display for ClientRequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientRequestError::ValgrindPrintError(inner) => write!(
                f,
                "client requests: print error: {inner}: '{}'",
                String::from_utf8_lossy(inner.as_bytes())
            ),
        }
    }
}
