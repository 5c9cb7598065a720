//! `merge`: many sources in, one archive out, each game once. The run shared by the
//! binary (`planilla merge`) and the Python package (`planilla.merge`).
//!
//! Two passes over the same inputs, each driven by the front end through the pipeline
//! with the jobs here:
//!
//! 1. **Judge** ([`JudgeJob`]): every game replayed and its archive record made, as
//!    `check --archive` does, with what the plan weighs of it (its information and
//!    length). [`Merge::judged`] takes the results in input order; [`Merge::plan`]
//!    judges the run and plans the merge
//!    ([`MergePlan`](planilla_validator::archive::MergePlan)), handing back the archive
//!    findings the merge does not act on (`round-conflict`, `player-identity`).
//! 2. **Write** ([`WriteJob`]): every game read again; each worker makes the game's
//!    [`Piece`] (its bytes as read, its text in the output's encoding).
//!    [`Merge::write`] writes each game where the plan says: the kept copies to the
//!    output, dropped copies to `--dropped`, copies of a conflict group to
//!    `--conflicts`, with a [`MergeLine`] for each game not written to the output and
//!    each tag taken; [`Merge::finish`] writes what had to wait and counts.
//!
//! **Order.** Kept games go in the input order of their group's first copy. A game
//! whose kept copy comes later than its first copy (a relay cut short, then the whole
//! game in a later file) opens a hole at that first copy, which closes when the kept
//! copy comes; with `--tags merge`, a kept copy with a dropped copy after it opens one
//! that closes at that copy (it may give a tag). While a hole is open the kept games
//! wait in a spool, each under its place (in memory up to 32 MiB, beyond that in an
//! anonymous temporary file), and when the last open hole closes they are written in
//! order. With `--sort date` every kept game waits, and is written at the end by Date,
//! Event, Round and Board. Conflict groups are written at the end, group after group.
//!
//! **Memory.** The judge's 28 bytes and the plan's 6 a game in pass 1; in pass 2 the
//! plan's entry for each game not kept and 48 bytes for each game waiting in the spool
//! (under `--sort date`, every kept game); the games' text waits on disk.

use crate::pipeline::Job;
use planilla_converter::OutputEncoding;
use planilla_converter::merge::{NEVER_TAKEN, Piece, PieceOptions, SortKey};
use planilla_core::Move;
use planilla_parser::{Game, Joiner};
use planilla_validator::archive::{
    Action, Archive, ArchiveFinding, GameRecord, MergeConfig, MergePlan, Merits, information,
};
use planilla_validator::{Checker, Code, Config, Severity};
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Write};

/// How to merge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// Set apart every copy of a group of conflicting copies (`--conflicts FILE`);
    /// otherwise the first copy is kept and the others dropped with a warning.
    pub set_apart_conflicts: bool,
    /// `--tags merge`: the kept copy takes the tags only dropped copies have.
    pub take_tags: bool,
    /// `--sort date`: kept games by Date, Event, Round and Board, not input order.
    pub sort_by_date: bool,
    /// The output's encoding.
    pub encoding: OutputEncoding,
}

/// Pass 1's work on each game: the archive record and what the plan weighs.
#[derive(Clone, Copy, Debug)]
pub struct JudgeJob {
    /// How the games are read and replayed (language, rules).
    pub config: Config,
}

/// What pass 1 makes of one game.
#[derive(Debug)]
pub struct Judged {
    record: GameRecord,
    information: u32,
    plies: usize,
    index: u64,
    len_in_file: u64,
}

impl Job for JudgeJob {
    type Output = Judged;
    type Worker = (Checker, Vec<Move>, Vec<planilla_validator::Finding>);

    fn worker(&self) -> Self::Worker {
        (Checker::new(self.config), Vec::new(), Vec::new())
    }

    fn run(&self, (checker, main_line, findings): &mut Self::Worker, game: &Game) -> Judged {
        findings.clear();
        checker.check_main_line(game, findings, main_line);
        Judged {
            record: GameRecord::new(game, main_line),
            information: information(game),
            plies: main_line.len(),
            index: game.index(),
            len_in_file: game.len_in_file(),
        }
    }

    /// A game planilla failed on is a copy of no other: written as read.
    fn failed(&self, game: &Game, _: &str) -> Judged {
        Judged {
            record: GameRecord::unjudged(),
            information: 0,
            plies: 0,
            index: game.index(),
            len_in_file: game.len_in_file(),
        }
    }
}

/// Pass 2's work on each game: what may be written of it.
#[derive(Clone, Copy, Debug)]
pub struct WriteJob {
    /// What each piece holds.
    pub options: PieceOptions,
}

impl Job for WriteJob {
    type Output = Piece;
    type Worker = ();

    fn worker(&self) {}

    fn run(&self, (): &mut (), game: &Game) -> Piece {
        Piece::new(game, &self.options)
    }

    fn failed(&self, game: &Game, _: &str) -> Piece {
        Piece {
            raw: game.bytes().to_vec(),
            index: game.index(),
            len_in_file: game.len_in_file(),
            offset: game.offset(),
            ..Piece::default()
        }
    }
}

/// What a report line says was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeAction {
    /// The game was not written: another copy was.
    Dropped,
    /// The game is a copy of a group whose copies part: set apart with the others.
    SetApart,
    /// The kept copy took a tag of this game's.
    TagTaken,
}

impl MergeAction {
    /// The spelling of the JSON Lines report.
    pub fn as_str(self) -> &'static str {
        match self {
            MergeAction::Dropped => "dropped",
            MergeAction::SetApart => "set-apart",
            MergeAction::TagTaken => "tag-taken",
        }
    }
}

/// One line of the merge's report: a game not written to the output, or a tag taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeLine {
    /// What was done.
    pub action: MergeAction,
    /// Why: `duplicate-game`, `truncated-copy`, `conflicting-copies`, or `tag-taken`.
    pub code: &'static str,
    /// `Warning` for copies that part (dropped without `--conflicts`, or set apart),
    /// else `Note`.
    pub severity: Severity,
    /// The game's file (for a tag taken, the file of the copy it came from).
    pub file: String,
    /// The game's 1-based index in its file.
    pub game: u64,
    /// The copy written in its place (for a tag taken, the copy that took it); `None`
    /// for a game set apart.
    pub kept: Option<(String, u64)>,
    /// For a truncated copy, the ply where it stops; for conflicting copies, the first
    /// ply where the group's copies part.
    pub ply: Option<u32>,
    /// For a game set apart, the group's first copy.
    pub group: Option<(String, u64)>,
    /// For a tag taken, its name and its line as written.
    pub tag: Option<(String, String)>,
    /// What was done, in words (the human report's text after the game).
    pub message: String,
}

/// A merge's counts: `games` = `written` + `dropped` + `set_apart`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeCounts {
    /// Inputs read.
    pub files: u64,
    /// Games read.
    pub games: u64,
    /// Games written to the output.
    pub written: u64,
    /// Games dropped (another copy was written).
    pub dropped: u64,
    /// Games set apart (`--conflicts`).
    pub set_apart: u64,
    /// Tags taken by kept copies (`--tags merge`).
    pub tags_taken: u64,
}

/// Where a merge writes: the output, and the optional files of dropped and conflicting
/// copies.
pub struct Sinks<'a> {
    /// The merged games.
    pub out: &'a mut dyn Write,
    /// The dropped copies, byte for byte (`--dropped`).
    pub dropped: Option<&'a mut dyn Write>,
    /// The copies of conflict groups, byte for byte (`--conflicts`).
    pub conflicts: Option<&'a mut dyn Write>,
}

/// An input's games in the run.
#[derive(Clone, Debug)]
struct FileRun {
    name: String,
    /// The run-wide number of its first game.
    first: u32,
    /// Its games, and the bytes they span, as pass 1 read them.
    games: u32,
    bytes: u64,
    /// Its first game's index.
    first_index: u64,
}

/// A merge run: see the [module](self) docs.
pub struct Merge {
    options: MergeOptions,
    archive: Option<Archive>,
    merits: Merits,
    files: Vec<FileRun>,
    /// Games whose index is not their file's first index plus their place (none from
    /// the readers of today; kept so that a report never names the wrong game).
    odd_indexes: HashMap<u32, u64>,
    plan: MergePlan,
    /// Kept copies placed before themselves: their group's first copy.
    slots: HashMap<u32, u32>,
    /// The holes: kept copies that cannot be written when their place comes (their
    /// group's first copy comes before them or, with `--tags merge`, a copy that may
    /// give them a tag comes after them). By the game where a hole opens (the kept
    /// copy's place) and the game after which it closes (the kept copy, or its last
    /// dropped copy), how many.
    opens: HashMap<u32, u32>,
    closes: HashMap<u32, u32>,
    /// Holes open now: while any is, kept games wait in the spool.
    open: u32,
    /// Tags offered to each kept copy by its dropped copies: (name, line, from).
    offered: HashMap<u32, Vec<(String, String, u32)>>,
    /// The known tags of kept copies waiting in the spool, for the tags offered later.
    known: HashMap<u32, Tags>,
    /// Pass 2: the file being written, and the run-wide number of its next game.
    file: usize,
    next: u32,
    read_in_file: (u32, u64),
    spool: Spool,
    conflicts: Spool,
    events: HashMap<String, u32>,
    joiners: [Joiner; 3],
    counts: MergeCounts,
}

impl Merge {
    /// A merge with no game yet.
    pub fn new(options: MergeOptions) -> Merge {
        Merge {
            options,
            archive: Some(Archive::new()),
            merits: Merits::new(),
            files: Vec::new(),
            odd_indexes: HashMap::new(),
            plan: MergePlan::default(),
            slots: HashMap::new(),
            opens: HashMap::new(),
            closes: HashMap::new(),
            open: 0,
            offered: HashMap::new(),
            known: HashMap::new(),
            file: 0,
            next: 0,
            read_in_file: (0, 0),
            spool: Spool::default(),
            conflicts: Spool::default(),
            events: HashMap::new(),
            joiners: Default::default(),
            counts: MergeCounts::default(),
        }
    }

    /// What pass 2's workers make of each game.
    pub fn piece_options(&self) -> PieceOptions {
        PieceOptions {
            encoding: self.options.encoding,
            tags: self.options.take_tags,
            sort: self.options.sort_by_date,
        }
    }

    /// Pass 1: the games that follow are of the input named `name`.
    pub fn open(&mut self, name: &str) {
        let first = self.merits.len() as u32;
        self.files.push(FileRun {
            name: name.to_string(),
            first,
            games: 0,
            bytes: 0,
            first_index: 1,
        });
    }

    /// Pass 1: the next games of the input opened last, in input order.
    ///
    /// # Errors
    ///
    /// The judge's temporary file cannot be written, or the run holds more than
    /// 4,294,967,294 games.
    pub fn judged(&mut self, batch: &[Judged]) -> io::Result<()> {
        let archive = self.archive.as_mut().expect("judged before the plan");
        let file = self.files.last_mut().expect("a file opened");
        for judged in batch {
            let run = self.merits.len() as u32;
            if file.games == 0 {
                file.first_index = judged.index;
            } else if judged.index != file.first_index + u64::from(file.games) {
                self.odd_indexes.insert(run, judged.index);
            }
            file.games += 1;
            file.bytes += judged.len_in_file;
            archive.push(&file.name, &judged.record)?;
            self.merits.push(judged.information, judged.plies);
        }
        Ok(())
    }

    /// Ends pass 1: judges the run and plans the merge. Returns the archive findings the
    /// merge does not act on (`round-conflict`, `player-identity`), to be reported.
    ///
    /// # Errors
    ///
    /// The judge's temporary file cannot be read back.
    pub fn plan(&mut self) -> io::Result<Vec<ArchiveFinding>> {
        let archive = self.archive.take().expect("planned once");
        let findings = archive.finish()?;
        let config = MergeConfig {
            set_apart_conflicts: self.options.set_apart_conflicts,
        };
        self.plan = MergePlan::new(&findings, &self.merits, &config);
        self.merits = Merits::new();
        // Each late kept copy's place (its group's first copy) and the game after which
        // it can be written (itself, or its last dropped copy when it may take tags).
        let mut ready: HashMap<u32, u32> = HashMap::new();
        for &(game, action) in self.plan.changes() {
            if let Action::Drop { kept, .. } = action {
                if game < kept {
                    let slot = self.slots.entry(kept).or_insert(game);
                    *slot = (*slot).min(game);
                    let end = ready.entry(kept).or_insert(kept);
                    *end = (*end).max(kept);
                } else if self.options.take_tags {
                    let end = ready.entry(kept).or_insert(game);
                    *end = (*end).max(game);
                }
            }
        }
        for (kept, end) in ready {
            let start = self.slots.get(&kept).copied().unwrap_or(kept);
            *self.opens.entry(start).or_default() += 1;
            *self.closes.entry(end).or_default() += 1;
        }
        Ok(findings
            .into_iter()
            .filter(|f| {
                !matches!(
                    f.finding.code,
                    Code::DuplicateGame | Code::TruncatedCopy | Code::ConflictingCopies
                )
            })
            .collect())
    }

    /// How many games are kept, dropped and set apart (after [`Merge::plan`]).
    pub fn planned(&self) -> (u64, u64, u64) {
        self.plan.counts()
    }

    /// Pass 2: the games that follow are of the next input.
    ///
    /// # Errors
    ///
    /// The input opened before did not give the games pass 1 read.
    pub fn reopen(&mut self) -> io::Result<()> {
        if self.counts.files > 0 {
            self.check_read()?;
            self.file += 1;
        }
        self.counts.files += 1;
        self.read_in_file = (0, 0);
        for joiner in &mut self.joiners[..2] {
            joiner.next_input();
        }
        if self.file >= self.files.len() {
            return Err(io::Error::other("an input appeared between the two reads"));
        }
        Ok(())
    }

    /// Whether the input being written gave what pass 1 read of it.
    fn check_read(&self) -> io::Result<()> {
        let file = &self.files[self.file];
        if self.read_in_file != (file.games, file.bytes) {
            return Err(io::Error::other(format!(
                "{} changed between the two reads of the merge ({} games, then {}): \
                 nothing is written",
                file.name, file.games, self.read_in_file.0
            )));
        }
        Ok(())
    }

    /// Pass 2: the next games of the input opened last, in input order, written where
    /// the plan says, with a report line for each game not written to the output and
    /// each tag taken.
    ///
    /// # Errors
    ///
    /// A sink or the report failed, a kept game holds a character the output's encoding
    /// cannot hold, or the input is not what pass 1 read.
    pub fn write(
        &mut self,
        batch: &[Piece],
        sinks: &mut Sinks<'_>,
        report: &mut dyn FnMut(&MergeLine) -> io::Result<()>,
    ) -> io::Result<()> {
        for piece in batch {
            let game = self.next;
            self.next += 1;
            self.read_in_file.0 += 1;
            self.read_in_file.1 += piece.len_in_file;
            let file = &self.files[self.file];
            if self.read_in_file.0 > file.games {
                return Err(io::Error::other(format!(
                    "{} changed between the two reads of the merge: nothing is written",
                    file.name
                )));
            }
            self.counts.games += 1;
            self.open += self.opens.get(&game).copied().unwrap_or(0);
            match self.plan.action(game) {
                Action::Keep => self.keep(game, piece, sinks, report)?,
                Action::Drop { kept, code, ply } => {
                    self.counts.dropped += 1;
                    if let Some(out) = sinks.dropped.as_deref_mut() {
                        self.joiners[1].write_from(out, &piece.raw, piece.input(), piece.whole)?;
                    }
                    report(&self.dropped_line(game, kept, code, ply))?;
                    if self.options.take_tags {
                        let offered = self.offered.entry(kept).or_default();
                        for (name, line) in &piece.tags {
                            if !offered.iter().any(|(n, _, _)| n == name) {
                                offered.push((name.clone(), line.clone(), game));
                            }
                        }
                    }
                }
                Action::SetApart { group, ply } => {
                    self.counts.set_apart += 1;
                    let key = SpoolKey {
                        first: group,
                        ..SpoolKey::default()
                    };
                    self.conflicts.put(key, game, &piece.raw, 0, 0)?;
                    let (file, index) = self.name_of(game);
                    let first = self.name_of(group);
                    let message = if group == game {
                        format!("set apart; its copies part at ply {ply}")
                    } else {
                        format!(
                            "set apart; the copies of {} game {} part at ply {ply}",
                            first.0, first.1
                        )
                    };
                    report(&MergeLine {
                        action: MergeAction::SetApart,
                        code: Code::ConflictingCopies.as_str(),
                        severity: Severity::Warning,
                        file,
                        game: index,
                        kept: None,
                        ply: Some(ply),
                        group: Some(first),
                        tag: None,
                        message,
                    })?;
                }
            }
            // The last open hole closed: what waited is written, in order.
            if let Some(&n) = self.closes.get(&game) {
                self.open -= n;
                if self.open == 0 && !self.options.sort_by_date {
                    self.drain(sinks, report)?;
                }
            }
        }
        Ok(())
    }

    /// Writes the kept games waiting in the spool, by their places (under `--sort
    /// date`, by Date, Event, Round and Board), each with the tags it takes.
    fn drain(
        &mut self,
        sinks: &mut Sinks<'_>,
        report: &mut dyn FnMut(&MergeLine) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut spool = std::mem::take(&mut self.spool);
        let encoding = self.options.encoding;
        spool.drain_sorted(|entry, text| {
            let game = entry.game;
            let (known, unknown) = self.known.remove(&game).unwrap_or_default();
            let taken = self.taken(game, &known);
            let piece = Piece {
                raw: text.to_vec(),
                tags_at: entry.tags_at as usize,
                crlf: entry.flags & CRLF != 0,
                no_tags: entry.flags & NO_TAGS != 0,
                unknown,
                ..Piece::default()
            };
            let text = piece
                .with_tags(&taken_lines(&taken), encoding)
                .map_err(|e| unencodable(&self.name_of(game).0, &e))?;
            self.joiners[0].write(sinks.out, &text)?;
            self.counts.written += 1;
            self.report_taken(game, &taken, report)
        })?;
        // The spool's memory and file are used again.
        self.spool = spool;
        Ok(())
    }

    /// A kept game: written now, or put in the spool under its place.
    fn keep(
        &mut self,
        game: u32,
        piece: &Piece,
        sinks: &mut Sinks<'_>,
        report: &mut dyn FnMut(&MergeLine) -> io::Result<()>,
    ) -> io::Result<()> {
        let slot = self.slots.get(&game).copied().unwrap_or(game);
        let text = piece
            .written()
            .map_err(|e| unencodable(&self.name_of(game).0, e))?;
        if self.open == 0 && !self.options.sort_by_date {
            let taken = self.taken(game, &piece.known);
            let text = piece
                .with_tags(&taken_lines(&taken), self.options.encoding)
                .map_err(|e| unencodable(&self.name_of(game).0, &e))?;
            // A game that followed the one written before it in its file follows it here
            // too: no separator is needed, and nothing is tokenized again (tags taken go
            // after its own, so its start and end stay; a game without tags gets them
            // at its start, and is joined as any other).
            if taken.is_empty() || !piece.no_tags {
                self.joiners[0].write_from(sinks.out, &text, piece.input(), piece.whole)?;
            } else {
                self.joiners[0].write(sinks.out, &text)?;
            }
            self.counts.written += 1;
            return self.report_taken(game, &taken, report);
        }
        let mut key = SpoolKey {
            first: slot,
            ..SpoolKey::default()
        };
        if let Some(sort) = &piece.sort {
            key = self.sort_key(sort, slot);
        }
        if self.options.take_tags {
            self.known
                .insert(game, (piece.known.clone(), piece.unknown.clone()));
        }
        let flags = if piece.crlf { CRLF } else { 0 } | if piece.no_tags { NO_TAGS } else { 0 };
        self.spool.put(key, game, text, piece.tags_at as u32, flags)
    }

    /// The tags the kept copy `game` takes from those offered so far, each once, never
    /// one it knows: (name, line, from).
    fn taken(&mut self, game: u32, known: &[String]) -> Vec<(String, String, u32)> {
        let Some(offered) = self.offered.remove(&game) else {
            return Vec::new();
        };
        offered
            .into_iter()
            .filter(|(name, _, _)| {
                !known.iter().any(|k| k == name) && !NEVER_TAKEN.contains(&name.as_str())
            })
            .collect()
    }

    fn report_taken(
        &mut self,
        game: u32,
        taken: &[(String, String, u32)],
        report: &mut dyn FnMut(&MergeLine) -> io::Result<()>,
    ) -> io::Result<()> {
        for (name, line, from) in taken {
            self.counts.tags_taken += 1;
            let (file, index) = self.name_of(*from);
            let kept = self.name_of(game);
            report(&MergeLine {
                action: MergeAction::TagTaken,
                code: "tag-taken",
                severity: Severity::Note,
                message: format!("{line} taken by kept {} game {}", kept.0, kept.1),
                file,
                game: index,
                kept: Some(kept),
                ply: None,
                group: None,
                tag: Some((name.clone(), line.clone())),
            })?;
        }
        Ok(())
    }

    /// The report line of a dropped game.
    fn dropped_line(&self, game: u32, kept: u32, code: Code, ply: Option<u32>) -> MergeLine {
        let (file, index) = self.name_of(game);
        let kept_name = self.name_of(kept);
        let mut message = format!("dropped; kept {} game {}", kept_name.0, kept_name.1);
        let severity = match code {
            Code::TruncatedCopy => {
                message.push_str(&format!(
                    " (this copy stops at ply {})",
                    ply.unwrap_or_default()
                ));
                Severity::Note
            }
            Code::ConflictingCopies => {
                message.push_str(&format!(
                    " (the copies part at ply {}; not set apart without --conflicts)",
                    ply.unwrap_or(1)
                ));
                Severity::Warning
            }
            _ => Severity::Note,
        };
        MergeLine {
            action: MergeAction::Dropped,
            code: code.as_str(),
            severity,
            file,
            game: index,
            kept: Some(kept_name),
            ply,
            group: None,
            tag: None,
            message,
        }
    }

    /// The file and 1-based index of run-wide game `game`.
    fn name_of(&self, game: u32) -> (String, u64) {
        let at = self
            .files
            .partition_point(|f| f.first <= game)
            .saturating_sub(1);
        let file = &self.files[at];
        let index = self
            .odd_indexes
            .get(&game)
            .copied()
            .unwrap_or(file.first_index + u64::from(game - file.first));
        (file.name.clone(), index)
    }

    /// The spool key of a game under `--sort date`.
    fn sort_key(&mut self, sort: &SortKey, slot: u32) -> SpoolKey {
        let count = self.events.len() as u32;
        let event = *self.events.entry(sort.event.clone()).or_insert(count);
        // Each part kept in order: a year in 16 bits, a month and a day in 8 (unknown
        // parts, u16::MAX, become the highest), a Round's numbers in 21 bits each.
        let part = |n: u16, bits: u32| u32::from(n).min((1 << bits) - 1);
        let round = |n: u32| u64::from(n.min((1 << 21) - 1));
        SpoolKey {
            date: part(sort.date[0], 16) << 16 | part(sort.date[1], 8) << 8 | part(sort.date[2], 8),
            event,
            round: round(sort.round[0]) << 42 | round(sort.round[1]) << 21 | round(sort.round[2]),
            board: sort.board,
            first: slot,
        }
    }

    /// Ends pass 2: writes the kept games that waited, in their order, and the conflict
    /// groups, group after group; returns the counts.
    ///
    /// # Errors
    ///
    /// A sink, the report or the temporary files failed, an input was not what pass 1
    /// read, or a tag taken holds a character the output's encoding cannot hold.
    pub fn finish(
        mut self,
        sinks: &mut Sinks<'_>,
        report: &mut dyn FnMut(&MergeLine) -> io::Result<()>,
    ) -> io::Result<MergeCounts> {
        if self.counts.files > 0 {
            self.check_read()?;
        }
        if self.next as usize != self.files.iter().map(|f| f.games as usize).sum::<usize>() {
            return Err(io::Error::other(
                "the inputs changed between the two reads of the merge: nothing is written",
            ));
        }
        // Events sort by their names: each one's rank replaces its number.
        let mut events: Vec<(&String, u32)> = self.events.iter().map(|(e, &n)| (e, n)).collect();
        events.sort_unstable();
        let mut rank = vec![0; events.len()];
        for (r, (_, n)) in events.iter().enumerate() {
            rank[*n as usize] = r as u32;
        }
        if self.options.sort_by_date {
            for entry in &mut self.spool.entries {
                entry.key.event = rank[entry.key.event as usize];
            }
        }
        self.drain(sinks, report)?;
        let mut conflicts = std::mem::take(&mut self.conflicts);
        conflicts.drain_sorted(|_, raw| match sinks.conflicts.as_deref_mut() {
            Some(out) => self.joiners[2].write(out, raw),
            None => Ok(()),
        })?;
        let c = self.counts;
        if c.games != c.written + c.dropped + c.set_apart {
            return Err(io::Error::other(format!(
                "internal error: {} games read, {} written, {} dropped, {} set apart; \
                 please report it",
                c.games, c.written, c.dropped, c.set_apart
            )));
        }
        Ok(c)
    }
}

/// A kept copy's tags with a known value, and those with an unknown one with their spans
/// ([`Piece::known`], [`Piece::unknown`]).
type Tags = (Vec<String>, Vec<(String, u32, u32)>);

/// The lines of the tags taken.
fn taken_lines(taken: &[(String, String, u32)]) -> Vec<(String, String)> {
    taken
        .iter()
        .map(|(name, line, _)| (name.clone(), line.clone()))
        .collect()
}

/// A kept game the output's encoding cannot hold ends the run.
fn unencodable(file: &str, e: &planilla_converter::Unencodable) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{file}:{e}"))
}

/// Where a game waiting in the spool goes: sorted by these fields in order (all 0 but
/// `first` in input order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct SpoolKey {
    date: u32,
    event: u32,
    round: u64,
    board: u32,
    /// The run-wide number of the group's first copy.
    first: u32,
}

/// A game waiting in the spool: its place, where its text is, and where tags go in it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: SpoolKey,
    game: u32,
    len: u32,
    offset: u64,
    tags_at: u32,
    flags: u8,
}

// What each game waiting in the spool holds in memory (the module docs say it).
const _: () = assert!(std::mem::size_of::<Entry>() <= 48);

/// [`Entry::flags`]: the game's lines end in `\r\n`.
const CRLF: u8 = 1;
/// [`Entry::flags`]: the game has no tag section.
const NO_TAGS: u8 = 2;

/// Bytes of text the spool holds in memory before it writes them to its file.
const SPOOL_MEMORY: usize = 32 << 20;

/// Games waiting to be written in another order: their places in memory, their text in
/// memory up to [`SPOOL_MEMORY`] and beyond that in an anonymous temporary file.
#[derive(Default)]
struct Spool {
    /// The text of offsets `[0, in_file)`.
    file: Option<File>,
    in_file: u64,
    /// The text of offsets from `in_file` on.
    memory: Vec<u8>,
    entries: Vec<Entry>,
    /// Bytes held in memory at most (0: [`SPOOL_MEMORY`]).
    limit: usize,
}

impl Spool {
    fn put(
        &mut self,
        key: SpoolKey,
        game: u32,
        text: &[u8],
        tags_at: u32,
        flags: u8,
    ) -> io::Result<()> {
        let len = u32::try_from(text.len()).map_err(|_| io::Error::other("a game over 4 GiB"))?;
        let limit = if self.limit == 0 {
            SPOOL_MEMORY
        } else {
            self.limit
        };
        if self.memory.len() + text.len() > limit && !self.memory.is_empty() {
            let file = match &mut self.file {
                Some(file) => file,
                None => self.file.insert(tempfile::tempfile()?),
            };
            write_at(file, &self.memory, self.in_file)?;
            self.in_file += self.memory.len() as u64;
            self.memory.clear();
        }
        self.entries.push(Entry {
            key,
            game,
            len,
            offset: self.in_file + self.memory.len() as u64,
            tags_at,
            flags,
        });
        self.memory.extend_from_slice(text);
        Ok(())
    }

    /// Hands each game's entry and text to `on`, by key, then input order, and leaves
    /// the spool empty (its file kept, to be written over).
    fn drain_sorted(
        &mut self,
        mut on: impl FnMut(&Entry, &[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        self.entries.sort_unstable_by_key(|e| (e.key, e.game));
        let mut text = Vec::new();
        for entry in &self.entries {
            let (start, len) = (entry.offset, entry.len as usize);
            let bytes = match start.checked_sub(self.in_file) {
                Some(at) => &self.memory[at as usize..at as usize + len],
                None => {
                    text.resize(len, 0);
                    let file = self.file.as_ref().expect("written before");
                    read_at(file, &mut text, start)?;
                    &text[..]
                }
            };
            on(entry, bytes)?;
        }
        self.entries.clear();
        self.memory.clear();
        self.in_file = 0;
        Ok(())
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(unix)]
fn write_at(file: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, buf, offset)
}

#[cfg(not(unix))]
fn read_at(mut file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

#[cfg(not(unix))]
fn write_at(mut file: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    use std::io::{Seek, SeekFrom};
    file.seek(SeekFrom::Start(offset))?;
    file.write_all(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spool hands its games back by key, then input order, whether their text is in
    /// memory or in its file, and is used again after it is drained.
    #[test]
    fn spool_orders_games_from_memory_and_file() {
        let mut spool = Spool {
            limit: 10,
            ..Spool::default()
        };
        for round in 0..2 {
            let games: [(u32, &[u8]); 5] = [
                (3, b"third game"),
                (1, b"first"),
                (3, b"third again, a longer text than the limit"),
                (2, b"second"),
                (1, b"first again"),
            ];
            for (game, (first, text)) in games.iter().enumerate() {
                let key = SpoolKey {
                    first: *first,
                    ..SpoolKey::default()
                };
                spool.put(key, game as u32, text, 0, 0).unwrap();
            }
            assert!(
                spool.file.is_some(),
                "round {round}: nothing went to the file"
            );
            let mut seen = Vec::new();
            spool
                .drain_sorted(|entry, text| {
                    seen.push((entry.game, text.to_vec()));
                    Ok(())
                })
                .unwrap();
            let order: Vec<u32> = seen.iter().map(|(g, _)| *g).collect();
            assert_eq!(order, [1, 4, 3, 0, 2], "round {round}");
            for (game, text) in seen {
                assert_eq!(text, games[game as usize].1, "round {round}");
            }
            assert!(spool.entries.is_empty() && spool.memory.is_empty());
        }
    }
}
