//! What `--explain` found for a benchmark, as its page shows it: the
//! benchmark's `explain/explain.json` and the call stacks of both sides'
//! Callgrind profiles kept beside it (`callgrind.baseline.out`,
//! `callgrind.current.out`), for the differential flame graph.

use std::path::Path;
use std::time::SystemTime;

use yardstick_format::callgrind::parse_file;
use yardstick_format::explain::ExplainFile;
use yardstick_format::folded::counted_stacks;

/// One benchmark's explanation with the folded stacks of both sides
/// (instructions over [`ExplainFile::iterations`] iterations).
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// `explain.json`.
    pub file: ExplainFile,
    /// The baseline binary's stacks (`a;b;c count`); empty when its
    /// profile is gone or unreadable (the page then shows the table only).
    pub baseline: Vec<String>,
    /// This binary's stacks.
    pub current: Vec<String>,
}

/// The explanation saved in `<home>/<directory_name>/explain/`, when it
/// explains the last run: written at or after that run's `new/` results
/// (the explanation of an earlier run says nothing of this one). `None`
/// when there is none, or it cannot be read: a page without it is the
/// page as it was.
#[must_use]
pub fn load_explanation(home: &Path, directory_name: &str) -> Option<Explanation> {
    let dir = crate::write::inside(home, directory_name).ok()?;
    let explain = dir.join("explain");
    let file = explain.join("explain.json");
    let modified = |p: &Path| -> Option<SystemTime> { std::fs::metadata(p).ok()?.modified().ok() };
    let measured = modified(&dir.join("new").join("estimates.json"))?;
    if modified(&file)? < measured {
        return None;
    }
    let text = std::fs::read_to_string(&file).ok()?;
    let file: ExplainFile = yardstick_format::json::from_str(&text).ok()?;
    let stacks = |side: &str| -> Vec<String> {
        let Ok(p) = parse_file(&explain.join(format!("callgrind.{side}.out"))) else {
            return Vec::new();
        };
        p.event_index("Ir")
            .map(|ir| counted_stacks(&p, ir))
            .unwrap_or_default()
    };
    Some(Explanation {
        baseline: stacks("baseline"),
        current: stacks("current"),
        file,
    })
}
