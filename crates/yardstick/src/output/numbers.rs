//! Number formats of nanobench's tables: fixed-point with thousands
//! separators (`1,446,254,071.66`) for the results, and C++'s default
//! stream format (`%g`, six significant digits: `6.66562e-09`) for the
//! complexity coefficients.

/// `value` with `precision` decimals and its integer digits grouped in
/// threes with commas.
pub(crate) fn grouped(value: f64, precision: usize) -> String {
    let text = format!("{value:.precision$}");
    let start = usize::from(text.starts_with(['-', '+']));
    let end = text[start..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |i| start + i);
    let mut out = String::with_capacity(text.len() + (end - start) / 3);
    out.push_str(&text[..start]);
    for (i, c) in text[start..end].chars().enumerate() {
        if i > 0 && (end - start - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out.push_str(&text[end..]);
    out
}

/// `value` as C's `%g` prints it with six significant digits: fixed-point
/// for exponents from -4 to 5, scientific otherwise (with a two-digit
/// exponent at least), trailing zeros removed.
pub(crate) fn general(value: f64) -> String {
    const DIGITS: i32 = 6;
    if value == 0.0 {
        return if value.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    if !value.is_finite() {
        return if value.is_nan() {
            "nan"
        } else if value > 0.0 {
            "inf"
        } else {
            "-inf"
        }
        .to_owned();
    }
    let scientific = format!("{:.*e}", (DIGITS - 1) as usize, value);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..DIGITS).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim_zeros(mantissa), exponent.abs())
    } else {
        let decimals = (DIGITS - 1 - exponent) as usize;
        trim_zeros(&format!("{value:.decimals$}")).to_owned()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Text as markdown code: in backticks, each backtick inside doubled (as
/// nanobench writes benchmark names).
pub(crate) fn markdown_code(text: &str) -> String {
    format!("`{}`", text.replace('`', "``"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouped_matches_nanobench_cells() {
        // Values from nanobench's documentation tables.
        assert_eq!(grouped(1_446_254_071.664, 2), "1,446,254,071.66");
        assert_eq!(grouped(177_595_338.98, 2), "177,595,338.98");
        assert_eq!(grouped(100_125_753.0, 2), "100,125,753.00");
        assert_eq!(grouped(1767.44, 1), "1,767.4");
        assert_eq!(grouped(100.0, 1), "100.0");
        assert_eq!(grouped(0.31, 2), "0.31");
        assert_eq!(grouped(-1234.5, 1), "-1,234.5");
        assert_eq!(grouped(123_456.0, 0), "123,456");
        assert_eq!(grouped(f64::INFINITY, 2), "inf");
    }

    #[test]
    fn general_matches_printf_g() {
        // Expected strings are what `printf("%g", x)` prints (glibc).
        assert_eq!(general(6.665_62e-9), "6.66562e-09");
        assert_eq!(general(1.475_88e-11), "1.47588e-11");
        assert_eq!(general(1.327_92e-19), "1.32792e-19");
        assert_eq!(general(5.156_834e-8), "5.15683e-08");
        assert_eq!(general(2.5), "2.5");
        assert_eq!(general(100_000.0), "100000");
        assert_eq!(general(1_000_000.0), "1e+06");
        assert_eq!(general(0.0001), "0.0001");
        assert_eq!(general(0.000_099_999_99), "0.0001");
        assert_eq!(general(1.5e300), "1.5e+300");
        assert_eq!(general(0.0), "0");
        assert_eq!(general(-3.25e-7), "-3.25e-07");
    }

    #[test]
    fn backticks_are_doubled() {
        assert_eq!(markdown_code("a`b"), "`a``b`");
    }
}
