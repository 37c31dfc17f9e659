//! Colours, when the user wants them.

use std::io::IsTerminal;

use crate::cli::Color;

/// ANSI styling that turns itself off when colours are not wanted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    pub enabled: bool,
}

impl Style {
    /// Decides from `--color`, then `NO_COLOR`, then `CARGO_TERM_COLOR`,
    /// then whether stdout is a terminal.
    pub(crate) fn detect(choice: Color) -> Style {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let enabled = match choice {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                if env("NO_COLOR").is_some() {
                    false
                } else {
                    match env("CARGO_TERM_COLOR").as_deref() {
                        Some("always") => true,
                        Some("never") => false,
                        _ => std::io::stdout().is_terminal(),
                    }
                }
            }
        };
        Style { enabled }
    }

    fn paint(&self, code: &str, s: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }

    pub(crate) fn green(&self, s: &str) -> String {
        self.paint("32", s)
    }
    pub(crate) fn red(&self, s: &str) -> String {
        self.paint("31", s)
    }
    pub(crate) fn yellow(&self, s: &str) -> String {
        self.paint("33", s)
    }
    pub(crate) fn bold(&self, s: &str) -> String {
        self.paint("1", s)
    }
    pub(crate) fn faint(&self, s: &str) -> String {
        self.paint("2", s)
    }
}
