//! What relinking alone may move a benchmark by, when a comparison of two
//! different builds ran one code layout of each side: a change within it
//! is not a verdict. In order: the spread `cargo yardstick calibrate
//! --layouts` measured; what earlier rebuilds moved the benchmark by
//! (`relinks.json`), when further than the default; the default
//! ([`LAYOUT_ALLOWANCE`]).

use std::path::Path;

use yardstick_format::binary::BinaryFile;
use yardstick_stats::Verdict;

use crate::analysis::{Analysis, Lockstep, LAYOUT_ALLOWANCE};
use crate::id::FullId;
use crate::output::Terminal;
use crate::store::BenchmarkDir;
use yardstick_format::relinks::MAX_SPREAD;

/// Sets the allowance `how` is judged at (nothing when both sides ran the
/// same build or their layouts were sampled) and says the run's note once.
pub(super) fn judge_with(
    how: &mut Lockstep,
    dir: &BenchmarkDir,
    id: &FullId,
    terminal: &Terminal,
    set_up: bool,
) {
    if how.layouts >= 2 || how.same_build {
        return;
    }
    how.layout_spread = measured_layout_spread(&dir.home, id, terminal);
    how.layouts_measured = how.layout_spread.is_some();
    if how.layouts_measured {
        return;
    }
    if let Some((spread, from)) = learned_spread(dir, id, terminal) {
        how.layout_spread = Some(spread);
        how.learned_from = from;
    }
    say_layout_allowance(&dir.home, terminal, set_up);
}

/// What earlier rebuilds moved this benchmark by (the prediction bound of
/// `yardstick_stats::layouts::rebuild_bound`, at most [`MAX_SPREAD`],
/// ±8 %) and how many rebuilds, when that is wider than the default
/// allowance. Only widens: the default was measured over whole suites, and
/// a bound from a few quiet rebuilds would call the next unlucky layout a
/// change.
fn learned_spread(dir: &BenchmarkDir, id: &FullId, terminal: &Terminal) -> Option<(f64, usize)> {
    let moves = match dir.recent_relinks(crate::store::now()) {
        Ok(m) => m,
        Err(e) => {
            terminal.warning(&format!(
                "{}: ignoring what earlier rebuilds moved it by: {e}",
                id.full_id
            ));
            return None;
        }
    };
    let bound = yardstick_stats::layouts::rebuild_bound(&moves)?;
    (bound > LAYOUT_ALLOWANCE).then_some((bound.min(MAX_SPREAD), moves.len()))
}

/// Once a `cargo bench`: between two builds whose code layouts were not sampled,
/// what relinking alone moves is not a verdict.
fn say_layout_allowance(home: &Path, terminal: &Terminal, set_up: bool) {
    let how = if set_up {
        ""
    } else {
        "; after `cargo yardstick init`, every cargo bench samples code layouts and needs no allowance"
    };
    let note = format!(
        "code layout is not sampled: between two different builds, a change within ±{:.0}% is not called a regression or an improvement, since relinking the same code moves benchmarks that far here (further for a benchmark that earlier rebuilds moved further){how}",
        crate::analysis::LAYOUT_ALLOWANCE * 100.0
    );
    crate::output::said::note(terminal, home, &note);
}

/// What relinking moves this benchmark by, when `calibrate --layouts`
/// measured it for this bench target; a corrupt file is said once.
fn measured_layout_spread(home: &Path, id: &FullId, terminal: &Terminal) -> Option<f64> {
    let key = crate::store::binaries::this_key();
    match crate::store::layout_spread(home, &key, &id.full_id) {
        Ok(Some(t)) => {
            if let Some(measured) = t.capped_from {
                terminal.warning(&format!(
                    "{}: the layout spread calibrate measured (±{:.1}%) is wider than the ±{:.0}% an allowance may take, so that a +10% change stays a verdict; held at ±{:.0}%",
                    id.full_id,
                    measured * 100.0,
                    t.spread * 100.0,
                    t.spread * 100.0
                ));
            }
            Some(t.spread)
        }
        Ok(None) => None,
        Err(e) => {
            let note = format!("ignoring the measured layout spread: {e}");
            if crate::output::first_time(&note) {
                terminal.warning(&note);
            }
            None
        }
    }
}

/// A change past the layout allowance between two builds whose layouts
/// were not sampled (the default ±5 %, a learned or a calibrated one),
/// judged by what the code runs: both sides' instructions, as the count
/// before measuring found them when it found them different, else
/// counted now under Callgrind (as `--explain` counts it).
///
/// - both sides execute the same instructions: the change is how the code
///   runs (its layout, memory placement), not what it runs, and no
///   verdict. On the trust suite, `fib/*` moved ±17–20 % with every
///   rebuild that changed a constant elsewhere, further than an allowance
///   may take (±8 %); on base64's suite, a never-called function added to
///   the bench file moved `decode_small_input/decode/3` by +10.8 %.
/// - they differ: what the code runs changed, and the verdict stands.
///
/// A change within the allowance is `runner::code_changed`'s: a change
/// that comes and goes with every build (hex's `hex_encode` at +10 %)
/// teaches the allowance its own size, and only its instructions then tell
/// it from a rebuild's move. Without Valgrind, or when counting fails, the
/// judgement stands and one line says why.
pub(super) fn check_instructions(analysis: &mut Analysis, counting: &Counting<'_>) {
    let Some(how) = analysis.lockstep else {
        return;
    };
    let Some(change) = analysis.change.as_ref() else {
        return;
    };
    // No allowance: identical builds, or their layouts sampled.
    if how.layout_spread.is_none() || !change.verdict.is_change() {
        return;
    }
    // Most of the build's functions differ: its code changed, known before
    // measuring, and same instructions would not undo the verdict
    // (`Analysis::ran_changed_code`). Counting each such verdict took hex's
    // runs with every function changed from 13–22 s to 23–28 s.
    if how.rewritten.is_some() {
        return;
    }
    // Counted before measuring and found other: proof enough. Found the
    // same, it is not: its dozen iterations of a 150 µs routine can miss
    // a change that runs once in ten calls (hex's `hex_encode` at +10 %),
    // which the count of about 20 ms of native time sees. (Found other is
    // what gave it longer rounds: `explain::each::Counts::changed`.)
    let (was, now) = match how.counted_first.filter(|c| c.longer_rounds) {
        Some(c) => (c.baseline, c.current),
        None => {
            let unchecked = "a change past what relinking moves, between two builds whose code layouts were not sampled, is not checked against the instructions both sides execute";
            let Some(e) = counted_both(analysis, counting, (unchecked, "the verdict stands"))
            else {
                return;
            };
            (e.baseline_instructions, e.current_instructions)
        }
    };
    if crate::explain::same_count(was, now) && !how.ran_changed_code() {
        judged(analysis, Verdict::WithinNoise);
        analysis.lockstep = Some(Lockstep {
            same_instructions: Some(was),
            ..how
        });
        return;
    }
    analysis.lockstep = Some(Lockstep {
        instructions_changed: Some((was, now)),
        ..how
    });
}

/// Sets the comparison's verdict, alone and held at the suite's level
/// alike: the instructions decide it the same way for both.
fn judged(analysis: &mut Analysis, verdict: Verdict) {
    if let Some(ch) = analysis.change.as_mut() {
        ch.verdict = verdict;
    }
    if let Some(s) = analysis.suite.as_mut() {
        s.one_by_one = verdict;
    }
}

/// What counting a comparison's instructions needs: the benchmark, its
/// folder, the kept binaries of both sides (the baseline's and this
/// run's), and where to say why it could not.
pub(super) struct Counting<'a> {
    pub id: &'a FullId,
    pub dir: &'a BenchmarkDir,
    pub binaries: (Option<&'a BinaryFile>, Option<&'a BinaryFile>),
    pub terminal: &'a Terminal,
}

/// Both sides of `analysis` counted under Callgrind, as `--explain` counts
/// them, and saved as it saves them (the page and the history show what
/// was counted, and no earlier explanation stays beside these profiles).
/// `None` without the baseline's kept binary, when Valgrind is missing (a
/// note once a run: `{missing}: {unchecked}`) or counting fails (a warning
/// ending `; {otherwise}`).
pub(super) fn counted_both(
    analysis: &Analysis,
    counting: &Counting<'_>,
    (unchecked, otherwise): (&str, &str),
) -> Option<crate::explain::ExplainFile> {
    let Counting {
        id,
        dir,
        binaries: (Some(baseline), this),
        terminal,
    } = *counting
    else {
        return None;
    };
    if let Err(missing) = valgrind() {
        crate::output::said::note(terminal, &dir.home, &format!("{missing}: {unchecked}"));
        return None;
    }
    let scratch = dir.sub("explain");
    let per_iteration_ns = analysis.typical().point;
    let e = match crate::explain::too_slow_to_check(per_iteration_ns) {
        Some(why) => Err(why),
        None => crate::explain::Target::of_comparison(
            &dir.home,
            &id.full_id,
            baseline,
            this,
            per_iteration_ns,
        )
        .and_then(|target| crate::explain::explain(&target, &scratch)),
    };
    let e = match e {
        Ok(e) => e,
        Err(why) => {
            terminal.warning(&format!(
                "{}: instructions not counted ({why}); {otherwise}",
                id.full_id
            ));
            return None;
        }
    };
    if let Err(why) = crate::explain::save(&e, &scratch) {
        terminal.warning(&format!("{}: {why}", id.full_id));
    }
    Some(e)
}

/// Whether Valgrind runs here, asked once a run.
pub(super) fn valgrind() -> Result<(), String> {
    static FOUND: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| crate::explain::valgrind().map(|_| ()))
        .clone()
}
