//! How the helpmate search weighs a move: a rewarded move costs no depth, a punished
//! one four plies, any other one ply. Iterative deepening then reaches far along the
//! lines that lead to a mate (White advancing pawns, capturing, bringing its king and
//! knights toward the mating corner; Black walking its king into that corner) while
//! lines that simplify the position away from a mate are searched shallowly.

use super::super::deduction::is_statically_unwinnable;
use crate::attacks::bishop_attacks;
use crate::bitboard::Bitboard;
use crate::position::{Move, MoveKind, MoveList, Position};
use crate::types::{Color, Role, Square};

/// The weight of a move in the search's depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// One ply (none after a rewarded move).
    Normal,
    /// No ply: a move that makes progress toward a mate.
    Reward,
    /// Four plies: a move away from any mate.
    Punish,
}

/// What the deep search (rung 8) knows of the position it starts from.
#[derive(Clone, Debug)]
pub(crate) struct Guide {
    /// Bishop moves from each square to the corner where White mates, through
    /// squares no steady piece holds; `u8::MAX` where a bishop cannot get there.
    bishop_distances: [u8; 64],
    /// The moves of the start position that lead to a statically unwinnable position
    /// (punished wherever they occur, as chasolver does).
    punishable: Vec<Move>,
}

impl Guide {
    /// The guide for a search from `pos`, `steady` being the pieces the saturated
    /// analysis proved will never move nor be captured.
    pub(crate) fn new(pos: &Position, steady: Bitboard) -> Guide {
        let mut list = MoveList::new();
        pos.legal_moves_into(&mut list);
        let punishable = list
            .iter()
            .filter(|m| is_statically_unwinnable(&pos.play(m)))
            .copied()
            .collect();
        Guide {
            bishop_distances: bishop_distances(pos, steady),
            punishable,
        }
    }
}

/// The order the search tries moves in, which `Position::legal_moves_ordered_into`
/// generates them in: by piece (pawns, knights, bishops, rooks, queens, king), then by
/// the square they leave and the square they go to, promotions to a queen first, then
/// knight, rook, bishop. The order decides which of the equally weighted lines a
/// depth-first search meets first; this one is the order of the move generator of the
/// `chess` crate, under which CHA's budgets were tuned to decide every position of its
/// test files (with our generator's own order, two positions of `positions.txt` ran out
/// of the deep search's budget). The key of a move in that order:
#[cfg(test)]
pub(crate) fn order_key(m: &Move) -> u32 {
    let promotion = match m.promotion() {
        None | Some(Role::Queen) => 0,
        Some(Role::Knight) => 1,
        Some(Role::Rook) => 2,
        Some(_) => 3,
    };
    // Role's own order is the one wanted: pawn, knight, bishop, rook, queen, king.
    ((m.role().index() as u32) << 16)
        | ((m.from().index() as u32) << 10)
        | ((m.to().index() as u32) << 4)
        | promotion
}

/// Classifies the move `m` of `pos`; `dark_corner` is [`mates_on_dark_corner`] of
/// `pos`, computed once for all its moves.
#[inline]
pub(crate) fn classify(
    pos: &Position,
    m: &Move,
    guide: Option<&Guide>,
    dark_corner: bool,
) -> Class {
    if guide.is_some_and(|g| g.punishable.iter().any(|p| same_move(p, m))) {
        Class::Punish
    } else if pos.turn() == Color::White {
        classify_white(m, guide, dark_corner)
    } else {
        classify_black(pos, m, guide, dark_corner)
    }
}

fn same_move(a: &Move, b: &Move) -> bool {
    a.from() == b.from() && a.to() == b.to() && a.promotion() == b.promotion()
}

/// A capture of a piece standing on the destination (en passant and castling are not).
fn takes_on_target(m: &Move) -> bool {
    m.kind() == MoveKind::Normal && m.is_capture()
}

fn classify_white(m: &Move, guide: Option<&Guide>, dark_corner: bool) -> Class {
    let role = m.role();
    if role == Role::Pawn
        || takes_on_target(m)
        || target(Color::White, role, dark_corner).is_some_and(|t| closer(m, role, t))
    {
        return Class::Reward;
    }
    if let (Some(guide), Role::Bishop) = (guide, role) {
        let from = guide.bishop_distances[m.from().index()];
        let to = guide.bishop_distances[m.to().index()];
        if from > 200 {
            return Class::Normal;
        }
        // Into the corner's reach, or (already there) out of the way of the king.
        if (from <= 1 && from < to) || (from > 2 && from > to) {
            return Class::Reward;
        }
    }
    Class::Normal
}

fn classify_black(pos: &Position, m: &Move, guide: Option<&Guide>, dark_corner: bool) -> Class {
    let role = m.role();
    if let Some(guide) = guide {
        if pos.board().occupied().count() > 5
            && takes_on_target(m)
            && (role == Role::Pawn || m.capture() == Some(Role::Pawn))
        {
            return Class::Reward;
        }
        if role == Role::Bishop
            && guide.bishop_distances[m.from().index()] > guide.bishop_distances[m.to().index()]
        {
            return Class::Reward;
        }
    }
    if target(Color::Black, role, dark_corner).is_some_and(|t| closer(m, role, t)) {
        return Class::Reward;
    }
    if takes_on_target(m) {
        return Class::Punish;
    }
    Class::Normal
}

/// Whether White mates in the dark corner (h8) rather than the light one (a8): the
/// corner its bishops can cover, or, without White bishops, the one Black's bishops
/// can block.
pub(crate) fn mates_on_dark_corner(pos: &Position) -> bool {
    let board = pos.board();
    let bishops = board.by_role(Role::Bishop);
    let white = bishops & board.by_color(Color::White);
    let black = bishops & board.by_color(Color::Black);
    (white & Bitboard::DARK_SQUARES).any()
        || (white.is_empty() && (black & Bitboard::LIGHT_SQUARES).any())
}

/// Where a king or knight of `color` heads: White's king toward g7 (near both g6 and
/// h7), its knights toward e5 (near g6 and f7); Black's king into h8, its knights to
/// g8; files mirrored for the light corner.
fn target(color: Color, role: Role, dark_corner: bool) -> Option<Square> {
    let square = match (color, role) {
        (Color::White, Role::King) => Square::G7,
        (Color::White, Role::Knight) => Square::E5,
        (Color::Black, Role::King) => Square::H8,
        (Color::Black, Role::Knight) => Square::G8,
        _ => return None,
    };
    Some(if dark_corner {
        square
    } else {
        Square::from_coords(
            crate::types::File::ALL[7 - square.file().index()],
            square.rank(),
        )
    })
}

/// Whether the king or knight move `m` comes closer to `target`.
fn closer(m: &Move, role: Role, target: Square) -> bool {
    let distance = |sq: Square| match role {
        Role::King => king_distance(sq, target),
        _ => KNIGHT_DISTANCE[sq.index()][target.index()],
    };
    distance(m.to()) < distance(m.from())
}

fn king_distance(a: Square, b: Square) -> u8 {
    let files = (a.file().index() as i32 - b.file().index() as i32).unsigned_abs();
    let ranks = (a.rank().index() as i32 - b.rank().index() as i32).unsigned_abs();
    files.max(ranks) as u8
}

/// Knight moves between any two squares, by a breadth-first walk from each square.
static KNIGHT_DISTANCE: [[u8; 64]; 64] = knight_distances();

const fn knight_distances() -> [[u8; 64]; 64] {
    const JUMPS: [(i32, i32); 8] = crate::attacks::KNIGHT_DELTAS;
    let mut table = [[u8::MAX; 64]; 64];
    let mut from = 0;
    while from < 64 {
        let row = &mut table[from];
        row[from] = 0;
        let mut queue = [0usize; 64];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from;
        while head < tail {
            let sq = queue[head];
            head += 1;
            let mut j = 0;
            while j < 8 {
                let file = (sq % 8) as i32 + JUMPS[j].0;
                let rank = (sq / 8) as i32 + JUMPS[j].1;
                if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                    let to = (rank * 8 + file) as usize;
                    if row[to] == u8::MAX {
                        row[to] = row[sq] + 1;
                        queue[tail] = to;
                        tail += 1;
                    }
                }
                j += 1;
            }
        }
        from += 1;
    }
    table
}

/// Bishop moves from the mating corner (h8, g8, h7 for the dark corner; a8, b8, a7
/// for the light one) to every square, through squares outside `steady`.
fn bishop_distances(pos: &Position, steady: Bitboard) -> [u8; 64] {
    let corner = if mates_on_dark_corner(pos) {
        Bitboard::from_square(Square::H8) | Square::G8 | Square::H7
    } else {
        Bitboard::from_square(Square::A8) | Square::B8 | Square::A7
    };
    let mut distances = [u8::MAX; 64];
    let mut visited = Bitboard::EMPTY;
    let mut active = corner;
    let mut d = 0u8;
    while active.any() {
        for sq in active {
            distances[sq.index()] = d;
        }
        visited |= active;
        d += 1;
        let mut next = Bitboard::EMPTY;
        for sq in active {
            next |= bishop_attacks(sq, steady) - steady;
        }
        active = next - visited;
    }
    distances
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_distances_are_the_known_ones() {
        let d = |a: Square, b: Square| KNIGHT_DISTANCE[a.index()][b.index()];
        assert_eq!(d(Square::A1, Square::A1), 0);
        assert_eq!(d(Square::A1, Square::B3), 1);
        assert_eq!(d(Square::A1, Square::B2), 4);
        assert_eq!(d(Square::A1, Square::H8), 6);
        assert_eq!(d(Square::D4, Square::E5), 2);
    }

    /// The generator's order is the search's: every position within three plies of a
    /// few that have castling, en passant, promotions, pins and checks.
    #[test]
    fn ordered_generation_is_sorted_and_complete() {
        fn walk(pos: &Position, plies: u32) {
            let mut ordered = MoveList::new();
            pos.legal_moves_ordered_into(&mut ordered);
            let mut sorted = pos.legal_moves().to_vec();
            sorted.sort_by_key(order_key);
            assert_eq!(&ordered[..], &sorted[..], "{pos:?}");
            assert!(
                ordered
                    .windows(2)
                    .all(|w| order_key(&w[0]) < order_key(&w[1]))
            );
            if plies > 0 {
                for m in ordered.iter() {
                    walk(&pos.play(m), plies - 1);
                }
            }
        }
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            "8/8/2Q2k2/3Kb3/8/2P5/1P6/8 b - - 2 55",
        ] {
            let pos = Position::from_fen(fen, crate::Validation::Relaxed).unwrap();
            walk(&pos, 3);
        }
    }
}
