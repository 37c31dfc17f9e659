//! Cachegrind's client requests (`cachegrind.h`, Valgrind 3.22 and later;
//! older Cachegrinds ignore them).

use super::tool_base;

const BASE: usize = tool_base(b'C', b'G');
const START_INSTRUMENTATION: usize = BASE;
const STOP_INSTRUMENTATION: usize = BASE + 1;

plain_requests! {
    /// Starts instrumentation (after `--instr-at-start=no`).
    fn start_instrumentation = START_INSTRUMENTATION;
    /// Stops instrumentation: nothing is counted until it starts again.
    fn stop_instrumentation = STOP_INSTRUMENTATION;
}
