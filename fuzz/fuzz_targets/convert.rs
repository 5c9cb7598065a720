//! The convert round trip on arbitrary input: the reader splits it into games, each is
//! checked and converted; convert never panics, writes every game in every output
//! encoding (or names the character the encoding cannot hold), never drops a game
//! (reading the output gives as many games), and converting to another language first
//! and then to English gives what converting straight to English gives
//! (`planilla_testkit::convert_round_trip`, which `tests/fuzz_regressions.rs` runs on
//! every crash input found here).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    planilla_testkit::convert_round_trip(data, "the input");
});
