//! Cachegrind's client requests (`cachegrind.h`, Valgrind 3.22 and later;
//! older Cachegrinds ignore them).

use super::{request, tool_base};

const BASE: usize = tool_base(b'C', b'G');
const START_INSTRUMENTATION: usize = BASE;
const STOP_INSTRUMENTATION: usize = BASE + 1;

/// Starts instrumentation (after `--instr-at-start=no`).
#[inline(always)]
pub fn start_instrumentation() {
    request(0, START_INSTRUMENTATION, [0; 5]);
}

/// Stops instrumentation: nothing is counted until it starts again.
#[inline(always)]
pub fn stop_instrumentation() {
    request(0, STOP_INSTRUMENTATION, [0; 5]);
}
