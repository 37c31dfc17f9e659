//! The worker's side of the protocol: wait at each benchmark, measure what
//! the parent asks, move on when told.

use std::io::{BufRead, BufReader, Write};
use std::sync::{Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

use yardstick_format::worker::{WorkerReply, WorkerRequest, LINE_PREFIX, PROTOCOL_VERSION};

use crate::measurement::Measurement;
use crate::routine::{NotIterated, RoutineFn, Timed};
use crate::{adaptive, state};

/// The protocol's two pipes.
struct Channel {
    requests: Mutex<Box<dyn BufRead + Send>>,
    replies: Mutex<Box<dyn Write + Send>>,
}

/// The protocol's pipes, taken off the standard streams the first time: the
/// pipes move to new descriptors, and standard input and output become
/// `/dev/null`. A routine that reads its standard input then reads its end
/// instead of the parent's next request (it waited for the watchdog), and
/// one that writes bytes of any kind to its standard output or closes it
/// leaves the protocol whole.
fn channel() -> &'static Channel {
    static CHANNEL: OnceLock<Channel> = OnceLock::new();
    CHANNEL.get_or_init(|| {
        #[cfg(unix)]
        if let Some((requests, replies)) = take_standard_streams() {
            return Channel {
                requests: Mutex::new(Box::new(BufReader::new(requests))),
                replies: Mutex::new(Box::new(std::io::BufWriter::new(replies))),
            };
        }
        Channel {
            requests: Mutex::new(Box::new(BufReader::new(std::io::stdin()))),
            replies: Mutex::new(Box::new(std::io::stdout())),
        }
    })
}

/// Copies of the standard input and output, which then become
/// `/dev/null`; `None` (nothing changed) when a step fails.
#[cfg(unix)]
fn take_standard_streams() -> Option<(std::fs::File, std::fs::File)> {
    use std::os::fd::{AsFd, AsRawFd};
    let requests = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let replies = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let null = std::fs::File::options()
        .read(true)
        .write(true)
        .open("/dev/null")
        .ok()?;
    let _ = std::io::stdout().flush();
    for fd in [0, 1] {
        // SAFETY: dup2 onto the standard descriptors, which stay open (now
        // on /dev/null); no Rust object owns them.
        if unsafe { libc::dup2(null.as_raw_fd(), fd) } < 0 {
            return None;
        }
    }
    Some((requests.into(), replies.into()))
}

/// Writes one protocol line (after the hello, the first time).
fn say(reply: &WorkerReply) {
    static HELLO: Once = Once::new();
    let mut guard = channel()
        .replies
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let out = &mut *guard;
    HELLO.call_once(|| {
        let hello = WorkerReply::Hello {
            version: PROTOCOL_VERSION,
            pid: std::process::id(),
        };
        write_line(out, &hello);
    });
    write_line(out, reply);
}

fn write_line(out: &mut impl Write, reply: &WorkerReply) {
    let json = yardstick_format::json::to_string(reply);
    // A newline first: a benchmark may have left a partial line behind.
    let _ = write!(out, "\n{LINE_PREFIX}{json}\n");
    let _ = out.flush();
}

/// Serves benchmark `id` until the parent says next; exits the process when
/// the parent says quit or closes the pipe.
///
/// The benchmark function is called once for all the requests it serves:
/// its timing loop ([`from_loop`]) answers them, so the setup code before
/// its `iter` call runs once per worker and benchmark, not once a round.
/// A benchmark whose setup takes longer than its rounds (inputs of tens of
/// megabytes) spent most of a lock-step comparison rebuilding them. Within
/// one call the routine's state carries from round to round, as it does
/// from iteration to iteration within one of Criterion.rs's samples.
pub(crate) fn serve<M: Measurement>(m: &M, id: &str, f: &mut RoutineFn<'_, M>) {
    say(&WorkerReply::At { id: id.to_owned() });
    loop {
        match next_request() {
            WorkerRequest::Next => return,
            WorkerRequest::Quit => std::process::exit(0),
            first => {
                if call_serving(m, f, first) {
                    return;
                }
            }
        }
    }
}

/// What the benchmark function's timing loop did with the requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loop {
    /// Not reached (yet): the first request waits in [`FIRST`].
    NotReached,
    /// Answering a request: a panic now leaves it unanswered.
    Answering,
    /// Every request read so far is answered.
    Answered,
    /// The parent said next.
    Next,
}

thread_local! {
    /// The request the benchmark function's timing loop answers first,
    /// set while the worker calls the function.
    static FIRST: std::cell::RefCell<Option<WorkerRequest>> = const { std::cell::RefCell::new(None) };
    static LOOP: std::cell::Cell<Loop> = const { std::cell::Cell::new(Loop::NotReached) };
}

/// Calls the benchmark function to answer `first` and what follows from its
/// timing loop; whether the parent said next. A request the loop never
/// answered (the function panicked first, or never called an `iter`
/// method) gets its failure here, and the next request calls the function
/// again.
fn call_serving<M: Measurement>(m: &M, f: &mut RoutineFn<'_, M>, first: WorkerRequest) -> bool {
    FIRST.with(|c| *c.borrow_mut() = Some(first));
    LOOP.with(|l| l.set(Loop::NotReached));
    crate::served::set(Some(from_loop));
    let called = state::catch_panic(|| {
        let mut b = crate::bencher::Bencher::new(m, 0);
        f(&mut b);
    });
    crate::served::set(None);
    let unanswered = FIRST.with(|c| c.borrow_mut().take()).is_some();
    let how = LOOP.with(|l| l.replace(Loop::NotReached));
    match called {
        Ok(()) if unanswered => say(&failed(NotIterated.to_string())),
        Err(panic) if unanswered || how == Loop::Answering => say(&failed(panic)),
        _ => {}
    }
    how == Loop::Next
}

/// The worker's timing loop (the hook of `crate::served`): answers the
/// requests with `run` (one run of the loop for a number of iterations)
/// until the parent says next, and returns true; false at once when the
/// function's first `iter*` call already served them.
fn from_loop(run: &mut crate::served::Loop<'_>) -> bool {
    let Some(mut request) = FIRST.with(|c| c.borrow_mut().take()) else {
        return false;
    };
    let once: &mut Timed<'_> = &mut |n| Ok(run(n));
    loop {
        LOOP.with(|l| l.set(Loop::Answering));
        let reply = answer(once, request);
        say(&reply);
        LOOP.with(|l| l.set(Loop::Answered));
        request = match next_request() {
            WorkerRequest::Next => {
                LOOP.with(|l| l.set(Loop::Next));
                return true;
            }
            WorkerRequest::Quit => std::process::exit(0),
            r => r,
        };
    }
}

/// The next readable request; an unreadable one is answered as failed, and
/// a closed pipe ends the process.
fn next_request() -> WorkerRequest {
    let mut line = String::new();
    loop {
        line.clear();
        let read = channel()
            .requests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .read_line(&mut line);
        match read {
            Ok(0) | Err(_) => std::process::exit(0),
            Ok(_) => {}
        }
        match yardstick_format::json::from_str::<WorkerRequest>(line.trim()) {
            Ok(r) => return r,
            Err(e) => say(&WorkerReply::Failed {
                message: format!("unreadable request: {e}"),
            }),
        }
    }
}

/// The reply to one measuring request. A panic in the routine unwinds
/// through here to [`call_serving`], which answers for it.
fn answer(once: &mut Timed<'_>, request: WorkerRequest) -> WorkerReply {
    match request {
        WorkerRequest::WarmUp { min_ns, max_ns } => warm_up(once, min_ns, max_ns),
        WorkerRequest::Sample {
            iters,
            budget_ns,
            min_samples,
        } => sample(once, &iters, budget_ns, min_samples as usize),
        WorkerRequest::Explain { iters } => explain(once, iters),
        WorkerRequest::Count { iters, budget_ns } => count(once, iters, budget_ns),
        WorkerRequest::Next | WorkerRequest::Quit => failed("not a measuring request".into()),
    }
}

/// Says that no benchmark is left; the worker then exits.
pub(crate) fn end() -> ! {
    say(&WorkerReply::End);
    std::process::exit(0)
}

fn failed(message: String) -> WorkerReply {
    WorkerReply::Failed { message }
}

fn warm_up(once: &mut Timed<'_>, min_ns: u64, max_ns: u64) -> WorkerReply {
    let (min, max) = (Duration::from_nanos(min_ns), Duration::from_nanos(max_ns));
    match adaptive::warm_up_within(once, min, max) {
        Ok(per_iteration) => WorkerReply::WarmedUp { per_iteration },
        Err(e) => failed(e.to_string()),
    }
}

fn sample(once: &mut Timed<'_>, iters: &[u64], budget_ns: u64, min_samples: usize) -> WorkerReply {
    let start = Instant::now();
    let budget = Duration::from_nanos(budget_ns);
    let mut done = (Vec::new(), Vec::new());
    for &n in iters {
        if done.0.len() >= min_samples && start.elapsed() >= budget {
            break;
        }
        match once(n) {
            Ok((value, _)) => {
                done.0.push(n as f64);
                done.1.push(value);
            }
            Err(e) => return failed(e.to_string()),
        }
    }
    WorkerReply::Samples {
        iters: done.0,
        values: done.1,
    }
}

/// Runs the routine once uncounted (lazy initialisation then falls outside
/// the counts, as the warm-up keeps it out of the timing), then `iters`
/// iterations with Callgrind's collection on around the timed loop.
fn explain(once: &mut Timed<'_>, iters: u64) -> WorkerReply {
    let counted = once(1).and_then(|_| counted_loop(once, iters.max(1)));
    match counted {
        Ok(separated) => WorkerReply::Explained { separated },
        Err(e) => failed(e.to_string()),
    }
}

/// Runs the routine twice uncounted, the second timed, then counts `iters`
/// iterations in one loop, or as many as that time says fit `budget_ns`
/// (at least one), and writes their counts to a profile part of their own
/// (`WorkerRequest::Count`). Given the iterations another worker counted
/// and no budget, a worker runs the same loop.
fn count(once: &mut Timed<'_>, iters: u64, budget_ns: u64) -> WorkerReply {
    // Timed on its second call: Valgrind translates the code on the first.
    let counted = once(1).and_then(|_| {
        let started = Instant::now();
        once(1)?;
        let one = started.elapsed().as_nanos().max(1);
        let fit = u64::try_from(u128::from(budget_ns) / one).unwrap_or(u64::MAX);
        let n = iters.min(fit).max(1);
        Ok((n, counted_loop(once, n)?))
    });
    match counted {
        Ok((iters, separated)) => {
            yardstick_format::valgrind::callgrind_dump_stats_at(
                yardstick_format::worker::COUNT_REASON,
            );
            WorkerReply::Counted { iters, separated }
        }
        Err(e) => failed(e.to_string()),
    }
}

/// `n` iterations in one loop with Callgrind's collection on around it:
/// whether only the loop was counted (`counting::Window`).
fn counted_loop(once: &mut Timed<'_>, n: u64) -> Result<bool, NotIterated> {
    let window = crate::counting::Window::open();
    once(n)?;
    Ok(window.close())
}
