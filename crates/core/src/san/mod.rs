//! Standard Algebraic Notation in every language planilla reads, one step per
//! public entry point:
//!
//! - reading: [`San::parse`] reads a move as real records write it, with the piece
//!   letters of one [`Lang`]: `Nf3`, Spanish `Cf3`, `0-0`, `e8Q`, `e8=Q`, `e8(Q)`,
//!   `exd6 e.p.`/`a.p.`, `+`, `#`, `++`, glyphs such as `!?`, long algebraic
//!   `Ng1-f3`/`e2xd3`, UCI-like `e2e4`, and null moves `--`/`Z0` (module `parse`);
//! - resolving: [`San::resolve`] finds the legal move it names, or says precisely why
//!   there is none, without generating every legal move (module `resolve`);
//! - judging: [`San::notation`] tells how the written form differs from canonical SAN
//!   (module `notation`);
//! - writing: [`San::from_move`] gives a move's canonical SAN, and [`San::write`] writes
//!   it in any language, [`San::write_long`] in long algebraic (module `write`).
//!
//! Two older notations are read beside SAN, each as the set of legal moves that fit the
//! written move: descriptive notation, English (`P-K4`, `N-KB3`) and Spanish (`P4R`,
//! `C3AR`), in [`Descriptive`] (written by [`write_descriptive`]), and ICCF numeric
//! notation (`5254`) in [`Iccf`].
//!
//! Each step tries a fast path for the shapes nearly every move has before its general
//! path; the fast paths are private and give the same results (tests compare them).
//!
//! ```
//! use planilla_core::Position;
//! use planilla_core::san::{Lang, San, Suffix};
//!
//! let pos = Position::new();
//! let san = San::parse(b"Cf3+", Lang::Es).unwrap();
//! let m = san.resolve(&pos).unwrap();
//! let after = pos.play(&m);
//! // The move gives no check: the written `+` is a notation finding, not an error.
//! assert!(!san.notation(&pos, &m, Suffix::deserved(&after)).is_canonical());
//! let canonical = San::from_move(&pos, &m).with_suffix(Suffix::deserved(&after));
//! assert_eq!(canonical.to_string_in(Lang::De), "Sf3");
//! ```

mod descriptive;
mod iccf;
mod lang;
mod notation;
mod parse;
mod resolve;
#[cfg(test)]
mod tests;
mod write;

pub use descriptive::{Descriptive, DescriptiveError, write_descriptive};
pub use iccf::{Iccf, IccfError};
pub use lang::{Lang, ParseLangError};
pub use notation::{CaptureMark, CheckMark, Disambiguation, Notation};
pub use parse::SanParseError;
pub use resolve::{IllegalReason, SanError};

use crate::position::Position;
use crate::types::{CastlingSide, File, Rank, Role, Square};
/// A check or mate mark as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Mate,
    /// `++`: mate in older and Spanish texts (sometimes double check).
    DoublePlus,
}

impl Suffix {
    /// The mark canonical SAN gives a move that leads to `after`: `+` for check, `#`
    /// for mate, none otherwise.
    pub fn deserved(after: &Position) -> Option<Suffix> {
        if !after.is_check() {
            None
        } else if after.has_legal_moves() {
            Some(Suffix::Check)
        } else {
            Some(Suffix::Mate)
        }
    }
}

/// The move a SAN names, before it is resolved against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SanKind {
    /// A piece or pawn move.
    Normal {
        /// The moving piece (a pawn when no letter is written).
        role: Role,
        /// The departure file, when written.
        file: Option<File>,
        /// The departure rank, when written.
        rank: Option<Rank>,
        /// Whether a capture mark (`x`, `:`) is written.
        capture: bool,
        /// The destination.
        to: Square,
        /// The promotion piece, when written.
        promotion: Option<Role>,
    },
    /// Castling.
    Castle(CastlingSide),
    /// A null move (`--`, `Z0`, `0000`): the side passes.
    Null,
}

/// Written forms that PGN export would write differently (each is a bit).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Forms(u16);

macro_rules! forms {
    ($($(#[$doc:meta])* $name:ident = $bit:expr, $text:expr;)*) => {
        impl Forms {
            $($(#[$doc])* pub const $name: Forms = Forms(1 << $bit);)*

            /// Short descriptions of the forms present, in a fixed order.
            pub fn descriptions(self) -> impl Iterator<Item = &'static str> {
                [$((Forms::$name, $text)),*]
                    .into_iter()
                    .filter(move |(f, _)| self.contains(*f))
                    .map(|(_, t)| t)
            }
        }
    };
}

forms! {
    /// Castling written with digit zeros: `0-0`.
    CASTLE_ZEROS = 0, "castling written with zeros";
    /// Castling written otherwise unusually: `o-o`, en or em dash, no dashes.
    CASTLE_OTHER = 1, "castling not written O-O";
    /// Promotion without `=`: `e8Q`, Spanish `d8D`.
    PROMOTION_BARE = 2, "promotion without '='";
    /// Promotion in parentheses or after a slash: `e8(Q)`, `e8/Q`.
    PROMOTION_OTHER = 3, "promotion in parentheses or after a slash";
    /// An en-passant mark: `e.p.` or Spanish `a.p.`.
    EN_PASSANT_MARK = 4, "en-passant mark";
    /// A piece letter in lower case.
    LOWERCASE_PIECE = 5, "lower-case piece letter";
    /// Long algebraic: the departure square always written (`Ng1-f3`, `e2e4`).
    LONG_ALGEBRAIC = 6, "long algebraic notation";
    /// A pawn letter written (`Pe4`).
    PAWN_LETTER = 7, "pawn letter";
    /// Capture written with `:` or `×`.
    CAPTURE_OTHER = 8, "capture not written 'x'";
    /// A null move.
    NULL_MOVE = 9, "null move";
}

impl Forms {
    /// No unusual form.
    pub const NONE: Forms = Forms(0);

    /// Whether every form in `other` is present.
    #[inline]
    pub const fn contains(self, other: Forms) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// Whether no form is present.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The forms of `self` that are not in `other`.
    #[inline]
    pub const fn without(self, other: Forms) -> Forms {
        Forms(self.0 & !other.0)
    }
}

impl std::ops::BitOr for Forms {
    type Output = Forms;
    fn bitor(self, rhs: Forms) -> Forms {
        Forms(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Forms {
    fn bitor_assign(&mut self, rhs: Forms) {
        self.0 |= rhs.0;
    }
}

/// A move as written: what it names, its check mark, and its unusual forms.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct San {
    /// What the move names.
    pub kind: SanKind,
    /// The check or mate mark as written.
    pub suffix: Option<Suffix>,
    /// Forms PGN export would write differently.
    pub forms: Forms,
}

impl San {
    /// Whether this is a null move.
    pub fn is_null(&self) -> bool {
        matches!(self.kind, SanKind::Null)
    }

    /// The same move with the check or mate mark `suffix` (as [`Suffix::deserved`]
    /// gives it, for canonical SAN).
    #[must_use]
    pub fn with_suffix(self, suffix: Option<Suffix>) -> San {
        San { suffix, ..self }
    }
}
