//! Escaping of names for HTML, SVG and URLs.
//!
//! Benchmark ids are user text: they may hold `<script>`, quotes, `&`, `/`
//! or `..`. Every id goes through [`html`] before it lands in a page or a
//! plot, and through [`href`] before it lands in a link.

use std::fmt::Write;

/// Escapes text for HTML or SVG, in element content and in quoted
/// attribute values alike: `& < > " '` become entities, and control
/// characters other than tab and line feed are dropped (XML forbids them).
#[must_use]
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A relative link to a folder path (`a/b c/d`), each segment
/// percent-encoded so that spaces, `#`, `?`, `%` and non-ASCII names work
/// from `file://`. Slashes between segments are kept; the result is also
/// safe inside a quoted HTML attribute.
#[must_use]
pub fn href(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 8);
    for (i, segment) in path.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        for b in segment.bytes() {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                out.push(b as char);
            } else {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_names_are_inert() {
        assert_eq!(
            html(r#"<script>alert("x")</script> & 'y'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        );
        assert_eq!(html("a\u{1}b\nc"), "ab\nc");
    }

    #[test]
    fn links_encode_each_segment() {
        assert_eq!(href("fib 20/report"), "fib%2020/report");
        assert_eq!(href("a#b/c?d/%e/µ"), "a%23b/c%3Fd/%25e/%C2%B5");
        assert_eq!(href("../x"), "../x");
        assert_eq!(href("\"><script>"), "%22%3E%3Cscript%3E");
    }
}
