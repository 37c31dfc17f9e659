//! Guide chapter "Advanced Configuration", section "Throughput Measurements":
//! `Throughput::Elements` set inside a loop over parameterized inputs.
//!
//! The guide's snippet does not compile as printed; the minimal fixes are
//! marked below.

use criterion::*;

// The guide elides the type (`type Element = ...;`); its inputs are `&[u8]`.
type Element = u8;

fn encode(elements: &[Element]) {
    // Encode the elements
    // (Filled in: a tiny run-length count stands in for encoding.)
    let runs = elements.windows(2).filter(|w| w[0] != w[1]).count();
    std::hint::black_box(runs);
}

fn bench(c: &mut Criterion) {
    // The guide elides both inputs (`let elements_1 : &[u8] = ...;`).
    let elements_1: &[u8] = &[1, 1, 2, 3, 3, 3, 4, 5, 5, 6, 7, 7, 7, 7, 8, 9];
    let elements_2: &[u8] = &[7; 1024];

    let mut group = c.benchmark_group("throughput-example");
    for (i, elements) in [elements_1, elements_2].iter().enumerate() {
        // Fixed: the guide writes `elems.len()`, but the loop variable is
        // `elements`.
        group.throughput(Throughput::Elements(elements.len() as u64));
        // Fixed: the guide's closure takes `|elems, b|`; the bencher comes
        // first.
        group.bench_with_input(format!("Encode {}", i), elements, |b, elems| {
            b.iter(|| encode(elems))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
