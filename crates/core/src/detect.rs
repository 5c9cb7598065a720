//! Deciding which notation language a game is written in.
//!
//! Letters outside a language's set rule it out (a `C` is no English piece,
//! an `N` no Spanish one). Where letters overlap — Spanish `R` is a king,
//! English `R` a rook — every remaining reading is replayed, and the one that
//! replays legally wins. When two readings both replay the whole line legally
//! and name different moves, the game is ambiguous and the caller reports it
//! instead of guessing. Readings that name the same moves (a game of pawn
//! moves only, say) are no ambiguity: the earliest language in [`Lang::ALL`]
//! order (English first) is chosen.

use crate::position::{Move, MoveList, Position};
use crate::san::{Lang, San};

/// The outcome of language detection for one line of moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detection {
    /// One reading fits best. `complete` is false when even this reading
    /// stops at an illegal move (it is the reading that got furthest).
    Lang {
        /// The chosen language.
        lang: Lang,
        /// Whether every move replayed legally in it.
        complete: bool,
    },
    /// Two or more languages replay every move legally with different moves.
    Ambiguous(Vec<Lang>),
}

/// Languages whose piece letters can spell every move (by `San::parse`).
/// Figurines read the same in every language; a game that uses them is a
/// figurine game, so that language is tried first.
fn letter_candidates(moves: &[&[u8]]) -> Vec<Lang> {
    let figurines = moves
        .iter()
        .any(|m| m.windows(2).any(|w| w == [0xe2, 0x99]));
    let mut order = Lang::ALL;
    if figurines {
        order.rotate_right(1);
    }
    order
        .into_iter()
        .filter(|&lang| {
            moves.iter().all(|m| {
                // A token no language reads (a typo, garbage) rules out none.
                San::parse(m, lang).is_ok() || Lang::ALL.iter().all(|&l| San::parse(m, l).is_err())
            })
        })
        .collect()
}

/// Replays `moves` in `lang` from `start`; returns the moves played and
/// whether the whole line replayed.
fn replay(start: &Position, moves: &[&[u8]], lang: Lang, out: &mut Vec<Move>) -> bool {
    out.clear();
    let mut pos = *start;
    let mut list = MoveList::new();
    for text in moves {
        let Ok(san) = San::parse(text, lang) else {
            return false;
        };
        if san.is_null() {
            if pos.is_check() {
                return false;
            }
            pos.play_null();
            continue;
        }
        match san.resolve_with(&pos, &mut list) {
            Ok(m) => {
                out.push(m);
                pos.play_unchecked(&m);
            }
            Err(_) => return false,
        }
    }
    true
}

/// Decides the language of a line of SAN tokens played from `start`.
pub fn detect(start: &Position, moves: &[&[u8]]) -> Detection {
    let candidates = letter_candidates(moves);
    match candidates.as_slice() {
        [] => Detection::Lang {
            lang: Lang::En,
            complete: false,
        },
        [only] => {
            let complete = replay(start, moves, *only, &mut Vec::new());
            Detection::Lang {
                lang: *only,
                complete,
            }
        }
        _ => {
            let mut best: Option<(Lang, usize)> = None;
            let mut complete: Vec<(Lang, Vec<Move>)> = Vec::new();
            let mut played = Vec::new();
            for &lang in &candidates {
                if replay(start, moves, lang, &mut played) {
                    if !complete.iter().any(|(_, m)| *m == played) {
                        complete.push((lang, played.clone()));
                    }
                } else if best.is_none_or(|(_, n)| played.len() > n) {
                    best = Some((lang, played.len()));
                }
            }
            match complete.len() {
                0 => Detection::Lang {
                    lang: best.map_or(Lang::En, |(l, _)| l),
                    complete: false,
                },
                1 => Detection::Lang {
                    lang: complete[0].0,
                    complete: true,
                },
                _ => Detection::Ambiguous(complete.into_iter().map(|(l, _)| l).collect()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect_str(text: &str) -> Detection {
        let moves: Vec<&[u8]> = text.split_whitespace().map(str::as_bytes).collect();
        detect(&Position::new(), &moves)
    }

    #[test]
    fn decides_by_letters_and_by_replay() {
        assert_eq!(
            detect_str("e4 e5 Nf3 Nc6 Bb5"),
            Detection::Lang {
                lang: Lang::En,
                complete: true
            }
        );
        assert_eq!(
            detect_str("e4 e5 Cf3 Cc6 Ab5"),
            Detection::Lang {
                lang: Lang::Es,
                complete: true
            }
        );
        assert_eq!(
            detect_str("e4 e5 Sf3 Sc6 Lb5"),
            Detection::Lang {
                lang: Lang::De,
                complete: true
            }
        );
        assert_eq!(
            detect_str("e4 e5 Cf3 Cc6 Fb5"),
            Detection::Lang {
                lang: Lang::Fr,
                complete: true
            }
        );
        // Pawn moves only: every reading names the same moves.
        assert_eq!(
            detect_str("e4 e5 d4"),
            Detection::Lang {
                lang: Lang::En,
                complete: true
            }
        );
        // "Re2" is a king move in Spanish, illegal as an English rook move.
        assert_eq!(
            detect_str("e4 e5 Re2"),
            Detection::Lang {
                lang: Lang::Es,
                complete: true
            }
        );
        // Spanish and Italian share every letter: the same moves, Spanish first.
        assert_eq!(
            detect_str("d4 d5 Dd3"),
            Detection::Lang {
                lang: Lang::Es,
                complete: true
            }
        );
        assert_eq!(
            detect_str("♘f3 ♘f6"),
            Detection::Lang {
                lang: Lang::Figurine,
                complete: true
            }
        );
    }

    #[test]
    fn reports_two_legal_readings() {
        // "Rd1": the rook from a1 in English, the king from e1 in Spanish.
        let start = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", crate::Validation::Strict)
            .unwrap();
        let moves: Vec<&[u8]> = vec![b"Rd1"];
        assert_eq!(
            detect(&start, &moves),
            Detection::Ambiguous(vec![Lang::En, Lang::Es])
        );
    }
}
