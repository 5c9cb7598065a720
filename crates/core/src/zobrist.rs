//! Zobrist keys for repetition detection.
//!
//! Two positions are "the same" for the repetition rules when the same side
//! is to move, the same pieces stand on the same squares and the same moves
//! are possible (FIDE Laws 9.2). Possible moves are where the editions
//! differ:
//!
//! - [`Position::zobrist`] (FIDE 2009 and later): castling *rights* count,
//!   lost only once king or rook has moved; an en-passant square counts only
//!   when an en-passant capture is legal right now.
//! - [`Position::zobrist_2005`] (FIDE 2005): castling counts as a possible
//!   move, so castling that is legal right now differs from castling that is
//!   only temporarily prevented (and a prevented castling is the same as a
//!   lost right). For the side not to move, "legal right now" means legal if
//!   it were that side's turn.

use crate::attacks::between;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{CastlingSide, Color, Piece, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// 12 pieces x 64 squares, then 64 castling-rook squares, 8 en-passant
/// files, the side to move, and 4 "castling possible now" keys.
const KEY_COUNT: usize = 12 * 64 + 64 + 8 + 1 + 4;
/// The table's length: a power of two, so that a piece-square index masked to it
/// needs no bounds check (the entries past `KEY_COUNT` are never used).
const TABLE_LEN: usize = KEY_COUNT.next_power_of_two();

const fn keys() -> [u64; TABLE_LEN] {
    let mut out = [0u64; TABLE_LEN];
    let mut state = 0x5eed_cafe_f00d_1234u64;
    let mut i = 0;
    while i < KEY_COUNT {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

static KEYS: [u64; TABLE_LEN] = keys();

/// The castling keys of every set of castling rooks on one back rank, by the rank's
/// byte: `[0]` rank 1, `[1]` rank 8 (what the XOR of their `KEYS` entries gives).
const fn castling_keys() -> [[u64; 256]; 2] {
    let keys = keys();
    let mut out = [[0u64; 256]; 2];
    let mut rank = 0;
    while rank < 2 {
        let mut rooks = 0;
        while rooks < 256 {
            let mut key = 0;
            let mut file = 0;
            while file < 8 {
                if rooks & (1 << file) != 0 {
                    key ^= keys[CASTLING + rank * 56 + file];
                }
                file += 1;
            }
            out[rank][rooks] = key;
            rooks += 1;
        }
        rank += 1;
    }
    out
}

static CASTLING_KEYS: [[u64; 256]; 2] = castling_keys();
const CASTLING: usize = 12 * 64;
const EP: usize = CASTLING + 64;
const TURN: usize = EP + 8;
const POSSIBLE: usize = TURN + 1;

/// The key of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece_square_key(piece: Piece, sq: Square) -> u64 {
    KEYS[((piece.color.index() * 6 + piece.role.index()) * 64 + sq.index()) & (TABLE_LEN - 1)]
}

/// The key of Black to move.
#[inline]
pub(crate) fn turn_key() -> u64 {
    KEYS[TURN]
}

impl Position {
    /// The key of the placement and side to move, from scratch (the
    /// position keeps it up to date incrementally).
    pub(crate) fn compute_piece_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                let base = (color.index() * 6 + role.index()) * 64;
                for sq in self.board.by_role(role) & self.board.by_color(color) {
                    key ^= KEYS[base + sq.index()];
                }
            }
        }
        if self.turn == Color::Black {
            key ^= KEYS[TURN];
        }
        key
    }

    fn zobrist_pieces(&self) -> u64 {
        debug_assert_eq!(self.piece_key, self.compute_piece_key());
        let mut key = self.piece_key;
        if let Some(ep) = self.legal_ep_square() {
            key ^= KEYS[EP + ep.file().index()];
        }
        key
    }

    /// The repetition key under FIDE 2009 and later rules: pieces, side to
    /// move, castling rights, and the en-passant file only when an
    /// en-passant capture is legal.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        // Castling rooks stand on the back ranks: two lookups, without a loop whose
        // length changes as the rights go.
        let rights = self.castling_rights.0;
        debug_assert_eq!(rights & !0xff00_0000_0000_00ff, 0);
        self.zobrist_pieces()
            ^ CASTLING_KEYS[0][(rights & 0xff) as usize]
            ^ CASTLING_KEYS[1][(rights >> 56) as usize]
    }

    /// The repetition key under FIDE 2005 rules: like [`Position::zobrist`]
    /// but castling counts only when it is possible right now (for the side
    /// not to move: would be possible if it were its turn).
    pub fn zobrist_2005(&self) -> u64 {
        let mut key = self.zobrist_pieces();
        if self.castling_rights.is_empty() {
            return key;
        }
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.castling_possible(color, side) {
                    key ^= KEYS[POSSIBLE + color.index() * 2 + side.index()];
                }
            }
        }
        key
    }

    /// Whether `color` could castle on `side` now, were it its turn (as castling's
    /// legality reads it: the right, the path empty, the king not in check and not
    /// crossing or reaching an attacked square), without building the position with
    /// the turn passed.
    fn castling_possible(&self, color: Color, side: CastlingSide) -> bool {
        let Some(rook) = self.castling_rook(color, side) else {
            return false;
        };
        let Some(king) = self.board.king_of(color) else {
            return false;
        };
        let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
        let path = (between(king, king_to) | king_to | between(rook, rook_to) | rook_to)
            - Bitboard::from_square(king)
            - Bitboard::from_square(rook);
        let occupied = self.board.occupied();
        if (occupied & path).any() {
            return false;
        }
        let them = color.other();
        if self.board.is_attacked(king, them, occupied) {
            return false;
        }
        let occ = occupied.with_toggled(king).with_toggled(rook);
        (between(king, king_to) | king_to)
            .into_iter()
            .all(|sq| !self.board.is_attacked(sq, them, occ))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Validation};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Validation::Strict).unwrap()
    }

    #[test]
    fn ep_counts_only_when_capture_is_legal() {
        // After 1.e4 no black pawn can capture en passant: same key as without the square.
        let with = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        let without = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(with.zobrist(), without.zobrist());
        // A black pawn on d4 can take: the keys differ.
        let with = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        let without = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_ne!(with.zobrist(), without.zobrist());
        // The capture would expose the black king on the fourth rank: not legal, same key.
        let with = pos("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1");
        let without = pos("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1");
        assert_eq!(with.zobrist(), without.zobrist());
    }

    #[test]
    fn castling_rights_vs_possibility() {
        // White may castle by right but a bishop blocks f1: 2009 sees the right, 2005 does not.
        let right = pos("4k3/8/8/8/8/8/8/4KB1R w K - 0 1");
        let none = pos("4k3/8/8/8/8/8/8/4KB1R w - - 0 1");
        assert_ne!(right.zobrist(), none.zobrist());
        assert_eq!(right.zobrist_2005(), none.zobrist_2005());
        let open = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let closed = pos("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert_ne!(open.zobrist_2005(), closed.zobrist_2005());
    }

    #[test]
    fn castling_keys_by_rank_are_the_keys_of_their_rooks() {
        // Every set of rooks on each back rank, against the XOR of their squares' keys.
        for rank in 0..2 {
            for rooks in 0..256usize {
                let mut expected = 0;
                for file in 0..8 {
                    if rooks & (1 << file) != 0 {
                        expected ^= super::KEYS[super::CASTLING + rank * 56 + file];
                    }
                }
                assert_eq!(
                    super::CASTLING_KEYS[rank][rooks],
                    expected,
                    "{rank} {rooks:08b}"
                );
            }
        }
        // Through positions: Chess960 rights (X-FEN and Shredder), each right its own key.
        let all = pos("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
        let mut keys = vec![all.zobrist()];
        for fen in [
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w Bgb - 0 1",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w Ggb - 0 1",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBb - 0 1",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBg - 0 1",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w - - 0 1",
        ] {
            let key = pos(fen).zobrist();
            assert!(!keys.contains(&key), "{fen}");
            keys.push(key);
        }
    }

    #[test]
    fn side_to_move_matters() {
        let w = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let b = pos("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
        assert_ne!(w.zobrist(), b.zobrist());
    }
}
