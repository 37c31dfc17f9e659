//! The library crate that the Criterion.rs guide's "Getting Started" chapter
//! benchmarks (the guide calls it `mycrate`).
//!
//! The benchmarks themselves live in `benches/`, one file per example of the
//! guide; see this crate's README for which chapter each one comes from.

/// The recursive Fibonacci function from "Getting Started", Step 1.
///
/// `#[inline]` lets it be inlined into the benchmark crate, as the guide
/// explains.
#[inline]
pub fn fibonacci(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

/// The iterative Fibonacci function from "Getting Started", Step 4 -
/// Optimize.
#[inline]
pub fn fibonacci_fast(n: u64) -> u64 {
    let mut a = 0;
    let mut b = 1;

    match n {
        0 => b,
        _ => {
            for _ in 0..n {
                let c = a + b;
                a = b;
                b = c;
            }
            b
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_fibonaccis_agree() {
        for n in 0..=20 {
            assert_eq!(fibonacci(n), fibonacci_fast(n), "n = {n}");
        }
        assert_eq!(fibonacci(0), 1);
        assert_eq!(fibonacci(10), 89);
        assert_eq!(fibonacci(20), 10946);
    }
}
