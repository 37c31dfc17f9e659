//! Why a subcommand failed: the exit status and the one line said. Every
//! subcommand returns it and `main` prints it, so it sits below them all.

/// Why a command failed: its exit status and one line.
#[derive(Debug)]
pub struct Failure {
    /// Exit status.
    pub code: u8,
    /// The message, without `error: `.
    pub message: String,
}
