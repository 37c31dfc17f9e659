//! `--partition hash:K/N` and `count:K/N`: which shard of a suite split
//! over a CI matrix measures which benchmark, with cargo-nextest's meaning.
//!
//! The one home of the rule: the bench binary (`cargo bench -- --partition`),
//! `cargo yardstick bench` (which passes it on) and `cargo yardstick ab`
//! all select through [`Selector`], and the shard files `cargo yardstick
//! merge` reads name their shard by [`Partition`]'s text.
//!
//! - `count:K/N`: the i-th unit (0-based, in the listing's order, after the
//!   filter) goes to shard `(i mod N) + 1`. As in nextest, counting is per
//!   binary: a bench binary cannot see the others' listings.
//! - `hash:K/N`: a unit goes to shard `(FNV-1a-64(name) mod N) + 1`. FNV-1a
//!   is written out ([`crate::names::fnv1a`]), so the assignment is the same
//!   on every platform and Rust version, and adding a benchmark moves no
//!   other one.
//!
//! A unit is a benchmark's id, except for benchmarks that are compared with
//! each other within one run: the harness then hands the selector one name
//! for all of them (the group's), so they land in the same shard.
//!
//! ```
//! use yardstick_format::partition::{Partition, Selector};
//!
//! let p: Partition = Partition::parse("count:2/3", "--partition")?;
//! let mut s = Selector::new(p);
//! let picked: Vec<bool> = ["a", "b", "c", "d", "e"].iter().map(|u| s.admits(u)).collect();
//! assert_eq!(picked, [false, true, false, false, true]);
//! # Ok::<(), String>(())
//! ```

use std::collections::HashMap;
use std::fmt;

/// What a partition's text must be, for messages.
pub const EXPECTED: &str = "hash:K/N or count:K/N with 1 ≤ K ≤ N, e.g. hash:2/3";

/// How units are dealt to shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// By a stable hash of the unit's name.
    Hash,
    /// Round-robin in the listing's order.
    Count,
}

/// One shard of a partition: `K` of `N`, dealt by `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Partition {
    /// How units are dealt.
    pub kind: Kind,
    /// This shard, counting from 1.
    pub index: u32,
    /// The number of shards.
    pub count: u32,
}

impl Partition {
    /// Reads `hash:K/N` or `count:K/N` (1 ≤ K ≤ N); `flag` names where the
    /// text came from in the error.
    ///
    /// # Errors
    ///
    /// One line naming the flag, the text and what was expected.
    pub fn parse(text: &str, flag: &str) -> Result<Partition, String> {
        Partition::from_text(text)
            .map_err(|why| format!("{flag}: '{text}' {why}; expected {EXPECTED}"))
    }

    /// Reads `hash:K/N` or `count:K/N`.
    ///
    /// # Errors
    ///
    /// Why the text is no partition, in words that follow its quotation
    /// (`has no /N, the number of shards`).
    pub fn from_text(text: &str) -> Result<Partition, String> {
        let (kind, shards) = match text.trim().split_once(':') {
            Some(("hash", rest)) => (Kind::Hash, rest),
            Some(("count", rest)) => (Kind::Count, rest),
            Some((other, _)) => {
                return Err(format!("has an unknown kind '{other}' (hash or count)"))
            }
            None => return Err("names no kind".to_owned()),
        };
        let (k, n) = shards
            .split_once('/')
            .ok_or_else(|| "has no /N, the number of shards".to_owned())?;
        let number = |s: &str| s.trim().parse::<u32>().ok();
        let (Some(index), Some(count)) = (number(k), number(n)) else {
            return Err("has a shard or count that is not a whole number".to_owned());
        };
        if count == 0 {
            return Err("has no shards (N = 0)".to_owned());
        }
        if index == 0 || index > count {
            return Err(format!("names shard {index}, outside 1 to {count}"));
        }
        Ok(Partition { kind, index, count })
    }

    /// The shard (from 1) a unit goes to under `hash:`.
    #[must_use]
    pub fn hash_shard(unit: &str, count: u32) -> u32 {
        (crate::names::fnv1a(unit.as_bytes()) % u64::from(count.max(1))) as u32 + 1
    }

    /// `K/N`, the shard alone.
    #[must_use]
    pub fn shard(&self) -> String {
        format!("{}/{}", self.index, self.count)
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            Kind::Hash => "hash",
            Kind::Count => "count",
        };
        write!(f, "{kind}:{}/{}", self.index, self.count)
    }
}

/// Decides, unit by unit in the listing's order, whether this shard takes
/// it. A unit seen again (another member of a group) gets the answer it
/// got first, so a group is never split.
#[derive(Debug, Clone)]
pub struct Selector {
    partition: Partition,
    /// Each unit seen so far, and whether this shard takes it.
    seen: HashMap<String, bool>,
}

impl Selector {
    /// A selector for one shard, before the first unit.
    #[must_use]
    pub fn new(partition: Partition) -> Selector {
        Selector {
            partition,
            seen: HashMap::new(),
        }
    }

    /// The partition it selects for.
    #[must_use]
    pub fn partition(&self) -> Partition {
        self.partition
    }

    /// Whether this shard takes `unit`; call it once per benchmark, in the
    /// listing's order, after the filter.
    pub fn admits(&mut self, unit: &str) -> bool {
        if let Some(&taken) = self.seen.get(unit) {
            return taken;
        }
        let p = self.partition;
        let shard = match p.kind {
            Kind::Hash => Partition::hash_shard(unit, p.count),
            Kind::Count => (self.seen.len() as u64 % u64::from(p.count)) as u32 + 1,
        };
        let taken = shard == p.index;
        self.seen.insert(unit.to_owned(), taken);
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Partition, String> {
        Partition::parse(text, "--partition")
    }

    #[test]
    fn good_forms_read_and_print_back() {
        for text in ["hash:1/1", "hash:2/3", "count:3/3", "count:1/2"] {
            assert_eq!(p(text).unwrap().to_string(), text);
        }
        let q = p("count:2/3").unwrap();
        assert_eq!((q.kind, q.index, q.count), (Kind::Count, 2, 3));
        assert_eq!(q.shard(), "2/3");
    }

    #[test]
    fn bad_forms_get_one_line_naming_the_flag() {
        let cases = [
            ("hash:0/3", "names shard 0, outside 1 to 3"),
            ("count:4/3", "names shard 4, outside 1 to 3"),
            ("foo:1/2", "has an unknown kind 'foo'"),
            ("hash:1", "has no /N"),
            ("hash:1/0", "has no shards (N = 0)"),
            ("count:a/3", "not a whole number"),
            ("count:-1/3", "not a whole number"),
            ("2/3", "names no kind"),
        ];
        for (text, why) in cases {
            let e = p(text).unwrap_err();
            assert!(e.starts_with(&format!("--partition: '{text}' ")), "{e}");
            assert!(e.contains(why), "{text}: {e}");
            assert!(e.ends_with("e.g. hash:2/3"), "{e}");
        }
    }

    /// Every unit lands in exactly one shard, whatever the kind; count
    /// deals round-robin, and members of one unit stay together.
    #[test]
    fn every_unit_lands_in_exactly_one_shard() {
        let units: Vec<String> = (0..60).map(|i| format!("g{}/b{i}", i % 7)).collect();
        for kind in ["hash", "count"] {
            let mut owners = vec![0; units.len()];
            for k in 1..=3 {
                let mut s = Selector::new(p(&format!("{kind}:{k}/3")).unwrap());
                for (i, u) in units.iter().enumerate() {
                    if s.admits(u) {
                        owners[i] += 1;
                    }
                }
            }
            assert!(owners.iter().all(|&n| n == 1), "{kind}: {owners:?}");
        }
        let mut s = Selector::new(p("count:1/3").unwrap());
        let got: Vec<bool> = ["a", "b", "c", "a", "d", "b"]
            .iter()
            .map(|u| s.admits(u))
            .collect();
        // a → 1, b → 2, c → 3, a again → 1, d → 1 (the fourth unit).
        assert_eq!(got, [true, false, false, true, true, false]);
    }

    /// The hash is FNV-1a-64 of the name, fixed by its published vector:
    /// FNV-1a("a") = 0xaf63dc4c8601ec8c, which is 0 mod 2 and 1 mod 3.
    #[test]
    fn hash_shards_are_fixed_by_fnv1a() {
        assert_eq!(0xaf63_dc4c_8601_ec8c_u64 % 3, 1);
        assert_eq!(Partition::hash_shard("a", 3), 2);
        assert_eq!(Partition::hash_shard("a", 2), 1);
        assert_eq!(Partition::hash_shard("a", 1), 1);
    }
}
