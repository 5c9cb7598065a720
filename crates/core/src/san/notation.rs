//! How a written move differs from canonical SAN: marks, forms and disambiguation.

use super::resolve::{reaching, unpinned};
use super::{Forms, San, SanKind, Suffix};
use crate::bitboard::Bitboard;
use crate::position::{Move, MoveList, Position};
use crate::types::{File, Rank, Role, Square};

/// How a check mark compares with the position after the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum CheckMark {
    /// As canonical SAN writes it.
    #[default]
    Right,
    /// The move gives check or mate and no mark is written.
    Missing,
    /// A mark that does not match: `+` on mate, `#` on check, a mark on a
    /// quiet move, `++` on a plain check.
    Wrong,
    /// `++` written for mate (standard in Spanish records).
    DoublePlusForMate,
}

/// How a capture mark compares with the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum CaptureMark {
    /// As canonical SAN writes it.
    #[default]
    Right,
    /// A capture written without `x`.
    Missing,
    /// `x` written on a move that captures nothing.
    Spurious,
}

/// How written disambiguation compares with what the rules require.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Disambiguation {
    /// Exactly what is needed.
    #[default]
    Right,
    /// A file, rank or square that no other piece needed.
    Redundant,
    /// Needed only if a pinned piece is counted as able to move there.
    PinnedOnly,
    /// The rank used where the file would have done.
    NonPreferred,
}

/// How a written move differs from canonical SAN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Notation {
    /// Unusual written forms.
    pub forms: Forms,
    /// The check mark.
    pub check: CheckMark,
    /// The capture mark.
    pub capture: CaptureMark,
    /// The disambiguation.
    pub disambiguation: Disambiguation,
}

impl Notation {
    /// Whether the move is written exactly as canonical SAN.
    pub fn is_canonical(&self) -> bool {
        self.forms.is_empty()
            && self.check == CheckMark::Right
            && self.capture == CaptureMark::Right
            && self.disambiguation == Disambiguation::Right
    }
}

/// Which part of the departure square SAN needs to tell `from` apart from
/// the squares in `others`.
pub(super) fn needed(from: Square, others: Bitboard) -> (bool, bool) {
    if others.is_empty() {
        (false, false)
    } else if (others & Bitboard::from_file(from.file())).is_empty() {
        (true, false)
    } else if (others & Bitboard::from_rank(from.rank())).is_empty() {
        (false, true)
    } else {
        (true, true)
    }
}

/// Other pieces of the mover's kind with a legal move to the same square.
pub(super) fn legal_rivals(pos: &Position, m: &Move) -> Bitboard {
    if m.role() != Role::Pawn && !pos.is_check() {
        // Out of check a piece's move is legal unless a pin holds it off the line.
        let reach = reaching(pos, m.role(), m.to(), false) - Bitboard::from_square(m.from());
        return unpinned(pos, reach, m.to());
    }
    let mut list = MoveList::new();
    pos.legal_moves_to(m.role(), Bitboard::FULL, m.to(), &mut list);
    list.iter()
        .filter(|o| o.from() != m.from() && o.promotion() == m.promotion())
        .fold(Bitboard::EMPTY, |acc, o| acc | o.from())
}

/// How the written departure file and rank compare with what the rules require of `m`.
fn disambiguation_verdict(
    pos: &Position,
    m: &Move,
    file: Option<File>,
    rank: Option<Rank>,
) -> Disambiguation {
    // Nothing written: resolution already proved nothing else was needed.
    if m.castling_side().is_some() || (file.is_none() && rank.is_none()) {
        return Disambiguation::Right;
    }
    let written = (file.is_some(), rank.is_some());
    let rivals = legal_rivals(pos, m);
    let need = needed(m.from(), rivals);
    if written == need {
        return Disambiguation::Right;
    }
    if written == (false, true)
        && need == (true, false)
        && (rivals & Bitboard::from_rank(m.from().rank())).is_empty()
    {
        return Disambiguation::NonPreferred;
    }
    // Counting pieces that reach the square but are pinned (or otherwise
    // could not legally go there), would the written form be needed?
    let pseudo = reaching(pos, m.role(), m.to(), false) - Bitboard::from_square(m.from());
    let need_pseudo = needed(m.from(), pseudo);
    if written == need_pseudo
        || (written.0 <= need_pseudo.0
            && written.1 <= need_pseudo.1
            && need_pseudo != (false, false))
    {
        return Disambiguation::PinnedOnly;
    }
    if written == (false, true) && need_pseudo == (true, false) {
        return Disambiguation::PinnedOnly;
    }
    Disambiguation::Redundant
}

impl San {
    /// How the written form differs from canonical SAN for the move `m`, which this
    /// SAN resolved to in `before`; `deserved` is the check mark the move deserves
    /// ([`Suffix::deserved`] of the position after it).
    ///
    /// A move written plainly (no unusual form, the right marks, no departure square
    /// for a piece) is found canonical without looking at the position, which is the
    /// case for nearly every move; only the others have their disambiguation judged.
    #[inline(always)]
    pub fn notation(&self, before: &Position, m: &Move, deserved: Option<Suffix>) -> Notation {
        if self.is_plainly_canonical(m, deserved) {
            return Notation::default();
        }
        self.notation_general(before, m, deserved)
    }

    /// Whether the move is written as canonical SAN, decided without looking at the
    /// position when it plainly is: `true` only where [`San::notation_general`] finds it
    /// canonical, so that [`San::notation`] may skip it.
    #[inline(always)]
    pub(super) fn is_plainly_canonical(&self, m: &Move, deserved: Option<Suffix>) -> bool {
        self.forms.is_empty()
            && self.suffix == deserved
            && match self.kind {
                SanKind::Normal {
                    role,
                    file,
                    rank,
                    capture,
                    ..
                } => {
                    capture == m.is_capture()
                        && (role == Role::Pawn || (file.is_none() && rank.is_none()))
                }
                SanKind::Castle(_) | SanKind::Null => true,
            }
    }

    /// [`San::notation`] past its fast path.
    #[inline(never)]
    pub(super) fn notation_general(
        &self,
        before: &Position,
        m: &Move,
        deserved: Option<Suffix>,
    ) -> Notation {
        let mut notation = Notation {
            forms: self.forms,
            ..Notation::default()
        };
        notation.check = match (self.suffix, deserved) {
            (None, None)
            | (Some(Suffix::Check), Some(Suffix::Check))
            | (Some(Suffix::Mate), Some(Suffix::Mate)) => CheckMark::Right,
            (Some(Suffix::DoublePlus), Some(Suffix::Mate)) => CheckMark::DoublePlusForMate,
            (None, Some(_)) => CheckMark::Missing,
            _ => CheckMark::Wrong,
        };
        if let SanKind::Normal {
            role,
            file,
            rank,
            capture,
            ..
        } = self.kind
        {
            if capture != m.is_capture() {
                notation.capture = if capture {
                    CaptureMark::Spurious
                } else {
                    CaptureMark::Missing
                };
            }
            if role != Role::Pawn && !self.forms.contains(Forms::LONG_ALGEBRAIC) {
                notation.disambiguation = disambiguation_verdict(before, m, file, rank);
            }
        }
        notation
    }
}
