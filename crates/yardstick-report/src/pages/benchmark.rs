//! The page of one benchmark and its plots.

use std::fmt::Write;

use yardstick_format::change::LockstepFile;
use yardstick_format::criterion::{SamplingMode, SavedSample, Throughput};
use yardstick_stats::{Change, Estimate, Verdict};

use super::{badge, card, up_to_home, Files, Page};
use crate::escape;
use crate::plots::sample::Samples;
use crate::plots::{bootstrap, compare, sample, SMALL, WIDE};
use crate::units::{format_change, format_throughput, Scale};
use crate::BenchmarkReport;

/// Every plot file a benchmark report may have, so that those an earlier
/// report wrote and this one does not are removed.
pub(crate) const ALL_PLOTS: &[&str] = &[
    "pdf.svg",
    "regression.svg",
    "iteration_times.svg",
    "slope.svg",
    "mean.svg",
    "median.svg",
    "SD.svg",
    "MAD.svg",
    "both/pdf.svg",
    "both/regression.svg",
    "both/iteration_times.svg",
    "change/mean.svg",
    "change/median.svg",
    "change/t-test.svg",
    "pdf_small.svg",
    "regression_small.svg",
    "iteration_times_small.svg",
    "relative_pdf_small.svg",
    "relative_regression_small.svg",
    "relative_iteration_times_small.svg",
    super::explanation::FLAME_GRAPH,
];

/// Renders the page and its plots.
pub(crate) fn render(r: &BenchmarkReport<'_>) -> Files {
    let mut files: Files = Vec::new();
    let averages = r.sample.averages();
    let typical = r.estimates.slope.as_ref().unwrap_or(&r.estimates.mean);
    let scale = Scale::for_value(r.unit, typical.point);
    let samples = Samples {
        iters: &r.sample.iters,
        times: &r.sample.times,
        averages: &averages,
        labels: &r.tukey.labels,
        fences: r.tukey.fences,
        scale: &scale,
    };
    let mut page = Page::new(&r.record.full_id, "", &crumbs(r));
    headline(&mut page, r, &scale, typical);
    samples_section(&mut page, &mut files, r, &samples, &scale);
    bootstrap_section(&mut page, &mut files, r, &scale);
    if r.baseline.is_some() || r.change.is_some() {
        comparison(&mut page, &mut files, r, &scale);
    }
    if let Some(x) = r.explanation {
        super::explanation::section(&mut page, &mut files, x);
    }
    files.push(("index.html".to_owned(), page.finish()));
    files
}

/// The way back: all benchmarks, and the group when there is one.
fn crumbs(r: &BenchmarkReport<'_>) -> Vec<(String, String)> {
    let up = up_to_home(&r.record.directory_name);
    let mut crumbs = vec![(
        format!("{up}report/index.html"),
        "All benchmarks".to_owned(),
    )];
    if r.record.directory_name.contains('/') {
        let group_dir = r.record.directory_name.split('/').next().unwrap_or("");
        crumbs.push((
            format!(
                "{up}{}/report/{}",
                escape::href(group_dir),
                crate::GROUP_PAGE
            ),
            r.record.group_id.clone(),
        ));
    }
    crumbs
}

/// The headline figures: time, throughput, change and samples.
fn headline(page: &mut Page, r: &BenchmarkReport<'_>, scale: &Scale, typical: &Estimate) {
    page.raw("<section><div class=\"cards\">");
    page.raw(&time_card(r, scale, typical));
    if let (Some(t), "ns") = (&r.record.throughput, r.unit) {
        page.raw(&throughput_card(t, typical));
    }
    if let Some(c) = r.change {
        page.raw(&change_card(c, r.lockstep.is_some()));
    }
    page.raw(&samples_card(r));
    page.raw("</div></section>");
}

fn time_card(r: &BenchmarkReport<'_>, scale: &Scale, typical: &Estimate) -> String {
    let what = if r.estimates.slope.is_some() {
        "Time per iteration (slope)"
    } else {
        "Time per iteration (mean)"
    };
    let label = if r.unit == "ns" {
        what.to_owned()
    } else {
        what.replace("Time", "Value")
    };
    card(
        &label,
        &scale.format(typical.point),
        &format!(
            "{} – {} at {}% confidence",
            scale.format(typical.lower),
            scale.format(typical.upper),
            pct(typical.confidence)
        ),
    )
}

fn throughput_card(t: &Throughput, typical: &Estimate) -> String {
    let rates = format_throughput(t, typical.point);
    let lows = format_throughput(t, typical.upper);
    let highs = format_throughput(t, typical.lower);
    let detail = lows
        .iter()
        .zip(&highs)
        .map(|(l, h)| format!("{l} – {h}"))
        .collect::<Vec<_>>()
        .join("; ");
    card("Throughput", &rates.join(" · "), &detail)
}

/// The headline change: coloured by its verdict (red regressed, green
/// improved), never by its sign alone, since a change the test cannot tell
/// from noise is no news; a change read back without its verdict is plain.
fn change_card(c: &Change, lockstep: bool) -> String {
    let known = !c.p_value.is_nan();
    let colour = match c.verdict {
        Verdict::Regressed if known => " up",
        Verdict::Improved if known => " down",
        _ => "",
    };
    let verdict = if known {
        format!(
            "p = {:.2} {}",
            c.p_value,
            badge(crate::results::verdict_name(c.verdict))
        )
    } else {
        "verdict not saved".to_owned()
    };
    format!(
        "<div class=\"card\"><div class=\"k\">Change in mean{}</div><div class=\"v{colour}\">{}</div><div class=\"d\">{} – {} · {verdict}</div></div>",
        if lockstep { " (lock-step)" } else { "" },
        escape::html(&format_change(c.mean.point)),
        escape::html(&format_change(c.mean.lower)),
        escape::html(&format_change(c.mean.upper)),
    )
}

fn samples_card(r: &BenchmarkReport<'_>) -> String {
    let mode = match r.sample.sampling_mode {
        SamplingMode::Linear => "linear sampling",
        SamplingMode::Flat => "flat sampling",
    };
    let outliers = r.tukey.counts.total();
    card(
        "Samples",
        &format!("{}", r.sample.iters.len()),
        &format!(
            "{mode}, {} iterations, {} outlier{} ({:.0}%)",
            count(r.sample.iters.iter().sum::<f64>()),
            outliers,
            if outliers == 1 { "" } else { "s" },
            outliers as f64 * 100.0 / r.sample.iters.len().max(1) as f64
        ),
    )
}

/// The samples: their density, the regression (or the iteration times
/// under flat sampling) and the table of statistics.
fn samples_section(
    page: &mut Page,
    files: &mut Files,
    r: &BenchmarkReport<'_>,
    samples: &Samples<'_>,
    scale: &Scale,
) {
    page.section("Samples", "");
    page.raw("<div class=\"plots\">");
    let mean = r.estimates.mean.point;
    let pdf_file = push(files, "pdf.svg", sample::pdf(samples, mean, WIDE));
    // The thumbnails Criterion.rs writes beside each plot, which the index
    // and group pages show (and scripts written for Criterion.rs expect).
    push(files, "pdf_small.svg", sample::pdf(samples, mean, SMALL));
    page.figure(
        pdf_file,
        "probability density",
        "<b>Probability density</b> of the time per iteration; dots are the samples (amber: mild outliers, red: severe), dashed lines the outlier fences.",
        "The samples have no spread: every sample took the same time per iteration.",
    );
    match &r.estimates.slope {
        Some(slope) if r.sample.sampling_mode == SamplingMode::Linear => {
            let svg = sample::regression(samples, slope, WIDE);
            let f = push(files, "regression.svg", Some(svg));
            let small = sample::regression(samples, slope, SMALL);
            push(files, "regression_small.svg", Some(small));
            page.figure(
                f,
                "regression",
                "<b>Regression</b>: total time of each sample against its iterations, with the fitted line and its confidence band.",
                "",
            );
        }
        _ => {
            let svg = sample::iteration_times(samples, mean, WIDE);
            let f = push(files, "iteration_times.svg", Some(svg));
            let small = sample::iteration_times(samples, mean, SMALL);
            push(files, "iteration_times_small.svg", Some(small));
            page.figure(
                f,
                "iteration times",
                "<b>Iteration times</b>: time per iteration of each sample in order (flat sampling has no regression).",
                "",
            );
        }
    }
    page.raw("</div>");
    page.raw(&statistics_table(r, scale));
    page.end_section();
}

/// One statistic's bootstrap plot: file, name, estimate, distribution.
type Statistic<'r> = (&'static str, &'static str, &'r Estimate, Option<&'r [f64]>);

/// The statistics with a bootstrap distribution, slope first when there
/// is one.
fn statistics<'r>(r: &BenchmarkReport<'r>) -> Vec<Statistic<'r>> {
    let e = r.estimates;
    let d = r.distributions;
    let mut stats: Vec<Statistic<'r>> = Vec::new();
    if let Some(s) = &e.slope {
        stats.push(("slope.svg", "Slope", s, d.map(|d| &d.slope[..])));
    }
    stats.push(("mean.svg", "Mean", &e.mean, d.map(|d| &d.mean[..])));
    stats.push(("median.svg", "Median", &e.median, d.map(|d| &d.median[..])));
    stats.push(("SD.svg", "Std. dev.", &e.std_dev, d.map(|d| &d.std_dev[..])));
    stats.push(("MAD.svg", "MAD", &e.mad, d.map(|d| &d.mad[..])));
    stats
}

/// The bootstrap distribution of each statistic.
fn bootstrap_section(page: &mut Page, files: &mut Files, r: &BenchmarkReport<'_>, scale: &Scale) {
    page.section(
        "Bootstrap distributions",
        "shaded: the confidence interval; line: the estimate",
    );
    page.raw("<div class=\"plots small\">");
    for (file, name, est, dist) in statistics(r) {
        let svg = dist
            .filter(|d| !d.is_empty())
            .and_then(|d| bootstrap::distribution(d, est, scale, name, SMALL));
        let f = push(files, file, svg);
        let caption = format!(
            "<b>{name}</b> {} <span class=\"dim\">[{} {}]</span>",
            escape::html(&scale.format(est.point)),
            escape::html(&scale.format(est.lower)),
            escape::html(&scale.format(est.upper))
        );
        let why = if dist.is_none() {
            "No bootstrap distribution was kept for this run."
        } else {
            "The bootstrap distribution has no spread."
        };
        page.figure(f, name, &caption, why);
    }
    page.raw("</div>");
    page.end_section();
}

/// The comparison with the baseline: both runs' plots when the baseline's
/// samples are at hand, then the change, its plots and its verdict.
fn comparison(page: &mut Page, files: &mut Files, r: &BenchmarkReport<'_>, scale: &Scale) {
    let legend = if r.baseline.is_some() {
        "orange: baseline, blue: this run"
    } else {
        ""
    };
    page.section("Change from the baseline", legend);
    if let Some(base) = r.baseline {
        both_runs(page, files, r, base, scale);
    }
    if let Some(c) = r.change {
        change_plots(page, files, r, c);
        page.raw(&change_table(c, r.lockstep, r.build_line));
    }
    page.end_section();
}

/// Both runs' densities, and their regressions or iteration times.
fn both_runs(
    page: &mut Page,
    files: &mut Files,
    r: &BenchmarkReport<'_>,
    base: &SavedSample,
    scale: &Scale,
) {
    page.raw("<div class=\"plots\">");
    let base_avg = base.averages();
    let new_avg = r.sample.averages();
    let both = compare::both_pdf(&base_avg, &new_avg, scale, WIDE);
    let f = push(files, "both/pdf.svg", both);
    let small = compare::both_pdf(&base_avg, &new_avg, scale, SMALL);
    push(files, "relative_pdf_small.svg", small);
    page.figure(
        f,
        "both runs",
        "<b>Both runs</b>: densities of the time per iteration.",
        "Neither run has any spread.",
    );
    if base.sampling_mode == SamplingMode::Linear && r.sample.sampling_mode == SamplingMode::Linear
    {
        both_regressions(page, files, r, base, scale);
    } else {
        both_iteration_times(page, files, &base_avg, &new_avg, scale);
    }
    page.raw("</div>");
}

fn both_regressions(
    page: &mut Page,
    files: &mut Files,
    r: &BenchmarkReport<'_>,
    base: &SavedSample,
    scale: &Scale,
) {
    let svg = compare::both_regression(
        (&base.iters, &base.times),
        (&r.sample.iters, &r.sample.times),
        &scale.source_unit,
        WIDE,
    );
    let f = push(files, "both/regression.svg", Some(svg));
    let small = compare::both_regression(
        (&base.iters, &base.times),
        (&r.sample.iters, &r.sample.times),
        &scale.source_unit,
        SMALL,
    );
    push(files, "relative_regression_small.svg", Some(small));
    page.figure(
        f,
        "both regressions",
        "<b>Both regressions</b>: samples and fitted lines of both runs.",
        "",
    );
}

fn both_iteration_times(
    page: &mut Page,
    files: &mut Files,
    base_avg: &[f64],
    new_avg: &[f64],
    scale: &Scale,
) {
    let svg = compare::both_iteration_times(base_avg, new_avg, scale, WIDE);
    let f = push(files, "both/iteration_times.svg", Some(svg));
    let small = compare::both_iteration_times(base_avg, new_avg, scale, SMALL);
    push(files, "relative_iteration_times_small.svg", Some(small));
    page.figure(
        f,
        "both iteration times",
        "<b>Iteration times</b> of both runs.",
        "",
    );
}

/// The change's bootstrap distributions and its t-test.
fn change_plots(page: &mut Page, files: &mut Files, r: &BenchmarkReport<'_>, c: &Change) {
    page.raw("<div class=\"plots small\" style=\"margin-top:14px\">");
    let pct = Scale::percent();
    let d = r.change_distributions;
    let mut changes = vec![(
        "change/mean.svg",
        "Change in mean",
        &c.mean,
        d.map(|d| &d.mean[..]),
    )];
    // Lock-step measures the ratio of the two binaries' times per
    // iteration, round by round: there is no median change to show.
    if r.lockstep.is_none() {
        changes.push((
            "change/median.svg",
            "Change in median",
            &c.median,
            d.map(|d| &d.median[..]),
        ));
    }
    for (file, name, est, dist) in changes {
        let svg = dist
            .filter(|d| !d.is_empty())
            .and_then(|d| bootstrap::distribution(d, est, &pct, "Relative change", SMALL));
        let f = push(files, file, svg);
        let caption = format!(
            "<b>{name}</b> {} <span class=\"dim\">[{} {}]</span>",
            escape::html(&format_change(est.point)),
            escape::html(&format_change(est.lower)),
            escape::html(&format_change(est.upper))
        );
        page.figure(
            f,
            name,
            &caption,
            "No bootstrap distribution was kept for this comparison.",
        );
    }
    if c.p_value.is_nan() {
        page.raw("</div>");
        return;
    }
    let t = d
        .filter(|d| !d.t.is_empty())
        .and_then(|d| compare::t_test(&d.t, c.t, SMALL));
    let f = push(files, "change/t-test.svg", t);
    let caption = format!(
        "<b>t-test</b>: t = {:.3}, p = {:.3} {}",
        c.t,
        c.p_value,
        badge(crate::results::verdict_name(c.verdict))
    );
    page.figure(
        f,
        "t-test",
        &caption,
        "No t distribution was kept for this comparison.",
    );
    page.raw("</div>");
}

/// The change's table and verdict, how it was measured when in lock-step
/// (the mean's row alone: the rounds' ratio has no median), and how the
/// two builds differ when they do (a reason the numbers may have moved).
fn change_table(c: &Change, lockstep: Option<LockstepFile>, build_line: Option<&str>) -> String {
    let mut t = String::from("<div class=\"tw\" style=\"margin-top:14px\"><table><tr><th class=\"l\">Change</th><th>Lower bound</th><th>Estimate</th><th>Upper bound</th></tr>");
    let rows: &[(&str, &Estimate)] = if lockstep.is_some() {
        &[("Mean", &c.mean)]
    } else {
        &[("Mean", &c.mean), ("Median", &c.median)]
    };
    for (name, e) in rows {
        let _ = write!(
            t,
            "<tr><td class=\"l\">{name}</td><td>{}</td><td class=\"est\">{}</td><td>{}</td></tr>",
            format_change(e.lower),
            format_change(e.point),
            format_change(e.upper)
        );
    }
    t.push_str("</table></div>");
    if c.p_value.is_nan() {
        t.push_str("<p class=\"legend\">The run's p-value and verdict were not saved with this change (files written by Criterion.rs or an earlier yardstick).</p>");
    } else {
        let _ = write!(
            t,
            "<p class=\"legend\">{} (p = {:.2})</p>",
            escape::html(c.verdict.message()),
            c.p_value
        );
    }
    if let Some(l) = lockstep {
        let layouts = match l.layouts {
            0 | 1 => String::new(),
            n => format!(", {n} code layouts of each build"),
        };
        let _ = write!(
            t,
            "<p class=\"legend\">Measured in lock-step with the baseline's binary ({} process pairs, {} rounds{layouts}): the change is the ratio of the two binaries' times per iteration, measured in alternating rounds.</p>",
            l.pairs, l.rounds
        );
    }
    if let Some(line) = build_line {
        // The terminal's line, as a sentence.
        let mut chars = line.chars();
        let sentence: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        let _ = write!(
            t,
            "<p class=\"legend build\">{}.</p>",
            escape::html(&sentence)
        );
    }
    t
}

fn statistics_table(r: &BenchmarkReport<'_>, scale: &Scale) -> String {
    let e = r.estimates;
    let mut t = String::from("<div class=\"tw\" style=\"margin-top:14px\"><table><tr><th class=\"l\">Statistic</th><th>Lower bound</th><th>Estimate</th><th>Upper bound</th><th>Std. error</th></tr>");
    let mut row = |name: &str, est: &Estimate| {
        let _ = write!(
            t,
            "<tr><td class=\"l\">{name}</td><td>{}</td><td class=\"est\">{}</td><td>{}</td><td class=\"dim\">{}</td></tr>",
            escape::html(&scale.format(est.lower)),
            escape::html(&scale.format(est.point)),
            escape::html(&scale.format(est.upper)),
            escape::html(&scale.format(est.standard_error)),
        );
    };
    if let Some(s) = &e.slope {
        row("Slope", s);
    }
    row("Mean", &e.mean);
    row("Median", &e.median);
    row("Std. dev.", &e.std_dev);
    row("MAD", &e.mad);
    if let Some(r2) = e.r2 {
        let _ = write!(
            t,
            "<tr><td class=\"l\">R²</td><td></td><td class=\"est\">{r2:.7}</td><td></td><td></td></tr>"
        );
    }
    t.push_str("</table></div>");
    let c = r.tukey.counts;
    if c.total() > 0 {
        let n = r.sample.iters.len().max(1) as f64;
        let mut parts = Vec::new();
        for (k, label) in [
            (c.low_severe, "low severe"),
            (c.low_mild, "low mild"),
            (c.high_mild, "high mild"),
            (c.high_severe, "high severe"),
        ] {
            if k > 0 {
                parts.push(format!("{k} ({:.2}%) {label}", k as f64 * 100.0 / n));
            }
        }
        let _ = write!(
            t,
            "<p class=\"legend\">Found {} outliers among {} measurements: {}.</p>",
            c.total(),
            r.sample.iters.len(),
            parts.join(", ")
        );
    }
    t
}

/// Adds `svg` as `name` to the files and returns the name, or `None` when
/// there is no plot.
fn push<'f>(files: &mut Files, name: &'f str, svg: Option<String>) -> Option<&'f str> {
    let svg = svg?;
    files.push((name.to_owned(), svg));
    Some(name)
}

fn pct(confidence: f64) -> String {
    let p = confidence * 100.0;
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0}")
    } else {
        format!("{p}")
    }
}

/// An iteration count for people: `5.05 M`, `12 k`, `950`.
fn count(n: f64) -> String {
    if n >= 1e9 {
        format!("{:.2} G", n / 1e9)
    } else if n >= 1e6 {
        format!("{:.2} M", n / 1e6)
    } else if n >= 1e4 {
        format!("{:.0} k", n / 1e3)
    } else {
        format!("{n:.0}")
    }
}
