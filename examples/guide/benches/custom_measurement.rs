//! Guide chapter "Custom Measurements": the `HalfSeconds` measurement and its
//! `HalfSecFormatter`, in full, used through `Criterion::with_measurement` and
//! the full form of `criterion_group!`.
//!
//! The guide's code is copied with these minimal changes, each marked below:
//! `NANOS_PER_SEC` is defined, `f64::from(u64)` (which does not exist) is
//! written `as f64`, and the `Throughput` matches gain arms for the variants
//! added after the guide was written (`Bits`, `BytesDecimal`,
//! `ElementsAndBytes`), which Criterion.rs 0.8 requires for the match to be
//! exhaustive.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

// Not shown in the guide, which borrows the constant from Criterion.rs' own
// `WallTime`.
const NANOS_PER_SEC: u64 = 1_000_000_000;

/// Silly "measurement" that is really just wall-clock time reported in half-seconds.
struct HalfSeconds;
impl Measurement for HalfSeconds {
    type Intermediate = Instant;
    type Value = Duration;

    fn start(&self) -> Self::Intermediate {
        Instant::now()
    }
    fn end(&self, i: Self::Intermediate) -> Self::Value {
        i.elapsed()
    }
    fn add(&self, v1: &Self::Value, v2: &Self::Value) -> Self::Value {
        *v1 + *v2
    }
    fn zero(&self) -> Self::Value {
        Duration::from_secs(0)
    }
    fn to_f64(&self, val: &Self::Value) -> f64 {
        let nanos = val.as_secs() * NANOS_PER_SEC + u64::from(val.subsec_nanos());
        nanos as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &HalfSecFormatter
    }
}

struct HalfSecFormatter;
impl ValueFormatter for HalfSecFormatter {
    fn format_value(&self, value: f64) -> String {
        // The value will be in nanoseconds so we have to convert to half-seconds.
        format!("{} s/2", value * 2f64 * 10f64.powi(-9))
    }

    fn format_throughput(&self, throughput: &Throughput, value: f64) -> String {
        match *throughput {
            // Fixed: the guide writes `f64::from(bytes)`; there is no
            // `From<u64> for f64`.
            Throughput::Bytes(bytes) => {
                format!("{} b/s/2", (bytes as f64) / (value * 2f64 * 10f64.powi(-9)))
            }
            Throughput::Elements(elems) => format!(
                "{} elem/s/2",
                (elems as f64) / (value * 2f64 * 10f64.powi(-9))
            ),
            // Added: variants newer than the guide.
            Throughput::BytesDecimal(bytes) => {
                format!("{} b/s/2", (bytes as f64) / (value * 2f64 * 10f64.powi(-9)))
            }
            Throughput::Bits(bits) => format!(
                "{} bit/s/2",
                (bits as f64) / (value * 2f64 * 10f64.powi(-9))
            ),
            Throughput::ElementsAndBytes { elements, .. } => format!(
                "{} elem/s/2",
                (elements as f64) / (value * 2f64 * 10f64.powi(-9))
            ),
        }
    }

    // The guide names the first argument `ns`; it is unused, hence `_ns`.
    fn scale_values(&self, _ns: f64, values: &mut [f64]) -> &'static str {
        for val in values {
            *val *= 2f64 * 10f64.powi(-9);
        }

        "s/2"
    }

    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        match *throughput {
            Throughput::Bytes(bytes) => {
                // Convert nanoseconds/iteration to bytes/half-second.
                for val in values {
                    *val = (bytes as f64) / (*val * 2f64 * 10f64.powi(-9))
                }

                "b/s/2"
            }
            Throughput::Elements(elems) => {
                for val in values {
                    *val = (elems as f64) / (*val * 2f64 * 10f64.powi(-9))
                }

                "elem/s/2"
            }
            // Added: variants newer than the guide.
            Throughput::BytesDecimal(bytes) => {
                for val in values {
                    *val = (bytes as f64) / (*val * 2f64 * 10f64.powi(-9))
                }

                "b/s/2"
            }
            Throughput::Bits(bits) => {
                for val in values {
                    *val = (bits as f64) / (*val * 2f64 * 10f64.powi(-9))
                }

                "bit/s/2"
            }
            Throughput::ElementsAndBytes { elements, .. } => {
                for val in values {
                    *val = (elements as f64) / (*val * 2f64 * 10f64.powi(-9))
                }

                "elem/s/2"
            }
        }
    }

    fn scale_for_machines(&self, values: &mut [f64]) -> &'static str {
        // Convert values in nanoseconds to half-seconds.
        for val in values {
            *val *= 2f64 * 10f64.powi(-9);
        }

        "s/2"
    }
}

fn fibonacci(n: u64) -> u64 {
    match n {
        0 => 1,
        1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

fn fibonacci_cycles(criterion: &mut Criterion<HalfSeconds>) {
    // Use the criterion struct as normal here.
    // (The guide elides the body; one plain benchmark and one with a
    // throughput, so that both formatter paths are used.)
    criterion.bench_function("fib 15 in half-seconds", |b| {
        b.iter(|| fibonacci(black_box(15)))
    });

    let bytes = vec![1u8; 1024];
    let mut group = criterion.benchmark_group("half-seconds");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("sum 1 KiB", |b| {
        b.iter(|| black_box(&bytes).iter().map(|&x| u32::from(x)).sum::<u32>())
    });
    group.finish();
}

fn alternate_measurement() -> Criterion<HalfSeconds> {
    Criterion::default().with_measurement(HalfSeconds)
}

criterion_group! {
    name = benches;
    config = alternate_measurement();
    targets = fibonacci_cycles
}
// The guide's snippet stops at the group; a bench file also needs this.
criterion_main!(benches);
