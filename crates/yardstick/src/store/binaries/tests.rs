use super::*;

fn home(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("yardstick-kept-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_target_is_the_file_name_without_cargos_hash() {
    assert_eq!(
        binary::target_name("getting_started-0123456789abcdef"),
        "getting_started"
    );
    assert_eq!(binary::target_name("my-bench-0123456789abcdef"), "my-bench");
    assert_eq!(binary::target_name("plain"), "plain");
    assert_eq!(binary::target_name("odd name-12"), "odd_name-12");
    assert_eq!(binary::target_name(""), "bench");
}

#[cfg(unix)]
#[test]
fn a_binary_held_by_a_run_is_not_removed() {
    let dir = home("held");
    let (held, free) = (dir.join("held"), dir.join("free"));
    fs::write(&held, b"x").unwrap();
    fs::write(&free, b"y").unwrap();
    assert!(hold(&held));
    // Another run's clean-up: it opens the file anew, as another
    // process would, and cannot take the exclusive lock.
    assert!(!super::super::lock::remove_unless_locked(&held));
    assert!(held.exists());
    assert!(super::super::lock::remove_unless_locked(&free));
    assert!(!free.exists());
    assert!(!hold(&free), "a removed binary cannot be held");
    fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_kept_binary_is_its_own_file_and_survives_its_source_rewritten_in_place() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let h = home("own");
    let source = h.join("bench-0123456789abcdef");
    fs::write(&source, b"the bench binary").unwrap();
    let name = keep(&h, "p.t", &source).unwrap();
    let kept = binary::kept_path(&h, "p.t", &name);
    let meta = fs::metadata(&kept).unwrap();
    assert_ne!(meta.ino(), fs::metadata(&source).unwrap().ino());
    assert_eq!(meta.permissions().mode() & 0o777, 0o755);
    // What mold and strip do to their output: the same inode rewritten.
    let mut out = fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&source)
        .unwrap();
    io::Write::write_all(&mut out, b"the next build").unwrap();
    drop(out);
    assert_eq!(fs::read(&kept).unwrap(), b"the bench binary");
    assert_eq!(verified(&kept), Ok(()));
    fs::remove_dir_all(&h).unwrap();
}

#[test]
fn a_kept_copy_that_is_not_what_its_name_says_is_replaced() {
    let h = home("replace");
    let (old, new) = (h.join("old"), h.join("new"));
    // Two builds of one size: the name's size part cannot tell them apart.
    fs::write(&old, b"build one").unwrap();
    fs::write(&new, b"build two").unwrap();
    let name = binary::binary_name(b"build two");
    let path = binary::kept_path(&h, "p.t", &name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::copy(&old, &path).unwrap();
    assert!(verified(&path)
        .unwrap_err()
        .contains("changed since it was kept"));
    assert_eq!(keep(&h, "p.t", &new).unwrap(), name);
    assert_eq!(fs::read(&path).unwrap(), b"build two");
    assert_eq!(verified(&path), Ok(()));
    fs::remove_dir_all(&h).unwrap();
}

#[cfg(unix)]
#[test]
fn a_binary_others_can_write_or_own_is_not_trusted() {
    use std::os::unix::fs::PermissionsExt;
    let h = home("trust");
    let source = h.join("bench");
    fs::write(&source, b"#!/bin/sh\n").unwrap();
    let name = keep(&h, "p.t", &source).unwrap();
    let path = binary::kept_path(&h, "p.t", &name);
    assert_eq!(trusted(&path), Ok(()));
    let mode = |p: &Path, m: u32| fs::set_permissions(p, fs::Permissions::from_mode(m)).unwrap();
    mode(&path, 0o757);
    let e = trusted(&path).unwrap_err();
    assert!(
        e.contains("can be written by other users (mode 757)"),
        "{e}"
    );
    assert!(e.contains(&name), "{e}");
    mode(&path, 0o755);
    // The folder above it: whoever can write it can swap the file.
    let dir = path.parent().unwrap();
    mode(dir, 0o775);
    let e = trusted(&path).unwrap_err();
    assert!(e.starts_with(&dir.display().to_string()), "{e}");
    mode(dir, 0o755);
    // SAFETY: no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        // As root (CI): a file of another user (nobody's uid).
        std::os::unix::fs::lchown(&path, Some(65534), None).unwrap();
        let e = trusted(&path).unwrap_err();
        assert!(
            e.contains("belongs to another user (uid 65534, this one 0)"),
            "{e}"
        );
        // Keeping the same binary again puts this user's copy in its place.
        assert_eq!(keep(&h, "p.t", &source).unwrap(), name);
        assert_eq!(trusted(&path), Ok(()));
    } else {
        println!("not root: a file of another user is not planted");
    }
    let link = dir.join("0123456789abcdef-1");
    std::os::unix::fs::symlink(&source, &link).unwrap();
    assert!(trusted(&link).unwrap_err().contains("symbolic link"));
    fs::remove_dir_all(&h).unwrap();
}

/// What the linker wrapper leaves beside a bench binary, and what the
/// harness makes of it: kept layouts named by content, or one line.
#[cfg(unix)]
#[test]
fn the_layouts_beside_a_binary_are_kept_or_said_why_not() {
    use yardstick_format::linked::{layout_path, record_path, LinkedFile};
    let dir = home("layouts");
    let exe = dir.join("deps").join("spin-0123456789abcdef");
    fs::create_dir_all(exe.parent().unwrap()).unwrap();
    fs::write(&exe, b"the bench binary").unwrap();
    let store = dir.join("home");
    let name = keep(&store, "p.spin", &exe).unwrap();
    let kept = |record: &LinkedFile| {
        let text = yardstick_format::json::to_string(record);
        fs::write(record_path(&exe), text).unwrap();
        layouts::keep(&store, "p.spin", &exe, &name)
    };
    // Not set up: nothing beside it, nothing said.
    assert_eq!(layouts::keep(&store, "p.spin", &exe, &name), Ok(Vec::new()));
    let linked = LinkedFile {
        version: 1,
        binary: Some(name.clone()),
        seeds: vec![1, 2],
        error: None,
        seconds: 0.3,
    };
    for k in 1..=2 {
        fs::write(layout_path(&exe, k), format!("layout {k}")).unwrap();
    }
    let names = kept(&linked).unwrap();
    assert_eq!(
        names,
        [
            binary::binary_name(b"layout 1"),
            binary::binary_name(b"layout 2")
        ]
    );
    let kept_path = binary::kept_path(&store, "p.spin", &name);
    assert_eq!(fs::read(layout_path(&kept_path, 2)).unwrap(), b"layout 2");
    // The record pairs them with the binary: verified by the names.
    let record = BinaryFile {
        version: binary::VERSION,
        target: "spin".into(),
        binary: name.clone(),
        protocol: 1,
        measurement: "wall".into(),
        package: Some("p".into()),
        layouts: names.clone(),
    };
    let paired = layouts::pair(&store, &record, Some(&record), 8).unwrap();
    assert_eq!(paired.baseline.len(), 2);
    fs::write(layout_path(&kept_path, 1), b"layout 9").unwrap();
    let refused = layouts::pair(&store, &record, Some(&record), 8)
        .unwrap_err()
        .unwrap();
    assert!(
        refused.starts_with("the baseline's code layout 1 is refused ("),
        "{refused}"
    );
    let bare = BinaryFile {
        layouts: Vec::new(),
        ..record.clone()
    };
    assert_eq!(layouts::pair(&store, &bare, Some(&bare), 8), Err(None));

    // A linker that cannot shuffle; layouts of an earlier link; one gone.
    let why = kept(&LinkedFile {
        seeds: Vec::new(),
        error: Some("the linker cannot shuffle sections (ld: unrecognized option)".into()),
        ..linked.clone()
    })
    .unwrap_err();
    assert!(
        why.starts_with("this build linked no code layouts: the linker cannot shuffle"),
        "{why}"
    );
    let why = kept(&LinkedFile {
        binary: Some("0000000000000000-16".into()),
        ..linked.clone()
    })
    .unwrap_err();
    assert!(why.contains("an earlier build's"), "{why}");
    // Said once: the stale record and its layouts are the wrapper's own.
    assert!(!record_path(&exe).exists() && !layout_path(&exe, 1).exists());
    assert_eq!(layouts::keep(&store, "p.spin", &exe, &name), Ok(Vec::new()));
    fs::write(layout_path(&exe, 1), b"layout 1").unwrap();
    fs::remove_file(layout_path(&exe, 2)).ok();
    let why = kept(&linked).unwrap_err();
    assert!(
        why.starts_with("code layout 2 of this bench binary cannot be kept"),
        "{why}"
    );
    fs::write(record_path(&exe), b"{not json").unwrap();
    let why = layouts::keep(&store, "p.spin", &exe, &name).unwrap_err();
    assert!(why.contains("is unreadable"), "{why}");
    fs::remove_dir_all(&dir).unwrap();
}
