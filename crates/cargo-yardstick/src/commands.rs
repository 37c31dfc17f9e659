//! Running the history subcommands: each turns its validated arguments into
//! text on stdout and an exit status.

use std::io::{self, Write};

use yardstick_format::names::terminal_text;
use yardstick_stats::ChangeConfig;

use crate::args::{StatsArgs, TableFormat};
use crate::check::{summary, CheckArgs, Limits};
use crate::cli::{Command, Invocation};
use crate::compare::compare;
use crate::compare::CompareArgs;
use crate::db::Db;
use crate::failure::Failure;
use crate::history::HistoryArgs;
use crate::import::ImportArgs;
use crate::import::{import, Format, NAMES};
use crate::record::Run;
use crate::{bench, export, history, host, select, table};
use yardstick_stats::changepoint::Config as ChangeConfigCp;

/// Exit status for bad usage or bad input.
pub const BAD_INPUT: u8 = 2;
/// Exit status of `check` when a benchmark regressed.
pub const REGRESSION: u8 = 3;

fn bad(message: String) -> Failure {
    Failure {
        code: BAD_INPUT,
        message,
    }
}

fn other(message: String) -> Failure {
    Failure { code: 1, message }
}

/// Writes `text` to stdout, control characters escaped (an imported id may
/// hold a terminal's escapes).
fn out(text: &str) -> Result<(), Failure> {
    let text = terminal_text(text);
    let mut o = io::stdout().lock();
    match o.write_all(text.as_bytes()).and_then(|()| o.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(other(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

pub(crate) fn change_config(s: &StatsArgs) -> ChangeConfig {
    ChangeConfig {
        nresamples: s.nresamples,
        confidence: 0.95,
        significance: s.significance_level,
        noise_threshold: s.noise_threshold,
        seed: s.seed,
    }
}

/// Runs a subcommand other than `analyze`; returns the exit status.
///
/// # Errors
///
/// A [`Failure`] with its status and message.
pub fn run(inv: Invocation) -> Result<u8, Failure> {
    match inv {
        Invocation::Analyze(_) => Err(other("analyze is run by main".into())),
        Invocation::Bench(b) => {
            let mut db = Db::open(&b.home).map_err(other)?;
            let o = bench::run(&mut db, &b.home, &b.args, b.label, b.partition).map_err(other)?;
            match o.run_id {
                Some(id) => eprintln!(
                    "recorded run {id}: {} benchmarks in {}",
                    o.benchmarks,
                    terminal_text(&db.path().display().to_string())
                ),
                None => eprintln!("warning: no benchmark reported a result; nothing recorded"),
            }
            Ok(u8::from(!o.success))
        }
        Invocation::Calibrate(c) => {
            crate::calibrate::run(&c).map_err(|(code, message)| Failure { code, message })
        }
        Invocation::Help(command) => {
            crate::help::print(command);
            Ok(0)
        }
        Invocation::Parsed(command) => run_parsed(*command),
    }
}

fn run_parsed(command: Command) -> Result<u8, Failure> {
    match command {
        Command::History(h) => history_cmd(&h),
        Command::Compare(c) => compare_cmd(&c),
        Command::Import(i) => import_cmd(&i),
        Command::Check(c) => check_cmd(&c),
        Command::Exec(e) => crate::exec::run(&e),
        Command::Report(r) => crate::report_cmd::run(&r),
        Command::Ab(a) => crate::ab::run(&a).map_err(|(code, message)| Failure { code, message }),
        Command::Merge(m) => {
            crate::merge::run(&m).map_err(|(code, message)| Failure { code, message })
        }
        Command::Doctor(d) => {
            out(&crate::doctor::run(&d))?;
            Ok(0)
        }
        Command::Explain(e) => crate::explain::run(&e).map_err(other),
        Command::Init(i) => {
            print!("{}", crate::init::run(&i).map_err(other)?);
            Ok(0)
        }
        Command::Binaries(b) => {
            print!("{}", crate::binaries::run(&b));
            Ok(0)
        }
        Command::Analyze(_) | Command::Bench { .. } | Command::Calibrate { .. } => Err(other(
            "analyze, bench and calibrate have invocations of their own".into(),
        )),
    }
}

fn history_cmd(h: &HistoryArgs) -> Result<u8, Failure> {
    let home = h.home.resolve();
    let db = Db::open_read_only(&home).map_err(other)?;
    if let Some(dir) = &h.export {
        out(&export::export(&db, dir, h.last).map_err(other)?)?;
        return Ok(0);
    }
    let opts = history::Options {
        filter: h.filter.clone(),
        last: h.last,
        out: h.output.clone(),
        reference: h.reference.clone(),
        title: h.title.clone(),
        changes: ChangeConfigCp {
            alpha: h.alpha,
            seed: h.seed,
            ..ChangeConfigCp::default()
        },
    };
    let text = history::run(&db, &home, &opts).map_err(bad)?;
    out(&text)?;
    Ok(0)
}

fn compare_cmd(c: &CompareArgs) -> Result<u8, Failure> {
    let home = c.home.resolve();
    let db = Db::open_read_only(&home).map_err(other)?;
    let new = select::resolve(&db, &home, &c.new).map_err(bad)?;
    let old = match &c.old {
        Some(sel) => select::resolve(&db, &home, sel).map_err(bad)?,
        None => {
            let (old, sentence) = select::previous_sharing(&db, &new).map_err(bad)?;
            // On stderr: stdout stays the table (a CI step summary).
            eprintln!("{}", terminal_text(&sentence));
            old
        }
    };
    if let Some(line) = select::build_line(&old, &new) {
        // On stderr: stdout stays the table.
        eprintln!("{}", terminal_text(&format!("note: {line}")));
    }
    let cmp = compare(&old.results, &new.results, &change_config(&c.stats));
    let text = match c.format {
        TableFormat::Terminal => table::terminal(&cmp, &old.label, &new.label),
        TableFormat::Markdown => table::markdown(&cmp, &old.label, &new.label),
    };
    out(&text)?;
    Ok(0)
}

fn import_cmd(i: &ImportArgs) -> Result<u8, Failure> {
    if i.format == "yardstick" {
        if i.label.is_some() {
            return Err(bad(
                "--label does not apply to `import yardstick`: exported runs keep their own labels"
                    .into(),
            ));
        }
        let mut db = Db::open(&i.home.resolve()).map_err(other)?;
        out(&export::import(&mut db, &i.path).map_err(bad)?)?;
        return Ok(0);
    }
    let format = Format::from_name(&i.format).ok_or_else(|| {
        bad(format!(
            "unknown import format '{}'; expected one of: yardstick, {NAMES}",
            i.format
        ))
    })?;
    let results = import(format, &i.path).map_err(bad)?;
    let home = i.home.resolve();
    let mut db = Db::open(&home).map_err(other)?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let mut meta = host::current(
        &cwd,
        format.name(),
        &format!("import {} {}", format.name(), i.path.display()),
    );
    meta.label.clone_from(&i.label);
    let n = results.len();
    let id = db
        .record(&Run {
            meta,
            results,
            explained: Vec::new(),
        })
        .map_err(other)?;
    let plural = if n == 1 { "" } else { "s" };
    out(&format!(
        "imported {n} benchmark{plural} from {} as run {id}\n",
        i.path.display()
    ))?;
    Ok(0)
}

fn check_cmd(c: &CheckArgs) -> Result<u8, Failure> {
    let home = c.home.resolve();
    let db = Db::open_read_only(&home).map_err(other)?;
    let old = select::resolve(&db, &home, &c.against).map_err(bad)?;
    let new = select::resolve(&db, &home, &c.run).map_err(bad)?;
    if let Some(line) = select::build_line(&old, &new) {
        eprintln!("{}", terminal_text(&format!("note: {line}")));
    }
    let cmp = compare(&old.results, &new.results, &change_config(&c.stats));
    let limits = Limits {
        threshold: c.threshold,
        exact_threshold: c.instructions_threshold,
    };
    let (md, failing) = summary(&cmp, &limits, &old.label, &new.label);
    if let Some(path) = &c.summary {
        std::fs::write(path, &md)
            .map_err(|e| other(format!("{}: cannot write the summary: {e}", path.display())))?;
    }
    out(&md)?;
    if cmp.rows.is_empty() {
        return Err(bad(format!(
            "'{}' and '{}' share no benchmark; nothing was checked",
            c.against, c.run
        )));
    }
    Ok(if failing.is_empty() { 0 } else { REGRESSION })
}
