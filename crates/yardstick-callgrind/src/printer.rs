//! Terminal output of one benchmark, printed at once or held until the
//! benchmarks measured before it have printed (when they run in parallel).

/// `println!` that cannot panic: once stdout is closed (`| head`) the rest
/// of the output is dropped and the run goes on to save its results.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

/// `eprintln!` that cannot panic (see `outln!`).
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($t)*);
    }};
}

pub(crate) use {errln, outln};

/// Lines for stdout and stderr, in order.
#[derive(Debug, Default)]
pub struct Printer {
    live: bool,
    lines: Vec<(bool, String)>,
}

impl Printer {
    /// Prints each line as it comes when `live`, else holds them.
    pub fn new(live: bool) -> Printer {
        Printer {
            live,
            lines: Vec::new(),
        }
    }

    /// A line for stdout.
    pub fn out(&mut self, line: String) {
        if self.live {
            crate::printer::outln!("{line}");
        } else {
            self.lines.push((false, line));
        }
    }

    /// A line for stderr.
    pub fn err(&mut self, line: String) {
        if self.live {
            crate::printer::errln!("{line}");
        } else {
            self.lines.push((true, line));
        }
    }

    /// Prints what was held.
    pub fn print(self) {
        for (to_stderr, line) in self.lines {
            if to_stderr {
                crate::printer::errln!("{line}");
            } else {
                crate::printer::outln!("{line}");
            }
        }
    }
}
