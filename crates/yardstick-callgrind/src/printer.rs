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

    /// The held lines, stdout's and stderr's in order (for tests).
    #[cfg(test)]
    pub fn held(&self) -> Vec<String> {
        self.lines.iter().map(|(_, l)| l.clone()).collect()
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

/// Whether stdout lines are coloured; decided once from the options.
static COLOR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Decides colouring: `always`, `never`, or `auto` (stdout is a terminal).
pub fn set_color(choice: crate::cli::Color) {
    use std::io::IsTerminal as _;
    let on = match choice {
        crate::cli::Color::Always => true,
        crate::cli::Color::Never => false,
        crate::cli::Color::Auto => std::io::stdout().is_terminal(),
    };
    COLOR.store(on, std::sync::atomic::Ordering::Relaxed);
}

fn color_on() -> bool {
    COLOR.load(std::sync::atomic::Ordering::Relaxed)
}

const RESET: &str = "\x1b[0m";

/// A benchmark's header in iai-callgrind's colours (path green, id cyan,
/// arguments bold blue), when colour is on.
pub fn header(line: &str) -> String {
    if !color_on() {
        return line.to_owned();
    }
    paint_header(line)
}

fn paint_header(line: &str) -> String {
    let Some((path, rest)) = line.split_once(' ') else {
        return format!("\x1b[32m{line}{RESET}");
    };
    match rest.split_once(':') {
        Some((id, args)) => {
            format!("\x1b[32m{path}{RESET} \x1b[36m{id}{RESET}:\x1b[1;34m{args}{RESET}")
        }
        None => format!("\x1b[32m{path}{RESET} \x1b[36m{rest}{RESET}"),
    }
}

/// A metric line with the new count bold and the change red (grew) or
/// green (shrank), when colour is on.
pub fn metric(line: String) -> String {
    if !color_on() {
        return line;
    }
    paint_metric(&line)
}

fn paint_metric(line: &str) -> String {
    let Some((label, rest)) = line.split_once(':') else {
        return line.to_owned();
    };
    let Some((new, rest)) = rest.split_once('|') else {
        return line.to_owned();
    };
    let colour = if rest.contains("(+") {
        "\x1b[1;91m"
    } else if rest.contains("(-") {
        "\x1b[1;92m"
    } else {
        ""
    };
    let rest = match (colour, rest.find('(')) {
        ("", _) | (_, None) => rest.to_owned(),
        (c, Some(i)) => format!("{}{c}{}{RESET}", &rest[..i], &rest[i..]),
    };
    format!("{label}:\x1b[1m{new}{RESET}|{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn painted_lines_keep_their_text() {
        let strip = |s: &str| {
            let mut out = String::new();
            let mut skip = false;
            for c in s.chars() {
                match (skip, c) {
                    (_, '\x1b') => skip = true,
                    (true, 'm') => skip = false,
                    (true, _) => {}
                    (false, c) => out.push(c),
                }
            }
            out
        };
        let h = "bench::group::fib short:10";
        assert_eq!(strip(&paint_header(h)), h);
        assert!(paint_header(h).starts_with("\x1b[32mbench::group::fib\x1b[0m \x1b[36mshort"));
        let m = "  Instructions:                2804|1733            (+61.8003%) [+1.61800x]";
        assert_eq!(strip(&paint_metric(m)), m);
        assert!(paint_metric(m).contains("\x1b[1;91m(+61.8003%)"));
        let m = "  Instructions:                1733|2804            (-38.1966%) [-1.61803x]";
        assert!(paint_metric(m).contains("\x1b[1;92m(-38.1966%)"));
        let m = "  Instructions:                1733|N/A             (*********)";
        assert_eq!(
            paint_metric(m),
            "  Instructions:\x1b[1m                1733\x1b[0m|N/A             (*********)"
        );
    }
}
