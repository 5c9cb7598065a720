//! The cheap filter: a few bitboard operations that settle nearly every position of a
//! real game, so that a replay can ask after every move and send only blocked or nearly
//! bare positions to the [`super::Solver`].

use crate::attacks::king_attacks;
use crate::bitboard::Bitboard;
use crate::position::{Board, Position};
use crate::types::{Color, Role};

/// The answer of [`quick`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quick {
    /// The colour can still mate: it has a queen, a rook or a pawn free to move, and
    /// its king can walk to the enemy king without crossing the blocked pawns.
    Winnable,
    /// The colour can never mate: its material alone can give no mate (a lone king; a
    /// knight when the enemy has no minor piece, rook or pawn to block its own king;
    /// bishops of one square colour with nothing else that could block).
    Unwinnable,
    /// Neither is plain from the material and the pawns: ask the solver.
    Unknown,
}

/// Whether `color` can still mate in `pos`, judged from the material and the blocked
/// pawns alone. [`Quick::Unwinnable`] is a proof; [`Quick::Winnable`] is what every
/// position of the oracle files this module is tested on agrees with (a queen, a rook
/// or a free pawn, and kings not kept apart by a wall of blocked pawns); everything
/// else is [`Quick::Unknown`].
#[inline]
pub fn quick(pos: &Position, color: Color) -> Quick {
    let board = pos.board();
    if cannot_mate(board, color) {
        return Quick::Unwinnable;
    }
    let pawns = board.by_role(Role::Pawn);
    let white_pawns = pawns & board.by_color(Color::White);
    let black_pawns = pawns & board.by_color(Color::Black);
    // Pawns facing an enemy pawn: they move again only by capturing.
    let rammed_white = white_pawns & black_pawns.shift_down();
    let rammed_black = black_pawns & white_pawns.shift_up();
    let ours = board.by_color(color);
    let rammed_ours = if color == Color::White {
        rammed_white
    } else {
        rammed_black
    };
    let force = (ours & board.rooks_and_queens()).any() || (ours & pawns - rammed_ours).any();
    if !force {
        return Quick::Unknown;
    }
    let rammed = rammed_white | rammed_black;
    if rammed.is_empty() {
        return Quick::Winnable;
    }
    // The squares a king may cross without regard to the other pieces: not a blocked
    // pawn's, not one a blocked pawn attacks. If our king can walk next to theirs on
    // them, no wall keeps them apart.
    let walled = rammed
        | pawn_attacks_of(rammed_white, Color::White)
        | pawn_attacks_of(rammed_black, Color::Black);
    let open = !walled;
    let ours_king = board.by_role(Role::King) & ours;
    let theirs_king = board.by_role(Role::King) & board.by_color(color.other());
    let Some(their_king) = theirs_king.first() else {
        return Quick::Unknown;
    };
    let goal = (king_attacks(their_king) | their_king) & open;
    let mut region = ours_king;
    loop {
        if (region & goal).any() {
            return Quick::Winnable;
        }
        let next = (region | dilate(region)) & open | ours_king;
        if next == region {
            return Quick::Unknown;
        }
        region = next;
    }
}

/// The squares next to the squares of `set` (a king's step from any of them).
#[inline]
fn dilate(set: Bitboard) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let b = set.0;
    let sideways = b | ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    Bitboard(sideways | (sideways << 8) | (sideways >> 8))
}

/// The squares the pawns of `color` in `pawns` attack.
#[inline]
fn pawn_attacks_of(pawns: Bitboard, color: Color) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let b = pawns.0;
    let forward = match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    };
    Bitboard(((forward << 1) & NOT_A) | ((forward >> 1) & NOT_H))
}

/// Whether `color`'s material can never mate, whatever the moves: a lone king; a king
/// and a knight when the enemy has no minor piece, rook or pawn (a knight mates only a
/// king whose escape squares its own pieces block, and a queen standing there could
/// always take the knight); bishops on squares of one colour, every other bishop on the
/// board on that colour too, and no knight or pawn anywhere (nothing could then stand
/// on the escape squares of the other colour without being able to take or block).
pub(crate) fn cannot_mate(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    let theirs = board.by_color(color.other());
    if ours.count() == 1 {
        return true;
    }
    let knights = board.by_role(Role::Knight);
    let bishops = board.by_role(Role::Bishop);
    if ours.count() == 2
        && (ours & knights).any()
        && (theirs & (knights | bishops | board.by_role(Role::Rook) | board.by_role(Role::Pawn)))
            .is_empty()
    {
        return true;
    }
    let our_bishops = ours & bishops;
    if our_bishops.any() {
        let bishop_squares = if (our_bishops & Bitboard::DARK_SQUARES).any() {
            Bitboard::DARK_SQUARES
        } else {
            Bitboard::LIGHT_SQUARES
        };
        if ours.count() == our_bishops.count() + 1
            && (bishops - bishop_squares).is_empty()
            && knights.is_empty()
            && board.by_role(Role::Pawn).is_empty()
        {
            return true;
        }
    }
    false
}
