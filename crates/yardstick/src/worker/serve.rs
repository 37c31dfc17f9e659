//! The worker's side of the protocol: wait at each benchmark, measure what
//! the parent asks, move on when told.

use std::io::{BufRead, BufReader, Write};
use std::sync::{Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

use yardstick_format::worker::{WorkerReply, WorkerRequest, LINE_PREFIX, PROTOCOL_VERSION};

use crate::measurement::Measurement;
use crate::routine::{run_once, RoutineFn};
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
pub(crate) fn serve<M: Measurement>(m: &M, id: &str, f: &mut RoutineFn<'_, M>) {
    say(&WorkerReply::At { id: id.to_owned() });
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
        let request = match yardstick_format::json::from_str::<WorkerRequest>(line.trim()) {
            Ok(r) => r,
            Err(e) => {
                say(&WorkerReply::Failed {
                    message: format!("unreadable request: {e}"),
                });
                continue;
            }
        };
        let reply = match request {
            WorkerRequest::Next => return,
            WorkerRequest::Quit => std::process::exit(0),
            WorkerRequest::WarmUp { min_ns, max_ns } => warm_up(m, f, min_ns, max_ns),
            WorkerRequest::Sample {
                iters,
                budget_ns,
                min_samples,
            } => sample(m, f, &iters, budget_ns, min_samples as usize),
            WorkerRequest::Explain { iters } => explain(m, f, iters),
        };
        say(&reply);
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

fn warm_up<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    min_ns: u64,
    max_ns: u64,
) -> WorkerReply {
    let (min, max) = (Duration::from_nanos(min_ns), Duration::from_nanos(max_ns));
    match state::catch_panic(|| adaptive::warm_up_within(m, f, min, max)) {
        Ok(Ok(per_iteration)) => WorkerReply::WarmedUp { per_iteration },
        Ok(Err(e)) => failed(e.to_string()),
        Err(panic) => failed(panic),
    }
}

fn sample<M: Measurement>(
    m: &M,
    f: &mut RoutineFn<'_, M>,
    iters: &[u64],
    budget_ns: u64,
    min_samples: usize,
) -> WorkerReply {
    let start = Instant::now();
    let budget = Duration::from_nanos(budget_ns);
    let taken = state::catch_panic(|| {
        let mut done = (Vec::new(), Vec::new());
        for &n in iters {
            if done.0.len() >= min_samples && start.elapsed() >= budget {
                break;
            }
            let (value, _) = run_once(m, f, n)?;
            done.0.push(n as f64);
            done.1.push(value);
        }
        Ok::<_, crate::routine::NotIterated>(done)
    });
    match taken {
        Ok(Ok((iters, values))) => WorkerReply::Samples { iters, values },
        Ok(Err(e)) => failed(e.to_string()),
        Err(panic) => failed(panic),
    }
}

/// Runs the routine once uncounted (lazy initialisation then falls outside
/// the counts, as the warm-up keeps it out of the timing), then `iters`
/// iterations with Callgrind's collection on around the timed loop.
fn explain<M: Measurement>(m: &M, f: &mut RoutineFn<'_, M>, iters: u64) -> WorkerReply {
    let taken = state::catch_panic(|| {
        run_once(m, f, 1)?;
        let window = crate::counting::Window::open();
        run_once(m, f, iters.max(1))?;
        Ok::<_, crate::routine::NotIterated>(window.close())
    });
    match taken {
        Ok(Ok(separated)) => WorkerReply::Explained { separated },
        Ok(Err(e)) => failed(e.to_string()),
        Err(panic) => failed(panic),
    }
}
