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

pub(crate) mod cells;
mod completed;
pub(crate) mod messages;
pub(crate) mod numbers;
mod power;
mod rebar;
pub(crate) mod said;
pub(crate) mod sink;
#[cfg(test)]
mod snapshots;
mod style;
mod table;
mod tasty;
mod terminal;
pub(crate) mod terminal_sink;

pub(crate) use completed::Completed;
pub(crate) use style::Style;
pub(crate) use tasty::estimate as tasty_estimate;
pub(crate) use terminal::Terminal;

/// True the first time `message` is passed in this process: notes about
/// the machine are said once, not per benchmark.
pub(crate) fn first_time(message: &str) -> bool {
    static SAID: std::sync::Mutex<Option<std::collections::HashSet<String>>> =
        std::sync::Mutex::new(None);
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    said.get_or_insert_with(Default::default)
        .insert(message.to_owned())
}
