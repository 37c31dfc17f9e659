//! Reading Criterion.rs `raw.csv` files.
//!
//! The columns are `group,function,value,throughput_num,throughput_type,
//! sample_measured_value,unit,iteration_count`, found by name in the header
//! (so their order does not matter); one row per sample; a file may hold
//! several benchmarks, told apart by `(group, function, value)` and kept in
//! the order of their first row.

use std::fmt;
use std::path::{Path, PathBuf};

/// Bad input: the file, the line (1-based, when one is to blame) and what
/// is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    /// The file.
    pub path: PathBuf,
    /// The line, if the problem is on one line.
    pub line: Option<u64>,
    /// What is wrong and what was expected.
    pub message: String,
}

impl InputError {
    /// A problem on `line` of `path`.
    pub fn at(path: &Path, line: u64, message: impl Into<String>) -> InputError {
        InputError {
            path: path.to_owned(),
            line: Some(line),
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.path.display(), line, self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for InputError {}

/// The columns every raw.csv has.
pub const COLUMNS: [&str; 8] = [
    "group",
    "function",
    "value",
    "throughput_num",
    "throughput_type",
    "sample_measured_value",
    "unit",
    "iteration_count",
];

/// The samples of one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Benchmark {
    /// Group name.
    pub group: String,
    /// Function name (may be empty).
    pub function: String,
    /// Parameter value (may be empty).
    pub value: String,
    /// Unit of the measured values (`ns` for wall time).
    pub unit: String,
    /// Iteration count of each sample.
    pub iters: Vec<f64>,
    /// Measured value of each whole sample.
    pub values: Vec<f64>,
    /// The line of the benchmark's first sample.
    pub first_line: u64,
}

impl Benchmark {
    /// The id as Criterion.rs prints it: the non-empty parts of
    /// `group/function/value`.
    pub fn id(&self) -> String {
        [&self.group, &self.function, &self.value]
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The per-iteration values `value / iteration_count`.
    pub fn per_iteration(&self) -> Vec<f64> {
        self.values
            .iter()
            .zip(&self.iters)
            .map(|(v, n)| v / n)
            .collect()
    }
}

/// Reads and checks a raw.csv file.
///
/// # Errors
///
/// [`InputError`] naming the file and line for an unreadable or empty file,
/// missing columns, a wrong number of fields, a value that is not a finite
/// number, an iteration count that is not positive, or a unit that changes
/// within a benchmark.
pub fn read(path: &Path) -> Result<Vec<Benchmark>, InputError> {
    let bytes = std::fs::read(path).map_err(|e| InputError {
        path: path.to_owned(),
        line: None,
        message: format!("cannot read the file: {e}"),
    })?;
    parse(path, &bytes)
}

/// Parses raw.csv content; `path` is only used in messages.
///
/// # Errors
///
/// As [`read`].
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Vec<Benchmark>, InputError> {
    let expected = COLUMNS.join(",");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .from_reader(bytes);
    let header = reader.headers().map_err(|e| csv_error(path, &e))?.clone();
    if header.iter().all(str::is_empty) {
        return Err(InputError::at(
            path,
            1,
            format!("empty file; expected the raw.csv header `{expected}`"),
        ));
    }
    let column = |name: &str| header.iter().position(|h| h.trim() == name);
    let missing: Vec<&str> = COLUMNS
        .iter()
        .copied()
        .filter(|c| column(c).is_none())
        .collect();
    if !missing.is_empty() {
        return Err(InputError::at(
            path,
            1,
            format!(
                "missing column{} {}; expected the raw.csv header `{expected}`",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", ")
            ),
        ));
    }
    let idx = |name: &str| column(name).unwrap_or(0);
    let (ig, ifn, iv) = (idx("group"), idx("function"), idx("value"));
    let (imv, iu, ic) = (
        idx("sample_measured_value"),
        idx("unit"),
        idx("iteration_count"),
    );

    let mut benches: Vec<Benchmark> = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| csv_error(path, &e))?;
        let line = record.position().map_or(0, csv::Position::line);
        let field = |i: usize| record.get(i).unwrap_or("");
        let number = |i: usize, name: &str| -> Result<f64, InputError> {
            let text = field(i).trim();
            match text.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => Err(InputError::at(
                    path,
                    line,
                    format!("{name} `{text}` is not a finite number"),
                )),
            }
        };
        let value = number(imv, "sample_measured_value")?;
        let count = number(ic, "iteration_count")?;
        if value < 0.0 {
            return Err(InputError::at(
                path,
                line,
                format!("sample_measured_value is {value}; a measured time is never negative"),
            ));
        }
        if count <= 0.0 {
            return Err(InputError::at(
                path,
                line,
                format!("iteration_count is {count}; every sample needs at least one iteration"),
            ));
        }
        let (g, f, v, unit) = (field(ig), field(ifn), field(iv), field(iu));
        let bench = match benches
            .iter_mut()
            .find(|b| b.group == g && b.function == f && b.value == v)
        {
            Some(b) => b,
            None => {
                benches.push(Benchmark {
                    group: g.to_owned(),
                    function: f.to_owned(),
                    value: v.to_owned(),
                    unit: unit.to_owned(),
                    iters: Vec::new(),
                    values: Vec::new(),
                    first_line: line,
                });
                benches.last_mut().expect("just pushed")
            }
        };
        if bench.unit != unit {
            return Err(InputError::at(
                path,
                line,
                format!(
                    "unit `{unit}` differs from `{}` in the earlier samples of benchmark `{}`",
                    bench.unit,
                    bench.id()
                ),
            ));
        }
        bench.iters.push(count);
        bench.values.push(value);
    }
    if benches.is_empty() {
        return Err(InputError::at(
            path,
            2,
            "no samples after the header; expected one row per sample",
        ));
    }
    Ok(benches)
}

fn csv_error(path: &Path, e: &csv::Error) -> InputError {
    let line = e.position().map_or(1, csv::Position::line);
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => {
            format!("expected {expected_len} fields like the header, found {len}")
        }
        csv::ErrorKind::Utf8 { .. } => "not valid UTF-8 text".to_owned(),
        _ => format!("not a valid CSV file: {e}"),
    };
    InputError::at(path, line, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(Path::new("raw.csv"), text.as_bytes())
            .unwrap_err()
            .to_string()
    }

    const HEADER: &str =
        "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count\n";

    #[test]
    fn groups_benchmarks_in_order_of_appearance() {
        let text = format!(
            "{HEADER}g,b,,,,20.0,ns,2\ng,a,1,,,10.0,ns,1\ng,b,,,,41.0,ns,4\n\"g,x\",a,1,,,5,ns,1\n"
        );
        let b = parse(Path::new("raw.csv"), text.as_bytes()).unwrap();
        assert_eq!(b.len(), 3);
        assert_eq!(b[0].id(), "g/b");
        assert_eq!(b[0].iters, vec![2.0, 4.0]);
        assert_eq!(b[0].per_iteration(), vec![10.0, 10.25]);
        assert_eq!(b[1].id(), "g/a/1");
        assert_eq!(b[2].group, "g,x");
        assert_eq!(b[1].first_line, 3);
    }

    #[test]
    fn bad_input_names_file_line_and_problem() {
        assert_eq!(
            err(""),
            "raw.csv:1: empty file; expected the raw.csv header \
             `group,function,value,throughput_num,throughput_type,sample_measured_value,unit,iteration_count`"
        );
        assert!(err("group,function,value\n").starts_with(
            "raw.csv:1: missing columns throughput_num, throughput_type, sample_measured_value, unit, iteration_count;"
        ));
        assert_eq!(
            err(HEADER),
            "raw.csv:2: no samples after the header; expected one row per sample"
        );
        assert_eq!(
            err(&format!("{HEADER}g,,,,,1.0,ns,1\ng,,,,,abc,ns,1\n")),
            "raw.csv:3: sample_measured_value `abc` is not a finite number"
        );
        assert_eq!(
            err(&format!("{HEADER}g,,,,,1.0,ns,0\n")),
            "raw.csv:2: iteration_count is 0; every sample needs at least one iteration"
        );
        assert_eq!(
            err(&format!("{HEADER}g,,,,,1.0,ns\n")),
            "raw.csv:2: expected 8 fields like the header, found 7"
        );
        assert_eq!(
            err(&format!("{HEADER}g,,,,,NaN,ns,1\n")),
            "raw.csv:2: sample_measured_value `NaN` is not a finite number"
        );
        assert_eq!(
            err(&format!("{HEADER}g,,,,,1,ns,1\ng,,,,,1,us,1\n")),
            "raw.csv:3: unit `us` differs from `ns` in the earlier samples of benchmark `g`"
        );
    }
}
