//! Finding the legal move a SAN names, and why there is none.

use super::{Forms, San, SanKind};
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::position::{CastlingError, Move, MoveList, Position};
use crate::types::{CastlingSide, Color, File, Rank, Role, Square};
use std::fmt;

/// Why a written move is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The side to move has no piece of that kind.
    NoPiece(Role),
    /// No piece of that kind (matching the written departure file or rank)
    /// can reach the square.
    NoPieceReaches(Role, Square),
    /// The destination holds a piece of the side to move.
    OwnPieceOnTarget(Square),
    /// A pawn capture to an empty square (and not en passant).
    NothingToCapture(Square),
    /// The move would leave the king in check (a pinned piece moving off
    /// its line).
    LeavesKingInCheck,
    /// The king would move onto an attacked square.
    KingIntoCheck(Square),
    /// The king is in check and the move does not answer it.
    DoesNotAnswerCheck,
    /// Castling is not legal now.
    Castling(CastlingError),
    /// A pawn reaching the last rank without a promotion piece.
    MissingPromotion,
    /// A promotion piece on a move that does not reach the last rank.
    NotAPromotion,
    /// A null move while in check.
    NullMoveInCheck,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::NoPiece(role) => {
                write!(f, "no {} of the side to move on the board", role.name())
            }
            IllegalReason::NoPieceReaches(role, sq) => {
                write!(f, "no {} can reach {sq}", role.name())
            }
            IllegalReason::OwnPieceOnTarget(sq) => {
                write!(f, "{sq} is occupied by a piece of the side to move")
            }
            IllegalReason::NothingToCapture(sq) => write!(f, "nothing to capture on {sq}"),
            IllegalReason::LeavesKingInCheck => {
                f.write_str("the move would leave the king in check")
            }
            IllegalReason::KingIntoCheck(sq) => write!(f, "the king would move into check on {sq}"),
            IllegalReason::DoesNotAnswerCheck => {
                f.write_str("the king is in check and the move does not answer it")
            }
            IllegalReason::Castling(e) => e.fmt(f),
            IllegalReason::MissingPromotion => {
                f.write_str("a pawn reaching the last rank must promote")
            }
            IllegalReason::NotAPromotion => {
                f.write_str("only a pawn reaching the last rank can promote")
            }
            IllegalReason::NullMoveInCheck => f.write_str("a null move while in check"),
        }
    }
}

/// Why a SAN does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// No legal move matches.
    Illegal(IllegalReason),
    /// Two or more legal moves match (all listed).
    Ambiguous(Vec<Move>),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Illegal(r) => r.fmt(f),
            SanError::Ambiguous(c) => write!(f, "{} legal moves match", c.len()),
        }
    }
}

impl std::error::Error for SanError {}

/// Pieces of `role` and `color` whose moves reach `to` by geometry alone
/// (pins, checks and own pieces on `to` ignored).
pub(super) fn reaching(pos: &Position, role: Role, to: Square, capture_hint: bool) -> Bitboard {
    let board = pos.board();
    let color = pos.turn();
    let ours = board.by_role(role) & board.by_color(color);
    let occ = board.occupied();
    match role {
        Role::Pawn => {
            let captures = pawn_attacks(color.other(), to) & ours;
            let pushes = if occ.contains(to) {
                Bitboard::EMPTY
            } else {
                pawn_pushers(color, to, ours, occ)
            };
            if capture_hint {
                captures
            } else {
                captures | pushes
            }
        }
        Role::Knight => knight_attacks(to) & ours,
        Role::Bishop => bishop_attacks(to, occ) & ours,
        Role::Rook => rook_attacks(to, occ) & ours,
        Role::Queen => (bishop_attacks(to, occ) | rook_attacks(to, occ)) & ours,
        Role::King => king_attacks(to) & ours,
    }
}

/// The squares a written move of `role` to `to` may depart from: the written file and
/// rank. A pawn move with neither a file nor a capture mark written is a push along the
/// file it lands on (`d5` never means `exd5`; `Pxd5` may).
fn from_mask(
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
) -> Bitboard {
    let file = match (role, file) {
        (Role::Pawn, None) if !capture => Some(to.file()),
        _ => file,
    };
    file.map_or(Bitboard::FULL, Bitboard::from_file)
        & rank.map_or(Bitboard::FULL, Bitboard::from_rank)
}

impl San {
    /// The legal move this SAN names in `pos`.
    ///
    /// Only moves of the written piece to the written square are generated, and none
    /// when one piece of the written kind plainly makes an ordinary move there (the
    /// fast path nearly every move takes). A capture mark is not required to match (a
    /// missing or spurious `x` is a notation finding, not an illegal move), nor is a
    /// check mark.
    ///
    /// # Errors
    ///
    /// [`SanError::Illegal`] with the reason, or [`SanError::Ambiguous`]
    /// with every matching move.
    #[inline(always)]
    pub fn resolve(&self, pos: &Position) -> Result<Move, SanError> {
        match self.resolve_quick(pos) {
            Some(m) => Ok(m),
            // The error comes boxed so that the result is two registers: a larger one
            // would be written to memory and read back on every move (measured).
            None => self.resolve_general(pos).map_err(|e| *e),
        }
    }

    /// The legal move in the common case (one piece of the written kind can
    /// make an ordinary move to the square), without generating moves;
    /// `None` when the general path must decide (and explain a failure). Its small
    /// result comes back in registers, which matters in a loop over millions of moves.
    #[inline(always)]
    pub(crate) fn resolve_quick(&self, pos: &Position) -> Option<Move> {
        match self.kind {
            SanKind::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                capture,
            } if !self.forms.contains(Forms::LONG_ALGEBRAIC) => {
                let from = from_mask(role, file, rank, capture, to);
                resolve_direct(pos, role, from, to, promotion)
            }
            _ => None,
        }
    }

    /// [`San::resolve`] past its fast path, with a move list on the stack that is
    /// filled in only for the moves that need one (castling, null moves and the quick
    /// cases do not pay for the 2 KB).
    #[inline(never)]
    pub(super) fn resolve_general(&self, pos: &Position) -> Result<Move, Box<SanError>> {
        let mut slot = None;
        self.resolve_in(pos, || slot.insert(MoveList::new()))
            .map_err(Box::new)
    }

    /// Like [`San::resolve`], reusing a caller-owned move list (language detection
    /// resolves every move of a game in several languages).
    pub(crate) fn resolve_with(
        &self,
        pos: &Position,
        list: &mut MoveList,
    ) -> Result<Move, SanError> {
        self.resolve_in(pos, || list)
    }

    /// The general resolution; `list` gives the move list when moves must be generated.
    fn resolve_in<'l>(
        &self,
        pos: &Position,
        list: impl FnOnce() -> &'l mut MoveList,
    ) -> Result<Move, SanError> {
        match self.kind {
            SanKind::Null => Err(SanError::Illegal(if pos.is_check() {
                IllegalReason::NullMoveInCheck
            } else {
                IllegalReason::NoPiece(Role::King)
            })),
            SanKind::Castle(side) => pos
                .castling_obstacle(side)
                .map_err(|e| SanError::Illegal(IllegalReason::Castling(e))),
            SanKind::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let mut role = role;
                // UCI or long algebraic without a letter ("g1f3", "e1g1"):
                // the piece on the departure square decides.
                if role == Role::Pawn
                    && self.forms.contains(Forms::LONG_ALGEBRAIC)
                    && let (Some(f), Some(r)) = (file, rank)
                {
                    let from = Square::from_coords(f, r);
                    if pos.board().color_at(from) == Some(pos.turn()) {
                        role = pos.board().role_at(from).unwrap_or(Role::Pawn);
                    }
                }
                if role == Role::King
                    && let Some(m) = self.king_move_as_castling(pos, file, rank, to)
                {
                    return Ok(m);
                }
                let from = from_mask(role, file, rank, capture, to);
                if let Some(m) = resolve_direct(pos, role, from, to, promotion) {
                    return Ok(m);
                }
                let list = list();
                pos.legal_moves_to(role, from, to, list);
                let last_rank = to.rank() == pos.turn().other().back_rank();
                if role == Role::Pawn && last_rank {
                    match promotion {
                        Some(p) => list.retain(|m| m.promotion() == Some(p)),
                        None if !list.is_empty() => {
                            return Err(SanError::Illegal(IllegalReason::MissingPromotion));
                        }
                        None => {}
                    }
                } else if promotion.is_some() {
                    return Err(SanError::Illegal(IllegalReason::NotAPromotion));
                }
                match list.len() {
                    1 => Ok(list[0]),
                    0 => Err(SanError::Illegal(diagnose(
                        pos, role, file, rank, capture, to,
                    ))),
                    _ => Err(SanError::Ambiguous(list.to_vec())),
                }
            }
        }
    }

    /// A king move written as its castling destination ("e1g1" in UCI, or
    /// the king taking its own rook as Chess960 UCI writes castling).
    fn king_move_as_castling(
        &self,
        pos: &Position,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
    ) -> Option<Move> {
        let (f, r) = (file?, rank?);
        let from = Square::from_coords(f, r);
        if from != pos.king() || to.rank() != from.rank() {
            return None;
        }
        for side in CastlingSide::ALL {
            if let Some(m) = pos.castle_if_legal(side) {
                let onto_rook = m.castling_rook() == Some(to);
                let two_steps =
                    m.to() == to && from.file().index().abs_diff(to.file().index()) == 2;
                if onto_rook || two_steps {
                    return Some(m);
                }
            }
        }
        None
    }
}
/// The common case without generating moves: exactly one piece of the
/// written kind (and departure file or rank) can legally go to `to` by an
/// ordinary move, or the king steps to a safe square. Anything else (castling,
/// en passant, promotions, no or several candidates, double check) returns
/// `None` and takes the general path, which also explains failures.
#[inline(always)]
fn resolve_direct(
    pos: &Position,
    role: Role,
    from: Bitboard,
    to: Square,
    promotion: Option<Role>,
) -> Option<Move> {
    let board = pos.board();
    let color = pos.turn();
    if promotion.is_some() || board.by_color(color).contains(to) {
        return None;
    }
    let king = pos.king();
    if role == Role::King {
        // One king, one step, onto a square no enemy piece attacks once it has left.
        let occupied = board.occupied() ^ Bitboard::from_square(king);
        // While the king may castle, a king move can be castling written as one.
        let rights = pos.castling_rights() & Bitboard::from_rank(color.back_rank());
        if !from.contains(king)
            || rights.any()
            || !king_attacks(king).contains(to)
            || board.attackers(to, color.other(), occupied).any()
        {
            return None;
        }
        return Some(Move::normal(role, king, board.role_at(to), to, None));
    }
    let checkers = pos.checkers();
    if let Some(checker) = checkers.first()
        && (checkers.more_than_one()
            || !(crate::attacks::between(king, checker) | checker).contains(to))
    {
        return None;
    }
    let ours = board.by_role(role) & board.by_color(color) & from;
    let occupied = board.occupied();
    let candidates = match role {
        Role::Pawn => {
            if to.rank() == color.other().back_rank() {
                return None;
            }
            if occupied.contains(to) {
                pawn_attacks(color.other(), to) & ours
            } else {
                // Pushes only: a capture onto an empty square is en passant
                // or an error, both for the general path.
                pawn_pushers(color, to, ours, occupied)
            }
        }
        // What `reaching` finds, in place for the common pieces (measured: fewer
        // instructions than the call; queens measured better through it).
        Role::Knight => knight_attacks(to) & ours,
        Role::Bishop => bishop_attacks(to, occupied) & ours,
        Role::Rook => rook_attacks(to, occupied) & ours,
        _ => reaching(pos, role, to, false) & ours,
    };
    let legal = unpinned(pos, candidates, to);
    let from = legal.first()?;
    if legal.more_than_one() {
        return None;
    }
    Some(Move::normal(role, from, board.role_at(to), to, None))
}

/// The pawns of `pawns` that a push (one square, or two from the start) takes to the
/// empty square `to`.
#[inline]
fn pawn_pushers(color: Color, to: Square, pawns: Bitboard, occupied: Bitboard) -> Bitboard {
    let target = Bitboard::from_square(to);
    let back = |b: Bitboard| match color {
        Color::White => b.shift_down(),
        Color::Black => b.shift_up(),
    };
    let one = back(target);
    if (one & pawns).any() {
        return one & pawns;
    }
    if to.rank() == color.fourth_rank() && (one & occupied).is_empty() {
        return back(one) & pawns;
    }
    Bitboard::EMPTY
}

/// The pieces of `from` that a pin does not hold off a move to `to` (a pinned piece may
/// still move along the pin line).
#[inline]
pub(super) fn unpinned(pos: &Position, from: Bitboard, to: Square) -> Bitboard {
    let pinned = pos.pinned();
    if (from & pinned).is_empty() {
        return from;
    }
    let king = pos.king();
    from.into_iter()
        .filter(|&f| !pinned.contains(f) || crate::attacks::line(king, f).contains(to))
        .fold(Bitboard::EMPTY, |acc, f| acc | f)
}

/// Finds why no legal move of `role` reaches `to`.
fn diagnose(
    pos: &Position,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
) -> IllegalReason {
    let board = pos.board();
    let ours = board.by_role(role) & board.by_color(pos.turn());
    if ours.is_empty() {
        return IllegalReason::NoPiece(role);
    }
    let pawn_capture = role == Role::Pawn && (capture || file.is_some_and(|f| f != to.file()));
    let reach = reaching(pos, role, to, pawn_capture) & from_mask(role, file, rank, capture, to);
    if reach.is_empty() {
        return IllegalReason::NoPieceReaches(role, to);
    }
    if board.by_color(pos.turn()).contains(to) {
        return IllegalReason::OwnPieceOnTarget(to);
    }
    if pawn_capture && !board.occupied().contains(to) && pos.ep_square() != Some(to) {
        return IllegalReason::NothingToCapture(to);
    }
    if role == Role::King {
        IllegalReason::KingIntoCheck(to)
    } else if pos.is_check() {
        IllegalReason::DoesNotAnswerCheck
    } else {
        IllegalReason::LeavesKingInCheck
    }
}
