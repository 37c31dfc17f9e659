//! Small workloads for the example benchmarks of yardstick-callgrind.

/// The n-th Fibonacci number, recursively (`fibonacci(0) == fibonacci(1) == 1`).
pub fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

/// Sorts `v` in place with bubble sort and returns it.
pub fn bubble_sort(mut v: Vec<i32>) -> Vec<i32> {
    let n = v.len();
    for i in 0..n {
        for j in 0..n - 1 - i {
            if v[j] > v[j + 1] {
                v.swap(j, j + 1);
            }
        }
    }
    v
}

/// The sum of `0..n`, one addition at a time (the loop is kept by
/// `black_box`, so the instruction count grows linearly with `n`).
pub fn sum_to(n: u64) -> u64 {
    let mut total = 0u64;
    for i in 0..n {
        total = std::hint::black_box(total + i);
    }
    total
}

/// A descending vector `n-1, …, 0`: the worst case for bubble sort.
pub fn worst_case(n: i32) -> Vec<i32> {
    (0..n).rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads() {
        assert_eq!(fibonacci(10), 89);
        assert_eq!(bubble_sort(vec![3, 1, 2]), vec![1, 2, 3]);
        assert_eq!(sum_to(4), 6);
        assert_eq!(worst_case(3), vec![2, 1, 0]);
    }
}
