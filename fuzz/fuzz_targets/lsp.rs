//! The language server's document under a sequence of edits: the input is a text and,
//! after a 0 byte, up to eight edits (three bytes each: where, how many bytes removed,
//! which piece typed); after each edit the document's games and diagnostics must be
//! those of a fresh reading of its text (`planilla_testkit::lsp::lsp_fuzz`, which
//! `tests/fuzz_regressions.rs` runs on every crash input found here).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    planilla_testkit::lsp::lsp_fuzz(data);
});
