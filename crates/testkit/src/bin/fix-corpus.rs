//! Runs what `fix` promises (`planilla_testkit::fix_properties`, what the fix fuzz
//! target asserts) on whole files, with the default options, with `--repair`, with
//! `--to en` and with `--rules by-date`; used by `scripts/check-fix` on the shared
//! corpora.
//!
//! Usage: `fix-corpus FILE...`. Prints one line per file and options, `ok` with the
//! games written, rejected and the separator lines written, or `FAIL` with the broken
//! promise, then a closing `N passed, N failed` line, and exits 1 if any failed.

use planilla_testkit::{fix_options, fix_properties};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The selectors tried on each file (see `fix_options`): the defaults, `--repair`,
/// `--to en` (language 0), `--rules by-date`.
const RUNS: [(u8, &str); 4] = [
    (0, "default"),
    (1, "--repair"),
    (2, "--to en"),
    (3 << 5, "--rules by-date"),
];

fn main() {
    let (mut passed, mut failed) = (0, 0);
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap_or_else(|e| {
            eprintln!("fix-corpus: cannot read {path}: {e}");
            std::process::exit(2)
        });
        for (selector, name) in RUNS {
            let what = format!("{path} ({name})");
            match catch_unwind(AssertUnwindSafe(|| {
                fix_properties(&data, fix_options(selector), &what)
            })) {
                Ok(t) => {
                    passed += 1;
                    println!(
                        "ok   {what}: {} games, {} written, {} rejected, {} separators",
                        t.games, t.written, t.rejected, t.separators
                    );
                }
                Err(_) => {
                    // The panic message has been printed by the panic hook.
                    failed += 1;
                    println!("FAIL {what}");
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    std::process::exit(i32::from(failed > 0));
}
