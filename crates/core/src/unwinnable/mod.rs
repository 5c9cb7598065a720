//! Dead positions decided completely: can a colour checkmate by some sequence of legal
//! moves, the opponent cooperating (a helpmate)?
//!
//! The Laws call a position dead when no sequence of legal moves ends in checkmate
//! (5.2.2), and a flag fall a draw when the opponent cannot checkmate "by any possible
//! series of legal moves" (6.9). [`Position::is_insufficient_material`] decides the
//! cases material alone settles; this module decides the rest: walls of blocked pawns
//! that no piece can cross, bishops of one colour behind them, kings locked in,
//! positions where every line runs into a stalemate or a forced repetition.
//!
//! The method is the one of CHA ("A Practical Algorithm for Chess Unwinnability",
//! Ambrona, FUN 2022, and its Rust crate `chasolver`, the oracle of the tests): search
//! proves "winnable" by finding a mating line, static deduction proves "unwinnable" by
//! over-approximating where every piece may ever go. [`Solver::winnability`] runs a
//! ladder from cheap to costly and stops at the first rung that decides:
//!
//! 1. Forced moves are played out (a position with one legal move has the winnability
//!    of the position after it); a forced sequence that repeats never ends, so it is
//!    unwinnable.
//! 2. A depth-1 helpmate search whose move ordering extends promising moves (captures,
//!    pawn advances, pieces walking toward the loser's king): most positions with a
//!    short mate are decided here.
//! 3. Static deduction ([`deduction`]) at once when no queen, rook or knight is left:
//!    the blocked bishop-and-pawn structures it was made for.
//! 4. Iterative deepening with a transposition table, under a node budget per depth.
//! 5. Static deduction for the positions that skipped rung 3. (Rung 4 first runs with a
//!    sixty-fourth of its budget, then this deduction, then rung 4 with all of it: a
//!    position the deduction proves is one where the search would spend its budget.)
//! 6. When one side can only ever move pawns, the closure of every reachable position
//!    (a few thousand at most): unwinnable when none is a mate.
//! 7. Check chains: every move from here, then only checks, each quiet leaf proved
//!    unwinnable by deduction.
//! 8. The closure of every reachable position again, with a larger bound: kings that
//!    can wander for ever behind a wall defeat any depth-bounded search, but the set of
//!    positions they can reach is small.
//! 9. A deep guided search (bishops led toward the mating corner, moves into statically
//!    dead positions pushed back) under a large global budget.
//!
//! What is left is [`Verdict::Undetermined`]: callers treat it as winnable, which is
//! what the Laws ask when no one can prove otherwise. The budgets are a [`Budget`] value
//! the caller chooses; a [`Solver`] owns them with its tables, reused from one question
//! to the next, with no global state and no threads.
//!
//! The analysis is written for White as the side that mates; a question about Black is
//! asked of the mirrored position (ranks flipped, colours swapped) and the mating line
//! mirrored back.
//!
//! [`quick`] is the cheapest filter: a few bitboard operations that settle open
//! positions with material to spare and material that can never mate.
//! [`Solver::deadness`] and [`Solver::may_mate`], the questions a game replay asks,
//! put more cheap steps before the ladder (the `screen` module): [`surely_winnable`],
//! which proves a colour able to mate in positions whose pawns are open and whose kings
//! can move, and a short search for a position it decides (a king that walks to a
//! blocked pawn and takes it). A replay first asks [`may_be_dead`] of a position's
//! material and pawns. On the shared real games (6,680, the ends of 11,650 lines of
//! play) 1,212 line ends pass that screen and two reach the ladder, one of them dead.
//!
//! The searches try moves in the order of the `chess` crate's generator, under which
//! CHA's budgets were tuned (`search/ordering.rs` says why), and their transposition table never
//! turns a depth cut into a proof of "no mate".
//!
//! ```
//! use planilla_core::unwinnable::{Solver, Verdict};
//! use planilla_core::{Color, Position, Validation};
//!
//! // A wall of pawns across the board, a bishop on each side: neither can get through.
//! let pos = Position::from_fen("8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3/8 w - - 0 1",
//!     Validation::Strict).unwrap();
//! let mut solver = Solver::default();
//! assert_eq!(solver.winnability(&pos, Color::White), Verdict::Unwinnable);
//! assert_eq!(solver.winnability(&pos, Color::Black), Verdict::Unwinnable);
//!
//! // A knight against a pawn: the pawn may promote and block its own king in.
//! let pos = Position::from_fen("7k/8/8/8/8/8/p7/K1N5 w - - 0 1", Validation::Strict).unwrap();
//! let Verdict::Winnable { line } = solver.winnability(&pos, Color::White) else { panic!() };
//! let mut end = pos;
//! for m in &line {
//!     end = end.play(m);
//! }
//! assert!(end.is_checkmate() && end.turn() == Color::Black);
//! ```

pub mod deduction;
mod quick;
mod screen;
mod search;

pub use quick::{Quick, quick};
pub use screen::{may_be_dead, surely_winnable};

use crate::bitboard::Bitboard;
use crate::position::{Move, MoveList, Position};
use crate::types::{Color, Role};
use search::{Search, Table, ordering};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// The answer of [`Solver::winnability`] for one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The colour can checkmate: `line` is a sequence of legal moves from the position
    /// that ends in its mate, the proof.
    Winnable {
        /// The mating line, moves of both sides from the position asked about.
        line: Vec<Move>,
    },
    /// No sequence of legal moves ends in a checkmate by that colour.
    Unwinnable,
    /// A budget ran out before either was proved; treat it as winnable.
    Undetermined,
}

impl Verdict {
    /// Whether the colour may still mate: winnable, or not proved otherwise.
    pub fn may_win(&self) -> bool {
        !matches!(self, Verdict::Unwinnable)
    }
}

/// How deep and how wide [`Solver::deadness`] looks for a position the cheap tests
/// decide before it searches for a mate.
const PROOF_PLIES: usize = 24;
const PROOF_NODES: u32 = 400;
/// The same for [`Solver::may_mate`], asked once a game, when a game is lost on time:
/// wider, as a winner's mate can lie behind a piece offered to a pawn.
const MATE_PROOF_NODES: u32 = 2000;

/// The answer of [`Solver::deadness`]: whether a position is dead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadness {
    /// A colour can mate (or was not proved unable to: see [`Deadness::Undetermined`]).
    Alive,
    /// Neither colour can mate by any sequence of legal moves.
    Dead,
    /// A colour was proved unable to mate and a budget ran out for the other: taken as
    /// alive by callers, as an undetermined verdict is taken as winnable.
    Undetermined,
}

/// The search budgets of a [`Solver`], in nodes (one node is one move tried) or
/// positions; the defaults are chasolver's, which decide every position of the oracle
/// files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Rung 2: nodes per ply of depth for the first, depth-1 search.
    pub first_search_nodes_per_ply: u64,
    /// Rung 4: nodes per ply of depth for each iteration of the deepening search.
    pub search_nodes_per_ply: u64,
    /// Rungs 2 and 4: nodes over all iterations of one deepening search.
    pub search_nodes: u64,
    /// Rung 6: nodes of the probe that asks whether a side can move a piece other
    /// than a pawn.
    pub probe_nodes: u64,
    /// Rung 6: the most positions the closure of reachable positions may hold.
    pub closure_positions: usize,
    /// Rung 7: the longest chain of checks followed.
    pub check_chain_plies: u32,
    /// Rung 8: the most positions the closure of reachable positions may hold when
    /// both sides move pieces.
    pub wide_closure_positions: usize,
    /// Rung 9: nodes over all iterations of the deep search.
    pub deep_search_nodes: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            first_search_nodes_per_ply: 1_000,
            search_nodes_per_ply: 7_000,
            search_nodes: 1_000_000,
            probe_nodes: 1_000,
            closure_positions: 3_000,
            check_chain_plies: 16,
            wide_closure_positions: 200_000,
            deep_search_nodes: 1 << 24,
        }
    }
}

/// The dead-position solver: a [`Budget`] and the tables its searches reuse from one
/// question to the next (a caller keeps one per thread, as it keeps a move list).
#[derive(Debug, Default)]
pub struct Solver {
    budget: Budget,
    table: Table,
    seen: HashSet<Key, KeyHasher>,
    nodes: u64,
    /// The move lists of [`Solver::deadness`]'s short search, one per ply.
    proof_lists: Vec<MoveList>,
}

impl Solver {
    /// A solver with the given budgets.
    pub fn new(budget: Budget) -> Solver {
        Solver {
            budget,
            ..Solver::default()
        }
    }

    /// The budgets.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Asks the next questions under `budget` (the tables are kept).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// The nodes searched since the solver was made (every move tried by any search):
    /// the cost of the answers, for benchmarks.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether `winner` can checkmate from `pos` by some sequence of legal moves, the
    /// other side cooperating; see the [module](self) for how it is decided.
    ///
    /// The 50- and 75-move rules and repetitions are not in the question: as in the
    /// Laws' definition of a dead position, only the moves are.
    pub fn winnability(&mut self, pos: &Position, winner: Color) -> Verdict {
        match winner {
            Color::White => self.analyse(pos),
            Color::Black => match self.analyse(&pos.mirrored()) {
                Verdict::Winnable { line } => Verdict::Winnable {
                    line: line.iter().map(Move::mirrored).collect(),
                },
                other => other,
            },
        }
    }

    /// Whether `pos` is dead: neither colour can ever checkmate. `None` when a budget
    /// ran out for a colour that was not proved able to mate.
    pub fn is_dead(&mut self, pos: &Position) -> Option<bool> {
        let mut undetermined = false;
        for color in Color::ALL {
            match self.winnability(pos, color) {
                Verdict::Winnable { .. } => return Some(false),
                Verdict::Undetermined => undetermined = true,
                Verdict::Unwinnable => {}
            }
        }
        (!undetermined).then_some(true)
    }

    /// Whether `pos` is dead, the cheapest proofs first: [`quick`] for both colours,
    /// then [`surely_winnable`], then a short search (at most 24 plies and 400
    /// positions) for a position either decides, then [`Solver::winnability`] for each
    /// colour `quick` left open, the colour with more units first (the one more likely to
    /// mate, whose line ends the question), each first with a quarter of the budgets.
    /// The same answer as asking the solver about both colours, at the cost of a few
    /// bitboard tests for most positions.
    pub fn deadness(&mut self, pos: &Position) -> Deadness {
        let quick = Color::ALL.map(|color| quick(pos, color));
        if quick.contains(&Quick::Winnable) {
            return Deadness::Alive;
        }
        let open = |color: Color| quick[color.index()] == Quick::Unknown;
        if !Color::ALL.iter().any(|&color| open(color)) {
            return Deadness::Dead;
        }
        if Color::ALL
            .iter()
            .any(|&color| open(color) && surely_winnable(pos, color))
        {
            return Deadness::Alive;
        }
        // A short search for a position those tests decide, before the long one for a
        // mate.
        let wanted = Color::ALL.map(open);
        if screen::reaches_proof(pos, wanted, PROOF_PLIES, PROOF_NODES, &mut self.proof_lists) {
            return Deadness::Alive;
        }
        let units = |color: Color| pos.board().by_color(color).count();
        let first = if units(Color::Black) > units(Color::White) {
            Color::Black
        } else {
            Color::White
        };
        // Each colour first with a quarter of the budgets, then the rest with all of
        // them: one colour's mate is often found at once where the other's takes the
        // whole search (next to a wall, a king walks a long way), and a proof under
        // the small budgets is a proof.
        let full = self.budget;
        let small = Budget {
            search_nodes: full.search_nodes / 4,
            wide_closure_positions: full.wide_closure_positions / 4,
            deep_search_nodes: full.deep_search_nodes / 4,
            ..full
        };
        let mut proved = [!open(Color::White), !open(Color::Black)];
        let mut answer = Deadness::Undetermined;
        for budget in [small, full] {
            self.budget = budget;
            for color in [first, first.other()] {
                if proved[color.index()] {
                    continue;
                }
                match self.winnability(pos, color) {
                    Verdict::Winnable { .. } => {
                        answer = Deadness::Alive;
                        break;
                    }
                    Verdict::Unwinnable => proved[color.index()] = true,
                    Verdict::Undetermined => {}
                }
            }
            if answer == Deadness::Alive || proved == [true, true] {
                break;
            }
        }
        self.budget = full;
        if proved == [true, true] {
            Deadness::Dead
        } else {
            answer
        }
    }

    /// Whether `color` may still mate in `pos` (the question of a flag fall, Laws 6.9):
    /// [`quick`], then [`surely_winnable`], then the short search of
    /// [`Solver::deadness`] for a position they decide for `color`, then
    /// [`Solver::winnability`]; true unless proved unable ([`Verdict::may_win`]).
    pub fn may_mate(&mut self, pos: &Position, color: Color) -> bool {
        match quick(pos, color) {
            Quick::Winnable => true,
            Quick::Unwinnable => false,
            Quick::Unknown => {
                let mut wanted = [false; 2];
                wanted[color.index()] = true;
                surely_winnable(pos, color)
                    || screen::reaches_proof(
                        pos,
                        wanted,
                        PROOF_PLIES,
                        MATE_PROOF_NODES,
                        &mut self.proof_lists,
                    )
                    || self.winnability(pos, color).may_win()
            }
        }
    }

    /// The ladder of the module's documentation, for White as the side that mates.
    fn analyse(&mut self, start: &Position) -> Verdict {
        let budget = self.budget;
        let mut search = Search::new(&mut self.table);
        let verdict = Self::ladder(&budget, &mut search, &mut self.seen, start);
        self.nodes += search.total_nodes();
        verdict
    }

    fn ladder(
        budget: &Budget,
        search: &mut Search,
        seen: &mut HashSet<Key, KeyHasher>,
        start: &Position,
    ) -> Verdict {
        // 1. Forced moves.
        let Some(pos) = search.play_forced_moves(start, seen) else {
            return Verdict::Unwinnable;
        };

        // 2. A depth-1 search, extended along promising moves.
        search.configure(
            budget.first_search_nodes_per_ply,
            budget.search_nodes,
            false,
        );
        if let Some(verdict) = search.iterative_deepening(&pos, 1..=1) {
            return verdict;
        }

        // 3. Static deduction at once when only kings, bishops and pawns are left.
        let board = pos.board();
        let has_major_or_knight = (board.rooks_and_queens() | board.by_role(Role::Knight)).any();
        if !has_major_or_knight && deduction::is_statically_unwinnable(&pos) {
            return Verdict::Unwinnable;
        }

        // 4 and 5. Iterative deepening with a transposition table, then static
        // deduction for the positions that skipped rung 3. The deduction costs less
        // than a search that spends its whole budget, and a position it proves is one
        // where the search could only spend it: the search runs first with a
        // sixty-fourth of its budget, then the deduction, then the search again with all
        // of it. The budget only cuts a search short, so a search that decides under
        // the small one decides as the full one would (the same line), and the second
        // is the search rung 4 always ran; both proofs are exact, so only the time of
        // the answer changes.
        search.configure(
            budget.search_nodes_per_ply,
            budget.search_nodes / SEARCH_BEFORE_DEDUCTION,
            true,
        );
        if let Some(verdict) = search.iterative_deepening(&pos, 2..=search::MAX_PLIES) {
            return verdict;
        }
        if has_major_or_knight && deduction::is_statically_unwinnable(&pos) {
            return Verdict::Unwinnable;
        }
        if search.ran_out() {
            search.configure(budget.search_nodes_per_ply, budget.search_nodes, true);
            if let Some(verdict) = search.iterative_deepening(&pos, 2..=search::MAX_PLIES) {
                return verdict;
            }
        }

        // 6. A side that can only move pawns: close the set of reachable positions.
        let only_pawns = search::sides_moving_only_pawns(&pos, budget.probe_nodes);
        if (only_pawns[0] || only_pawns[1])
            && search::closure_has_no_mate(&pos, budget.closure_positions, seen)
        {
            return Verdict::Unwinnable;
        }

        // 7. Check chains, quiet leaves judged statically.
        seen.clear();
        let mut chain = search.line_so_far();
        match search::check_chains(&pos, seen, &mut chain, 0, budget.check_chain_plies) {
            Some(true) => return Verdict::Winnable { line: chain },
            Some(false) => return Verdict::Unwinnable,
            None => {}
        }

        // 8. The closure of every reachable position, larger: a helpmate search
        // proves nothing where the pieces can wander for ever (a king free behind a
        // wall), but the set of positions they can reach is often small.
        if search::closure_has_no_mate(&pos, budget.wide_closure_positions, seen) {
            return Verdict::Unwinnable;
        }

        // 9. A deep search guided by the saturated analysis.
        let mut analysis = deduction::Analysis::new(&pos);
        analysis.saturate();
        search.guide(ordering::Guide::new(&pos, analysis.steady()));
        search.configure(u64::MAX, budget.deep_search_nodes, true);
        search
            .iterative_deepening(&pos, 2..=search::MAX_PLIES)
            .unwrap_or(Verdict::Undetermined)
    }
}

/// The share of rung 4's node budget its first search gets, before the deduction of
/// rung 5 (see [`Solver::ladder`]): a sixty-fourth, 15,625 nodes of the default
/// million. On the first 600 positions of `positions.txt` it halved the nodes searched
/// (94.8 to 43.0 million); a share of 1/16 or 1/256 did about as well there, while
/// deducing before any search (as rung 3) cost a fifth more time on lichess positions.
const SEARCH_BEFORE_DEDUCTION: u64 = 64;

/// What identifies a position for the searches' tables: placement, side to move,
/// castling rights and the en-passant square (the counters play no part in a
/// helpmate), in 36 bytes, where the whole board took 88: the tables are hit at every
/// node, and their slots' size is their cost. The placement is exact in four
/// bitboards: White's pieces and the three bits of a role's code (1 to 6, so that
/// every occupied square has one bit set at least). Packed to 36 bytes, so that a slot
/// of the transposition table, key and entry, takes 40.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed(4))]
pub(crate) struct Key {
    white: Bitboard,
    code: [Bitboard; 3],
    /// The castling rights' rooks (on the back ranks: the first rank in the low
    /// byte, the eighth in the high one), the en-passant square (64 for none) and the
    /// side to move.
    rest: u32,
}

impl Key {
    pub(crate) fn of(pos: &Position) -> Key {
        let board = pos.board();
        let role = |role: Role| board.by_role(role);
        // Role codes: pawn 1, knight 2, bishop 3, rook 4, queen 5, king 6.
        let code = [
            role(Role::Pawn) | role(Role::Bishop) | role(Role::Queen),
            role(Role::Knight) | role(Role::Bishop) | role(Role::King),
            role(Role::Rook) | role(Role::Queen) | role(Role::King),
        ];
        let castling = pos.castling_rights().0;
        debug_assert_eq!(castling & !Bitboard::BACKRANKS.0, 0);
        let castling = (castling & 0xff) as u32 | ((castling >> 48) as u32 & 0xff00);
        let ep = pos.ep_square().map_or(64, |sq| sq.index() as u32);
        Key {
            white: board.by_color(Color::White),
            code,
            rest: castling | ep << 16 | (pos.turn().index() as u32) << 24,
        }
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The words multiplied apart (in parallel), then mixed as MurmurHash3 finishes:
        // the tables take their index from the low bits and a tag from the high ones.
        let (white, code, rest) = (self.white, self.code, self.rest);
        let mut h = white.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ code[0].0.wrapping_mul(0xbf58_476d_1ce4_e5b9)
            ^ code[1].0.wrapping_mul(0x94d0_49bb_1331_11eb)
            ^ code[2].0.wrapping_mul(0xd6e8_feb8_6659_fd93)
            ^ u64::from(rest).wrapping_mul(0xa076_1d64_78bd_642f);
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^= h >> 33;
        state.write_u64(h);
    }
}

/// A hasher that passes the key's own 64-bit hash through: it is already mixed, and
/// the tables are hit on every node.
#[derive(Default)]
pub(crate) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(crate) type KeyHasher = BuildHasherDefault<PassThrough>;
pub(crate) type KeyMap<V> = HashMap<Key, V, KeyHasher>;
