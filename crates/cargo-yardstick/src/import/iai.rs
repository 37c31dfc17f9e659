//! iai-callgrind / gungraun `summary.json` files (and yardstick-callgrind's,
//! which follow the same idea): one benchmark per file, its instruction
//! count (`Ir`) somewhere under the callgrind part. The layouts differ
//! between versions (`{"Ir": {"new": N}}`, `{"Ir": {"metrics": {"Left":
//! {"Int": N}}}}`, `{"Ir": {"new": N, "old": …}}`), so the count is found by
//! walking the document: the first `Ir` under a `total` part, else the
//! first anywhere. The unit is `instructions`, an exact count.

use std::path::Path;

use serde_json::Value;

use super::json::parse as parse_json;
use crate::record::{BenchResult, Interval};

/// Parses one summary (a file may also hold one summary per line, as
/// `--output-format=json` prints them).
pub fn parse(text: &str) -> Result<Vec<BenchResult>, String> {
    let docs: Vec<Value> = match parse_json(text) {
        Ok(v) => vec![v],
        Err(e) => {
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            if lines.len() < 2 {
                return Err(e);
            }
            lines
                .iter()
                .enumerate()
                .map(|(i, l)| parse_json(l).map_err(|e| format!("line {}: {e}", i + 1)))
                .collect::<Result<_, _>>()?
        }
    };
    docs.iter().map(one).collect()
}

fn one(doc: &Value) -> Result<BenchResult, String> {
    if !doc.is_object() {
        return Err("expected a JSON object (a summary.json)".into());
    }
    let name = name_of(doc)?;
    let count = doc
        .get("total")
        .or_else(|| find_key(doc, "total"))
        .and_then(find_ir)
        .or_else(|| find_ir(doc))
        .ok_or_else(|| format!("no instruction count (\"Ir\") for '{name}'"))?;
    Ok(BenchResult::summary(
        name,
        "instructions".into(),
        Interval::exact(count),
    ))
}

fn text<'a>(doc: &'a Value, key: &str) -> Option<&'a str> {
    doc.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

fn name_of(doc: &Value) -> Result<String, String> {
    let id = text(doc, "id");
    let base = if let Some(m) = text(doc, "module_path") {
        m.to_owned()
    } else {
        let parts: Vec<&str> = ["bench_file", "group", "function"]
            .iter()
            .filter_map(|k| text(doc, k))
            .collect();
        if parts.is_empty() {
            return Err("expected \"module_path\" (iai-callgrind) or \"function\" (yardstick-callgrind) naming the benchmark".into());
        }
        parts.join("::")
    };
    Ok(match id {
        Some(id) => format!("{base}/{id}"),
        None => base,
    })
}

fn find_key<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    match v {
        Value::Object(m) => m
            .get(key)
            .or_else(|| m.values().find_map(|c| find_key(c, key))),
        Value::Array(a) => a.iter().find_map(|c| find_key(c, key)),
        _ => None,
    }
}

fn find_ir(v: &Value) -> Option<f64> {
    match v {
        Value::Object(m) => m
            .get("Ir")
            .and_then(count)
            .or_else(|| m.values().find_map(find_ir)),
        Value::Array(a) => a.iter().find_map(find_ir),
        _ => None,
    }
}

/// The new count inside one `Ir` entry, whatever its layout.
fn count(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64().filter(|x| x.is_finite() && *x >= 0.0),
        Value::Object(m) => ["new", "metrics", "Left", "Both", "Int", "Float"]
            .iter()
            .find_map(|k| m.get(*k).and_then(count)),
        Value::Array(a) => a.first().and_then(count),
        _ => None,
    }
}

/// Reads every `summary.json` under `dir`.
///
/// # Errors
///
/// One line naming the file that is not a summary, or the folder when it
/// holds none.
pub fn read_dir(dir: &Path) -> Result<Vec<BenchResult>, String> {
    let mut files = Vec::new();
    collect(dir, &mut files, 0);
    files.sort();
    let mut out = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| format!("{}: cannot read it: {e}", f.display()))?;
        out.extend(
            parse(&text)
                .map_err(|e| format!("{}: not a valid iai-callgrind summary: {e}", f.display()))?,
        );
    }
    if out.is_empty() {
        return Err(format!(
            "{}: no summary.json under it; run the iai-callgrind benches with --save-summary first",
            dir.display()
        ));
    }
    Ok(out)
}

fn collect(dir: &Path, files: &mut Vec<std::path::PathBuf>, depth: usize) {
    if depth > 8 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, files, depth + 1);
        } else if p.file_name().is_some_and(|n| n == "summary.json") {
            files.push(p);
        }
    }
}
