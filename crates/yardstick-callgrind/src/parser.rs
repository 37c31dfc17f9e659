//! A reader of callgrind's output format (`callgrind.out` files): it lives
//! in `yardstick_format::callgrind`, shared with the harness's `--explain`,
//! and is named here as it always was.

pub use yardstick_format::callgrind::*;
