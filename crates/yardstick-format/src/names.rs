//! Benchmark ids as folder names and titles, one rule for every writer (the
//! harness, `cargo yardstick exec --report`), so that one id always lands in
//! one folder.

/// Longest title: `full_id` cut to this many bytes, then `...`.
pub const MAX_TITLE_LEN: usize = 100;
/// Longest folder name for one part of an id, before the hash suffix.
pub const MAX_COMPONENT_LEN: usize = 64;

/// Turns one part of an id into one folder name.
///
/// Characters that are unsafe in file names on any platform become `_`, as
/// Criterion.rs does. Unlike Criterion.rs, whenever that loses information
/// (a character was replaced, the name was cut, or it is empty or starts
/// with a dot, which covers `.` and `..`) a hash of the original part is
/// appended, so no part can leave its parent folder and two different ids
/// never share a folder, in this run or any other.
///
/// ```
/// use yardstick_format::names::folder_component;
/// assert_eq!(folder_component("fib 20"), "fib 20");
/// assert!(folder_component("..").starts_with("_.._"));
/// ```
#[must_use]
pub fn folder_component(part: &str) -> String {
    const UNSAFE: &[char] = &['?', '"', '/', '\\', '*', '<', '>', ':', '|', '^'];
    let mut out: String = part
        .chars()
        .map(|c| {
            if UNSAFE.contains(&c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let mut lossy = out != part;
    if out.is_empty() || out.starts_with('.') {
        out.insert(0, '_');
        lossy = true;
    }
    if out.len() > MAX_COMPONENT_LEN {
        let cut = floor_char_boundary(&out, MAX_COMPONENT_LEN);
        out.truncate(cut);
        lossy = true;
    }
    // Trailing spaces and dots are dropped by Windows file systems.
    if out.ends_with(' ') || out.ends_with('.') {
        lossy = true;
    }
    if lossy {
        // All 64 bits: 32 were found to collide in a search of 10^7 ids
        // (`x??"^"*:` and `x??/"\<?`); 64 need ~4·10^9 lossy ids for even
        // odds. A collision that still happens is caught on reading: the
        // folder's benchmark.json names the id it belongs to.
        out.push_str(&format!("_{:016x}", fnv1a(part.as_bytes())));
    }
    out
}

/// A part of an id as one line of text: control characters (a NUL byte,
/// line breaks, escapes that would drive a terminal) become their Rust
/// escapes (`\u{0}`, `\n`, `\u{1b}`). An id is printed on terminal lines, in
/// markdown tables and CSV rows, so it never carries them raw.
#[must_use]
pub fn one_line(part: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(part, |_| false)
}

/// Text for a terminal, of one line or many: every control character but
/// the line break (ESC, BEL, a carriage return, a NUL byte, a tab) becomes
/// its Rust escape, as in [`one_line`]. Whatever a terminal shows of an id,
/// a file name or a message from elsewhere goes through this or
/// [`one_line`], so an imported id holding `ESC ]0;…BEL` cannot retitle the
/// window or clear the screen.
///
/// ```
/// use yardstick_format::names::terminal_text;
/// assert_eq!(terminal_text("a\u{1b}[2J\nb\u{7}"), "a\\u{1b}[2J\nb\\u{7}");
/// ```
#[must_use]
pub fn terminal_text(text: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(text, |c| c == '\n')
}

/// The one rule behind [`one_line`] and [`terminal_text`]: control
/// characters other than those `keep` keeps become their Rust escapes.
fn escape_controls(text: &str, keep: fn(char) -> bool) -> std::borrow::Cow<'_, str> {
    let raw = |c: char| c.is_control() && !keep(c);
    if !text.chars().any(raw) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if raw(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `full_id` as a title: cut to [`MAX_TITLE_LEN`] bytes on a character
/// boundary, with `...` when cut.
#[must_use]
pub fn title(full_id: &str) -> String {
    let mut title = full_id.to_owned();
    if title.len() > MAX_TITLE_LEN {
        title.truncate(floor_char_boundary(&title, MAX_TITLE_LEN));
        title.push_str("...");
    }
    title
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// FNV-1a, 64 bits: the stable hash of every name made from an id (result
/// folders, the history site's pages). std's `DefaultHasher` may change
/// between Rust releases, and names must not.
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_escapes() {
        assert_eq!(one_line("nul\0byte"), "nul\\u{0}byte");
        assert_eq!(one_line("two\nlines\r"), "two\\nlines\\r");
        assert_eq!(one_line("esc\u{1b}[31m"), "esc\\u{1b}[31m");
        assert!(matches!(
            one_line("plain é"),
            std::borrow::Cow::Borrowed("plain é")
        ));
    }

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV reference (isthe.com/chongo/tech/comp/fnv): FNV-1a
        // 64 of "" and of "a".
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn unsafe_parts_are_replaced_and_disambiguated() {
        let a = folder_component("a/b");
        let b = folder_component("a:b");
        assert!(a.starts_with("a_b_"), "{a}");
        assert_ne!(a, b, "two different ids must not share a folder");
        assert!(!a.contains('/'));
    }

    #[test]
    fn the_campaigns_colliding_pair_gets_two_folders() {
        // Both became `x________c8556df9` with a 32-bit hash.
        let (a, b) = ("x??\"^\"*:", "x??/\"\\<?");
        assert_eq!(a.len(), 8);
        assert_eq!(b.len(), 8);
        assert_eq!(fnv1a(a.as_bytes()) & 0xffff_ffff, 0xc855_6df9);
        assert_eq!(fnv1a(b.as_bytes()) & 0xffff_ffff, 0xc855_6df9);
        let (fa, fb) = (folder_component(a), folder_component(b));
        assert_ne!(fa, fb);
        // FNV-1a 64 of "" is the reference's offset basis.
        assert_eq!(folder_component(""), "__cbf29ce484222325");
        // "x" and 7 replaced characters, then `_` and 16 hex digits.
        assert_eq!(fa.len(), 8 + 17, "{fa}");
    }

    #[test]
    fn dot_parts_cannot_leave_the_home_directory() {
        for part in ["..", ".", "", ".hidden"] {
            let c = folder_component(part);
            assert!(c.starts_with('_'), "{part:?} became {c:?}");
            assert_ne!(c, "..");
        }
        assert_ne!(folder_component(".."), folder_component("_.."));
    }

    #[test]
    fn html_and_quotes_are_neutralised() {
        let c = folder_component("<script>alert(\"x\")</script>");
        assert!(!c.contains(['<', '>', '"', '/']), "{c}");
    }

    #[test]
    fn long_parts_and_titles_are_cut_on_a_char_boundary() {
        let long = "é".repeat(100);
        let c = folder_component(&long);
        assert!(c.len() <= MAX_COMPONENT_LEN + 17);
        assert_ne!(c, folder_component(&"é".repeat(99)));
        let t = title(&"x".repeat(150));
        assert_eq!(t.len(), MAX_TITLE_LEN + 3);
        assert!(t.ends_with("..."));
        assert_eq!(title("short"), "short");
    }
}
