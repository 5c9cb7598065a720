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

/// One castling of the standard setup: the king from e, the rook from a corner.
struct StandardCastling {
    color: Color,
    king: Square,
    rook: Square,
    king_to: Square,
    /// The squares that must be empty: those the king and the rook cross or reach.
    path: Bitboard,
}

/// The corners, where the rooks of the standard setup stand.
const STANDARD_ROOKS: Bitboard = Bitboard(0x8100_0000_0000_0081);

/// The standard castlings in the order of the `POSSIBLE` keys (colour, then side).
const STANDARD: [StandardCastling; 4] = [
    StandardCastling {
        color: Color::White,
        king: Square::E1,
        rook: Square::H1,
        king_to: Square::G1,
        path: Bitboard(0x60),
    },
    StandardCastling {
        color: Color::White,
        king: Square::E1,
        rook: Square::A1,
        king_to: Square::C1,
        path: Bitboard(0x0e),
    },
    StandardCastling {
        color: Color::Black,
        king: Square::E8,
        rook: Square::H8,
        king_to: Square::G8,
        path: Bitboard(0x60 << 56),
    },
    StandardCastling {
        color: Color::Black,
        king: Square::E8,
        rook: Square::A8,
        king_to: Square::C8,
        path: Bitboard(0x0e << 56),
    },
];

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
        let rights = self.castling_rights;
        if rights.is_empty() {
            return key;
        }
        // The rights of the standard setup (rooks in the corners, each side with rights
        // with its king on e): every path is a constant, and most castlings stop at a
        // piece standing in it, with no square or attack to look up.
        let kings = self.board.by_role(Role::King);
        let home = |color: Color, king: Square| {
            (rights & Bitboard::from_rank(color.back_rank())).is_empty()
                || (kings & self.board.by_color(color)).contains(king)
        };
        if (rights - STANDARD_ROOKS).is_empty()
            && home(Color::White, Square::E1)
            && home(Color::Black, Square::E8)
        {
            // The corner of each castling whose path is empty, without a branch: most
            // positions with rights have none, and stop here.
            let occupied = self.board.occupied();
            let mut free = 0;
            for castling in &STANDARD {
                free |= u64::from((occupied & castling.path).is_empty()) << castling.rook.index();
            }
            if (rights & Bitboard(free)).is_empty() {
                return key;
            }
            for (i, castling) in STANDARD.iter().enumerate() {
                if (rights & Bitboard(free)).contains(castling.rook)
                    && self.castling_safe(
                        castling.color,
                        castling.king,
                        castling.rook,
                        castling.king_to,
                    )
                {
                    key ^= KEYS[POSSIBLE + i];
                }
            }
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
        if (self.board.occupied() & path).any() {
            return false;
        }
        self.castling_safe(color, king, rook, king_to)
    }

    /// Whether `color`'s king on `king`, castling with the rook on `rook` to `king_to`
    /// along an empty path, is not in check and neither crosses nor reaches an
    /// attacked square.
    #[inline]
    fn castling_safe(&self, color: Color, king: Square, rook: Square, king_to: Square) -> bool {
        let them = color.other();
        // The king not in check: only the side to move can be (no position has the
        // side not to move in check: a FEN that does is refused, `OppositeCheck`, and
        // a pass in check is too), and its checkers are known.
        if color == self.turn && self.checkers.any() {
            return false;
        }
        let occupied = self.board.occupied();
        debug_assert!(color == self.turn || !self.board.is_attacked(king, them, occupied));
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

    /// The castlings the 2005 key counts are the castlings move generation finds legal,
    /// for the side to move and for the other were it to move, along random games from
    /// the standard setup (the key's path for corner rooks and a king on e) and from
    /// Chess960 setups (the path for any other rights).
    #[test]
    fn the_2005_key_counts_the_castlings_move_generation_finds() {
        use super::{KEYS, POSSIBLE};
        use crate::types::{CastlingSide, Color};
        let castlings = |p: &Position| {
            let mut sides = [false; 2];
            for m in p.legal_moves().iter() {
                if let Some(side) = m.castling_side() {
                    sides[side.index()] = true;
                }
            }
            sides
        };
        let mut seed = 0x2005_cafe_f00d_beefu64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize % n
        };
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/pppq1ppp/2n2n2/2bpp1B1/2BPP1b1/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            "rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w CAca - 0 1",
        ];
        let (mut counted, mut positions) = (0, 0);
        for round in 0..300 {
            let mut p = pos(starts[round % starts.len()]);
            for _ in 0..80 {
                let mut expected = p.zobrist_pieces();
                let turn = p.turn();
                for color in Color::ALL {
                    let sides = if color == turn {
                        castlings(&p)
                    } else {
                        castlings(&p.with_turn_passed())
                    };
                    for side in CastlingSide::ALL {
                        if sides[side.index()] {
                            expected ^= KEYS[POSSIBLE + color.index() * 2 + side.index()];
                            counted += 1;
                        }
                    }
                }
                assert_eq!(p.zobrist_2005(), expected, "{}", p.fen());
                positions += 1;
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[next(moves.len())];
                p.play_unchecked(&m);
            }
        }
        // Enough castlings were possible for the test to say something.
        assert!(counted > positions / 10, "{counted} of {positions}");
    }

    #[test]
    fn side_to_move_matters() {
        let w = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let b = pos("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
        assert_ne!(w.zobrist(), b.zobrist());
    }
}
