//! The parent's side of the protocol: one [`Worker`] per child process,
//! with a time limit on every answer so a hung benchmark cannot hang the
//! parent.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use yardstick_format::worker::{
    WorkerReply, WorkerRequest, LINE_PREFIX, PROTOCOL_VERSION, WORKER_ENV,
};

/// How much of a worker's standard error is kept for error messages.
const STDERR_TAIL: usize = 4096;

/// Why a worker could not do what was asked.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerError {
    /// The worker could not be started.
    Spawn(String),
    /// No answer within the time limit; the worker was killed.
    TimedOut {
        /// The time limit.
        limit: Duration,
        /// What it was asked to do (`sampling fib/20`).
        doing: String,
    },
    /// The worker exited or closed its output; `stderr` is the end of what
    /// it printed there (a panic message, usually).
    Exited {
        /// How it ended: `exited with status 3`, `was killed by signal 9
        /// (SIGKILL)`, or that it closed its output while still running.
        how: String,
        /// What it was asked to do (`sampling fib/20`).
        doing: String,
        /// The last lines of its standard error.
        stderr: String,
    },
    /// The request failed in the worker (a panic, a routine that never
    /// iterated); the worker still runs.
    Failed(String),
    /// The worker speaks another protocol version (a revision built with
    /// another yardstick).
    Version(u32),
    /// An answer that does not fit the request.
    Protocol(String),
}

impl std::fmt::Display for WorkerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorkerError::Spawn(e) => write!(f, "could not start a worker process: {e}"),
            WorkerError::TimedOut { limit, doing } => write!(
                f,
                "no answer within {:.0} s while {doing}: the benchmark hangs or runs far past its budget (killed)",
                limit.as_secs_f64()
            ),
            WorkerError::Exited { how, doing, stderr } => {
                write!(f, "the worker process {how} while {doing}")?;
                match stderr.trim().lines().last() {
                    // What it printed is not ours: shown, never obeyed.
                    Some(last) => write!(f, ": {}", yardstick_format::names::one_line(last)),
                    None => Ok(()),
                }
            }
            WorkerError::Failed(m) => f.write_str(m),
            WorkerError::Version(v) => write!(
                f,
                "the worker speaks protocol version {v}, this side {PROTOCOL_VERSION}: rebuild both with the same yardstick"
            ),
            WorkerError::Protocol(m) => write!(f, "unexpected answer from a worker: {m}"),
        }
    }
}

impl std::error::Error for WorkerError {}

/// Where a worker stands in its walk over the benchmarks.
#[derive(Debug, Clone, PartialEq)]
enum Place {
    /// Started; has not yet reached a benchmark.
    Starting,
    /// Waiting at this benchmark.
    At(String),
    /// Told to move on; its next answer names where it got to.
    Moving,
    /// Past the last benchmark, or dead.
    Gone,
}

/// A bench binary running as a worker.
pub struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<WorkerReply>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    place: Place,
    /// What it was last asked to do, for error messages.
    doing: String,
}

impl Worker {
    /// Starts `command` (a bench binary and its arguments) as a worker.
    ///
    /// # Errors
    ///
    /// [`WorkerError::Spawn`] when the process cannot be started.
    pub fn spawn(mut command: Command) -> Result<Worker, WorkerError> {
        command
            .env(WORKER_ENV, "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .map_err(|e| WorkerError::Spawn(e.to_string()))?;
        let (tx, replies) = mpsc::channel();
        let stdout = child.stdout.take().expect("piped stdout");
        std::thread::spawn(move || read_replies(BufReader::new(stdout), &tx));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let mut err_pipe = child.stderr.take().expect("piped stderr");
        let tail = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n @ 1..) = err_pipe.read(&mut buf) {
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.extend(&buf[..n]);
                let excess = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..excess);
            }
        });
        Ok(Worker {
            stdin: child.stdin.take(),
            child,
            replies,
            stderr,
            stderr_reader: Some(stderr_reader),
            place: Place::Starting,
            doing: "starting".to_owned(),
        })
    }

    /// The worker's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The worker's resident memory in bytes, where the system says
    /// (Linux's `/proc`); `None` elsewhere or once it is gone.
    #[must_use]
    pub fn resident_bytes(&self) -> Option<u64> {
        super::resident_bytes(self.child.id())
    }

    /// Whether the worker is past its last benchmark or dead.
    #[must_use]
    pub fn is_gone(&self) -> bool {
        self.place == Place::Gone
    }

    /// The benchmark the worker waits at, if it waits at one.
    #[must_use]
    pub fn at(&self) -> Option<&str> {
        match &self.place {
            Place::At(id) => Some(id),
            _ => None,
        }
    }

    fn send(&mut self, request: &WorkerRequest) -> Result<(), WorkerError> {
        let here = match &self.place {
            Place::At(id) => yardstick_format::names::one_line(id).into_owned(),
            _ => "its next benchmark".to_owned(),
        };
        self.doing = match request {
            WorkerRequest::WarmUp { .. } => format!("warming up {here}"),
            WorkerRequest::Sample { .. } => format!("sampling {here}"),
            WorkerRequest::Explain { .. } | WorkerRequest::Count { .. } => {
                format!("counting instructions of {here}")
            }
            WorkerRequest::Next => format!("moving on from {here}"),
            WorkerRequest::Quit => "quitting".to_owned(),
        };
        let json = yardstick_format::json::to_string(request);
        let written = self
            .stdin
            .as_mut()
            .map(|s| writeln!(s, "{json}").and_then(|()| s.flush()));
        match written {
            Some(Ok(())) => Ok(()),
            _ => Err(self.exited()),
        }
    }

    /// The next answer other than the hello, within `limit`.
    fn recv(&mut self, limit: Duration) -> Result<WorkerReply, WorkerError> {
        loop {
            match self.replies.recv_timeout(limit) {
                Ok(WorkerReply::Hello { version, .. }) if version != PROTOCOL_VERSION => {
                    self.kill();
                    return Err(WorkerError::Version(version));
                }
                Ok(WorkerReply::Hello { .. }) => continue,
                Ok(WorkerReply::End) => {
                    self.place = Place::Gone;
                    return Ok(WorkerReply::End);
                }
                Ok(WorkerReply::At { id }) => {
                    self.place = Place::At(id.clone());
                    return Ok(WorkerReply::At { id });
                }
                Ok(reply) => return Ok(reply),
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(WorkerError::TimedOut {
                        limit,
                        doing: self.doing.clone(),
                    });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }

    fn exited(&mut self) -> WorkerError {
        // Its output ended: it has exited, or is about to, or closed its
        // output and still runs. A moment for the exit status, then kill.
        let mut status = None;
        for _ in 0..50 {
            status = self.child.try_wait().ok().flatten();
            if status.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.kill();
        let how = status.map_or_else(
            || "closed its output while still running (killed)".to_owned(),
            ended,
        );
        // Its last words may still be in the pipe: let the reader finish
        // (briefly: a grandchild may hold the pipe open).
        if let Some(reader) = self.stderr_reader.take() {
            for _ in 0..100 {
                if reader.is_finished() {
                    let _ = reader.join();
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: Vec<u8> = tail.iter().copied().collect();
        WorkerError::Exited {
            how,
            doing: self.doing.clone(),
            stderr: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// Kills the worker (it is gone afterwards).
    pub fn kill(&mut self) {
        self.place = Place::Gone;
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Walks the worker forward to benchmark `id`, skipping the ones before
    /// it. `Ok(false)` when the worker got past its last benchmark without
    /// meeting `id` (it is gone then). `limit` bounds each step.
    ///
    /// # Errors
    ///
    /// When the worker times out, exits or misbehaves.
    pub fn advance_to(&mut self, id: &str, limit: Duration) -> Result<bool, WorkerError> {
        loop {
            match &self.place {
                Place::At(here) if here == id => return Ok(true),
                Place::At(_) => {
                    self.send(&WorkerRequest::Next)?;
                    self.place = Place::Moving;
                }
                Place::Gone => return Ok(false),
                Place::Starting | Place::Moving => match self.recv(limit)? {
                    WorkerReply::At { .. } | WorkerReply::End => {}
                    other => return Err(WorkerError::Protocol(format!("{other:?}"))),
                },
            }
        }
    }

    /// Walks the worker through all its benchmarks without measuring and
    /// returns their ids in order (the worker is gone afterwards): what a
    /// parent driving two builds uses to see which benchmarks both have.
    /// `limit` bounds each step.
    ///
    /// # Errors
    ///
    /// When the worker times out, exits or misbehaves.
    pub fn ids(&mut self, limit: Duration) -> Result<Vec<String>, WorkerError> {
        let mut ids = Vec::new();
        loop {
            match &self.place {
                Place::At(here) => {
                    ids.push(here.clone());
                    self.send(&WorkerRequest::Next)?;
                    self.place = Place::Moving;
                }
                Place::Gone => return Ok(ids),
                Place::Starting | Place::Moving => match self.recv(limit)? {
                    WorkerReply::At { .. } | WorkerReply::End => {}
                    other => return Err(WorkerError::Protocol(format!("{other:?}"))),
                },
            }
        }
    }

    /// Warms the routine up (see `WorkerRequest::WarmUp`); returns the last
    /// timing per iteration.
    ///
    /// # Errors
    ///
    /// When the worker times out, exits, misbehaves or the routine fails.
    pub fn warm_up(
        &mut self,
        min: Duration,
        max: Duration,
        limit: Duration,
    ) -> Result<f64, WorkerError> {
        self.send(&WorkerRequest::WarmUp {
            min_ns: min.as_nanos() as u64,
            max_ns: max.as_nanos() as u64,
        })?;
        match self.recv(limit)? {
            WorkerReply::WarmedUp { per_iteration } => Ok(per_iteration),
            WorkerReply::Failed { message } => Err(WorkerError::Failed(message)),
            other => Err(WorkerError::Protocol(format!("{other:?}"))),
        }
    }

    /// Asks the worker to run the benchmark's setup (the code before its
    /// timing loop) without timing anything, and returns at once: a sample
    /// request of no samples, which every protocol version answers. Its
    /// answer is read by [`Worker::set_up`].
    ///
    /// # Errors
    ///
    /// When the worker has exited.
    pub fn start_setup(&mut self) -> Result<(), WorkerError> {
        self.send(&WorkerRequest::Sample {
            iters: Vec::new(),
            budget_ns: 0,
            min_samples: 0,
        })?;
        self.doing = self.doing.replacen("sampling", "setting up", 1);
        Ok(())
    }

    /// Waits up to `limit` for the setup [`Worker::start_setup`] asked for.
    ///
    /// # Errors
    ///
    /// When the worker times out, exits, misbehaves or the setup panics.
    pub fn set_up(&mut self, limit: Duration) -> Result<(), WorkerError> {
        match self.recv(limit)? {
            WorkerReply::Samples { values, .. } if values.is_empty() => Ok(()),
            WorkerReply::Failed { message } => Err(WorkerError::Failed(message)),
            other => Err(WorkerError::Protocol(format!("{other:?}"))),
        }
    }

    /// Takes samples of `iters` iterations each, stopping after `budget`
    /// once `min_samples` are taken; returns iterations and values.
    ///
    /// # Errors
    ///
    /// When the worker times out, exits, misbehaves or the routine fails.
    pub fn sample(
        &mut self,
        iters: Vec<u64>,
        budget: Duration,
        min_samples: u32,
        limit: Duration,
    ) -> Result<(Vec<f64>, Vec<f64>), WorkerError> {
        self.send(&WorkerRequest::Sample {
            iters,
            budget_ns: budget.as_nanos() as u64,
            min_samples,
        })?;
        match self.recv(limit)? {
            WorkerReply::Samples { iters, values } if iters.len() == values.len() => {
                Ok((iters, values))
            }
            WorkerReply::Failed { message } => Err(WorkerError::Failed(message)),
            other => Err(WorkerError::Protocol(format!("{other:?}"))),
        }
    }

    /// Runs `iters` iterations with Callgrind's collection on around the
    /// timed loop (see `WorkerRequest::Explain`); returns whether only the
    /// loop was counted.
    ///
    /// # Errors
    ///
    /// When the worker times out, exits, misbehaves or the routine fails.
    pub fn explain(&mut self, iters: u64, limit: Duration) -> Result<bool, WorkerError> {
        self.send(&WorkerRequest::Explain { iters })?;
        match self.recv(limit)? {
            WorkerReply::Explained { separated } => Ok(separated),
            WorkerReply::Failed { message } => Err(WorkerError::Failed(message)),
            other => Err(WorkerError::Protocol(format!("{other:?}"))),
        }
    }

    /// Counts up to `iters` iterations within `budget` and writes them to a
    /// profile part of their own (see `WorkerRequest::Count`); returns the
    /// iterations counted and whether only the loops were.
    ///
    /// # Errors
    ///
    /// When the worker times out, exits, misbehaves or the routine fails.
    pub fn count(
        &mut self,
        iters: u64,
        budget: Duration,
        limit: Duration,
    ) -> Result<(u64, bool), WorkerError> {
        let budget_ns = u64::try_from(budget.as_nanos()).unwrap_or(u64::MAX);
        self.send(&WorkerRequest::Count { iters, budget_ns })?;
        match self.recv(limit)? {
            WorkerReply::Counted { iters, separated } => Ok((iters, separated)),
            WorkerReply::Failed { message } => Err(WorkerError::Failed(message)),
            other => Err(WorkerError::Protocol(format!("{other:?}"))),
        }
    }

    /// Tells the worker to quit and waits up to `limit` for it to exit, as
    /// a tool wrapping it (Valgrind writing its output) needs; killed
    /// after that. Whether it exited on its own.
    pub fn finish(mut self, limit: Duration) -> bool {
        if self.place != Place::Gone {
            let _ = self.send(&WorkerRequest::Quit);
        }
        self.place = Place::Gone;
        self.stdin = None;
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

/// Sends every protocol line of `stdout` to `tx`. What the benchmark prints
/// itself is not ours, whatever its bytes (not UTF-8, no line break): only
/// the lines holding [`LINE_PREFIX`] are read.
fn read_replies(mut stdout: impl BufRead, tx: &mpsc::Sender<WorkerReply>) {
    let prefix = LINE_PREFIX.as_bytes();
    let mut line = Vec::new();
    loop {
        line.clear();
        match stdout.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let Some(at) = line.windows(prefix.len()).position(|w| w == prefix) else {
            continue;
        };
        let Ok(json) = std::str::from_utf8(&line[at + prefix.len()..]) else {
            continue;
        };
        if let Ok(reply) = yardstick_format::json::from_str::<WorkerReply>(json.trim_end()) {
            if tx.send(reply).is_err() {
                return;
            }
        }
    }
}

/// How a worker ended, in words: its exit status or the signal that ended
/// it.
fn ended(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                1 => " (SIGHUP)",
                2 => " (SIGINT)",
                4 => " (SIGILL)",
                6 => " (SIGABRT: it aborted)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV: an invalid memory access)",
                13 => " (SIGPIPE)",
                15 => " (SIGTERM)",
                _ => "",
            };
            return format!("was killed by signal {signal}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => format!("ended ({status})"),
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        if self.place != Place::Gone {
            let _ = self.send(&WorkerRequest::Quit);
        }
        self.stdin = None;
        // A worker that ignores quit (stuck in a benchmark) is killed.
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
