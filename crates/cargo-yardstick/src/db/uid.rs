//! A run's identity: a 128-bit FNV-1a hash of its context and results,
//! written as 32 hex digits, given when the run is recorded and carried by
//! its export, so merging an export twice finds the run already there. (FNV is
//! not for adversaries; it only has to tell honest runs apart, and it is
//! stable across Rust versions, unlike `DefaultHasher`.)

use crate::record::RunMeta;

const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

struct Fnv(u128);

impl Fnv {
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u128::from(x);
            self.0 = self.0.wrapping_mul(PRIME);
        }
    }

    /// A field followed by a separator no text contains, so that
    /// `("ab", "c")` and `("a", "bc")` differ.
    fn field(&mut self, b: &[u8]) {
        self.bytes(b);
        self.bytes(&[0xff]);
    }
}

/// The uid of a run with context `meta` and results `(name, unit,
/// [point, lower, upper])`, in name order. `salt` tells apart two runs
/// recorded now with the same content (the process and the clock's
/// nanoseconds); it is empty for runs given a uid after the fact.
pub(crate) fn of<'a>(
    meta: &RunMeta,
    results: impl Iterator<Item = (&'a str, &'a str, [f64; 3])>,
    salt: &str,
) -> String {
    let mut h = Fnv(OFFSET);
    h.field(salt.as_bytes());
    let opt = |s: &Option<String>| s.clone().unwrap_or_else(|| "\u{0}none".to_owned());
    for text in [
        meta.machine.as_str(),
        &meta.time.to_string(),
        &opt(&meta.commit),
        &opt(&meta.branch),
        if meta.dirty { "dirty" } else { "clean" },
        &meta.cpu,
        &meta.cores.to_string(),
        &meta.os,
        &meta.rustc,
        &meta.config,
        &meta.source,
        &opt(&meta.label),
    ] {
        h.field(text.as_bytes());
    }
    for (name, unit, t) in results {
        h.field(name.as_bytes());
        h.field(unit.as_bytes());
        for v in t {
            h.field(&v.to_bits().to_le_bytes());
        }
    }
    format!("{:032x}", h.0)
}

/// A salt for a run recorded now.
pub(crate) fn fresh_salt() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}:{nanos}", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_128_matches_the_published_test_vectors() {
        // From the FNV reference (Fowler, Noll, Vo; draft-eastlake-fnv):
        // FNV-1a 128 of "" and of "a".
        let mut h = Fnv(OFFSET);
        assert_eq!(h.0, 0x6c62272e07bb014262b821756295c58d);
        h.bytes(b"a");
        assert_eq!(h.0, 0xd228cb696f1a8caf78912b704e4a8964);
    }

    #[test]
    fn any_field_changes_the_uid() {
        let m = RunMeta::default();
        let a = of(&m, [("b", "ns", [1.0, 0.5, 2.0])].into_iter(), "");
        assert_eq!(a.len(), 32);
        assert_eq!(a, of(&m, [("b", "ns", [1.0, 0.5, 2.0])].into_iter(), ""));
        assert_ne!(a, of(&m, [("b", "ns", [1.0, 0.5, 2.5])].into_iter(), ""));
        let other = RunMeta {
            machine: "x".into(),
            ..RunMeta::default()
        };
        assert_ne!(
            a,
            of(&other, [("b", "ns", [1.0, 0.5, 2.0])].into_iter(), "")
        );
    }
}
