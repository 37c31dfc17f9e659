//! `b/<benchmark>.html`: per machine, the trend chart, the level shifts
//! and the table of runs.

use std::fmt::Write;

use super::chart::{scale_of, trend};
use super::index::{anchor, change};
use super::{pct, reference_point, short_commit, utc, HistorySite, Series};
use crate::escape;
use crate::pages::{card, Page};
use crate::units::{short, Scale};

/// Renders the page of benchmark `name`, whose series are `series`.
pub(crate) fn render(site: &HistorySite, name: &str, series: &[&Series]) -> String {
    let runs: usize = series.iter().map(|s| s.points.len()).sum();
    let mut page = Page::new(
        name,
        &format!(
            "{runs} runs on {} machine{}",
            series.len(),
            if series.len() == 1 { "" } else { "s" }
        ),
        &[
            ("../index.html".to_owned(), "History".to_owned()),
            ("../regressions.html".to_owned(), "Level shifts".to_owned()),
        ],
    );
    if series.len() > 1 {
        let mut nav = String::from("<p class=\"legend\">Machines: ");
        for (i, s) in series.iter().enumerate() {
            let _ = write!(
                nav,
                "{}<a href=\"#m-{}\">{}</a>",
                if i > 0 { " · " } else { "" },
                anchor(&s.machine),
                escape::html(&s.machine)
            );
        }
        nav.push_str(
            " — each machine is its own series; runs of different machines are never compared.</p>",
        );
        page.raw(&nav);
    }
    for s in series {
        machine_section(&mut page, site, s);
    }
    page.finish()
}

fn machine_section(page: &mut Page, site: &HistorySite, s: &Series) {
    page.raw(&format!("<div id=\"m-{}\"></div>", anchor(&s.machine)));
    page.section(
        &format!("On {}", s.machine),
        &format!(
            "{} runs; hover a point for its commit, click it for its row",
            s.points.len()
        ),
    );
    let scale = scale_of(s);
    cards(page, site, s, &scale);
    page.raw("<figure class=\"trend\">");
    page.raw(&trend(site, s));
    page.raw("<figcaption><b>Typical value per run</b>, oldest to newest, labelled by commit and date, with its confidence interval as a band. Dashed red lines mark level shifts at the first run of the new level (binary segmentation, permutation test); dotted lines are the levels between them; hollow points were measured on a dirty work tree.</figcaption></figure>");
    page.end_section();
    if !s.shifts.is_empty() {
        page.section("Level shifts", &format!("on {}", s.machine));
        page.raw(&shifts_table(site, s, &scale));
        page.end_section();
    }
    page.section("Runs", &format!("on {}, newest first", s.machine));
    page.raw(&runs_table(site, s, &scale));
    page.end_section();
}

fn cards(page: &mut Page, site: &HistorySite, s: &Series, scale: &Scale) {
    let Some(last) = s.points.last() else {
        return;
    };
    let n = s.points.len();
    let run = &site.runs[last.run];
    page.raw("<div class=\"cards\">");
    page.raw(&card(
        "Latest",
        &scale.format(last.point),
        &format!(
            "[{} – {}] at {}",
            scale.format(last.lower),
            scale.format(last.upper),
            short_commit(run)
        ),
    ));
    if n >= 2 {
        let prev = &s.points[n - 2];
        page.raw(&card(
            "Since the previous run",
            &pct(last.point / prev.point - 1.0),
            &format!(
                "from {} at {}",
                scale.format(prev.point),
                short_commit(&site.runs[prev.run])
            ),
        ));
    }
    if let Some(r) = site.reference.as_deref() {
        let (value, detail) = match reference_point(site, s) {
            Some(i) if i + 1 < n => {
                let p = &s.points[i];
                (
                    pct(last.point / p.point - 1.0),
                    format!(
                        "from {} at {}",
                        scale.format(p.point),
                        short_commit(&site.runs[p.run])
                    ),
                )
            }
            Some(_) => (
                "—".to_owned(),
                format!("the latest run is the newest on {r}"),
            ),
            None => ("—".to_owned(), format!("no run on {r} on this machine")),
        };
        page.raw(&card(&format!("Since {r}"), &value, &detail));
    }
    if let Some((p, c)) = s
        .points
        .iter()
        .rev()
        .find_map(|p| Some((p, p.instructions?)))
    {
        page.raw(&card(
            "Instructions per iteration",
            &short(c[1]),
            &format!(
                "counted by --explain at {}: {}",
                short_commit(&site.runs[p.run]),
                instructions(c)
            ),
        ));
    }
    page.raw(&card(
        "Level shifts",
        &s.shifts.len().to_string(),
        &s.shifts.last().map_or_else(
            || "none detected".to_owned(),
            |x| {
                format!(
                    "last {} at {}",
                    pct(x.size),
                    short_commit(&site.runs[s.points[x.index].run])
                )
            },
        ),
    ));
    page.raw("</div>");
}

fn shifts_table(site: &HistorySite, s: &Series, scale: &Scale) -> String {
    let mut t = String::from(
        "<div class=\"tw\"><table><tr><th class=\"l\">Commit</th><th class=\"l\">Date</th><th>Before</th><th>After</th><th>Change</th><th>Confidence</th></tr>",
    );
    for x in s.shifts.iter().rev() {
        let run = &site.runs[s.points[x.index].run];
        let _ = write!(
            t,
            "<tr><td class=\"l\"><a href=\"#run{}\"><code>{}</code></a></td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td><span class=\"{}\">{}</span></td><td>{:.1}%</td></tr>",
            run.id,
            escape::html(&short_commit(run)),
            utc(run.time),
            escape::html(&scale.format(x.before)),
            escape::html(&scale.format(x.after)),
            if x.size > 0.0 { "up" } else { "down" },
            escape::html(&pct(x.size)),
            (1.0 - x.p_value) * 100.0
        );
    }
    t.push_str("</table></div>");
    t
}

/// The instructions per iteration `--explain` counted in a run: the
/// baseline's binary's, this run's and the change (`16014 → 48020
/// (+199.86%)`); the count alone when both sides agree.
fn instructions(counts: [f64; 2]) -> String {
    let [a, b] = counts;
    if a == b {
        short(b)
    } else {
        format!("{} → {} ({})", short(a), short(b), pct(b / a - 1.0))
    }
}

fn runs_table(site: &HistorySite, s: &Series, scale: &Scale) -> String {
    let mut t = String::with_capacity(s.points.len() * 320);
    // Only a benchmark some run explained has the column.
    let explained = s.points.iter().any(|p| p.instructions.is_some());
    t.push_str("<div class=\"tw\"><table class=\"runs\"><tr><th>Run</th><th class=\"l\">Date (UTC)</th><th class=\"l\">Commit</th><th class=\"l\">Branch</th><th class=\"l\">rustc</th><th>Lower</th><th>Estimate</th><th>Upper</th><th>vs previous</th>");
    if explained {
        t.push_str("<th title=\"instructions per iteration counted by --explain under Callgrind: the baseline's binary, then this run's\">Instructions</th>");
    }
    t.push_str("</tr>");
    let shift_at: Vec<usize> = s.shifts.iter().map(|x| x.index).collect();
    for (i, p) in s.points.iter().enumerate().rev() {
        let run = &site.runs[p.run];
        let mut commit = format!("<code>{}</code>", escape::html(&short_commit(run)));
        if run.dirty {
            commit.push_str(" <span class=\"badge withinnoise\">dirty</span>");
        }
        if shift_at.contains(&i) {
            commit.push_str(" <span class=\"badge regressed\">shift</span>");
        }
        let branch = match (&run.branch, &run.label) {
            (Some(b), Some(l)) => format!("{} · {}", escape::html(b), escape::html(l)),
            (Some(b), None) => escape::html(b),
            (None, Some(l)) => escape::html(l),
            (None, None) => String::new(),
        };
        let vs = if i > 0 {
            change(&s.points[i - 1], p)
        } else {
            String::new()
        };
        let counted = match (explained, p.instructions) {
            (false, _) => String::new(),
            (true, None) => "<td class=\"dim\">—</td>".to_owned(),
            (true, Some(c)) => format!("<td>{}</td>", escape::html(&instructions(c))),
        };
        let _ = write!(
            t,
            "<tr id=\"run{}\"><td class=\"dim\">{}</td><td class=\"l\">{}</td><td class=\"l\">{commit}</td><td class=\"l\">{branch}</td><td class=\"l dim\">{}</td><td class=\"dim\">{}</td><td class=\"est\">{}</td><td class=\"dim\">{}</td><td>{vs}</td>{counted}</tr>",
            run.id,
            run.id,
            utc(run.time),
            escape::html(run.rustc.strip_prefix("rustc ").unwrap_or(&run.rustc)),
            escape::html(&scale.format(p.lower)),
            escape::html(&scale.format(p.point)),
            escape::html(&scale.format(p.upper)),
        );
    }
    t.push_str("</table></div>");
    t
}
