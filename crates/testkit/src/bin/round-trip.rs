//! Runs the convert round trip of the library (`planilla_testkit::convert_round_trip`,
//! what the convert fuzz target asserts) on whole files, once for every target language;
//! used by `scripts/check-convert` on the shared corpora.
//!
//! Usage: `round-trip FILE...`. Prints one line per file and language, `ok` or `FAIL`
//! with the broken promise, and exits 1 if any failed.

use planilla_core::san::Lang;
use std::panic::{AssertUnwindSafe, catch_unwind};

fn main() {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap_or_else(|e| {
            eprintln!("round-trip: cannot read {path}: {e}");
            std::process::exit(2)
        });
        // The first byte chooses the language (and the rules edition, which changes only
        // the findings); the input follows it.
        let mut input = vec![0];
        input.extend_from_slice(&data);
        for (k, lang) in Lang::ALL.iter().enumerate() {
            input[0] = k as u8;
            let what = format!("{path} ({lang:?})");
            match catch_unwind(AssertUnwindSafe(|| {
                planilla_testkit::convert_round_trip(&input, &what)
            })) {
                Ok(()) => println!("ok   {what}"),
                Err(_) => {
                    // The panic message has been printed by the panic hook.
                    failed = true;
                    println!("FAIL {what}");
                }
            }
        }
    }
    std::process::exit(i32::from(failed));
}
