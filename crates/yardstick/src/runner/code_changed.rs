//! A comparison whose code changed is judged alone. The suite's error rate
//! leaves each comparison a small share (0.09 % of 0.05 over crc32fast's 26
//! benchmarks), which is what keeps a run quiet when nothing changed; but a
//! benchmark whose own instructions changed is not one of those: its code
//! did change, and the question left is whether its time moved with it.
//! So when its code layouts were sampled and the comparison would be a
//! verdict alone but is not at the suite's share, both sides' instructions
//! are counted under Callgrind; when they differ, its last look is judged
//! at the level alone (`yardstick_stats::sequential::TwoLooks::code_changed`),
//! and a line says why.
//!
//! Counting only when it decides is the same rule as counting every
//! benchmark first: the count does not depend on the measured time. A
//! neutral edit (a never-called function) or a rebuild leaves the
//! instructions the same, so the suite's error rate still holds for every
//! benchmark whose code did not change, and nothing is counted between two
//! byte-identical builds.

use yardstick_format::binary::BinaryFile;

use super::allowance::{counted_both, judged};
use super::Judging;
use crate::analysis::{Analysis, Lockstep};
use crate::id::FullId;
use crate::output::Terminal;
use crate::store::BenchmarkDir;

/// Judges `analysis` alone when its code changed, as the module says:
/// only where the suite's share applies (`judging.suite`; a level set by
/// the user judges every comparison alone already). Returns the level its
/// verdict was then judged at.
pub(super) fn judge(
    analysis: &mut Analysis,
    judging: &Judging,
    id: &FullId,
    dir: &BenchmarkDir,
    binaries: (Option<&BinaryFile>, Option<&BinaryFile>),
    terminal: &Terminal,
) -> Option<f64> {
    judging.suite?;
    let how = analysis.lockstep?;
    let sampled = how.layouts >= 2 && !how.same_build;
    let counted_already = how.same_instructions.is_some() || how.instructions_changed.is_some();
    if !sampled || counted_already {
        return None;
    }
    let level = judging.looks.code_changed(judging.alpha);
    let now = analysis.change.as_ref()?.verdict;
    let alone = analysis.verdict_at(level)?;
    let (Some(baseline), this) = binaries else {
        return None;
    };
    if !alone.is_change() || now.is_change() {
        return None;
    }
    let e = counted_both(
        analysis,
        id,
        dir,
        (baseline, this),
        terminal,
        (
            "a comparison whose instructions may have changed is judged at its share of the suite's error rate, not alone",
            "judged at its share of the suite's error rate",
        ),
    )?;
    if e.same {
        return None;
    }
    judged(analysis, alone);
    if let Some(s) = analysis.suite.as_mut() {
        s.level = level;
    }
    analysis.lockstep = Some(Lockstep {
        instructions_changed: Some((e.baseline_instructions, e.current_instructions)),
        ..how
    });
    Some(level)
}
