//! The bridge to `yardstick-report` (feature `report`, on by default): the
//! HTML pages written as benchmarks, groups and the run finish.

use std::path::Path;

use crate::cli::Baseline;
use crate::engine::{RunOutputs, RunSettings};
use crate::output::sink::{GroupEnd, Outcome, RunEnd, Sink};

/// One benchmark's results as the run-level outputs need them.
#[cfg(feature = "report")]
type Summary = yardstick_report::BenchmarkResult;
#[cfg(not(feature = "report"))]
type Summary = ();

/// The HTML report as a sink: a page per benchmark and group, the index,
/// and the run-level outputs (markdown summary, `--svg`, `--template`) from
/// the results it kept.
#[derive(Default)]
pub(crate) struct Pages {
    results: Vec<Summary>,
}

impl Sink for Pages {
    fn benchmark(&mut self, run: &RunSettings, o: &Outcome<'_>) {
        if o.loaded {
            return;
        }
        if run.outputs.any() {
            #[cfg(feature = "report")]
            self.results
                .push(yardstick_report::BenchmarkResult::from_report(&view(o)));
        }
        if ENABLED && run.plots && run.baseline != Baseline::Discard {
            if let Err(e) = benchmark(&run.home, o) {
                run.terminal().warning(&format!(
                    "could not write the report of {}: {e}",
                    o.id.full_id
                ));
            }
        }
    }

    fn group(&mut self, run: &RunSettings, g: &GroupEnd<'_>) {
        if !run.plots || run.baseline == Baseline::Discard {
            return;
        }
        if let Err(e) = group(&run.home, g.id, g.log_scale) {
            run.terminal().warning(&format!(
                "could not write the report of group {}: {e}",
                g.id
            ));
        }
    }

    fn finish(&mut self, run: &RunSettings, end: &RunEnd<'_>) -> Vec<(String, String)> {
        // --discard-baseline writes nothing, the report's index included.
        if run.plots && run.baseline != Baseline::Discard && end.measured > 0 {
            if let Err(e) = index(&run.home) {
                run.terminal()
                    .warning(&format!("could not write the report index: {e}"));
            }
        }
        if !run.outputs.any() {
            return Vec::new();
        }
        finish(&run.outputs, std::mem::take(&mut self.results))
            .into_iter()
            .map(|problem| ("run outputs".to_owned(), problem))
            .collect()
    }
}

#[cfg(feature = "report")]
fn view<'a>(o: &'a Outcome<'_>) -> yardstick_report::BenchmarkReport<'a> {
    let a = o.analysis;
    yardstick_report::BenchmarkReport {
        record: &o.record,
        sample: &o.sample,
        unit: o.unit,
        estimates: &a.estimates,
        distributions: a.distributions.as_ref(),
        tukey: &a.tukey,
        baseline: o.baseline,
        change: a.change.as_ref(),
        change_distributions: a.change_distributions.as_ref(),
        lockstep: a.lockstep.map(|l| l.file()),
        build_line: o.build_line.as_deref(),
    }
}

/// Writes the run-level outputs; each problem is one line.
#[cfg(feature = "report")]
fn finish(outputs: &RunOutputs, results: Vec<Summary>) -> Vec<String> {
    let run = yardstick_report::RunResults::new("yardstick", results);
    let mut problems = Vec::new();
    if outputs.markdown {
        crate::output::out!("{}", yardstick_report::markdown_summary(&run));
    }
    if let Some(path) = &outputs.svg {
        if let Err(e) =
            crate::store::write_atomic(path, yardstick_report::quick_svg(&run).as_bytes())
        {
            problems.push(format!("--svg: {e}"));
        }
    }
    if let Some(t) = &outputs.template {
        match render(t, &run) {
            Ok(text) => match &outputs.template_output {
                Some(path) => {
                    if let Err(e) = crate::store::write_atomic(path, text.as_bytes()) {
                        problems.push(format!("--template-output: {e}"));
                    }
                }
                None => crate::output::out!("{text}"),
            },
            Err(e) => problems.push(format!("--template {t}: {e}")),
        }
    }
    problems
}

#[cfg(all(feature = "report", feature = "templates"))]
fn render(template: &str, run: &yardstick_report::RunResults) -> Result<String, String> {
    match yardstick_report::Builtin::from_name(template) {
        Some(b) => b.render(run),
        None => yardstick_report::render_template_file(Path::new(template), run),
    }
    .map_err(|e| e.to_string())
}

/// Without the template engine only pyperf's file, which is plain serde.
#[cfg(all(feature = "report", not(feature = "templates")))]
fn render(template: &str, run: &yardstick_report::RunResults) -> Result<String, String> {
    match template {
        "pyperf" => Ok(yardstick_report::pyperf_json(run)),
        _ => Err("this build has templates only for pyperf: enable yardstick's `templates` feature for csv, json, html or a file".into()),
    }
}

#[cfg(not(feature = "report"))]
fn finish(outputs: &RunOutputs, _: Vec<Summary>) -> Vec<String> {
    if outputs.any() {
        vec![
            "--output-format markdown, --svg and --template need yardstick's `report` feature"
                .into(),
        ]
    } else {
        Vec::new()
    }
}

/// Writes the page of one benchmark.
#[cfg(feature = "report")]
fn benchmark(home: &Path, o: &Outcome<'_>) -> Result<(), String> {
    yardstick_report::write_benchmark(home, &view(o)).map_err(|e| e.to_string())
}

/// Writes the page of a group from what is saved under `home`.
#[cfg(feature = "report")]
fn group(home: &Path, group_id: &str, log_scale: bool) -> Result<(), String> {
    yardstick_report::write_group(home, group_id, log_scale).map_err(|e| e.to_string())
}

/// Writes the index of every benchmark saved under `home`.
#[cfg(feature = "report")]
fn index(home: &Path) -> Result<(), String> {
    yardstick_report::write_index(home).map_err(|e| e.to_string())
}

/// Whether this build writes reports.
pub(crate) const ENABLED: bool = cfg!(feature = "report");

#[cfg(not(feature = "report"))]
fn benchmark(_: &Path, _: &Outcome<'_>) -> Result<(), String> {
    Ok(())
}

#[cfg(not(feature = "report"))]
fn group(_: &Path, _: &str, _: bool) -> Result<(), String> {
    Ok(())
}

#[cfg(not(feature = "report"))]
fn index(_: &Path) -> Result<(), String> {
    Ok(())
}

#[cfg(all(test, feature = "report"))]
mod tests {
    /// `--template pyperf` works in every build with the report, with or
    /// without the template engine (`cargo test -p yardstick` builds
    /// without it, the workspace's tests with it).
    #[test]
    fn the_pyperf_template_needs_no_template_engine() {
        let run = yardstick_report::RunResults::new("run", vec![]);
        let json = super::render("pyperf", &run).expect("pyperf renders");
        assert!(json.contains("\"version\": \"1.0\""), "{json}");
        assert!(json.contains("\"description\": \"run\""), "{json}");
        let other = super::render("csv", &run);
        assert_eq!(other.is_ok(), cfg!(feature = "templates"), "{other:?}");
    }
}
