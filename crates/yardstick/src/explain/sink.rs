//! `--explain` in the bench binary: the run's last sink. It notes each
//! benchmark whose comparison said regressed or improved, and once every
//! benchmark is measured and the run summed up, explains them one by one.

use std::path::PathBuf;

use super::Target;
use crate::engine::RunSettings;
use crate::output::sink::{Outcome, RunEnd, Sink};
use crate::output::{errln, outln};
use crate::report::Rewrite;

/// The benchmarks to explain, in the run's order.
#[derive(Default)]
pub(crate) struct Explain {
    /// Each target with the folder its files go to, and its page to
    /// write again with the explanation.
    targets: Vec<(Target, PathBuf, Option<Rewrite>)>,
    /// Those that cannot be explained, with why.
    cannot: Vec<(String, String)>,
}

impl Sink for Explain {
    fn benchmark(&mut self, run: &RunSettings, o: &Outcome<'_>) {
        // A worker never gets here: it serves requests and exits before
        // any benchmark is concluded.
        if !run.explain || o.loaded {
            return;
        }
        let changed = o
            .analysis
            .change
            .as_ref()
            .is_some_and(|c| c.verdict.is_change());
        if !changed {
            return;
        }
        let id = o.id.full_id.clone();
        let Some(baseline) = &o.baseline_binary else {
            self.cannot.push((
                id,
                "the baseline was saved without its binary (by Criterion.rs or an earlier \
                 yardstick): run the baseline again, then the change"
                    .into(),
            ));
            return;
        };
        let per_iteration_ns = o.analysis.typical().point;
        let of = Target::of_comparison(
            &run.home,
            &id,
            baseline,
            o.binary.as_ref(),
            per_iteration_ns,
        );
        let target = match of {
            Ok(t) => t,
            Err(why) => {
                self.cannot.push((id, why));
                return;
            }
        };
        let page = crate::report::rewrite_after_explaining(run, o);
        self.targets.push((target, o.dir.sub("explain"), page));
    }

    fn finish(&mut self, run: &RunSettings, _end: &RunEnd<'_>) -> Vec<(String, String)> {
        let (targets, cannot) = (
            std::mem::take(&mut self.targets),
            std::mem::take(&mut self.cannot),
        );
        if targets.is_empty() && cannot.is_empty() {
            return Vec::new();
        }
        outln!();
        if let Err(missing) = super::valgrind() {
            errln!("explain: {missing}; the verdicts stand");
            return Vec::new();
        }
        for (id, why) in cannot {
            errln!("{}", super::not_explained_line(&id, &why));
        }
        for (target, dir, page) in targets {
            match explain_one(&target, &dir) {
                Ok(text) => outln!("{text}"),
                Err(why) => {
                    errln!("{}", super::not_explained_line(&target.id, &why));
                    continue;
                }
            }
            // The page beside the verdict shows it from now on.
            if let Some(page) = page {
                if let Err(e) = crate::report::rewrite(&run.home, &page) {
                    run.terminal().warning(&format!(
                        "could not write the report of {} with its explanation: {e}",
                        target.id
                    ));
                }
            }
        }
        // Nothing here fails the run: the verdicts stand as measured.
        Vec::new()
    }
}

/// Explains one benchmark, saves `explain.json` in `dir`; the text.
fn explain_one(target: &Target, dir: &std::path::Path) -> Result<String, String> {
    let e = super::explain(target, dir)?;
    let mut text = super::render(&e);
    if let Err(err) = super::save(&e, dir) {
        text.push_str(&format!("  note: {err}\n"));
    }
    Ok(text.trim_end().to_owned())
}
