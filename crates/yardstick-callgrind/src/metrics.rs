//! Callgrind's events and the metrics derived from them.
//!
//! Callgrind counts raw events (`Ir`, `Dr`, `Dw` and, with the cache
//! simulation, the misses `I1mr`, `D1mr`, `D1mw`, `ILmr`, `DLmr`, `DLmw`).
//! The metrics yardstick prints are derived from them as iai-callgrind does,
//! with Itamar Turner-Trauring's formula for the estimated cycles:
//!
//! ```text
//! RAM hits         = ILmr + DLmr + DLmw
//! LL hits          = (I1mr + D1mr + D1mw) - RAM hits
//! Total read+write = Ir + Dr + Dw
//! L1 hits          = Total read+write - (I1mr + D1mr + D1mw)
//! Estimated cycles = L1 hits + 5 × LL hits + 35 × RAM hits
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One kind of event: a raw callgrind event or a derived metric.
///
/// The names (`Ir`, `L1hits`, `EstimatedCycles`, …) are iai-callgrind's and
/// are what `--regression` and the JSON summary use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EventKind {
    /// Instructions executed (`Ir`).
    Ir,
    /// Data reads (`Dr`).
    Dr,
    /// Data writes (`Dw`).
    Dw,
    /// L1 instruction cache read misses (`I1mr`).
    I1mr,
    /// L1 data cache read misses (`D1mr`).
    D1mr,
    /// L1 data cache write misses (`D1mw`).
    D1mw,
    /// Last-level instruction cache read misses (`ILmr`).
    ILmr,
    /// Last-level data cache read misses (`DLmr`).
    DLmr,
    /// Last-level data cache write misses (`DLmw`).
    DLmw,
    /// Derived: accesses served by the L1 caches.
    L1hits,
    /// Derived: accesses served by the last-level cache.
    LLhits,
    /// Derived: accesses that went to memory.
    RamHits,
    /// Derived: all reads and writes (`Ir + Dr + Dw`).
    TotalRW,
    /// Derived: `L1hits + 5 × LLhits + 35 × RamHits`.
    EstimatedCycles,
    /// System calls (`--collect-systime`) (`SysCount`): named for iai-callgrind's API; not collected.
    SysCount,
    /// Time in system calls (`SysTime`): named for iai-callgrind's API; not collected.
    SysTime,
    /// CPU time in system calls (`SysCpuTime`): named for iai-callgrind's API; not collected.
    SysCpuTime,
    /// Global bus events (`--collect-bus`) (`Ge`): named for iai-callgrind's API; not collected.
    Ge,
    /// Conditional branches (`--branch-sim`) (`Bc`): named for iai-callgrind's API; not collected.
    Bc,
    /// Mispredicted conditional branches (`Bcm`): named for iai-callgrind's API; not collected.
    Bcm,
    /// Indirect branches (`Bi`): named for iai-callgrind's API; not collected.
    Bi,
    /// Mispredicted indirect branches (`Bim`): named for iai-callgrind's API; not collected.
    Bim,
    /// Last-level instruction cache read misses, dirty (`--simulate-wb`) (`ILdmr`): named for iai-callgrind's API; not collected.
    ILdmr,
    /// Last-level data cache read misses, dirty (`DLdmr`): named for iai-callgrind's API; not collected.
    DLdmr,
    /// Last-level data cache write misses, dirty (`DLdmw`): named for iai-callgrind's API; not collected.
    DLdmw,
    /// L1 access cost (`--cacheuse`) (`AcCost1`): named for iai-callgrind's API; not collected.
    AcCost1,
    /// Last-level access cost (`AcCost2`): named for iai-callgrind's API; not collected.
    AcCost2,
    /// L1 spatial loss (`SpLoss1`): named for iai-callgrind's API; not collected.
    SpLoss1,
    /// Last-level spatial loss (`SpLoss2`): named for iai-callgrind's API; not collected.
    SpLoss2,
}

impl EventKind {
    /// The raw events callgrind reports with the cache simulation on, in
    /// callgrind's order.
    pub const RAW: [EventKind; 9] = [
        EventKind::Ir,
        EventKind::Dr,
        EventKind::Dw,
        EventKind::I1mr,
        EventKind::D1mr,
        EventKind::D1mw,
        EventKind::ILmr,
        EventKind::DLmr,
        EventKind::DLmw,
    ];

    /// iai-callgrind's other event kinds: collected when callgrind's
    /// arguments turn them on; not printed, but in the limits' reach.
    pub const EXTRA: [EventKind; 15] = [
        EventKind::SysCount,
        EventKind::SysTime,
        EventKind::SysCpuTime,
        EventKind::Ge,
        EventKind::Bc,
        EventKind::Bcm,
        EventKind::Bi,
        EventKind::Bim,
        EventKind::ILdmr,
        EventKind::DLdmr,
        EventKind::DLdmw,
        EventKind::AcCost1,
        EventKind::AcCost2,
        EventKind::SpLoss1,
        EventKind::SpLoss2,
    ];

    /// The metrics printed for every benchmark, in iai-callgrind's order.
    pub const SHOWN: [EventKind; 6] = [
        EventKind::Ir,
        EventKind::L1hits,
        EventKind::LLhits,
        EventKind::RamHits,
        EventKind::TotalRW,
        EventKind::EstimatedCycles,
    ];

    /// The short name (`Ir`, `L1hits`, …) used on the command line and in
    /// JSON.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Ir => "Ir",
            EventKind::Dr => "Dr",
            EventKind::Dw => "Dw",
            EventKind::I1mr => "I1mr",
            EventKind::D1mr => "D1mr",
            EventKind::D1mw => "D1mw",
            EventKind::ILmr => "ILmr",
            EventKind::DLmr => "DLmr",
            EventKind::DLmw => "DLmw",
            EventKind::L1hits => "L1hits",
            EventKind::LLhits => "LLhits",
            EventKind::RamHits => "RamHits",
            EventKind::TotalRW => "TotalRW",
            EventKind::EstimatedCycles => "EstimatedCycles",
            EventKind::SysCount => "SysCount",
            EventKind::SysTime => "SysTime",
            EventKind::SysCpuTime => "SysCpuTime",
            EventKind::Ge => "Ge",
            EventKind::Bc => "Bc",
            EventKind::Bcm => "Bcm",
            EventKind::Bi => "Bi",
            EventKind::Bim => "Bim",
            EventKind::ILdmr => "ILdmr",
            EventKind::DLdmr => "DLdmr",
            EventKind::DLdmw => "DLdmw",
            EventKind::AcCost1 => "AcCost1",
            EventKind::AcCost2 => "AcCost2",
            EventKind::SpLoss1 => "SpLoss1",
            EventKind::SpLoss2 => "SpLoss2",
        }
    }

    /// The label printed in the terminal (`Instructions`, `L1 Hits`, …), as
    /// in iai-callgrind 0.12.
    pub fn label(self) -> &'static str {
        match self {
            EventKind::Ir => "Instructions",
            EventKind::L1hits => "L1 Hits",
            EventKind::LLhits => "L2 Hits",
            EventKind::RamHits => "RAM Hits",
            EventKind::TotalRW => "Total read+write",
            EventKind::EstimatedCycles => "Estimated Cycles",
            other => other.name(),
        }
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The error of parsing an [`EventKind`] from its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownEventKind(pub String);

impl fmt::Display for UnknownEventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown event kind '{}' (expected one of Ir, Dr, Dw, I1mr, D1mr, D1mw, ILmr, DLmr, \
             DLmw, L1hits, LLhits, RamHits, TotalRW, EstimatedCycles)",
            self.0
        )
    }
}

impl std::error::Error for UnknownEventKind {}

impl FromStr for EventKind {
    type Err = UnknownEventKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let all = EventKind::RAW.into_iter().chain([
            EventKind::L1hits,
            EventKind::LLhits,
            EventKind::RamHits,
            EventKind::TotalRW,
            EventKind::EstimatedCycles,
        ]);
        all.chain(EventKind::EXTRA)
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownEventKind(s.trim().to_owned()))
    }
}

/// Event counts of one run: raw events as callgrind reported them plus the
/// derived metrics when the cache simulation was on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Metrics(pub BTreeMap<EventKind, u64>);

impl Metrics {
    /// Builds the metrics from raw `(event, count)` pairs, adding the derived
    /// metrics when all cache events are present. iai-callgrind's other
    /// kinds (`Bc` with `--branch-sim=yes`, `sysCount` with
    /// `--collect-systime=yes`, …) are kept when callgrind counted them;
    /// unknown event names are ignored.
    pub fn from_raw<'a>(raw: impl IntoIterator<Item = (&'a str, u64)>) -> Metrics {
        let mut map = BTreeMap::new();
        for (name, count) in raw {
            if let Ok(kind) = name.parse::<EventKind>() {
                if EventKind::RAW.contains(&kind) || EventKind::EXTRA.contains(&kind) {
                    map.insert(kind, count);
                }
            }
        }
        let mut metrics = Metrics(map);
        metrics.derive();
        metrics
    }

    /// The count of `kind`, if it was measured.
    pub fn get(&self, kind: EventKind) -> Option<u64> {
        self.0.get(&kind).copied()
    }

    /// True when the cache events (and so the derived metrics) are present.
    pub fn has_cache_sim(&self) -> bool {
        self.0.contains_key(&EventKind::EstimatedCycles)
    }

    /// The metrics to print: the six of iai-callgrind with the cache
    /// simulation, `Instructions` alone without it.
    pub fn shown(&self) -> Vec<EventKind> {
        EventKind::SHOWN
            .into_iter()
            .filter(|k| self.0.contains_key(k))
            .collect()
    }

    fn derive(&mut self) {
        let g = |k| self.0.get(&k).copied();
        let (Some(ir), Some(dr), Some(dw)) = (g(EventKind::Ir), g(EventKind::Dr), g(EventKind::Dw))
        else {
            return;
        };
        let misses = [EventKind::I1mr, EventKind::D1mr, EventKind::D1mw]
            .into_iter()
            .map(g)
            .collect::<Option<Vec<u64>>>();
        let ram = [EventKind::ILmr, EventKind::DLmr, EventKind::DLmw]
            .into_iter()
            .map(g)
            .collect::<Option<Vec<u64>>>();
        let (Some(misses), Some(ram)) = (misses, ram) else {
            return;
        };
        let total = ir + dr + dw;
        let l1_misses: u64 = misses.iter().sum();
        let ram_hits: u64 = ram.iter().sum();
        let l1_hits = total.saturating_sub(l1_misses);
        let ll_hits = l1_misses.saturating_sub(ram_hits);
        self.0.insert(EventKind::L1hits, l1_hits);
        self.0.insert(EventKind::LLhits, ll_hits);
        self.0.insert(EventKind::RamHits, ram_hits);
        self.0.insert(EventKind::TotalRW, total);
        self.0.insert(
            EventKind::EstimatedCycles,
            l1_hits + 5 * ll_hits + 35 * ram_hits,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_metrics_follow_iai_callgrinds_formulas() {
        // The numbers of iai-callgrind's README example (short:10): 1733
        // instructions, 2359 L1 hits, 0 L2 hits, 2 RAM hits.
        let m = Metrics::from_raw([
            ("Ir", 1733),
            ("Dr", 400),
            ("Dw", 228),
            ("I1mr", 1),
            ("D1mr", 1),
            ("D1mw", 0),
            ("ILmr", 1),
            ("DLmr", 1),
            ("DLmw", 0),
        ]);
        assert_eq!(m.get(EventKind::TotalRW), Some(2361));
        assert_eq!(m.get(EventKind::L1hits), Some(2359));
        assert_eq!(m.get(EventKind::LLhits), Some(0));
        assert_eq!(m.get(EventKind::RamHits), Some(2));
        assert_eq!(m.get(EventKind::EstimatedCycles), Some(2429));
        assert_eq!(m.shown().len(), 6);
    }

    #[test]
    fn without_cache_simulation_only_instructions_are_shown() {
        let m = Metrics::from_raw([("Ir", 10)]);
        assert_eq!(m.shown(), vec![EventKind::Ir]);
        assert!(!m.has_cache_sim());
    }

    #[test]
    fn names_parse_case_insensitively() {
        assert_eq!("ir".parse::<EventKind>(), Ok(EventKind::Ir));
        assert_eq!(
            "EstimatedCycles".parse::<EventKind>(),
            Ok(EventKind::EstimatedCycles)
        );
        assert!("bogus".parse::<EventKind>().is_err());
    }
}
