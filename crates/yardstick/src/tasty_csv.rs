//! tasty-bench's CSV of results (`--csv`) and its comparison against one
//! (`--baseline-csv`): `Name,Mean (ps),2*Stdev (ps)`.

use std::collections::HashMap;
use std::path::Path;

/// The header tasty-bench writes.
pub(crate) const HEADER: &str = "Name,Mean (ps),2*Stdev (ps)";

/// One benchmark's row: name, mean and twice the standard deviation, both
/// in picoseconds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub name: String,
    pub mean_ps: f64,
    pub two_stdev_ps: f64,
}

/// The CSV text of `rows`, names quoted when they hold a comma or quote.
pub(crate) fn render(rows: &[Row]) -> String {
    let mut out = format!("{HEADER}\n");
    for r in rows {
        let name = if r.name.contains([',', '"', '\n']) {
            format!("\"{}\"", r.name.replace('"', "\"\""))
        } else {
            r.name.clone()
        };
        out.push_str(&format!("{name},{:.0},{:.0}\n", r.mean_ps, r.two_stdev_ps));
    }
    out
}

/// Reads a CSV written by `--csv` or by tasty-bench: name → mean in ps.
///
/// # Errors
///
/// One line naming the file, the line and what is wrong.
pub(crate) fn read(path: &Path) -> Result<HashMap<String, f64>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read --baseline-csv {}: {e}", path.display()))?;
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, h))
            if h.trim_start_matches('\u{feff}')
                .starts_with("Name,Mean (ps)") => {}
        _ => {
            return Err(format!(
                "{}:1: not a tasty-bench CSV: the header must start with \"Name,Mean (ps)\"",
                path.display()
            ))
        }
    }
    let mut map = HashMap::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |what: &str| format!("{}:{}: {what}", path.display(), i + 1);
        let fields = yardstick_format::csv::fields(line).ok_or_else(|| bad("unbalanced quotes"))?;
        if fields.len() < 2 {
            return Err(bad("expected Name,Mean (ps),2*Stdev (ps)"));
        }
        // A name may contain commas unquoted (tasty-bench does not quote):
        // the last two fields are the numbers.
        let n = fields.len();
        let name = if n > 3 {
            fields[..n - 2].join(",")
        } else {
            fields[0].clone()
        };
        let mean_field = if n >= 3 { &fields[n - 2] } else { &fields[1] };
        let mean: f64 = mean_field
            .trim()
            .parse()
            .map_err(|_| bad(&format!("the mean '{mean_field}' is not a number")))?;
        if !(mean.is_finite() && mean > 0.0) {
            return Err(bad("the mean must be a positive number of picoseconds"));
        }
        map.insert(name, mean);
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_a_file() {
        let rows = [
            Row {
                name: "fib/20".into(),
                mean_ps: 48453.4,
                two_stdev_ps: 4060.0,
            },
            Row {
                name: "a,\"b\"".into(),
                mean_ps: 1e6,
                two_stdev_ps: 2.0,
            },
        ];
        let text = render(&rows);
        assert!(
            text.starts_with("Name,Mean (ps),2*Stdev (ps)\nfib/20,48453,4060\n"),
            "{text}"
        );
        let p = std::env::temp_dir().join(format!("ys-tasty-{}.csv", std::process::id()));
        std::fs::write(&p, &text).unwrap();
        let map = read(&p).unwrap();
        assert_eq!(map["fib/20"], 48453.0);
        assert_eq!(map["a,\"b\""], 1e6);
        // tasty-bench's own file, from its README.
        std::fs::write(
            &p,
            "Name,Mean (ps),2*Stdev (ps)\nAll.Fibonacci numbers.fifth,48453,4060\n",
        )
        .unwrap();
        assert_eq!(read(&p).unwrap()["All.Fibonacci numbers.fifth"], 48453.0);
        std::fs::write(&p, "Name,Mean (ps),2*Stdev (ps)\nx,abc,1\n").unwrap();
        let e = read(&p).unwrap_err();
        assert!(e.ends_with(":2: the mean 'abc' is not a number"), "{e}");
        std::fs::write(&p, "garbage\n").unwrap();
        assert!(read(&p).unwrap_err().contains(":1: not a tasty-bench CSV"));
        std::fs::remove_file(&p).unwrap();
    }
}

/// tasty-bench's `--csv` file as a sink: a row per time benchmark, written
/// when the run ends.
#[derive(Default)]
pub(crate) struct Csv {
    rows: Vec<Row>,
}

impl crate::output::sink::Sink for Csv {
    fn benchmark(
        &mut self,
        _run: &crate::engine::RunSettings,
        o: &crate::output::sink::Outcome<'_>,
    ) {
        if o.unit == "ns" {
            let (mean, two_stdev) = crate::output::tasty_estimate(o.analysis, o.unit);
            self.rows.push(Row {
                name: o.id.full_id.clone(),
                mean_ps: mean * 1e3,
                two_stdev_ps: two_stdev * 1e3,
            });
        }
    }

    fn finish(
        &mut self,
        run: &crate::engine::RunSettings,
        _end: &crate::output::sink::RunEnd<'_>,
    ) -> Vec<(String, String)> {
        let Some(path) = &run.csv else {
            return Vec::new();
        };
        match crate::store::write_atomic(path, render(&self.rows).as_bytes()) {
            Ok(()) => Vec::new(),
            Err(e) => vec![("--csv".to_owned(), format!("could not write --csv: {e}"))],
        }
    }
}
