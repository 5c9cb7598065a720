//! Positions and making moves; the placement, the moves and their generation live
//! in the submodules.

mod board;
mod movegen;
mod moves;

pub use board::Board;
pub use moves::{Move, MoveKind, MoveList};

use crate::attacks::{between, bishop_rays, knight_attacks, pawn_attacks, rook_rays};
use crate::bitboard::Bitboard;
use crate::types::{CastlingSide, Color, File, Piece, Rank, Role, Square};

/// How a game ended on the board.
///
/// [`Position::game_end`] finds the first three in a position alone. A dead position
/// that material alone does not show needs the search of [`crate::unwinnable`], and the
/// automatic draws of the FIDE Laws since 2014 (fivefold repetition, 75 moves) need the
/// game's history and the edition of the rules, so their caller decides them; they are
/// ends of the same kind (no move may follow, the result is fixed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The side to move is checkmated; `winner` gave the mate.
    Checkmate {
        /// The side that won.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can ever mate (decided from material alone): a dead position.
    InsufficientMaterial,
    /// Neither side can mate by any sequence of legal moves, though material alone
    /// would allow it (Laws 5.2.2, decided by [`crate::unwinnable::Solver`]): a dead
    /// position. Never returned by [`Position::game_end`].
    DeadPosition {
        /// Whether pawns stand blocked by enemy pawns: a wall that no piece can cross
        /// (else the position is dead by the moves it allows, a capture that must be
        /// made or a king locked in).
        pawns_blocked: bool,
    },
    /// The same position for the fifth time (FIDE 9.6.1, an automatic draw).
    FivefoldRepetition,
    /// 75 moves of each side without a pawn move or capture (FIDE 9.6.2, an
    /// automatic draw).
    SeventyFiveMoves,
}

impl GameEnd {
    /// The side that won: the mating side, `None` for every draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameEnd::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }

    /// Whether no move at all exists after this end (mate, stalemate): after the
    /// other ends the pieces can still move, though the game is over.
    pub const fn leaves_no_move(self) -> bool {
        matches!(self, GameEnd::Checkmate { .. } | GameEnd::Stalemate)
    }
}

/// A chess position: placement, side to move, castling rights, en-passant
/// square and move counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    /// The squares of the rooks that may still castle (either colour).
    pub(crate) castling_rights: Bitboard,
    /// The square skipped by the last double pawn push (FEN semantics: set
    /// whether or not a capture is possible).
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmoves: u32,
    /// Pieces giving check to the side to move; kept up to date by every
    /// constructor and move, since every later question needs them.
    pub(crate) checkers: Bitboard,
    /// Pieces of the side to move pinned to its king; kept like `checkers`.
    pub(crate) pinned: Bitboard,
    /// The Zobrist key of the placement and the side to move, kept up to
    /// date by every move (the rest of a repetition key is cheap to add).
    pub(crate) piece_key: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl Position {
    /// The standard starting position.
    pub fn new() -> Position {
        // Built once: every game without a FEN starts here.
        static START: std::sync::LazyLock<Position> =
            std::sync::LazyLock::new(Position::build_start);
        *START
    }

    fn build_start() -> Position {
        Position {
            board: Board::standard(),
            turn: Color::White,
            castling_rights: Bitboard::from_square(Square::A1)
                | Square::H1
                | Square::A8
                | Square::H8,
            ep_square: None,
            halfmove_clock: 0,
            fullmoves: 1,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            piece_key: 0,
        }
        .with_keys()
    }

    /// Fills the derived fields (checkers, piece key) from the rest.
    pub(crate) fn with_keys(mut self) -> Position {
        (self.checkers, self.pinned) = self.checkers_and_pinned();
        self.piece_key = self.compute_piece_key();
        self
    }

    /// The piece placement.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Squares of the rooks that keep castling rights.
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling_rights
    }

    /// The castling rook of `color` on `side`, if that right is kept.
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let king = self.board.king_of(color)?;
        let rights = self.castling_rights & Bitboard::from_rank(color.back_rank());
        rights.into_iter().find(|rook| match side {
            CastlingSide::KingSide => rook.file() > king.file(),
            CastlingSide::QueenSide => rook.file() < king.file(),
        })
    }

    /// Whether every castling right is a standard one (king on the e-file,
    /// rook in the corner), so UCI may write castling as a two-square king
    /// move rather than king-takes-rook.
    pub fn has_standard_castling(&self) -> bool {
        self.castling_rights.into_iter().all(|rook| {
            matches!(rook.file(), File::A | File::H)
                && self
                    .board
                    .king_of(if rook.rank() == Rank::First {
                        Color::White
                    } else {
                        Color::Black
                    })
                    .is_some_and(|k| k.file() == File::E)
        })
    }

    /// The en-passant square as FEN writes it (set after every double push).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The number of the current full move (starts at 1, grows after Black moves).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    #[inline]
    fn us(&self) -> Bitboard {
        self.board.by_color(self.turn)
    }

    #[inline]
    fn them(&self) -> Bitboard {
        self.board.by_color(self.turn.other())
    }

    #[inline]
    fn our(&self, role: Role) -> Bitboard {
        self.board.by_role(role) & self.us()
    }

    /// The king square of the side to move. Positions are built only with
    /// one king per side, so this always exists.
    #[inline]
    pub fn king(&self) -> Square {
        self.our(Role::King).first().unwrap_or(Square::A1)
    }

    /// Pieces of the opponent that give check.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Computes the checkers from the board (after the board or the side to
    /// move changed).
    #[inline]
    pub(crate) fn compute_checkers(&self) -> Bitboard {
        self.board
            .attackers(self.king(), self.turn.other(), self.board.occupied())
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Our pieces that stand alone between our king and an enemy slider.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// The checkers and the pinned pieces of the side to move, in one pass over the
    /// enemy sliders on the king's lines: a slider with nothing between it and the king
    /// gives check, one with a single piece between pins that piece if it is ours.
    /// Knights and pawns give check from a square a table gives.
    #[inline]
    fn checkers_and_pinned(&self) -> (Bitboard, Bitboard) {
        let b = &self.board;
        let king = self.king();
        let theirs = b.by_color(self.turn.other());
        let occupied = b.occupied();
        let mut checkers = theirs
            & ((knight_attacks(king) & b.by_role(Role::Knight))
                | (pawn_attacks(self.turn, king) & b.by_role(Role::Pawn)));
        let snipers = theirs
            & ((rook_rays(king) & b.rooks_and_queens())
                | (bishop_rays(king) & b.bishops_and_queens()));
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = between(king, sniper) & occupied;
            if between.is_empty() {
                checkers.add(sniper);
            } else if !between.more_than_one() {
                blockers |= between;
            }
        }
        debug_assert_eq!(checkers, self.compute_checkers());
        (checkers, blockers & self.us())
    }

    /// Plays a legal move. The move must come from this position's legal
    /// moves (or SAN resolution against it); anything else leaves the
    /// position in an unspecified but memory-safe state.
    #[inline]
    pub fn play_unchecked(&mut self, m: &Move) {
        let us = self.turn;
        let them = us.other();
        self.ep_square = None;
        self.halfmove_clock += 1;
        if m.is_zeroing() {
            self.halfmove_clock = 0;
        }
        match m.kind {
            MoveKind::Normal => {
                if let Some(captured) = m.capture {
                    self.remove_piece(
                        m.to,
                        Piece {
                            color: them,
                            role: captured,
                        },
                    );
                    self.castling_rights.discard(m.to);
                }
                self.remove_piece(
                    m.from,
                    Piece {
                        color: us,
                        role: m.role,
                    },
                );
                self.put_piece(
                    m.to,
                    Piece {
                        color: us,
                        role: m.promotion.unwrap_or(m.role),
                    },
                );
                self.castling_rights.discard(m.from);
                if m.role == Role::King {
                    self.castling_rights =
                        self.castling_rights - Bitboard::from_rank(us.back_rank());
                } else if m.role == Role::Pawn && m.from.index().abs_diff(m.to.index()) == 16 {
                    self.ep_square = Square::new(((m.from.index() + m.to.index()) / 2) as u32);
                }
            }
            // The rare kinds apart, so that the common move inlines small.
            MoveKind::EnPassant => self.play_en_passant(m),
            MoveKind::Castle(side) => self.play_castle(m, side),
        }
        // Branch-free: the side alternates, which a branch would mispredict.
        self.fullmoves += us.index() as u32;
        self.turn = them;
        self.piece_key ^= crate::zobrist::turn_key();
        (self.checkers, self.pinned) = self.checkers_and_pinned();
    }

    #[inline(never)]
    fn play_en_passant(&mut self, m: &Move) {
        let us = self.turn;
        let them = us.other();
        let captured = Square::from_coords(m.to.file(), m.from.rank());
        self.remove_piece(
            captured,
            Piece {
                color: them,
                role: Role::Pawn,
            },
        );
        self.remove_piece(
            m.from,
            Piece {
                color: us,
                role: Role::Pawn,
            },
        );
        self.put_piece(
            m.to,
            Piece {
                color: us,
                role: Role::Pawn,
            },
        );
    }

    #[inline(never)]
    fn play_castle(&mut self, m: &Move, side: CastlingSide) {
        let us = self.turn;
        let rook = m.to;
        self.remove_piece(
            m.from,
            Piece {
                color: us,
                role: Role::King,
            },
        );
        self.remove_piece(
            rook,
            Piece {
                color: us,
                role: Role::Rook,
            },
        );
        self.put_piece(
            side.king_to(us),
            Piece {
                color: us,
                role: Role::King,
            },
        );
        self.put_piece(
            side.rook_to(us),
            Piece {
                color: us,
                role: Role::Rook,
            },
        );
        self.castling_rights = self.castling_rights - Bitboard::from_rank(us.back_rank());
    }

    #[inline]
    fn put_piece(&mut self, sq: Square, piece: Piece) {
        self.board.put(sq, piece);
        self.piece_key ^= crate::zobrist::piece_square_key(piece, sq);
    }

    #[inline]
    fn remove_piece(&mut self, sq: Square, piece: Piece) {
        self.board.remove(sq, piece);
        self.piece_key ^= crate::zobrist::piece_square_key(piece, sq);
    }

    /// The position after a legal move.
    #[must_use]
    pub fn play(&self, m: &Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// The position after the side to move passes the turn (a "null move", as
    /// analysis writes `--` or `Z0`): the other side to move, no en-passant square,
    /// the half-move clock one higher and the move number advanced after Black, as
    /// after a move; keys, checkers and pins updated.
    ///
    /// `None` when the side to move is in check: passing would leave its king
    /// capturable, a position no game can reach (and that [`Validation::Relaxed`]
    /// rejects as a FEN).
    ///
    /// [`Validation::Relaxed`]: crate::Validation::Relaxed
    pub fn pass_turn(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut next = self.with_turn_passed();
        next.halfmove_clock += 1;
        next.fullmoves += self.turn.index() as u32;
        Some(next)
    }

    /// The same placement with the other side to move and no en-passant square, the
    /// counters unchanged, whether or not the side to move is in check (the 2005
    /// repetition key asks what the side not to move could do).
    pub(crate) fn with_turn_passed(&self) -> Position {
        let mut next = *self;
        next.ep_square = None;
        next.turn = self.turn.other();
        next.piece_key ^= crate::zobrist::turn_key();
        (next.checkers, next.pinned) = next.checkers_and_pinned();
        next
    }

    /// The position seen from the other side: the placement mirrored rank for rank with
    /// the colours swapped, the other side to move, castling rights and the en-passant
    /// square mirrored, the counters kept. A mate by one colour in a position is a mate
    /// by the other in its mirror, so the dead-position analysis, written for White as
    /// the side that mates, answers for Black through it.
    pub(crate) fn mirrored(&self) -> Position {
        Position {
            board: self.board.mirrored(),
            turn: self.turn.other(),
            castling_rights: Bitboard(self.castling_rights.0.swap_bytes()),
            ep_square: self.ep_square.map(Square::mirrored),
            halfmove_clock: self.halfmove_clock,
            fullmoves: self.fullmoves,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            piece_key: 0,
        }
        .with_keys()
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether neither side has mating material in the FIDE dead-position
    /// cases decided from material alone: K v K, K+B v K, K+N v K, and any
    /// number of bishops that all stand on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let b = &self.board;
        if (b.by_role(Role::Pawn) | b.rooks_and_queens()).any() {
            return false;
        }
        let knights = b.by_role(Role::Knight);
        let bishops = b.by_role(Role::Bishop);
        if knights.any() {
            // A lone knight with bare kings otherwise.
            return knights.count() == 1 && bishops.is_empty();
        }
        (bishops & Bitboard::DARK_SQUARES).is_empty()
            || (bishops & Bitboard::LIGHT_SQUARES).is_empty()
    }

    /// How the game has ended in this position, if it has: checkmate, stalemate, or
    /// insufficient material, in that order (never one of the automatic draws, which
    /// need the game's history: see [`GameEnd`]).
    // Always inlined: with the dead-position solver in the binary LLVM keeps it out of
    // the validator's move loop otherwise, 3% more instructions on real games.
    #[inline(always)]
    pub fn game_end(&self) -> Option<GameEnd> {
        if !self.has_legal_moves() {
            return Some(if self.is_check() {
                GameEnd::Checkmate {
                    winner: self.turn.other(),
                }
            } else {
                GameEnd::Stalemate
            });
        }
        if self.is_insufficient_material() {
            return Some(GameEnd::InsufficientMaterial);
        }
        None
    }
}

/// Why castling is not legal now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingError {
    /// The king or that rook has moved (or the right was never there).
    NoRight,
    /// The king is in check.
    InCheck,
    /// A square between king and rook, or a destination, is occupied.
    PathBlocked,
    /// The king would cross or land on an attacked square.
    ThroughCheck,
}

impl std::fmt::Display for CastlingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CastlingError::NoRight => "castling right already lost",
            CastlingError::InCheck => "cannot castle out of check",
            CastlingError::PathBlocked => "castling path is blocked",
            CastlingError::ThroughCheck => "king would cross or land on an attacked square",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Validation;

    /// Positions of random games from the start and from a few set-ups (castling
    /// rights, en-passant squares, checks and pins among them).
    fn positions() -> Vec<Position> {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut out = Vec::new();
        let mut list = MoveList::new();
        for fen in starts {
            for _ in 0..40 {
                let mut pos = Position::from_fen(fen, Validation::Relaxed).unwrap();
                for _ in 0..60 {
                    out.push(pos);
                    pos.legal_moves_into(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.play_unchecked(&list[(seed % list.len() as u64) as usize]);
                }
            }
        }
        out
    }

    /// Passing the turn gives the position the FEN with the other side to move and no
    /// en-passant square describes (clocks aside: a pass counts as a half-move), with
    /// the same keys and legal moves; a side in check cannot pass, and that FEN is
    /// rejected too.
    #[test]
    fn passing_the_turn_is_the_fen_with_the_other_side_to_move() {
        let mut passed_in_check = 0;
        for pos in positions() {
            let fen = pos.fen();
            let mut fields: Vec<&str> = fen.split(' ').collect();
            fields[1] = if pos.turn() == Color::White { "b" } else { "w" };
            fields[3] = "-";
            let edited = Position::from_fen(&fields.join(" "), Validation::Relaxed);
            let Some(passed) = pos.pass_turn() else {
                assert!(pos.is_check(), "{fen}");
                assert!(edited.is_err(), "{fen}");
                passed_in_check += 1;
                continue;
            };
            let edited = edited.unwrap_or_else(|e| panic!("{fen}: {e}"));
            let counters = |p: &Position| (p.halfmove_clock(), p.fullmoves());
            let expected_counters = (
                pos.halfmove_clock() + 1,
                pos.fullmoves() + u32::from(pos.turn() == Color::Black),
            );
            assert_eq!(counters(&passed), expected_counters, "{fen}");
            let same_clocks = Position {
                halfmove_clock: edited.halfmove_clock,
                fullmoves: edited.fullmoves,
                ..passed
            };
            assert_eq!(same_clocks, edited, "{fen}");
            assert_eq!(passed.zobrist(), edited.zobrist(), "{fen}");
            assert_eq!(passed.zobrist_2005(), edited.zobrist_2005(), "{fen}");
            assert_eq!(&*passed.legal_moves(), &*edited.legal_moves(), "{fen}");
        }
        assert!(passed_in_check > 0, "no position in check was tried");
    }

    /// A position's own end agrees with the tests it is made of, in their order.
    #[test]
    fn game_end_names_mate_stalemate_and_dead_positions() {
        let end = |fen: &str| {
            Position::from_fen(fen, Validation::Strict)
                .unwrap()
                .game_end()
        };
        let mate = end("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert_eq!(
            mate,
            Some(GameEnd::Checkmate {
                winner: Color::Black
            })
        );
        assert_eq!(mate.and_then(GameEnd::winner), Some(Color::Black));
        assert_eq!(
            end("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some(GameEnd::Stalemate)
        );
        assert_eq!(
            end("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1"),
            Some(GameEnd::InsufficientMaterial)
        );
        assert_eq!(end("8/8/4k3/8/8/2R5/4K3/8 w - - 0 1"), None);
        for pos in positions() {
            let expected = if pos.is_checkmate() {
                Some(GameEnd::Checkmate {
                    winner: pos.turn().other(),
                })
            } else if pos.is_stalemate() {
                Some(GameEnd::Stalemate)
            } else if pos.is_insufficient_material() {
                Some(GameEnd::InsufficientMaterial)
            } else {
                None
            };
            assert_eq!(pos.game_end(), expected, "{}", pos.fen());
            assert_eq!(
                pos.has_legal_moves(),
                !pos.legal_moves().is_empty(),
                "{}",
                pos.fen()
            );
            assert_eq!(
                pos.game_end().is_some_and(GameEnd::leaves_no_move),
                !pos.has_legal_moves()
            );
        }
    }
}
