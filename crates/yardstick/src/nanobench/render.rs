//! `Bench::render`: the builder's results through a template, as
//! nanobench's `render()`, with the harness's template engine (MiniJinja)
//! and built-in templates (feature `templates`).

use std::fmt;
use std::io::Write;
use std::path::Path;

use yardstick_format::criterion::{BenchmarkRecord, SamplingMode, SavedSample, Throughput};
use yardstick_report::{BenchmarkReport, BenchmarkResult, Builtin, RunResults};

use super::{Bench, BenchResult};

/// The built-in templates' sources, as nanobench's
/// `ankerl::nanobench::templates`: pass one to [`Bench::render`], or start a
/// template of your own from it.
pub mod templates {
    use yardstick_report::Builtin;

    /// A row per result: ids, unit, estimates, err%, min/max, counts.
    #[must_use]
    pub fn csv() -> &'static str {
        Builtin::Csv.source()
    }

    /// Everything, as JSON.
    #[must_use]
    pub fn json() -> &'static str {
        Builtin::Json.source()
    }

    /// A self-contained HTML page with a box plot per result (nanobench's
    /// `htmlBoxplot`, drawn as inline SVG).
    #[must_use]
    pub fn html_boxplot() -> &'static str {
        Builtin::Html.source()
    }

    /// pyperf's JSON format 1.0, for `python3 -m pyperf stats|hist|compare_to`.
    #[must_use]
    pub fn pyperf() -> &'static str {
        Builtin::Pyperf.source()
    }
}

/// Why [`Bench::render`] could not render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderError(String);

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RenderError {}

impl Bench<'_> {
    /// Renders the kept results through `template` (MiniJinja source: one
    /// of [`templates`] or your own) into `out`, as nanobench's
    /// `Bench::render`. The context is the harness's (`title`,
    /// `benchmarks`, see the user guide's *Templates* chapter): `title` is the bench's
    /// title; each result is a benchmark whose `group` is its title,
    /// `function` its name, `typical` its median, `err_percent` nanobench's
    /// err%, `samples` its epochs, `throughput` its batch, and `context`
    /// its [`context`](Bench::context) values.
    ///
    /// # Errors
    ///
    /// When the template does not parse or names a value that is not there
    /// (`{{ b.context.foo }}` after [`clear_context`](Bench::clear_context),
    /// as nanobench throws), when a result has fewer than two epochs (or
    /// none: its body was optimised away), or when `out` fails.
    ///
    /// ```
    /// use std::time::Duration;
    /// use yardstick::nanobench::{templates, Bench};
    ///
    /// let mut csv = Vec::new();
    /// Bench::new()
    ///     .output(None)
    ///     .run_custom("std::vector", |n| Duration::from_nanos(7 * n))
    ///     .render(templates::csv(), &mut csv)?;
    /// assert!(String::from_utf8(csv).unwrap().contains("std::vector"));
    /// # Ok::<(), yardstick::nanobench::RenderError>(())
    /// ```
    pub fn render(&self, template: &str, mut out: impl Write) -> Result<(), RenderError> {
        let run = self.run_results()?;
        let text = yardstick_report::render_template(template, &run)
            .map_err(|e| RenderError(e.to_string()))?;
        write(&mut out, &text)
    }

    /// [`render`](Self::render) with the template read from `path`
    /// (escaped for HTML when the name ends in `.html`, `.htm`, `.xml` or
    /// `.svg`); `csv`, `json`, `html` and `pyperf` name the built-ins.
    ///
    /// # Errors
    ///
    /// As [`render`](Self::render), and when the file cannot be read.
    pub fn render_file(
        &self,
        path: impl AsRef<Path>,
        mut out: impl Write,
    ) -> Result<(), RenderError> {
        let path = path.as_ref();
        let run = self.run_results()?;
        let text = match path.to_str().and_then(Builtin::from_name) {
            Some(b) => b.render(&run),
            None => yardstick_report::render_template_file(path, &run),
        }
        .map_err(|e| RenderError(e.to_string()))?;
        write(&mut out, &text)
    }

    fn run_results(&self) -> Result<RunResults, RenderError> {
        let results = self
            .results
            .iter()
            .map(result)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RunResults::new(self.config.title.clone(), results))
    }
}

fn write(out: &mut impl Write, text: &str) -> Result<(), RenderError> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| RenderError(format!("could not write the rendered template: {e}")))
}

/// One result as the harness's data model: its epochs are the samples
/// (flat: each has its own iteration count), analysed by the same
/// bootstrap as a `cargo bench` run.
fn result(r: &BenchResult) -> Result<BenchmarkResult, RenderError> {
    let epochs = r.epochs();
    if epochs.len() < 2 {
        return Err(RenderError(format!(
            "`{}` has {} epoch{}: a template needs at least 2{}",
            r.name(),
            epochs.len(),
            if epochs.len() == 1 { "" } else { "s" },
            if r.overflowed() {
                " (its body was optimised away)"
            } else {
                " (set epochs(2) or more)"
            }
        )));
    }
    let sample = SavedSample {
        sampling_mode: SamplingMode::Flat,
        iters: epochs.iter().map(|e| e.iterations as f64).collect(),
        times: epochs.iter().map(|e| e.elapsed.as_nanos() as f64).collect(),
        processes: None,
        measurement: None,
    };
    let boot = yardstick_stats::BootstrapConfig {
        nresamples: 10_000,
        confidence: 0.95,
        seed: crate::analysis::SEED,
    };
    let estimates = yardstick_stats::estimates(&sample.iters, &sample.times, false, &boot)
        .map_err(|e| RenderError(format!("`{}`: {e}", r.name())))?;
    let averages: Vec<f64> = epochs.iter().map(|e| e.ns_per_iteration()).collect();
    let tukey = yardstick_stats::classify(&averages);
    let value = r.complexity_n().map(|n| n.to_string());
    let full_id = [Some(r.title()), Some(r.name()), value.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("/");
    let record = BenchmarkRecord {
        group_id: r.title().to_owned(),
        function_id: Some(r.name().to_owned()),
        value_str: value,
        throughput: (r.batch() > 1).then(|| {
            if r.unit() == "byte" {
                Throughput::Bytes(r.batch())
            } else {
                Throughput::Elements(r.batch())
            }
        }),
        title: full_id.clone(),
        full_id,
        directory_name: String::new(),
    };
    let mut b = BenchmarkResult::from_report(&BenchmarkReport {
        record: &record,
        sample: &sample,
        unit: "ns",
        estimates: &estimates,
        distributions: None,
        tukey: &tukey,
        baseline: None,
        change: None,
        change_distributions: None,
        lockstep: None,
        explanation: None,
        build_line: None,
    });
    // nanobench's figures: the median is the headline, err% is the median
    // absolute percentage error of the epochs.
    b.typical = b.median;
    b.err_percent = r.err().unwrap_or(0.0) * 100.0;
    b.context = r.config.context.iter().cloned().collect();
    Ok(b)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// nanobench's `tutorial_context` on a fake clock: the context shows in
    /// a template, survives a new title, and after `clear_context` the
    /// template's `context.foo` is missing and rendering fails.
    #[test]
    fn context_as_in_nanobenchs_tutorial() {
        let csv = "\"title\";\"name\";\"scalar\";\"foo\";\"elapsed\"\n\
            {% for b in benchmarks %}\"{{ b.group }}\";\"{{ b.function }}\";\"{{ b.context.scalar }}\";\"{{ b.context.foo }}\";{{ b.median.estimate }}\n{% endfor %}";
        let mut bench = Bench::new();
        bench.title("Addition").output(None).epochs(3);
        bench
            .context("scalar", "f32")
            .context("foo", "bar")
            .run_custom("+=", |n| Duration::from_nanos(2 * n))
            .run_custom("fma", |n| Duration::from_nanos(3 * n));
        bench
            .context("scalar", "f64")
            .context("foo", "baz")
            .run_custom("+=", |n| Duration::from_nanos(4 * n));
        let mut out = Vec::new();
        bench.render(csv, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"title\";\"name\";\"scalar\";\"foo\";\"elapsed\"\n\
             \"Addition\";\"+=\";\"f32\";\"bar\";2.0\n\
             \"Addition\";\"fma\";\"f32\";\"bar\";3.0\n\
             \"Addition\";\"+=\";\"f64\";\"baz\";4.0\n"
        );
        // A new title resets the results, not the context.
        bench
            .title("New Title")
            .run_custom("+=", |n| Duration::from_nanos(2 * n));
        assert_eq!(bench.results().len(), 1);
        assert_eq!(bench.results()[0].context("foo"), Some("baz"));
        // The context must be reset by hand, and then rendering fails.
        bench
            .title("Yet Another Title")
            .clear_context()
            .run_custom("+=", |n| Duration::from_nanos(2 * n));
        let err = bench.render(csv, Vec::new()).unwrap_err();
        assert!(err.to_string().contains("undefined"), "{err}");
    }

    #[test]
    fn built_in_templates_render_the_builder() {
        let mut bench = Bench::new();
        bench
            .title("rngs")
            .output(None)
            .run_custom("a", |n| Duration::from_nanos(5 * n))
            .run_custom("b", |n| Duration::from_nanos(10 * n));
        for t in [
            templates::csv(),
            templates::json(),
            templates::html_boxplot(),
            templates::pyperf(),
        ] {
            let mut out = Vec::new();
            bench.render(t, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(text.contains('a') && text.contains('b'), "{text}");
        }
        let mut json = Vec::new();
        bench.render_file("json", &mut json).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let b = &v["benchmarks"][1];
        assert_eq!(b["function"], "b");
        assert_eq!(b["group"], "rngs");
        assert_eq!(b["typical"]["estimate"], 10.0);
        assert_eq!(b["err_percent"], 0.0);
        assert_eq!(b["samples"].as_array().unwrap().len(), 11);
    }

    #[test]
    fn too_few_epochs_and_bad_templates_are_errors() {
        let mut bench = Bench::new();
        bench
            .output(None)
            .epochs(1)
            .run_custom("one", Duration::from_nanos);
        let e = bench.render(templates::csv(), Vec::new()).unwrap_err();
        assert!(e.to_string().contains("`one` has 1 epoch"), "{e}");
        let mut bench = Bench::new();
        bench.output(None).run_custom("x", Duration::from_nanos);
        assert!(bench.render("{% for %}", Vec::new()).is_err());
        assert!(bench
            .render_file("/nonexistent/template.txt", Vec::new())
            .is_err());
    }
}
