//! The crate's JSON reader against serde_json, an independent reader of the
//! same RFC (8259): on every text both accept or both refuse, and what they
//! accept reads as the same value.
//!
//! The texts: hand-picked number and string edge cases, documents generated
//! at random, the JSON files in the repository's fixtures (a real run's
//! files, Criterion.rs's, the imported tools') and the crate's schemas, and
//! random mutations of all of these. CI reads a few thousand;
//! `YARDSTICK_JSON_DOCUMENTS=100000 cargo test -p yardstick-format --test
//! json_differential -- --ignored` reads as many as asked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use yardstick_format::json::{parse, Json, Number};

/// Texts where readers differ most: numbers at and past f64's range,
/// escapes that are almost `\uXXXX`, surrogates, control characters.
const EDGE_CASES: &[&str] = &[
    "0",
    "-0",
    "-0.0",
    "0e0",
    "1E+2",
    "1e-2",
    "01",
    "1.",
    ".1",
    "-",
    "--1",
    "+1",
    "1e",
    "1e+",
    "0x10",
    "Infinity",
    "NaN",
    "1e400",
    "-1e400",
    "1e-400",
    "0e400",
    "1e99999999999999999999",
    "1.7976931348623157e308",
    "1.7976931348623158e308",
    "1.7976931348623159e308",
    "-1.7976931348623159e308",
    "2.2250738585072011e-308",
    "4.9e-324",
    "2.4e-324",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
    r#""\u0041""#,
    r#""\u+041""#,
    r#""\u-041""#,
    r#""\u 041""#,
    r#""\u004""#,
    r#""\u0G41""#,
    r#""\u00e9\u00E9""#,
    r#""\uD800""#,
    r#""\uDC00""#,
    r#""\uD83D\uDE00""#,
    r#""\uD83D\u0041""#,
    r#""\uD83D""#,
    r#""\uD83Dx""#,
    r#""\/""#,
    r#""\a""#,
    r#""\x41""#,
    "\"tab\there\"",
    "\"del\u{7f}\"",
    "\"nul\\u0000\"",
    r#"{"a":1,"a":2}"#,
    r#"{"a" 1}"#,
    r#"[1,]"#,
    r#"[,1]"#,
    r#"{"a":1,}"#,
    "[1] x",
    " \t\r\n[ ] \n",
    "\u{feff}[]",
    "",
    "nul",
    "true false",
];

/// splitmix64: deterministic, no dependency, good enough to pick bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "7",
    "0.5",
    "-2.25",
    "1e3",
    "1E-3",
    "6.02e+23",
    "1e308",
    "1e309",
    "-1e309",
    "1e-330",
    "5e-324",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "3.14159",
    "1.7976931348623157e308",
    "1.7976931348623159e308",
    "0.1e1",
    "100e-2",
];

const STRING_PIECES: &[&str] = &[
    "a",
    "key",
    " ",
    "é",
    "✓",
    "😀",
    "\\n",
    "\\\"",
    "\\\\",
    "\\/",
    "\\b",
    "\\f",
    "\\r",
    "\\t",
    "\\u0041",
    "\\u00e9",
    "\\u00E9",
    "\\u2713",
    "\\uD83D\\uDE00",
    "\\ud83d\\ude00",
    "\\u0000",
    "\\u001f",
    "\u{7f}",
    "x",
];

const SPACE: &[&str] = &["", "", "", " ", "\n", "\t", "\r\n", "  "];

fn string(rng: &mut Rng, out: &mut String) {
    out.push('"');
    for _ in 0..rng.below(6) {
        out.push_str(rng.pick(STRING_PIECES));
    }
    out.push('"');
}

/// A random document of at most `depth` levels, with random whitespace.
fn document(rng: &mut Rng, depth: usize, out: &mut String) {
    out.push_str(rng.pick(SPACE));
    let kinds = if depth == 0 { 5 } else { 7 };
    match rng.below(kinds) {
        0 => out.push_str(rng.pick(&["null", "true", "false"])),
        1 | 2 => out.push_str(rng.pick(NUMBERS)),
        3 | 4 => string(rng, out),
        5 => {
            out.push('[');
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(',');
                }
                document(rng, depth - 1, out);
            }
            out.push_str(rng.pick(SPACE));
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(rng.pick(SPACE));
                string(rng, out);
                out.push_str(rng.pick(SPACE));
                out.push(':');
                document(rng, depth - 1, out);
            }
            out.push_str(rng.pick(SPACE));
            out.push('}');
        }
    }
    out.push_str(rng.pick(SPACE));
}

/// What a mutation inserts: JSON's own punctuation, digits, signs, escapes,
/// control characters and other characters.
const INSERTS: &[&str] = &[
    "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "u", "+", "-", ".", "e", "E", "0", "9",
    "1e400", "00", " ", "\n", "\t", "\u{0}", "\u{1}", "\u{1f}", "\u{7f}", "é", "😀", "n", "t", "f",
    "null", "x", "\u{feff}", "\\uD800", "\\uDC00",
];

/// `text` changed in one to three places (characters deleted, inserted,
/// replaced or a run duplicated); always whole characters.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..=rng.below(3) {
        let at = rng.below(chars.len() + 1);
        match rng.below(4) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => {
                let with: Vec<char> = rng.pick(INSERTS).chars().collect();
                chars.splice(at..=at, with);
            }
            2 if at < chars.len() => {
                let end = (at + 1 + rng.below(8)).min(chars.len());
                let run: Vec<char> = chars[at..end].to_vec();
                chars.splice(at..at, run);
            }
            _ => {
                let with: Vec<char> = rng.pick(INSERTS).chars().collect();
                chars.splice(at..at, with);
            }
        }
    }
    chars.into_iter().collect()
}

/// Whether two floats are the same number (NaN never occurs: neither
/// reader makes one).
fn same_float(a: f64, b: f64) -> bool {
    a == b
}

fn same_number(ours: Number, theirs: &serde_json::Number) -> bool {
    match (ours, theirs.as_u64(), theirs.as_i64()) {
        (Number::Unsigned(a), Some(b), _) => a == b,
        (Number::Signed(a), _, Some(b)) => a == b,
        // `-0` is an integer to one, the float -0.0 to the other: the same
        // number.
        _ => theirs
            .as_f64()
            .is_some_and(|b| same_float(ours.as_f64(), b)),
    }
}

/// Whether the two readers read the same value. Objects are compared as
/// maps where a repeated key keeps its last value, as serde_json's do.
fn same(ours: &Json, theirs: &Value) -> bool {
    match (ours, theirs) {
        (Json::Null, Value::Null) => true,
        (Json::Bool(a), Value::Bool(b)) => a == b,
        (Json::Number(a), Value::Number(b)) => same_number(*a, b),
        (Json::String(a), Value::String(b)) => a == b,
        (Json::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Json::Object(a), Value::Object(b)) => {
            let last: BTreeMap<&str, &Json> = a.iter().map(|(k, v)| (k.as_str(), v)).collect();
            last.len() == b.len()
                && last
                    .iter()
                    .all(|(k, v)| b.get(*k).is_some_and(|w| same(v, w)))
        }
        _ => false,
    }
}

/// `Ok(accepted)` when the readers agree on `text`, else what each made of
/// it.
fn agreement(text: &str) -> Result<bool, String> {
    let ours = parse(text);
    let theirs = serde_json::from_str::<Value>(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) if same(a, b) => Ok(true),
        (Err(_), Err(_)) => Ok(false),
        _ => {
            let cut = |s: String| s.chars().take(300).collect::<String>();
            Err(format!(
                "{}\n  ours:       {}\n  serde_json: {}",
                cut(format!("{text:?}")),
                cut(format!("{ours:?}")),
                cut(format!("{theirs:?}"))
            ))
        }
    }
}

fn disagreement(text: &str) -> Option<String> {
    agreement(text).err()
}

fn json_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            json_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "json") {
            found.push(path);
        }
    }
}

/// Every JSON file of the fixtures and schemas, as text.
fn corpus() -> Vec<String> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    json_files(&crates.join("cargo-yardstick/tests/fixtures"), &mut files);
    json_files(&crates.join("yardstick-format/schemas"), &mut files);
    files.sort();
    assert!(files.len() > 30, "the fixtures: {files:?}");
    files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .collect()
}

/// Reads `count` texts: the edge cases, the corpus, then generated and
/// mutated documents in turn. Returns how many were read, how many of them
/// both accepted, and the disagreements.
fn differential(count: usize, seed: u64) -> (usize, usize, Vec<String>) {
    let mut rng = Rng(seed);
    let mut seeds: Vec<String> = EDGE_CASES.iter().map(|s| (*s).to_owned()).collect();
    seeds.extend(corpus());
    let (mut read, mut accepted) = (0, 0);
    let mut wrong = Vec::new();
    let mut check = |text: &str, read: &mut usize| {
        *read += 1;
        match agreement(text) {
            Ok(both) => accepted += usize::from(both),
            Err(d) => wrong.push(d),
        }
    };
    for text in &seeds {
        check(text, &mut read);
    }
    while read < count {
        let text = match rng.below(3) {
            0 => {
                let mut doc = String::new();
                document(&mut rng, 4, &mut doc);
                doc
            }
            1 => {
                let mut doc = String::new();
                document(&mut rng, 4, &mut doc);
                mutate(&mut rng, &doc)
            }
            _ => {
                let seed = &seeds[rng.below(seeds.len())];
                mutate(&mut rng, seed)
            }
        };
        check(&text, &mut read);
    }
    (read, accepted, wrong)
}

fn assert_agree(count: usize) {
    let (read, accepted, wrong) = differential(count, 0x5eed_2024);
    assert!(
        wrong.is_empty(),
        "{} of {read} texts read differently, the first ones:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!(
        "{read} texts ({accepted} valid JSON, {} refused): the reader and serde_json agree on every one",
        read - accepted
    );
    // Both kinds are well represented.
    assert!(
        accepted > read / 5 && accepted < read * 4 / 5,
        "{accepted} of {read}"
    );
}

#[test]
fn the_reader_agrees_with_serde_json_on_edge_cases_and_mutated_documents() {
    assert_agree(5_000);
}

/// Nesting: serde_json refuses the 128th level; so does the reader.
#[test]
fn the_reader_refuses_the_nesting_serde_json_refuses() {
    for depth in [126, 127, 128, 129, 200] {
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(disagreement(&text), None, "depth {depth}");
        let text = format!(
            "{}1{}",
            "{\"a\":[".repeat(depth / 2),
            "]}".repeat(depth / 2)
        );
        assert_eq!(disagreement(&text), None, "depth {depth}");
    }
}

/// The full count, by hand: `YARDSTICK_JSON_DOCUMENTS` texts (100,000 by
/// default).
#[test]
#[ignore = "the full count, run by hand (about a second)"]
fn the_reader_agrees_with_serde_json_on_many_documents() {
    let count = std::env::var("YARDSTICK_JSON_DOCUMENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    assert_agree(count);
}
