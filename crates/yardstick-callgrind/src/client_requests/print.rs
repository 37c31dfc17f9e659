//! Printing to Valgrind's log (`VALGRIND_PRINTF` and
//! `VALGRIND_PRINTF_BACKTRACE` of `valgrind.h`) and the macros around it.
//!
//! Valgrind's request takes a printf format and a `va_list`. The message is
//! sent as the format with every `%` doubled, so Valgrind never reads the
//! (empty) argument list: no C `va_list` has to be built in Rust.

use std::ffi::{c_char, CStr};

use super::request;

const PRINTF_VALIST_BY_REF: usize = 0x1403;
const PRINTF_BACKTRACE_VALIST_BY_REF: usize = 0x1404;

/// Whether the printing macros do anything (feature `client_requests`).
#[doc(hidden)]
pub const __ENABLED: bool = cfg!(feature = "client_requests");

fn print(code: usize, message: &CStr) {
    if !__ENABLED {
        return;
    }
    let bytes = message.to_bytes();
    let mut format = Vec::with_capacity(bytes.len() + 1);
    for &b in bytes {
        format.push(b);
        if b == b'%' {
            format.push(b'%');
        }
    }
    format.push(0);
    // Never read (the format has no conversions), but a valid, aligned
    // place for Valgrind to copy a `va_list` from on every target.
    let no_arguments = [0usize; 4];
    request(
        0,
        code,
        [
            format.as_ptr() as usize,
            no_arguments.as_ptr() as usize,
            0,
            0,
            0,
        ],
    );
}

/// Prints the NUL-terminated `message` to Valgrind's log.
///
/// # Safety
///
/// `message` must point to a NUL-terminated string.
#[doc(hidden)]
pub unsafe fn __valgrind_print(message: *const c_char) {
    // SAFETY: the caller passes a NUL-terminated string.
    print(PRINTF_VALIST_BY_REF, unsafe { CStr::from_ptr(message) });
}

/// [`__valgrind_print`] followed by the calling thread's stack trace.
///
/// # Safety
///
/// `message` must point to a NUL-terminated string.
#[doc(hidden)]
pub unsafe fn __valgrind_print_backtrace(message: *const c_char) {
    // SAFETY: the caller passes a NUL-terminated string.
    print(PRINTF_BACKTRACE_VALIST_BY_REF, unsafe {
        CStr::from_ptr(message)
    });
}

/// A NUL-terminated [`CString`](std::ffi::CString) from a string literal.
///
/// # Safety
///
/// Unsafe to call (as iai-callgrind's): the literal must not contain `\0`.
#[macro_export]
macro_rules! cstring {
    ($string:literal) => {{
        ::std::ffi::CString::from_vec_with_nul_unchecked(
            ::std::concat!($string, "\0").as_bytes().to_vec(),
        )
    }};
}

/// A NUL-terminated [`CString`](std::ffi::CString) from a format string.
///
/// # Safety
///
/// Unsafe to call (as iai-callgrind's): the result must not contain `\0`.
#[macro_export]
macro_rules! format_cstring {
    ($($args:tt)*) => {{
        ::std::ffi::CString::from_vec_with_nul_unchecked(
            ::std::format!("{}\0", ::std::format_args!($($args)*)).into_bytes(),
        )
    }};
}

/// Prints to Valgrind's log (`VALGRIND_PRINTF`); an `Err` if the message
/// contains a NUL byte. Does nothing natively or without the
/// `client_requests` feature (the message is then not even formatted).
#[macro_export]
macro_rules! valgrind_printf {
    ($($args:tt)*) => {
        $crate::__valgrind_print_checked!(__valgrind_print, "", $($args)*)
    };
}

/// [`valgrind_printf!`] with a newline.
#[macro_export]
macro_rules! valgrind_println {
    () => { $crate::valgrind_printf!("\n") };
    ($($args:tt)*) => {
        $crate::__valgrind_print_checked!(__valgrind_print, "\n", $($args)*)
    };
}

/// [`valgrind_printf!`] followed by a stack trace
/// (`VALGRIND_PRINTF_BACKTRACE`).
#[macro_export]
macro_rules! valgrind_printf_backtrace {
    ($($args:tt)*) => {
        $crate::__valgrind_print_checked!(__valgrind_print_backtrace, "", $($args)*)
    };
}

/// [`valgrind_printf_backtrace!`] with a newline.
#[macro_export]
macro_rules! valgrind_println_backtrace {
    () => { $crate::valgrind_printf_backtrace!("\n") };
    ($($args:tt)*) => {
        $crate::__valgrind_print_checked!(__valgrind_print_backtrace, "\n", $($args)*)
    };
}

/// [`valgrind_printf!`] without the NUL check: must be called in an
/// `unsafe` block, and a NUL byte cuts the message short.
#[macro_export]
macro_rules! valgrind_printf_unchecked {
    ($($args:tt)*) => {
        $crate::__valgrind_print_unchecked!(__valgrind_print, "", $($args)*)
    };
}

/// [`valgrind_println!`] without the NUL check (see
/// [`valgrind_printf_unchecked!`]).
#[macro_export]
macro_rules! valgrind_println_unchecked {
    () => { $crate::valgrind_printf_unchecked!("\n") };
    ($($args:tt)*) => {
        $crate::__valgrind_print_unchecked!(__valgrind_print, "\n", $($args)*)
    };
}

/// [`valgrind_printf_backtrace!`] without the NUL check (see
/// [`valgrind_printf_unchecked!`]).
#[macro_export]
macro_rules! valgrind_printf_backtrace_unchecked {
    ($($args:tt)*) => {
        $crate::__valgrind_print_unchecked!(__valgrind_print_backtrace, "", $($args)*)
    };
}

/// [`valgrind_println_backtrace!`] without the NUL check (see
/// [`valgrind_printf_unchecked!`]).
#[macro_export]
macro_rules! valgrind_println_backtrace_unchecked {
    () => { $crate::valgrind_printf_backtrace_unchecked!("\n") };
    ($($args:tt)*) => {
        $crate::__valgrind_print_unchecked!(__valgrind_print_backtrace, "\n", $($args)*)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __valgrind_print_checked {
    ($function:ident, $end:literal, $($args:tt)*) => {{
        let result: ::std::result::Result<(), $crate::client_requests::error::ClientRequestError> =
            if $crate::client_requests::print::__ENABLED {
                match ::std::ffi::CString::from_vec_with_nul(
                    ::std::format!("{}{}\0", ::std::format_args!($($args)*), $end).into_bytes(),
                ) {
                    ::std::result::Result::Ok(message) => {
                        // SAFETY: a CString is NUL-terminated.
                        unsafe { $crate::client_requests::print::$function(message.as_ptr()) };
                        ::std::result::Result::Ok(())
                    }
                    ::std::result::Result::Err(error) => ::std::result::Result::Err(
                        $crate::client_requests::error::ClientRequestError::from(error),
                    ),
                }
            } else {
                ::std::result::Result::Ok(())
            };
        result
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __valgrind_print_unchecked {
    ($function:ident, $end:literal, $($args:tt)*) => {{
        if $crate::client_requests::print::__ENABLED {
            let message = ::std::format!("{}{}\0", ::std::format_args!($($args)*), $end);
            $crate::client_requests::print::$function(message.as_ptr().cast());
        }
    }};
}
