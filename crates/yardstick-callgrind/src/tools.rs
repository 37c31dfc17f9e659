//! The other Valgrind tools: which run, their arguments, running them and
//! what their logs say.

use std::collections::BTreeMap;
use std::ffi::OsString;

use crate::cli::{NoCapture, Options};
use crate::config::{Tool, ValgrindTool};
use crate::job::Job;
use crate::paths::{ToolFiles, Version};
use crate::printer::Printer;
use crate::summary::ToolSummary;

/// The default arguments yardstick gives a tool, before the user's.
pub fn default_args(tool: ValgrindTool) -> Vec<String> {
    if tool.reports_errors() {
        vec!["--error-exitcode=201".to_owned()]
    } else {
        Vec::new()
    }
}

/// The flag naming the tool's output file, for the tools that write one.
pub fn out_file_flag(tool: ValgrindTool) -> Option<&'static str> {
    match tool {
        ValgrindTool::DHAT => Some("--dhat-out-file"),
        ValgrindTool::Massif => Some("--massif-out-file"),
        ValgrindTool::Cachegrind => Some("--cachegrind-out-file"),
        ValgrindTool::BBV => Some("--bb-out-file"),
        _ => None,
    }
}

/// What a tool's log reports.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogSummary {
    /// `Key: value` lines of the final report, in file order (DHAT's
    /// `Total`, `At t-gmax`, …; Memcheck's heap summary lines).
    pub fields: Vec<(String, String)>,
    /// The `ERROR SUMMARY` count, for the tools that report errors.
    pub errors: Option<u64>,
    /// The full `ERROR SUMMARY` text after the colon.
    pub error_summary: Option<String>,
}

impl LogSummary {
    /// The fields as a map.
    pub fn field_map(&self) -> BTreeMap<String, String> {
        self.fields.iter().cloned().collect()
    }
}

/// Reads the summary of a Valgrind log (`==PID== ` prefixes stripped).
pub fn parse_log(tool: ValgrindTool, log: &str) -> LogSummary {
    let mut summary = LogSummary::default();
    let lines: Vec<&str> = log.lines().map(strip_prefix).collect();
    for line in &lines {
        if let Some(rest) = line.strip_prefix("ERROR SUMMARY:") {
            let rest = rest.trim();
            summary.errors = rest
                .split_whitespace()
                .next()
                .and_then(|n| n.replace(',', "").parse().ok());
            summary.error_summary = Some(rest.to_owned());
        }
    }
    let wanted: &[&str] = match tool {
        ValgrindTool::DHAT => &["Total", "At t-gmax", "At t-end", "Reads", "Writes"],
        ValgrindTool::Memcheck => &["in use at exit", "total heap usage"],
        ValgrindTool::Cachegrind => &[
            "I refs",
            "I1 misses",
            "LLi misses",
            "D refs",
            "D1 misses",
            "LLd misses",
            "LL refs",
            "LL misses",
        ],
        ValgrindTool::BBV => &["Total instructions"],
        _ => &[],
    };
    for line in &lines {
        if let Some((key, value)) = line.split_once(':') {
            // Cachegrind aligns its keys with inner spaces (`I   refs`).
            let key = key.split_whitespace().collect::<Vec<_>>().join(" ");
            if wanted.contains(&key.as_str()) {
                summary.fields.push((key, value.trim().to_owned()));
            }
        }
    }
    summary
}

fn strip_prefix(line: &str) -> &str {
    let t = line.trim_start();
    for mark in ["==", "--"] {
        if let Some(rest) = t.strip_prefix(mark) {
            if let Some(end) = rest.find(mark) {
                if rest[..end].chars().all(|c| c.is_ascii_digit()) {
                    return rest[end + 2..].trim_start();
                }
            }
        }
    }
    t
}

/// The tools to run: the configuration's, then `--tools`; one run per tool
/// (a later entry of the same tool replaces an earlier one).
pub(crate) fn tools_of(job: &Job, opts: &Options) -> Vec<Tool> {
    let mut list: Vec<Tool> = Vec::new();
    let from_cli = opts
        .tools
        .iter()
        .filter_map(|t| ValgrindTool::from_id(t))
        .map(Tool::new);
    for t in job.config.tools.iter().cloned().chain(from_cli) {
        list.retain(|x| x.kind != t.kind);
        list.push(t);
    }
    // Callgrind always runs first: naming it again adds nothing.
    list.retain(|t| t.enabled && t.kind != ValgrindTool::Callgrind);
    list
}

/// Runs `job` under `tool`, rotating its old files, and reads its log.
///
/// # Errors
///
/// When the run cannot start.
pub(crate) fn run(job: &Job, tool: &Tool) -> Result<ToolSummary, String> {
    let files = ToolFiles::new(&job.dir, tool.kind.id(), &job.name);
    files.rotate().map_err(|e| {
        format!(
            "cannot move the last run aside in {}: {e}",
            job.dir.display()
        )
    })?;
    let log = files.path("log", &Version::New);
    let out = out_file_flag(tool.kind).map(|_| files.path("out", &Version::New));
    let mut args: Vec<OsString> = vec![format!("--log-file={}", log.display()).into()];
    if let (Some(flag), Some(out)) = (out_file_flag(tool.kind), &out) {
        args.push(format!("{flag}={}", out.display()).into());
    }
    args.extend(default_args(tool.kind).into_iter().map(OsString::from));
    args.extend(tool.args.iter().map(OsString::from));
    let outcome = crate::job::execute(job, tool.kind.id(), args, NoCapture::False)?;
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let parsed = parse_log(tool.kind, &text);
    Ok(ToolSummary {
        tool: tool.kind.id().to_owned(),
        out_file: out.map(|o| o.display().to_string()),
        log_file: log.display().to_string(),
        exit_code: outcome.code,
        summary: parsed.field_map(),
        errors: parsed.errors,
    })
}

/// Prints a tool's summary under its headline.
pub(crate) fn print(t: &ToolSummary, p: &mut Printer) {
    p.out(crate::format::tool_headline(&t.tool));
    for (k, v) in &t.summary {
        p.out(format!("  {:<18}{v}", format!("{k}:")));
    }
    if let Some(e) = t.errors {
        p.out(format!("  {:<18}{e}", "Errors:"));
    }
    if let Some(out) = &t.out_file {
        p.out(format!("  {:<18}{out}", "Outfile:"));
    }
    p.out(format!("  {:<18}{}", "Logfile:", t.log_file));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dhat_log() {
        let log = "==42== DHAT, a dynamic heap analysis tool\n\
                   ==42== \n\
                   ==42== Total:     1,024 bytes in 2 blocks\n\
                   ==42== At t-gmax: 1,000 bytes in 1 blocks\n\
                   ==42== At t-end:  0 bytes in 0 blocks\n\
                   ==42== Reads:     10 bytes\n\
                   ==42== Writes:    20 bytes\n";
        let s = parse_log(ValgrindTool::DHAT, log);
        assert_eq!(
            s.fields[0],
            ("Total".into(), "1,024 bytes in 2 blocks".into())
        );
        assert_eq!(s.fields.len(), 5);
        assert_eq!(s.errors, None);
    }

    #[test]
    fn memcheck_log() {
        let log = "==7== HEAP SUMMARY:\n\
                   ==7==     in use at exit: 0 bytes in 0 blocks\n\
                   ==7==   total heap usage: 9 allocs, 9 frees, 2,133 bytes allocated\n\
                   ==7== ERROR SUMMARY: 3 errors from 1 contexts (suppressed: 0 from 0)\n";
        let s = parse_log(ValgrindTool::Memcheck, log);
        assert_eq!(s.errors, Some(3));
        assert_eq!(s.fields.len(), 2);
        assert_eq!(
            s.error_summary.as_deref(),
            Some("3 errors from 1 contexts (suppressed: 0 from 0)")
        );
    }

    #[test]
    fn cachegrind_log() {
        let log = "==9== I   refs:      1,234\n==9== I1  misses:        5\n==9== D   refs:        600  (400 rd   + 200 wr)\n";
        let s = parse_log(ValgrindTool::Cachegrind, log);
        assert_eq!(
            s.fields,
            vec![
                ("I refs".to_owned(), "1,234".to_owned()),
                ("I1 misses".to_owned(), "5".to_owned()),
                ("D refs".to_owned(), "600  (400 rd   + 200 wr)".to_owned()),
            ]
        );
    }

    #[test]
    fn error_tools_exit_with_201() {
        assert_eq!(
            default_args(ValgrindTool::Helgrind),
            vec!["--error-exitcode=201"]
        );
        assert!(default_args(ValgrindTool::DHAT).is_empty());
    }
}
