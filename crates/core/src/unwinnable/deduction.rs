//! Static deduction: proofs that White can never mate, without playing a move.
//!
//! [`Analysis`] over-approximates where every piece may ever stand (`reachable`) and
//! derives, from that and from each other, a handful of sets: the pieces that will
//! never move nor be captured (`steady`), the squares no piece will ever enter
//! (`clear`), the squares a colour will always attack, the pieces that may be captured,
//! and so on. Each set is documented as an over- or an under-approximation; the
//! guarantee holds only once [`Analysis::saturate`] has reached its fixpoint (each
//! `reachable` set only grows, so it does). Then [`Analysis::black_could_get_mated`]
//! asks whether some square exists where Black's king could stand mated; when none
//! does, White cannot win. [`is_statically_unwinnable`] reruns the analysis under case
//! splits on the fate of pieces that are steady but capturable.
//!
//! Deduction only ever proves "unwinnable"; an answer of "maybe" is no proof of
//! anything. Written for White as the side that mates.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::position::{Board, Position};
use crate::types::{Color, Role, Square};

/// Whether static deduction proves that White can never mate from `pos`: the analysis
/// finds no square where Black's king could be mated, either outright or in every case
/// of a split on the pieces that are steady but may be captured (such a piece is either
/// never captured while it stands still, or captured only there).
pub fn is_statically_unwinnable(pos: &Position) -> bool {
    // An en-passant capture is a move the analysis does not model.
    if pos.legal_ep_square().is_some() {
        return false;
    }
    let white = pos.board().by_color(Color::White);
    let mut analysis = Analysis::new(pos);
    if white.count() == 2 {
        // White's last piece besides the king: if it were ever captured, White could
        // not mate, so the cases where it is may be left out.
        analysis.uncapturable_while_steady = white - pos.board().by_role(Role::King);
    }
    analysis.saturate();
    if !analysis.black_could_get_mated() {
        return true;
    }

    let split = analysis.first_steady_capturable;
    let mated_if = |uncapturable: Bitboard, capturable_only_steady: Bitboard| {
        let mut analysis = Analysis::new(pos);
        analysis.uncapturable_while_steady = uncapturable;
        analysis.capturable_only_while_steady = capturable_only_steady;
        analysis.saturate();
        analysis.black_could_get_mated()
    };
    for sq in split {
        let sq = Bitboard::from_square(sq);
        if mated_if(sq, Bitboard::EMPTY) {
            continue;
        }
        if !mated_if(Bitboard::EMPTY, sq) {
            return true;
        }
    }
    if split.count() == 2 {
        let first = Bitboard::from_square(split.first().unwrap_or(Square::A1));
        let second = split - first;
        return !(mated_if(split, Bitboard::EMPTY)
            || mated_if(first, second)
            || mated_if(second, first)
            || mated_if(Bitboard::EMPTY, split));
    }
    false
}

/// The state of one static analysis. Every field but the assumptions is either an
/// over-approximation (what is absent truly lacks the property) or an
/// under-approximation (what is present truly has it), valid once saturated.
#[derive(Clone, Debug)]
pub struct Analysis {
    board: Board,
    /// Over-approximation: `reachable[s]` holds every square the piece now on `s` may
    /// ever stand on (`s` included).
    reachable: [Bitboard; 64],
    /// Under-approximation: pieces that will never move nor be captured.
    steady: Bitboard,
    /// Under-approximation: squares no piece will ever enter.
    clear: Bitboard,
    /// Under-approximation: squares each colour will attack for the rest of the game.
    attacked: [Bitboard; 2],
    /// Over-approximation: pieces that may be captured.
    capturable: Bitboard,
    /// Over-approximation: pieces that may leave their square.
    movable: Bitboard,
    /// Over-approximation: squares each colour's pieces other than bishops may reach.
    reachable_by_non_bishop: [Bitboard; 2],
    /// Over-approximation: squares where each colour may offer a piece (not its king)
    /// for capture.
    sacrificable: [Bitboard; 2],
    /// An assumption of the case split: these pieces are not captured while steady.
    uncapturable_while_steady: Bitboard,
    /// An assumption of the case split: these pieces never move, and are captured, if
    /// at all, where they stand.
    capturable_only_while_steady: Bitboard,
    /// The first pieces found steady and capturable (gathered until a promotion is
    /// found possible): the candidates of the case split, neither over- nor
    /// under-approximation, never a proof by itself.
    first_steady_capturable: Bitboard,
    /// Over-approximation: whether any pawn may promote.
    promotable: bool,
}

impl Analysis {
    /// The analysis of `pos` before saturation: every piece on its square.
    pub fn new(pos: &Position) -> Analysis {
        let board = *pos.board();
        let occupied = board.occupied();
        let mut reachable = [Bitboard::EMPTY; 64];
        for sq in occupied {
            reachable[sq.index()] = Bitboard::from_square(sq);
        }
        let mut analysis = Analysis {
            board,
            reachable,
            steady: occupied,
            clear: !occupied,
            attacked: [Bitboard::EMPTY; 2],
            capturable: Bitboard::EMPTY,
            movable: Bitboard::EMPTY,
            reachable_by_non_bishop: [Bitboard::EMPTY; 2],
            sacrificable: [Bitboard::EMPTY; 2],
            uncapturable_while_steady: Bitboard::EMPTY,
            capturable_only_while_steady: Bitboard::EMPTY,
            first_steady_capturable: Bitboard::EMPTY,
            promotable: false,
        };
        analysis.update_attacked();
        analysis
    }

    /// The pieces proved never to move nor be captured (after [`Analysis::saturate`]).
    pub fn steady(&self) -> Bitboard {
        self.steady
    }

    /// The squares proved never to be entered (after [`Analysis::saturate`]).
    pub fn clear(&self) -> Bitboard {
        self.clear
    }

    /// The squares `color` is proved to attack for the rest of the game (after
    /// [`Analysis::saturate`]).
    pub fn attacked(&self, color: Color) -> Bitboard {
        self.attacked[color.index()]
    }

    /// The pieces that may be captured: no piece outside this set ever is (after
    /// [`Analysis::saturate`]).
    pub fn capturable(&self) -> Bitboard {
        self.capturable
    }

    fn role(&self, sq: Square) -> Role {
        self.board.role_at(sq).unwrap_or(Role::Pawn)
    }

    fn color(&self, sq: Square) -> Color {
        self.board.color_at(sq).unwrap_or(Color::White)
    }

    fn king(&self, color: Color) -> Bitboard {
        self.board.by_role(Role::King) & self.board.by_color(color)
    }

    /// Recomputes the squares each colour will always attack, from the pieces that are
    /// never captured: a square counts when the piece attacks it from every square it
    /// may stand on.
    fn update_attacked(&mut self) {
        self.attacked = [Bitboard::EMPTY; 2];
        for sq in self.board.occupied() - self.capturable {
            let role = self.role(sq);
            let color = self.color(sq);
            let mut obstacles = !self.clear;
            if role == Role::Bishop {
                // Bishops of one colour never block each other's rays when no other
                // piece of theirs and no enemy piece can ever stand where they stand:
                // only such a bishop can be there, and it attacks along the same ray.
                obstacles = obstacles
                    - (self.board.by_color(color)
                        & self.board.by_role(Role::Bishop)
                        & !self.reachable_by_non_bishop[color.index()]
                        & !self.capturable);
            }
            let mut attacked = Bitboard::FULL;
            for from in self.reachable[sq.index()] {
                attacked &= attacks(role, color, from, obstacles);
            }
            self.attacked[color.index()] |= attacked;
        }
    }

    /// Grows every set to its fixpoint: each pass lets every piece take every step its
    /// moves allow from every square it may reach, unless a rule rules it out
    /// (`filter_targets`), and derives the other sets from the result.
    pub fn saturate(&mut self) {
        let white_count = self.board.by_color(Color::White).count();
        let kings = self.board.by_role(Role::King);
        loop {
            let mut progress = false;
            for sq in self.board.occupied() {
                let role = self.role(sq);
                let color = self.color(sq);
                for from in self.reachable[sq.index()] {
                    let mut targets = moves(role, color, from, self.steady);
                    // A White pawn may capture wherever Black can offer a piece, and a
                    // Black pawn may, unless White's last piece would be the one taken.
                    if role == Role::Pawn && (color == Color::White || white_count > 2) {
                        targets |=
                            pawn_attacks(color, from) & self.sacrificable[color.other().index()];
                    }
                    let targets = self.filter_targets(sq, role, color, from, targets);
                    self.grow_reachable(sq, role, color, targets, &mut progress);
                    if (targets - sq).any() {
                        update(&mut self.movable, |v| v | sq, &mut progress);
                    }
                }
                let reachable = self.reachable[sq.index()];
                if (reachable - sq).any() {
                    update(&mut self.steady, |v| v - sq, &mut progress);
                }

                // The enemy pieces (not kings; for a pawn, not on its file, which it
                // cannot capture on) whose squares this piece may reach.
                let mut capturable = Bitboard::EMPTY;
                let mut victims = self.board.by_color(color.other()) - kings;
                if role == Role::Pawn {
                    victims = victims - Bitboard::from_file(sq.file());
                }
                if color == Color::White || white_count > 2 {
                    for victim in victims {
                        if (reachable & self.reachable[victim.index()]).any() {
                            capturable |= victim;
                        }
                    }
                }
                self.grow_capturable(capturable, &mut progress);
                // A piece this one may reach (by capturing it) is not steady.
                update(
                    &mut self.steady,
                    |v| v - ((reachable - sq) - kings),
                    &mut progress,
                );
                update(&mut self.clear, |v| v - reachable, &mut progress);
                if role != Role::King {
                    let i = color.index();
                    update(&mut self.sacrificable[i], |v| v | reachable, &mut progress);
                }
                // A pawn that may promote may then go anywhere, but through its own
                // steady pieces and steady kings.
                if role == Role::Pawn && (reachable & Bitboard::BACKRANKS).any() {
                    self.promotable = true;
                    let closed = self.steady & (self.board.by_color(color) | kings);
                    self.grow_reachable(sq, role, color, !closed, &mut progress);
                }
            }
            self.update_attacked();
            if !progress {
                break;
            }
        }
    }

    fn grow_reachable(
        &mut self,
        sq: Square,
        role: Role,
        color: Color,
        targets: Bitboard,
        progress: &mut bool,
    ) {
        let i = sq.index();
        update(&mut self.reachable[i], |v| v | targets, progress);
        if role != Role::Bishop {
            let c = color.index();
            update(
                &mut self.reachable_by_non_bishop[c],
                |v| v | targets,
                progress,
            );
        }
    }

    fn grow_capturable(&mut self, capturable: Bitboard, progress: &mut bool) {
        let steady = capturable & self.steady;
        if steady.any() && (self.first_steady_capturable.is_empty() || !self.promotable) {
            self.first_steady_capturable |= steady;
        }
        update(&mut self.capturable, |v| v | capturable, progress);
    }

    /// Removes from `targets` (the squares the piece that started on `start`, now on
    /// `from`, might step to) the ones the structure rules out.
    fn filter_targets(
        &self,
        start: Square,
        role: Role,
        color: Color,
        from: Square,
        mut targets: Bitboard,
    ) -> Bitboard {
        let them = color.other();
        let occupied = self.board.occupied();
        let obstacles = !self.clear;
        targets = targets - self.reachable[start.index()];
        // Never onto a steady piece of its own.
        targets = targets - (self.board.by_color(color) & self.steady);
        // A king never steps onto a square the enemy always attacks.
        if role == Role::King {
            targets = targets - self.attacked[them.index()];
        }

        let white_king = self.king(Color::White);
        let black_king = self.king(Color::Black);
        if color == Color::Black && (white_king & self.steady).any() {
            // Black never checks a White king that cannot move: White would have to
            // capture the checker, and a square where White can never have a piece
            // to do so makes the check a mate of White, ending the game.
            for t in targets {
                if (white_king & attacks(role, color, t, obstacles)).any()
                    && !self.sacrificable[Color::White.index()].contains(t)
                {
                    targets.discard(t);
                }
            }
            // Nor by uncovering a steady Black piece's line onto it.
            let king_sq = white_king.first().unwrap_or(Square::A1);
            let blockers = obstacles - from;
            let checkers =
                (self.board.by_color(Color::Black) & self.steady & line(king_sq, from)) - from;
            for t in targets {
                for checker in checkers {
                    let through = attacks(self.role(checker), Color::Black, checker, blockers | t);
                    if (through & white_king).any() {
                        targets.discard(t);
                        break;
                    }
                }
            }
        }

        // White's last piece does not give check next to a steady Black king that would
        // take it, leaving White bare, unless White's king may cover that square (it
        // could then be mate) and no steady Black piece guards it.
        if color == Color::White && self.board.by_color(Color::White).count() == 2 {
            let white_king_sq = white_king.first().unwrap_or(Square::A1);
            for t in targets {
                if (self.reachable[white_king_sq.index()] & king_attacks(t)).any() {
                    let guards = self.steady & (self.board.by_color(Color::Black) - black_king);
                    let guarded = any_square(guards, |guard| {
                        attacks(self.role(guard), Color::Black, guard, obstacles).contains(t)
                    });
                    if !guarded {
                        continue;
                    }
                }
                if (black_king & self.steady).any()
                    && (attacks(role, color, t, obstacles) & black_king & king_attacks(t)).any()
                {
                    targets.discard(t);
                }
            }
        }

        // A king does not step where it would leave an enemy king, whose side can
        // move nothing else, at most one free square: that is stalemate (unless the
        // step uncovers a slider's line, which may give check instead). Only for kings,
        // whose attacks are exact wherever they stand.
        if role == Role::King {
            let theirs = self.board.by_color(them);
            let their_king = self.king(them);
            let only_king_moves = ((theirs - their_king) & self.movable).is_empty();
            if only_king_moves {
                let their_king_sq = their_king.first().unwrap_or(Square::A1);
                let region = self.reachable[their_king_sq.index()]
                    | (king_attacks(their_king_sq) - self.attacked[color.index()] - self.steady);
                let ours = self.board.by_color(color);
                let diagonal = ours & self.board.bishops_and_queens();
                let straight = ours & self.board.rooks_and_queens();
                for t in targets {
                    let covered = king_attacks(t) | t;
                    if (king_attacks(their_king_sq) & covered).is_empty() {
                        continue;
                    }
                    let blockers = obstacles | t;
                    let diagonals = bishop_attacks(from, blockers) - blockers;
                    if any_square(diagonal, |s| (self.reachable[s.index()] & diagonals).any()) {
                        continue;
                    }
                    let lines = rook_attacks(from, blockers) - blockers;
                    if any_square(straight, |s| (self.reachable[s.index()] & lines).any()) {
                        continue;
                    }
                    if (region - covered).count() <= 1 {
                        targets.discard(t);
                    }
                }
            }
        }

        // No way through a piece that can neither get out of the way nor be captured.
        for t in targets {
            let way = between(from, t) | from | t;
            for obstacle in (occupied & way) - start - self.capturable {
                let mut real_way = way;
                // An enemy piece may stand on the target (to be captured there), except
                // a pawn in front of a pawn pushing on its file.
                if self.color(obstacle) != color
                    && (self.role(obstacle) != Role::Pawn
                        || role != Role::Pawn
                        || from.file() != t.file())
                {
                    real_way.discard(obstacle);
                }
                // A pawn that never leaves its file cannot get past a pawn on it.
                if role == Role::Pawn
                    && self.role(obstacle) == Role::Pawn
                    && (self.reachable[start.index()] - Bitboard::from_file(t.file())).is_empty()
                {
                    real_way |= line(start, obstacle);
                }
                if (self.reachable[obstacle.index()] - real_way).is_empty() {
                    targets.discard(t);
                }
            }
        }
        targets = targets - (self.uncapturable_while_steady & self.steady);
        if self.capturable_only_while_steady.contains(start) {
            targets = Bitboard::EMPTY;
        }
        targets
    }

    /// Whether some square exists where Black's king could stand mated: a square of
    /// its region that a White piece other than the king may attack, with every
    /// escape square either blockable by Black's own pieces or coverable by White's
    /// king from one square. False is a proof that White cannot mate; true is not
    /// proof of anything. Call after [`Analysis::saturate`].
    pub fn black_could_get_mated(&self) -> bool {
        let white_king = self.king(Color::White).first().unwrap_or(Square::A1);
        let white_king_region = self.reachable[white_king.index()];
        let black_king = self.king(Color::Black).first().unwrap_or(Square::A1);
        let region = self.reachable[black_king.index()];

        let (visitors, visited) = self.visitors(region);
        if visitors.is_empty() {
            return false;
        }
        for mating_square in visited {
            let escapes = king_attacks(mating_square) & (region - visited);
            let (blockers, blockable) = self.blockers(escapes);
            let n = blockers.count().min(blockable.count());
            let mut mated = false;
            for_each_subset_of_size(blockable, n, |blocked| {
                let remaining = escapes - blocked;
                if remaining.is_empty() {
                    mated = true;
                    return;
                }
                let mut near = Bitboard::EMPTY;
                for sq in remaining {
                    near |= king_attacks(sq);
                }
                let candidates =
                    (near - mating_square - king_attacks(mating_square)) & white_king_region;
                if any_square(candidates, |k| (king_attacks(k) & remaining) == remaining) {
                    mated = true;
                }
            });
            if mated {
                return true;
            }
        }
        false
    }

    /// White's pieces other than the king that may move and may attack a square of
    /// `region`, and the squares of `region` they may attack.
    fn visitors(&self, region: Bitboard) -> (Bitboard, Bitboard) {
        let mut visitors = Bitboard::EMPTY;
        let mut visited = Bitboard::EMPTY;
        let white = self.board.by_color(Color::White) - self.board.by_role(Role::King);
        for sq in white {
            let reachable = self.reachable[sq.index()];
            if reachable == Bitboard::from_square(sq) {
                continue;
            }
            let role = self.role(sq);
            for from in reachable {
                let hit = region & attacks(role, Color::White, from, !self.clear);
                if hit.any() {
                    visitors |= sq;
                    visited |= hit;
                }
            }
        }
        (visitors, visited)
    }

    /// Black's pieces other than the king that may reach a square of `region`, and the
    /// squares of `region` they may reach.
    fn blockers(&self, region: Bitboard) -> (Bitboard, Bitboard) {
        let mut blockers = Bitboard::EMPTY;
        let mut blockable = Bitboard::EMPTY;
        for sq in self.board.by_color(Color::Black) - self.board.by_role(Role::King) {
            let hit = region & self.reachable[sq.index()];
            if hit.any() {
                blockers |= sq;
                blockable |= hit;
            }
        }
        (blockers, blockable)
    }
}

/// Whether a square of `set` satisfies `pred` (`Bitboard::any` names the set's own
/// emptiness test, which hides the iterator's).
fn any_square(set: Bitboard, pred: impl FnMut(Square) -> bool) -> bool {
    let mut set = set;
    Iterator::any(&mut set, pred)
}

fn update(field: &mut Bitboard, f: impl FnOnce(Bitboard) -> Bitboard, progress: &mut bool) {
    let value = f(*field);
    if *field != value {
        *field = value;
        *progress = true;
    }
}

/// Calls `f` with every subset of `set` that has exactly `n` squares (`set` holds at
/// most the eight squares around a king).
fn for_each_subset_of_size(set: Bitboard, n: u32, mut f: impl FnMut(Bitboard)) {
    // Every submask of `set`, by the usual (s - 1) & set walk down from `set` itself.
    let mut sub = set.0;
    loop {
        if sub.count_ones() == n {
            f(Bitboard(sub));
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & set.0;
    }
}

/// The squares a piece may move to (pawns: pushes only, a push blocked by anything in
/// `blockers`, the double push from the start rank).
fn moves(role: Role, color: Color, sq: Square, blockers: Bitboard) -> Bitboard {
    match role {
        Role::King => king_attacks(sq),
        Role::Queen => rook_attacks(sq, blockers) | bishop_attacks(sq, blockers),
        Role::Rook => rook_attacks(sq, blockers),
        Role::Bishop => bishop_attacks(sq, blockers),
        Role::Knight => knight_attacks(sq),
        Role::Pawn => pawn_pushes(color, sq, blockers),
    }
}

fn pawn_pushes(color: Color, sq: Square, blockers: Bitboard) -> Bitboard {
    let bb = Bitboard::from_square(sq);
    let (single, start_rank) = match color {
        Color::White => (bb.shift_up(), 1),
        Color::Black => (bb.shift_down(), 6),
    };
    // A pawn on its last rank has no push (it has promoted in any real game).
    if single.is_empty() || (single & blockers).any() {
        return Bitboard::EMPTY;
    }
    let mut pushes = single;
    if sq.rank().index() == start_rank {
        let double = match color {
            Color::White => single.shift_up(),
            Color::Black => single.shift_down(),
        };
        pushes |= double - blockers;
    }
    pushes
}

/// The squares a piece attacks (a king's own square counted: a square next to or under
/// the king is closed to the enemy king).
fn attacks(role: Role, color: Color, sq: Square, blockers: Bitboard) -> Bitboard {
    match role {
        Role::King => king_attacks(sq) | sq,
        Role::Pawn => pawn_attacks(color, sq),
        _ => moves(role, color, sq, blockers),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Validation;

    fn unwinnable(fen: &str) -> bool {
        let pos = Position::from_fen(&format!("{fen} w - - 0 1"), Validation::Relaxed)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        is_statically_unwinnable(&pos)
    }

    /// Positions whose fate deduction decides (from chasolver's hand-checked cases):
    /// walls of pawns, bishops of one colour behind them, pieces that cannot get out.
    #[test]
    fn deduction_decides_blocked_structures() {
        let dead = [
            "8/1p6/kPp3p1/2P3p1/1pP3Pb/1P4p1/6P1/7K",
            "4K3/8/8/8/8/p1p2p1p/P1pppp1P/bnrqkrnb",
            "k7/6p1/6P1/p1p1p1PK/P1P1P1P1/6PR/7P/8",
            "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3",
            "B2b4/8/4k3/8/1p1p1p1p/1PpP1P1P/K1P4b/RB6",
        ];
        for fen in dead {
            assert!(unwinnable(fen), "{fen}");
        }
        let maybe = [
            "4K3/8/8/8/8/p1p2p2/P1pppp2/bnrqkrnb",
            "7k/8/1p6/1Pp5/2Pp4/pB1Pp1p1/P1B1P1P1/3B2K1",
            "2b5/1p6/pPp3k1/2Pp3p/P2PpBpP/4P1P1/5K2/8",
        ];
        for fen in maybe {
            assert!(!unwinnable(fen), "{fen}");
        }
    }
}
