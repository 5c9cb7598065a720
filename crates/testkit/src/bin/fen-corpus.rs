//! Checks FEN files against the core: every line of a `--valid` file must
//! be accepted (strictly) and read back identically after formatting; every
//! line of an `--invalid` file must be rejected, with its reason.
//!
//! `cargo run --release -p planilla-testkit --bin fen-corpus -- --valid FILE --invalid FILE`
//! prints one line per failure and ends with `N passed, N failed`.

use planilla_core::{Position, Validation};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut passed, mut failed) = (0u64, 0u64);
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    let mut i = 0;
    while i + 1 < args.len() {
        let (mode, path) = (&args[i], &args[i + 1]);
        i += 2;
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("fen-corpus: cannot read {path}: {e}");
                std::process::exit(2);
            }
        };
        for (n, line) in text.lines().enumerate() {
            let fen = line.trim();
            if fen.is_empty() || fen.starts_with('#') {
                continue;
            }
            let result = Position::from_fen(fen, Validation::Strict);
            let ok = match (mode.as_str(), &result) {
                ("--valid", Ok(pos)) => {
                    let again = Position::from_fen(&pos.fen(), Validation::Strict);
                    // X-FEN output may name a rook by K/Q where the input gave
                    // its file: compare positions, and text when KQkq was used.
                    let same_text = pos.fen() == fen
                        || fen
                            .split(' ')
                            .nth(2)
                            .is_some_and(|c| c.chars().any(|ch| !"KQkq-".contains(ch)));
                    matches!(again, Ok(p) if p == *pos) && same_text
                }
                ("--valid", Err(e)) => {
                    println!("{path}:{}: rejected a valid fen: {e}: {fen}", n + 1);
                    false
                }
                ("--invalid", Ok(_)) => {
                    println!("{path}:{}: accepted an invalid fen: {fen}", n + 1);
                    false
                }
                ("--invalid", Err(e)) => {
                    let key = e.to_string().split(':').next().unwrap_or("").to_string()
                        + ": "
                        + &e.to_string()
                            .split(": ")
                            .nth(1)
                            .unwrap_or("")
                            .split(' ')
                            .take(3)
                            .collect::<Vec<_>>()
                            .join(" ");
                    *reasons.entry(key).or_default() += 1;
                    true
                }
                _ => {
                    eprintln!("fen-corpus: expected --valid or --invalid, found {mode}");
                    std::process::exit(2);
                }
            };
            if ok {
                passed += 1;
            } else {
                failed += 1;
            }
        }
    }
    for (reason, count) in &reasons {
        eprintln!("rejected {count:>6}: {reason} ...");
    }
    println!("{passed} passed, {failed} failed");
    std::process::exit(if failed == 0 { 0 } else { 1 });
}
