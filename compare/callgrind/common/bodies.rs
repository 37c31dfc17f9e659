// The workloads, shared by both sides through `#[path]`.

pub fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

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

pub fn worst_case(n: i32) -> Vec<i32> {
    (0..n).rev().collect()
}

pub fn sum_to(n: u64) -> u64 {
    let mut total = 0u64;
    for i in 0..n {
        total = std::hint::black_box(total + i);
    }
    total
}
