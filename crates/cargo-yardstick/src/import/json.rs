//! Small helpers to read untyped JSON without panicking.

use serde_json::Value;

/// Parses JSON text.
pub fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))
}

/// `v[key]` as an array.
pub fn array<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, String> {
    v.get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("expected an array \"{key}\""))
}

/// `v[key]` as a string.
pub fn string<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("expected a string \"{key}\""))
}

/// `v[key]` as a finite number.
pub fn number(v: &Value, key: &str) -> Result<f64, String> {
    v.get(key)
        .and_then(Value::as_f64)
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("expected a number \"{key}\""))
}

/// Nanoseconds in one `unit` (`s`, `ms`, `us`, `ns`, `ps` and long names).
pub fn ns_per(unit: &str) -> Option<f64> {
    Some(match unit {
        "s" | "second" | "seconds" | "sec" => 1e9,
        "ms" | "millisecond" | "milliseconds" => 1e6,
        "us" | "µs" | "microsecond" | "microseconds" => 1e3,
        "ns" | "nanosecond" | "nanoseconds" => 1.0,
        "ps" | "picosecond" | "picoseconds" => 1e-3,
        _ => return None,
    })
}
