//! Valgrind's client requests, in Rust: no Valgrind headers, no C compiler,
//! no bindgen at build time.
//!
//! A client request is a "magic" instruction sequence that does nothing on
//! a real CPU (rotations of a register by 128 bits in total, then a no-op
//! exchange) and that Valgrind recognises while translating the code: it
//! reads the request code and arguments from the array the sequence points
//! at and returns a result in place of the default. Outside Valgrind the
//! default comes back, at the cost of a handful of register instructions.
//!
//! - Feature `client_requests_defs`: the functions exist and do nothing
//!   (return the default), for production code that carries them.
//! - Feature `client_requests`: they issue the request, on x86_64 and
//!   aarch64 (other targets get the `_defs` behaviour).
//!
//! The request codes are those of Valgrind's `valgrind.h`, `callgrind.h`,
//! `memcheck.h`, `dhat.h`, `helgrind.h`, `drd.h` and `cachegrind.h`; the
//! tests run the requests under each tool. Printing to Valgrind's log:
//! `valgrind_printf!`, `valgrind_println!` and their `_backtrace` and
//! `_unchecked` variants (at the crate root, as iai-callgrind's).

/// Client requests that take no argument and return nothing: one call to
/// [`request`] each, with the code given.
macro_rules! plain_requests {
    ($($(#[doc = $doc:expr])* fn $name:ident = $code:expr;)*) => {$(
        $(#[doc = $doc])*
        #[inline(always)]
        pub fn $name() {
            super::request(0, $code, [0; 5]);
        }
    )*};
}

pub mod cachegrind;
pub mod callgrind;
pub mod dhat;
pub mod drd;
pub mod error;
pub mod helgrind;
pub mod memcheck;
#[doc(hidden)]
pub mod print;
pub mod valgrind;

#[doc(hidden)]
pub use print::{__valgrind_print, __valgrind_print_backtrace};

/// A thread id as Valgrind reports it.
pub type ThreadId = usize;
/// A stack id returned by [`valgrind::stack_register`].
pub type StackId = usize;

/// `VG_USERREQ_TOOL_BASE(a, b)` of `valgrind.h`.
pub(crate) const fn tool_base(a: u8, b: u8) -> usize {
    yardstick_format::valgrind::tool_base(a, b)
}

/// Issues request `code` with five arguments; `default` when not running
/// under Valgrind. The instruction sequence is
/// `yardstick_format::valgrind`'s, shared with the harness.
#[inline(always)]
pub(crate) fn request(default: usize, code: usize, args: [usize; 5]) -> usize {
    #[cfg(feature = "client_requests")]
    {
        yardstick_format::valgrind::request(default, code, args)
    }
    #[cfg(not(feature = "client_requests"))]
    {
        let _ = (code, args);
        default
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_bases_match_the_headers() {
        // VG_USERREQ_TOOL_BASE('C','T') and ('M','C') of valgrind.h.
        assert_eq!(tool_base(b'C', b'T'), 0x4354_0000);
        assert_eq!(tool_base(b'M', b'C'), 0x4d43_0000);
        // ('D','H'), ('H','G'), ('D','R'), ('C','G'): DHAT, Helgrind, DRD,
        // Cachegrind.
        assert_eq!(tool_base(b'D', b'H'), 0x4448_0000);
        assert_eq!(tool_base(b'H', b'G'), 0x4847_0000);
        assert_eq!(tool_base(b'D', b'R'), 0x4452_0000);
        assert_eq!(tool_base(b'C', b'G'), 0x4347_0000);
    }

    #[test]
    fn outside_valgrind_requests_return_the_default() {
        // `cargo test` does not run under Valgrind.
        assert_eq!(valgrind::running_on_valgrind(), 0);
        assert_eq!(valgrind::count_errors(), 0);
        callgrind::toggle_collect();
        assert_eq!(drd::get_valgrind_threadid(), 0);
        dhat::ad_hoc_event(1);
        assert!(crate::valgrind_println!("natively {}", 1).is_ok());
    }

    #[test]
    fn a_nul_in_a_message_is_an_error() {
        let result = crate::valgrind_println!("f\0o");
        if print::__ENABLED {
            // The bytes shown are the whole message sent: newline and the
            // terminating NUL included.
            let e = result.expect_err("a NUL byte");
            assert_eq!(
                e.to_string(),
                "client requests: print error: data provided contains an interior nul byte \
                 at pos 1: 'f\0o\n\0'"
            );
        } else {
            assert!(result.is_ok());
        }
    }
}
