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

    /// Appends the legal move `m` in long algebraic notation, piece letters in `lang`:
    /// the departure square always written, `-` for a quiet move and `x` for a capture
    /// (`Ng1-f3`, `e2-e4`, `e4xd5`, `e5xd6` en passant, `e7-e8=Q`, `O-O`, `O-O-O`), then
    /// `suffix` (`+`, `#`, `++`). [`San::parse`] reads it back.
    pub fn write_long(m: &Move, suffix: Option<Suffix>, lang: Lang, out: &mut String) {
        match m.castling_side() {
            Some(CastlingSide::KingSide) => out.push_str("O-O"),
            Some(CastlingSide::QueenSide) => out.push_str("O-O-O"),
            None => {
                if m.role() != Role::Pawn {
                    out.push_str(lang.letter(m.role()).unwrap_or("?"));
                }
                out.push(m.from().file().char());
                out.push(m.from().rank().char());
                out.push(if m.is_capture() { 'x' } else { '-' });
                out.push(m.to().file().char());
                out.push(m.to().rank().char());
                if let Some(p) = m.promotion() {
                    out.push('=');
                    out.push_str(lang.letter(p).unwrap_or("?"));
                }
            }
        }
        match suffix {
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

#[cfg(test)]
mod tests {
    use super::San;
    use crate::Validation;
    use crate::position::Position;
    use crate::san::tests::{STARTS, positions};
    use crate::san::{Lang, Suffix};

    #[test]
    fn long_algebraic_forms() {
        let pos = Position::from_fen(
            "r3k2r/1P6/8/3pP3/8/8/8/R3K1NR w KQkq d6 0 2",
            Validation::Relaxed,
        )
        .expect("a valid FEN");
        for (san, lang, suffix, long) in [
            ("Nf3", Lang::En, None, "Ng1-f3"),
            ("Nf3", Lang::Es, Some(Suffix::Check), "Cg1-f3+"),
            ("exd6", Lang::En, None, "e5xd6"),
            ("e6", Lang::En, None, "e5-e6"),
            ("b8=Q", Lang::En, Some(Suffix::Mate), "b7-b8=Q#"),
            ("bxa8=N", Lang::De, None, "b7xa8=S"),
            ("O-O-O", Lang::En, None, "O-O-O"),
            ("Rxa8", Lang::Es, Some(Suffix::DoublePlus), "Ta1xa8++"),
        ] {
            let m = San::parse(san.as_bytes(), Lang::En)
                .expect(san)
                .resolve(&pos)
                .expect(san);
            let mut out = String::new();
            San::write_long(&m, suffix, lang, &mut out);
            assert_eq!(out, long, "{san}");
        }
    }

    #[test]
    fn long_algebraic_reads_back_as_the_move() {
        let mut checked = 0;
        let all = positions().into_iter().step_by(5);
        let starts = STARTS
            .iter()
            .map(|f| Position::from_fen(f, Validation::Relaxed).expect("a valid FEN"));
        for pos in all.chain(starts) {
            for m in pos.legal_moves().iter() {
                for lang in [Lang::En, Lang::Es, Lang::De, Lang::Figurine] {
                    let suffix = Suffix::deserved(&pos.play(m));
                    let mut text = String::new();
                    San::write_long(m, suffix, lang, &mut text);
                    let san = San::parse(text.as_bytes(), lang).expect(&text);
                    assert_eq!(san.resolve(&pos), Ok(*m), "{text} at {}", pos.fen());
                    assert_eq!(san.suffix, suffix, "{text}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
