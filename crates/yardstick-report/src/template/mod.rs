//! Templates, as nanobench has them: the results rendered through a
//! template, built in (`csv`, `json`, `html`, `pyperf`) or the user's own.
//!
//! Templates use [MiniJinja](https://docs.rs/minijinja) (Jinja2 syntax:
//! `{{ value }}`, `{% for b in benchmarks %}…{% endfor %}`, filters with
//! `|`). The context is a [`RunResults`]: `title`, `benchmarks` (each a
//! [`BenchmarkResult`](crate::BenchmarkResult)), plus `results` (the whole
//! run, for `{{ results|tojson }}`) and `version` (yardstick's). Besides
//! MiniJinja's built-in filters (`tojson`, `round`, `map`, `min`, `max`,
//! `length`, …) there are:
//!
//! * `csv` — an RFC 4180 field: quoted when it holds a comma, quote or line
//!   break; `none` is empty.
//! * `format_value(unit)` — a value for people, `133.68 ns` (times scaled
//!   to ps…s).
//! * `format_change` — a relative change as a signed percentage,
//!   `+2.9605%`.
//! * `truncate(n)` — text cut to `n` characters with an ellipsis.
//!
//! Output is not escaped unless the template asks (`{% autoescape true %}`
//! or `|e`), or is read from a file whose name ends in `.html`, `.htm`,
//! `.xml` or `.svg` ([`render_template_file`]).
//!
//! ```
//! use yardstick_report::{render_template, RunResults};
//!
//! let out = render_template("{{ title }}: {{ benchmarks|length }}", &RunResults::new("run", vec![]))?;
//! assert_eq!(out, "run: 0");
//! # Ok::<(), yardstick_report::ReportError>(())
//! ```

use std::path::Path;

use minijinja::value::{Serde, Value};
use minijinja::{AutoEscape, Environment, UndefinedBehavior};

use crate::results::RunResults;
use crate::units::{format_change, format_value};
use crate::ReportError;

/// The built-in templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    /// One CSV row per benchmark (header first): ids, unit, estimates,
    /// err%, min/max, sample and iteration counts, throughput, change.
    Csv,
    /// The whole data model as JSON.
    Json,
    /// A self-contained HTML page with a box plot per benchmark (inline
    /// SVG, as nanobench's `htmlBoxplot` but with no script or network).
    Html,
    /// A pyperf JSON file (format 1.0) that `python3 -m pyperf stats`,
    /// `hist` and `compare_to` read: one pyperf benchmark per benchmark,
    /// one run per sample, values in seconds per iteration.
    Pyperf,
}

impl Builtin {
    /// Every built-in template.
    pub const ALL: [Builtin; 4] = [Builtin::Csv, Builtin::Json, Builtin::Html, Builtin::Pyperf];

    /// The template by name: `csv`, `json`, `html` or `pyperf`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Its name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Csv => "csv",
            Builtin::Json => "json",
            Builtin::Html => "html",
            Builtin::Pyperf => "pyperf",
        }
    }

    /// Its source, to print or to start a template of one's own from.
    #[must_use]
    pub fn source(self) -> &'static str {
        match self {
            Builtin::Csv => include_str!("csv.txt"),
            Builtin::Json => include_str!("json.txt"),
            Builtin::Html => include_str!("html.txt"),
            Builtin::Pyperf => include_str!("pyperf.txt"),
        }
    }

    /// Renders `results` through this template.
    ///
    /// # Errors
    ///
    /// [`ReportError::Template`] if rendering fails (it does not for any
    /// results: the built-ins are tested).
    pub fn render(self, results: &RunResults) -> Result<String, ReportError> {
        match self {
            // One writer of pyperf files, with or without templates; the
            // template source says the same (tests/outputs.rs checks it).
            Builtin::Pyperf => Ok(crate::pyperf_json(results)),
            _ => render(self.name(), self.source(), results, false),
        }
    }
}

/// Renders `results` through `template` (MiniJinja syntax; see the module
/// docs for the context and filters). Nothing is escaped unless the
/// template asks.
///
/// # Errors
///
/// [`ReportError::Template`] with MiniJinja's message (which names the
/// line) when the template does not parse, names an unknown filter or
/// variable, or fails while rendering.
pub fn render_template(template: &str, results: &RunResults) -> Result<String, ReportError> {
    render("template", template, results, false)
}

/// Reads a template from `path` and renders `results` through it, with
/// HTML escaping when the file name ends in `.html`, `.htm`, `.xml` or
/// `.svg`.
///
/// # Errors
///
/// [`ReportError::Io`] when the file cannot be read, else as
/// [`render_template`].
pub fn render_template_file(path: &Path, results: &RunResults) -> Result<String, ReportError> {
    let source = std::fs::read_to_string(path).map_err(|e| ReportError::io(path, e))?;
    let escape = matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("html" | "htm" | "xml" | "svg")
    );
    let name = path.display().to_string();
    render(&name, &source, results, escape)
}

fn render(
    name: &str,
    source: &str,
    results: &RunResults,
    escape: bool,
) -> Result<String, ReportError> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_auto_escape_callback(move |_| {
        if escape {
            AutoEscape::Html
        } else {
            AutoEscape::None
        }
    });
    env.add_filter("csv", csv_filter);
    env.add_filter("format_value", |v: f64, unit: String| {
        format_value(v, &unit)
    });
    env.add_filter("format_change", |v: f64| format_change(v));
    env.add_filter("truncate", |s: String, n: usize| {
        crate::plots::group::ellipsis(&s, n)
    });
    let err = |e: minijinja::Error| ReportError::Template(describe(&e));
    env.add_template(name, source).map_err(err)?;
    let ctx = Value::from(Serde(Context {
        title: &results.title,
        benchmarks: &results.benchmarks,
        results,
        version: env!("CARGO_PKG_VERSION"),
    }));
    env.get_template(name)
        .and_then(|t| t.render(ctx))
        .map_err(err)
}

#[derive(serde::Serialize)]
struct Context<'a> {
    title: &'a str,
    benchmarks: &'a [crate::results::BenchmarkResult],
    results: &'a RunResults,
    version: &'static str,
}

fn describe(e: &minijinja::Error) -> String {
    let mut msg = match e.detail() {
        Some(d) => format!("{}: {d}", e.kind()),
        None => e.kind().to_string(),
    };
    if let (Some(name), Some(line)) = (e.name(), e.line()) {
        msg.push_str(&format!(" ({name}, line {line})"));
    }
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        msg.push_str(&format!(": {s}"));
        source = s.source();
    }
    msg
}

/// `csv`: an RFC 4180 field.
fn csv_filter(v: Value) -> String {
    if v.is_none() || v.is_undefined() {
        return String::new();
    }
    let s = v.to_string();
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}
