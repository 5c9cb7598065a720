//! Every legal move of every position of the given perft suites (and of
//! every position one move deeper), written as SAN in every language, must
//! parse and resolve back to the same move.
//!
//! `cargo run --release -p planilla-testkit --bin san-corpus -- SUITE...`
//! prints each failure and ends with `N passed, N failed`.

use planilla_core::perft::{parse_suite, suite_position};
use planilla_core::san::{Lang, San, Suffix};
use planilla_core::{Move, Position};

fn check(pos: &Position, m: &Move, failures: &mut Vec<String>) -> u64 {
    let mut checked = 0;
    for lang in Lang::ALL {
        let text = San::from_move(pos, m)
            .with_suffix(Suffix::deserved(&pos.play(m)))
            .to_string_in(lang);
        let back = San::parse(text.as_bytes(), lang)
            .map_err(|e| e.to_string())
            .and_then(|san| san.resolve(pos).map_err(|e| e.to_string()));
        match back {
            Ok(b) if b == *m => checked += 1,
            other => failures.push(format!("{}: {text} ({lang}) gave {other:?}", pos.fen())),
        }
    }
    checked
}

fn main() {
    let (mut passed, mut failures) = (0u64, Vec::new());
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("san-corpus: cannot read {path}: {e}");
            std::process::exit(2)
        });
        let entries = parse_suite(&text).unwrap_or_else(|e| {
            eprintln!("san-corpus: {path}: {e}");
            std::process::exit(2)
        });
        for entry in &entries {
            let Ok(pos) = suite_position(entry) else {
                continue;
            };
            for m in pos.legal_moves().iter() {
                passed += check(&pos, m, &mut failures);
                let child = pos.play(m);
                for c in child.legal_moves().iter() {
                    passed += check(&child, c, &mut failures);
                }
            }
        }
    }
    for f in failures.iter().take(50) {
        println!("{f}");
    }
    println!("{passed} passed, {} failed", failures.len());
    std::process::exit(if failures.is_empty() { 0 } else { 1 });
}
