//! The machine code of an ELF file's functions, read so that two builds
//! can be compared function by function: each function's bytes with the
//! fields the linker fills in masked out, so that a function that only
//! moved (a neutral edit elsewhere, a shuffled code layout) reads the
//! same, and one whose instructions changed does not.
//!
//! The fields are known from the relocations an executable keeps when it
//! is linked with `--emit-relocs` (`cargo yardstick init`'s linker does so
//! for bench binaries). Without them, on x86-64, a field that differs is
//! read as a displacement and compared by where it points (`moved`);
//! elsewhere every call to a function that moved would read as changed,
//! so [`Code::comparable`] says whether a comparison means anything. Data
//! alone (a table's bytes, an `include_bytes!` input of the same length)
//! is no function's bytes: a build that changed only data reads as the
//! same code either way. Only
//! little-endian ELF64 is read (x86-64, AArch64, RISC-V); anything else is
//! an error, and the caller compares nothing.

mod moved;

use std::collections::HashMap;

use moved::{Places, Section as Place};

const SHT_SYMTAB: u32 = 2;
const SHT_RELA: u32 = 4;
const SHT_NOBITS: u32 = 8;
const SHF_ALLOC: u64 = 2;
const SHF_EXECINSTR: u64 = 4;
const SHF_TLS: u64 = 0x400;
const STT_FUNC: u8 = 2;
const STT_SECTION: u8 = 3;
const STT_FILE: u8 = 4;
const STT_TLS: u8 = 6;
const EM_X86_64: u16 = 62;
const EM_AARCH64: u16 = 183;
/// The widest range [`field`] masks.
const LONGEST_FIELD: u64 = 8;

/// One function: where it is and its bytes, relocated fields as zeros.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its address in the file's own address space (`st_value`).
    pub address: u64,
    /// Its bytes, with every field a relocation fills in set to zero.
    pub bytes: Vec<u8>,
}

/// The functions of one ELF file.
#[derive(Debug)]
pub struct Code {
    bytes: Vec<u8>,
    /// Per [`normalized`] name: the file offset, address and size of each
    /// function symbol of that name.
    functions: HashMap<String, Vec<(u64, u64, u64)>>,
    /// Masked ranges of the file: start offset and length, sorted.
    masked: Vec<(u64, u64)>,
    machine: u16,
    /// Where its sections and symbols lie, to compare without relocations.
    places: Places,
}

/// How two builds' functions are compared ([`Code::comparable`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fields {
    /// Both kept their relocations: the fields they fill in are masked.
    Relocated,
    /// x86-64 without them: differing fields that point to the same place
    /// in both are masked (`moved`).
    Resolved,
}

impl Code {
    /// Reads the function symbols and the relocations of executable
    /// sections of `bytes`, an ELF file. `Err` is one line.
    ///
    /// # Errors
    ///
    /// When `bytes` is not a little-endian ELF64 file or its tables point
    /// outside it.
    pub fn parse(bytes: Vec<u8>) -> Result<Code, String> {
        let sections = sections(&bytes)?;
        let machine = u16_at(&bytes, 0x12)?;
        let mut functions: HashMap<String, Vec<(u64, u64, u64)>> = HashMap::new();
        let mut masked = Vec::new();
        let mut symbols_at = Vec::new();
        for s in &sections {
            match s.kind {
                SHT_SYMTAB => symbols(&bytes, s, &sections, &mut functions, &mut symbols_at)?,
                // Relocations of code (not the dynamic ones, which are
                // loaded): `sh_info` is the section they apply to.
                SHT_RELA if s.flags & SHF_ALLOC == 0 => {
                    let Some(target) = sections.get(s.info as usize) else {
                        continue;
                    };
                    if target.flags & SHF_EXECINSTR != 0 {
                        relocations(&bytes, s, target, machine, &mut masked)?;
                    }
                }
                _ => {}
            }
        }
        masked.sort_unstable();
        let places = Places::new(section_places(&bytes, &sections), symbols_at);
        Ok(Code {
            bytes,
            functions,
            masked,
            machine,
            places,
        })
    }

    /// Whether the file kept the relocations of its code.
    #[must_use]
    pub fn relocated(&self) -> bool {
        !self.masked.is_empty()
    }

    /// Whether this build's functions and `newer`'s compare: both have
    /// function symbols (a stripped binary has none, and would read as
    /// unchanged) and kept their relocations, or are x86-64 (whose
    /// displacements are read by where they point).
    #[must_use]
    pub fn comparable(&self, newer: &Code) -> bool {
        self.fields(newer).is_some()
    }

    fn fields(&self, newer: &Code) -> Option<Fields> {
        if self.functions.is_empty() || newer.functions.is_empty() {
            None
        } else if self.relocated() && newer.relocated() {
            Some(Fields::Relocated)
        } else if self.machine == EM_X86_64 && newer.machine == EM_X86_64 {
            Some(Fields::Resolved)
        } else {
            None
        }
    }

    /// The function `name` in this build and in `newer`, each when exactly
    /// one symbol has it there, with the fields that only say where code
    /// lies set to zero: the bytes are equal when it only moved.
    #[must_use]
    pub fn both(&self, newer: &Code, name: &str) -> (Option<Function>, Option<Function>) {
        if self.fields(newer) != Some(Fields::Resolved) {
            return (self.function(name), newer.function(name));
        }
        let one = |code: &Code| match code.functions.get(normalized(name))?.as_slice() {
            &[at] => Some(at),
            _ => None,
        };
        match (one(self), one(newer)) {
            (Some(a), Some(b)) => self
                .resolved(newer, a, b)
                .map_or((None, None), |(a, b)| (Some(a), Some(b))),
            (a, b) => (a.and_then(|a| self.raw(a)), b.and_then(|b| newer.raw(b))),
        }
    }

    /// The `size` bytes at file offset `offset`, as the file has them.
    fn file_bytes(&self, offset: u64, size: u64) -> Option<&[u8]> {
        self.bytes
            .get(offset as usize..offset.checked_add(size)? as usize)
    }

    /// The function at `(offset, address, size)` as the file has it.
    fn raw(&self, (offset, address, size): (u64, u64, u64)) -> Option<Function> {
        Some(Function {
            address,
            bytes: self.file_bytes(offset, size)?.to_vec(),
        })
    }

    /// One function's bytes here at `a` and in `newer` at `b`, the fields
    /// that point to the same place in both masked (`moved`).
    fn resolved(
        &self,
        newer: &Code,
        a: (u64, u64, u64),
        b: (u64, u64, u64),
    ) -> Option<(Function, Function)> {
        let (mut fa, mut fb) = (self.raw(a)?, newer.raw(b)?);
        if fa.bytes.len() == fb.bytes.len() && fa.bytes != fb.bytes {
            let files = [
                (&self.bytes[..], &self.places),
                (&newer.bytes[..], &newer.places),
            ];
            moved::mask(
                &mut fa.bytes,
                &mut fb.bytes,
                [fa.address, fb.address],
                files,
            );
        }
        Some((fa, fb))
    }

    /// The address of the function of this name, as [`Code::function`]
    /// finds it.
    #[must_use]
    pub fn function_address(&self, name: &str) -> Option<u64> {
        match self.functions.get(normalized(name))?.as_slice() {
            [(_, address, _)] => Some(*address),
            _ => None,
        }
    }

    /// The function of this name (its [`normalized`] form), when exactly
    /// one symbol has it.
    #[must_use]
    pub fn function(&self, name: &str) -> Option<Function> {
        let [(offset, address, size)] = self.functions.get(normalized(name))?.as_slice() else {
            return None;
        };
        Some(Function {
            address: *address,
            bytes: self.masked_bytes(*offset, *size)?,
        })
    }

    /// Whether every function of `self` is in `newer` with the same bytes,
    /// fields that say where code lies aside: then no instruction of `self`
    /// changed, only where the code lies. Functions only `newer` has are
    /// not looked at: a function no unchanged code calls does not run (an
    /// edit that adds a call changes the caller). Meaningful when the two
    /// are [`Code::comparable`].
    #[must_use]
    pub fn unchanged_in(&self, newer: &Code) -> bool {
        self.functions
            .iter()
            .all(|(name, at)| self.same_in(newer, name, at))
    }

    /// How many functions of `self` (by name, [`Code::functions`] of them)
    /// are not in `newer` with the same bytes, as [`Code::unchanged_in`]
    /// compares them.
    #[must_use]
    pub fn changed_in(&self, newer: &Code) -> usize {
        self.functions
            .iter()
            .filter(|(name, at)| !self.same_in(newer, name, at))
            .count()
    }

    /// How many function names the file has.
    #[must_use]
    pub fn functions(&self) -> usize {
        self.functions.len()
    }

    /// Whether `newer` has the function `name` (at `at` in `self`) with the
    /// same bytes. A name with several symbols compares as the set of
    /// their bytes (resolved: each of `self`'s the same as one of
    /// `newer`'s not matched yet; a shuffled layout reorders them).
    fn same_in(&self, newer: &Code, name: &str, at: &[(u64, u64, u64)]) -> bool {
        if self.fields(newer) == Some(Fields::Resolved) {
            let Some(theirs) = newer.functions.get(name).filter(|t| t.len() == at.len()) else {
                return false;
            };
            // Copies with the same bytes first (all of them when nothing
            // moved): matched by where they point first, a copy may take
            // the twin of another that has no other match.
            let mut unmatched = theirs.clone();
            let mut ours = at.to_vec();
            ours.retain(|&(offset, _, size)| {
                let bytes = self.file_bytes(offset, size);
                let twin = unmatched
                    .iter()
                    .position(|&(o, _, n)| bytes.is_some() && newer.file_bytes(o, n) == bytes);
                twin.map(|i| unmatched.swap_remove(i)).is_none()
            });
            return ours.iter().all(|&a| {
                let same = |&b: &(u64, u64, u64)| {
                    self.resolved(newer, a, b)
                        .is_some_and(|(fa, fb)| fa.bytes == fb.bytes)
                };
                unmatched
                    .iter()
                    .position(same)
                    .map(|i| unmatched.swap_remove(i))
                    .is_some()
            });
        }
        let bodies = |code: &Code, at: &[(u64, u64, u64)]| {
            let mut all: Vec<Option<Vec<u8>>> = at
                .iter()
                .map(|&(o, _, size)| code.masked_bytes(o, size))
                .collect();
            all.sort_unstable();
            all
        };
        newer.functions.get(name).is_some_and(|theirs| {
            at.len() == theirs.len() && bodies(self, at) == bodies(newer, theirs)
        })
    }

    /// The `size` bytes at file offset `offset`, relocated fields as zeros.
    fn masked_bytes(&self, offset: u64, size: u64) -> Option<Vec<u8>> {
        let (start, end) = (offset, offset.checked_add(size)?);
        let mut bytes = self.file_bytes(offset, size)?.to_vec();
        // The masked ranges that overlap [start, end): none is longer
        // than `LONGEST_FIELD`.
        let first = self
            .masked
            .partition_point(|&(s, _)| s.saturating_add(LONGEST_FIELD) <= start);
        let overlapping = self.masked[first..]
            .iter()
            .take_while(|(s, _)| *s < end)
            .filter(|(s, len)| s.saturating_add(*len) > start);
        for &(s, len) in overlapping {
            let from = s.max(start) - start;
            let to = s.saturating_add(len).min(end) - start;
            bytes[from as usize..to as usize].fill(0);
        }
        Some(bytes)
    }
}

/// A symbol's name without the suffix ThinLTO gives a local function it
/// promotes (`.llvm.` and a hash of the module), which differs between
/// two builds of the same code.
#[must_use]
pub fn normalized(name: &str) -> &str {
    match name.rfind(".llvm.") {
        Some(i) if name[i + 6..].bytes().all(|b| b.is_ascii_digit()) => &name[..i],
        _ => name,
    }
}

/// One section header.
struct Section {
    name: u32,
    kind: u32,
    flags: u64,
    addr: u64,
    offset: u64,
    size: u64,
    link: u32,
    info: u32,
}

impl Section {
    /// The section's bytes in the file (none for `SHT_NOBITS`).
    fn data<'a>(&self, bytes: &'a [u8]) -> Result<&'a [u8], String> {
        if self.kind == SHT_NOBITS {
            return Ok(&[]);
        }
        let end = self
            .offset
            .checked_add(self.size)
            .ok_or("a section's size overflows")?;
        bytes
            .get(self.offset as usize..end as usize)
            .ok_or_else(|| "a section reaches past the end of the file".to_owned())
    }
}

fn sections(bytes: &[u8]) -> Result<Vec<Section>, String> {
    if bytes.get(..4) != Some(b"\x7fELF") {
        return Err("not an ELF file".into());
    }
    if bytes.get(4..6) != Some(&[2, 1]) {
        return Err("not a little-endian 64-bit ELF file".into());
    }
    let shoff = u64_at(bytes, 0x28)?;
    let entsize = u64::from(u16_at(bytes, 0x3A)?);
    let count = u64::from(u16_at(bytes, 0x3C)?);
    if count > 0 && entsize < 64 {
        return Err("section headers smaller than ELF64's".into());
    }
    (0..count)
        .map(|i| {
            let at = i
                .checked_mul(entsize)
                .and_then(|o| o.checked_add(shoff))
                .filter(|at| at.saturating_add(64) <= bytes.len() as u64)
                .ok_or("section headers past the end of the file")? as usize;
            Ok(Section {
                name: u32_at(bytes, at)?,
                kind: u32_at(bytes, at + 4)?,
                flags: u64_at(bytes, at + 8)?,
                addr: u64_at(bytes, at + 16)?,
                offset: u64_at(bytes, at + 24)?,
                size: u64_at(bytes, at + 32)?,
                link: u32_at(bytes, at + 40)?,
                info: u32_at(bytes, at + 44)?,
            })
        })
        .collect()
}

/// The function symbols of a symbol table, by normalized name: their file
/// offset, address and size. Symbols outside a section with file bytes
/// are left out.
fn symbols(
    bytes: &[u8],
    table: &Section,
    sections: &[Section],
    into: &mut HashMap<String, Vec<(u64, u64, u64)>>,
    places: &mut Vec<(u64, String)>,
) -> Result<(), String> {
    let names = sections
        .get(table.link as usize)
        .ok_or("a symbol table without its names")?
        .data(bytes)?;
    for entry in table.data(bytes)?.chunks_exact(24) {
        let (info, shndx) = (entry[4], u16::from_le_bytes([entry[6], entry[7]]));
        let value = u64_at(entry, 8)?;
        let size = u64_at(entry, 16)?;
        let Some(section) = sections.get(shndx as usize) else {
            continue;
        };
        let kind = info & 0xf;
        if size > 0 && ![STT_SECTION, STT_FILE, STT_TLS].contains(&kind) {
            let name = name_at(names, u32_at(entry, 0)? as usize);
            places.push((value, normalized(&name).to_owned()));
        }
        if kind != STT_FUNC || size == 0 || section.kind == SHT_NOBITS {
            continue;
        }
        let inside = value
            .checked_sub(section.addr)
            .filter(|o| o.checked_add(size).is_some_and(|end| end <= section.size));
        let Some(offset) = inside.and_then(|o| o.checked_add(section.offset)) else {
            continue;
        };
        let name = name_at(names, u32_at(entry, 0)? as usize);
        into.entry(normalized(&name).to_owned())
            .or_default()
            .push((offset, value, size));
    }
    Ok(())
}

/// The start, size and name of each section loaded into memory, thread
/// locals aside (their addresses are offsets, overlapping the others').
fn section_places(bytes: &[u8], sections: &[Section]) -> Vec<Place> {
    let names = u16_at(bytes, 0x3E)
        .ok()
        .and_then(|i| sections.get(i as usize))
        .and_then(|s| s.data(bytes).ok())
        .unwrap_or_default();
    sections
        .iter()
        .filter(|s| s.flags & SHF_ALLOC != 0 && s.flags & SHF_TLS == 0 && s.size > 0)
        .map(|s| Place {
            address: s.addr,
            size: s.size,
            name: name_at(names, s.name as usize),
            offset: (s.kind != SHT_NOBITS).then_some(s.offset),
            code: s.flags & SHF_EXECINSTR != 0,
        })
        .collect()
}

/// The ranges of `target`'s bytes the relocations of `table` fill in.
fn relocations(
    bytes: &[u8],
    table: &Section,
    target: &Section,
    machine: u16,
    into: &mut Vec<(u64, u64)>,
) -> Result<(), String> {
    for entry in table.data(bytes)?.chunks_exact(24) {
        let at = u64_at(entry, 0)?;
        let kind = u32_at(entry, 8)?;
        let inside = at.checked_sub(target.addr).filter(|&o| o < target.size);
        let Some(offset) = inside.and_then(|o| o.checked_add(target.offset)) else {
            continue;
        };
        let (before, len) = field(machine, kind);
        let start = offset.saturating_sub(before);
        into.push((start, before + len));
    }
    Ok(())
}

/// The bytes a relocation of `kind` changes: how many before its offset
/// and how many from it. x86-64's GOT loads may be rewritten by the linker
/// (`mov` to `lea`, an indirect call to a direct one): their opcode bytes
/// are masked too. An AArch64 relocation patches the instruction's four
/// bytes; a machine not known here is masked eight bytes wide.
fn field(machine: u16, kind: u32) -> (u64, u64) {
    match (machine, kind) {
        // R_X86_64_64, DTPMOD64, DTPOFF64, TPOFF64, PC64, GOTOFF64, SIZE64.
        (EM_X86_64, 1 | 16 | 17 | 18 | 24 | 25 | 33) => (0, 8),
        // R_X86_64_GOTPCREL, GOTPCRELX, REX_GOTPCRELX.
        (EM_X86_64, 9 | 41 | 42) => (3, 4),
        (EM_X86_64, _) => (0, 4),
        // R_AARCH64_ABS64, PREL64.
        (EM_AARCH64, 257 | 260) => (0, 8),
        (EM_AARCH64, _) => (0, 4),
        _ => (0, 8),
    }
}

fn name_at(names: &[u8], at: usize) -> String {
    let rest = names.get(at..).unwrap_or_default();
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    String::from_utf8_lossy(&rest[..end]).into_owned()
}

fn u16_at(b: &[u8], at: usize) -> Result<u16, String> {
    Ok(u16::from_le_bytes(array(b, at)?))
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, String> {
    Ok(u32::from_le_bytes(array(b, at)?))
}

fn u64_at(b: &[u8], at: usize) -> Result<u64, String> {
    Ok(u64::from_le_bytes(array(b, at)?))
}

fn array<const N: usize>(b: &[u8], at: usize) -> Result<[u8; N], String> {
    b.get(at..at.saturating_add(N))
        .and_then(|s| s.try_into().ok())
        .ok_or_else(|| "an ELF table reaches past the end of the file".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thin_lto_suffixes_are_not_part_of_the_name() {
        assert_eq!(
            normalized("_ZN3std2rt10lang_start17hE.llvm.2756768111504332711"),
            "_ZN3std2rt10lang_start17hE"
        );
        assert_eq!(normalized("f.llvm.x1"), "f.llvm.x1");
        assert_eq!(normalized("plain"), "plain");
    }

    /// A file of `functions` (name, bytes) laid end to end from `at`, the
    /// four bytes after each `0xe8` (a call's target) relocated.
    fn code(at: u64, functions: &[(&str, &[u8])]) -> Code {
        let mut bytes = vec![0xcc; at as usize];
        let mut map: HashMap<String, Vec<(u64, u64, u64)>> = HashMap::new();
        let mut masked = Vec::new();
        for (name, body) in functions {
            let offset = bytes.len() as u64;
            for (k, b) in body.iter().enumerate() {
                if *b == 0xe8 {
                    masked.push((offset + k as u64 + 1, 4));
                }
            }
            bytes.extend_from_slice(body);
            let entry = (offset, 0x1000 + offset, body.len() as u64);
            map.entry((*name).to_owned()).or_default().push(entry);
        }
        Code {
            bytes,
            functions: map,
            masked,
            machine: 0,
            places: Places::default(),
        }
    }

    #[test]
    fn code_that_only_moved_is_unchanged_and_a_changed_byte_is_not() {
        let f: &[u8] = &[0x55, 0xe8, 1, 2, 3, 4, 0xc3];
        let g: &[u8] = &[0x31, 0xc0, 0xc3];
        let old = code(0, &[("f", f), ("g", g)]);
        // Moved, its call's target elsewhere, a new function beside it,
        // and the two in another order: the same code.
        let f_moved: &[u8] = &[0x55, 0xe8, 9, 9, 9, 9, 0xc3];
        let new: &[u8] = &[0x90, 0xc3];
        assert!(old.unchanged_in(&code(64, &[("new", new), ("g", g), ("f", f_moved)])));
        // A byte of an instruction changed (not a relocated field).
        let f_changed: &[u8] = &[0x56, 0xe8, 1, 2, 3, 4, 0xc3];
        assert!(!old.unchanged_in(&code(0, &[("f", f_changed), ("g", g)])));
        // A function gone (renamed, inlined away): changed.
        assert!(!old.unchanged_in(&code(0, &[("f", f)])));
        // Two local functions of one name compare as a set.
        let two = code(0, &[("h", f), ("h", g)]);
        assert!(two.unchanged_in(&code(8, &[("h", g), ("h", f_moved)])));
        assert!(!two.unchanged_in(&code(8, &[("h", g), ("h", g)])));
        assert!(!two.unchanged_in(&code(8, &[("h", g)])));
    }

    #[test]
    fn changed_functions_are_counted_by_name() {
        let (f, g, h): (&[u8], &[u8], &[u8]) = (&[0x55, 0xc3], &[0x31, 0xc0, 0xc3], &[0x90, 0xc3]);
        let old = code(0, &[("f", f), ("g", g), ("h", h), ("h", f)]);
        assert_eq!(old.functions(), 3);
        assert_eq!(old.changed_in(&old), 0);
        // `f` changed, `g` gone, one `h` of two changed; `new` not looked at.
        let new = code(16, &[("f", g), ("h", h), ("h", g), ("new", f)]);
        assert_eq!(old.changed_in(&new), 3);
        assert_eq!(old.changed_in(&code(0, &[("g", g), ("h", f), ("h", h)])), 1);
    }

    /// Without relocations (x86-64), several local functions of one name
    /// still compare as a set, in any order.
    #[test]
    fn copies_of_one_name_compare_as_a_set_without_relocations() {
        let resolved = |at, functions: &[(&str, &[u8])]| {
            let mut c = code(at, functions);
            c.masked.clear();
            c.machine = EM_X86_64;
            c
        };
        let (f, g): (&[u8], &[u8]) = (&[0x55, 0xc3], &[0x31, 0xc0, 0xc3]);
        let old = resolved(0, &[("h", f), ("h", g), ("h", f)]);
        assert_eq!(
            old.changed_in(&resolved(8, &[("h", g), ("h", f), ("h", f)])),
            0
        );
        assert_eq!(
            old.changed_in(&resolved(8, &[("h", g), ("h", g), ("h", f)])),
            1
        );
    }

    #[test]
    fn a_stripped_binary_compares_with_nothing() {
        let f: &[u8] = &[0x55, 0xe8, 1, 2, 3, 4, 0xc3];
        let stripped = |machine| Code {
            bytes: f.to_vec(),
            functions: HashMap::new(),
            masked: Vec::new(),
            machine,
            places: Places::default(),
        };
        let mut x86 = code(0, &[("f", f)]);
        x86.masked.clear();
        x86.machine = EM_X86_64;
        assert!(x86.comparable(&x86));
        assert!(!x86.comparable(&stripped(EM_X86_64)));
        assert!(!stripped(EM_X86_64).comparable(&x86));
        // Without relocations, another machine's code does not compare.
        let mut arm = code(0, &[("f", f)]);
        arm.masked.clear();
        arm.machine = EM_AARCH64;
        assert!(!arm.comparable(&arm));
        assert!(code(0, &[("f", f)]).comparable(&code(8, &[("f", f)])));
    }

    #[test]
    fn bad_files_are_errors_not_panics() {
        assert_eq!(Code::parse(b"MZ".to_vec()).unwrap_err(), "not an ELF file");
        let mut header = b"\x7fELF\x01\x01".to_vec();
        assert!(Code::parse(header.clone()).unwrap_err().contains("64-bit"));
        header[4] = 2;
        assert!(Code::parse(header.clone())
            .unwrap_err()
            .contains("past the end"));
        // Section headers said to be far past the end.
        header.resize(64, 0);
        header[0x28..0x30].copy_from_slice(&u64::MAX.to_le_bytes());
        header[0x3A] = 64;
        header[0x3C] = 1;
        assert!(Code::parse(header).is_err());
    }
}
