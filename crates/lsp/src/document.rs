//! An open document: its text, its line starts, and per game what `check` found and
//! what the outline needs, so that an edit re-reads and re-checks only the games it
//! touched while every other game's results are kept (moved by the edit's length).
//!
//! The games are read by the parser's [`Reader`], started at the first touched game's
//! [`Origin`] (its offset, line, number and what the game before it left), exactly as a
//! reader of the whole text would read them there; the reading stops at the first game
//! boundary that falls where an untouched game already starts, in the same state. So
//! the games and findings are always those of `check` on the whole text.

use crate::Settings;
use crate::lines::{LineIndex, Units};
use lsp_types::Range as LspRange;
use planilla_core::Move;
use planilla_engine::pipeline::{BatchConfig, Job, process_stream};
use planilla_parser::{Encoding, Game, Origin, Reader, ReaderBuilder, TokenKind};
use planilla_validator::archive::{Archive, GameRecord};
use planilla_validator::trf::TrfCheck;
use planilla_validator::{Checker, Finding, internal_error};
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};

/// Games re-read by an edit past which the rest is read by the engine's pipeline, on
/// every core (a paste of a whole file into an open document).
const IN_LINE_GAMES: usize = 64;

/// The pool the games of an opened document are checked on: every core.
fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new().build().unwrap_or_else(|_| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .expect("a thread")
        })
    })
}

/// A finding of one game with the bytes it is about, relative to the game's start.
#[derive(Clone, Debug)]
pub struct Located {
    /// The finding as `check` reports it.
    pub finding: Finding,
    /// The bytes underlined: the move's whole token, a tag's whole line.
    pub span: Range<u32>,
}

/// What the outline shows of a game.
#[derive(Clone, Debug, Default)]
pub struct Outline {
    /// The Seven Tag Roster values the outline names the game by (`?` where missing).
    pub white: String,
    /// Black.
    pub black: String,
    /// Event.
    pub event: String,
    /// Round.
    pub round: String,
    /// Result.
    pub result: String,
    /// The game's first line (relative bytes, its line end excluded).
    pub head: Range<u32>,
    /// The game's text without the blank lines after it (relative bytes).
    pub body: Range<u32>,
    /// Ranges that fold (relative bytes): the tag section, variations and comments.
    pub folds: Vec<(Range<u32>, Fold)>,
}

/// What a folding range holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// The tag section.
    Tags,
    /// A variation, parentheses included.
    Variation,
    /// A comment.
    Comment,
}

/// One game of a document.
#[derive(Clone, Debug)]
pub struct GameState {
    /// A number no other game of the document had (a game read again gets a new one):
    /// the archive findings, judged apart, name their games by it.
    pub id: u64,
    /// Where its reading starts: `offset` is its first byte in the text. Its
    /// `after_result` is true where the game before was over a reader limit (a
    /// reading that reaches this game from there is not known to read it alike).
    pub origin: Origin,
    /// The game was over a reader limit (bytes of it were skipped).
    pub skipped: bool,
    /// The byte after its last one.
    pub end: usize,
    /// Its findings, in the order `check` reports them.
    pub findings: Vec<Located>,
    /// Its archive record (`None` if planilla failed on it).
    pub record: Option<GameRecord>,
    /// What the outline and the folding ranges show of it.
    pub outline: Outline,
}

impl GameState {
    /// The game's first byte in the text.
    pub fn start(&self) -> usize {
        self.origin.offset as usize
    }
}

/// An open document.
pub struct Document {
    /// The text, as the client has it.
    pub text: String,
    /// The client's version of the text.
    pub version: i32,
    /// Its line starts.
    pub lines: LineIndex,
    /// Its games, in order; together they cover the text.
    pub games: Vec<GameState>,
    /// The name archive findings call the document by (its path, else its URI).
    pub name: String,
    /// How it is checked.
    pub settings: Settings,
    /// The archive findings across the games, by game id, and the version of the text
    /// they were judged on (`None`: never judged).
    pub archive: Vec<(u64, Finding)>,
    /// See `archive`.
    pub archive_version: Option<i32>,
    next_id: u64,
}

impl Document {
    /// A document opened with `text`, every game read and checked.
    pub fn open(text: String, version: i32, name: String, settings: Settings) -> Document {
        let mut doc = Document {
            lines: LineIndex::new(&text),
            text,
            version,
            games: Vec::new(),
            name,
            settings,
            archive: Vec::new(),
            archive_version: None,
            next_id: 0,
        };
        doc.read_all();
        doc
    }

    /// The games of `bytes`, read by `builder` and checked on every core (the engine's
    /// ordered pipeline), in order.
    fn check_games(&self, builder: ReaderBuilder, bytes: &[u8]) -> Vec<GameState> {
        let job = CheckGame {
            settings: &self.settings,
        };
        let mut games = Vec::new();
        // Reading bytes in memory fails only if the tokenizer panicked (a bug): the
        // games before stand, as in `check`.
        let _ = process_stream(
            builder,
            bytes,
            BatchConfig::default(),
            pool(),
            &job,
            |batch: &mut Vec<GameState>| {
                games.append(batch);
                Ok(())
            },
        );
        games
    }

    /// Reads and checks every game on every core (the engine's ordered pipeline).
    fn read_all(&mut self) {
        let builder = ReaderBuilder::new().encoding(Encoding::Auto);
        let mut games = self.check_games(builder, self.text.as_bytes());
        for i in 0..games.len() {
            games[i].origin.after_result = i > 0 && games[i - 1].skipped;
            games[i].id = self.next_id;
            self.next_id += 1;
        }
        self.games = games;
    }

    /// Applies one change of the client's: the text in `range` (the whole text if
    /// `None`) replaced by `new`. Only the games the change touched are read and checked
    /// again, with the game before them (where a game ends can depend on how the next
    /// begins); a game ending where the change starts counts as touched (typing at the
    /// end of a game's last line continues that game).
    pub fn change(&mut self, range: Option<LspRange>, new: &str, units: Units) {
        let Some(range) = range else {
            self.text = new.to_string();
            self.lines = LineIndex::new(&self.text);
            self.read_all();
            return;
        };
        let a = self.lines.offset(&self.text, range.start, units);
        let b = self.lines.offset(&self.text, range.end, units).max(a);
        // Lines as the parser counts them (at `\n` only; the protocol's also end at a
        // lone `\r`): the games after the change move by this many.
        let newlines = |t: &[u8]| memchr::memchr_iter(b'\n', t).count() as i64;
        let lines_down = newlines(new.as_bytes()) - newlines(&self.text.as_bytes()[a..b]);
        self.text.replace_range(a..b, new);
        self.lines = LineIndex::new(&self.text);
        let delta = new.len() as i64 - (b - a) as i64;
        // The touched games: those that overlap a..=b (the games cover the text, in
        // order; where none does, the game before the change is read again).
        let len = self.games.len();
        let mut i = self.games.partition_point(|g| g.end < a);
        let mut j = self.games.partition_point(|g| g.start() <= b);
        if j <= i {
            i = j.saturating_sub(1).min(i);
            j = (i + 1).min(len);
        }
        while i > 0 && self.games[i].start() > a {
            i -= 1;
        }
        // Where a game ends can depend on the first bytes of the next (text without tags
        // after a result), so the game before the first touched one is read again too.
        i = i.saturating_sub(1);
        let from = match self.games.get(i) {
            Some(g) if g.start() <= a => g.origin,
            _ => Origin::default(),
        };
        for g in &mut self.games[j..] {
            g.origin.offset = (g.origin.offset as i64 + delta) as u64;
            g.end = (g.end as i64 + delta) as usize;
            if let (Some(record), true) = (&mut g.record, lines_down != 0) {
                record.relocate(g.origin.games + 1, lines_down);
            }
            g.origin.line = (g.origin.line as i64 + lines_down) as u64;
        }
        self.games.drain(i..j);
        self.reread(i, from);
    }

    /// Reads the games from `origin` on, as game `at` of the list, until a game boundary
    /// falls where a kept game starts (in the same state), and checks them; the kept games
    /// that the new ones cover are dropped, and the games after are numbered anew.
    fn reread(&mut self, at: usize, origin: Origin) {
        let origin = Origin {
            games: at as u64,
            ..origin
        };
        let mut reader = reader_at(&self.text, origin);
        let mut k = at;
        let mut fresh = Vec::new();
        let mut worker = Worker::new(&self.settings);
        // The reader's state before the game read next.
        let mut before = origin;
        loop {
            if fresh.len() == IN_LINE_GAMES {
                // A long stretch changed (a paste): the rest of the text on every core.
                self.games.truncate(at);
                self.games.append(&mut fresh);
                self.read_rest(before);
                return;
            }
            let mut game = Game::new();
            let read = reader.read_game(&mut game).unwrap_or(false);
            if !read {
                k = self.games.len();
                break;
            }
            let job = CheckGame {
                settings: &self.settings,
            };
            let mut state = match catch_unwind(AssertUnwindSafe(|| job.run(&mut worker, &game))) {
                Ok(state) => state,
                Err(panic) => {
                    worker = Worker::new(&self.settings);
                    job.failed(&game, &panic_text(&*panic))
                }
            };
            state.origin.after_result = before.after_result;
            state.id = self.next_id;
            self.next_id += 1;
            fresh.push(state);
            let next = reader.origin();
            before = next;
            while k < self.games.len() && self.games[k].origin.offset < next.offset {
                k += 1;
            }
            if self.games.get(k).is_some_and(|g| {
                g.origin.offset == next.offset && g.origin.after_result == next.after_result
            }) {
                break;
            }
        }
        let added = fresh.len();
        self.games.splice(at..k, fresh);
        for (n, g) in self.games.iter_mut().enumerate().skip(at + added) {
            if g.origin.games != n as u64 {
                g.origin.games = n as u64;
                if let Some(record) = &mut g.record {
                    record.relocate(n as u64 + 1, 0);
                }
            }
        }
    }

    /// Reads and checks the games from `origin` to the end of the text on every core,
    /// after the games kept.
    fn read_rest(&mut self, origin: Origin) {
        let builder = ReaderBuilder::new().encoding(Encoding::Auto).origin(origin);
        let from = (origin.offset as usize).min(self.text.len());
        let games = self.check_games(builder, &self.text.as_bytes()[from..]);
        let mut after_result = origin.after_result;
        for mut g in games {
            g.origin.after_result = after_result;
            after_result = g.skipped;
            g.id = self.next_id;
            self.next_id += 1;
            self.games.push(g);
        }
    }

    /// Every game's archive record, by game id (what [`judge`] needs, to be judged
    /// apart from the document).
    pub fn records(&self) -> Vec<(u64, GameRecord)> {
        self.games
            .iter()
            .filter_map(|g| Some((g.id, g.record.clone()?)))
            .collect()
    }

    /// Judges the archive now (see [`judge`]).
    pub fn judge_now(&mut self) {
        self.archive = judge(&self.name, &self.records());
        self.archive_version = Some(self.version);
    }

    /// The index of the game holding byte `at` (the last game for the text's end).
    pub fn game_at(&self, at: usize) -> Option<usize> {
        let i = self.games.partition_point(|g| g.start() <= at);
        (i > 0).then(|| i - 1)
    }

    /// Game `i` read again from the text, with its number, offset and lines.
    pub fn read_game(&self, i: usize) -> Option<Game> {
        let state = self.games.get(i)?;
        let mut reader = reader_at(&self.text, state.origin);
        let mut game = Game::new();
        reader.read_game(&mut game).ok()?.then_some(game)
    }
}

/// A reader of `text` from `origin` on, as a reader of the whole text reads there.
pub fn reader_at(text: &str, origin: Origin) -> Reader<&[u8]> {
    let from = (origin.offset as usize).min(text.len());
    ReaderBuilder::new()
        .encoding(Encoding::Auto)
        .origin(origin)
        .build(&text.as_bytes()[from..])
}

/// The archive findings across a document's games (`check --archive` on the file), by
/// game id, from their records.
pub fn judge(name: &str, records: &[(u64, GameRecord)]) -> Vec<(u64, Finding)> {
    let mut archive = Archive::new();
    for (_, record) in records {
        if archive.push(name, record).is_err() {
            return Vec::new();
        }
    }
    let Ok(found) = archive.finish() else {
        return Vec::new();
    };
    found
        .into_iter()
        .filter_map(|a| Some((records.get(a.game_in_run as usize)?.0, a.finding)))
        .collect()
}

/// The text of a panic's payload.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// What the document does to each game it reads: `check`'s work, with what the
/// diagnostics, the archive and the outline need.
struct CheckGame<'a> {
    settings: &'a Settings,
}

impl Job for CheckGame<'_> {
    type Output = GameState;
    type Worker = Worker;

    fn worker(&self) -> Worker {
        Worker::new(self.settings)
    }

    fn run(&self, worker: &mut Worker, game: &Game) -> GameState {
        worker.check(game)
    }

    /// A game planilla failed on is one `internal-error` finding, as in `check`.
    fn failed(&self, game: &Game, panic: &str) -> GameState {
        let message = format!("planilla failed on this game ({panic}); please report it");
        let finding = internal_error(game, message);
        state(game, vec![finding], None)
    }
}

/// A thread's checker, the buffer of a main line's moves, and the tournament report the
/// games are judged against.
struct Worker {
    checker: Checker,
    main_line: Vec<Move>,
    trf: Option<Arc<TrfCheck>>,
}

impl Worker {
    fn new(settings: &Settings) -> Worker {
        Worker {
            checker: Checker::new(settings.config),
            main_line: Vec::new(),
            trf: settings.trf.clone(),
        }
    }

    /// Checks `game`: its findings, then its findings against the tournament report.
    fn check(&mut self, game: &Game) -> GameState {
        let mut findings = Vec::new();
        self.checker
            .check_main_line(game, &mut findings, &mut self.main_line);
        if let Some(trf) = &self.trf {
            findings.extend(trf.judge(game).findings);
        }
        let record = GameRecord::new(game, &self.main_line);
        state(game, findings, Some(record))
    }
}

/// A game's state from its findings and record; its id and `after_result` are the
/// reading's to set.
fn state(game: &Game, findings: Vec<Finding>, record: Option<GameRecord>) -> GameState {
    let findings = findings
        .into_iter()
        .map(|finding| Located {
            span: span_of(game, &finding),
            finding,
        })
        .collect();
    GameState {
        id: 0,
        origin: Origin {
            offset: game.offset(),
            line: game.first_line(),
            games: game.index() - 1,
            after_result: false,
        },
        skipped: game.skipped_bytes() > 0,
        end: (game.offset() + game.len_in_file()) as usize,
        findings,
        record,
        outline: outline(game),
    }
}

/// The bytes a finding is about: the token at its place (a tag's whole line), else the
/// word there, else one character.
pub fn span_of(game: &Game, f: &Finding) -> Range<u32> {
    let bytes = game.bytes();
    let at = byte_of(bytes, f.line.saturating_sub(game.first_line()), f.column);
    let tokens = game.tokens();
    let i = tokens.partition_point(|t| t.start as usize <= at);
    if i > 0 {
        let t = tokens[i - 1];
        if at < t.end as usize {
            if t.kind == TokenKind::Tag {
                return line_around(bytes, t.start as usize);
            }
            return t.start..t.end;
        }
    }
    let word = bytes[at..]
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(bytes.len() - at);
    let end = if word > 0 {
        at + word
    } else {
        // One character (a line end or the end: nothing).
        let c = std::str::from_utf8(&bytes[at..])
            .ok()
            .and_then(|s| s.chars().next())
            .filter(|c| *c != '\n' && *c != '\r');
        at + c.map_or(0, char::len_utf8)
    };
    at as u32..end as u32
}

/// The byte of 0-based line `line` of a game's bytes and 1-based `column` in
/// characters (clamped to the line).
fn byte_of(bytes: &[u8], line: u64, column: u64) -> usize {
    let mut at = 0;
    for _ in 0..line {
        match memchr::memchr(b'\n', &bytes[at..]) {
            Some(i) => at += i + 1,
            None => return bytes.len(),
        }
    }
    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
    let line_text = String::from_utf8_lossy(&bytes[at..end]);
    let chars = column.saturating_sub(1) as usize;
    // The text is the document's, valid UTF-8: lossy decoding changes nothing.
    at + line_text
        .char_indices()
        .nth(chars)
        .map_or(end - at, |(i, _)| i)
}

/// The line of a game's bytes around byte `at`, its line end excluded.
fn line_around(bytes: &[u8], at: usize) -> Range<u32> {
    let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    let mut end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
    if end > start && bytes[end - 1] == b'\r' {
        end -= 1;
    }
    start as u32..end as u32
}

/// What the outline and the folding ranges need of a game.
fn outline(game: &Game) -> Outline {
    let tag = |name: &str| {
        game.tag(name)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "?".to_string())
    };
    let tokens = game.tokens();
    let bytes = game.bytes();
    let (head, body) = match (tokens.first(), tokens.last()) {
        (Some(first), Some(last)) => (
            line_around(bytes, first.start as usize),
            first.start..last.end,
        ),
        _ => (0..0, 0..0),
    };
    let mut folds = Vec::new();
    let tags: Vec<_> = tokens.iter().filter(|t| t.kind == TokenKind::Tag).collect();
    if let (Some(first), Some(last)) = (tags.first(), tags.last()) {
        folds.push((first.start..last.end, Fold::Tags));
    }
    let mut open = Vec::new();
    for t in tokens {
        match t.kind {
            TokenKind::VariationStart => open.push(t.start),
            TokenKind::VariationEnd => {
                if let Some(start) = open.pop() {
                    folds.push((start..t.end, Fold::Variation));
                }
            }
            TokenKind::Comment => folds.push((t.start..t.end, Fold::Comment)),
            _ => {}
        }
    }
    // Only what spans lines folds.
    folds
        .retain(|(r, _)| memchr::memchr(b'\n', &bytes[r.start as usize..r.end as usize]).is_some());
    folds.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
    Outline {
        white: tag("White"),
        black: tag("Black"),
        event: tag("Event"),
        round: tag("Round"),
        result: tag("Result"),
        head,
        body,
        folds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Position;

    fn doc(text: &str) -> Document {
        Document::open(text.to_string(), 1, "t.pgn".into(), Settings::default())
    }

    /// Everything the document keeps of its games, to compare with a fresh reading.
    type Summary = Vec<(u64, u64, usize, Vec<(String, Range<u32>, u64)>)>;

    fn summary(d: &Document) -> Summary {
        d.games
            .iter()
            .map(|g| {
                (
                    g.origin.offset,
                    g.origin.line,
                    g.end,
                    g.findings
                        .iter()
                        .map(|l| {
                            (
                                format!("{}:{}", l.finding.code, l.finding.message),
                                l.span.clone(),
                                l.finding.line - g.origin.line,
                            )
                        })
                        .collect(),
                )
            })
            .collect()
    }

    const TWO: &str = "[Event \"a\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Nb5 a6 1-0\n\n[Event \"b\"]\n[Result \"*\"]\n\n1. d4 d5 *\n";

    #[test]
    fn an_edit_rechecks_as_a_fresh_reading_does() {
        let mut d = doc(TWO);
        assert_eq!(d.games.len(), 2);
        let codes: Vec<_> = d.games[0]
            .findings
            .iter()
            .map(|l| l.finding.code.as_str())
            .collect();
        assert!(codes.contains(&"illegal-move"), "{codes:?}");
        // Nb5 -> Bb5 on line 6.
        let line = 5;
        let col = TWO.lines().nth(5).unwrap().find("Nb5").unwrap() as u32;
        d.change(
            Some(LspRange::new(
                Position::new(line, col),
                Position::new(line, col + 1),
            )),
            "B",
            Units::Utf16,
        );
        assert!(d.text.contains("3. Bb5"));
        assert_eq!(summary(&d), summary(&doc(&d.text)));
        assert!(
            d.games[0]
                .findings
                .iter()
                .all(|l| l.finding.code.as_str() != "illegal-move")
        );
        // Joining the two games (the first result removed), then splitting them again.
        let at = d.text.find(" 1-0\n").unwrap();
        let p = d.lines.position(&d.text, at, Units::Utf16);
        let q = d.lines.position(&d.text, at + 4, Units::Utf16);
        d.change(Some(LspRange::new(p, q)), "", Units::Utf16);
        assert_eq!(summary(&d), summary(&doc(&d.text)));
        d.change(Some(LspRange::new(p, p)), " 1-0", Units::Utf16);
        assert_eq!(d.text, TWO.replace("Nb5", "Bb5"));
        assert_eq!(summary(&d), summary(&doc(&d.text)));
    }
}
