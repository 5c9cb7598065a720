//! The merge plan: which copy of each game of a run to write, from the run's archive
//! findings (the groundwork of `planilla merge`).
//!
//! A [`MergePlan`] gives each game of the run, by its run-wide number
//! ([`ArchiveFinding::game_in_run`]), an [`Action`]:
//!
//! - **Exact duplicates** (`duplicate-game`) keep one copy: the one with the most
//!   information ([`information`]), then the earliest in input order.
//! - **Truncated copies** (`truncated-copy`) give way to the longest copy. Each game
//!   follows the game its finding names (the earliest longer copy when it is truncated,
//!   else the first copy of its line when it is a duplicate) until a game that names
//!   none: the main line grows or stays at each step, so every game of such a chain of
//!   truncations and duplicates is dropped in favour of one copy of the chain's longest
//!   line (ties by information, then input order). A dropped copy shorter than the kept
//!   one is a `truncated-copy` and names the ply where it stops (its length).
//! - **Conflicting copies** (`conflicting-copies`) join the chains of the two games into
//!   one group. With [`MergeConfig::set_apart_conflicts`], every copy of the group is set
//!   apart, with the first ply where copies of the group part; without it the kept copy
//!   of the group's first chain (by input order) is kept and every other copy of the
//!   group is dropped as a `conflicting-copies`, which a report shows as a warning.
//! - Every other game is kept, whatever else the judge found of it (`round-conflict` and
//!   `player-identity` are reported, not acted on).
//!
//! What the plan weighs of each game is in [`Merits`], pushed in input order: the
//! information score ([`information`], a `u32` made in the worker from the
//! [`Game`]) and the main line's length in plies (a `u16`): 6 bytes a game beside the
//! judge's 28. The plan itself holds only the games it does not keep, so a run of
//! distinct games costs nothing more.
//!
//! The information score is one number whose order is the issue's order of what counts:
//! four bytes, from the highest, (1) the tags with a known value (not empty, not made of
//! `?`, `.`, `-` and `*` alone: `?`, `????.??.??`, a Round `-` and a Result `*` are
//! unknown), (2) the comments with text beyond their commands, (3) the variations,
//! (4) the clock and eval commands (`[%clk]`, `[%emt]`, `[%eval]`). Each count stops at
//! 255, so that comparing two scores compares the tags first, then the comments, and so
//! on. It is a function of the game rather than a field of [`GameRecord`](super::GameRecord)
//! because the judge does not need it: only merge pays for it.
//!
//! ```
//! use planilla_validator::archive::{Archive, GameRecord, merge};
//! use planilla_validator::archive::merge::{Action, MergeConfig, MergePlan, Merits};
//! use planilla_parser::Game;
//! use planilla_validator::{Checker, Code};
//!
//! let short = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 *";
//! let long = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *";
//! let (mut archive, mut merits) = (Archive::new(), Merits::new());
//! let mut checker = Checker::default();
//! let (mut findings, mut main_line) = (Vec::new(), Vec::new());
//! for text in [short, long] {
//!     let game = Game::from_bytes(text, Default::default());
//!     checker.check_main_line(&game, &mut findings, &mut main_line);
//!     archive.push("games.pgn", &GameRecord::new(&game, &main_line))?;
//!     merits.push(merge::information(&game), main_line.len());
//! }
//! let plan = MergePlan::new(&archive.finish()?, &merits, &MergeConfig::default());
//! let dropped = Action::Drop { kept: 1, code: Code::TruncatedCopy, ply: Some(3) };
//! assert_eq!(plan.action(0), dropped);
//! assert_eq!(plan.action(1), Action::Keep);
//! # Ok::<(), std::io::Error>(())
//! ```

use super::ArchiveFinding;
use crate::finding::Code;
use planilla_parser::{Game, TokenKind};
use std::collections::HashMap;

/// What the merge does with one game of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The game is written.
    Keep,
    /// The game is not written: `kept` (a run-wide game number) is the copy written in
    /// its place.
    Drop {
        /// The copy written instead.
        kept: u32,
        /// Why: `duplicate-game` (the same main line as `kept`), `truncated-copy` (the
        /// start of `kept`'s), or `conflicting-copies` (the copies part and conflicts
        /// are not set apart: a warning).
        code: Code,
        /// For `truncated-copy`, the ply where this copy stops (its length); for
        /// `conflicting-copies`, the first ply where the group's copies part.
        ply: Option<u32>,
    },
    /// The game is a copy of a group whose copies part: none of them is written.
    SetApart {
        /// The group: the run-wide number of its first game.
        group: u32,
        /// The first ply where copies of the group part.
        ply: u32,
    },
}

/// How to plan a merge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeConfig {
    /// Set apart every copy of a group of conflicting copies (`--conflicts FILE`);
    /// otherwise the first copy is kept and the others dropped with a warning.
    pub set_apart_conflicts: bool,
}

/// What the plan weighs of each game of the run, pushed in input order: its
/// information score ([`information`]) and its main line's length in plies.
#[derive(Clone, Debug, Default)]
pub struct Merits {
    information: Vec<u32>,
    plies: Vec<u16>,
}

impl Merits {
    /// No game yet.
    pub fn new() -> Merits {
        Merits::default()
    }

    /// Adds the next game of the run: its [`information`] and the plies of its
    /// replayed main line (counted up to 65,535: no game is longer).
    pub fn push(&mut self, information: u32, plies: usize) {
        self.information.push(information);
        self.plies.push(u16::try_from(plies).unwrap_or(u16::MAX));
    }

    /// Games pushed so far.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// Whether no game was pushed.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// The information of run-wide game `game` (0 if it was not pushed).
    fn information(&self, game: u32) -> u32 {
        self.information.get(game as usize).copied().unwrap_or(0)
    }

    /// The plies of run-wide game `game` (0 if it was not pushed).
    fn plies(&self, game: u32) -> u32 {
        self.plies.get(game as usize).map_or(0, |&p| u32::from(p))
    }
}

/// The information score of a game: its known tags, then comments, then variations,
/// then clock and eval commands, a byte each (see the [module](self) docs). A higher
/// score is the richer copy.
pub fn information(game: &Game) -> u32 {
    let bytes = game.bytes();
    let tags = game.tags();
    let name = |i: usize| bytes.get(tags[i].name_span()).unwrap_or_default();
    // A tag counts once, however often it is written.
    let known = (0..tags.len())
        .filter(|&i| {
            let value = bytes.get(tags[i].value_span()).unwrap_or_default();
            let unknown = value
                .trim_ascii()
                .iter()
                .all(|b| matches!(b, b'?' | b'.' | b'-' | b'*'));
            !unknown && (0..i).all(|j| name(j) != name(i))
        })
        .count();
    let (mut comments, mut variations, mut commands) = (0usize, 0usize, 0usize);
    for token in game.tokens() {
        match token.kind {
            TokenKind::Comment | TokenKind::LineComment => {
                let text = game.token_bytes(token);
                let text = match token.kind {
                    TokenKind::Comment => text.strip_prefix(b"{").unwrap_or(text),
                    _ => text.strip_prefix(b";").unwrap_or(text),
                };
                let text = text.strip_suffix(b"}").unwrap_or(text);
                let (has_text, count) = comment_commands(text);
                comments += usize::from(has_text);
                commands += count;
            }
            TokenKind::VariationStart => variations += 1,
            _ => {}
        }
    }
    let byte = |n: usize| n.min(255) as u32;
    byte(known) << 24 | byte(comments) << 16 | byte(variations) << 8 | byte(commands)
}

/// Whether a comment's text has words beyond its `[%...]` commands, and how many of
/// those are clock or eval commands (`clk`, `emt`, `eval`).
fn comment_commands(text: &[u8]) -> (bool, usize) {
    let (mut has_text, mut count, mut at) = (false, 0, 0);
    while at < text.len() {
        let rest = &text[at..];
        let Some(start) = rest.windows(2).position(|w| w == b"[%") else {
            has_text |= !rest.trim_ascii().is_empty();
            break;
        };
        has_text |= !rest[..start].trim_ascii().is_empty();
        let name_start = start + 2;
        let name_len = rest[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if matches!(
            &rest[name_start..name_start + name_len],
            b"clk" | b"emt" | b"eval"
        ) {
            count += 1;
        }
        let end = rest[name_start..]
            .iter()
            .position(|&b| b == b']')
            .map_or(rest.len(), |i| name_start + i + 1);
        at += end;
    }
    (has_text, count)
}

/// What a merge does with each game of a run: see the [module](self) docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergePlan {
    /// The games of the run (as many as [`Merits`] were pushed).
    games: u64,
    /// The games not kept, by run-wide number, in order.
    changes: Vec<(u32, Action)>,
}

impl MergePlan {
    /// The plan for a run from its archive findings (any order; findings of other codes
    /// are left alone) and the merits of its games.
    pub fn new(findings: &[ArchiveFinding], merits: &Merits, config: &MergeConfig) -> MergePlan {
        // Each game's step: the copy its truncated-copy finding names, else the one its
        // duplicate-game finding names. Steps never shorten the line and a duplicate's
        // names an earlier game, so following them ends.
        let mut step: HashMap<u32, (u32, Code)> = HashMap::new();
        let mut conflicts: Vec<(u32, u32, u32)> = Vec::new();
        for found in findings {
            let (game, other) = (found.game_in_run, found.other_in_run);
            match found.finding.code {
                Code::TruncatedCopy => {
                    step.insert(game, (other, Code::TruncatedCopy));
                }
                Code::DuplicateGame => {
                    step.entry(game).or_insert((other, Code::DuplicateGame));
                }
                Code::ConflictingCopies => {
                    conflicts.push((game, other, found.finding.ply.unwrap_or(1)));
                }
                _ => {}
            }
        }
        // The chains: each game's last step (its root), and each root's games.
        let roots = Roots::of(&step);
        let root_of = |game: u32| roots.0.get(&game).copied().unwrap_or(game);
        let mut chains: HashMap<u32, Vec<u32>> = HashMap::new();
        for (&game, &root) in &roots.0 {
            chains.entry(root).or_default().push(game);
        }
        for &(game, other, _) in &conflicts {
            for end in [game, other] {
                chains.entry(root_of(end)).or_default();
            }
        }
        for (&root, games) in chains.iter_mut() {
            games.push(root);
            games.sort_unstable();
            games.dedup();
        }
        // Each chain's kept copy: the longest, then the richest, then the earliest.
        let kept_of: HashMap<u32, u32> = chains
            .iter()
            .map(|(&root, games)| {
                let best = games.iter().copied().max_by_key(|&g| {
                    (merits.plies(g), merits.information(g), std::cmp::Reverse(g))
                });
                (root, best.unwrap_or(root))
            })
            .collect();
        // Conflicts join chains into groups: a union of roots, with the group's first
        // parting ply.
        let mut groups = Groups::default();
        for &(game, other, ply) in &conflicts {
            groups.join(root_of(game), root_of(other), ply);
        }

        // Each group's first game, and the root of the chain that has it.
        let mut firsts: HashMap<u32, (u32, u32)> = HashMap::new();
        for (&root, games) in &chains {
            let first = (games[0], root);
            let entry = firsts.entry(groups.find(root)).or_insert(first);
            *entry = (*entry).min(first);
        }

        let mut changes = Vec::new();
        for (&root, games) in &chains {
            let kept = kept_of[&root];
            let group = groups.find(root);
            let conflict = groups.ply.get(&group).copied();
            let (first, first_root) = firsts[&group];
            for &game in games {
                let action = match conflict {
                    Some(ply) if config.set_apart_conflicts => {
                        Action::SetApart { group: first, ply }
                    }
                    Some(ply) => {
                        let first_kept = kept_of[&first_root];
                        if first_kept == kept {
                            chain_drop(game, kept, merits)
                        } else {
                            Action::Drop {
                                kept: first_kept,
                                code: Code::ConflictingCopies,
                                ply: Some(ply),
                            }
                        }
                    }
                    None => chain_drop(game, kept, merits),
                };
                if action != Action::Keep {
                    changes.push((game, action));
                }
            }
        }
        changes.sort_unstable_by_key(|&(game, _)| game);
        MergePlan {
            games: merits.len() as u64,
            changes,
        }
    }

    /// What the merge does with run-wide game `game`.
    pub fn action(&self, game: u32) -> Action {
        self.changes
            .binary_search_by_key(&game, |&(g, _)| g)
            .map_or(Action::Keep, |i| self.changes[i].1)
    }

    /// The games not kept, with their actions, in input order.
    pub fn changes(&self) -> &[(u32, Action)] {
        &self.changes
    }

    /// How many games of the run are kept, dropped and set apart: they add up to the
    /// games whose [`Merits`] were pushed.
    pub fn counts(&self) -> (u64, u64, u64) {
        let dropped = self
            .changes
            .iter()
            .filter(|(_, a)| matches!(a, Action::Drop { .. }))
            .count() as u64;
        let set_apart = self.changes.len() as u64 - dropped;
        let kept = self.games.saturating_sub(dropped + set_apart);
        (kept, dropped, set_apart)
    }
}

/// The action of `game` in a chain whose kept copy is `kept`: kept, or dropped as a
/// duplicate of it (the same length) or a truncated copy (shorter).
fn chain_drop(game: u32, kept: u32, merits: &Merits) -> Action {
    if game == kept {
        Action::Keep
    } else if merits.plies(game) == merits.plies(kept) {
        Action::Drop {
            kept,
            code: Code::DuplicateGame,
            ply: None,
        }
    } else {
        Action::Drop {
            kept,
            code: Code::TruncatedCopy,
            ply: Some(merits.plies(game)),
        }
    }
}

/// Each game with a step and the root its steps lead to, each path walked once.
struct Roots(HashMap<u32, u32>);

impl Roots {
    fn of(step: &HashMap<u32, (u32, Code)>) -> Roots {
        let mut roots: HashMap<u32, u32> = HashMap::with_capacity(step.len());
        let mut path = Vec::new();
        for &start in step.keys() {
            let mut game = start;
            // Findings that loop (which the judge never gives) end where they meet a
            // game of the path again.
            while let Some(&(next, _)) = step.get(&game) {
                if roots.contains_key(&game) || path.len() > step.len() {
                    break;
                }
                path.push(game);
                game = next;
            }
            let root = roots.get(&game).copied().unwrap_or(game);
            for walked in path.drain(..) {
                roots.insert(walked, root);
            }
        }
        Roots(roots)
    }
}

/// The groups of chains that conflicts join: a union-find over the chains' roots (each
/// group named by its lowest root), with each group's first parting ply.
#[derive(Default)]
struct Groups {
    parent: HashMap<u32, u32>,
    ply: HashMap<u32, u32>,
}

impl Groups {
    fn find(&self, mut root: u32) -> u32 {
        while let Some(&up) = self.parent.get(&root).filter(|&&up| up != root) {
            root = up;
        }
        root
    }

    fn join(&mut self, a: u32, b: u32, ply: u32) {
        let (a, b) = (self.find(a), self.find(b));
        let (low, high) = (a.min(b), a.max(b));
        if low != high {
            self.parent.insert(high, low);
        }
        let from_high = self.ply.remove(&high).unwrap_or(u32::MAX);
        let entry = self.ply.entry(low).or_insert(ply);
        *entry = (*entry).min(ply).min(from_high);
    }
}

#[cfg(test)]
mod tests;
