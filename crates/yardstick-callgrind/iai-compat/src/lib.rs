//! The functions the iai-callgrind bench files of this crate measure.

/// The README's recursive Fibonacci.
pub fn fibonacci(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

/// The README's bubble sort.
pub fn bubble_sort(mut input: Vec<i32>) -> Vec<i32> {
    for i in 0..input.len() {
        for j in 0..input.len() - i - 1 {
            if input[j] > input[j + 1] {
                input.swap(j, j + 1);
            }
        }
    }
    input
}
