//! Moves as the generator makes them, and the list it fills.

use crate::types::{CastlingSide, Role, Square};

/// How a move is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// An ordinary move or capture, including pawn pushes and promotions.
    Normal,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling; the move's `to` internally holds the rook's square.
    Castle(CastlingSide),
}

/// A legal move in some position. Castling is stored as king and rook
/// squares, which works for standard chess and Chess960 alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(super) from: Square,
    /// The destination; for castling, the rook's square.
    pub(super) to: Square,
    pub(super) role: Role,
    pub(super) capture: Option<Role>,
    pub(super) promotion: Option<Role>,
    pub(super) kind: MoveKind,
}

impl Move {
    /// A normal move (also a promotion or capture).
    #[inline]
    pub const fn normal(
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
    ) -> Move {
        Move {
            from,
            to,
            role,
            capture,
            promotion,
            kind: MoveKind::Normal,
        }
    }

    /// An en-passant capture from `from` to `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            role: Role::Pawn,
            capture: Some(Role::Pawn),
            promotion: None,
            kind: MoveKind::EnPassant,
        }
    }

    /// Castling of the king on `king` with the rook on `rook`.
    #[inline]
    pub const fn castle(king: Square, rook: Square, side: CastlingSide) -> Move {
        Move {
            from: king,
            to: rook,
            role: Role::King,
            capture: None,
            promotion: None,
            kind: MoveKind::Castle(side),
        }
    }

    /// The same move on the mirrored board (see `Position::mirrored`): both squares
    /// moved to the mirrored rank, the rest unchanged.
    pub(crate) const fn mirrored(&self) -> Move {
        Move {
            from: self.from.mirrored(),
            to: self.to.mirrored(),
            ..*self
        }
    }

    /// The moving piece's square.
    #[inline]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// Where the moving piece ends (the king's destination for castling).
    #[inline]
    pub fn to(&self) -> Square {
        match self.kind {
            MoveKind::Castle(side) => Square::from_coords(side.king_to_file(), self.from.rank()),
            _ => self.to,
        }
    }

    /// The castling rook's square, for castling moves.
    #[inline]
    pub fn castling_rook(&self) -> Option<Square> {
        match self.kind {
            MoveKind::Castle(_) => Some(self.to),
            _ => None,
        }
    }

    /// The castling side, for castling moves.
    #[inline]
    pub fn castling_side(&self) -> Option<CastlingSide> {
        match self.kind {
            MoveKind::Castle(side) => Some(side),
            _ => None,
        }
    }

    /// The moving piece's role.
    #[inline]
    pub const fn role(&self) -> Role {
        self.role
    }

    /// The role of the captured piece, if any.
    #[inline]
    pub const fn capture(&self) -> Option<Role> {
        self.capture
    }

    /// Whether the move captures.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    /// The promotion role, if any.
    #[inline]
    pub const fn promotion(&self) -> Option<Role> {
        self.promotion
    }

    /// How the move is carried out.
    #[inline]
    pub const fn kind(&self) -> MoveKind {
        self.kind
    }

    /// Whether the move resets the fifty-move counter (pawn move or capture).
    #[inline]
    pub const fn is_zeroing(&self) -> bool {
        matches!(self.role, Role::Pawn) || self.capture.is_some()
    }

    /// The move in UCI notation (`e2e4`, `e7e8q`; castling as king to its
    /// destination for standard positions, king to rook for Chess960 when
    /// `chess960` is set).
    pub fn to_uci(&self, chess960: bool) -> String {
        let to = if chess960 {
            self.castling_rook().unwrap_or(self.to)
        } else {
            self.to()
        };
        let mut s = format!("{}{}", self.from, to);
        if let Some(p) = self.promotion {
            s.push(p.fen_char());
        }
        s
    }
}

/// A list of moves with room for every legal move of any position (at most
/// 218 exist); it lives on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: usize,
}

impl MoveList {
    /// The most moves a list holds.
    pub const CAPACITY: usize = 256;

    /// Fills the room past the moves, never read: the first value of each field's type
    /// (square a1, pawn, `Some(pawn)`, the first kind in the layout), whose bytes are
    /// all zero.
    const FILLER: Move = Move {
        from: Square::A1,
        to: Square::A1,
        role: Role::Pawn,
        capture: Some(Role::Pawn),
        promotion: Some(Role::Pawn),
        kind: MoveKind::Castle(CastlingSide::KingSide),
    };

    /// An empty list, made once by the compiler: a new list is then one `memset` (its
    /// bytes are zero), where filling one at run time stored each 6-byte move apart and
    /// copied the whole (about 900 instructions a list, 1.5% of `check`'s, a list
    /// being made for every move that takes SAN resolution's general path).
    const EMPTY: MoveList = MoveList {
        moves: [Self::FILLER; Self::CAPACITY],
        len: 0,
    };

    /// An empty list.
    pub fn new() -> MoveList {
        Self::EMPTY
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub(super) fn push(&mut self, m: Move) {
        // A legal position has at most 218 moves; the guard keeps a corrupt
        // position from writing out of bounds.
        if self.len < Self::CAPACITY {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Keeps only the moves for which `keep` returns true.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if keep(&self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
