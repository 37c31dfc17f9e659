//! `cargo yardstick merge SHARD_FILE...`: the shards of a suite compared
//! on several CI runners (`ab --partition K/N --format json`, one file
//! each) merged into the summary and exit status one run would have given.
//!
//! The rows arrive before the false-discovery control, and the merge
//! applies it once over the union ([`verdict::control`], as `ab` does), so
//! a change that survives in its shard alone is judged among the whole
//! suite's. Nothing is dropped in silence: a shard that no file names, a
//! shard whose run failed and a file that cannot be read are each named
//! under the table, and the merge then exits with status 1. Shards that
//! disagree on what they are (another N or kind, the same shard twice, a
//! benchmark in two shards, other revisions) are refused (status 2).
//! Shards measured on different machine kinds get a table each.

use std::path::{Path, PathBuf};

use yardstick_format::ab::{AbResult, RESULT_VERSION};
use yardstick_format::history::machine_kind;
use yardstick_format::names::terminal_text;
use yardstick_format::partition::Partition;

use crate::ab::result::{document, from_row, Context};
use crate::ab::verdict::{self, Header, Row};
use crate::args::VerdictFormat;

/// `merge` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct MergeArgs {
    /// The shard files (`cargo yardstick ab --partition K/N --format json`),
    /// one per shard; a missing or unreadable one is named in the summary,
    /// which then fails.
    #[arg(required = true, value_name = "SHARD_FILE")]
    pub files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = VerdictFormat::Terminal)]
    pub format: VerdictFormat,
    /// The number of shards the suite was split into (default: the N the
    /// files name); with it, a merge of no readable file still names every
    /// missing shard.
    #[arg(long, value_name = "N")]
    pub expect: Option<u32>,
    /// Exit with status 3 when some benchmark is significantly slower in B
    /// after the false-discovery control over the whole suite, by at least
    /// P% when given (as `ab`'s).
    #[arg(long, value_name = "P%", num_args = 0..=1, require_equals = true, default_missing_value = "0")]
    pub fail_on_regression: Option<String>,
}

/// Exit status when a shard is missing, failed or unreadable.
const INCOMPLETE: u8 = 1;
/// Exit status for shards that contradict each other.
const BAD_INPUT: u8 = 2;
/// Exit status with `--fail-on-regression` when B is slower.
const REGRESSION: u8 = 3;

/// One readable shard file.
struct Shard {
    file: PathBuf,
    doc: AbResult,
    partition: Option<Partition>,
}

/// The merged comparison, ready to print.
pub struct Merged {
    header: Header,
    /// Each machine kind with its shards (`1/3, 3/3`) and rows.
    sections: Vec<(String, String, Vec<Row>)>,
    fdr: Option<String>,
    /// What did not report: missing, failed and unreadable shards.
    problems: Vec<String>,
    /// Which shards were merged, in words.
    merged_from: String,
    /// The merged document (`--format json`).
    doc: AbResult,
}

/// Runs `merge`; returns the exit status.
///
/// # Errors
///
/// Status 2 and one line when the shards contradict each other or a flag
/// is bad.
pub fn run(args: &MergeArgs) -> Result<u8, (u8, String)> {
    let threshold = args
        .fail_on_regression
        .as_deref()
        .map(crate::ab::threshold)
        .transpose()
        .map_err(|e| (BAD_INPUT, e))?;
    let read = args.files.iter().map(|f| (f.clone(), read(f))).collect();
    let merged = merge(read, args.expect).map_err(|e| (BAD_INPUT, e))?;
    let text = match args.format {
        VerdictFormat::Json => {
            let mut t = yardstick_format::json::to_string(&merged.doc);
            t.push('\n');
            t
        }
        VerdictFormat::Markdown => render(&merged, true),
        VerdictFormat::Terminal => render(&merged, false),
    };
    print!("{}", terminal_text(&text));
    if !merged.problems.is_empty() {
        return Ok(INCOMPLETE);
    }
    let rows = merged.sections.iter().flat_map(|(_, _, r)| r);
    let regressed = threshold.is_some_and(|p| rows.clone().any(|r| r.regressed(p)));
    Ok(if regressed { REGRESSION } else { 0 })
}

/// A shard file, read and checked; why not, in words.
fn read(file: &Path) -> Result<AbResult, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read it: {e}"))?;
    if text.trim().is_empty() {
        return Err("it is empty (did its job end before writing it?)".to_owned());
    }
    let doc: AbResult = yardstick_format::json::from_str(&text)
        .map_err(|e| format!("not an `ab --format json` result: {e}"))?;
    if doc.version != RESULT_VERSION {
        return Err(format!(
            "format version {} is not {RESULT_VERSION}, the one this yardstick reads",
            doc.version
        ));
    }
    Ok(doc)
}

/// Merges the shard files read (each with the file it came from).
///
/// # Errors
///
/// One line when the shards contradict each other.
pub fn merge(
    read: Vec<(PathBuf, Result<AbResult, String>)>,
    expect: Option<u32>,
) -> Result<Merged, String> {
    let mut problems = Vec::new();
    let mut shards = Vec::new();
    for (file, doc) in read {
        match doc {
            Ok(doc) => {
                let partition = doc
                    .shard
                    .as_deref()
                    .map(|s| Partition::parse(s, &format!("{}: shard", file.display())))
                    .transpose()?;
                shards.push(Shard {
                    file,
                    doc,
                    partition,
                });
            }
            Err(e) => problems.push(format!("{}: {e}", file.display())),
        }
    }
    let n = shard_count(&shards, expect)?;
    problems.extend(missing_and_failed(&shards, n));
    let (a, b) = sides(&shards)?;
    let (rows, kinds) = union(&shards)?;
    let mut merged = assemble(&shards, rows, &kinds, n, problems);
    merged.header.a = a;
    merged.header.b = b;
    Ok(merged)
}

/// N, the number of shards: the files' (all alike) or `--expect`.
fn shard_count(shards: &[Shard], expect: Option<u32>) -> Result<u32, String> {
    let mut seen: Vec<(&Path, Partition)> = Vec::new();
    for s in shards {
        let Some(p) = s.partition else {
            if shards.len() > 1 {
                return Err(format!(
                    "{} compared the whole suite (no --partition); merge takes the shards of one suite",
                    s.file.display()
                ));
            }
            continue;
        };
        if let Some((f, q)) = seen.first() {
            if (q.kind, q.count) != (p.kind, p.count) {
                return Err(format!(
                    "{} is shard {p} but {} is shard {q}: shards of one suite share the kind and N",
                    s.file.display(),
                    f.display()
                ));
            }
        }
        if let Some((f, _)) = seen.iter().find(|(_, q)| q.index == p.index) {
            return Err(format!(
                "shard {} is in both {} and {}; give each shard once",
                p.shard(),
                f.display(),
                s.file.display()
            ));
        }
        seen.push((&s.file, p));
    }
    let named = seen.first().map(|(_, p)| p.count);
    match (named, expect) {
        (Some(n), Some(e)) if n != e => {
            Err(format!("--expect {e}, but the shard files name {n} shards"))
        }
        (_, Some(0)) => Err("--expect must be at least 1".to_owned()),
        (Some(n), _) | (None, Some(n)) => Ok(n),
        (None, None) => Ok(1),
    }
}

/// The shards no file names, and those whose run failed.
fn missing_and_failed(shards: &[Shard], n: u32) -> Vec<String> {
    let whole = shards.iter().any(|s| s.partition.is_none());
    let mut out = Vec::new();
    for k in 1..=n {
        let found = shards
            .iter()
            .find(|s| s.partition.is_some_and(|p| p.index == k));
        match found {
            None if !whole => out.push(format!("shard {k}/{n}: missing (no file names it)")),
            Some(s) if s.doc.status != "ok" => out.push(format!(
                "shard {k}/{n} failed ({}): {}",
                s.file.display(),
                s.doc.error.as_deref().unwrap_or("no reason given")
            )),
            _ => {}
        }
    }
    for s in shards
        .iter()
        .filter(|s| s.partition.is_none() && s.doc.status != "ok")
    {
        out.push(format!(
            "{} failed: {}",
            s.file.display(),
            s.doc.error.as_deref().unwrap_or("no reason given")
        ));
    }
    out
}

/// A's and B's names, the same in every shard that got to its table.
fn sides(shards: &[Shard]) -> Result<(String, String), String> {
    let ok: Vec<&Shard> = shards.iter().filter(|s| s.doc.status == "ok").collect();
    let Some(first) = ok.first() else {
        return Ok(("?".to_owned(), "?".to_owned()));
    };
    if let Some(other) = ok
        .iter()
        .find(|s| (&s.doc.a, &s.doc.b) != (&first.doc.a, &first.doc.b))
    {
        return Err(format!(
            "{} compared A = {}, B = {}, but {} compared A = {}, B = {}: shards of one suite compare the same revisions",
            first.file.display(),
            first.doc.a,
            first.doc.b,
            other.file.display(),
            other.doc.a,
            other.doc.b
        ));
    }
    Ok((first.doc.a.clone(), first.doc.b.clone()))
}

/// Every shard's rows in shard order, each with its machine kind; a
/// benchmark in two shards is refused.
fn union(shards: &[Shard]) -> Result<(Vec<Row>, Vec<String>), String> {
    let mut order: Vec<&Shard> = shards.iter().collect();
    order.sort_by_key(|s| s.partition.map_or(0, |p| p.index));
    let (mut rows, mut kinds) = (Vec::new(), Vec::new());
    let mut owner: std::collections::HashMap<String, &Path> = std::collections::HashMap::new();
    for s in order {
        let kind = machine_kind(&s.doc.machine);
        for r in &s.doc.rows {
            if let Some(first) = owner.insert(r.id.clone(), &s.file) {
                return Err(format!(
                    "'{}' is in both {} and {}: shards of one suite share no benchmark",
                    yardstick_format::names::one_line(&r.id),
                    first.display(),
                    s.file.display()
                ));
            }
            rows.push(
                from_row(r, s.doc.confidence).map_err(|e| format!("{}: {e}", s.file.display()))?,
            );
            kinds.push(kind.clone());
        }
    }
    Ok((rows, kinds))
}

/// The false-discovery control over the whole suite, then one section per
/// machine kind.
fn assemble(
    shards: &[Shard],
    mut rows: Vec<Row>,
    kinds: &[String],
    n: u32,
    problems: Vec<String>,
) -> Merged {
    let first = shards
        .iter()
        .find(|s| s.doc.status == "ok")
        .or(shards.first());
    let confidence = first.map_or(0.95, |s| s.doc.confidence);
    let doc = merged_doc(shards, first, &rows, &problems);
    let fdr = verdict::control(&mut rows, 1.0 - confidence);
    let mut sections: Vec<(String, String, Vec<Row>)> = Vec::new();
    for (row, kind) in rows.into_iter().zip(kinds) {
        match sections.iter_mut().find(|(k, _, _)| k == kind) {
            Some((_, _, rows)) => rows.push(row),
            None => sections.push((kind.clone(), shards_on(shards, kind), vec![row])),
        }
    }
    // Only the shards that reported count as merged; the others are
    // among the problems.
    let mut reported: Vec<Partition> = shards
        .iter()
        .filter(|s| s.doc.status == "ok")
        .filter_map(|s| s.partition)
        .collect();
    reported.sort_by_key(|p| p.index);
    let names: Vec<String> = reported.iter().map(Partition::shard).collect();
    let kind = shards.iter().find_map(|s| s.partition).map(|p| {
        let text = p.to_string();
        text[..text.find(':').unwrap_or(0)].to_owned()
    });
    let merged_from = match kind {
        Some(kind) => format!(
            "Merged from {} of {n} shards ({kind}): {}.",
            names.len(),
            names.join(", ")
        ),
        None => "Merged from one whole-suite result.".to_owned(),
    };
    Merged {
        header: Header {
            a: String::new(),
            b: String::new(),
            how: crate::ab::How {
                pairs: doc.pairs as usize,
                round_ms: doc.round_ms,
                timeout: doc.timeout,
                layouts: doc.layouts as usize,
                unsampled: doc.layout_note.clone(),
                seconds: doc.seconds,
            }
            .line(),
        },
        sections,
        fdr,
        problems,
        merged_from,
        doc,
    }
}

/// `1/3, 3/3`: the shards measured on machine kind `kind`.
fn shards_on(shards: &[Shard], kind: &str) -> String {
    let mut names: Vec<(u32, String)> = shards
        .iter()
        .filter(|s| machine_kind(&s.doc.machine) == kind)
        .filter_map(|s| s.partition.map(|p| (p.index, p.shard())))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|(_, s)| s)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The whole suite as one `ab --format json` document (rows before the
/// control; `failed` with the problems when a shard did not report).
fn merged_doc(
    shards: &[Shard],
    first: Option<&Shard>,
    rows: &[Row],
    problems: &[String],
) -> AbResult {
    let seconds = shards.iter().map(|s| s.doc.seconds).sum();
    let context = Context {
        shard: None,
        machine: first.map_or_else(crate::ab::result::this_machine, |s| s.doc.machine.clone()),
        a: first.map_or_else(|| "?".to_owned(), |s| s.doc.a.clone()),
        b: first.map_or_else(|| "?".to_owned(), |s| s.doc.b.clone()),
        pairs: first.map_or(0, |s| s.doc.pairs as usize),
        round_ms: first.map_or(0.0, |s| s.doc.round_ms),
        timeout: first.map_or(0.0, |s| s.doc.timeout),
        seconds,
        confidence: first.map_or(0.95, |s| s.doc.confidence),
        layouts: first.map_or(0, |s| s.doc.layouts as usize),
        unsampled: shards.iter().find_map(|s| s.doc.layout_note.clone()),
    };
    let mut doc = document(context, rows);
    if !problems.is_empty() {
        doc.status = "failed".to_owned();
        doc.error = Some(problems.join("; "));
    }
    doc
}

/// The summary: one run's table (one per machine kind when the shards
/// measured on several), the control's line, which shards were merged,
/// and what did not report.
pub(crate) fn render(m: &Merged, markdown: bool) -> String {
    let table = |rows: &[Row]| {
        if markdown {
            verdict::markdown_table(rows)
        } else {
            verdict::terminal_table(rows)
        }
    };
    let mut s = if markdown {
        verdict::markdown_head(&m.header)
    } else {
        verdict::terminal_head(&m.header)
    };
    let several = m.sections.len() > 1;
    if several {
        s.push_str(&format!(
            "Shards measured on {} machine kinds: a table each, since one machine's ratios are not another's; \
             the false-discovery control spans the whole suite.\n\n",
            m.sections.len()
        ));
    }
    for (kind, shards, rows) in &m.sections {
        if several {
            let title = format!("On {kind} (shards {shards})");
            s.push_str(&if markdown {
                format!("#### {title}\n\n")
            } else {
                format!("{title}\n")
            });
        }
        s.push_str(&table(rows));
        if several {
            s.push('\n');
        }
    }
    if m.sections.is_empty() {
        s.push_str(&table(&[]));
    }
    if let Some(f) = &m.fdr {
        s.push_str(&format!("\n{f}\n"));
    }
    s.push_str(&format!("\n{}\n", m.merged_from));
    if !m.problems.is_empty() {
        s.push_str(if markdown {
            "\n**Incomplete, so this summary fails:**\n\n"
        } else {
            "\nIncomplete, so this summary fails:\n"
        });
        for p in &m.problems {
            s.push_str(&format!("- {p}\n"));
        }
    }
    s
}

#[cfg(test)]
pub(crate) mod tests;
