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
        // `--explain` runs after every page is written; it rewrites the
        // page of each benchmark it explains (`explain/sink.rs`).
        explanation: None,
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

/// How a benchmark's page is written again from its saved files once
/// `--explain` has explained it: the run's baseline and the benchmark's
/// statistics settings, so that the page shows the comparison it showed.
#[cfg_attr(not(feature = "report"), allow(dead_code))]
pub(crate) struct Rewrite {
    pub directory_name: String,
    pub baseline: String,
    pub nresamples: usize,
    pub significance: f64,
    pub noise_threshold: f64,
}

/// The page to write again after explaining the benchmark of `o`, when
/// this run writes pages.
pub(crate) fn rewrite_after_explaining(run: &RunSettings, o: &Outcome<'_>) -> Option<Rewrite> {
    let baseline = match &run.baseline {
        Baseline::Discard => return None,
        Baseline::Save(b) | Baseline::CompareStrict(b) | Baseline::CompareLenient(b) => b.clone(),
    };
    (ENABLED && run.plots).then(|| Rewrite {
        directory_name: o.record.directory_name.clone(),
        baseline,
        nresamples: o.config.nresamples,
        significance: o.config.significance_level,
        noise_threshold: o.config.noise_threshold,
    })
}

/// Writes the page again from the saved files, with the explanation.
#[cfg(feature = "report")]
pub(crate) fn rewrite(home: &Path, r: &Rewrite) -> Result<(), String> {
    let opts = yardstick_report::RegenerateOptions {
        nresamples: r.nresamples,
        baseline: r.baseline.clone(),
        significance: r.significance,
        noise_threshold: r.noise_threshold,
        ..yardstick_report::RegenerateOptions::default()
    };
    yardstick_report::write_benchmark_from_disk(home, &r.directory_name, &opts)
        .map_err(|e| e.to_string())
}

#[cfg(not(feature = "report"))]
pub(crate) fn rewrite(_: &Path, _: &Rewrite) -> Result<(), String> {
    Ok(())
}

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
