//! End-to-end tests of the yardstick harness live in `tests/`; the bench
//! binaries they run are in `src/bin/`.
