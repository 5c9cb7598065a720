//! Byte ranges on arbitrary input: the text cut at points its first bytes choose (at 0,
//! inside tags, comments, variations and characters, at the end and past it, repeated
//! for empty ranges), each range read as `check --range` reads it, from the start and
//! from an index with marks a few bytes apart; the ranges' games, put together in order,
//! are the whole text's, finding for finding, their totals add up and an empty range
//! reads nothing (`planilla_testkit::range_fuzz`, which `tests/fuzz_regressions.rs`
//! runs on every crash input found here). The first byte also chooses the encoding and
//! a small game-size limit.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    planilla_testkit::range_fuzz(data, "the input");
});
