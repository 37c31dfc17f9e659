//! The temporary directory binary benchmarks run in, with fixtures copied
//! in; removed when dropped.

use std::path::{Path, PathBuf};

use crate::config::Fixtures;

/// A temporary directory, removed on drop.
#[derive(Debug)]
pub struct Sandbox {
    dir: PathBuf,
}

impl Sandbox {
    /// Creates a fresh directory and copies `fixtures` (a directory) into it
    /// under its own name.
    ///
    /// # Errors
    ///
    /// When the directory cannot be made or a fixture cannot be copied; the
    /// message names the path.
    pub fn new(fixtures: Option<&Fixtures>) -> Result<Sandbox, String> {
        let base = std::env::temp_dir();
        let mut n = 0u32;
        let dir = loop {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            // A name of constant length: a benchmarked program that looks at
            // its working directory then does the same work in every run.
            let candidate = base.join(format!(
                "yardstick-callgrind-{:010}-{nanos:08x}-{n:03}",
                std::process::id()
            ));
            match std::fs::create_dir(&candidate) {
                Ok(()) => break candidate,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
                Err(e) => {
                    return Err(format!(
                        "cannot create a sandbox under {}: {e}",
                        base.display()
                    ))
                }
            }
        };
        let sandbox = Sandbox { dir };
        if let Some(f) = fixtures {
            let src = f.dir.as_path();
            let name = src.file_name().unwrap_or(src.as_os_str());
            copy_dir(src, &sandbox.dir.join(name), f.follow_symlinks).map_err(|e| {
                format!(
                    "cannot copy the fixtures {} into the sandbox: {e}",
                    src.display()
                )
            })?;
        }
        Ok(sandbox)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Copies `src` into `dst`; a symbolic link is copied as a link, or as
/// what it points to when `follow`.
fn copy_dir(src: &Path, dst: &Path, follow: bool) -> std::io::Result<()> {
    std::fs::create_dir_all(dst)?;
    for entry in std::fs::read_dir(src)? {
        let entry = entry?;
        let to = dst.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_symlink() && !follow {
            copy_link(&entry.path(), &to)?;
        } else if std::fs::metadata(entry.path())?.is_dir() {
            copy_dir(&entry.path(), &to, follow)?;
        } else {
            std::fs::copy(entry.path(), to)?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn copy_link(link: &Path, to: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(std::fs::read_link(link)?, to)
}

/// Elsewhere links are copied as what they point to.
#[cfg(not(unix))]
fn copy_link(link: &Path, to: &Path) -> std::io::Result<()> {
    if std::fs::metadata(link)?.is_dir() {
        copy_dir(link, to, true)
    } else {
        std::fs::copy(link, to).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures_are_copied_and_the_sandbox_removed() {
        let src = std::env::temp_dir().join(format!("ys-cg-fixture-{}", std::process::id()));
        std::fs::create_dir_all(src.join("sub")).unwrap();
        std::fs::write(src.join("sub/a.txt"), "hi").unwrap();
        let path;
        {
            let sb = Sandbox::new(Some(&Fixtures::new(&src))).unwrap();
            path = sb.path().to_owned();
            let name = src.file_name().unwrap();
            assert_eq!(
                std::fs::read_to_string(path.join(name).join("sub/a.txt")).unwrap(),
                "hi"
            );
        }
        assert!(!path.exists());
        std::fs::remove_dir_all(src).unwrap();
        assert!(Sandbox::new(Some(&Fixtures::new("/nonexistent/fixtures"))).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn links_are_copied_as_links_unless_followed() {
        let root = std::env::temp_dir().join(format!("ys-cg-links-{}", std::process::id()));
        let src = root.join("fixtures");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(root.join("target.txt"), "pointed at").unwrap();
        std::os::unix::fs::symlink(root.join("target.txt"), src.join("link.txt")).unwrap();
        let sb = Sandbox::new(Some(&Fixtures::new(&src))).unwrap();
        let copied = sb.path().join("fixtures/link.txt");
        assert!(std::fs::symlink_metadata(&copied).unwrap().is_symlink());
        assert_eq!(
            std::fs::read_link(&copied).unwrap(),
            root.join("target.txt")
        );
        let sb = Sandbox::new(Some(Fixtures::new(&src).follow_symlinks(true))).unwrap();
        let copied = sb.path().join("fixtures/link.txt");
        assert!(!std::fs::symlink_metadata(&copied).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&copied).unwrap(), "pointed at");
        drop(sb);
        std::fs::remove_dir_all(root).unwrap();
    }
}
