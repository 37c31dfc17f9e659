//! Callgrind's client requests (`callgrind.h`): control what is counted
//! from inside the program.

use std::ffi::CStr;

use super::{request, tool_base};

const BASE: usize = tool_base(b'C', b'T');
const DUMP_STATS: usize = BASE;
const ZERO_STATS: usize = BASE + 1;
const TOGGLE_COLLECT: usize = BASE + 2;
const DUMP_STATS_AT: usize = yardstick_format::valgrind::CALLGRIND_DUMP_STATS_AT;
const START_INSTRUMENTATION: usize = BASE + 4;
const STOP_INSTRUMENTATION: usize = BASE + 5;

plain_requests! {
    /// Writes the counts so far to a new profile part and zeroes them.
    fn dump_stats = DUMP_STATS;
    /// Zeroes the counts of the current thread.
    fn zero_stats = ZERO_STATS;
    /// Switches event collection on or off (as `--toggle-collect` does at a
    /// function's entry and exit).
    fn toggle_collect = TOGGLE_COLLECT;
    /// Starts full instrumentation (after `--instr-atstart=no`).
    fn start_instrumentation = START_INSTRUMENTATION;
    /// Stops instrumentation: the code runs faster and nothing is counted.
    fn stop_instrumentation = STOP_INSTRUMENTATION;
}

/// [`dump_stats`], with `reason` in the part's description
/// (`Trigger: Client Request: <reason>`).
#[inline(always)]
pub fn dump_stats_at<T: AsRef<CStr>>(reason: T) {
    request(
        0,
        DUMP_STATS_AT,
        [reason.as_ref().as_ptr() as usize, 0, 0, 0, 0],
    );
}
