//! A comparison whose code changed is judged alone, and no layout
//! allowance excuses it. The suite's error rate leaves each comparison a
//! small share (0.09 % of 0.05 over crc32fast's 26 benchmarks), which is
//! what keeps a run quiet when nothing changed; and between two builds
//! whose code layouts were not sampled, a change within what relinking
//! alone moves (±5 %) is no verdict. Both are about code that did not
//! change: a benchmark whose own instructions changed is not one of those,
//! and the question left is whether its time moved with them.
//!
//! So when the comparison would be a verdict alone, at the lock-step
//! threshold, but is not at the suite's share or within the allowance,
//! both sides' instructions are counted under Callgrind. When they differ,
//! or the count before measuring found that an instruction it executes
//! differs between the binaries (`explain::code`, with the setup), its
//! last look is judged at the level alone
//! (`yardstick_stats::sequential::TwoLooks::code_changed`) and at the
//! lock-step threshold, and a line says why; when they are the same, a
//! change within the allowance is said to be how the code runs, not what
//! it runs.
//!
//! Counting only when it decides is the same rule as counting every
//! benchmark first: the count does not depend on the measured time. A
//! neutral edit (a never-called function) or a rebuild leaves the
//! instructions the same, so the suite's error rate and the allowance
//! still hold for every benchmark whose code did not change, and nothing
//! is counted between two byte-identical builds, nor between two whose
//! functions all have the same bytes but for where code lies
//! (`explain::code`: a neutral edit). When most of the build's functions
//! differ (`lockstep`'s `REWRITTEN_SHARE`) every benchmark's code changed
//! and nothing is counted: each is judged alone at its first look, with no
//! second (`runner::in_lockstep`); without sampled layouts the allowance
//! still holds for it, since nothing tells its layout's share. Where earlier rebuilds
//! taught a wider allowance, `allowance::check_instructions` counts
//! instead.

use super::allowance::{counted_both, Counting};
use super::Judging;
use crate::analysis::{Analysis, Lockstep};
use crate::config::BenchmarkConfig;

/// Judges `analysis` alone when its code changed, as the module says, at
/// `config`'s lock-step threshold without the allowance. Returns the
/// level its verdict was then judged at.
pub(super) fn judge(
    analysis: &mut Analysis,
    judging: &Judging,
    config: &BenchmarkConfig,
    counting: &Counting<'_>,
) -> Option<f64> {
    let how = analysis.lockstep?;
    let sampled = how.layouts >= 2 && !how.same_build;
    // Between identical builds there is no allowance (`layout_spread`).
    let allowed = how.layouts < 2 && how.layout_spread.is_some();
    let counted_already = how.same_instructions.is_some() || how.instructions_changed.is_some();
    // No function differs between the builds: nothing to count. Most of
    // them differ and no layouts were sampled: what relinking moves is not
    // told from what the build did by anything counted, so the allowance
    // stands (hex with one codegen unit against sixteen, without the
    // setup: 4–5 of 9 lines a run were verdicts, among them −1.9 % and
    // −3.9 %, where what only relinking moves reaches ±5 %).
    let rewritten_unsampled = allowed && how.rewritten.is_some();
    if !(sampled || allowed)
        || counted_already
        || how.same_code == Some(true)
        || rewritten_unsampled
    {
        return None;
    }
    let level = judging.looks.code_changed(judging.alpha);
    let threshold = crate::analysis::lockstep_threshold(config);
    let now = analysis.change.as_ref()?.verdict;
    let alone = analysis.verdict_at_threshold(level, threshold)?;
    if !alone.is_change() || now.is_change() {
        return None;
    }
    // Most of the build's functions differ: its code changed, and the
    // functions that moved would be most of the program's. Otherwise the
    // count is saved as `--explain` saves it, so the report lists them.
    let counted = if how.rewritten.is_some() {
        None
    } else {
        let unchecked = if allowed {
            (
                "a change within what relinking alone moves is not checked against the instructions both sides execute",
                "it stays within the allowance",
            )
        } else {
            (
                "a comparison whose instructions may have changed is judged at its share of the suite's error rate, not alone",
                "judged at its share of the suite's error rate",
            )
        };
        let e = counted_both(analysis, counting, unchecked)?;
        // The same instructions per iteration, but not the same
        // instructions: a change that runs once in a hundred calls is in
        // the bytes of code the benchmark executed, not in a dozen counted
        // iterations.
        if e.same && !how.ran_changed_code() {
            if allowed {
                analysis.lockstep = Some(Lockstep {
                    same_instructions: Some(e.baseline_instructions),
                    ..how
                });
            }
            return None;
        }
        Some((e.baseline_instructions, e.current_instructions))
    };
    analysis.judge_alone(level, threshold);
    analysis.lockstep = Some(Lockstep {
        instructions_changed: counted,
        ..how
    });
    Some(level)
}
