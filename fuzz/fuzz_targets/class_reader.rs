//! Fuzzes the class reader and the bytecode-to-IR translation:
//! any bytes must give a result or an error, never a panic.
//!
//!   cargo +nightly fuzz run class_reader fuzz/corpus -- -max_total_time=600
//!
//! Seed the corpus with the fixtures: `mkdir -p fuzz/corpus &&
//! find fixtures/classes -name '*.class' -exec cp {} fuzz/corpus/ \;`
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    refract::facts::fuzz_one(data);
});
