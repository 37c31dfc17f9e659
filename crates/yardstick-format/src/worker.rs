//! The worker protocol: how a parent (the bench binary itself, or
//! `cargo yardstick ab`) drives a bench binary started as a worker.
//!
//! A worker is the same bench binary started with the environment variable
//! [`WORKER_ENV`] set to `1` (and the parent's arguments, so that it selects
//! the same benchmarks). It walks its benchmarks in registration order
//! without measuring anything on its own; at each one it says
//! [`WorkerReply::At`] and waits for requests on its standard input until
//! told [`WorkerRequest::Next`]. After the last benchmark it says
//! [`WorkerReply::End`] and exits.
//!
//! Every message is one line of JSON after [`LINE_PREFIX`] on the worker's
//! standard output (requests: plain JSON lines on its standard input). The
//! prefix starts with an ASCII record separator, so what a benchmark prints
//! itself is told apart and ignored. A parent checks
//! [`WorkerReply::Hello`]'s version first: two revisions built with
//! different protocol versions refuse to pair rather than misread each
//! other.

/// The protocol's version, said in [`WorkerReply::Hello`].
pub const PROTOCOL_VERSION: u32 = 1;

/// The variable that makes a bench binary a worker.
pub const WORKER_ENV: &str = "YARDSTICK_WORKER";

/// What starts each of the worker's protocol lines.
pub const LINE_PREFIX: &str = "\u{1e}yardstick-worker ";

/// A parent's request to a worker waiting at a benchmark.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerRequest {
    /// Run the routine with 1, 2, 4, … iterations until two consecutive
    /// timings per iteration agree within 5 % (after `min_ns`) or `max_ns`
    /// has passed; answer [`WorkerReply::WarmedUp`].
    WarmUp {
        /// The shortest warm-up, in nanoseconds of wall time.
        min_ns: u64,
        /// The longest warm-up.
        max_ns: u64,
    },
    /// Take one sample per entry of `iters`, stopping early once `budget_ns`
    /// of wall time has passed (at least `min_samples` are always taken);
    /// answer [`WorkerReply::Samples`].
    Sample {
        /// Iterations of each sample, in order.
        iters: Vec<u64>,
        /// Wall time after which no new sample is started.
        budget_ns: u64,
        /// Samples taken whatever the budget.
        min_samples: u32,
    },
    /// Run the routine once uncounted, then `iters` iterations with
    /// Callgrind's collection switched on around the timed loop only (the
    /// worker runs under `valgrind --tool=callgrind --collect-atstart=no`);
    /// answer [`WorkerReply::Explained`]. Sent by `--explain`; a worker
    /// of a yardstick before it answers that the request is unreadable.
    Explain {
        /// Iterations counted.
        iters: u64,
    },
    /// Run the routine twice uncounted (the second timed), then `iters`
    /// iterations in one loop, or as many as that time says fit `budget_ns`
    /// (at least one), with Callgrind's collection on around the timed loop; then
    /// write the counts to a part of the profile of their own
    /// (`CALLGRIND_DUMP_STATS_AT`, described as [`COUNT_REASON`]) and answer
    /// [`WorkerReply::Counted`]. Given the iterations another worker
    /// counted and no budget (`u64::MAX`), a worker runs the same loop.
    /// Sent to count every benchmark of a binary in one Callgrind run; a
    /// worker of a yardstick before it answers that the request is
    /// unreadable.
    Count {
        /// Iterations counted at most.
        iters: u64,
        /// Wall time the counted loop should take, judged by the timed
        /// uncounted iteration's.
        budget_ns: u64,
    },
    /// Go on to the next benchmark.
    Next,
    /// Exit now.
    Quit,
}

/// What the profile part a [`WorkerRequest::Count`] writes is described as
/// (`Trigger: Client Request: yardstick-count`).
pub const COUNT_REASON: &std::ffi::CStr = c"yardstick-count";

crate::json_tagged!(WorkerRequest, "kind", {
    WarmUp "warm_up" { min_ns, max_ns },
    Sample "sample" { iters, budget_ns, min_samples },
    Explain "explain" { iters },
    Count "count" { iters, budget_ns },
    Next "next" {},
    Quit "quit" {},
});

/// A worker's message to its parent.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerReply {
    /// The first line: the protocol version and the worker's process id.
    Hello {
        /// [`PROTOCOL_VERSION`] of the worker's build.
        version: u32,
        /// The worker's process id.
        pid: u32,
    },
    /// The worker waits at this benchmark (its full id).
    At {
        /// The benchmark's full id, as `--list` prints it.
        id: String,
    },
    /// The warm-up's last timing per iteration, in the measurement's unit
    /// (nanoseconds for time).
    WarmedUp {
        /// Measured value per iteration.
        per_iteration: f64,
    },
    /// The samples taken.
    Samples {
        /// Iterations of each sample.
        iters: Vec<f64>,
        /// Total measured value of each sample.
        values: Vec<f64>,
    },
    /// The counted iterations ran ([`WorkerRequest::Explain`]).
    Explained {
        /// Whether only the timed loop was counted: `false` when the
        /// routine times itself (`iter_custom`), so its setup is counted
        /// with it.
        separated: bool,
    },
    /// The counted iterations ran and their counts were written
    /// ([`WorkerRequest::Count`]).
    Counted {
        /// Iterations counted.
        iters: u64,
        /// As [`WorkerReply::Explained`]'s.
        separated: bool,
    },
    /// The request failed (the routine panicked or never iterated); the
    /// worker still waits at the same benchmark.
    Failed {
        /// What went wrong, in words.
        message: String,
    },
    /// No benchmark is left; the worker exits.
    End,
}

crate::json_tagged!(WorkerReply, "kind", {
    Hello "hello" { version, pid },
    At "at" { id },
    WarmedUp "warmed_up" { per_iteration },
    Samples "samples" { iters, values },
    Explained "explained" { separated },
    Counted "counted" { iters, separated },
    Failed "failed" { message },
    End "end" {},
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_tagged_json_objects() {
        let r = WorkerRequest::Sample {
            iters: vec![10, 20],
            budget_ns: 1_000,
            min_samples: 2,
        };
        let text = crate::json::to_string(&r);
        assert_eq!(
            text,
            r#"{"kind":"sample","iters":[10,20],"budget_ns":1000,"min_samples":2}"#
        );
        let back: WorkerRequest = crate::json::from_str(&text).unwrap();
        assert_eq!(back, r);
        let at: WorkerReply = crate::json::from_str(r#"{"kind":"at","id":"g/f/1"}"#).unwrap();
        assert_eq!(at, WorkerReply::At { id: "g/f/1".into() });
        assert!(crate::json::from_str::<WorkerReply>(r#"{"kind":"bogus"}"#).is_err());
        let count = WorkerRequest::Count {
            iters: 100,
            budget_ns: u64::MAX,
        };
        let text = crate::json::to_string(&count);
        assert_eq!(
            text,
            r#"{"kind":"count","iters":100,"budget_ns":18446744073709551615}"#
        );
        assert_eq!(
            crate::json::from_str::<WorkerRequest>(&text).unwrap(),
            count
        );
        let counted: WorkerReply =
            crate::json::from_str(r#"{"kind":"counted","iters":31,"separated":true}"#).unwrap();
        assert_eq!(
            counted,
            WorkerReply::Counted {
                iters: 31,
                separated: true
            }
        );
    }
}
