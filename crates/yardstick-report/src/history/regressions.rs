//! `regressions.html`: every detected level shift, newest first, each
//! linked to its benchmark's page.

use std::fmt::Write;

use super::chart::scale_of;
use super::index::anchor;
use super::{page_name, pct, search_box, short_commit, utc, HistorySite, FILTER_SCRIPT};
use crate::escape;
use crate::pages::{card, Page};

/// Renders the page.
pub(crate) fn render(site: &HistorySite) -> String {
    let mut all: Vec<(i64, i64, usize, usize)> = Vec::new();
    for (si, s) in site.series.iter().enumerate() {
        for (k, x) in s.shifts.iter().enumerate() {
            let run = &site.runs[s.points[x.index].run];
            all.push((run.time, run.id, si, k));
        }
    }
    all.sort_by_key(|&(time, id, _, _)| std::cmp::Reverse((time, id)));
    let up = all
        .iter()
        .filter(|&&(_, _, si, k)| site.series[si].shifts[k].size > 0.0)
        .count();
    let mut page = Page::new(
        "Level shifts",
        &format!("{} detected", all.len()),
        &[
            ("index.html".to_owned(), "History".to_owned()),
            ("regressions.html".to_owned(), "Level shifts".to_owned()),
        ],
    );
    page.raw("<section><div class=\"cards\">");
    page.raw(&card(
        "Regressions",
        &up.to_string(),
        "the level went up: slower, or more counted",
    ));
    page.raw(&card(
        "Improvements",
        &(all.len() - up).to_string(),
        "the level went down",
    ));
    page.raw("</div></section>");
    page.section(
        "Every level shift",
        "newest first; each is named by the first commit of the new level",
    );
    if all.is_empty() {
        page.raw("<p class=\"dim\">No level shift was detected in any series.</p>");
    } else {
        page.raw(&search_box("Filter by benchmark, machine or commit…"));
        let mut t = String::from("<div class=\"tw\"><table><tr><th class=\"l\">Date (UTC)</th><th class=\"l\">Benchmark</th><th class=\"l\">Machine</th><th class=\"l\">Commit</th><th>Before</th><th>After</th><th>Change</th><th>Confidence</th><th></th></tr>");
        for &(_, _, si, k) in &all {
            let s = &site.series[si];
            let x = &s.shifts[k];
            let run = &site.runs[s.points[x.index].run];
            let scale = scale_of(s);
            let href = format!("b/{}#run{}", page_name(&s.benchmark), run.id);
            let regressed = x.size > 0.0;
            let _ = write!(
                t,
                "<tr data-q=\"{q}\"><td class=\"l\">{}</td><td class=\"l\"><a href=\"{href}\">{}</a></td><td class=\"l\"><a href=\"b/{}#m-{}\">{}</a></td><td class=\"l\"><code>{}</code>{}</td><td>{}</td><td>{}</td><td><span class=\"{}\">{}</span></td><td>{:.1}%</td><td>{}</td></tr>",
                utc(run.time),
                escape::html(&s.benchmark),
                page_name(&s.benchmark),
                anchor(&s.machine),
                escape::html(&s.machine),
                escape::html(&short_commit(run)),
                run.branch.as_deref().map(|b| format!(" <span class=\"dim\">{}</span>", escape::html(b))).unwrap_or_default(),
                escape::html(&scale.format(x.before)),
                escape::html(&scale.format(x.after)),
                if regressed { "up" } else { "down" },
                escape::html(&pct(x.size)),
                (1.0 - x.p_value) * 100.0,
                if regressed { "<span class=\"badge regressed\">regressed</span>" } else { "<span class=\"badge improved\">improved</span>" },
                q = escape::html(&format!("{} {} {}", s.benchmark, s.machine, run.commit.as_deref().unwrap_or("")).to_lowercase()),
            );
        }
        t.push_str("</table></div>");
        page.raw(&t);
        page.raw(FILTER_SCRIPT);
    }
    page.end_section();
    page.finish()
}
