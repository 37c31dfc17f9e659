//! Whether a benchmark ran code that differs between two builds, from the
//! instructions Callgrind saw it execute on each side and each binary's
//! functions (`yardstick_format::elf`).
//!
//! The count before measuring compares instructions per iteration, and a
//! change that runs once in a hundred calls is not in a dozen iterations:
//! hex's `hex_encode` with +1 % compiled in counted the same on both sides
//! and got the usual rounds (found 1 time in 12). Its code did change,
//! in an instruction it executed every iteration. Only instructions the
//! benchmark executed count: crc32fast's benchmarks share one closure,
//! and a change behind a branch that only `baseline/16384` takes is a
//! change of that benchmark's code alone.
//!
//! A function that only moved must read the same: both binaries' code
//! relocations (the setup's linker keeps them, for bench binaries) say
//! which bytes say where code lies; without them, on x86-64, those bytes
//! are read as displacements and compared by where they point
//! (`yardstick_format::elf`). Elsewhere, without relocations, nothing is
//! compared.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use yardstick_format::elf::{Code, Function};

/// The addresses a benchmark executed on one side, per function name as
/// Callgrind gives it (mangled, `--demangle=no`).
pub(crate) type Executed = HashMap<String, Vec<u64>>;

/// The longest x86-64 instruction: how far past an executed instruction's
/// start a changed byte may be and still be in it.
const LONGEST_INSTRUCTION: u64 = 15;

/// The two builds' code.
pub(crate) struct Builds {
    baseline: Code,
    current: Code,
}

impl Builds {
    /// Both binaries' functions, when they compare
    /// (`yardstick_format::elf::Code::comparable`); `None` otherwise (a
    /// format not read here, another machine's code without relocations).
    pub(crate) fn read(baseline: &Path, current: &Path) -> Option<Builds> {
        let read = |p: &Path| Code::parse(std::fs::read(p).ok()?).ok();
        let (baseline, current) = (read(baseline)?, read(current)?);
        baseline
            .comparable(&current)
            .then_some(Builds { baseline, current })
    }

    /// How many of the baseline's functions differ in this build
    /// (`yardstick_format::elf::Code::changed_in`), and how many it has:
    /// none, and where the code lies changed, not an instruction any
    /// benchmark can run.
    pub(crate) fn changed_functions(&self) -> (usize, usize) {
        (
            self.baseline.changed_in(&self.current),
            self.baseline.functions(),
        )
    }

    /// Whether an instruction the benchmark executed (`a` on the
    /// baseline's side, `b` on this run's) differs between the builds, or
    /// it ran a function only one build has.
    pub(crate) fn ran_changed_code(&self, a: &Executed, b: &Executed) -> bool {
        let (bias_a, bias_b) = (load_bias(&self.baseline, a), load_bias(&self.current, b));
        let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        names.into_iter().any(|name| {
            match self.baseline.both(&self.current, name) {
                // No symbol (Valgrind's name for an address), or several.
                (None, None) => false,
                (Some(_), None) | (None, Some(_)) => true,
                (Some(fa), Some(fb)) => {
                    let mut at = offsets(&fa, a.get(name), bias_a);
                    at.extend(offsets(&fb, b.get(name), bias_b));
                    executed_bytes_differ(&fa.bytes, &fb.bytes, &at)
                }
            }
        })
    }
}

/// The offsets into `f` of the addresses executed in it.
fn offsets(f: &Function, executed: Option<&Vec<u64>>, bias: u64) -> BTreeSet<u64> {
    executed
        .into_iter()
        .flatten()
        .filter_map(|&x| x.checked_sub(bias)?.checked_sub(f.address))
        .filter(|&o| o < f.bytes.len() as u64)
        .collect()
}

/// Where the binary was loaded under Valgrind: the difference, common to
/// most functions, between the lowest address executed in a function and
/// the function's address in the file (a called function starts where
/// its symbol says). Zero when nothing tells.
fn load_bias(code: &Code, executed: &Executed) -> u64 {
    let mut votes: HashMap<u64, usize> = HashMap::new();
    for (name, at) in executed {
        let (Some(f), Some(&low)) = (code.function_address(name), at.iter().min()) else {
            continue;
        };
        if let Some(bias) = low.checked_sub(f) {
            *votes.entry(bias).or_default() += 1;
        }
    }
    votes
        .into_iter()
        .max_by_key(|&(bias, n)| (n, std::cmp::Reverse(bias)))
        .map_or(0, |(bias, _)| bias)
}

/// Whether the bytes of an instruction starting at one of `executed`
/// differ between `a` and `b`, one function's bytes in two builds. An
/// instruction ends where the next executed one starts, or at most
/// [`LONGEST_INSTRUCTION`] bytes on (an executed jump followed by code
/// not executed is read a little long: a change there counts). Functions
/// of different lengths differ wherever they were run; none executed,
/// nowhere.
fn executed_bytes_differ(a: &[u8], b: &[u8], executed: &BTreeSet<u64>) -> bool {
    if a == b || executed.is_empty() {
        return false;
    }
    if a.len() != b.len() {
        return true;
    }
    let len = a.len() as u64;
    let mut starts = executed.iter().copied().peekable();
    while let Some(start) = starts.next() {
        let next = starts.peek().copied().unwrap_or(len);
        let end = next.min(start + LONGEST_INSTRUCTION).min(len) as usize;
        if a[start as usize..end] != b[start as usize..end] {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(offsets: &[u64]) -> BTreeSet<u64> {
        offsets.iter().copied().collect()
    }

    /// hex's closure with +1 % compiled in: the percent, an immediate of
    /// an instruction run every iteration, is the one byte that differs.
    #[test]
    fn a_changed_byte_in_an_executed_instruction_is_a_change() {
        // push; mov $0, 8(%rsp) (48 c7 44 24 08 imm32); ret.
        let a = [0x50, 0x48, 0xc7, 0x44, 0x24, 0x08, 0, 0, 0, 0, 0xc3];
        let mut b = a;
        b[6] = 1;
        assert!(executed_bytes_differ(&a, &b, &at(&[0, 1, 10])));
        // The same bytes: no change, whatever ran.
        assert!(!executed_bytes_differ(&a, &a, &at(&[0, 1, 10])));
    }

    /// crc32fast's shared closure: the changed instruction sits behind a
    /// branch only one benchmark takes; the others ran the bytes before
    /// it and after it.
    #[test]
    fn a_change_in_code_the_benchmark_did_not_run_is_none() {
        // 20 bytes of a jump (2) and code not taken, then a ret at 30.
        let mut a = vec![0x90_u8; 31];
        a[0] = 0x75;
        a[30] = 0xc3;
        let mut b = a.clone();
        b[25] = 1;
        assert!(!executed_bytes_differ(&a, &b, &at(&[0, 30])));
        // Taken: every instruction behind the branch ran.
        assert!(executed_bytes_differ(&a, &b, &at(&[0, 2, 20, 25, 30])));
        // Within 15 bytes of the last executed start: read as its bytes.
        assert!(executed_bytes_differ(&a, &b, &at(&[20, 30])));
        // Not run at all: no change.
        assert!(!executed_bytes_differ(&a, &b, &at(&[])));
    }

    #[test]
    fn a_function_whose_length_changed_differs_where_it_ran() {
        assert!(executed_bytes_differ(&[1, 2, 3], &[1, 2, 3, 4], &at(&[0])));
        assert!(!executed_bytes_differ(&[1, 2, 3], &[1, 2, 3, 4], &at(&[])));
    }
}
