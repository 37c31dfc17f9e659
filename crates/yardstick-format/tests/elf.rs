//! `yardstick_format::elf` on programs rustc links here with
//! `--emit-relocs`: a changed constant is a changed function and nothing
//! else; the same code shuffled by the linker reads the same; and what it
//! reads agrees with the `object` crate (symbols, and every relocated
//! field masked).

#![cfg(all(target_os = "linux", target_pointer_width = "64"))]

use std::path::{Path, PathBuf};
use std::process::Command;

use object::{Object, ObjectSection, ObjectSymbol};
use yardstick_format::elf::Code;

const PROGRAM: &str = r#"
#[inline(never)]
pub fn work(x: u64) -> u64 {
    std::hint::black_box(x).wrapping_mul(FACTOR)
}

#[inline(never)]
pub fn other(x: u64) -> u64 {
    std::hint::black_box(x).rotate_left(7) ^ 3
}

fn main() {
    println!("{}", work(std::hint::black_box(3)) + other(std::hint::black_box(5)));
}
"#;

/// `PROGRAM` with `FACTOR`, linked with its relocations (and `extra`
/// linker arguments) into `dir/name`.
fn build(dir: &Path, name: &str, factor: u64, extra: &[&str]) -> Option<PathBuf> {
    build_as(dir, name, factor, &[&["-Wl,--emit-relocs"], extra].concat())
}

/// `PROGRAM` with `FACTOR`, linked with `extra` linker arguments alone.
fn build_as(dir: &Path, name: &str, factor: u64, extra: &[&str]) -> Option<PathBuf> {
    let src = dir.join(format!("{name}.rs"));
    std::fs::write(&src, format!("{PROGRAM}\nconst FACTOR: u64 = {factor};\n")).unwrap();
    let out = dir.join(name);
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let mut cmd = Command::new(rustc);
    // One crate name for every build: symbols are named after it.
    cmd.args(["--crate-name", "prog", "-C", "opt-level=2", "-o"])
        .arg(&out)
        .arg(&src);
    for a in extra {
        cmd.arg("-C").arg(format!("link-arg={a}"));
    }
    let done = cmd.output().ok()?;
    if !done.status.success() {
        eprintln!("skipped: {}", String::from_utf8_lossy(&done.stderr));
        return None;
    }
    Some(out)
}

fn code(path: &Path) -> Code {
    Code::parse(std::fs::read(path).unwrap()).unwrap()
}

/// The mangled name of the function whose demangled path ends `::name`.
fn symbol(path: &Path, name: &str) -> String {
    let bytes = std::fs::read(path).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let prefix = format!("_ZN4prog{}{name}17h", name.len());
    file.symbols()
        .filter_map(|s| s.name().ok().map(str::to_owned))
        .find(|s| s.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no symbol for {name}"))
}

#[test]
fn a_changed_constant_changes_its_function_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (Some(a), Some(b)) = (
        build(dir.path(), "a", 12345, &[]),
        build(dir.path(), "b", 12346, &[]),
    ) else {
        return;
    };
    let (ca, cb) = (code(&a), code(&b));
    assert!(ca.relocated() && cb.relocated());
    let work = symbol(&a, "work");
    let other = symbol(&a, "other");
    let main = symbol(&a, "main");
    assert_ne!(ca.function(&work), cb.function(&work));
    assert_eq!(
        ca.function(&other).unwrap().bytes,
        cb.function(&other).unwrap().bytes
    );
    assert_eq!(
        ca.function(&main).unwrap().bytes,
        cb.function(&main).unwrap().bytes
    );
    // One function of the program's and the standard library's differs.
    assert!(ca.functions() > 100, "{}", ca.functions());
    assert_eq!((ca.changed_in(&cb), cb.changed_in(&ca)), (1, 1));
}

/// lld's `--shuffle-sections` moves every function (as `cargo yardstick
/// init`'s layouts do): with the relocated fields masked, none differs.
#[test]
fn the_same_code_shuffled_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let (Some(a), Some(shuffled)) = (
        build(dir.path(), "a", 7, &[]),
        build(dir.path(), "s", 7, &["-Wl,--shuffle-sections=.text.*=3"]),
    ) else {
        return;
    };
    let (ca, cs) = (code(&a), code(&shuffled));
    let names = ["work", "other", "main"].map(|n| symbol(&a, n));
    let moved = names
        .iter()
        .filter(|n| ca.function_address(n) != cs.function_address(n))
        .count();
    assert!(moved > 0, "the shuffle moved nothing");
    for n in &names {
        assert_eq!(
            ca.function(n).unwrap().bytes,
            cs.function(n).unwrap().bytes,
            "{n}"
        );
    }
}

/// Without relocations (a build without the setup) x86-64's moved
/// displacements are read by where they point: the same verdict, function
/// by function, as the relocations give on the same programs linked with
/// them, for code the linker shuffled and for a changed constant.
#[test]
#[cfg(target_arch = "x86_64")]
fn without_relocations_moved_code_reads_as_the_relocations_say() {
    let dir = tempfile::tempdir().unwrap();
    let shuffle = "-Wl,--shuffle-sections=.text.*=3";
    let built = (
        build(dir.path(), "a", 12345, &[]),
        build(dir.path(), "s", 12345, &[shuffle]),
        build(dir.path(), "b", 12346, &[]),
        build_as(dir.path(), "a_bare", 12345, &[]),
        build_as(dir.path(), "s_bare", 12345, &[shuffle]),
        build_as(dir.path(), "b_bare", 12346, &[]),
    );
    let (Some(a), Some(s), Some(b), Some(a2), Some(s2), Some(b2)) = built else {
        return;
    };
    let [ca, cs, cb, ca2, cs2, cb2] = [&a, &s, &b, &a2, &s2, &b2].map(|p| code(p));
    assert!(!ca2.relocated() && !cs2.relocated());
    assert!(ca2.comparable(&cs2));
    let names = function_names(&a);
    let (mut moved, mut compared, mut wrong) = (0, 0, Vec::new());
    for name in &names {
        let same = |x: &Code, y: &Code| match x.both(y, name) {
            (Some(f), Some(g)) => Some(f.bytes == g.bytes),
            _ => None,
        };
        let (Some(truth), Some(ours)) = (same(&ca, &cs), same(&ca2, &cs2)) else {
            continue;
        };
        if ours != truth {
            wrong.push(name);
        }
        compared += 1;
        moved += usize::from(ca2.function_address(name) != cs2.function_address(name));
    }
    assert!(
        wrong.is_empty(),
        "{} of {compared} read otherwise: {wrong:?}",
        wrong.len()
    );
    assert!(
        compared > 100 && moved > 100,
        "{compared} compared, {moved} moved"
    );
    assert_eq!(ca.changed_in(&cs), 0);
    assert_eq!(ca2.changed_in(&cs2), 0);
    // The changed constant: one function, as with the relocations.
    assert_eq!(ca.changed_in(&cb), 1);
    assert_eq!((ca2.changed_in(&cb2), cb2.changed_in(&ca2)), (1, 1));
    let work = symbol(&a, "work");
    let (x, y) = ca2.both(&cb2, &work);
    assert_ne!(x.unwrap().bytes, y.unwrap().bytes);
}

/// The names of the file's function symbols, as the `object` crate reads them.
fn function_names(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    file.symbols()
        .filter(|s| s.kind() == object::SymbolKind::Text && s.size() > 0)
        .filter_map(|s| s.name().ok().map(str::to_owned))
        .collect()
}

/// What the `object` crate reads of the same file: every function symbol
/// at its address, and every relocated field of the code zero in the
/// function bytes, the other bytes as in the file.
#[test]
fn agrees_with_the_object_crate() {
    let dir = tempfile::tempdir().unwrap();
    let Some(a) = build(dir.path(), "a", 99, &[]) else {
        return;
    };
    let bytes = std::fs::read(&a).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let ours = code(&a);
    let mut names: std::collections::HashMap<String, usize> = Default::default();
    for s in file.symbols() {
        if s.kind() == object::SymbolKind::Text && s.size() > 0 {
            *names
                .entry(yardstick_format::elf::normalized(s.name().unwrap()).to_owned())
                .or_default() += 1;
        }
    }
    let mut checked = 0;
    for s in file.symbols() {
        let name = s.name().unwrap();
        if s.kind() != object::SymbolKind::Text
            || s.size() == 0
            || names[yardstick_format::elf::normalized(name)] != 1
        {
            continue;
        }
        let f = ours
            .function(name)
            .unwrap_or_else(|| panic!("{name} not read"));
        assert_eq!(f.address, s.address(), "{name}");
        assert_eq!(f.bytes.len() as u64, s.size(), "{name}");
        let section = file.section_by_index(s.section_index().unwrap()).unwrap();
        let raw = section.data().unwrap();
        let start = (s.address() - section.address()) as usize;
        let mut expected = raw[start..start + s.size() as usize].to_vec();
        let mut fields = 0;
        for (at, r) in section.relocations() {
            let width = u64::from(r.size() / 8).max(4);
            fields += usize::from((s.address()..s.address() + s.size()).contains(&at));
            for k in at..at + width {
                if (s.address()..s.address() + s.size()).contains(&k) {
                    let i = (k - s.address()) as usize;
                    assert_eq!(f.bytes[i], 0, "{name}: relocated byte {k:#x} not masked");
                    expected[i] = 0;
                }
            }
        }
        // Bytes ours masks beyond the relocations' own fields: the opcode
        // bytes before a GOT load; the rest as in the file.
        let differing = f
            .bytes
            .iter()
            .zip(&expected)
            .filter(|(x, y)| x != y)
            .count();
        assert!(
            differing <= 3 * fields,
            "{name}: {differing} bytes masked beyond {fields} fields"
        );
        checked += 1;
    }
    assert!(checked > 100, "only {checked} functions compared");
}
