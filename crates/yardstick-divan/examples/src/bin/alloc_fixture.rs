//! A divan bench file with `AllocProfiler`, for the allocation rows' test:
//! each iteration allocates, grows, shrinks and frees one buffer.

use divan::black_box;

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 3, sample_size = 4)]
fn grow_and_shrink() {
    let mut v: Vec<u8> = Vec::with_capacity(100);
    v.reserve_exact(200);
    v.shrink_to(10);
    black_box(&v);
}
