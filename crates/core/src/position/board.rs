//! Piece placement: a bitboard per role and per colour, and the attacks it gives.

use crate::attacks::{
    bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use crate::bitboard::Bitboard;
use crate::types::{Color, File, Piece, Rank, Role, Square};

/// Piece placement: one bitboard per role and per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Board {
    /// The empty board.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares holding pieces of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding pieces of `role` (either colour).
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Squares holding `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Rooks and queens of either colour.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    /// Bishops and queens of either colour.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// The king square of `color`, if it has exactly one king.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).single_square()
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        // Without a search: a loop that stops at the piece found mispredicts at nearly
        // every capture (which piece is taken is as unpredictable as it gets).
        let bit = |role: Role| (self.by_role[role.index()].0 >> sq.index()) as usize & 1;
        let index = bit(Role::Knight)
            + 2 * bit(Role::Bishop)
            + 3 * bit(Role::Rook)
            + 4 * bit(Role::Queen)
            + 5 * bit(Role::King);
        Some(Role::ALL[index])
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at(sq)?,
        })
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].add(sq);
        self.by_color[piece.color.index()].add(sq);
    }

    /// Removes `piece` from `sq`, where it must stand.
    #[inline]
    pub(super) fn remove(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].discard(sq);
        self.by_color[piece.color.index()].discard(sq);
    }

    /// The placement seen from the other side: every piece moved to the same file on
    /// the mirrored rank (rank 1 becomes rank 8) and its colour swapped. The
    /// dead-position analysis reasons for White alone and asks about Black through it.
    pub(crate) fn mirrored(&self) -> Board {
        let flip = |b: Bitboard| Bitboard(b.0.swap_bytes());
        Board {
            by_role: self.by_role.map(flip),
            by_color: [flip(self.by_color[1]), flip(self.by_color[0])],
        }
    }

    /// Pieces of `attacker` that attack `sq`, given the occupied squares.
    #[inline]
    pub fn attackers(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.by_color(attacker)
            & ((rook_attacks(sq, occupied) & self.rooks_and_queens())
                | (bishop_attacks(sq, occupied) & self.bishops_and_queens())
                | (knight_attacks(sq) & self.by_role(Role::Knight))
                | (king_attacks(sq) & self.by_role(Role::King))
                | (pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn)))
    }

    /// Whether a piece of `attacker` attacks `sq`, given the occupied squares: the
    /// answer of [`Board::attackers`]`.any()`, with the slider look-ups only when a
    /// slider of `attacker` stands on a line through `sq`.
    #[inline(never)]
    pub fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        let theirs = self.by_color(attacker);
        if ((knight_attacks(sq) & self.by_role(Role::Knight))
            | (king_attacks(sq) & self.by_role(Role::King))
            | (pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn)))
            & theirs
            != Bitboard::EMPTY
        {
            return true;
        }
        let rooks = self.rooks_and_queens() & theirs & rook_rays(sq);
        let bishops = self.bishops_and_queens() & theirs & bishop_rays(sq);
        (rooks.any() && (rook_attacks(sq, occupied) & rooks).any())
            || (bishops.any() && (bishop_attacks(sq, occupied) & bishops).any())
    }

    /// The standard starting placement.
    pub fn standard() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (i, role) in back.into_iter().enumerate() {
            let file = File::ALL[i];
            for color in Color::ALL {
                let rank = color.back_rank();
                b.put(Square::from_coords(file, rank), Piece { color, role });
                let pawn_rank = Rank::Second.relative_to(color);
                b.put(
                    Square::from_coords(file, pawn_rank),
                    Piece {
                        color,
                        role: Role::Pawn,
                    },
                );
            }
        }
        b
    }
}
