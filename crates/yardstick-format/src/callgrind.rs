//! A reader of callgrind's output format (`callgrind.out` files).
//!
//! It reads what yardstick needs: the event names, the total cost
//! (`summary:` or `totals:`, else the sum of all cost lines), and per function
//! its self cost, the inclusive cost of each call it makes (which
//! `yardstick-callgrind`'s flamegraphs are drawn from) and where it is
//! (its file and first line, which the harness's `--explain` prints).
//! It is here, with no dependency, because both `yardstick-callgrind` and
//! the harness read these files. Both compressed (`fn=(1) name`, `fn=(1)`) and
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
    /// The source file its code is in, when debug info says: of the files
    /// its costs are on (its own and those of code inlined into it), the
    /// one with the most cost outside the Rust toolchain's and the
    /// registry's sources (`/rustc/…`, `.cargo/registry`), else the one
    /// with the most cost.
    pub file: Option<String>,
    /// The lowest line of that file its costs are on: where the function
    /// starts, near enough.
    pub line: Option<u64>,
    /// The addresses of the instructions it executed, in the order first
    /// met, when the profile has them (`positions: instr`, Callgrind's
    /// `--dump-instr=yes`); calls count as the instruction that made them.
    pub instructions: Vec<u64>,
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
    let mut r = Reader::default();
    for (number, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        r.line(line).map_err(|m| (number + 1, m))?;
    }
    r.finish()
}

/// The reader's state between lines.
#[derive(Default)]
struct Reader {
    profile: CallgrindProfile,
    /// Name compression: functions (`fn`, `cfn`) and files (`fl`, `fi`,
    /// `fe`, `cfi`, `cfl`) each have their own ids.
    names: BTreeMap<String, String>,
    files: BTreeMap<String, String>,
    current_fn: Option<String>,
    /// The file the cost lines are in now (`fl=`, `fi=`, `fe=`).
    current_file: Option<String>,
    /// Per function and file: the lowest line and the cost (first event).
    places: BTreeMap<String, BTreeMap<String, (u64, u64)>>,
    pending_call: Option<String>,
    next_cost_is_call: bool,
    /// The position columns (`positions:`), the index of `line` among
    /// them, and the last value of each (for `+3`, `-2`, `*`).
    positions: usize,
    line_column: Option<usize>,
    instr_column: Option<usize>,
    last: Vec<u64>,
    summed: Vec<u64>,
    explicit_totals: Option<Vec<u64>>,
    saw_header: bool,
}

impl Reader {
    fn line(&mut self, line: &str) -> Result<(), String> {
        let first = line.as_bytes()[0];
        if first.is_ascii_digit() || first == b'+' || first == b'-' || first == b'*' {
            return self.cost_line(line);
        }
        let Some((key, value)) = line.split_once(['=', ':']) else {
            return Err(format!("unexpected line '{line}'"));
        };
        let value = value.trim();
        match key {
            "version" | "creator" | "pid" | "cmd" | "part" | "desc" | "thread" => {
                self.saw_header = true;
            }
            "positions" => {
                let columns: Vec<&str> = value.split_whitespace().collect();
                self.positions = columns.len().max(1);
                self.line_column = columns.iter().position(|c| *c == "line");
                self.instr_column = columns.iter().position(|c| *c == "instr");
            }
            "events" => {
                self.saw_header = true;
                self.profile.events = value.split_whitespace().map(str::to_owned).collect();
            }
            "summary" | "totals" => {
                let costs = value
                    .split_whitespace()
                    .map(|v| v.parse::<u64>())
                    .collect::<Result<Vec<u64>, _>>()
                    .map_err(|_| format!("bad {key} line '{line}'"))?;
                self.explicit_totals = Some(costs);
            }
            "fn" => self.current_fn = Some(resolve_name(&mut self.names, value)),
            "cfn" => self.pending_call = Some(resolve_name(&mut self.names, value)),
            "fl" | "fi" | "fe" => self.current_file = Some(resolve_name(&mut self.files, value)),
            "cfi" | "cfl" => {
                // Defines a file id too; the callee's file is its own `fl=`.
                resolve_name(&mut self.files, value);
            }
            "calls" => self.next_cost_is_call = true,
            // Objects, jumps and unknown header lines (allowed by the
            // format) carry nothing read here.
            _ => {}
        }
        Ok(())
    }

    fn cost_line(&mut self, line: &str) -> Result<(), String> {
        if self.profile.events.is_empty() {
            return Err("cost line before the 'events:' line".to_owned());
        }
        let positions = self.positions.max(1);
        let (at, costs) = parse_costs(line, positions, &self.last)?;
        self.last = at;
        let caller = self.current_fn.clone().unwrap_or_default();
        if let Some(&address) = self.instr_column.and_then(|c| self.last.get(c)) {
            let seen = &mut self
                .profile
                .functions
                .entry(caller.clone())
                .or_default()
                .instructions;
            if seen.last() != Some(&address) {
                seen.push(address);
            }
        }
        if self.next_cost_is_call {
            self.next_cost_is_call = false;
            let callee = self.pending_call.take().unwrap_or_default();
            let entry = self.profile.functions.entry(caller).or_default();
            add_into(entry.calls.entry(callee).or_default(), &costs);
            return Ok(());
        }
        add_into(&mut self.summed, &costs);
        let line_no = self
            .line_column
            .or(if self.positions <= 1 { Some(0) } else { None })
            .and_then(|c| self.last.get(c).copied())
            .filter(|&l| l > 0);
        if let (Some(l), Some(file)) = (line_no, &self.current_file) {
            let place = self
                .places
                .entry(caller.clone())
                .or_default()
                .entry(file.clone())
                .or_insert((l, 0));
            place.0 = place.0.min(l);
            place.1 += costs.first().copied().unwrap_or(0);
        }
        let f = self.profile.functions.entry(caller).or_default();
        add_into(&mut f.self_cost, &costs);
        Ok(())
    }

    fn finish(mut self) -> Result<CallgrindProfile, (usize, String)> {
        if !self.saw_header || self.profile.events.is_empty() {
            return Err((
                0,
                "not a callgrind output file (no 'events:' line)".to_owned(),
            ));
        }
        for (name, files) in &self.places {
            if let (Some(f), Some((file, line))) =
                (self.profile.functions.get_mut(name), home(files))
            {
                f.file = Some(file.clone());
                f.line = Some(line);
            }
        }
        let mut totals = self.explicit_totals.unwrap_or(self.summed);
        totals.resize(self.profile.events.len(), 0);
        self.profile.totals = totals;
        Ok(self.profile)
    }
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

/// A function's file and line among the files its costs are on: the most
/// cost outside the toolchain's and the registry's sources, else the most
/// cost (`"???"`, no debug info, is no file).
fn home(files: &BTreeMap<String, (u64, u64)>) -> Option<(&String, u64)> {
    let foreign = |f: &str| f.starts_with("/rustc/") || f.contains("/.cargo/registry/");
    let best = |own: bool| {
        files
            .iter()
            .filter(|(f, _)| f.as_str() != "???" && foreign(f) != own)
            .max_by_key(|(_, (_, cost))| *cost)
            .map(|(f, (line, _))| (f, *line))
    };
    best(true).or_else(|| best(false))
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

/// The positions of a cost line (absolute, or relative to `last`: `+3`,
/// `-2`, `*`) and its costs.
fn parse_costs(line: &str, positions: usize, last: &[u64]) -> Result<(Vec<u64>, Vec<u64>), String> {
    let mut parts = line.split_whitespace();
    let mut at = Vec::with_capacity(positions);
    for k in 0..positions {
        let before = last.get(k).copied().unwrap_or(0);
        let p = parts.next().unwrap_or("*");
        at.push(position(p, before).ok_or_else(|| format!("bad position '{p}' in line '{line}'"))?);
    }
    let costs = parts
        .map(|p| {
            p.parse::<u64>()
                .map_err(|_| format!("bad cost '{p}' in line '{line}'"))
        })
        .collect::<Result<_, _>>()?;
    Ok((at, costs))
}

/// One position: a number (decimal, or hex with `0x`), `+n`/`-n` from the
/// previous one, or `*` for the same.
fn position(p: &str, before: u64) -> Option<u64> {
    let number = |t: &str| match t.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse::<u64>().ok(),
    };
    match p.as_bytes().first()? {
        b'*' => Some(before),
        b'+' => before.checked_add(number(&p[1..])?),
        b'-' => before.checked_sub(number(&p[1..])?),
        _ => number(p),
    }
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

    /// With `--dump-instr=yes`, the addresses each function executed,
    /// relative positions followed, a call at the address that made it.
    #[test]
    fn reads_the_instructions_each_function_executed() {
        let text = "version: 1
creator: callgrind-3.19.0
positions: instr line
events: Ir
fn=(1) main
0x401000 7 3
+3 * 1
cfn=(2) f
calls=1 0x402000 9
* * 10
+2 +1 1
fn=(2)
0x402000 9 5
";
        let p = parse_str(text).unwrap();
        assert_eq!(
            p.functions["main"].instructions,
            [0x40_1000, 0x40_1003, 0x40_1005]
        );
        assert_eq!(p.functions["f"].instructions, [0x40_2000]);
        // Self costs only: 3 + 1 + 1 in main, 5 in f.
        assert_eq!(p.totals, [10]);
        // Without instruction positions, none.
        let lines = parse_str("events: Ir\nfn=(1) main\n12 4\n").unwrap();
        assert!(lines.functions["main"].instructions.is_empty());
    }

    /// Where each function is: of the files its costs are on, the one with
    /// the most cost outside the toolchain's sources, and its lowest line
    /// there, with relative positions followed.
    #[test]
    fn reads_each_functions_file_and_first_line() {
        let text = "version: 1
creator: callgrind-3.19.0
positions: line
events: Ir
fl=(1) benches/b.rs
fn=(1) b::work
12 4
+3 6
fi=(2) /rustc/core/src/iter.rs
200 50
fe=(1)
-186 1
cfl=(1)
cfn=(2) b::helper
calls=2 30
+20 40
fn=(2)
30 40
fl=(3) src/other.rs
fn=(3) other::f
* 2
";
        let p = parse_str(text).unwrap();
        let work = &p.functions["b::work"];
        // Self: 4 + 6 + 50 (inlined code is the caller's own) + 1 = 61.
        assert_eq!(work.self_cost, vec![61]);
        assert_eq!(work.file.as_deref(), Some("benches/b.rs"));
        // benches/b.rs has lines 12, 15 and 14 (cost 11); the inlined
        // toolchain file has more cost (50) but is not the user's code.
        // The lowest line of benches/b.rs is 12.
        assert_eq!(work.line, Some(12));
        assert_eq!(work.inclusive(0), 61 + 40);
        let helper = &p.functions["b::helper"];
        assert_eq!(
            (helper.file.as_deref(), helper.line),
            (Some("benches/b.rs"), Some(30))
        );
        // `*` repeats line 30, in the new file.
        let other = &p.functions["other::f"];
        assert_eq!(
            (other.file.as_deref(), other.line),
            (Some("src/other.rs"), Some(30))
        );
        // 61 + 40 + 2, no totals line.
        assert_eq!(p.totals, vec![103]);
        // Only toolchain code: its file with the most cost.
        let only = text.replace("benches/b.rs", "/rustc/core/src/ops.rs");
        let work = &parse_str(&only).unwrap().functions["b::work"];
        assert_eq!(
            (work.file.as_deref(), work.line),
            (Some("/rustc/core/src/iter.rs"), Some(200))
        );
    }

    #[test]
    fn positions_relative_to_the_last_and_hex_addresses() {
        assert_eq!(position("+3", 10), Some(13));
        assert_eq!(position("-3", 10), Some(7));
        assert_eq!(position("*", 10), Some(10));
        assert_eq!(position("0x1f", 0), Some(31));
        assert_eq!(position("-11", 10), None);
        assert_eq!(position("x", 10), None);
        let text = "positions: instr line\nevents: Ir\nfl=x.rs\nfn=f\n0x10 5 7\n+2 +1 3\n";
        let p = parse_str(&format!("version: 1\n{text}")).unwrap();
        assert_eq!(p.functions["f"].self_cost, vec![10]);
        assert_eq!(p.functions["f"].line, Some(5));
    }
}
