//! The dead-position solver against chasolver 3.0.0, the crate of the CHA paper, in
//! one run on the same positions, single-threaded: per file, the mean and the worst
//! time of a position's full analysis (both colours asked, as a dead-position test
//! asks), the undetermined answers of each, and how often the two disagree.
//!
//! The positions alternate which solver runs first, so neither always runs on a warmer
//! cache. Run with `scripts/bench dead [FILE...]` or `cargo bench -p planilla-core
//! --bench dead -- [--limit N] [--labels] [FILE...]`; the default files are the oracle files,
//! `$PLANILLA_CORPORA/unwinnable/{positions,lichess}.txt` (default `../shared/corpora`
//! beside the clone).
//!
//! chasolver (MIT) is only a reference here: none of its code is copied.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use planilla_core::unwinnable::{Solver, Verdict};
use planilla_core::{Color, Position, Validation};

/// What one solver did on one file.
#[derive(Default)]
struct Timing {
    total: Duration,
    worst: Duration,
    worst_fen: String,
    undetermined: usize,
}

impl Timing {
    fn add(&mut self, took: Duration, fen: &str) {
        self.total += took;
        if took > self.worst {
            self.worst = took;
            self.worst_fen = fen.to_string();
        }
    }
}

/// A verdict reduced to what both solvers can say: winnable, unwinnable, unknown.
fn ours(solver: &mut Solver, pos: &Position, color: Color) -> Option<bool> {
    match solver.winnability(pos, color) {
        Verdict::Winnable { .. } => Some(true),
        Verdict::Unwinnable => Some(false),
        Verdict::Undetermined => None,
    }
}

fn theirs(board: &chess::Board, color: chess::Color) -> Option<bool> {
    chasolver::winnability(board, color)
        .map(|w| matches!(w, chasolver::Winnability::Winnable { .. }))
}

fn main() {
    let mut limit = usize::MAX;
    // --labels: print each position with the labels chasolver gives it (`LB FEN`, the
    // oracle files' format), for writing a sample by hand and checking it.
    let mut labels = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => {}
            "--labels" => labels = true,
            "--limit" => {
                limit = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--limit takes a number");
            }
            _ => files.push(PathBuf::from(arg)),
        }
    }
    if files.is_empty() {
        let corpora = std::env::var_os("PLANILLA_CORPORA")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora")
            });
        for name in ["positions.txt", "lichess.txt"] {
            files.push(corpora.join("unwinnable").join(name));
        }
    }

    let mut solver = Solver::default();
    println!(
        "{:<16} {:>9}  {:>12} {:>12} {:>7}  {:>12} {:>12} {:>7}  {:>9}",
        "file",
        "positions",
        "ours mean",
        "ours worst",
        "undet.",
        "cha mean",
        "cha worst",
        "undet.",
        "disagree"
    );
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let (mut mine, mut cha) = (Timing::default(), Timing::default());
        let mut positions = 0usize;
        let mut disagree = 0usize;
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || line.len() < 3 {
                continue;
            }
            if positions == limit {
                break;
            }
            let fen = line[2..].trim();
            let (Ok(pos), Ok(board)) = (
                Position::from_fen(fen, Validation::Relaxed),
                chess::Board::from_str(fen),
            ) else {
                eprintln!("skipped (unreadable): {fen}");
                continue;
            };
            let mut run_ours = || {
                let start = Instant::now();
                let answer = [
                    ours(&mut solver, &pos, Color::White),
                    ours(&mut solver, &pos, Color::Black),
                ];
                (start.elapsed(), answer)
            };
            let run_theirs = || {
                let start = Instant::now();
                let answer = [
                    theirs(&board, chess::Color::White),
                    theirs(&board, chess::Color::Black),
                ];
                (start.elapsed(), answer)
            };
            let ((our_time, our_answer), (their_time, their_answer)) =
                if positions.is_multiple_of(2) {
                    let a = run_ours();
                    (a, run_theirs())
                } else {
                    let b = run_theirs();
                    (run_ours(), b)
                };
            if labels {
                let mark = |a: Option<bool>, c: char| match a {
                    Some(true) => c,
                    Some(false) => '-',
                    None => '?',
                };
                println!(
                    "{}{} {fen}",
                    mark(their_answer[0], 'W'),
                    mark(their_answer[1], 'B')
                );
            }
            mine.add(our_time, fen);
            cha.add(their_time, fen);
            mine.undetermined += our_answer.iter().filter(|a| a.is_none()).count();
            cha.undetermined += their_answer.iter().filter(|a| a.is_none()).count();
            disagree += usize::from(
                our_answer
                    .iter()
                    .zip(&their_answer)
                    .any(|(a, b)| a.is_some() && b.is_some() && a != b),
            );
            positions += 1;
        }
        let mean = |t: &Timing| t.total / positions.max(1) as u32;
        let name = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        println!(
            "{:<16} {:>9}  {:>12} {:>12} {:>7}  {:>12} {:>12} {:>7}  {:>9}",
            name,
            positions,
            format!("{:.1?}", mean(&mine)),
            format!("{:.1?}", mine.worst),
            mine.undetermined,
            format!("{:.1?}", mean(&cha)),
            format!("{:.1?}", cha.worst),
            cha.undetermined,
            disagree
        );
        println!("  worst of ours: {}", mine.worst_fen);
        println!("  worst of chasolver: {}", cha.worst_fen);
    }
}
