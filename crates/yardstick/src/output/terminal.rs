//! The terminal output of Criterion.rs, line for line, and libtest's bencher
//! format.

use std::io::{IsTerminal, Write};

use yardstick_format::names::terminal_text;
use yardstick_stats::{Estimate, Verdict};

use super::{Completed, Style};
use crate::analysis::Analysis;
use crate::cli::{OutputFormat, Verbosity};
use crate::format;
use crate::Throughput;

/// Prints progress and results.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Terminal {
    pub style: Style,
    pub verbosity: Verbosity,
    pub format: OutputFormat,
    /// Progress lines replace each other (stdout is a terminal).
    overwrite: bool,
}

const INDENT: &str = "                        "; // 24 columns, as Criterion.rs

impl Terminal {
    pub(crate) fn new(style: Style, verbosity: Verbosity, format: OutputFormat) -> Terminal {
        Terminal {
            style,
            verbosity,
            format,
            overwrite: std::io::stdout().is_terminal() && verbosity != Verbosity::Verbose,
        }
    }

    fn progress(&self, line: &str) {
        if self.format != OutputFormat::Criterion || self.verbosity == Verbosity::Quiet {
            return;
        }
        let mut out = std::io::stdout().lock();
        if self.overwrite {
            let _ = write!(out, "\r\x1b[2K{line}");
        } else {
            let _ = writeln!(out, "{line}");
        }
        let _ = out.flush();
    }

    fn clear_progress(&self) {
        if self.overwrite
            && self.format == OutputFormat::Criterion
            && self.verbosity != Verbosity::Quiet
        {
            crate::output::out!("\r\x1b[2K");
        }
    }

    pub(crate) fn benchmark_start(&self, id: &str) {
        self.progress(&format!("Benchmarking {id}"));
    }

    pub(crate) fn warm_up(&self, id: &str, ns: f64) {
        self.progress(&format!(
            "Benchmarking {id}: Warming up for {}",
            format::time(ns)
        ));
    }

    pub(crate) fn warm_up_adaptive(&self, id: &str, max_ns: f64) {
        self.progress(&format!(
            "Benchmarking {id}: Warming up until stable (at most {})",
            format::time(max_ns).trim_start()
        ));
    }

    pub(crate) fn sampling_adaptive(&self, id: &str, precision: f64, timeout_ns: f64) {
        self.progress(&format!(
            "Benchmarking {id}: Sampling until ±{}% (at most {})",
            precision * 100.0,
            format::time(timeout_ns).trim_start()
        ));
    }

    pub(crate) fn sampling_lockstep(&self, id: &str) {
        self.progress(&format!(
            "Benchmarking {id}: Measuring in lock-step with the baseline's binary"
        ));
    }

    pub(crate) fn sampling_tasty(&self, id: &str, stdev: f64, timeout_ns: f64) {
        self.progress(&format!(
            "Benchmarking {id}: Doubling until the relative standard deviation is below {}% (at most {})",
            stdev * 100.0,
            format::time(timeout_ns).trim_start()
        ));
    }

    pub(crate) fn measurement_start(&self, id: &str, samples: usize, ns: f64, iters: u64) {
        self.progress(&format!(
            "Benchmarking {id}: Collecting {samples} samples in estimated {} ({})",
            format::time(ns),
            format::iter_count(iters)
        ));
    }

    pub(crate) fn analysing(&self, id: &str) {
        self.progress(&format!("Benchmarking {id}: Analyzing"));
    }

    pub(crate) fn profiling(&self, id: &str, ns: f64) {
        self.progress(&format!(
            "Benchmarking {id}: Profiling for {}",
            format::time(ns)
        ));
    }

    pub(crate) fn profile_complete(&self, id: &str) {
        self.clear_progress();
        if self.format == OutputFormat::Criterion {
            crate::output::outln!("Benchmarking {id}: Complete (Analysis Disabled)");
        }
    }

    /// A problem that does not stop the benchmark, on stderr.
    pub(crate) fn warning(&self, message: &str) {
        // A front-end that fixed the plan chose its iteration counts: the
        // plan's advice is not for its users.
        if self.format == OutputFormat::Silent && message.starts_with("Unable to complete") {
            return;
        }
        self.clear_progress();
        let message = terminal_text(message);
        crate::output::errln!("{} {message}", self.style.yellow("warning:"));
    }

    /// How a measurement ended, when it did not end as asked, on stderr.
    pub(crate) fn note(&self, message: &str) {
        self.clear_progress();
        if self.verbosity > Verbosity::Quiet {
            let message = terminal_text(message);
            crate::output::errln!("{} {message}", self.style.faint("note:"));
        }
    }

    /// A benchmark that failed, on stderr. The message may quote a panic's
    /// or a worker's words: its control characters are escaped.
    pub(crate) fn failure(&self, id: &str, message: &str) {
        self.clear_progress();
        let message = terminal_text(message);
        crate::output::errln!("{} {id}: {message}", self.style.red("FAILED"));
    }

    pub(crate) fn test_start(&self, id: &str) {
        if self.format == OutputFormat::Silent {
            return;
        }
        crate::output::outln!("Testing {id}");
    }

    pub(crate) fn test_success(&self) {
        if self.format == OutputFormat::Silent {
            return;
        }
        crate::output::outln!("Success");
    }

    pub(crate) fn list(&self, id: &str) {
        crate::output::outln!("{id}: benchmark");
    }

    /// Prints a finished benchmark; `header` says whether the nanobench
    /// table's header goes first (its columns changed since the last row).
    pub(crate) fn complete(&self, c: &Completed<'_>, header: bool) {
        self.clear_progress();
        let lines = match self.format {
            OutputFormat::Table => {
                vec![super::table::lines(c, header, c.optimised_away)
                    .trim_end_matches('\n')
                    .to_owned()]
            }
            _ => self.lines(c),
        };
        let mut out = std::io::stdout().lock();
        for line in lines {
            let _ = writeln!(out, "{line}");
        }
        let _ = out.flush();
    }

    /// What [`Terminal::complete`] prints for `c`, one string per line (the
    /// nanobench table's header, which depends on the rows before, aside).
    pub(crate) fn lines(&self, c: &Completed<'_>) -> Vec<String> {
        match self.format {
            OutputFormat::Bencher => vec![bencher_line(c)],
            OutputFormat::Criterion => self.criterion_lines(c),
            OutputFormat::Tasty => super::tasty::lines(c, true),
            OutputFormat::TastyFlat => super::tasty::lines(c, false),
            OutputFormat::Stats => super::rebar::lines(c, c.confidence),
            OutputFormat::Markdown | OutputFormat::Silent => Vec::new(),
            OutputFormat::Table => vec![super::table::lines(c, true, c.optimised_away)
                .trim_end_matches('\n')
                .to_owned()],
        }
    }

    fn criterion_lines(&self, c: &Completed<'_>) -> Vec<String> {
        let s = &self.style;
        let f = c.formatter;
        let a = c.analysis;
        let mut lines = Vec::new();
        let typical = a.typical();
        let mut id = c.title.to_owned();
        // Byte lengths, as Criterion.rs: ids with multi-byte characters
        // line up as they do there.
        if id.len() > 23 {
            lines.push(s.green(&id));
            id.clear();
        }
        let pad = " ".repeat(24 - id.len());
        lines.push(format!(
            "{}{pad}time:   [{} {} {}]",
            s.green(&id),
            s.faint(&f.format_value(typical.lower)),
            s.bold(&f.format_value(typical.point)),
            s.faint(&f.format_value(typical.upper)),
        ));
        for t in throughputs(c.throughput) {
            // More time per iteration is less throughput: the bounds swap.
            lines.push(format!(
                "{INDENT}thrpt:  [{} {} {}]",
                s.faint(&f.format_throughput(&t, typical.upper)),
                s.bold(&f.format_throughput(&t, typical.point)),
                s.faint(&f.format_throughput(&t, typical.lower)),
            ));
        }
        lines.extend(metric_lines(c.metrics, s));
        if self.verbosity == Verbosity::Quiet {
            return lines;
        }
        if let Some(change) = &a.change {
            lines.extend(change_lines(c, change, s));
        }
        lines.extend(self.outlier_lines(a));
        if self.verbosity == Verbosity::Verbose {
            lines.extend(verbose_lines(c));
        }
        lines
    }

    fn outlier_lines(&self, a: &Analysis) -> Vec<String> {
        let counts = &a.tukey.counts;
        let total = counts.total();
        let n = a.averages.len();
        if total == 0 {
            return Vec::new();
        }
        let pct = |k: usize| 100.0 * k as f64 / n as f64;
        let mut lines = vec![self.style.yellow(&format!(
            "Found {total} outliers among {n} measurements ({:.2}%)",
            pct(total)
        ))];
        for (k, label) in [
            (counts.low_severe, "low severe"),
            (counts.low_mild, "low mild"),
            (counts.high_mild, "high mild"),
            (counts.high_severe, "high severe"),
        ] {
            if k > 0 {
                lines.push(format!("  {k} ({:.2}%) {label}", pct(k)));
            }
        }
        lines
    }
}

/// One line per extra metric: `cpu:    [lo est hi]` per iteration, a peak
/// for maxima, and the words "not measured" when a sample could not be read.
fn metric_lines(metrics: &[crate::metered::MetricResult], s: &super::Style) -> Vec<String> {
    // Times are scaled per value as on the time line; counts share one unit
    // written once after the interval.
    let show = |v: f64, unit: &str| {
        if unit == "ns" {
            format::time(v).trim().to_owned()
        } else {
            format::short(v)
        }
    };
    metrics
        .iter()
        .map(|r| {
            let (name, unit) = (r.metric.name(), r.metric.unit());
            let suffix = if unit == "ns" {
                String::new()
            } else {
                format!(" {unit}")
            };
            let body = match (&r.estimate, r.peak) {
                (Some(e), _) => format!(
                    "[{} {} {}]{suffix} per iteration",
                    s.faint(&show(e.lower, unit)),
                    s.bold(&show(e.point, unit)),
                    s.faint(&show(e.upper, unit))
                ),
                (None, Some(p)) => format!("{}{suffix} (largest sample)", s.bold(&show(p, unit))),
                (None, None) => "not measured (a sample could not be read)".to_owned(),
            };
            let body = match &r.change {
                Some(ch) => format!(
                    "{body}; change [{} {} {}] {}",
                    format::change(ch.mean.lower, true),
                    format::change(ch.mean.point, true),
                    format::change(ch.mean.upper, true),
                    ch.verdict.message()
                ),
                None => body,
            };
            let label = format!("{name}:");
            format!("{INDENT}{label:<7} {body}")
        })
        .collect()
}

/// The throughput lines to print: `ElementsAndBytes` gives an elements
/// line and a bytes line, as Criterion.rs 0.8.
fn throughputs(t: Option<Throughput>) -> Vec<Throughput> {
    match t {
        Some(Throughput::ElementsAndBytes { elements, bytes }) => {
            vec![Throughput::Elements(elements), Throughput::Bytes(bytes)]
        }
        Some(t) => vec![t],
        None => Vec::new(),
    }
}

/// `test <id> ... bench:      26,251 ns/iter (+/- 120)`, as libtest: the
/// median and the standard deviation, as Criterion.rs.
fn bencher_line(c: &Completed<'_>) -> String {
    let e = &c.analysis.estimates;
    let mut values = [e.median.point, e.std_dev.point];
    let unit = c.formatter.scale_for_machines(&mut values);
    format!(
        "test {} ... bench: {:>11} {unit}/iter (+/- {})",
        c.title,
        format::integer(values[0]),
        format::integer(values[1])
    )
}

/// The half-width of the change's interval when it is too wide to say
/// anything (see [`Analysis::too_noisy`]).
fn too_noisy(c: &Completed<'_>) -> Option<f64> {
    c.analysis.too_noisy(c.noise_threshold)
}

/// Under a lock-step verdict when `calibrate --layouts` has not measured
/// the benchmark: each side ran the one layout cargo linked, and an edit
/// elsewhere that moves the code moved benchmarks by up to ±25 % in the
/// trust suite.
const LAYOUT_NOT_SAMPLED: &str = "Code layout not sampled: an edit elsewhere that moves the code can move this benchmark too; after cargo yardstick init every cargo bench samples it.";

/// After the lock-step line of a comparison whose instructions differed
/// when both binaries were counted before measuring: how many times the
/// usual rounds' time it got (`runner::lockstep`'s `CHANGED_CODE_BUDGET`,
/// less when many of its binary's benchmarks changed).
fn longer_rounds(factor: f64) -> String {
    let times = match factor {
        f if (f - 2.0).abs() < 0.05 => "twice".to_owned(),
        f if (f - 3.0).abs() < 0.05 => "three times".to_owned(),
        f if (f - 4.0).abs() < 0.05 => "four times".to_owned(),
        f => format!("{f:.1} times"),
    };
    format!(" Its instructions changed (both binaries counted before measuring), so its rounds ran {times} as long.")
}

/// The verdict's words for a change within what relinking moves: the
/// calibrated spread, or the allowance between builds whose layouts were
/// not sampled; led by what Callgrind counted when it counted both sides
/// the same.
fn layout_line(a: &crate::analysis::Analysis) -> String {
    let spread = layout_spread(a).unwrap_or_default() * 100.0;
    let learned_from = a.lockstep.map_or(0, |l| l.learned_from);
    let same = a.lockstep.and_then(|l| l.same_instructions);
    if let (Some(n), true) = (same, learned_from > 0) {
        return format!(
            "Both sides execute the same instructions ({} per iteration), and earlier rebuilds moved this benchmark further than the ±{:.0}% default (its last {learned_from} comparisons of two builds): the change is how the code runs (its layout, memory placement), not what it runs; cargo yardstick init samples code layouts.",
            super::numbers::grouped(n, 0),
            crate::analysis::LAYOUT_ALLOWANCE * 100.0
        );
    }
    let measured = a.lockstep.is_some_and(|l| l.layouts_measured);
    if let (Some(n), true) = (same, past(a, layout_spread(a).unwrap_or_default())) {
        let bound = if measured {
            format!("past the ±{spread:.1}% cargo yardstick calibrate --layouts measured")
        } else {
            format!("past the ±{spread:.1}% relinking alone moves most benchmarks here")
        };
        return format!(
            "Both sides execute the same instructions ({} per iteration): the change, {bound}, is how the code runs (its layout, memory placement), not what it runs; cargo yardstick init samples code layouts.",
            super::numbers::grouped(n, 0),
        );
    }
    let within = if measured {
        format!("Change within what relinking the same code moves here (±{spread:.1}%, measured by cargo yardstick calibrate --layouts).")
    } else if learned_from > 0 {
        format!("Change within what rebuilds move this benchmark here (±{spread:.1}%, learned from its last {learned_from} comparisons of two builds whose code layouts were not sampled).")
    } else {
        format!("Change within what relinking alone can move code here (±{spread:.1}% between two builds whose code layouts were not sampled).")
    };
    match same {
        Some(n) => format!(
            "{within} Both sides execute the same instructions ({} per iteration): the change is how the code runs (its layout, memory placement), not what it runs.",
            super::numbers::grouped(n, 0)
        ),
        None => within,
    }
}

/// The change's interval lies wholly past ±`spread`: beyond the
/// allowance, so only the instructions could make it no verdict.
fn past(a: &crate::analysis::Analysis, spread: f64) -> bool {
    a.change
        .as_ref()
        .is_some_and(|c| c.mean.lower > spread || c.mean.upper < -spread)
}

/// Under a verdict whose two sides were counted under Callgrind and
/// execute other instructions: the allowance (learned from earlier
/// rebuilds, or relinking's) does not excuse it, and where the suite's
/// error rate would have held it, it was judged alone
/// (`runner::code_changed`, `alone`); past it, that is all it says.
fn instructions_line(
    (was, now): (f64, f64),
    ls: &crate::analysis::Lockstep,
    alone: bool,
    past: bool,
) -> String {
    let judged_alone = "a benchmark whose code changed is judged alone, not at its share of the suite's error rate";
    let and_alone = if alone {
        format!(", and {judged_alone}")
    } else {
        String::new()
    };
    let why = if ls.learned_from > 0 {
        format!(
            "what the code runs changed, which no rebuild of the same code does, although its last {} comparisons of two builds moved this benchmark by up to ±{:.1}%{and_alone}",
            ls.learned_from,
            ls.layout_spread.unwrap_or_default() * 100.0
        )
    } else if past {
        "what the code runs changed, which relinking the same code does not do".to_owned()
    } else if let Some(spread) = ls.layout_spread {
        format!(
            "what the code runs changed, which relinking the same code does not do, so the ±{:.1}% relinking alone moves does not excuse it{and_alone}",
            spread * 100.0,
        )
    } else {
        format!("{judged_alone}, which holds for the benchmarks whose code did not change")
    };
    if ls.ran_changed_code() && crate::explain::same_count(was, now) {
        return format!(
            "The instructions it executes changed, not their number per iteration ({}): {why}.",
            super::numbers::grouped(now, 0),
        );
    }
    format!(
        "The instructions per iteration changed too ({} → {}, {:+.1}%): {why}.",
        super::numbers::grouped(was, 0),
        super::numbers::grouped(now, 0),
        (now / was - 1.0) * 100.0,
    )
}

/// The measured layout spread a lock-step verdict was judged at.
fn layout_spread(a: &crate::analysis::Analysis) -> Option<f64> {
    a.lockstep.and_then(|l| l.layout_spread)
}

/// The comparison's lines: the change, its verdict in words, and what the
/// comparison could not see.
fn change_lines(c: &Completed<'_>, change: &yardstick_stats::Change, s: &Style) -> Vec<String> {
    let a = c.analysis;
    let mut lines = Vec::new();
    let mean = &change.mean;
    let to_thrpt = |r: f64| 1.0 / (1.0 + r) - 1.0;
    let (point, thrpt_point, explanation) = verdict_words(c, change, s);
    let p = format!(
        "(p = {} {} {})",
        format::p_value(change.p_value, c.significance),
        if change.p_value < c.significance {
            "<"
        } else {
            ">"
        },
        format::p_value(c.significance, c.significance)
    );
    let lo = s.faint(&format::change(mean.lower, true));
    let hi = s.faint(&format::change(mean.upper, true));
    if c.throughput.is_some() {
        lines.push(format!("{}change:", " ".repeat(17)));
        lines.push(format!("{INDENT}time:   [{lo} {point} {hi}] {p}"));
        lines.push(format!(
            "{INDENT}thrpt:  [{} {thrpt_point} {}]",
            s.faint(&format::change(to_thrpt(mean.upper), true)),
            s.faint(&format::change(to_thrpt(mean.lower), true)),
        ));
    } else {
        lines.push(format!("{INDENT}change: [{lo} {point} {hi}] {p}"));
    }
    lines.push(format!("{INDENT}{explanation}"));
    let suite_line = a.suite.as_ref().and_then(|j| suite_line(j, change));
    if let Some(line) = &suite_line {
        lines.push(format!("{INDENT}{}", s.faint(line)));
    } else if let Some(line) = disagreement(change, c.significance) {
        lines.push(format!("{INDENT}{}", s.faint(&line)));
    }
    if let Some(ls) = &a.lockstep {
        lines.extend(lockstep_lines(a, ls, change, s));
        return lines;
    }
    if a.per_process.is_some() && !a.change_between_processes {
        lines.push(format!(
            "{INDENT}{}",
            s.faint("The baseline was measured in one process, so this comparison leaves out run-to-run noise; the next one will not.")
        ));
    }
    if matches!(change.verdict, Verdict::NoChange | Verdict::WithinNoise)
        && !a.change_between_processes
    {
        if let Some(line) = super::power::guidance(c).and_then(|g| super::power::unseen_line(&g)) {
            lines.push(format!("{INDENT}{}", s.faint(&line)));
        }
    }
    lines
}

/// The change's point (time and throughput), styled by its verdict, and
/// the verdict in words.
fn verdict_words(
    c: &Completed<'_>,
    change: &yardstick_stats::Change,
    s: &Style,
) -> (String, String, String) {
    let a = c.analysis;
    let mean = &change.mean;
    let to_thrpt = |r: f64| 1.0 / (1.0 + r) - 1.0;
    match change.verdict {
        Verdict::Improved => (
            s.green(&s.bold(&format::change(mean.point, true))),
            s.green(&s.bold(&format::change(to_thrpt(mean.point), true))),
            format!("Performance has {}.", s.green("improved")),
        ),
        Verdict::Regressed => (
            s.red(&s.bold(&format::change(mean.point, true))),
            s.red(&s.bold(&format::change(to_thrpt(mean.point), true))),
            format!("Performance has {}.", s.red("regressed")),
        ),
        Verdict::WithinNoise if c.drift.is_some() => (
            format::change(mean.point, true),
            format::change(to_thrpt(mean.point), true),
            format!(
                "Change within machine drift (±{:.1}%, measured by cargo yardstick calibrate).",
                c.drift.unwrap_or_default() * 100.0
            ),
        ),
        Verdict::WithinNoise if layout_spread(a).is_some() => (
            format::change(mean.point, true),
            format::change(to_thrpt(mean.point), true),
            layout_line(a),
        ),
        _ if too_noisy(c).is_some() => (
            format::change(mean.point, true),
            format::change(to_thrpt(mean.point), true),
            format!(
                "Too noisy to tell: this machine's run-to-run noise is ±{:.1}% here, and changes under that cannot be told from noise; compare in lock-step with cargo yardstick ab.",
                too_noisy(c).unwrap_or_default() * 100.0
            ),
        ),
        v => (
            format::change(mean.point, true),
            format::change(to_thrpt(mean.point), true),
            v.message().to_owned(),
        ),
    }
}

/// Under a lock-step comparison: how it was measured, and what the
/// instructions or the unsampled code layout say of its verdict.
fn lockstep_lines(
    a: &crate::analysis::Analysis,
    ls: &crate::analysis::Lockstep,
    change: &yardstick_stats::Change,
    s: &Style,
) -> Vec<String> {
    let mut lines = Vec::new();
    lines.push(format!(
        "{INDENT}{}",
        s.faint(&format!(
            "Measured in lock-step with the baseline's binary ({} process pairs, {} rounds{}).{}",
            ls.pairs,
            ls.rounds,
            match ls.layouts {
                0 | 1 => String::new(),
                n => format!(", {n} code layouts of each build"),
            },
            ls.longer_rounds().map_or_else(String::new, longer_rounds)
        ))
    ));
    let verdict = change.verdict.is_change();
    if let (true, Some((was, now))) = (verdict, ls.instructions_changed) {
        lines.push(format!(
            "{INDENT}{}",
            s.faint(&instructions_line(
                (was, now),
                ls,
                a.suite.is_some_and(|j| j.alone),
                past(a, ls.layout_spread.unwrap_or(f64::INFINITY)),
            ))
        ));
    } else if let (true, Some(r)) = (verdict, ls.rewritten) {
        let alone = a.suite.is_some_and(|j| j.alone);
        lines.push(format!("{INDENT}{}", s.faint(&rewritten_line(r, alone))));
    } else if verdict && ls.same_code == Some(true) {
        lines.push(format!("{INDENT}{}", s.faint(SAME_CODE)));
    } else if verdict && !ls.layouts_measured && !ls.same_build && ls.layouts < 2 {
        lines.push(format!("{INDENT}{}", s.faint(LAYOUT_NOT_SAMPLED)));
    }
    lines
}

/// Under a lock-step verdict between two builds most of whose functions
/// differ (`runner::lockstep`'s `REWRITTEN_SHARE`): nothing was counted,
/// and where the suite's error rate would have held it, it was judged
/// alone.
fn rewritten_line(r: yardstick_format::change::RewrittenFile, alone: bool) -> String {
    let how = if alone {
        "its code changed with them, so it is judged alone, not at its share of the suite's error rate"
    } else {
        "the whole build changed (other compiler flags, another toolchain), not this benchmark's code alone"
    };
    format!(
        "{} of the baseline's {} functions differ in this build: {how}; nothing was counted under Callgrind.",
        super::numbers::grouped(r.changed as f64, 0),
        super::numbers::grouped(r.functions as f64, 0),
    )
}

/// Under a lock-step verdict between two builds with the same functions
/// (`explain::code`): what changed is not an instruction.
const SAME_CODE: &str = "No function differs between the two builds (their code compared, addresses aside): the change is in where the code lies or what it reads (layout, memory, data), not in what it runs.";

/// The line saying what the comparison alone would have been called, when
/// holding the suite's error rate took its verdict away.
fn suite_line(
    j: &crate::analysis::SuiteJudgement,
    change: &yardstick_stats::Change,
) -> Option<String> {
    let word = match j.one_by_one {
        Verdict::Regressed => "regressed",
        Verdict::Improved => "improved",
        _ => return None,
    };
    (j.one_by_one != change.verdict).then(|| {
        format!(
            "Alone it would be called {word} (p = {:.4} < {:.2}); not among the {} comparisons of this run, whose verdicts hold a {:.0}% error rate between them.",
            change.p_value,
            j.alpha,
            j.planned,
            j.alpha * 100.0
        )
    })
}

/// The line saying which one the verdict follows when the interval leaves
/// out zero and the test still finds no change: a significance level
/// stricter than the interval's confidence, or samples without spread
/// (where the test is undefined). Small samples cannot disagree: their
/// interval and p-value are one analysis (`yardstick_stats::change`).
fn disagreement(change: &yardstick_stats::Change, significance: f64) -> Option<String> {
    let m = &change.mean;
    let excludes_zero = m.lower > 0.0 || m.upper < 0.0;
    (excludes_zero && change.p_value >= significance).then(|| {
        format!(
            "The {:.0}% interval leaves out zero but the test does not reject (p = {} ≥ {}): the verdict follows the test, the stricter of the two.",
            m.confidence * 100.0,
            format::p_value(change.p_value, significance),
            format::p_value(significance, significance)
        )
    })
}

/// `--verbose`'s estimates block: slope and R², mean and standard
/// deviation, median and MAD, and the power guidance.
fn verbose_lines(c: &Completed<'_>) -> Vec<String> {
    let (f, a) = (c.formatter, c.analysis);
    let mut lines = Vec::new();
    let short = |e: &Estimate| format!("[{} {}]", f.format_value(e.lower), f.format_value(e.upper));
    let e = &a.estimates;
    if let (Some(slope), Some((r2_lo, r2_hi))) = (&e.slope, a.r2_bounds) {
        lines.push(format!(
            "{:<7}{} {:<15}[{r2_lo:0.7} {r2_hi:0.7}]",
            "slope",
            short(slope),
            "R^2"
        ));
    }
    lines.push(format!(
        "{:<7}{} {:<15}{}",
        "mean",
        short(&e.mean),
        "std. dev.",
        short(&e.std_dev)
    ));
    lines.push(format!(
        "{:<7}{} {:<15}{}",
        "median",
        short(&e.median),
        "med. abs. dev.",
        short(&e.mad)
    ));
    if let Some(g) = super::power::guidance(c) {
        lines.push(super::power::verbose_line(&g));
    }
    lines
}
