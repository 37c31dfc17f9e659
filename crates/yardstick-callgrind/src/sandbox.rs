//! The temporary directory binary benchmarks run in, with fixtures copied
//! in; removed when dropped.

use std::path::{Path, PathBuf};

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
    pub fn new(fixtures: Option<&Path>) -> Result<Sandbox, String> {
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
        if let Some(src) = fixtures {
            let name = src.file_name().unwrap_or(src.as_os_str());
            copy_dir(src, &sandbox.dir.join(name)).map_err(|e| {
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

fn copy_dir(src: &Path, dst: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dst)?;
    for entry in std::fs::read_dir(src)? {
        let entry = entry?;
        let to = dst.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &to)?;
        } else {
            std::fs::copy(entry.path(), to)?;
        }
    }
    Ok(())
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
            let sb = Sandbox::new(Some(&src)).unwrap();
            path = sb.path().to_owned();
            let name = src.file_name().unwrap();
            assert_eq!(
                std::fs::read_to_string(path.join(name).join("sub/a.txt")).unwrap(),
                "hi"
            );
        }
        assert!(!path.exists());
        std::fs::remove_dir_all(src).unwrap();
        assert!(Sandbox::new(Some(Path::new("/nonexistent/fixtures"))).is_err());
    }
}
