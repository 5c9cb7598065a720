//! The cheap steps before the helpmate search, for callers that ask about many
//! positions (a game replay asks about the end of every line): [`may_be_dead`], which
//! looks at material and pawns only; [`surely_winnable`], a handful of bitboard tests
//! that prove a colour able to mate in open positions; and a short search for a
//! position those tests decide (a king that walks to a pawn and takes it, a piece that
//! steps aside), so that only dead positions and a few hard ones reach the
//! [`super::Solver`]'s ladder.

use super::quick::{Quick, cannot_mate, quick};
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::position::{Board, Move, MoveList, Position};
use crate::types::{Color, File, Role, Square};

/// Whether the material and the pawns leave room for a dead position that material
/// alone does not settle, in the positions games reach: true when the material is one
/// capture away from insufficient (a piece that must be taken, a last pawn), when no
/// queen or rook is left (walls of pawns with kings, bishops and knights behind them),
/// or when every pawn stands blocked by a pawn (a locked structure, whatever the
/// pieces).
///
/// False is no proof: it says that a queen or a rook is on the board, more than one
/// capture from bare material, with a pawn free to move, and such a position is taken
/// as live. Composed positions can be dead there (a rook caged by its own pawns, a wall
/// a queen cannot cross with a pawn still free to walk into it): 142 of the 1,050 dead
/// positions of CHA's `positions.txt` that material does not settle are, none of its
/// positions from lichess games.
pub fn may_be_dead(board: &Board) -> bool {
    let pawns = board.by_role(Role::Pawn);
    let heavy = pawns | board.rooks_and_queens();
    if heavy.count() <= 1 && nearly_bare(board, heavy) {
        return true;
    }
    if board.rooks_and_queens().is_empty() {
        return true;
    }
    let white = pawns & board.by_color(Color::White);
    let black = pawns & board.by_color(Color::Black);
    pawns.any() && (white.shift_up() - pawns).is_empty() && (black.shift_down() - pawns).is_empty()
}

/// Whether taking one unit (not a king) away from `board`, whose pawns, rooks and
/// queens are `heavy` (at most one), leaves material that can never mate (the rule of
/// [`Position::is_insufficient_material`]).
fn nearly_bare(board: &Board, heavy: Bitboard) -> bool {
    let knights = board.by_role(Role::Knight).count();
    let bishops = board.by_role(Role::Bishop);
    let dark = (bishops & Bitboard::DARK_SQUARES).count();
    let light = (bishops & Bitboard::LIGHT_SQUARES).count();
    if heavy.any() {
        return minors_insufficient(knights, dark, light);
    }
    (knights > 0 && minors_insufficient(knights - 1, dark, light))
        || (dark > 0 && minors_insufficient(knights, dark - 1, light))
        || (light > 0 && minors_insufficient(knights, dark, light - 1))
}

/// Whether kings with these knights and bishops (on dark and light squares) and
/// nothing else can never mate: one knight alone, or bishops of one square colour.
fn minors_insufficient(knights: u32, dark: u32, light: u32) -> bool {
    if knights > 0 {
        knights == 1 && dark + light == 0
    } else {
        dark == 0 || light == 0
    }
}

/// Whether `color` can certainly still mate in `pos`, shown by a few bitboard tests:
/// its material can mate ([`super::quick`]'s material rule), the side to move is not in
/// check with a single legal move (a forced line), each king has a square to step to
/// that nothing attacks (the composed positions that defeat material have a king boxed
/// in), and the pawns are open: no pawn stands blocked by a pawn, or `color` has a
/// passed pawn free to advance, or a pawn can capture now or step next to an enemy pawn
/// (a lever: the structure is not locked).
///
/// True is a proof in the sense that [`super::quick`]'s `Winnable` is one: no position
/// of CHA's oracle files (`positions.txt`, the composed ones, and `lichess.txt`)
/// contradicts it, and the tests hold it to both. False says nothing.
pub fn surely_winnable(pos: &Position, color: Color) -> bool {
    !cannot_mate(pos.board(), color) && proves_one_of(pos, [color])
}

/// Whether [`surely_winnable`] holds for one of `colors`, none of which can be denied
/// by material ([`cannot_mate`]); the cheap tests first, the ones every colour shares
/// once.
fn proves_one_of<const N: usize>(pos: &Position, colors: [Color; N]) -> bool {
    let board = pos.board();
    let pawns = board.by_role(Role::Pawn);
    let white = pawns & board.by_color(Color::White);
    let black = pawns & board.by_color(Color::Black);
    let open = ((white.shift_up() | black.shift_down()) & pawns).is_empty();
    if !(open || has_lever(board) || colors.iter().any(|&c| has_free_passed_pawn(board, c))) {
        return false;
    }
    if pos.is_check() && pos.count_legal() < 2 {
        return false;
    }
    Color::ALL.iter().all(|&side| king_can_step(board, side))
}

/// Whether some sequence of legal moves from `pos` reaches a position where [`quick`]
/// or [`surely_winnable`] proves one of the `wanted` colours (White, Black) able to
/// mate, with room to spare (`decided_with_room`): then that colour can mate from `pos`
/// too. Found by a depth-first search of at most
/// `max_plies` that tries captures, pawn moves and kings walking towards enemy pawns
/// first (its first line is the greedy one), within `nodes` positions. False proves
/// nothing.
///
/// Most live positions the cheap tests leave open are blocked pawn endings a king
/// opens by walking to a pawn and taking it, which leaves a passed pawn: a few plies
/// here against thousands of nodes of the helpmate search, which must find the mate
/// itself.
///
/// `lists` holds a move list per ply, kept by the caller from one question to the next.
pub(super) fn reaches_proof(
    pos: &Position,
    wanted: [bool; 2],
    max_plies: usize,
    nodes: u32,
    lists: &mut Vec<MoveList>,
) -> bool {
    if lists.len() < max_plies {
        lists.resize_with(max_plies, MoveList::new);
    }
    let lists = &mut lists[..max_plies];
    // The shallow proofs first, every line of one and two plies (a king that steps
    // aside to free the other), then the greedy line and what branches off it.
    let mut left = nodes / 4;
    if (1..=2).any(|plies| proof_below(pos, wanted, plies, lists, &mut left)) {
        return true;
    }
    let mut left = nodes - nodes / 4;
    proof_below(pos, wanted, max_plies, lists, &mut left)
}

/// Whether [`quick`] or [`surely_winnable`] proves a colour able to mate in `pos` with
/// room to spare: the side to move is not in check and each king has two squares to
/// step to. The cheap tests hold on every position of the oracle files, but a search
/// seeks out positions no file holds, and the ones where they fail are stalemate traps
/// with a king boxed in (a lone king before a pawn on the seventh rank, a king walled in
/// by enemy pieces): the margin keeps the search's leaves away from them.
fn decided_with_room(pos: &Position, wanted: [bool; 2]) -> bool {
    let board = pos.board();
    if pos.is_check() || !Color::ALL.iter().all(|&side| king_steps(board, side) >= 2) {
        return false;
    }
    // `quick` leaves a colour open only when its material can mate.
    let verdict = |color: Color| match wanted[color.index()] {
        true => quick(pos, color),
        false => Quick::Unwinnable,
    };
    match Color::ALL.map(verdict) {
        [Quick::Winnable, _] | [_, Quick::Winnable] => true,
        [Quick::Unknown, Quick::Unknown] => proves_one_of(pos, Color::ALL),
        [Quick::Unknown, _] => proves_one_of(pos, [Color::White]),
        [_, Quick::Unknown] => proves_one_of(pos, [Color::Black]),
        _ => false,
    }
}

/// The search of [`reaches_proof`] below `pos`: `plies` left, one move list per ply.
fn proof_below(
    pos: &Position,
    wanted: [bool; 2],
    plies: usize,
    lists: &mut [MoveList],
    left: &mut u32,
) -> bool {
    if *left == 0 {
        return false;
    }
    *left -= 1;
    if decided_with_room(pos, wanted) {
        return true;
    }
    let Some((list, deeper)) = lists.split_first_mut() else {
        return false;
    };
    if plies == 0 {
        return false;
    }
    pos.legal_moves_into(list);
    if list.is_empty() {
        // A mate by a colour wanted; a stalemate ends every line.
        return pos.is_check() && wanted[pos.turn().other().index()];
    }
    let board = pos.board();
    let pawns = board.by_role(Role::Pawn);
    // The moves by priority, then in the generator's order (a position has at most
    // 218 legal moves).
    let mut order = [(0u8, 0u8); 256];
    let order = &mut order[..list.len()];
    for (i, (slot, m)) in order.iter_mut().zip(list.iter()).enumerate() {
        *slot = (priority(board, pawns, m), i as u8);
    }
    order.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    order.iter().any(|&(_, i)| {
        let after = pos.play(&list[i as usize]);
        proof_below(&after, wanted, plies - 1, deeper, left)
    })
}

/// How early [`proof_below`] tries move `m`: captures of pawns (which open the
/// structure), then pawn moves, then moves to a square that attacks an enemy pawn, then
/// king steps that come closer to one, then other captures, then the rest.
fn priority(board: &Board, pawns: Bitboard, m: &Move) -> u8 {
    if m.capture() == Some(Role::Pawn) {
        return 50;
    }
    if m.role() == Role::Pawn {
        return 40;
    }
    let mover = board.color_at(m.from()).unwrap_or(Color::White);
    let targets = pawns & board.by_color(mover.other());
    let occupied = board.occupied() - m.from();
    let reach = match m.role() {
        Role::Knight => knight_attacks(m.to()),
        Role::Bishop => bishop_attacks(m.to(), occupied),
        Role::Rook => rook_attacks(m.to(), occupied),
        Role::Queen => queen_attacks(m.to(), occupied),
        _ => Bitboard::EMPTY,
    };
    if (reach & targets).any() {
        return 30;
    }
    if m.role() == Role::King {
        let nearest = |sq: Square| targets.into_iter().map(|t| distance(sq, t)).min();
        if let (Some(before), Some(after)) = (nearest(m.from()), nearest(m.to()))
            && after < before
        {
            return 20;
        }
    }
    if m.is_capture() { 10 } else { 0 }
}

/// King steps between two squares.
fn distance(a: Square, b: Square) -> u32 {
    let file = (a.file().index() as i32 - b.file().index() as i32).unsigned_abs();
    let rank = (a.rank().index() as i32 - b.rank().index() as i32).unsigned_abs();
    file.max(rank)
}

/// Whether `side`'s king has a neighbouring empty square that no enemy unit attacks
/// (sliders seen through the king).
fn king_can_step(board: &Board, side: Color) -> bool {
    let Some(king) = board.king_of(side) else {
        return false;
    };
    let occupied = board.occupied() - king;
    let mut steps = king_attacks(king) - board.occupied();
    // `Bitboard` is its own iterator; its inherent `any` asks whether it is empty.
    Iterator::any(&mut steps, |sq| {
        !board.is_attacked(sq, side.other(), occupied)
    })
}

/// How many of the squares of [`king_can_step`] `side`'s king has.
fn king_steps(board: &Board, side: Color) -> usize {
    let Some(king) = board.king_of(side) else {
        return 0;
    };
    let occupied = board.occupied() - king;
    (king_attacks(king) - board.occupied())
        .filter(|&sq| !board.is_attacked(sq, side.other(), occupied))
        .count()
}

/// Whether `color` has a pawn with no enemy pawn ahead of it on its own or a
/// neighbouring file, and an empty square in front of it.
fn has_free_passed_pawn(board: &Board, color: Color) -> bool {
    let pawns = board.by_role(Role::Pawn);
    let ours = pawns & board.by_color(color);
    let theirs = pawns & board.by_color(color.other());
    let empty = !board.occupied();
    let mut ours = ours;
    Iterator::any(&mut ours, |sq| {
        // The ranks in front of the pawn (none for a pawn a relaxed FEN sets on its
        // last rank).
        let rank = sq.rank().index() as u32;
        let ahead = match color {
            Color::White => Bitboard((!0u64).checked_shl(8 * (rank + 1)).unwrap_or(0)),
            Color::Black => Bitboard((1u64 << (8 * rank)) - 1),
        };
        let front = push(color, Bitboard::from_square(sq));
        (theirs & ahead & files_around(sq)).is_empty() && (front & empty).any()
    })
}

/// Whether a pawn can capture a unit other than a king now, or step to an empty square
/// from which it attacks an enemy pawn.
fn has_lever(board: &Board) -> bool {
    let pawns = board.by_role(Role::Pawn);
    let kings = board.by_role(Role::King);
    let empty = !board.occupied();
    Color::ALL.iter().any(|&color| {
        let ours = pawns & board.by_color(color);
        let enemy = board.by_color(color.other());
        (pawn_attacks_of(color, ours) & (enemy - kings)).any()
            || (pawn_attacks_of(color, push(color, ours) & empty) & enemy & pawns).any()
    })
}

/// The squares in front of `pawns` of `color`.
fn push(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => pawns.shift_up(),
        Color::Black => pawns.shift_down(),
    }
}

/// The squares `pawns` of `color` attack.
fn pawn_attacks_of(color: Color, pawns: Bitboard) -> Bitboard {
    let not_a = pawns - Bitboard::from_file(File::A);
    let not_h = pawns - Bitboard::from_file(File::H);
    match color {
        Color::White => Bitboard(not_a.0 << 7 | not_h.0 << 9),
        Color::Black => Bitboard(not_a.0 >> 9 | not_h.0 >> 7),
    }
}

/// The file of `sq` and its neighbours.
fn files_around(sq: Square) -> Bitboard {
    let file = Bitboard::from_file(sq.file());
    let left = Bitboard((file - Bitboard::from_file(File::A)).0 >> 1);
    let right = Bitboard((file - Bitboard::from_file(File::H)).0 << 1);
    file | left | right
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Validation;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Validation::Relaxed).unwrap()
    }

    /// The screen keeps bare and blocked material, and lets open positions with a
    /// queen or rook pass as live.
    #[test]
    fn the_screen_keeps_what_can_be_dead() {
        let kept = [
            // A queen that may have to be taken, a last pawn, two knights.
            "qK6/3k4/8/8/8/8/8/8 w - - 0 60",
            "8/8/8/8/8/3k4/3P4/3K4 w - - 0 1",
            "8/8/4k3/8/8/2N5/2N1K3/8 w - - 0 1",
            // A wall with bishops, and kings alone behind pawns.
            "8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3/8 w - - 0 1",
            "8/1k6/1p1p2p1/1P1Pp1Pp/4P2P/8/7K/8 w - - 48 72",
            // Every pawn blocked by a pawn, rooks behind.
            "r3k3/8/8/p1p1p1p1/P1P1P1P1/8/8/R3K3 w - - 0 1",
        ];
        for fen in kept {
            assert!(may_be_dead(pos(fen).board()), "{fen}");
        }
        let passed = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 1",
            "8/8/4k3/8/8/2R5/2R1K3/8 w - - 0 1",
        ];
        for fen in passed {
            assert!(!may_be_dead(pos(fen).board()), "{fen}");
        }
    }

    /// The proofs of `surely_winnable` and where they stop.
    #[test]
    fn open_positions_are_proved_winnable() {
        let cases = [
            // A pawn with its way free, kings free.
            ("8/8/8/3k4/8/8/3P4/3K4 w - - 0 1", Color::White, true),
            ("8/8/8/3k4/8/8/3P4/3K4 w - - 0 1", Color::Black, false),
            // A lever (d4-d5 against e6... here c4xd5) in a pawn ending.
            ("8/5k2/8/3p4/2P5/8/5K2/8 w - - 0 1", Color::White, true),
            // A wall: no lever, no passed pawn.
            (
                "8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3/8 w - - 0 1",
                Color::White,
                false,
            ),
            // In check with one legal move: a forced line is left to the solver.
            ("qK6/3k4/8/8/8/8/8/8 w - - 0 60", Color::Black, false),
            // A king boxed in by its own pawns.
            (
                "1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - - 0 1",
                Color::White,
                false,
            ),
        ];
        for (fen, color, expected) in cases {
            assert_eq!(
                surely_winnable(&pos(fen), color),
                expected,
                "{fen} {color:?}"
            );
        }
    }
}
