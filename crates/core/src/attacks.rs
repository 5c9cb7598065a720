//! Attack tables, computed at compile time by `const fn`.
//!
//! Sliding pieces use hyperbola quintessence: along a file or a diagonal, the attacks
//! of a slider are `o ^ (o - 2r)` taken both ways (the reverse direction by a byte
//! swap), and along a rank a 512-byte table of first-rank attacks. Every table here
//! is a few kilobytes and stays in the first-level cache. Magic bitboards (one lookup,
//! fewer instructions) were used before: their 860 KB table did not stay in cache while
//! a game's text and tokens passed through, and `check -j1` took 17% longer on real
//! games (perft, whose working set is small, was 4% faster with them).

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
/// The knight's eight jumps as (file, rank) steps.
pub(crate) const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

/// Attacks of a slider on `sq` along `dirs`, stopping at (and including) blockers.
/// This is also the slow reference the tests compare the slider attacks against.
pub(crate) const fn sliding_attacks_slow(sq: usize, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

const fn step_table(deltas: &[(i32, i32); 8]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 8 {
            let (df, dr) = deltas[i];
            let f = (sq % 8) as i32 + df;
            let r = (sq / 8) as i32 + dr;
            if on_board(f, r) {
                table[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn pawn_table(color: Color) -> [u64; 64] {
    let dr = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let r = (sq / 8) as i32 + dr;
        let mut df = -1;
        while df <= 1 {
            let f = (sq % 8) as i32 + df;
            if df != 0 && on_board(f, r) {
                table[sq] |= 1u64 << (r * 8 + f);
            }
            df += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT_ATTACKS: [u64; 64] = step_table(&KNIGHT_DELTAS);
static KING_ATTACKS: [u64; 64] = step_table(&KING_DELTAS);
static PAWN_ATTACKS: [[u64; 64]; 2] = [pawn_table(Color::White), pawn_table(Color::Black)];

const fn between_table() -> [[u64; 64]; 64] {
    let mut table = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let dirs = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, 1),
            (1, -1),
            (-1, -1),
        ];
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            let mut f = (a % 8) as i32 + df;
            let mut r = (a / 8) as i32 + dr;
            let mut acc = 0u64;
            while on_board(f, r) {
                let b = (r * 8 + f) as usize;
                table[a][b] = acc;
                acc |= 1u64 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    table
}

const fn line_table() -> [[u64; 64]; 64] {
    let mut table = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let dirs = [(1, 0), (0, 1), (1, 1), (-1, 1)];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction, both ways.
            let mut line = 1u64 << a;
            let mut sign = -1;
            while sign <= 1 {
                let mut f = (a % 8) as i32 + sign * df;
                let mut r = (a / 8) as i32 + sign * dr;
                while on_board(f, r) {
                    line |= 1u64 << (r * 8 + f);
                    f += sign * df;
                    r += sign * dr;
                }
                sign += 2;
            }
            let mut rest = line & !(1u64 << a);
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                table[a][b] = line;
                rest &= rest - 1;
            }
            d += 1;
        }
        a += 1;
    }
    table
}

const fn ray_table(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = sliding_attacks_slow(sq, 0, dirs);
        sq += 1;
    }
    table
}

static ROOK_RAYS: [u64; 64] = ray_table(&ROOK_DIRS);
static BISHOP_RAYS: [u64; 64] = ray_table(&BISHOP_DIRS);

/// Squares a rook on `sq` attacks on an empty board (one look-up, where
/// [`rook_attacks`] with no blocker would compute them).
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Squares a bishop on `sq` attacks on an empty board.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

static BETWEEN: [[u64; 64]; 64] = between_table();
static LINE: [[u64; 64]; 64] = line_table();

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures diagonally forward).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index()][sq.index()])
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let l = &HQ_LINES[sq.index()];
    Bitboard(hq(occupied.0, l.file, l.bit) | rank_attacks(sq.index(), occupied.0))
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let l = &HQ_LINES[sq.index()];
    Bitboard(hq(occupied.0, l.diag, l.bit) | hq(occupied.0, l.anti, l.bit))
}

/// A square, and the file, diagonal and anti-diagonal through it (the square excluded).
#[derive(Copy, Clone)]
struct HqLines {
    bit: u64,
    file: u64,
    diag: u64,
    anti: u64,
}

const fn hq_lines() -> [HqLines; 64] {
    // The ray walker takes four directions: each of a line's two is given twice.
    let mut out = [HqLines {
        bit: 0,
        file: 0,
        diag: 0,
        anti: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        out[sq] = HqLines {
            bit: 1 << sq,
            file: sliding_attacks_slow(sq, 0, &[(0, 1), (0, -1), (0, 1), (0, -1)]),
            diag: sliding_attacks_slow(sq, 0, &[(1, 1), (-1, -1), (1, 1), (-1, -1)]),
            anti: sliding_attacks_slow(sq, 0, &[(-1, 1), (1, -1), (-1, 1), (1, -1)]),
        };
        sq += 1;
    }
    out
}

static HQ_LINES: [HqLines; 64] = hq_lines();

/// Attacks along the first rank, by the six inner squares' occupancy and the file:
/// index `inner * 8 + file` (the edge squares never block anything beyond them).
const fn first_rank_attacks() -> [u8; 512] {
    let mut out = [0u8; 512];
    let mut inner = 0;
    while inner < 64 {
        let mut file = 0;
        while file < 8 {
            let occ = (inner as u64) << 1;
            let a = sliding_attacks_slow(file, occ, &[(1, 0), (-1, 0), (1, 0), (-1, 0)]);
            out[inner * 8 + file] = a as u8;
            file += 1;
        }
        inner += 1;
    }
    out
}

static FIRST_RANK_ATTACKS: [u8; 512] = first_rank_attacks();

/// Attacks along one line through a square (file or diagonal, the square excluded from
/// `mask`): hyperbola quintessence, o ^ (o - 2r) both ways, the reverse by byte swap.
#[inline]
fn hq(occupied: u64, mask: u64, bit: u64) -> u64 {
    let forward = occupied & mask;
    let reverse = forward.swap_bytes();
    let forward = forward.wrapping_sub(bit);
    let reverse = reverse.wrapping_sub(bit.swap_bytes());
    (forward ^ reverse.swap_bytes()) & mask
}

/// Attacks along the rank of `sq`: the first-rank table, moved to that rank.
#[inline]
fn rank_attacks(sq: usize, occupied: u64) -> u64 {
    let shift = sq & 56;
    let inner = ((occupied >> shift) >> 1) & 63;
    (FIRST_RANK_ATTACKS[(inner as usize) * 8 + (sq & 7)] as u64) << shift
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The whole line (rank, file or diagonal, edge to edge) through `a` and `b`;
/// empty when they are not aligned or equal.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index()][b.index()])
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The empty-board rays are the slider attacks with no blocker.
    #[test]
    fn rays_are_attacks_on_an_empty_board() {
        for sq in 0..64 {
            let sq = Square::new(sq).unwrap();
            assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY), "{sq}");
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY), "{sq}");
            assert!(rook_rays(sq).any() && bishop_rays(sq).any());
        }
    }

    /// Every slider lookup agrees with the slow ray walk, on pseudo-random
    /// occupancies for every square.
    #[test]
    fn slider_attacks_match_ray_walk() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for sq in 0..64 {
            for _ in 0..2000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let occ = seed & (seed >> 3);
                let s = Square::new(sq).unwrap();
                assert_eq!(
                    rook_attacks(s, Bitboard(occ)).0,
                    sliding_attacks_slow(sq as usize, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(s, Bitboard(occ)).0,
                    sliding_attacks_slow(sq as usize, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(Square::A1, Square::H8).count(),
            6,
            "a1-h8 has six squares between"
        );
        assert!(between(Square::A1, Square::B1).is_empty());
        assert!(between(Square::A1, Square::C8).is_empty());
        assert_eq!(line(Square::A1, Square::H8).count(), 8);
        assert!(line(Square::A1, Square::new(17).unwrap()).is_empty());
        assert!(aligned(Square::A1, Square::E1, Square::H1));
    }

    #[test]
    fn step_tables() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(king_attacks(Square::E1).count(), 5);
        assert_eq!(pawn_attacks(Color::White, Square::A1).count(), 1);
        assert!(pawn_attacks(Color::Black, Square::A1).is_empty());
    }
}
