//! Attack tables, computed at compile time by `const fn`.
//!
//! Sliding pieces use "fancy" magic bitboards: for each square, the relevant
//! blockers are multiplied by a magic number and shifted into an index into a
//! shared table. The magic numbers below were found by a random search; the
//! table builder asserts at compile time that each one maps every blocker
//! subset to a slot holding exactly its attack set, so a wrong magic number
//! cannot compile.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT_DELTAS: [(i32, i32); 8] = [
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
/// This is also the slow reference the tests compare the magic tables against.
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

/// The squares whose occupancy matters for a slider on `sq` (edges excluded).
const fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
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

#[derive(Copy, Clone)]
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

const fn magics(factors: &[u64; 64], dirs: &[(i32, i32); 4], start: usize) -> ([Magic; 64], usize) {
    let mut out = [Magic {
        mask: 0,
        factor: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            factor: factors[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    (out, offset)
}

const ROOK: ([Magic; 64], usize) = magics(&ROOK_MAGICS, &ROOK_DIRS, 0);
const BISHOP: ([Magic; 64], usize) = magics(&BISHOP_MAGICS, &BISHOP_DIRS, ROOK.1);
const TABLE_SIZE: usize = BISHOP.1;
static ROOK_MAGIC: [Magic; 64] = ROOK.0;
static BISHOP_MAGIC: [Magic; 64] = BISHOP.0;

const fn fill(
    mut table: [u64; TABLE_SIZE],
    magics: &[Magic; 64],
    dirs: &[(i32, i32); 4],
) -> [u64; TABLE_SIZE] {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Enumerate every subset of the mask (carry-rippler).
        let mut subset = 0u64;
        loop {
            let attacks = sliding_attacks_slow(sq, subset, dirs);
            let idx = m.offset + (subset.wrapping_mul(m.factor) >> m.shift) as usize;
            assert!(
                table[idx] == 0 || table[idx] == attacks,
                "magic number maps two blocker sets with different attacks to one slot"
            );
            table[idx] = attacks;
            subset = subset.wrapping_sub(m.mask) & m.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

static SLIDER_ATTACKS: [u64; TABLE_SIZE] = fill(
    fill([0; TABLE_SIZE], &ROOK.0, &ROOK_DIRS),
    &BISHOP.0,
    &BISHOP_DIRS,
);

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

/// Squares a rook on `sq` attacks on an empty board (one small table, where
/// [`rook_attacks`] with no blocker would read the large one).
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

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = m.offset + ((occupied.0 & m.mask).wrapping_mul(m.factor) >> m.shift) as usize;
    // The index is below TABLE_SIZE by construction (offset + 2^bits); the
    // bounds check stays, it is cheap and keeps the table safe.
    Bitboard(SLIDER_ATTACKS[idx])
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGIC[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGIC[sq.index()], occupied)
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

const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The empty-board rays are the magic lookups with no blocker.
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
    fn magic_tables_match_ray_walk() {
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
