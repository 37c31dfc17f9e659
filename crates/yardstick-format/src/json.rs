//! JSON as the files need it: a value, a reader, a writer and the two traits
//! each file type implements, in a few hundred lines with no dependency.
//!
//! yardstick's harness is compiled into every bench binary; serde, its
//! derive and serde_json were a third of a clean `cargo bench` build's CPU
//! time (the derive alone pulls in a parser of Rust). The file types are
//! few and flat, so each says its fields once through
//! [`json_object!`](crate::json_object) and that one list is both its
//! reader and its writer. With the `serde` feature each type also
//! implements serde's traits through its [`Json`] value, so the tools built
//! on serde keep reading and writing them, with the same field list.
//!
//! The writer is serde_json's layout: compact or two-space pretty, fields in
//! declaration order, a NaN or infinite number as `null`, a float always
//! with a fraction or an exponent. The reader is strict JSON (RFC 8259),
//! refuses nesting deeper than 127 levels and numbers beyond f64's range, as
//! serde_json does, and names the line and column of an
//! error; it reads `null` as NaN where a float is expected, the inverse of
//! the writer.

use std::fmt::{self, Write as _};

mod read;
#[cfg(feature = "serde")]
mod serde_bridge;
mod traits;

pub use read::parse;
#[cfg(feature = "serde")]
#[doc(hidden)]
pub use serde_bridge::deserialize as serde_deserialize;
pub use traits::{Fields, FromJson, ToJson};

/// A JSON value. Objects keep their keys in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, its members in order.
    Object(Vec<(String, Json)>),
}

/// A JSON number as it was written: integers stay exact to 64 bits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// A non-negative integer.
    Unsigned(u64),
    /// A negative integer.
    Signed(i64),
    /// Any other number.
    Float(f64),
}

impl Number {
    /// The number as a float (large integers rounded).
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Unsigned(n) => n as f64,
            Number::Signed(n) => n as f64,
            Number::Float(x) => x,
        }
    }
}

/// What went wrong reading a value: where in the text, or which field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
        }
    }

    /// The same error inside field (or index) `at`: `at.inner: message`.
    #[must_use]
    pub fn within(self, at: &str) -> Error {
        let message = match self.message.split_once(": ") {
            Some((path, rest)) if !path.contains(' ') => {
                let dot = if path.starts_with('[') { "" } else { "." };
                format!("{at}{dot}{path}: {rest}")
            }
            _ => format!("{at}: {}", self.message),
        };
        Error { message }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl Json {
    /// The member `key` of an object.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value as a float, if it is a number.
    #[must_use]
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => Some(n.as_f64()),
            _ => None,
        }
    }

    /// The value as a non-negative integer, if it is one.
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(Number::Unsigned(n)) => Some(*n),
            _ => None,
        }
    }

    /// The value as a string, if it is one.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as an array, if it is one.
    #[must_use]
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// What kind of value this is, for error messages.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// The compact text (serde_json's `to_string`).
    #[must_use]
    pub fn to_compact(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, None, 0);
        out
    }

    /// The two-space indented text (serde_json's `to_string_pretty`).
    #[must_use]
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, Some("  "), 0);
        out
    }

    fn write(&self, out: &mut String, indent: Option<&str>, depth: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => write_number(out, *n),
            Json::String(s) => write_string(out, s),
            Json::Array(items) => {
                write_seq(out, indent, depth, ('[', ']'), items, |out, item| {
                    item.write(out, indent, depth + 1);
                });
            }
            Json::Object(members) => {
                write_seq(out, indent, depth, ('{', '}'), members, |out, (k, v)| {
                    write_string(out, k);
                    out.push_str(if indent.is_some() { ": " } else { ":" });
                    v.write(out, indent, depth + 1);
                });
            }
        }
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_compact())
    }
}

fn write_seq<T>(
    out: &mut String,
    indent: Option<&str>,
    depth: usize,
    (open, close): (char, char),
    items: &[T],
    mut each: impl FnMut(&mut String, &T),
) {
    out.push(open);
    let newline = |out: &mut String, depth: usize| {
        if let Some(unit) = indent {
            out.push('\n');
            (0..depth).for_each(|_| out.push_str(unit));
        }
    };
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        newline(out, depth + 1);
        each(out, item);
    }
    if !items.is_empty() {
        newline(out, depth);
    }
    out.push(close);
}

fn write_number(out: &mut String, n: Number) {
    let _ = match n {
        Number::Unsigned(n) => write!(out, "{n}"),
        Number::Signed(n) => write!(out, "{n}"),
        // `{:?}` is the shortest text that reads back to the same float,
        // with `.0` on whole numbers and an exponent for very large or
        // small ones: all valid JSON.
        Number::Float(x) if x.is_finite() => write!(out, "{x:?}"),
        Number::Float(_) => write!(out, "null"),
    };
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `value` as compact JSON text.
pub fn to_string<T: ToJson + ?Sized>(value: &T) -> String {
    value.to_json().to_compact()
}

/// `value` as two-space indented JSON text.
pub fn to_string_pretty<T: ToJson + ?Sized>(value: &T) -> String {
    value.to_json().to_pretty()
}

/// Reads a `T` from JSON text.
///
/// # Errors
///
/// The text is not JSON, or not a `T`: the line and column, or the field.
pub fn from_str<T: FromJson>(text: &str) -> Result<T, Error> {
    T::from_json(parse(text)?)
}

/// Reads a `T` from JSON bytes (UTF-8).
///
/// # Errors
///
/// As [`from_str`], or the bytes are not UTF-8.
pub fn from_slice<T: FromJson>(bytes: &[u8]) -> Result<T, Error> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| Error::new(format!("not UTF-8 at byte {}", e.valid_up_to())))?;
    from_str(text)
}

/// Without the `serde` feature the file types implement only this module's
/// traits.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __json_serde {
    ($ty:ident) => {};
}

#[cfg(test)]
mod tests;
