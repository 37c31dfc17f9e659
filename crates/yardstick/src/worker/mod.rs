//! Worker processes: the same bench binary, started by a parent to measure
//! one benchmark at a time on request.
//!
//! Why: samples from one process share its heap layout, address-space
//! randomisation and moment, so their spread hides the offset between
//! processes — which is most of what separates two `cargo bench` runs.
//! By default every benchmark is measured in several short worker
//! processes (`sampling`) and its interval is taken over them
//! (`yardstick_stats::processes`). `cargo yardstick ab` drives the workers
//! of two revisions the same way, in lock-step.
//!
//! The protocol's types live in `yardstick_format::worker`: `serve` is
//! the worker's side, [`Worker`] the parent's.

mod client;
pub mod cpu;
pub mod lockstep;
mod next_pair;
pub(crate) mod sampling;
mod serve;
mod warming;

pub use client::{Worker, WorkerError};

/// What the caller does when workers cannot serve a benchmark, sampling
/// it (`sampling`) or comparing it in lock-step (`lockstep`, through
/// `runner::lockstep`).
#[derive(Debug)]
pub(crate) enum Unavailable {
    /// The workers cannot be used for it, said in one line: the caller
    /// measures it another way (in this process, or against the saved
    /// numbers).
    Fallback(String),
    /// The benchmark itself failed in a worker (a panic, a hang, in
    /// sampling an exit): report it; measured another way it would fail
    /// the same.
    Failed(String),
}
pub(crate) use serve::{end as end_of_run, serve};

use std::sync::OnceLock;

/// Whether this process is a worker (started with `YARDSTICK_WORKER=1`).
/// A worker measures only on request and prints nothing else.
pub(crate) fn active() -> bool {
    static ACTIVE: OnceLock<bool> = OnceLock::new();
    *ACTIVE.get_or_init(|| {
        std::env::var_os(yardstick_format::worker::WORKER_ENV).is_some_and(|v| v == "1")
    })
}

/// Moves both workers of a pair onto `cpus` (`cpu::move_process`);
/// whether both moved.
fn move_pair(pair: &[Worker; 2], cpus: &[usize]) -> bool {
    pair.iter().all(|w| cpu::move_process(w.pid(), cpus))
}

/// Process `pid`'s resident memory in bytes, where the system says
/// (Linux's `/proc`); `None` elsewhere or once it is gone.
pub(crate) fn resident_bytes(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
