//! The dead-position solver against labelled positions: `LB FEN` lines, `L` `W` when
//! White can mate (`-` when not), `B` the same for Black. Every verdict must match the
//! label for both colours, every mating line must replay to a mate by the right side,
//! [`quick`] must never call a winnable colour unwinnable nor an unwinnable one
//! winnable, [`surely_winnable`] must never call an unwinnable colour winnable,
//! [`Solver::deadness`] must call a position dead exactly when both labels say so,
//! [`Solver::may_mate`] must give each colour's label, and no budget may run out.
//!
//! `cargo test` runs the committed sample (corpora/unwinnable-sample.txt). The oracle
//! files of CHA (chasolver's `tests/positions.txt`, 3,414 positions, and
//! `tests/lichess.txt`, 65,533) are read in place from `$PLANILLA_CORPORA/unwinnable`
//! (default `../shared/corpora`, beside the clone) by the ignored test, which `.ci/run`
//! runs in release mode: `cargo test --release -p planilla-core --test unwinnable --
//! --ignored`.

use planilla_core::unwinnable::{Deadness, Quick, Solver, Verdict, quick, surely_winnable};
use planilla_core::{Color, Position, Validation};
use std::path::{Path, PathBuf};

/// What one file gave.
#[derive(Debug, Default)]
struct Tally {
    positions: usize,
    agree: usize,
    undetermined: usize,
    quick_decided: usize,
    /// Colours `quick` left open that `surely_winnable` proved able to mate.
    screened: usize,
    failures: Vec<String>,
}

/// Checks every labelled line of `text` (`#` comments and blank lines skipped).
fn check_labels(text: &str, origin: &str) -> Tally {
    let mut solver = Solver::default();
    let mut tally = Tally::default();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        tally.positions += 1;
        let at = format!("{origin}:{}", number + 1);
        let (label, fen) = line.split_at(2);
        let fen = fen.trim();
        let pos = match Position::from_fen(fen, Validation::Relaxed) {
            Ok(pos) => pos,
            Err(e) => {
                tally.failures.push(format!("{at}: {fen}: {e}"));
                continue;
            }
        };
        let mut ok = true;
        for (color, mark) in [(Color::White, 'W'), (Color::Black, 'B')] {
            let expected = label.contains(mark);
            let verdict = solver.winnability(&pos, color);
            let failure = match (&verdict, expected) {
                (Verdict::Winnable { line }, true) => replay_mates(&pos, line, color).err(),
                (Verdict::Unwinnable, false) => None,
                (Verdict::Undetermined, _) => {
                    tally.undetermined += 1;
                    Some("undetermined".to_string())
                }
                (v, _) => Some(format!("label {label}, verdict {v:?}")),
            };
            let fast = quick(&pos, color);
            let quick_failure = match (fast, expected) {
                (Quick::Unwinnable, true) => Some("quick says unwinnable"),
                (Quick::Winnable, false) => Some("quick says winnable"),
                _ => None,
            };
            if fast != Quick::Unknown {
                tally.quick_decided += 1;
            }
            if solver.may_mate(&pos, color) != expected {
                tally.failures.push(format!(
                    "{at}: {fen}: {} label {label}, may_mate says {}",
                    color.name(),
                    !expected
                ));
                ok = false;
            }
            let sure = surely_winnable(&pos, color);
            let sure_failure = (sure && !expected).then_some("surely_winnable says winnable");
            if sure && fast == Quick::Unknown {
                tally.screened += 1;
            }
            for why in failure
                .into_iter()
                .chain(quick_failure.map(String::from))
                .chain(sure_failure.map(String::from))
            {
                tally
                    .failures
                    .push(format!("{at}: {fen}: {} {why}", color.name()));
                ok = false;
            }
        }
        let dead = label == "--";
        let deadness = solver.deadness(&pos);
        if deadness
            != if dead {
                Deadness::Dead
            } else {
                Deadness::Alive
            }
        {
            tally
                .failures
                .push(format!("{at}: {fen}: label {label}, deadness {deadness:?}"));
            ok = false;
        }
        if ok {
            tally.agree += 1;
        }
    }
    tally
}

/// Plays `line` from `pos` and checks that it ends in a mate of `winner`'s opponent.
fn replay_mates(pos: &Position, line: &[planilla_core::Move], winner: Color) -> Result<(), String> {
    let mut pos = *pos;
    for m in line {
        if !pos.is_legal(m) {
            return Err(format!("illegal move {} in the line", m.to_uci(false)));
        }
        pos = pos.play(m);
    }
    if pos.is_checkmate() && pos.turn() == winner.other() {
        Ok(())
    } else {
        Err(format!("the line of {} moves ends in no mate", line.len()))
    }
}

fn report(tally: &Tally, origin: &str) {
    eprintln!(
        "{origin}: {} positions, {} agree for both colours, {} undetermined, \
         quick decided {} of {} questions, surely_winnable {} more, {} failures",
        tally.positions,
        tally.agree,
        tally.undetermined,
        tally.quick_decided,
        2 * tally.positions,
        tally.screened,
        tally.failures.len()
    );
    // All of them on demand (PLANILLA_ORACLE_ALL=1), for a look at what differs.
    let shown = if std::env::var_os("PLANILLA_ORACLE_ALL").is_some() {
        usize::MAX
    } else {
        40
    };
    for failure in tally.failures.iter().take(shown) {
        eprintln!("  {failure}");
    }
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The committed sample: hand-checked positions of every kind the ladder decides.
#[test]
fn sample_verdicts_match_their_labels() {
    let path = repository().join("corpora/unwinnable-sample.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let tally = check_labels(&text, "unwinnable-sample.txt");
    report(&tally, "unwinnable-sample.txt");
    assert!(tally.positions >= 30, "the sample is too small");
    assert!(tally.failures.is_empty());
}

/// The oracle files, read in place (see the module's documentation).
#[test]
#[ignore = "the full oracle files: run by .ci/run with --ignored in release mode"]
fn oracle_files_match_their_labels() {
    let corpora = std::env::var_os("PLANILLA_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| repository().join("../shared/corpora"));
    let mut failed = false;
    // PLANILLA_ORACLE_FILES=positions.txt to run one file.
    let names = std::env::var("PLANILLA_ORACLE_FILES")
        .unwrap_or_else(|_| "positions.txt lichess.txt".to_string());
    for name in names.split_whitespace() {
        let path = corpora.join("unwinnable").join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let tally = check_labels(&text, name);
        report(&tally, name);
        failed |= !tally.failures.is_empty();
    }
    assert!(!failed, "verdicts differ from the labels");
}
