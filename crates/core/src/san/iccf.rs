//! ICCF numeric notation, the correspondence-chess standard: four digits, the departure
//! file and rank then the destination file and rank, each 1 to 8 (`5254` is e2-e4), and
//! for a promotion a fifth digit, 1 queen, 2 rook, 3 bishop, 4 knight (`57581`).
//! Castling is written as the king's move (`5171` is White's O-O).

use crate::position::{Move, MoveList, Position};
use crate::types::{File, Rank, Role, Square};
use std::fmt;

/// Why a token is not an ICCF numeric move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IccfError {
    /// Nothing but marks and spaces.
    Empty,
    /// Something other than digits.
    NotDigits,
    /// Not four or five digits.
    BadLength,
    /// A file or rank digit outside 1 to 8.
    BadSquare,
    /// A promotion digit outside 1 to 4.
    BadPromotion,
}

impl fmt::Display for IccfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IccfError::Empty => "empty move",
            IccfError::NotDigits => "an ICCF move is written in digits",
            IccfError::BadLength => "an ICCF move has four digits, or five for a promotion",
            IccfError::BadSquare => "an ICCF file or rank digit is 1 to 8",
            IccfError::BadPromotion => {
                "an ICCF promotion digit is 1 (queen), 2 (rook), 3 (bishop) or 4 (knight)"
            }
        })
    }
}

impl std::error::Error for IccfError {}

/// A move in ICCF numeric notation.
///
/// ```
/// use planilla_core::{MoveList, Position};
/// use planilla_core::san::Iccf;
///
/// let pos = Position::new();
/// let mut moves = MoveList::new();
/// Iccf::parse(b"5254").unwrap().candidates(&pos, &mut moves);
/// assert_eq!(moves.len(), 1);
/// assert_eq!(Iccf::write(&moves[0]), "5254");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Iccf {
    /// The departure square.
    pub from: Square,
    /// The destination square (the king's, for castling).
    pub to: Square,
    /// The promotion piece, when written.
    pub promotion: Option<Role>,
}

const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

fn square(file: u8, rank: u8) -> Result<Square, IccfError> {
    let digit = |c: u8| match c {
        b'1'..=b'8' => Ok(u32::from(c - b'1')),
        _ => Err(IccfError::BadSquare),
    };
    match (File::new(digit(file)?), Rank::new(digit(rank)?)) {
        (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
        _ => Err(IccfError::BadSquare),
    }
}

impl Iccf {
    /// Reads four digits, file rank file rank, each 1 to 8 (`5254` is e2-e4), and an
    /// optional fifth for a promotion, 1 queen, 2 rook, 3 bishop, 4 knight (`57581`).
    /// Trailing check marks (`+`, `#`, `++`), annotation glyphs and spaces are ignored.
    ///
    /// # Errors
    ///
    /// An [`IccfError`] when the bytes are not an ICCF move.
    pub fn parse(text: &[u8]) -> Result<Iccf, IccfError> {
        let mut s = text.trim_ascii();
        while let [rest @ .., b'+' | b'#' | b'!' | b'?'] = s {
            s = rest.trim_ascii_end();
        }
        if s.is_empty() {
            return Err(IccfError::Empty);
        }
        if !s.iter().all(u8::is_ascii_digit) {
            return Err(IccfError::NotDigits);
        }
        let (squares, promotion) = match s {
            [a, b, c, d] => ([*a, *b, *c, *d], None),
            [a, b, c, d, p] => ([*a, *b, *c, *d], Some(*p)),
            _ => return Err(IccfError::BadLength),
        };
        let from = square(squares[0], squares[1])?;
        let to = square(squares[2], squares[3])?;
        let promotion = match promotion {
            None => None,
            Some(p @ b'1'..=b'4') => Some(PROMOTIONS[usize::from(p - b'1')]),
            Some(_) => return Err(IccfError::BadPromotion),
        };
        Ok(Iccf {
            from,
            to,
            promotion,
        })
    }

    /// Whether the legal move `m` fits: the same departure and destination (the king's
    /// destination for castling) and, when a promotion digit is written, the same piece.
    pub fn fits(&self, m: &Move) -> bool {
        m.from() == self.from
            && m.to() == self.to
            && (self.promotion.is_none() || m.promotion() == self.promotion)
    }

    /// Every legal move of `pos` that fits, into `out` (cleared first): castling is
    /// written as the king's move (`5171` is O-O, `5131` O-O-O, `5878` and `5838` for
    /// Black); a pawn move to the last rank without the fifth digit fits all four
    /// promotions, so that the caller reports it ambiguous.
    pub fn candidates(&self, pos: &Position, out: &mut MoveList) {
        pos.legal_moves_into(out);
        out.retain(|m| self.fits(m));
    }

    /// The ICCF numeric form of the legal move `m` (castling as the king's move).
    pub fn write(m: &Move) -> String {
        let mut s = String::with_capacity(5);
        for sq in [m.from(), m.to()] {
            s.push((b'1' + sq.file().index() as u8) as char);
            s.push((b'1' + sq.rank().index() as u8) as char);
        }
        if let Some(p) = m.promotion()
            && let Some(i) = PROMOTIONS.iter().position(|&r| r == p)
        {
            s.push((b'1' + i as u8) as char);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::{Iccf, IccfError};
    use crate::Validation;
    use crate::position::{MoveList, Position};
    use crate::san::tests::{STARTS, positions};
    use crate::types::{Role, Square};

    fn fen(f: &str) -> Position {
        Position::from_fen(f, Validation::Relaxed).expect("a valid FEN")
    }

    fn ucis(pos: &Position, text: &str) -> Vec<String> {
        let mut list = MoveList::new();
        Iccf::parse(text.as_bytes())
            .expect(text)
            .candidates(pos, &mut list);
        let mut v: Vec<String> = list.iter().map(|m| m.to_uci(false)).collect();
        v.sort();
        v
    }

    #[test]
    fn parses_digits() {
        let sq = |s: &str| Square::from_ascii(s.as_bytes()).expect("a square");
        for (text, from, to, promotion) in [
            ("5254", "e2", "e4", None),
            ("7163", "g1", "f3", None),
            ("5254+", "e2", "e4", None),
            ("5254 #", "e2", "e4", None),
            ("5254++", "e2", "e4", None),
            (" 1888 ", "a8", "h8", None),
            ("57581", "e7", "e8", Some(Role::Queen)),
            ("57582", "e7", "e8", Some(Role::Rook)),
            ("57583", "e7", "e8", Some(Role::Bishop)),
            ("57584", "e7", "e8", Some(Role::Knight)),
        ] {
            assert_eq!(
                Iccf::parse(text.as_bytes()),
                Ok(Iccf {
                    from: sq(from),
                    to: sq(to),
                    promotion
                }),
                "{text}"
            );
        }
        for (text, error) in [
            ("", IccfError::Empty),
            ("+", IccfError::Empty),
            ("e2e4", IccfError::NotDigits),
            ("52-54", IccfError::NotDigits),
            ("525", IccfError::BadLength),
            ("525412", IccfError::BadLength),
            ("5204", IccfError::BadSquare),
            ("5294", IccfError::BadSquare),
            ("9254", IccfError::BadSquare),
            ("57580", IccfError::BadPromotion),
            ("57585", IccfError::BadPromotion),
        ] {
            assert_eq!(Iccf::parse(text.as_bytes()), Err(error), "{text:?}");
        }
    }

    #[test]
    fn castling_and_promotions() {
        let castling = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let pos = fen(castling);
        assert_eq!(ucis(&pos, "5171"), ["e1g1"]);
        assert_eq!(ucis(&pos, "5131"), ["e1c1"]);
        assert_eq!(ucis(&pos, "5161"), ["e1f1"]);
        let black = fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        assert_eq!(ucis(&black, "5878"), ["e8g8"]);
        assert_eq!(ucis(&black, "5838"), ["e8c8"]);
        let promo = fen("3r4/4P2k/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(ucis(&promo, "57581"), ["e7e8q"]);
        assert_eq!(ucis(&promo, "57484"), ["e7d8n"]);
        assert_eq!(ucis(&promo, "5758"), ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]);
        // A promotion digit on a move that promotes nothing fits nothing.
        assert_eq!(ucis(&Position::new(), "52541"), Vec::<String>::new());
        assert_eq!(ucis(&Position::new(), "5255"), Vec::<String>::new());
    }

    #[test]
    fn written_moves_read_back_as_the_move() {
        let mut list = MoveList::new();
        let mut checked = 0;
        let extra = [
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "4k3/8/5p2/2PpP3/8/8/8/4K3 w - d6 0 2",
        ];
        let all = positions().into_iter().step_by(5);
        for pos in all.chain(STARTS.iter().chain(&extra).map(|f| fen(f))) {
            for m in pos.legal_moves().iter() {
                let text = Iccf::write(m);
                Iccf::parse(text.as_bytes())
                    .expect(&text)
                    .candidates(&pos, &mut list);
                assert_eq!(&list[..], &[*m], "{text} at {}", pos.fen());
                checked += 1;
            }
        }
        assert!(checked > 5_000, "{checked}");
    }
}
