//! Legal move generation with check and pin masks, into a list, a count, or a test
//! that stops at the first legal move.

use super::{Board, CastlingError, Move, MoveList, Position};
use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
    rook_attacks, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::types::{CastlingSide, Color, Piece, Rank, Role, Square};

/// Receives generated moves: either collects them or counts them.
trait MoveSink {
    /// Non-pawn moves of `role` from `from` to every square of `targets`.
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves to `targets`, each from the square `to - delta`.
    fn pawns(&mut self, board: &Board, delta: i32, targets: Bitboard);
    /// One special move (en passant, castling).
    fn one(&mut self, m: Move);
    /// Whether generation can stop (the sink has what it needs).
    #[inline]
    fn done(&self) -> bool {
        false
    }
}

/// Stops at the first legal move.
struct AnyMove(bool);

impl MoveSink for AnyMove {
    #[inline]
    fn piece(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline]
    fn pawns(&mut self, _: &Board, _: i32, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline]
    fn one(&mut self, _: Move) {
        self.0 = true;
    }
    #[inline]
    fn done(&self) -> bool {
        self.0
    }
}

struct Counter(u64);

impl MoveSink for Counter {
    #[inline]
    fn piece(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline]
    fn pawns(&mut self, _: &Board, _: i32, targets: Bitboard) {
        self.0 += u64::from((targets - Bitboard::BACKRANKS).count())
            + 4 * u64::from((targets & Bitboard::BACKRANKS).count());
    }
    #[inline]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard) {
        // Only captures need to know what stands on the target.
        let occupied = board.occupied();
        for to in targets & occupied {
            self.push(Move::normal(role, from, board.role_at(to), to, None));
        }
        for to in targets - occupied {
            self.push(Move::normal(role, from, None, to, None));
        }
    }
    #[inline]
    fn pawns(&mut self, board: &Board, delta: i32, targets: Bitboard) {
        for to in targets {
            let from = Square::new_unchecked((to.index() as i32 - delta) as u32);
            let capture = board.role_at(to);
            if Bitboard::BACKRANKS.contains(to) {
                for promo in Role::PROMOTIONS {
                    self.push(Move::normal(Role::Pawn, from, capture, to, Some(promo)));
                }
            } else {
                self.push(Move::normal(Role::Pawn, from, capture, to, None));
            }
        }
    }
    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

/// The moves of the `role` on `from` to each square of `targets`, in the squares' order.
#[inline]
fn push_targets(list: &mut MoveList, board: &Board, role: Role, from: Square, targets: Bitboard) {
    for to in targets {
        list.push(Move::normal(role, from, board.role_at(to), to, None));
    }
}

impl Position {
    /// The en-passant square only when an en-passant capture is legal now.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut any = AnyMove(false);
        self.gen_en_passant(ep, self.checkers(), &mut any);
        any.0.then_some(ep)
    }

    /// Writes every legal move into `list` (cleared first).
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate(Bitboard::FULL, Bitboard::FULL, true, list);
    }

    /// Writes every legal move into `list` (cleared first) in the order of the `chess`
    /// crate's generator, the order the dead-position search tries them in: by role
    /// (pawn, knight, bishop, rook, queen, king), then the square left, then the square
    /// reached (for castling the rook's, as [`Move`] keeps it), promotions to a queen
    /// first, then knight, rook, bishop. Piece by piece, so that no sort is needed.
    pub(crate) fn legal_moves_ordered_into(&self, list: &mut MoveList) {
        list.clear();
        let king = self.king();
        let checkers = self.checkers;
        if checkers.more_than_one() {
            self.push_king_ordered(king, false, list);
            return;
        }
        let board = &self.board;
        let us = self.us();
        let target = match checkers.first() {
            Some(checker) => between(king, checker) | checker,
            None => !us,
        };
        let pinned = self.pinned;
        let occ = board.occupied();

        let pawns = us & board.by_role(Role::Pawn);
        if pawns.any() {
            self.push_pawns_ordered(pawns, target, list);
        }
        for from in us & (board.by_role(Role::Knight) - pinned) {
            push_targets(
                list,
                board,
                Role::Knight,
                from,
                knight_attacks(from) & target,
            );
        }
        let queens = board.by_role(Role::Queen);
        for from in us & board.by_role(Role::Bishop) {
            let mut t = bishop_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            push_targets(list, board, Role::Bishop, from, t);
        }
        for from in us & board.by_role(Role::Rook) {
            let mut t = rook_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            push_targets(list, board, Role::Rook, from, t);
        }
        for from in us & queens {
            let mut t = (bishop_attacks(from, occ) | rook_attacks(from, occ)) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            push_targets(list, board, Role::Queen, from, t);
        }
        self.push_king_ordered(king, checkers.is_empty(), list);
    }

    /// The squares of `squares` the other side attacks, our king (on `king`) taken off
    /// the board: every piece's attacks at once, where a test a square went over them
    /// all for each of the king's squares.
    #[inline]
    fn attacked_among(&self, squares: Bitboard, king: Square) -> Bitboard {
        let board = &self.board;
        let theirs = self.them();
        let occ = board.occupied().with_toggled(king);
        let pawns = theirs & board.by_role(Role::Pawn);
        let mut attacked = match self.turn {
            // Black's pawns attack down the board, White's up.
            Color::White => Bitboard(((pawns - FILE_A).0 >> 9) | ((pawns - FILE_H).0 >> 7)),
            Color::Black => Bitboard(((pawns - FILE_A).0 << 7) | ((pawns - FILE_H).0 << 9)),
        };
        for sq in theirs & board.by_role(Role::King) {
            attacked |= king_attacks(sq);
        }
        for sq in theirs & board.by_role(Role::Knight) {
            attacked |= knight_attacks(sq);
        }
        for sq in theirs & board.bishops_and_queens() {
            if (bishop_rays(sq) & squares).any() {
                attacked |= bishop_attacks(sq, occ);
            }
        }
        for sq in theirs & board.rooks_and_queens() {
            if (rook_rays(sq) & squares).any() {
                attacked |= rook_attacks(sq, occ);
            }
        }
        attacked & squares
    }

    /// The pawn moves of [`Position::legal_moves_ordered_into`], pawn by pawn.
    #[inline]
    fn push_pawns_ordered(&self, pawns: Bitboard, target: Bitboard, list: &mut MoveList) {
        let board = &self.board;
        let king = self.king();
        let empty = !board.occupied();
        let them = self.them();
        let (forward, second_rank): (i32, Bitboard) = match self.turn {
            Color::White => (8, Bitboard::from_rank(Rank::Second)),
            Color::Black => (-8, Bitboard::from_rank(Rank::Seventh)),
        };
        // The en-passant square, and the pawns that may take on it (each tested apart).
        let (ep, ep_takers) = match self.ep_square {
            Some(ep) => (
                Bitboard::from_square(ep),
                pawn_attacks(self.turn.other(), ep) & pawns,
            ),
            None => (Bitboard::EMPTY, Bitboard::EMPTY),
        };
        for from in pawns {
            let ahead = Square::new_unchecked((from.index() as i32 + forward) as u32);
            let mut t = Bitboard::EMPTY;
            if empty.contains(ahead) {
                t.add(ahead);
                if second_rank.contains(from) {
                    let two = Square::new_unchecked((ahead.index() as i32 + forward) as u32);
                    if empty.contains(two) {
                        t.add(two);
                    }
                }
            }
            t |= pawn_attacks(self.turn, from) & them;
            t &= target;
            if self.pinned.contains(from) {
                t &= line(king, from);
            }
            let mut ep_move = Bitboard::EMPTY;
            if ep_takers.contains(from) {
                let mut any = AnyMove(false);
                self.gen_en_passant_from(
                    ep.first().expect("an en-passant square"),
                    Bitboard::from_square(from),
                    self.checkers,
                    &mut any,
                );
                if any.0 {
                    ep_move = ep;
                }
            }
            for to in t | ep_move {
                if ep_move.contains(to) {
                    list.push(Move::en_passant(from, to));
                    continue;
                }
                let capture = board.role_at(to);
                if Bitboard::BACKRANKS.contains(to) {
                    for promo in [Role::Queen, Role::Knight, Role::Rook, Role::Bishop] {
                        list.push(Move::normal(Role::Pawn, from, capture, to, Some(promo)));
                    }
                } else {
                    list.push(Move::normal(Role::Pawn, from, capture, to, None));
                }
            }
        }
    }

    /// The king moves of [`Position::legal_moves_ordered_into`], castling (when
    /// `castles`) in the place of the rook's square.
    #[inline]
    fn push_king_ordered(&self, king: Square, castles: bool, list: &mut MoveList) {
        let board = &self.board;
        let candidates = king_attacks(king) - self.us();
        let targets = candidates - self.attacked_among(candidates, king);
        let mut castling = [None; 2];
        let mut rooks = Bitboard::EMPTY;
        if castles {
            let color = self.turn;
            for (i, rook) in (self.castling_rights & Bitboard::from_rank(color.back_rank()))
                .into_iter()
                .take(2)
                .enumerate()
            {
                let side = if rook.file() > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                if let Ok(m) = self.castle_unchecked_by_check(king, rook, side) {
                    castling[i] = Some(m);
                    rooks.add(rook);
                }
            }
        }
        if rooks.is_empty() {
            push_targets(list, board, Role::King, king, targets);
            return;
        }
        for to in targets | rooks {
            if rooks.contains(to) {
                list.push(
                    castling
                        .iter()
                        .flatten()
                        .find(|m| m.to == to)
                        .copied()
                        .expect("a castling move"),
                );
            } else {
                list.push(Move::normal(Role::King, king, board.role_at(to), to, None));
            }
        }
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Legal moves of `role` from a square in `from` to `to`, without
    /// generating any other move. Castling is not included (it is found by
    /// [`Position::castle_if_legal`]).
    pub fn legal_moves_to(&self, role: Role, from: Bitboard, to: Square, list: &mut MoveList) {
        list.clear();
        let from = from & self.our(role);
        self.generate(from, Bitboard::from_square(to), false, list);
    }

    /// The number of legal moves (faster than listing them).
    pub fn count_legal(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(Bitboard::FULL, Bitboard::FULL, true, &mut c);
        c.0
    }

    /// Whether the side to move has at least one legal move (stops at the
    /// first one found).
    #[inline]
    pub fn has_legal_moves(&self) -> bool {
        // Nearly every position has a free pawn push or knight move: when not in check,
        // an unpinned pawn with an empty square ahead, or an unpinned knight with a
        // square to go to, settles it at once. This part is inlined into the callers
        // (one call a ply); the rest is a function of its own.
        if self.checkers.is_empty() {
            let us = self.us();
            let free = us - self.pinned;
            let pawns = free & self.board.by_role(Role::Pawn);
            let ahead = match self.turn {
                Color::White => pawns.shift_up(),
                Color::Black => pawns.shift_down(),
            };
            if (ahead - self.board.occupied()).any() {
                return true;
            }
            for knight in free & self.board.by_role(Role::Knight) {
                if (knight_attacks(knight) - us).any() {
                    return true;
                }
            }
        }
        self.has_legal_moves_slow()
    }

    /// [`Position::has_legal_moves`] when no pawn push or knight move settles it.
    #[inline(never)]
    fn has_legal_moves_slow(&self) -> bool {
        if self.checkers.is_empty() {
            // Not in check: an unpinned slider with a square to go to settles it,
            // before the move generator's pawns.
            let us = self.us();
            let occ = self.board.occupied();
            let free = us - self.pinned;
            for from in free & self.board.rooks_and_queens() {
                if (rook_attacks(from, occ) - us).any() {
                    return true;
                }
            }
            for from in free & self.board.bishops_and_queens() {
                if (bishop_attacks(from, occ) - us).any() {
                    return true;
                }
            }
        } else {
            // In check, the king nearly always has a square to step to.
            let king = self.king();
            let them = self.turn.other();
            let occ = self.board.occupied().with_toggled(king);
            for to in king_attacks(king) - self.us() {
                if !self.board.is_attacked(to, them, occ) {
                    return true;
                }
            }
        }
        let mut any = AnyMove(false);
        self.generate(Bitboard::FULL, Bitboard::FULL, true, &mut any);
        any.0
    }

    fn generate<S: MoveSink>(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        castles: bool,
        sink: &mut S,
    ) {
        let king = self.king();
        let checkers = self.checkers();
        let us = self.us();
        let board = &self.board;

        if checkers.more_than_one() {
            if from_mask.contains(king) {
                self.gen_king(king, to_mask, sink);
            }
            return;
        }
        let target = match checkers.first() {
            Some(checker) => (between(king, checker) | checker) & to_mask,
            None => !us & to_mask,
        };
        let pinned = self.pinned();
        let occ = board.occupied();

        let pieces = us & from_mask;
        let pawns = pieces & board.by_role(Role::Pawn);
        if pawns.any() {
            self.gen_pawns(pawns, pinned, target, king, sink);
            if sink.done() {
                return;
            }
        }
        for from in pieces & (board.by_role(Role::Knight) - pinned) {
            sink.piece(board, Role::Knight, from, knight_attacks(from) & target);
        }
        if sink.done() {
            return;
        }
        for from in pieces & board.bishops_and_queens() {
            let role = if board.by_role(Role::Queen).contains(from) {
                Role::Queen
            } else {
                Role::Bishop
            };
            let mut t = bishop_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            if role == Role::Queen {
                t |= {
                    let mut r = rook_attacks(from, occ) & target;
                    if pinned.contains(from) {
                        r &= line(king, from);
                    }
                    r
                };
            }
            sink.piece(board, role, from, t);
        }
        for from in pieces & board.by_role(Role::Rook) {
            let mut t = rook_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            sink.piece(board, Role::Rook, from, t);
        }

        if pawns.any()
            && let Some(ep) = self.ep_square
            && to_mask.contains(ep)
        {
            self.gen_en_passant_from(ep, pawns, checkers, sink);
        }

        // The king last: each of its targets needs an attack test.
        if sink.done() {
            return;
        }
        if from_mask.contains(king) {
            self.gen_king(king, to_mask, sink);
        }
        if castles && checkers.is_empty() && from_mask.contains(king) {
            let color = self.turn;
            for rook in self.castling_rights & Bitboard::from_rank(color.back_rank()) {
                let side = if rook.file() > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                if let Ok(m) = self.castle_unchecked_by_check(king, rook, side) {
                    sink.one(m);
                }
            }
        }
    }

    /// Castling with `rook` on `side`, when the king is known not to be in
    /// check: the cheap test (path empty) first, attacked squares last.
    #[inline]
    fn castle_unchecked_by_check(
        &self,
        king: Square,
        rook: Square,
        side: CastlingSide,
    ) -> Result<Move, CastlingError> {
        let color = self.turn;
        let king_to = side.king_to(color);
        let rook_to = side.rook_to(color);
        let path = (between(king, king_to) | king_to | between(rook, rook_to) | rook_to)
            - Bitboard::from_square(king)
            - Bitboard::from_square(rook);
        if (self.board.occupied() & path).any() {
            return Err(CastlingError::PathBlocked);
        }
        let occ = self.board.occupied().with_toggled(king).with_toggled(rook);
        let them = color.other();
        for sq in between(king, king_to) | king_to {
            if self.board.is_attacked(sq, them, occ) {
                return Err(CastlingError::ThroughCheck);
            }
        }
        Ok(Move::castle(king, rook, side))
    }

    fn gen_king<S: MoveSink>(&self, king: Square, to_mask: Bitboard, sink: &mut S) {
        let board = &self.board;
        let them = self.turn.other();
        let occ = board.occupied().with_toggled(king);
        let mut targets = Bitboard::EMPTY;
        for to in king_attacks(king) & !self.us() & to_mask {
            if !board.is_attacked(to, them, occ) {
                targets.add(to);
            }
        }
        sink.piece(board, Role::King, king, targets);
    }

    fn gen_pawns<S: MoveSink>(
        &self,
        pawns: Bitboard,
        pinned: Bitboard,
        target: Bitboard,
        king: Square,
        sink: &mut S,
    ) {
        let board = &self.board;
        let empty = !board.occupied();
        let them = self.them();
        let (forward, third_rank): (i32, Bitboard) = match self.turn {
            Color::White => (8, Bitboard::from_rank(Rank::Third)),
            Color::Black => (-8, Bitboard::from_rank(Rank::Sixth)),
        };
        let shift = |b: Bitboard, by: i32| {
            if by > 0 {
                Bitboard(b.0 << by)
            } else {
                Bitboard(b.0 >> -by)
            }
        };

        // Unpinned pawns move as a set.
        let free = pawns - pinned;
        let single = shift(free, forward) & empty;
        sink.pawns(board, forward, single & target);
        let double = shift(single & third_rank, forward) & empty & target;
        sink.pawns(board, 2 * forward, double);
        let west = shift(free - FILE_A, forward - 1) & them & target;
        sink.pawns(board, forward - 1, west);
        let east = shift(free - FILE_H, forward + 1) & them & target;
        sink.pawns(board, forward + 1, east);

        // Pinned pawns move only along the pin line, one at a time.
        for from in pawns & pinned {
            let pin_line = line(king, from);
            let bb = Bitboard::from_square(from);
            let single = shift(bb, forward) & empty;
            sink.pawns(board, forward, single & target & pin_line);
            let double = shift(single & third_rank, forward) & empty & target & pin_line;
            sink.pawns(board, 2 * forward, double);
            let west = shift(bb - FILE_A, forward - 1) & them & target & pin_line;
            sink.pawns(board, forward - 1, west);
            let east = shift(bb - FILE_H, forward + 1) & them & target & pin_line;
            sink.pawns(board, forward + 1, east);
        }
    }

    fn gen_en_passant<S: MoveSink>(&self, ep: Square, checkers: Bitboard, sink: &mut S) {
        let pawns = self.our(Role::Pawn);
        self.gen_en_passant_from(ep, pawns, checkers, sink);
    }

    fn gen_en_passant_from<S: MoveSink>(
        &self,
        ep: Square,
        pawns: Bitboard,
        checkers: Bitboard,
        sink: &mut S,
    ) {
        let board = &self.board;
        let Some(captured) = ep.offset(if self.turn == Color::White { -8 } else { 8 }) else {
            return;
        };
        if checkers.more_than_one()
            || !board
                .by_piece(Piece {
                    color: self.turn.other(),
                    role: Role::Pawn,
                })
                .contains(captured)
        {
            return;
        }
        let king = self.king();
        for from in pawn_attacks(self.turn.other(), ep) & pawns {
            // Simulate the capture and test the king directly: this covers
            // pins along the rank through both pawns and checks by the pawn.
            let occ = (board.occupied().with_toggled(from).with_toggled(captured)) | ep;
            let them = self.them().with_toggled(captured);
            let attacked = them
                & ((rook_attacks(king, occ) & board.rooks_and_queens())
                    | (bishop_attacks(king, occ) & board.bishops_and_queens())
                    | (knight_attacks(king) & board.by_role(Role::Knight))
                    | (pawn_attacks(self.turn, king) & board.by_role(Role::Pawn)));
            if attacked.is_empty() {
                sink.one(Move::en_passant(from, ep));
            }
        }
    }

    /// The castling move on `side` if it is legal now.
    pub fn castle_if_legal(&self, side: CastlingSide) -> Option<Move> {
        self.castling_obstacle(side).ok()
    }

    /// The castling move on `side`, or why it is not legal now.
    ///
    /// # Errors
    ///
    /// The first reason found, in the order: no right, in check, path
    /// blocked, a square the king crosses or reaches is attacked.
    pub fn castling_obstacle(&self, side: CastlingSide) -> Result<Move, CastlingError> {
        let color = self.turn;
        let rook = self
            .castling_rook(color, side)
            .ok_or(CastlingError::NoRight)?;
        if self.is_check() {
            return Err(CastlingError::InCheck);
        }
        self.castle_unchecked_by_check(self.king(), rook, side)
    }

    /// Whether `m` is legal here (a move produced by the generator for this
    /// position always is).
    pub fn is_legal(&self, m: &Move) -> bool {
        self.legal_moves().contains(m)
    }
}
