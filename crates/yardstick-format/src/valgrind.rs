//! The wire between a program and Valgrind: a client request is a "magic"
//! instruction sequence that does nothing on a real CPU (rotations of a
//! register by 128 bits in total, then a no-op exchange) and that Valgrind
//! recognises while translating the code: it reads the request code and
//! five arguments from the array the sequence points at and returns a
//! result in place of the default. Outside Valgrind the default comes back,
//! at the cost of a handful of register instructions.
//!
//! It lives here, with no dependency, because two crates issue requests:
//! `yardstick-callgrind` (all of Valgrind's requests, behind its features)
//! and the harness (`--explain` switches Callgrind's collection on around
//! the timed loop only). The request codes are those of `valgrind.h`.
//! Which Valgrind runs ([`executable`]) is here for the same reason.

/// `VG_USERREQ_TOOL_BASE(a, b)` of `valgrind.h`.
#[must_use]
pub const fn tool_base(a: u8, b: u8) -> usize {
    ((a as usize) << 24) | ((b as usize) << 16)
}

/// `VG_USERREQ__RUNNING_ON_VALGRIND`: how many Valgrinds the program runs
/// under (0 natively).
pub const RUNNING_ON_VALGRIND: usize = 0x1001;

/// `CALLGRIND_TOGGLE_COLLECT`: switches Callgrind's event collection on or
/// off.
pub const CALLGRIND_TOGGLE_COLLECT: usize = tool_base(b'C', b'T') + 2;

/// `CALLGRIND_DUMP_STATS_AT`: writes the counts so far to a new part of the
/// profile, described as `Trigger: Client Request: <reason>`, and zeroes
/// them.
pub const CALLGRIND_DUMP_STATS_AT: usize = tool_base(b'C', b'T') + 3;

/// Issues request `code` with five arguments; `default` when not running
/// under Valgrind, and on targets other than x86_64 and aarch64.
#[inline(always)]
#[must_use]
pub fn request(default: usize, code: usize, args: [usize; 5]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        let block: [usize; 6] = [code, args[0], args[1], args[2], args[3], args[4]];
        let mut result = default;
        // SAFETY: the sequence only rotates rdi by 3+13+61+51 = 128 bits
        // (back to its value) and exchanges rbx with itself; under Valgrind
        // the request reads `block` (alive for the asm) and writes rdx.
        unsafe {
            std::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") block.as_ptr(),
                inout("rdx") result,
                options(nostack),
            );
        }
        result
    }
    #[cfg(target_arch = "aarch64")]
    {
        let block: [usize; 6] = [code, args[0], args[1], args[2], args[3], args[4]];
        let mut result = default;
        // SAFETY: x12 is rotated by 3+13+51+61 = 128 bits (back to its
        // value) and `orr x10, x10, x10` is a no-op; under Valgrind the
        // request reads `block` through x4 and writes x3.
        unsafe {
            std::arch::asm!(
                "ror x12, x12, #3",
                "ror x12, x12, #13",
                "ror x12, x12, #51",
                "ror x12, x12, #61",
                "orr x10, x10, x10",
                in("x4") block.as_ptr(),
                inout("x3") result,
                options(nostack),
            );
        }
        result
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = (code, args);
        default
    }
}

/// Whether this process runs under Valgrind.
#[must_use]
pub fn running_on_valgrind() -> bool {
    request(0, RUNNING_ON_VALGRIND, [0; 5]) > 0
}

/// Switches Callgrind's collection on or off (nothing outside Callgrind).
pub fn callgrind_toggle_collect() {
    let _ = request(0, CALLGRIND_TOGGLE_COLLECT, [0; 5]);
}

/// [`CALLGRIND_DUMP_STATS_AT`] with `reason` (nothing outside Callgrind).
pub fn callgrind_dump_stats_at(reason: &std::ffi::CStr) {
    let _ = request(
        0,
        CALLGRIND_DUMP_STATS_AT,
        [reason.as_ptr() as usize, 0, 0, 0, 0],
    );
}

/// The Valgrind executable: `YARDSTICK_CALLGRIND_VALGRIND` or `valgrind`
/// on `PATH` (one rule for `yardstick-callgrind` and `--explain`).
#[must_use]
pub fn executable() -> std::ffi::OsString {
    std::env::var_os("YARDSTICK_CALLGRIND_VALGRIND")
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| std::ffi::OsString::from("valgrind"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_valgrind_h() {
        // VG_USERREQ_TOOL_BASE('C','T') = 0x43 << 24 | 0x54 << 16, and
        // CALLGRIND_TOGGLE_COLLECT is its third request.
        assert_eq!(CALLGRIND_TOGGLE_COLLECT, 0x4354_0002);
        assert_eq!(RUNNING_ON_VALGRIND, 4097);
    }

    #[test]
    fn outside_valgrind_the_default_comes_back() {
        assert!(!running_on_valgrind());
        assert_eq!(request(7, RUNNING_ON_VALGRIND, [0; 5]), 7);
        callgrind_toggle_collect();
    }
}
