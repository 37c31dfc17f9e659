//! Issues client requests and prints what they returned, for the tests that
//! run it natively, under Memcheck and under Callgrind; with an argument,
//! the requests of one more tool: `print` (Valgrind's log), `dhat`,
//! `helgrind` or `drd`.
use std::hint::black_box;

use yardstick_callgrind::client_requests::{callgrind, dhat, drd, helgrind, memcheck, valgrind};

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("print") => print(),
        Some("dhat") => {
            // Two events of 5 units: DHAT's ad-hoc mode reports 10 units.
            dhat::ad_hoc_event(5);
            dhat::ad_hoc_event(5);
        }
        Some("helgrind") => locks(
            helgrind::annotate_rwlock_create,
            helgrind::annotate_rwlock_acquired,
            helgrind::annotate_rwlock_released,
            helgrind::annotate_rwlock_destroy,
        ),
        Some("drd") => {
            println!(
                "valgrind_tid={} drd_tid={}",
                drd::get_valgrind_threadid(),
                drd::get_drd_threadid()
            );
            locks(
                drd::annotate_rwlock_create,
                drd::annotate_rwlock_acquired,
                drd::annotate_rwlock_released,
                drd::annotate_rwlock_destroy,
            );
        }
        _ => core(),
    }
}

/// Valgrind's log: a `%` that must come out as written, a NUL byte that
/// must be refused, and a stack trace.
fn print() {
    yardstick_callgrind::valgrind_println!("from the client: {} 100% %s", 42).expect("no NUL");
    let refused = yardstick_callgrind::valgrind_printf!("a\0b").is_err();
    yardstick_callgrind::valgrind_println_backtrace!("with a backtrace").expect("no NUL");
    // SAFETY: the message has no NUL byte.
    unsafe { yardstick_callgrind::valgrind_println_unchecked!("unchecked {}", 7) };
    println!("nul_refused={refused}");
}

/// A lock used correctly (create, acquire, release, destroy), then one
/// released that was never created: the tool reports that, and only that.
fn locks(
    create: fn(*const ()),
    acquired: fn(*const (), bool),
    released: fn(*const (), bool),
    destroy: fn(*const ()),
) {
    let lock = black_box(Box::new(0u64));
    let at: *const () = (&*lock as *const u64).cast();
    create(at);
    acquired(at, true);
    released(at, true);
    destroy(at);
    let good = valgrind::count_errors();
    let other = black_box(Box::new(0u64));
    released((&*other as *const u64).cast(), true);
    println!(
        "errors_after_good={good} errors_after_bad={}",
        valgrind::count_errors()
    );
}

fn core() {
    let on = valgrind::running_on_valgrind();
    let buffer = black_box(vec![1u8; 64]);
    // Memcheck: one invalid read of a byte made unaddressable.
    memcheck::make_mem_noaccess(buffer[8..].as_ptr().cast(), 8);
    let byte = unsafe { std::ptr::read_volatile(buffer.as_ptr().add(8)) };
    memcheck::make_mem_defined(buffer[8..].as_ptr().cast(), 8);
    let errors = valgrind::count_errors();
    // Callgrind: a labelled dump, then instrumentation switched off and on.
    callgrind::dump_stats_at(c"after the invalid read");
    callgrind::stop_instrumentation();
    callgrind::start_instrumentation();
    callgrind::toggle_collect();
    callgrind::toggle_collect();
    println!("running_on_valgrind={on} errors={errors} byte={byte}");
}
