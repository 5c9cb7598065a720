//! Archive checks: findings across the games of a run (`duplicate-game`,
//! `truncated-copy`, `conflicting-copies`, `round-conflict`, `player-identity`).
//!
//! Whoever checks a game makes its [`GameRecord`] (in the worker, beside the game's own
//! findings) and feeds the records to one [`Archive`] in input order; once every game
//! is in, [`Archive::finish`] judges them. The findings depend only on the records and
//! their order, so they are the same for every number of threads and every buffer size.
//!
//! Memory: the archive keeps seven 32-bit keys per game (28 bytes: the main line; the
//! player pair, alone and with the start and first plies; the pairing, each player and
//! the Board in the game's Event and Round) and one entry per distinct (FideId, name)
//! pair; each game's details (moves and tags, some 260 bytes) go to an anonymous
//! temporary file, whose blocks of eight games it finds by their start (one byte a
//! game), and are read back only for games whose keys repeat. A 32-bit key that repeats
//! by chance costs a read, never a finding: every question is decided on the details.
//!
//! Each finding names its game and the other by their numbers in the run, so that
//! [`merge`] can plan from the findings which copy of each game a merge writes.
//!
//! ```
//! use planilla_parser::Game;
//! use planilla_validator::archive::{Archive, GameRecord};
//! use planilla_validator::{Checker, Code};
//!
//! let pgn = "[White \"Carlsen, M.\"]\n[Black \"Caruana, F.\"]\n\n1. e4 e5 2. Nf3 Nc6 *";
//! let longer = "[White \"Carlsen,M\"]\n[Black \"Caruana,F\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *";
//! let mut archive = Archive::new();
//! let mut checker = Checker::default();
//! let (mut findings, mut main_line) = (Vec::new(), Vec::new());
//! for text in [pgn, longer] {
//!     let game = Game::from_bytes(text, Default::default());
//!     checker.check_main_line(&game, &mut findings, &mut main_line);
//!     archive.push("games.pgn", &GameRecord::new(&game, &main_line))?;
//! }
//! let found = archive.finish()?;
//! assert_eq!(found.len(), 1);
//! // Reported on the shorter game, naming the longer (each game here is a file's first).
//! assert_eq!(found[0].finding.code, Code::TruncatedCopy);
//! assert!(found[0].finding.message.contains("is the start of game 1 of games.pgn (5 plies)"));
//! # Ok::<(), std::io::Error>(())
//! ```

mod detail;
mod facts;
mod judge;
pub mod merge;
mod names;
mod record;
mod spill;
#[cfg(test)]
mod tests;

pub use merge::{Action, MergeConfig, MergePlan, Merits, information};
pub use record::{GameRecord, Shard, ShardRole};

use crate::finding::Finding;
use record::SLOTS;
use spill::Spill;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io;

/// An archive finding about a game of the run: the game's file (as it was named to
/// [`Archive::push`]) and the finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveFinding {
    /// The file of the game the finding is about.
    pub file: String,
    /// The finding; its message names the other game.
    pub finding: Finding,
    /// The number the caller attached to the game's record
    /// ([`GameRecord::set_caller_key`]; 0 if none).
    pub caller_key: u64,
    /// The game's number in the run: 0 for the first game pushed to the [`Archive`],
    /// counting across files (what [`merge::MergePlan`] is keyed by).
    pub game_in_run: u32,
    /// The run-wide number of the other game the finding names (as `game_in_run`).
    pub other_in_run: u32,
}

/// The judge: takes every game's record in input order, and gives the archive findings
/// at the end.
#[derive(Default)]
pub struct Archive {
    /// The files named so far, in order.
    files: Vec<String>,
    /// Each slot's keys, game by game, cut to 32 bits (0: none): a column per slot,
    /// so that the judge can let each go once it is done with it.
    keys: [Vec<u32>; SLOTS],
    /// The first game of each distinct (FideId, normalised name) pair.
    identities: HashMap<(u64, u64), u32, BuildHasherDefault<Mixed>>,
    spill: Spill,
}

impl Archive {
    /// An archive with no game yet.
    pub fn new() -> Archive {
        Archive::default()
    }

    /// Adds the next game of the run, in input order, from file `file`.
    ///
    /// # Errors
    ///
    /// The temporary file cannot be created or written, or the run has more than
    /// 2<sup>32</sup> − 1 games (split it with `--shard-by moves`).
    pub fn push(&mut self, file: &str, record: &GameRecord) -> io::Result<()> {
        let game = u32::try_from(self.keys[0].len())
            .ok()
            .filter(|&n| n < u32::MAX)
            .ok_or_else(|| io::Error::other("more than 4,294,967,294 games in one run"))?;
        if self.files.last().is_none_or(|last| last != file) {
            self.files.push(file.to_string());
        }
        // Truncated to 32 bits: a key that repeats by chance costs a look at the details.
        for (column, key) in self.keys.iter_mut().zip(record.keys) {
            column.push(match key {
                0 => 0,
                k => (k as u32).max(1),
            });
        }
        for identity in record.identities.iter().flatten() {
            self.identities.entry(*identity).or_insert(game);
        }
        self.spill.push(
            (self.files.len() - 1) as u32,
            record.caller_key,
            &record.detail,
        )
    }

    /// Games pushed so far.
    pub fn games(&self) -> u64 {
        self.keys[0].len() as u64
    }

    /// Bytes of details written to the temporary file so far.
    pub fn spilled_bytes(&self) -> u64 {
        self.spill.len()
    }

    /// Judges every game pushed: the findings in input order of the game each is about
    /// (a game's in the order of [`Code`](crate::Code)), at most one per game and code,
    /// each naming the earliest other game that gives it.
    ///
    /// # Errors
    ///
    /// The temporary file cannot be read back.
    pub fn finish(self) -> io::Result<Vec<ArchiveFinding>> {
        judge::judge(self)
    }
}

/// The hasher of the identity map: its keys are hashes already, so one multiply mixes
/// them enough (SipHash, the default, would cost more than the rest of a game's push).
#[derive(Default)]
struct Mixed(u64);

impl Hasher for Mixed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}
