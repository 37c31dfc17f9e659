//! One line of CSV (RFC 4180), as `raw.csv` and tasty-bench's `--csv`
//! files are written: one rule for every reader.

/// The fields of one line: a field that starts with `"` is quoted and may
/// hold commas and doubled quotes (`""`); a quote inside an unquoted field
/// is kept as it is. `None` when a quoted field is not closed.
///
/// ```
/// use yardstick_format::csv::fields;
/// assert_eq!(fields(r#""a,""b""",,1"#).unwrap(), [r#"a,"b""#, "", "1"]);
/// assert_eq!(fields(r#""open"#), None);
/// ```
#[must_use]
pub fn fields(line: &str) -> Option<Vec<String>> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if cur.is_empty() => quoted = true,
            (',', false) => fields.push(std::mem::take(&mut cur)),
            (c, _) => cur.push(c),
        }
    }
    if quoted {
        return None;
    }
    fields.push(cur);
    Some(fields)
}

#[cfg(test)]
mod tests {
    use super::fields;

    #[test]
    fn quotes_commas_and_empty_fields() {
        assert_eq!(fields("").unwrap(), [""]);
        assert_eq!(fields("a,b,").unwrap(), ["a", "b", ""]);
        assert_eq!(fields(r#"x"y,"z""#).unwrap(), [r#"x"y"#, "z"]);
        assert_eq!(fields(r#""a""b"#), None);
    }
}
