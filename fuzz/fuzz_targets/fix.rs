//! fix on arbitrary input: the reader splits it into games, each is fixed or rejected,
//! the output and the rejects are written as `planilla fix -o OUT --rejects REJ` writes
//! them; check finds no error in the output, a second fix changes nothing, and the output
//! and the rejects read back as the games written and rejected, each with its bytes
//! (`planilla_testkit::fix_properties`, which `tests/fuzz_regressions.rs` runs on every
//! crash input found here). The first byte chooses the options (`fix_options`: `--repair`,
//! `--to`, `--rules`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [selector, input @ ..] = data else { return };
    planilla_testkit::fix_properties(input, planilla_testkit::fix_options(*selector), "the input");
});
