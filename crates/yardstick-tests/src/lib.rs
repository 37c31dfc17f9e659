//! End-to-end tests of the yardstick harness live in `tests/`; the bench
//! binaries they run are in `src/bin/`.

/// With `FIXTURE_PARENT_RSS` (a file), appends the resident KiB of the
/// process that started this one (a worker's parent): the fixtures call it
/// from a benchmark, so the tests see what the measuring run held.
pub fn record_parent_memory() {
    #[cfg(unix)]
    {
        let Some(file) = std::env::var_os("FIXTURE_PARENT_RSS") else {
            return;
        };
        let parent = std::os::unix::process::parent_id();
        let status = std::fs::read_to_string(format!("/proc/{parent}/status")).unwrap_or_default();
        if let Some(line) = status.lines().find(|l| l.starts_with("VmRSS:")) {
            let kib = line.split_whitespace().nth(1).unwrap_or("0");
            append_line(std::path::Path::new(&file), kib);
        }
    }
}

/// Appends `line` and a newline to `file` in one write: workers setting up
/// at once on two CPUs append to the same file, and `writeln!` writes a
/// line in pieces that interleave.
pub fn append_line(file: &std::path::Path, line: &str) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .unwrap();
    f.write_all(format!("{line}\n").as_bytes()).unwrap();
}
