//! The private fast paths of resolution and of the notation verdict against their
//! general paths, on positions reached by deterministic random playouts (the parser's
//! fast path has its own test beside it, in `parse`).

use super::{Lang, San, Suffix};
use crate::Validation;
use crate::position::{MoveKind, Position};
use crate::types::{Role, Square};

/// Starting points with pins, checks, promotions and castling near at hand.
pub(super) const STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// Every position of a few deterministic random playouts from each start.
pub(super) fn positions() -> Vec<Position> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut all = Vec::new();
    for fen in STARTS {
        let start = Position::from_fen(fen, Validation::Relaxed).expect("a valid FEN");
        for _ in 0..6 {
            let mut pos = start;
            for _ in 0..80 {
                all.push(pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves[next(moves.len())]);
            }
        }
    }
    all
}

#[test]
fn quick_resolution_names_what_the_general_path_names() {
    let mut quick = 0;
    for pos in positions() {
        for letter in ["", "N", "B", "R", "Q", "K"] {
            for sq in 0..64 {
                let text = format!("{letter}{}", Square::new(sq).expect("a square"));
                let san = San::parse(text.as_bytes(), Lang::En).expect("a plain move parses");
                if let Some(m) = san.resolve_quick(&pos) {
                    quick += 1;
                    assert_eq!(san.resolve_general(&pos), Ok(m), "{}: {text}", pos.fen());
                }
            }
        }
    }
    assert!(quick > 10_000, "{quick}");
}

#[test]
fn plainly_canonical_moves_are_canonical() {
    let mut plain = 0;
    for pos in positions() {
        for m in pos.legal_moves().iter() {
            if m.kind() != MoveKind::Normal || m.promotion().is_some() {
                continue;
            }
            let deserved = Suffix::deserved(&pos.play(m));
            let letter = match m.role() {
                Role::Pawn => "",
                role => Lang::En.letter(role).expect("a piece letter"),
            };
            let from = m.from().to_string();
            let (file, rank) = from.split_at(1);
            for departure in ["", file, rank, from.as_str()] {
                for capture in ["", "x"] {
                    for suffix in ["", "+", "#", "++"] {
                        let text = format!("{letter}{departure}{capture}{}{suffix}", m.to());
                        let Ok(san) = San::parse(text.as_bytes(), Lang::En) else {
                            continue;
                        };
                        if san.resolve(&pos) != Ok(*m) || !san.is_plainly_canonical(m, deserved) {
                            continue;
                        }
                        plain += 1;
                        let notation = san.notation_general(&pos, m, deserved);
                        assert!(
                            notation.is_canonical(),
                            "{}: {text}: {notation:?}",
                            pos.fen()
                        );
                    }
                }
            }
        }
    }
    assert!(plain > 1000, "{plain}");
}
