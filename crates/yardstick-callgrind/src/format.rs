//! Terminal lines besides the metric lines (those are in `compare`).

use crate::cli::NoCapture;

/// `  Baselines:          new|old`, as iai-callgrind prints it.
pub fn baselines_line(new: Option<&str>, old: Option<&str>) -> String {
    match (new, old) {
        (None, Some(old)) => format!("  {:<33}|{old}", "Baselines:"),
        (Some(new), None) => format!("  {:<18}{new:>15}", "Baselines:"),
        (Some(new), Some(old)) => format!("  {:<18}{new:>15}|{old}", "Baselines:"),
        (None, None) => String::new(),
    }
}

/// `  ======= DHAT =====…`: the headline above another tool's summary.
pub fn tool_headline(tool: &str) -> String {
    format!(
        "  ======= {} {}",
        tool.to_ascii_uppercase(),
        "=".repeat(64usize.saturating_sub(tool.len()))
    )
}

/// The line after the benchmark's own output with `--nocapture`.
pub fn nocapture_footer(nocapture: NoCapture) -> &'static str {
    match nocapture {
        NoCapture::True => "- end of stdout/stderr",
        NoCapture::Stdout => "- end of stdout",
        NoCapture::Stderr => "- end of stderr",
        NoCapture::False => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baselines() {
        assert_eq!(
            baselines_line(Some("main"), Some("main")),
            "  Baselines:                   main|main"
        );
        assert_eq!(
            baselines_line(None, Some("main")),
            "  Baselines:                       |main"
        );
    }

    #[test]
    fn headline() {
        assert!(tool_headline("dhat").starts_with("  ======= DHAT ===="));
        assert_eq!(tool_headline("dhat").len(), 2 + 8 + 4 + 1 + 60);
    }
}
