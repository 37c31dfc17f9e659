//! The guide as a reader meets it: every chapter is in the table of
//! contents, every link and anchor leads somewhere, every code block says
//! what language it is (so that rustdoc, which runs the Rust ones through
//! `doctests.rs`, skips the others), and mdBook builds it without a warning.
//!
//! The markdown checks need nothing but this file. The build needs the
//! `mdbook` binary: without it the test says so and passes, except under
//! `CI=true`, where a missing tool is a failure (`.ci/run` installs it).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn guide() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn src() -> PathBuf {
    guide().join("src")
}

/// Chapters in the order of `SUMMARY.md`, as paths relative to `src/`.
fn summary_chapters() -> Vec<String> {
    let text = fs::read_to_string(src().join("SUMMARY.md")).unwrap();
    links(&text)
        .into_iter()
        .map(|(target, _)| target)
        .filter(|t| t.ends_with(".md"))
        .collect()
}

/// Every `.md` file under `src/` other than `SUMMARY.md`, relative to it.
fn markdown_files() -> BTreeSet<String> {
    fn walk(dir: &Path, base: &Path, out: &mut BTreeSet<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                let rel = path.strip_prefix(base).unwrap().to_string_lossy();
                if rel != "SUMMARY.md" {
                    out.insert(rel.replace('\\', "/"));
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(&src(), &src(), &mut out);
    out
}

/// The lines of `text` outside fenced code blocks, with their numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if !inside {
            out.push((i + 1, line));
        }
    }
    out
}

/// Markdown links and images `[text](target)` outside code blocks and
/// inline code: (target, line number).
fn links(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        // Inline code can hold `[x](y)` that is not a link.
        let line: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((after[..end].to_owned(), n));
            rest = &after[end..];
        }
    }
    out
}

/// mdBook's id for a heading: its text without markup, lower-cased,
/// whitespace as `-`, and only alphanumerics, `-` and `_` kept (mdBook's
/// `normalize_id`); a repeated id gets `-1`, `-2`, ….
fn heading_ids(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut ids = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let plain = strip_link_targets(title.trim());
        let id: String = plain
            .chars()
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c.to_ascii_lowercase())
                } else if c.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let n = seen.entry(id.clone()).or_insert(0);
        ids.insert(if *n == 0 {
            id.clone()
        } else {
            format!("{id}-{n}")
        });
        *n += 1;
    }
    ids
}

/// `[text](target)` → `text`, so a heading's id is made of what it shows.
fn strip_link_targets(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("](") {
        out.push_str(&rest[..i]);
        match rest[i..].find(')') {
            Some(end) => rest = &rest[i + end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn every_chapter_is_in_the_summary_and_every_summary_entry_exists() {
    let listed: Vec<String> = summary_chapters();
    let on_disk = markdown_files();
    let listed_set: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(listed.len(), listed_set.len(), "a chapter is listed twice");
    let missing: Vec<_> = listed_set.difference(&on_disk).collect();
    let unlisted: Vec<_> = on_disk.difference(&listed_set).collect();
    assert!(
        missing.is_empty(),
        "SUMMARY.md lists missing files: {missing:?}"
    );
    assert!(unlisted.is_empty(), "not in SUMMARY.md: {unlisted:?}");
}

#[test]
fn every_chapter_is_compiled_as_a_doc_test() {
    let doctests = fs::read_to_string(guide().join("doctests.rs")).unwrap();
    let absent: Vec<_> = summary_chapters()
        .into_iter()
        .filter(|c| !doctests.contains(&format!("\"src/{c}\"")))
        .collect();
    assert!(
        absent.is_empty(),
        "chapters not included in doctests.rs: {absent:?}"
    );
}

#[test]
fn every_code_block_names_its_language() {
    // rustdoc treats a block without a language as Rust; a shell or output
    // block without one would fail the doc tests, or worse, pass as empty.
    let mut bare = Vec::new();
    for chapter in markdown_files() {
        let text = fs::read_to_string(src().join(&chapter)).unwrap();
        let mut inside = false;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim_start();
            if let Some(lang) = t.strip_prefix("```") {
                if !inside && lang.trim().is_empty() {
                    bare.push(format!("{chapter}:{}", i + 1));
                }
                inside = !inside;
            }
        }
        assert!(!inside, "{chapter}: a code block is not closed");
    }
    assert!(bare.is_empty(), "code blocks without a language: {bare:?}");
}

#[test]
fn every_link_and_anchor_resolves_inside_the_book() {
    let mut broken = Vec::new();
    for chapter in markdown_files() {
        let text = fs::read_to_string(src().join(&chapter)).unwrap();
        let dir = Path::new(&chapter).parent().unwrap_or(Path::new(""));
        for (target, line) in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if file.is_empty() {
                chapter.clone()
            } else {
                match normalise(&dir.join(file)) {
                    Some(p) => p,
                    None => {
                        broken.push(format!("{chapter}:{line}: {target} leaves the book"));
                        continue;
                    }
                }
            };
            let path = src().join(&resolved);
            if !path.is_file() {
                broken.push(format!("{chapter}:{line}: {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let ids = heading_ids(&fs::read_to_string(&path).unwrap());
                if !ids.contains(anchor) {
                    broken.push(format!("{chapter}:{line}: {target}: no heading #{anchor}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// `a/../b.md` → `b.md`; `None` when the path climbs out of `src/`.
fn normalise(p: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                parts.pop()?;
            }
            std::path::Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    Some(parts.join("/"))
}

#[test]
fn the_ids_of_headings_follow_mdbook() {
    // Written out by hand from mdBook's rule, so the anchor check above
    // cannot agree with a wrong id function by accident.
    let ids = heading_ids(
        "# `cargo yardstick`: history, comparisons\n\n## Two revisions, in one command\n\
         ## Two revisions, in one command\n```sh\n# not a heading\n```\n## [Linked](x.md) title\n",
    );
    let want: BTreeSet<String> = [
        "cargo-yardstick-history-comparisons",
        "two-revisions-in-one-command",
        "two-revisions-in-one-command-1",
        "linked-title",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(ids, want);
}

#[test]
fn no_path_of_a_build_machine_is_in_the_book() {
    for chapter in markdown_files() {
        let text = fs::read_to_string(src().join(&chapter)).unwrap();
        for bad in ["/work/", "/root/", "/home/", "/tmp/"] {
            assert!(!text.contains(bad), "{chapter} names a local path ({bad})");
        }
    }
}

#[test]
fn mdbook_builds_the_guide_without_warnings_and_its_html_links_resolve() {
    let Some(mdbook) = which("mdbook") else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "mdbook is not installed (CI=true): .ci/run installs it"
        );
        eprintln!("note: mdbook is not installed; the book was checked as markdown only");
        return;
    };
    let out_dir = std::env::temp_dir().join(format!("yardstick-guide-{}", std::process::id()));
    let _ = fs::remove_dir_all(&out_dir);
    let output = Command::new(mdbook)
        .arg("build")
        .arg("--dest-dir")
        .arg(&out_dir)
        .arg(guide())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "mdbook build failed:\n{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR"))
        .collect();
    assert!(
        warnings.is_empty(),
        "mdbook warned:\n{}",
        warnings.join("\n")
    );

    // Every chapter became a page, and every local href of a page points at
    // a file of the book and, with a fragment, at an id on that page.
    let mut broken = Vec::new();
    for chapter in summary_chapters() {
        let page = out_dir.join(chapter.replace(".md", ".html"));
        let html = fs::read_to_string(&page)
            .unwrap_or_else(|e| panic!("{} was not built: {e}", page.display()));
        let main = html.split("<main>").nth(1).unwrap_or(&html);
        for href in attribute_values(main, "href=\"").chain(attribute_values(main, "src=\"")) {
            if href.contains("://") || href.starts_with("mailto:") {
                continue;
            }
            let (file, frag) = href.split_once('#').unwrap_or((href, ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !target.is_file() {
                broken.push(format!("{chapter}: {href}: no such file in the book"));
            } else if !frag.is_empty() {
                let text = fs::read_to_string(&target).unwrap_or_default();
                if !text.contains(&format!("id=\"{frag}\"")) {
                    broken.push(format!("{chapter}: {href}: no such id"));
                }
            }
        }
    }
    let _ = fs::remove_dir_all(&out_dir);
    assert!(
        broken.is_empty(),
        "broken links in the built book:\n{}",
        broken.join("\n")
    );
}

fn attribute_values<'a>(html: &'a str, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    html.split(prefix)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
}

fn which(tool: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(tool))
            .find(|p| p.is_file())
    })
}

#[test]
fn the_readmes_links_into_the_repository_resolve() {
    let root = guide().join("..");
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let mut broken = Vec::new();
    for (target, line) in links(&readme) {
        if target.contains("://") {
            continue;
        }
        let file = target.split('#').next().unwrap_or_default();
        if !root.join(file).exists() {
            broken.push(format!("README.md:{line}: {target}"));
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
