//! Counters: how much each iteration processes, reported as a rate beside
//! the time (divan's `divan::counter`).
//!
//! ```
//! # extern crate yardstick_divan as divan;
//! use divan::counter::{BytesCount, CharsCount, ItemsCount};
//!
//! let bytes = BytesCount::of_str("héllo"); // 6 bytes
//! let chars = CharsCount::of_str("héllo"); // 5 chars
//! let items = ItemsCount::new(10usize);
//! # let _ = (bytes, chars, items);
//! ```

/// What a counter counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Bytes,
    Chars,
    Cycles,
    Items,
}

/// Any counter, its kind and count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnyCounter {
    pub(crate) kind: Kind,
    pub(crate) count: u64,
}

/// The counters of a benchmark, at most one of each kind.
#[derive(Debug, Clone, Default)]
pub struct CounterSet {
    pub(crate) counters: Vec<AnyCounter>,
}

impl CounterSet {
    pub(crate) fn set(&mut self, c: AnyCounter) {
        self.counters.retain(|x| x.kind != c.kind);
        self.counters.push(c);
        // One counter per kind (retained above), so no ties.
        self.counters.sort_unstable_by_key(|c| c.kind);
    }

    /// `self`'s counters, with `other`'s of the kinds `self` lacks.
    pub(crate) fn over(&self, other: &CounterSet) -> CounterSet {
        let mut out = other.clone();
        for &c in &self.counters {
            out.set(c);
        }
        out
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A counter type: [`BytesCount`], [`CharsCount`], [`CyclesCount`] or
/// [`ItemsCount`].
pub trait Counter: sealed::Sealed {
    #[doc(hidden)]
    fn erase(self) -> AnyCounter;
}

/// Anything usable as a counter: the counter types, and unsigned integers
/// (counted as items).
pub trait IntoCounter {
    /// The counter.
    type Counter: Counter;
    /// Converts.
    fn into_counter(self) -> Self::Counter;
}

impl<C: Counter> IntoCounter for C {
    type Counter = C;
    fn into_counter(self) -> C {
        self
    }
}

macro_rules! counter {
    ($(#[$doc:meta])* $name:ident, $kind:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name {
            count: u64,
        }

        impl $name {
            /// Counts `count`.
            pub fn new<N: CountUInt>(count: N) -> Self {
                Self { count: count.into_u64() }
            }
        }

        impl sealed::Sealed for $name {}

        impl<N: CountUInt> From<N> for $name {
            fn from(count: N) -> Self {
                Self::new(count)
            }
        }

        impl Counter for $name {
            fn erase(self) -> AnyCounter {
                AnyCounter { kind: Kind::$kind, count: self.count }
            }
        }
    };
}

counter!(
    /// Bytes processed per iteration, shown as B/s (decimal or binary
    /// prefixes, `--bytes-format`).
    BytesCount,
    Bytes
);
counter!(
    /// Characters processed per iteration, shown as char/s.
    CharsCount,
    Chars
);
counter!(
    /// Cycles per iteration (for example pixels or frames), shown as Hz.
    CyclesCount,
    Cycles
);
counter!(
    /// Items processed per iteration, shown as item/s.
    ItemsCount,
    Items
);

impl BytesCount {
    /// The size of `n` values of `T`.
    pub fn of_many<T>(n: usize) -> Self {
        Self::new(std::mem::size_of::<T>().saturating_mul(n))
    }

    /// The size of one `T`.
    pub fn of<T>() -> Self {
        Self::of_many::<T>(1)
    }

    /// The bytes of a string.
    pub fn of_str<S: ?Sized + AsRef<str>>(s: &S) -> Self {
        Self::new(s.as_ref().len())
    }

    /// The bytes of a slice's elements.
    pub fn of_slice<T, S: ?Sized + AsRef<[T]>>(s: &S) -> Self {
        Self::new(std::mem::size_of_val(s.as_ref()))
    }

    /// Bytes of `u8`s.
    pub fn u8(n: usize) -> Self {
        Self::of_many::<u8>(n)
    }

    /// Bytes of `u64`s.
    pub fn u64(n: usize) -> Self {
        Self::of_many::<u64>(n)
    }

    /// Bytes of `usize`s.
    pub fn usize(n: usize) -> Self {
        Self::of_many::<usize>(n)
    }
}

impl CharsCount {
    /// The characters of a string.
    pub fn of_str<S: ?Sized + AsRef<str>>(s: &S) -> Self {
        Self::new(s.as_ref().chars().count())
    }
}

/// Unsigned integers a counter can be made of.
pub trait CountUInt: Copy {
    #[doc(hidden)]
    fn into_u64(self) -> u64;
}

macro_rules! uint {
    ($($t:ty),*) => {$(
        impl CountUInt for $t {
            fn into_u64(self) -> u64 {
                u64::try_from(self).unwrap_or(u64::MAX)
            }
        }
        impl IntoCounter for $t {
            type Counter = ItemsCount;
            fn into_counter(self) -> ItemsCount {
                ItemsCount::new(self)
            }
        }
    )*};
}
uint!(u8, u16, u32, u64, u128, usize);

/// How byte rates are written (`--bytes-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord)]
#[non_exhaustive]
pub enum BytesFormat {
    /// Powers of 1000 (kB, MB …), the default.
    #[default]
    Decimal,
    /// Powers of 1024 (KiB, MiB …).
    Binary,
}

impl AnyCounter {
    /// The rate of this counter when one iteration takes `ns` nanoseconds.
    pub(crate) fn rate(&self, count: f64, ns: f64, bytes: BytesFormat) -> String {
        let per_sec = if ns > 0.0 {
            count * 1e9 / ns
        } else {
            f64::INFINITY
        };
        match self.kind {
            Kind::Bytes => match bytes {
                BytesFormat::Decimal => {
                    scaled(per_sec, 1000.0, &["", "k", "M", "G", "T", "P"], "B/s")
                }
                BytesFormat::Binary => {
                    scaled(per_sec, 1024.0, &["", "Ki", "Mi", "Gi", "Ti", "Pi"], "B/s")
                }
            },
            Kind::Chars => scaled(per_sec, 1000.0, &["", "K", "M", "G", "T", "P"], "char/s"),
            Kind::Cycles => scaled(per_sec, 1000.0, &["", "K", "M", "G", "T", "P"], "Hz"),
            Kind::Items => scaled(per_sec, 1000.0, &["", "K", "M", "G", "T", "P"], "item/s"),
        }
    }
}

/// `x` with the largest prefix that keeps it at least 1, to 4 significant
/// digits.
pub(crate) fn scaled(x: f64, base: f64, prefixes: &[&str], unit: &str) -> String {
    if !x.is_finite() {
        return format!("inf {unit}");
    }
    let mut v = x;
    let mut i = 0;
    while v >= base && i + 1 < prefixes.len() {
        v /= base;
        i += 1;
    }
    format!("{} {}{unit}", four_digits(v), prefixes[i])
}

/// `v` to 4 significant digits, without trailing zeros.
pub(crate) fn four_digits(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let digits = v.abs().log10().floor() as i32 + 1;
    let decimals = (4 - digits).clamp(0, 10) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_strings_and_slices() {
        assert_eq!(BytesCount::of_str("héllo").erase().count, 6);
        assert_eq!(CharsCount::of_str("héllo").erase().count, 5);
        assert_eq!(BytesCount::of_slice(&[0u32; 4][..]).erase().count, 16);
        assert_eq!(BytesCount::of_many::<u16>(3).erase().count, 6);
    }

    #[test]
    fn rates_use_the_largest_prefix() {
        let c = BytesCount::new(1000u32).erase();
        // 1000 B in 1 µs = 1e9 B/s = 1e9 / 1024² MiB/s = 953.67 MiB/s.
        assert_eq!(c.rate(1000.0, 1000.0, BytesFormat::Decimal), "1 GB/s");
        assert_eq!(c.rate(1000.0, 1000.0, BytesFormat::Binary), "953.7 MiB/s");
        let items = ItemsCount::new(3u8).erase();
        assert_eq!(items.rate(3.0, 2.0, BytesFormat::Decimal), "1.5 Gitem/s");
    }

    #[test]
    fn a_set_keeps_one_counter_per_kind() {
        let mut s = CounterSet::default();
        s.set(ItemsCount::new(1u8).erase());
        s.set(ItemsCount::new(2u8).erase());
        s.set(BytesCount::new(3u8).erase());
        assert_eq!(s.counters.len(), 2);
        assert_eq!(s.counters[1].count, 2);
    }
}
