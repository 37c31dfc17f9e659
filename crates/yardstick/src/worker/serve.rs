//! The worker's side of the protocol: wait at each benchmark, measure what
//! the parent asks, move on when told.

use std::io::{BufRead, Write};
use std::sync::Once;
use std::time::{Duration, Instant};

use yardstick_format::worker::{WorkerReply, WorkerRequest, LINE_PREFIX, PROTOCOL_VERSION};

use crate::measurement::Measurement;
use crate::routine::{run_once, RoutineFn};
use crate::{adaptive, state};

/// Writes one protocol line (after the hello, the first time).
fn say(reply: &WorkerReply) {
    static HELLO: Once = Once::new();
    let mut out = std::io::stdout().lock();
    HELLO.call_once(|| {
        let hello = WorkerReply::Hello {
            version: PROTOCOL_VERSION,
            pid: std::process::id(),
        };
        write_line(&mut out, &hello);
    });
    write_line(&mut out, reply);
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
        match std::io::stdin().lock().read_line(&mut line) {
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
