//! Positions, legal move generation and making moves.

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::types::{CastlingSide, Color, File, Piece, Rank, Role, Square};

/// Piece placement: one bitboard per role and per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Board {
    /// The empty board.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares holding pieces of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding pieces of `role` (either colour).
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Squares holding `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Rooks and queens of either colour.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    /// Bishops and queens of either colour.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// The king square of `color`, if it has exactly one king.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).single_square()
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        // Without a search: a loop that stops at the piece found mispredicts at nearly
        // every capture (which piece is taken is as unpredictable as it gets).
        let bit = |role: Role| (self.by_role[role.index()].0 >> sq.index()) as usize & 1;
        let index = bit(Role::Knight)
            + 2 * bit(Role::Bishop)
            + 3 * bit(Role::Rook)
            + 4 * bit(Role::Queen)
            + 5 * bit(Role::King);
        Some(Role::ALL[index])
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at(sq)?,
        })
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].add(sq);
        self.by_color[piece.color.index()].add(sq);
    }

    /// Removes `piece` from `sq`, where it must stand.
    #[inline]
    fn remove(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].discard(sq);
        self.by_color[piece.color.index()].discard(sq);
    }

    /// Removes whatever stands on `sq`.
    pub fn clear(&mut self, sq: Square) {
        if let Some(piece) = self.piece_at(sq) {
            self.remove(sq, piece);
        }
    }

    /// Pieces of `attacker` that attack `sq`, given the occupied squares.
    #[inline]
    pub fn attackers(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.by_color(attacker)
            & ((rook_attacks(sq, occupied) & self.rooks_and_queens())
                | (bishop_attacks(sq, occupied) & self.bishops_and_queens())
                | (knight_attacks(sq) & self.by_role(Role::Knight))
                | (king_attacks(sq) & self.by_role(Role::King))
                | (pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn)))
    }

    /// Whether a piece of `attacker` attacks `sq`, given the occupied squares: the
    /// answer of [`Board::attackers`]`.any()`, with the slider look-ups only when a
    /// slider of `attacker` stands on a line through `sq`.
    #[inline(never)]
    pub fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        let theirs = self.by_color(attacker);
        if ((knight_attacks(sq) & self.by_role(Role::Knight))
            | (king_attacks(sq) & self.by_role(Role::King))
            | (pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn)))
            & theirs
            != Bitboard::EMPTY
        {
            return true;
        }
        let rooks = self.rooks_and_queens() & theirs & rook_rays(sq);
        let bishops = self.bishops_and_queens() & theirs & bishop_rays(sq);
        (rooks.any() && (rook_attacks(sq, occupied) & rooks).any())
            || (bishops.any() && (bishop_attacks(sq, occupied) & bishops).any())
    }

    /// The squares the piece on `sq` attacks (empty for an empty square).
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        let occ = self.occupied();
        match self.piece_at(sq) {
            None => Bitboard::EMPTY,
            Some(p) => match p.role {
                Role::Pawn => pawn_attacks(p.color, sq),
                Role::Knight => knight_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occ),
                Role::Rook => rook_attacks(sq, occ),
                Role::Queen => queen_attacks(sq, occ),
                Role::King => king_attacks(sq),
            },
        }
    }

    /// The standard starting placement.
    pub fn standard() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (i, role) in back.into_iter().enumerate() {
            let file = File::ALL[i];
            for color in Color::ALL {
                let rank = color.back_rank();
                b.put(Square::from_coords(file, rank), Piece { color, role });
                let pawn_rank = Rank::Second.relative_to(color);
                b.put(
                    Square::from_coords(file, pawn_rank),
                    Piece {
                        color,
                        role: Role::Pawn,
                    },
                );
            }
        }
        b
    }
}

/// How a move is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// An ordinary move or capture, including pawn pushes and promotions.
    Normal,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling; the move's `to` internally holds the rook's square.
    Castle(CastlingSide),
}

/// A legal move in some position. Castling is stored as king and rook
/// squares, which works for standard chess and Chess960 alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
    role: Role,
    capture: Option<Role>,
    promotion: Option<Role>,
    kind: MoveKind,
}

impl Move {
    /// A normal move (also a promotion or capture).
    #[inline]
    pub const fn normal(
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
    ) -> Move {
        Move {
            from,
            to,
            role,
            capture,
            promotion,
            kind: MoveKind::Normal,
        }
    }

    /// An en-passant capture from `from` to `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            role: Role::Pawn,
            capture: Some(Role::Pawn),
            promotion: None,
            kind: MoveKind::EnPassant,
        }
    }

    /// Castling of the king on `king` with the rook on `rook`.
    #[inline]
    pub const fn castle(king: Square, rook: Square, side: CastlingSide) -> Move {
        Move {
            from: king,
            to: rook,
            role: Role::King,
            capture: None,
            promotion: None,
            kind: MoveKind::Castle(side),
        }
    }

    /// The moving piece's square.
    #[inline]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// Where the moving piece ends (the king's destination for castling).
    #[inline]
    pub fn to(&self) -> Square {
        match self.kind {
            MoveKind::Castle(side) => Square::from_coords(side.king_to_file(), self.from.rank()),
            _ => self.to,
        }
    }

    /// The castling rook's square, for castling moves.
    #[inline]
    pub fn castling_rook(&self) -> Option<Square> {
        match self.kind {
            MoveKind::Castle(_) => Some(self.to),
            _ => None,
        }
    }

    /// The castling side, for castling moves.
    #[inline]
    pub fn castling_side(&self) -> Option<CastlingSide> {
        match self.kind {
            MoveKind::Castle(side) => Some(side),
            _ => None,
        }
    }

    /// The moving piece's role.
    #[inline]
    pub const fn role(&self) -> Role {
        self.role
    }

    /// The role of the captured piece, if any.
    #[inline]
    pub const fn capture(&self) -> Option<Role> {
        self.capture
    }

    /// Whether the move captures.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    /// The promotion role, if any.
    #[inline]
    pub const fn promotion(&self) -> Option<Role> {
        self.promotion
    }

    /// How the move is carried out.
    #[inline]
    pub const fn kind(&self) -> MoveKind {
        self.kind
    }

    /// Whether the move resets the fifty-move counter (pawn move or capture).
    #[inline]
    pub const fn is_zeroing(&self) -> bool {
        matches!(self.role, Role::Pawn) || self.capture.is_some()
    }

    /// The move in UCI notation (`e2e4`, `e7e8q`; castling as king to its
    /// destination for standard positions, king to rook for Chess960 when
    /// `chess960` is set).
    pub fn to_uci(&self, chess960: bool) -> String {
        let to = if chess960 {
            self.castling_rook().unwrap_or(self.to)
        } else {
            self.to()
        };
        let mut s = format!("{}{}", self.from, to);
        if let Some(p) = self.promotion {
            s.push(p.fen_char());
        }
        s
    }
}

/// A list of moves with room for every legal move of any position (at most
/// 218 exist); it lives on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: usize,
}

impl MoveList {
    /// The most moves a list holds.
    pub const CAPACITY: usize = 256;

    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::normal(Role::Pawn, Square::A1, None, Square::A1, None); Self::CAPACITY],
            len: 0,
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    fn push(&mut self, m: Move) {
        // A legal position has at most 218 moves; the guard keeps a corrupt
        // position from writing out of bounds.
        if self.len < Self::CAPACITY {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Keeps only the moves for which `keep` returns true.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if keep(&self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// How a game ended on the board.
///
/// [`Position::game_end`] finds the first three in a position alone. The automatic
/// draws of the FIDE Laws since 2014 (fivefold repetition, 75 moves) need the game's
/// history and the edition of the rules, so their caller decides them; they are ends
/// of the same kind (no move may follow, the result is fixed).
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

    /// The en-passant square only when an en-passant capture is legal now.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut any = AnyMove(false);
        self.gen_en_passant(ep, self.checkers(), &mut any);
        any.0.then_some(ep)
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

    /// The ply index of the side to move counted from move 1 (0 for White
    /// at move 1).
    pub fn ply(&self) -> u32 {
        (self.fullmoves.max(1) - 1) * 2 + self.turn.index() as u32
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

    /// Writes every legal move into `list` (cleared first).
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate(Bitboard::FULL, Bitboard::FULL, true, list);
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
        if self.checkers.any() {
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
    #[inline]
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
                pos.game_end().is_some_and(GameEnd::leaves_no_move),
                !pos.has_legal_moves()
            );
        }
    }
}
