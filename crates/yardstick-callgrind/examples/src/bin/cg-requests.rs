//! Issues client requests and prints what they returned, for the tests that
//! run it natively, under Memcheck and under Callgrind.
use std::hint::black_box;

use yardstick_callgrind::client_requests::{callgrind, memcheck, valgrind};

fn main() {
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
