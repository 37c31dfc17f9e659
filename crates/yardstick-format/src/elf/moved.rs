//! Code that only moved, told without relocations: on x86-64 a function
//! reaches other code and data through 32-bit displacements from the
//! next instruction (calls, jumps, `rip`-relative loads and `lea`s), and
//! those are the bytes that change when a build moves code and nothing
//! else. A field whose bytes differ between two builds reads as the same
//! place in both (the same section, the same nearest symbol at or below
//! it, the same distance past that symbol) when it only moved.
//!
//! Data without a symbol of its own (a string constant of a crate built
//! as one codegen unit) is the same place when the bytes there are: its
//! first [`SAME_DATA`] bytes at least, in a section of data, not all one
//! value (what follows may be other data: an 8-byte constant followed by
//! a string). A jump table's entries are offsets from the table to code:
//! one that differs is the same when both point to the same place in the
//! code or data.
//!
//! Without an instruction decoder the field's start and the immediate
//! after it (0, 1, 2 or 4 bytes: `cmpb $1, x(%rip)`) are tried in turn.
//! A byte that changed for another reason (an immediate, an opcode, a
//! register) reads, as a displacement, as an address in no section or in
//! another place. Measured on base64's bench binary (3,460 functions):
//! with one library function changed, that function was the only one
//! left differing; after neutral edits (four, in the bench file and the
//! library) none was; two links of the same code shuffled with different
//! seeds (lld's `--shuffle-sections`, every function moved): none of
//! 3,496. A comparison takes 0.2 s for its 49 MB.

/// One allocated section: where it is in memory and in the file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Section {
    pub(super) address: u64,
    pub(super) size: u64,
    pub(super) name: String,
    /// Where its bytes are in the file (`None`: it has none, `.bss`).
    pub(super) offset: Option<u64>,
    /// Whether it holds code.
    pub(super) code: bool,
}

/// Where the file's code and data lie: its allocated sections (thread
/// locals aside: their addresses overlap the others') and its sized
/// symbols, by address.
#[derive(Debug, Default)]
pub(super) struct Places {
    /// By address.
    sections: Vec<Section>,
    /// Address and [`super::normalized`] name of each symbol, by address
    /// then name.
    symbols: Vec<(u64, String)>,
}

/// The immediate sizes an instruction may have after its displacement.
const IMMEDIATES: [u64; 4] = [0, 1, 2, 4];

/// How many bytes of data without a symbol are read.
const CONTENT: u64 = 16;

/// How many of them, from the first, must be the same.
const SAME_DATA: usize = 8;

/// One build's file and where its code and data lie.
pub(super) type File<'a> = (&'a [u8], &'a Places);

impl Places {
    pub(super) fn new(mut sections: Vec<Section>, mut symbols: Vec<(u64, String)>) -> Places {
        sections.sort_unstable();
        symbols.sort_unstable();
        Places { sections, symbols }
    }

    /// The section `address` is in.
    fn section(&self, address: u64) -> Option<&Section> {
        let i = self
            .sections
            .partition_point(|s| s.address <= address)
            .checked_sub(1)?;
        let s = &self.sections[i];
        (address - s.address < s.size).then_some(s)
    }

    /// Where `address` is: its section's name, the name of the nearest
    /// symbol at or below it in that section (empty when none is) and the
    /// distance past it (or past the section's start). `None` outside
    /// every section.
    fn place(&self, address: u64) -> Option<(&str, &str, u64)> {
        let s = self.section(address)?;
        let j = self.symbols.partition_point(|x| x.0 <= address);
        match j.checked_sub(1).map(|j| &self.symbols[j]) {
            Some((at, name)) if *at >= s.address => Some((&s.name, name, address - at)),
            _ => Some((&s.name, "", address - s.address)),
        }
    }

    /// The [`CONTENT`] bytes of data at `address` of `file` (fewer at the
    /// end of its section), when it is in a section of data with bytes in
    /// the file.
    fn content<'a>(&self, file: &'a [u8], address: u64) -> Option<&'a [u8]> {
        let s = self.section(address).filter(|s| !s.code)?;
        let within = address - s.address;
        let from = s.offset?.checked_add(within)?;
        let to = from.checked_add(CONTENT.min(s.size - within))?;
        file.get(from as usize..to as usize)
    }
}

/// Sets to zero, in `a` and `b` (one function's bytes in two builds, at
/// `at[0]` and `at[1]`), every four-byte field that differs and reads in
/// both as a displacement to the same place ([`Places`]). Other
/// differences are left as they are: the bytes are then equal when the
/// function only moved.
pub(super) fn mask(a: &mut [u8], b: &mut [u8], at: [u64; 2], files: [File<'_>; 2]) {
    let len = a.len().min(b.len());
    let mut p = 0;
    while p < len {
        if a[p] == b[p] {
            p += 1;
            continue;
        }
        let field = (p.saturating_sub(3)..=p)
            .take_while(|s| s + 4 <= len)
            .find(|&s| same_place(a, b, s, at, files));
        match field {
            Some(s) => {
                a[s..s + 4].fill(0);
                b[s..s + 4].fill(0);
                p = s + 4;
            }
            None => p += 1,
        }
    }
}

/// Whether the four bytes at `s` of `a` and `b` read as displacements to
/// the same place, for one of the [`IMMEDIATES`].
fn same_place(a: &[u8], b: &[u8], s: usize, at: [u64; 2], files: [File<'_>; 2]) -> bool {
    let target = |bytes: &[u8], at: u64, imm: u64| {
        let d = i32::from_le_bytes(bytes[s..s + 4].try_into().ok()?);
        let next = at.checked_add(s as u64 + 4 + imm)?;
        next.checked_add_signed(i64::from(d))
    };
    IMMEDIATES.iter().any(
        |&imm| match (target(a, at[0], imm), target(b, at[1], imm)) {
            (Some(ta), Some(tb)) => same_target(ta, tb, files, true),
            _ => false,
        },
    )
}

/// Whether `ta` in one build and `tb` in the other are the same place:
/// the same section, nearest symbol and distance; or in the same section
/// of data, the same bytes ([`same_data`]), whose four-byte words may,
/// when `follow`, be offsets from there to the same place (a jump table's
/// entries; one level deep).
fn same_target(ta: u64, tb: u64, files: [File<'_>; 2], follow: bool) -> bool {
    let [(file_a, pa), (file_b, pb)] = files;
    match (pa.place(ta), pb.place(tb)) {
        (Some(x), Some(y)) if x == y => true,
        (Some((x, ..)), Some((y, ..))) if x == y => {
            let (Some(da), Some(db)) = (pa.content(file_a, ta), pb.content(file_b, tb)) else {
                return false;
            };
            same_data(da, db, |wa, wb| {
                match (ta.checked_add_signed(wa), tb.checked_add_signed(wb)) {
                    (Some(ja), Some(jb)) => follow && same_target(ja, jb, files, false),
                    _ => false,
                }
            })
        }
        _ => false,
    }
}

/// Whether two builds' data without a symbol is the same: its first
/// [`SAME_DATA`] bytes or more, four at a time, the same or, read as
/// offsets from the data, `to_same` place; and those bytes not all one
/// value (zeros, padding: what any displacement may find).
fn same_data(a: &[u8], b: &[u8], to_same: impl Fn(i64, i64) -> bool) -> bool {
    let word =
        |d: &[u8], k: usize| i64::from(i32::from_le_bytes([d[k], d[k + 1], d[k + 2], d[k + 3]]));
    let words = a.len().min(b.len()) / 4;
    let same = (0..words)
        .take_while(|&k| {
            let (wa, wb) = (word(a, 4 * k), word(b, 4 * k));
            wa == wb || to_same(wa, wb)
        })
        .count();
    let read = &a[..4 * same];
    read.len() >= SAME_DATA && read.iter().any(|&x| x != read[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `.text` at 0x1000, `.rodata` at 0x8000; symbols `f` and `g` in
    /// the code and `table` in the data, `f` `shift` bytes further on.
    fn places(shift: u64) -> Places {
        let section = |address, size, name: &str, code| Section {
            address,
            size,
            name: name.into(),
            offset: Some(address - 0x1000),
            code,
        };
        Places::new(
            vec![
                section(0x1000, 0x1000, ".text", true),
                section(0x8000, 0x100, ".rodata", false),
            ],
            vec![
                (0x1000 + shift, "f".into()),
                (0x1400, "g".into()),
                (0x8010, "table".into()),
            ],
        )
    }

    /// `call rel32` at 0 to `to`, from a function at `at`.
    fn call(at: u64, to: u64) -> Vec<u8> {
        let d = to as i64 - (at as i64 + 5);
        let mut v = vec![0xe8];
        v.extend_from_slice(&(d as i32).to_le_bytes());
        v
    }

    #[test]
    fn a_call_that_only_moved_is_masked_and_a_changed_target_is_not() {
        let (pa, pb) = (places(0), places(0x40));
        // f at 0x1000 calls g at 0x1400; f is 0x40 on in the second build.
        let (mut a, mut b) = (call(0x1000, 0x1400), call(0x1040, 0x1400));
        assert_ne!(a, b);
        mask(&mut a, &mut b, [0x1000, 0x1040], [(&[], &pa), (&[], &pb)]);
        assert_eq!(a, b);
        // The second build calls f instead: not the same place.
        let (mut a, mut b) = (call(0x1000, 0x1400), call(0x1040, 0x1040));
        mask(&mut a, &mut b, [0x1000, 0x1040], [(&[], &pa), (&[], &pb)]);
        assert_ne!(a, b);
    }

    #[test]
    fn a_load_with_an_immediate_after_its_displacement_is_masked() {
        let (pa, pb) = (places(0), places(0x20));
        // cmpb $1, table+4(%rip): 80 3d disp32 01, 7 bytes.
        let load = |at: u64| {
            let d = (0x8014 - (at as i64 + 7)) as i32;
            let mut v = vec![0x80, 0x3d];
            v.extend_from_slice(&d.to_le_bytes());
            v.push(1);
            v
        };
        let (mut a, mut b) = (load(0x1000), load(0x1020));
        mask(&mut a, &mut b, [0x1000, 0x1020], [(&[], &pa), (&[], &pb)]);
        assert_eq!(a, b);
    }

    #[test]
    fn a_changed_immediate_is_not_masked() {
        let (pa, pb) = (places(0), places(0));
        // mov $12345, %eax against mov $12346, %eax, the code not moved.
        let mov = |k: u32| {
            let mut v = vec![0xb8];
            v.extend_from_slice(&k.to_le_bytes());
            v
        };
        let (mut a, mut b) = (mov(12345), mov(12346));
        mask(&mut a, &mut b, [0x1000, 0x1000], [(&[], &pa), (&[], &pb)]);
        assert_ne!(a, b);
    }

    #[test]
    fn places_outside_every_section_or_before_any_symbol() {
        let p = places(0);
        assert_eq!(p.place(0x10), None);
        assert_eq!(p.place(0x8100), None);
        assert_eq!(p.place(0x1404), Some((".text", "g", 4)));
        // Before `table`: the distance from the section's start.
        assert_eq!(p.place(0x8008), Some((".rodata", "", 8)));
        assert_eq!(p.place(0x8018), Some((".rodata", "table", 8)));
    }

    /// A string without a symbol, moved within `.rodata`: the same
    /// place when the same bytes are there, and not when only zeros are.
    #[test]
    fn data_without_a_symbol_is_compared_by_its_bytes() {
        let p = places(0);
        let mut file = vec![0_u8; 0x7100];
        file[0x7000..0x7010].copy_from_slice(b"a string of data");
        let mut moved = vec![0_u8; 0x7100];
        moved[0x7004..0x7014].copy_from_slice(b"a string of data");
        // lea str(%rip), %rdi: 48 8d 3d disp32, 7 bytes, at 0x1000.
        let lea = |to: i64| {
            let mut v = vec![0x48, 0x8d, 0x3d];
            v.extend_from_slice(&((to - 0x1007) as i32).to_le_bytes());
            v
        };
        let (mut a, mut b) = (lea(0x8000), lea(0x8004));
        mask(&mut a, &mut b, [0x1000; 2], [(&file, &p), (&moved, &p)]);
        assert_eq!(a, b);
        // A jump table (offsets from it to code) whose code moved.
        let mut t = file.clone();
        let mut t_moved = moved.clone();
        for k in 0..4_i32 {
            let at = 0x7000 + 4 * k as usize;
            t[at..at + 4].copy_from_slice(&(0x1000 - 0x8000 + 16 * k).to_le_bytes());
            t_moved[at + 4..at + 8].copy_from_slice(&(0x1010 - 0x8004 + 16 * k).to_le_bytes());
        }
        let shifted = places(0x10);
        let (mut a, mut b) = (lea(0x8000), lea(0x8004));
        mask(
            &mut a,
            &mut b,
            [0x1000; 2],
            [(&t, &p), (&t_moved, &shifted)],
        );
        assert_eq!(a, b);
        // Eight bytes the same, then other data: the same eight bytes.
        let mut other = moved.clone();
        other[0x700c..0x7014].copy_from_slice(b"whatever");
        let (mut a, mut b) = (lea(0x8000), lea(0x8004));
        mask(&mut a, &mut b, [0x1000; 2], [(&file, &p), (&other, &p)]);
        assert_eq!(a, b);
        // Zeros in both: no telling.
        let (mut a, mut b) = (lea(0x8040), lea(0x8044));
        mask(&mut a, &mut b, [0x1000; 2], [(&file, &p), (&moved, &p)]);
        assert_ne!(a, b);
    }
}
