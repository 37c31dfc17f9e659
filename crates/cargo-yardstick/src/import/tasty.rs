//! tasty-bench's `--csv FILE`: a header `Name,Mean (ps),2*Stdev (ps)` (and
//! optionally `Allocated,Copied,Peak Memory`), then one row per benchmark.
//! Only the summary is kept: the mean with mean ± 2σ as its interval.

use crate::record::{BenchResult, Interval};

/// Parses the file.
pub fn parse(text: &str) -> Result<Vec<BenchResult>, String> {
    parse_reader(text.as_bytes())
}

/// Parses the file as it is read: only the rows are kept.
pub fn parse_reader(input: impl std::io::Read) -> Result<Vec<BenchResult>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(input);
    let headers = reader
        .headers()
        .map_err(|e| format!("cannot read the header: {e}"))?
        .clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| {
                format!(
                    "missing column \"{name}\" (expected the header Name,Mean (ps),2*Stdev (ps))"
                )
            })
    };
    let (name_c, mean_c, sd_c) = (col("Name")?, col("Mean (ps)")?, col("2*Stdev (ps)")?);
    let mut out = Vec::new();
    for (i, row) in reader.records().enumerate() {
        let line = i + 2;
        let row = row.map_err(|e| format!("line {line}: {e}"))?;
        let field = |c: usize| {
            row.get(c)
                .ok_or_else(|| format!("line {line}: too few fields"))
        };
        let num = |c: usize| -> Result<f64, String> {
            let f = field(c)?;
            f.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("line {line}: \"{f}\" is not a number"))
        };
        let mean = num(mean_c)? / 1e3;
        let two_sd = num(sd_c)? / 1e3;
        out.push(BenchResult::summary(
            field(name_c)?.to_owned(),
            "ns".into(),
            Interval {
                point: mean,
                lower: mean - two_sd,
                upper: mean + two_sd,
            },
        ));
    }
    Ok(out)
}
