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
