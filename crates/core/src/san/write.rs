//! Writing a move: its canonical SAN, in any language.

use super::notation::{legal_rivals, needed};
use super::{Forms, Lang, San, SanKind, Suffix};
use crate::position::{Move, MoveKind, Position};
use crate::types::{CastlingSide, Role};
use std::fmt;

impl San {
    /// The canonical SAN of the legal move `m` in `pos`, without check mark: that
    /// belongs to the position after the move, which the caller often has already
    /// (else `San::from_move(&pos, &m).with_suffix(Suffix::deserved(&pos.play(&m)))`).
    pub fn from_move(pos: &Position, m: &Move) -> San {
        let kind = match m.kind() {
            MoveKind::Castle(side) => SanKind::Castle(side),
            _ => {
                let (file, rank) = if m.role() == Role::Pawn {
                    (m.is_capture().then(|| m.from().file()), None)
                } else if m.role() == Role::King {
                    (None, None)
                } else {
                    let (f, r) = needed(m.from(), legal_rivals(pos, m));
                    (f.then(|| m.from().file()), r.then(|| m.from().rank()))
                };
                SanKind::Normal {
                    role: m.role(),
                    file,
                    rank,
                    capture: m.is_capture(),
                    to: m.to(),
                    promotion: m.promotion(),
                }
            }
        };
        San {
            kind,
            suffix: None,
            forms: Forms::NONE,
        }
    }

    /// Appends the move (with its suffix, if any) in `lang` to `out`.
    /// Promotions are written with `=` and castling as `O-O` in every
    /// language, as PGN export does.
    pub fn write(&self, lang: Lang, out: &mut String) {
        match self.kind {
            SanKind::Null => out.push_str("--"),
            SanKind::Castle(CastlingSide::KingSide) => out.push_str("O-O"),
            SanKind::Castle(CastlingSide::QueenSide) => out.push_str("O-O-O"),
            SanKind::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.push_str(lang.letter(role).unwrap_or("?"));
                }
                if let Some(f) = file {
                    out.push(f.char());
                }
                if let Some(r) = rank {
                    out.push(r.char());
                }
                if capture {
                    out.push('x');
                }
                out.push(to.file().char());
                out.push(to.rank().char());
                if let Some(p) = promotion {
                    out.push('=');
                    out.push_str(lang.letter(p).unwrap_or("?"));
                }
            }
        }
        match self.suffix {
            None => {}
            Some(Suffix::Check) => out.push('+'),
            Some(Suffix::Mate) => out.push('#'),
            Some(Suffix::DoublePlus) => out.push_str("++"),
        }
    }

    /// The move written in `lang`.
    pub fn to_string_in(&self, lang: Lang) -> String {
        let mut s = String::with_capacity(8);
        self.write(lang, &mut s);
        s
    }
}

/// Writes the move in English, as PGN export does.
impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_in(Lang::En))
    }
}
