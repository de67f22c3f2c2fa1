//! Fuzzes the `.dl` front end: lexer, parser, resolver, stratifier and
//! layout. Any bytes must give a result or an error, never a panic.
//!
//!   cargo +nightly fuzz run datalog fuzz/corpus-dl -- -max_total_time=600
//!
//! On a stable toolchain, `scripts/fuzz.sh datalog SECONDS` runs the same
//! target through the plain mutation driver in `fuzz/driver`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    refract::datalog::fuzz_one(data);
});
