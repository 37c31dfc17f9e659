//! What a run prints.

/// `println!` that cannot panic: once stdout is closed (`cargo bench | head`)
/// the rest of the output is dropped and the run goes on to save its results.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

/// `print!` that cannot panic (see `outln!`).
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        let _ = write!(stdout, $($t)*);
        let _ = stdout.flush();
    }};
}

/// `eprintln!` that cannot panic (see `outln!`).
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($t)*);
    }};
}

pub(crate) use {errln, out, outln};

pub(crate) mod messages;
mod power;
mod rebar;
pub(crate) mod sink;
#[cfg(test)]
mod snapshots;
mod style;
mod table;
mod tasty;
mod terminal;
mod terminal_sink;

pub(crate) use style::Style;
pub(crate) use tasty::estimate as tasty_estimate;
pub(crate) use terminal::{Completed, Terminal};
