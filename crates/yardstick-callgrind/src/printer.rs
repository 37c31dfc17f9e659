//! Terminal output of one benchmark, printed at once or held until the
//! benchmarks measured before it have printed (when they run in parallel).

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
            println!("{line}");
        } else {
            self.lines.push((false, line));
        }
    }

    /// A line for stderr.
    pub fn err(&mut self, line: String) {
        if self.live {
            eprintln!("{line}");
        } else {
            self.lines.push((true, line));
        }
    }

    /// Prints what was held.
    pub fn print(self) {
        for (to_stderr, line) in self.lines {
            if to_stderr {
                eprintln!("{line}");
            } else {
                println!("{line}");
            }
        }
    }
}
