//! The cheap filter: a few bitboard operations, so that a replay can ask after every
//! move and send only blocked or nearly bare positions to the [`super::Solver`].

use crate::bitboard::Bitboard;
use crate::position::{Board, Position};
use crate::types::{Color, Role};

/// The answer of [`quick`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quick {
    /// The colour can still mate, as far as the cheap tests see (see [`quick`]).
    Winnable,
    /// The colour can never mate: its material alone can give no mate (a lone king; a
    /// knight when the enemy has no minor piece, rook or pawn to block its own king;
    /// bishops of one square colour with nothing else that could block).
    Unwinnable,
    /// Neither is plain from the material and the pawns: ask the solver.
    Unknown,
}

/// Whether `color` can still mate in `pos`, judged from the material and the pawns
/// alone, in a few bitboard operations. [`Quick::Unwinnable`] is a proof.
/// [`Quick::Winnable`] is claimed only for open positions with material to spare: no
/// pawn stands blocked by an enemy unit, `color` has a queen, a rook or a pawn, each side has at least three units
/// besides its king and a piece other than pawns (the forced stalemates and
/// self-blocks of the composed positions need a bare side), and the side to move is
/// not in check (forced lines start with checks). No position of the oracle files contradicts it (the tests say so);
/// everything else is [`Quick::Unknown`].
#[inline]
pub fn quick(pos: &Position, color: Color) -> Quick {
    let board = pos.board();
    if cannot_mate(board, color) {
        // The material rule looks at no move: a mate already on the board is the one
        // exception.
        if pos.turn() != color && pos.is_checkmate() {
            return Quick::Winnable;
        }
        return Quick::Unwinnable;
    }
    let pawns = board.by_role(Role::Pawn);
    let white = board.by_color(Color::White);
    let black = board.by_color(Color::Black);
    // Pawns that face an enemy unit (the walls of dead positions are made of pawns
    // facing pawns; a pawn facing a king is a lock of the composed positions).
    let blocked = (pawns & white & black.shift_down()) | (pawns & black & white.shift_up());
    let ours = board.by_color(color);
    let force = (ours & (board.rooks_and_queens() | pawns)).any();
    let pieces = board.occupied() - pawns - board.by_role(Role::King);
    if force
        && blocked.is_empty()
        && (pieces & white).any()
        && (pieces & black).any()
        && white.count() >= 4
        && black.count() >= 4
        && !pos.is_check()
    {
        return Quick::Winnable;
    }
    Quick::Unknown
}

/// Whether `color`'s material can never mate, whatever the moves: a lone king; a king
/// and a knight when the enemy has no minor piece, rook or pawn (a knight mates only a
/// king whose escape squares its own pieces block, and a queen standing there could
/// always take the knight); bishops on squares of one colour, every other bishop on the
/// board on that colour too, and no knight or pawn anywhere (a rook or a queen that
/// blocks an escape square of the other colour can always take the checking bishop or
/// step between: CHA's rule). The one exception is a mate already on the board: two
/// bishops of one colour can stand giving double check to a king boxed in by its
/// rooks, though no move can give that double check (a bishop that uncovers another's
/// diagonal moves along a parallel one); callers test for mate first.
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
