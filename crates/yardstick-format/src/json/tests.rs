//! The reader and writer against serde_json (an independent implementation
//! of the same RFC) and against hand-written texts.

use super::*;

/// Texts whose compact and pretty forms serde_json writes the same way (its
/// objects sort their keys, so these are sorted).
const DOCUMENTS: &[&str] = &[
    r#"{"a":1,"b":[true,false,null],"c":{"d":"e\n\"f\"\\","g":[]},"h":{},"i":-7}"#,
    r#"[1.5,-0.25,1e-7,123456789012345678,18446744073709551615,-9223372036854775808]"#,
    r#"{"ctl":"\u0001\t","nested":[[1,[2,[3]]],{"x":{"y":{}}}],"unicode":"é ✓ 😀"}"#,
    r#""just a string""#,
    "0",
];

#[test]
fn compact_and_pretty_text_are_serde_jsons() {
    for text in DOCUMENTS {
        let ours = parse(text).unwrap();
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(ours.to_compact(), serde_json::to_string(&theirs).unwrap());
        assert_eq!(
            ours.to_pretty(),
            serde_json::to_string_pretty(&theirs).unwrap()
        );
    }
}

#[test]
fn integers_stay_exact_and_floats_read_back_to_the_same_bits() {
    let v = parse("[18446744073709551615,-9223372036854775808,0.1]").unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items[0], Json::Number(Number::Unsigned(u64::MAX)));
    assert_eq!(items[1], Json::Number(Number::Signed(i64::MIN)));
    let floats = [
        0.1,
        1.0 / 3.0,
        1e-300,
        5e-324,
        1.7976931348623157e308,
        123456.789,
        1e15,
        1e16,
        1e21,
        -0.0,
        2.5e-5,
    ];
    for x in floats {
        let text = to_string(&x);
        let back: f64 = serde_json::from_str(&text).unwrap();
        assert_eq!(back.to_bits(), x.to_bits(), "{x} written as {text}");
        assert!(text.contains(['.', 'e']), "{text} is a float's text");
    }
    // Larger than any u64: read as a float, as serde_json does.
    assert_eq!(
        parse("18446744073709551616").unwrap(),
        Json::Number(Number::Float(18446744073709551616.0))
    );
}

#[test]
fn nan_and_infinity_are_written_null_and_read_back_as_nan() {
    assert_eq!(
        to_string(&[f64::NAN, f64::INFINITY, 1.0]),
        "[null,null,1.0]"
    );
    assert!(from_str::<f64>("null").unwrap().is_nan());
    assert_eq!(from_str::<Option<f64>>("null").unwrap(), None);
}

#[test]
fn errors_say_where() {
    let cases = [
        ("{\"a\":1,}", "expected a key in quotes at line 1 column 8"),
        ("[1,\n 2\n 3]", "expected `,` or `]` at line 3 column 2"),
        ("{\"a\" 1}", "expected `:` at line 1 column 6"),
        ("01", "invalid number at line 1 column 2"),
        ("1.", "invalid number at line 1 column 3"),
        ("-", "invalid number at line 1 column 2"),
        ("tru", "expected a value at line 1 column 1"),
        ("\"abc", "EOF while parsing a string at line 1 column 5"),
        (
            "\"a\u{1}\"",
            "control character in a string at line 1 column 3",
        ),
        ("\"\\ud800\"", "lone leading surrogate at line 1 column 8"),
        ("\"\\x\"", "invalid escape at line 1 column 3"),
        ("1 2", "trailing characters at line 1 column 3"),
        ("", "EOF while parsing a value at line 1 column 1"),
    ];
    for (text, message) in cases {
        assert_eq!(parse(text).unwrap_err().to_string(), message, "{text:?}");
        // serde_json refuses each of them too.
        assert!(serde_json::from_str::<serde_json::Value>(text).is_err());
    }
    assert_eq!(
        parse(r#""\ud83d\ude00 \u00e9""#).unwrap(),
        Json::String("😀 é".into())
    );
}

#[test]
fn nesting_is_bounded() {
    let deep = |n| "[".repeat(n) + &"]".repeat(n);
    // serde_json reads 127 levels and refuses the 128th; so does the reader.
    assert!(parse(&deep(127)).is_ok());
    let e = parse(&deep(100_000)).unwrap_err().to_string();
    assert_eq!(e, "nested too deep at line 1 column 128");
}

#[derive(Debug, PartialEq, Default)]
struct Inner {
    x: f64,
    n: u32,
}
crate::json_object!(Inner { x, n });

#[derive(Debug, PartialEq)]
struct Outer {
    name: String,
    inner: Inner,
    items: Vec<Inner>,
    maybe: Option<u64>,
    extra: Vec<String>,
    flag: bool,
}
crate::json_object!(Outer { name, inner, items, maybe, extra (skip), flag (default) });

#[test]
fn structs_read_and_write_their_field_lists() {
    let o = Outer {
        name: "a".into(),
        inner: Inner { x: 0.5, n: 3 },
        items: vec![Inner::default()],
        maybe: None,
        extra: vec![],
        flag: false,
    };
    let text = to_string(&o);
    assert_eq!(
        text,
        r#"{"name":"a","inner":{"x":0.5,"n":3},"items":[{"x":0.0,"n":0}],"maybe":null,"flag":false}"#
    );
    assert_eq!(from_str::<Outer>(&text).unwrap(), o);
    // Absent option and defaulted fields, unknown members ignored.
    let short = r#"{"unknown":[1],"name":"a","inner":{"x":0.5,"n":3},"items":[{"x":0,"n":0}]}"#;
    assert_eq!(from_str::<Outer>(short).unwrap(), o);
}

#[test]
fn field_errors_name_the_path() {
    let err = |text| from_str::<Outer>(text).unwrap_err().to_string();
    assert_eq!(
        err(r#"{"inner":{"x":1,"n":1},"items":[]}"#),
        "missing field `name`"
    );
    assert_eq!(
        err(r#"{"name":"a","inner":{"x":1,"n":-1},"items":[]}"#),
        "inner.n: expected an integer (u32), found a number"
    );
    assert_eq!(
        err(r#"{"name":"a","inner":{"x":1,"n":1},"items":[{"x":"1","n":1}]}"#),
        "items[0].x: expected a number, found a string"
    );
    assert_eq!(
        err(r#"{"name":"a","inner":{"x":1},"items":[]}"#),
        "inner: missing field `n`"
    );
    assert_eq!(err("[]"), "expected an object (Outer), found an array");
}

#[test]
fn integers_refuse_what_does_not_fit() {
    assert!(from_str::<u32>("4294967296").is_err());
    assert!(from_str::<u64>("-1").is_err());
    assert!(from_str::<u64>("1.0").is_err());
    assert_eq!(from_str::<i32>("-5").unwrap(), -5);
    assert_eq!(from_str::<[f64; 2]>("[1,2]").unwrap(), [1.0, 2.0]);
    assert!(from_str::<[f64; 2]>("[1]").is_err());
}
