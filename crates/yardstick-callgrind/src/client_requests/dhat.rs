//! DHAT's client requests (`dhat.h`).

use super::{request, tool_base};

const BASE: usize = tool_base(b'D', b'H');
const AD_HOC_EVENT: usize = BASE;
/// `VG_USERREQ__DHAT_HISTOGRAM_MEMORY` (DHAT of Valgrind 3.17 and later).
const HISTOGRAM_MEMORY: usize = BASE + 1;

/// Records an ad hoc event of `weight` units (DHAT's `--mode=ad-hoc`).
#[inline(always)]
pub fn ad_hoc_event(weight: usize) {
    request(0, AD_HOC_EVENT, [weight, 0, 0, 0, 0]);
}

/// Asks DHAT for an access histogram of the heap block starting at `addr`
/// (blocks up to 1024 bytes get one by default).
#[inline(always)]
pub fn histogram_memory(addr: *const ()) {
    request(0, HISTOGRAM_MEMORY, [addr as usize, 0, 0, 0, 0]);
}
