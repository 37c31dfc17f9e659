//! A reader of callgrind's output format (`callgrind.out` files).
//!
//! It reads what yardstick needs: the event names, the total cost
//! (`summary:` or `totals:`, else the sum of all cost lines), and per function
//! its self cost and the inclusive cost of each call it makes, which the
//! flamegraphs are drawn from. Both compressed (`fn=(1) name`, `fn=(1)`) and
//! uncompressed names and positions (`+3`, `-2`, `*`) are understood; a
//! malformed line is an error naming the file and line, never a panic.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// What was read from one callgrind output file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CallgrindProfile {
    /// The event names of the `events:` line, in order.
    pub events: Vec<String>,
    /// The total cost per event, in the order of `events`.
    pub totals: Vec<u64>,
    /// Per function name: its self cost and its calls.
    pub functions: BTreeMap<String, FunctionCosts>,
}

/// The costs of one function.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FunctionCosts {
    /// Cost of the function's own instructions, per event.
    pub self_cost: Vec<u64>,
    /// Inclusive cost of the calls it makes, per callee and event.
    pub calls: BTreeMap<String, Vec<u64>>,
}

impl FunctionCosts {
    /// Self cost plus the inclusive cost of all calls, for event `index`.
    pub fn inclusive(&self, index: usize) -> u64 {
        at(&self.self_cost, index) + self.calls.values().map(|c| at(c, index)).sum::<u64>()
    }
}

/// The value of event `index` in a cost vector (callgrind leaves trailing
/// zeros out).
pub fn at(costs: &[u64], index: usize) -> u64 {
    costs.get(index).copied().unwrap_or(0)
}

/// An error reading a callgrind output file.
#[derive(Debug)]
pub struct ParseError {
    /// The file.
    pub path: PathBuf,
    /// The line number (1-based), 0 for the whole file.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.message)
        } else {
            write!(f, "{}:{}: {}", self.path.display(), self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

/// Reads and parses the callgrind output file at `path`.
///
/// # Errors
///
/// When the file cannot be read or is not in callgrind's format.
pub fn parse_file(path: &Path) -> Result<CallgrindProfile, ParseError> {
    let text = std::fs::read_to_string(path).map_err(|e| ParseError {
        path: path.to_owned(),
        line: 0,
        message: format!("cannot read the callgrind output: {e}"),
    })?;
    parse_str(&text).map_err(|(line, message)| ParseError {
        path: path.to_owned(),
        line,
        message,
    })
}

/// Parses callgrind output held in a string. Errors are `(line, message)`.
///
/// # Errors
///
/// When the text is not in callgrind's format.
pub fn parse_str(text: &str) -> Result<CallgrindProfile, (usize, String)> {
    let mut profile = CallgrindProfile::default();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut current_fn: Option<String> = None;
    let mut pending_call: Option<String> = None;
    let mut next_cost_is_call = false;
    let mut positions = 1usize;
    let mut summed: Vec<u64> = Vec::new();
    let mut explicit_totals: Option<Vec<u64>> = None;
    let mut saw_header = false;

    for (number, raw) in text.lines().enumerate() {
        let line_no = number + 1;
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let first = line.as_bytes()[0];
        if first.is_ascii_digit() || first == b'+' || first == b'-' || first == b'*' {
            if profile.events.is_empty() {
                return Err((line_no, "cost line before the 'events:' line".to_owned()));
            }
            let costs = parse_costs(line, positions).map_err(|m| (line_no, m))?;
            if next_cost_is_call {
                next_cost_is_call = false;
                let callee = pending_call.take().unwrap_or_default();
                let caller = current_fn.clone().unwrap_or_default();
                let entry = profile.functions.entry(caller).or_default();
                add_into(entry.calls.entry(callee).or_default(), &costs);
            } else {
                add_into(&mut summed, &costs);
                let caller = current_fn.clone().unwrap_or_default();
                add_into(
                    &mut profile.functions.entry(caller).or_default().self_cost,
                    &costs,
                );
            }
            continue;
        }
        let Some((key, value)) = line.split_once(['=', ':']) else {
            return Err((line_no, format!("unexpected line '{line}'")));
        };
        let value = value.trim();
        match key {
            "version" | "creator" | "pid" | "cmd" | "part" | "desc" | "thread" => {
                saw_header = true;
            }
            "positions" => {
                positions = value.split_whitespace().count().max(1);
            }
            "events" => {
                saw_header = true;
                profile.events = value.split_whitespace().map(str::to_owned).collect();
            }
            "summary" | "totals" => {
                let costs = value
                    .split_whitespace()
                    .map(|v| v.parse::<u64>())
                    .collect::<Result<Vec<u64>, _>>()
                    .map_err(|_| (line_no, format!("bad {key} line '{line}'")))?;
                explicit_totals = Some(costs);
            }
            "fn" => {
                current_fn = Some(resolve_name(&mut names, value));
            }
            "cfn" => {
                pending_call = Some(resolve_name(&mut names, value));
            }
            "cfi" | "cfl" | "cob" => {}
            "calls" => {
                next_cost_is_call = true;
            }
            "ob" | "fl" | "fi" | "fe" | "event" | "jump" | "jcnd" | "jfi" | "jfl" => {}
            _ => {
                // Unknown header lines are allowed by the format spec.
            }
        }
    }
    if !saw_header || profile.events.is_empty() {
        return Err((
            0,
            "not a callgrind output file (no 'events:' line)".to_owned(),
        ));
    }
    let mut totals = explicit_totals.unwrap_or(summed);
    totals.resize(profile.events.len(), 0);
    profile.totals = totals;
    Ok(profile)
}

impl CallgrindProfile {
    /// The `(event name, total)` pairs.
    pub fn total_pairs(&self) -> impl Iterator<Item = (&str, u64)> {
        self.events
            .iter()
            .zip(self.totals.iter().copied())
            .map(|(e, t)| (e.as_str(), t))
    }

    /// The index of event `name`.
    pub fn event_index(&self, name: &str) -> Option<usize> {
        self.events.iter().position(|e| e == name)
    }
}

/// Resolves callgrind's name compression: `(1) name` defines id 1, `(1)`
/// refers to it.
fn resolve_name(names: &mut BTreeMap<String, String>, value: &str) -> String {
    if let Some(rest) = value.strip_prefix('(') {
        if let Some((id, name)) = rest.split_once(')') {
            let name = name.trim();
            if name.is_empty() {
                return names.get(id).cloned().unwrap_or_else(|| format!("({id})"));
            }
            names.insert(id.to_owned(), name.to_owned());
            return name.to_owned();
        }
    }
    value.to_owned()
}

fn parse_costs(line: &str, positions: usize) -> Result<Vec<u64>, String> {
    let mut parts = line.split_whitespace();
    for _ in 0..positions {
        parts.next();
    }
    parts
        .map(|p| {
            p.parse::<u64>()
                .map_err(|_| format!("bad cost '{p}' in line '{line}'"))
        })
        .collect()
}

fn add_into(into: &mut Vec<u64>, costs: &[u64]) {
    if into.len() < costs.len() {
        into.resize(costs.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(costs) {
        *a += b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 1
cmd:  ./bench
part: 1

positions: line
events: Ir Dr Dw

fl=(1) src/lib.rs
fn=(1) yardstick_callgrind::__private::measure
10 5 2 1
cfl=(1)
cfn=(2) fib
calls=1 3
+2 100 40 10
fn=(2)
3 100 40 10

totals: 105 42 11
";

    #[test]
    fn reads_events_totals_and_the_call_graph() {
        let p = parse_str(SAMPLE).unwrap();
        assert_eq!(p.events, vec!["Ir", "Dr", "Dw"]);
        assert_eq!(p.totals, vec![105, 42, 11]);
        let m = &p.functions["yardstick_callgrind::__private::measure"];
        assert_eq!(m.self_cost, vec![5, 2, 1]);
        assert_eq!(m.calls["fib"], vec![100, 40, 10]);
        assert_eq!(m.inclusive(0), 105);
        assert_eq!(p.functions["fib"].self_cost, vec![100, 40, 10]);
    }

    #[test]
    fn without_totals_the_cost_lines_are_summed() {
        let text = SAMPLE.replace("totals: 105 42 11\n", "");
        assert_eq!(parse_str(&text).unwrap().totals, vec![105, 42, 11]);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(parse_str("").is_err());
        assert!(parse_str("hello world").is_err());
        assert!(parse_str("events: Ir\n1 x\n").is_err());
        assert!(parse_str("1 2 3\n").is_err());
        // Truncated in the middle of a file.
        let cut = &SAMPLE[..SAMPLE.len() / 2];
        let _ = parse_str(cut);
    }
}
