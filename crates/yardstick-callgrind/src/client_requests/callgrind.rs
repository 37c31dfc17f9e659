//! Callgrind's client requests (`callgrind.h`): control what is counted
//! from inside the program.

use std::ffi::CStr;

use super::{request, tool_base};

const BASE: usize = tool_base(b'C', b'T');
const DUMP_STATS: usize = BASE;
const ZERO_STATS: usize = BASE + 1;
const TOGGLE_COLLECT: usize = BASE + 2;
const DUMP_STATS_AT: usize = BASE + 3;
const START_INSTRUMENTATION: usize = BASE + 4;
const STOP_INSTRUMENTATION: usize = BASE + 5;

/// Writes the counts so far to a new profile part and zeroes them.
#[inline(always)]
pub fn dump_stats() {
    request(0, DUMP_STATS, [0; 5]);
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

/// Zeroes the counts of the current thread.
#[inline(always)]
pub fn zero_stats() {
    request(0, ZERO_STATS, [0; 5]);
}

/// Switches event collection on or off (as `--toggle-collect` does at a
/// function's entry and exit).
#[inline(always)]
pub fn toggle_collect() {
    request(0, TOGGLE_COLLECT, [0; 5]);
}

/// Starts full instrumentation (after `--instr-atstart=no`).
#[inline(always)]
pub fn start_instrumentation() {
    request(0, START_INSTRUMENTATION, [0; 5]);
}

/// Stops instrumentation: the code runs faster and nothing is counted.
#[inline(always)]
pub fn stop_instrumentation() {
    request(0, STOP_INSTRUMENTATION, [0; 5]);
}
