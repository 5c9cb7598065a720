//! The searches of the ladder: forced moves, the helpmate search by iterative
//! deepening, the probe for sides that move only pawns, the closure of reachable
//! positions and the check chains. Written for White as the side that mates.
//!
//! Search proves "winnable" by a line; it proves "unwinnable" only when a whole
//! iteration ran without a depth cut or a budget running out (`interrupted` stays
//! false), so that every position reachable from the start was expanded.

pub(crate) mod ordering;

use super::deduction::is_statically_unwinnable;
use super::quick::cannot_mate;
use super::{Key, KeyHasher, KeyMap, Verdict};
use crate::position::{Move, MoveList, Position};
use crate::types::{Color, Role};
use ordering::{Class, Guide};
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// The longest line searched, in plies.
pub(crate) const MAX_PLIES: u8 = 128;

/// What the transposition table knows of a position.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The plies that were left when it was searched.
    left: u8,
    /// The iteration that searched it, its low byte: a table lives for one deepening
    /// search, at most 127 iterations (depths 2 to 128), which the byte tells apart.
    iteration: u8,
    /// Whether its search is over (false while it is on the current line).
    finished: bool,
    /// Whether that search was exhaustive: every position reachable from it expanded,
    /// none of them cut by depth or budget, none pruned as a repetition of a position
    /// still on the line. Then no mate is reachable from it at all, a fact that holds
    /// in any later search.
    exhaustive: bool,
}

// A slot of the table: key and entry in 40 bytes.
const _: () = assert!(std::mem::size_of::<(Key, Entry)>() == 40);

/// The transposition table, owned by the [`super::Solver`] so its allocation is
/// reused from one question to the next.
#[derive(Debug, Default)]
pub(crate) struct Table {
    map: KeyMap<Entry>,
    /// A move list per ply of the search, made once: a list made at every node cost a
    /// clear of its 1.5 KB each time.
    lists: Vec<MoveList>,
}

/// One helpmate search: budgets, the current line and the table.
pub(crate) struct Search<'t> {
    table: &'t mut Table,
    use_table: bool,
    iteration: u32,
    /// Depth (in plies, counted as the ordering counts them) of this iteration.
    max_depth: u8,
    /// Nodes per ply of depth within one iteration; `u64::MAX` for no limit.
    nodes_per_ply: u64,
    /// Nodes over all iterations of one deepening search.
    node_limit: u64,
    iteration_nodes: u64,
    deepening_nodes: u64,
    total_nodes: u64,
    /// Set when a depth cut or a budget left a branch unexplored: the iteration's
    /// "no mate" is then no proof.
    interrupted: bool,
    /// Cleared when the current subtree was not searched exhaustively (see
    /// [`Entry::exhaustive`]).
    exhaustive: bool,
    /// The moves from the position asked about to the current node: the forced moves
    /// first, then the line being searched.
    line: Vec<Move>,
    /// Whether the last move was rewarded, so the next one is free too (a reward is
    /// then not cancelled at once by the reply).
    past_progress: bool,
    guide: Option<Guide>,
}

impl<'t> Search<'t> {
    pub(crate) fn new(table: &'t mut Table) -> Search<'t> {
        Search {
            table,
            use_table: false,
            iteration: 0,
            max_depth: 0,
            nodes_per_ply: u64::MAX,
            node_limit: u64::MAX,
            iteration_nodes: 0,
            deepening_nodes: 0,
            total_nodes: 0,
            interrupted: false,
            exhaustive: true,
            line: Vec::with_capacity(MAX_PLIES as usize + 16),
            past_progress: false,
            guide: None,
        }
    }

    /// Every node searched so far.
    pub(crate) fn total_nodes(&self) -> u64 {
        self.total_nodes + self.iteration_nodes
    }

    /// The budgets of the next deepening search, and whether it uses a (fresh)
    /// transposition table.
    pub(crate) fn configure(&mut self, nodes_per_ply: u64, node_limit: u64, use_table: bool) {
        self.nodes_per_ply = nodes_per_ply;
        self.node_limit = node_limit;
        self.use_table = use_table;
        self.table.map.clear();
        // A deep search leaves a table of millions of slots, and clearing it costs a
        // pass over them: after one, every later question would pay for it.
        if self.table.map.capacity() > 1 << 16 {
            self.table.map.shrink_to(1 << 12);
        }
        self.total_nodes += self.iteration_nodes;
        self.iteration_nodes = 0;
        self.deepening_nodes = 0;
    }

    /// Guides the next searches (rung 8).
    pub(crate) fn guide(&mut self, guide: Guide) {
        self.guide = Some(guide);
    }

    /// The forced moves played so far (the start of any line found).
    pub(crate) fn line_so_far(&self) -> Vec<Move> {
        self.line.clone()
    }

    /// Plays the moves of positions with exactly one legal move (at most 16: what
    /// matters is that the winnability is kept, not reaching the end). `None` when
    /// they repeat a position: the game is then forced round a cycle for ever, and no
    /// mate can come.
    pub(crate) fn play_forced_moves(
        &mut self,
        start: &Position,
        seen: &mut HashSet<Key, KeyHasher>,
    ) -> Option<Position> {
        let mut pos = *start;
        let mut list = MoveList::new();
        seen.clear();
        seen.insert(Key::of(&pos));
        for _ in 0..16 {
            pos.legal_moves_into(&mut list);
            if list.len() != 1 {
                break;
            }
            pos.play_unchecked(&list[0]);
            self.line.push(list[0]);
            self.iteration_nodes += 1;
            if !seen.insert(Key::of(&pos)) {
                return None;
            }
        }
        Some(pos)
    }

    /// Searches depth by depth: a mating line, a proof that none exists (an iteration
    /// that expanded every reachable position), or `None` when the depths or the
    /// budget ran out first.
    pub(crate) fn iterative_deepening(
        &mut self,
        pos: &Position,
        depths: RangeInclusive<u8>,
    ) -> Option<Verdict> {
        for depth in depths {
            self.max_depth = depth;
            self.iteration += 1;
            self.deepening_nodes += self.iteration_nodes;
            self.total_nodes += self.iteration_nodes;
            self.iteration_nodes = 0;
            self.interrupted = false;
            self.exhaustive = true;
            self.past_progress = false;
            if self.helpmate(pos, 0) {
                return Some(Verdict::Winnable {
                    line: self.line.clone(),
                });
            }
            if !self.interrupted {
                return Some(Verdict::Unwinnable);
            }
            if self.deepening_nodes + self.iteration_nodes > self.node_limit {
                break;
            }
        }
        None
    }

    /// Whether the last deepening search stopped on its node budget (rather than a
    /// verdict or the last depth).
    pub(crate) fn ran_out(&self) -> bool {
        self.deepening_nodes + self.iteration_nodes > self.node_limit
    }

    fn limit_reached(&self) -> bool {
        (self.nodes_per_ply != u64::MAX
            && self.iteration_nodes > u64::from(self.max_depth) * self.nodes_per_ply)
            || self.deepening_nodes + self.iteration_nodes > self.node_limit
    }

    /// The recursive search: true when a mate by White was found, the line then in
    /// `self.line`. `depth` counts the plies of this iteration as the ordering counts
    /// them (a rewarded move is free, a punished one costs four).
    fn helpmate(&mut self, pos: &Position, depth: u8) -> bool {
        let left = self.max_depth.saturating_sub(depth);

        let ply = self.line.len();
        let inner = depth < self.max_depth && ply < MAX_PLIES as usize;
        // A leaf (cut by depth) needs no lookup once the iteration is interrupted and
        // the subtree it ends is not exhaustive: whatever the table says, the leaf
        // returns false and changes neither (a position in the table has moves, so it
        // is no mate either). In a deep search that spares most leaves' lookups, the
        // cache misses of a table larger than the caches.
        let key = if self.use_table && (inner || !self.interrupted || self.exhaustive) {
            let key = Key::of(pos);
            if let Some(entry) = self.table.map.get(&key) {
                if entry.exhaustive && entry.finished {
                    return false;
                }
                if entry.iteration == self.iteration as u8 && entry.left >= left {
                    // Met before in this iteration with as many plies left: on the line
                    // (a repetition) or searched already. Within one iteration that ran
                    // without a cut, every position reached is expanded, which is
                    // enough. (Met with fewer plies left, it is searched again: a mate
                    // beyond that horizon may be within this one.)
                    self.exhaustive = false;
                    return false;
                }
                if entry.iteration != self.iteration as u8 && entry.left >= left {
                    // Searched as deep in an earlier, cut iteration: not again, but
                    // this iteration can then prove nothing.
                    self.interrupted = true;
                    self.exhaustive = false;
                    return false;
                }
            }
            Some(key)
        } else {
            None
        };

        // A node within the depth lists its moves; a leaf at the depth limit (most
        // nodes) only asks whether one exists, which is all it needs (a mate ends the
        // search there too).
        let has_moves = if inner {
            if self.table.lists.len() <= ply {
                self.table.lists.resize_with(ply + 1, MoveList::new);
            }
            // In the order the search tries them (see [`ordering`]).
            pos.legal_moves_ordered_into(&mut self.table.lists[ply]);
            !self.table.lists[ply].is_empty()
        } else {
            pos.has_legal_moves()
        };
        if !has_moves {
            return pos.turn() == Color::Black && pos.is_check();
        }
        if white_cannot_mate(pos) {
            return false;
        }
        if !inner {
            self.interrupted = true;
            self.exhaustive = false;
            return false;
        }

        if let Some(key) = key {
            self.table.map.insert(
                key,
                Entry {
                    left,
                    iteration: self.iteration as u8,
                    finished: false,
                    exhaustive: false,
                },
            );
        }
        let outer_exhaustive = std::mem::replace(&mut self.exhaustive, true);

        let dark_corner = ordering::mates_on_dark_corner(pos);
        for i in 0..self.table.lists[ply].len() {
            // By index: the deeper plies use the lists after this one.
            let m = self.table.lists[ply][i];
            let class = ordering::classify(pos, &m, self.guide.as_ref(), dark_corner);
            self.iteration_nodes += 1;
            if self.limit_reached() {
                self.interrupted = true;
                self.exhaustive = false;
                return false;
            }
            let next_depth = match class {
                Class::Reward => depth,
                Class::Punish => depth + 4,
                Class::Normal => depth + u8::from(!self.past_progress),
            };
            let saved_progress = self.past_progress;
            self.past_progress = class == Class::Reward;
            self.line.push(m);
            if self.helpmate(&pos.play(&m), next_depth) {
                return true;
            }
            self.line.pop();
            self.past_progress = saved_progress;
        }

        let exhaustive = self.exhaustive;
        self.exhaustive &= outer_exhaustive;
        if let Some(entry) = key.and_then(|key| self.table.map.get_mut(&key)) {
            entry.finished = true;
            entry.exhaustive = exhaustive;
        }
        false
    }
}

/// Whether White's material can never mate (see [`cannot_mate`]).
#[inline]
pub(crate) fn white_cannot_mate(pos: &Position) -> bool {
    cannot_mate(pos.board(), Color::White)
}

/// Which sides (by colour index) were never seen moving anything but pawns in a
/// depth-first walk of at most `max_nodes` moves from `pos`.
pub(crate) fn sides_moving_only_pawns(pos: &Position, max_nodes: u64) -> [bool; 2] {
    // Depth first, as a recursion would walk it, on a stack of our own: the walk may go
    // as deep as it has nodes, too deep for a thread's stack with a move list a ply.
    let mut seen = [false; 2];
    let mut nodes = 0;
    let mut stack = vec![(*pos, pos.legal_moves(), 0usize)];
    while let Some((pos, moves, next)) = stack.last_mut() {
        let Some(&m) = moves.get(*next) else {
            stack.pop();
            continue;
        };
        *next += 1;
        let pos = *pos;
        if m.role() != Role::Pawn {
            seen[pos.turn().index()] = true;
        }
        nodes += 1;
        if nodes >= max_nodes || seen.iter().all(|&s| s) {
            break;
        }
        let after = pos.play(&m);
        let moves = after.legal_moves();
        stack.push((after, moves, 0));
    }
    [!seen[0], !seen[1]]
}

/// Whether no position reachable from `pos` is a mate of Black, found by closing the
/// set of reachable positions ply by ply (positions where White cannot mate are not
/// expanded). False, "not proved", when the set grows past `max_positions`.
pub(crate) fn closure_has_no_mate(
    pos: &Position,
    max_positions: usize,
    seen: &mut HashSet<Key, KeyHasher>,
) -> bool {
    seen.clear();
    seen.insert(Key::of(pos));
    let mut frontier = vec![*pos];
    let mut next = Vec::new();
    let mut list = MoveList::new();
    while !frontier.is_empty() {
        for pos in &frontier {
            pos.legal_moves_into(&mut list);
            if list.is_empty() {
                if pos.turn() == Color::Black && pos.is_check() {
                    return false;
                }
                continue;
            }
            if white_cannot_mate(pos) {
                continue;
            }
            for m in list.iter() {
                let after = pos.play(m);
                if seen.insert(Key::of(&after)) {
                    if seen.len() > max_positions {
                        return false;
                    }
                    next.push(after);
                }
            }
        }
        frontier.clear();
        std::mem::swap(&mut frontier, &mut next);
    }
    true
}

/// Follows every move from `pos`, then only checks: a mate ends the chain (true, the
/// line in `line`); a quiet move must lead to a position static deduction proves
/// unwinnable. `Some(false)` when every branch is closed so, `None` when a quiet leaf
/// is not proved or the chain grows past `max_plies`. Positions met before are not
/// searched again (a repetition adds nothing; a position searched before was closed,
/// or the search would have stopped).
pub(crate) fn check_chains(
    pos: &Position,
    visited: &mut HashSet<Key, KeyHasher>,
    line: &mut Vec<Move>,
    plies: u32,
    max_plies: u32,
) -> Option<bool> {
    if plies > max_plies {
        return None;
    }
    visited.insert(Key::of(pos));
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    if list.is_empty() {
        return Some(pos.turn() == Color::Black && pos.is_check());
    }
    for m in list.iter() {
        let after = pos.play(m);
        if visited.contains(&Key::of(&after)) {
            continue;
        }
        if after.is_check() || plies == 0 {
            line.push(*m);
            match check_chains(&after, visited, line, plies + 1, max_plies) {
                Some(true) => return Some(true),
                None => return None,
                Some(false) => {
                    line.pop();
                    continue;
                }
            }
        }
        if !is_statically_unwinnable(&after) {
            return None;
        }
    }
    Some(false)
}
