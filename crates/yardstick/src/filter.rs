//! Which benchmarks to run.

use regex_lite::Regex;
use yardstick_format::criterion::BenchmarkRecord;

/// Which benchmarks [`Criterion::with_benchmark_filter`](crate::Criterion::with_benchmark_filter)
/// lets run, as in Criterion.rs.
///
/// The `Regex` variant holds a [`regex_lite::Regex`] (Criterion.rs uses the
/// `regex` crate's type, which yardstick does not depend on).
#[derive(Debug, Clone)]
pub enum BenchmarkFilter {
    /// Run every benchmark.
    AcceptAll,
    /// Run benchmarks whose id matches.
    Regex(Regex),
    /// Run the benchmark with exactly this id.
    Exact(String),
    /// Run nothing.
    RejectAll,
}

impl From<BenchmarkFilter> for Filter {
    fn from(f: BenchmarkFilter) -> Filter {
        match f {
            BenchmarkFilter::AcceptAll => Filter::All,
            BenchmarkFilter::Regex(r) => Filter::Patterns(vec![Pattern::Regex(r)]),
            BenchmarkFilter::Exact(s) => Filter::Exact(vec![s]),
            BenchmarkFilter::RejectAll => Filter::Exact(Vec::new()),
        }
    }
}

/// The positional filters of the command line.
#[derive(Debug, Clone, Default)]
pub(crate) enum Filter {
    /// No filter: everything runs.
    #[default]
    All,
    /// `--exact`: the whole id equals one of these.
    Exact(Vec<String>),
    /// Each filter is a regex if it parses as one, else a substring.
    Patterns(Vec<Pattern>),
}

#[derive(Debug, Clone)]
pub(crate) enum Pattern {
    Regex(Regex),
    Substring(String),
}

impl Filter {
    pub(crate) fn new(filters: &[String], exact: bool) -> Filter {
        if filters.is_empty() {
            Filter::All
        } else if exact {
            Filter::Exact(filters.to_vec())
        } else {
            Filter::Patterns(
                filters
                    .iter()
                    .map(|f| match Regex::new(f) {
                        Ok(r) => Pattern::Regex(r),
                        Err(_) => Pattern::Substring(f.clone()),
                    })
                    .collect(),
            )
        }
    }

    pub(crate) fn matches(&self, id: &str) -> bool {
        match self {
            Filter::All => true,
            Filter::Exact(names) => names.iter().any(|n| n == id),
            Filter::Patterns(ps) => ps.iter().any(|p| match p {
                Pattern::Regex(r) => r.is_match(id),
                Pattern::Substring(s) => id.contains(s.as_str()),
            }),
        }
    }
}

/// What `--partition` deals to shards for benchmark `id`: its id, unless
/// it is compared with other benchmarks of its group when the group ends,
/// which must then be measured in the same process. With ratios or
/// requirements between the group's functions (`compared`) that is the
/// whole group; a member with a numeric input joins its function's Big-O
/// fit over the inputs (`group_summary::complexity`), so the unit is the
/// function. Interleaved comparisons are dealt by their name
/// (`interleave.rs`).
pub(crate) fn partition_unit(id: &BenchmarkRecord, compared: bool) -> String {
    if compared {
        return id.group_id.clone();
    }
    let numeric = id
        .value_str
        .as_deref()
        .is_some_and(|v| v.trim().parse::<f64>().is_ok());
    match (&id.function_id, numeric) {
        (_, false) => id.full_id.clone(),
        (Some(f), true) => format!("{}/{f}", id.group_id),
        (None, true) => id.group_id.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(filters: &[&str], exact: bool) -> Filter {
        Filter::new(
            &filters.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(),
            exact,
        )
    }

    #[test]
    fn substrings_regexes_and_exact_names() {
        assert!(f(&[], false).matches("anything"));
        assert!(f(&["fib"], false).matches("group/fib/20"));
        assert!(f(&["^group/fib/2.$"], false).matches("group/fib/20"));
        assert!(!f(&["^fib"], false).matches("group/fib/20"));
        // Not a valid regex: used as a substring.
        assert!(f(&["fib("], false).matches("fib(20)"));
        assert!(f(&["fib 20"], true).matches("fib 20"));
        assert!(!f(&["fib"], true).matches("fib 20"));
        assert!(f(&["nope", "fib"], false).matches("fib 20"));
    }

    #[test]
    fn members_compared_with_each_other_share_a_partition_unit() {
        let id = |g: &str, f: Option<&str>, v: Option<&str>| {
            crate::id::FullId::new(g, f.map(str::to_owned), v.map(str::to_owned), None)
        };
        let unit = |i: &crate::id::FullId, c| partition_unit(i, c);
        assert_eq!(unit(&id("g", Some("f"), Some("x")), false), "g/f/x");
        assert_eq!(unit(&id("g", Some("f"), None), false), "g/f");
        // Numeric inputs feed the function's Big-O fit.
        assert_eq!(unit(&id("g", Some("f"), Some("64")), false), "g/f");
        assert_eq!(unit(&id("g", None, Some("1.5")), false), "g");
        // Ratios or requirements between functions: the whole group.
        assert_eq!(unit(&id("g", Some("f"), Some("x")), true), "g");
    }

    #[test]
    fn criterion_benchmark_filters() {
        let all: Filter = BenchmarkFilter::AcceptAll.into();
        assert!(all.matches("x"));
        let none: Filter = BenchmarkFilter::RejectAll.into();
        assert!(!none.matches("x"));
        let exact: Filter = BenchmarkFilter::Exact("a/b".into()).into();
        assert!(exact.matches("a/b") && !exact.matches("a/bc"));
        let re: Filter = BenchmarkFilter::Regex(Regex::new("^a/").unwrap()).into();
        assert!(re.matches("a/bc") && !re.matches("ba/"));
    }
}
