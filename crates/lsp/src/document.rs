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
use planilla_parser::{Encoding, Game, Origin, Reader, ReaderBuilder, TokenKind};
use planilla_validator::archive::GameRecord;
use planilla_validator::{Checker, Finding, internal_error};
use rayon::prelude::*;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Games checked at once on the pool when many are read (the open of a large file):
/// enough to keep every thread busy, few enough that a batch's games are small.
const BATCH: usize = 256;

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
    /// Where its reading starts: `offset` is its first byte in the text.
    pub origin: Origin,
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
        };
        doc.reread(0, Origin::default());
        doc
    }

    /// Applies one change of the client's: the text in `range` (the whole text if
    /// `None`) replaced by `new`. Only the games the change touched are read and checked
    /// again; a game ending where the change starts counts as touched (typing at the end
    /// of a game's last line continues that game).
    pub fn change(&mut self, range: Option<LspRange>, new: &str, units: Units) {
        let Some(range) = range else {
            self.text = new.to_string();
            self.lines = LineIndex::new(&self.text);
            self.games.clear();
            self.reread(0, Origin::default());
            return;
        };
        let a = self.lines.offset(&self.text, range.start, units);
        let b = self.lines.offset(&self.text, range.end, units).max(a);
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
        let from = match self.games.get(i) {
            Some(g) if g.start() <= a => g.origin,
            _ => Origin::default(),
        };
        for g in &mut self.games[j..] {
            g.origin.offset = (g.origin.offset as i64 + delta) as u64;
            g.end = (g.end as i64 + delta) as usize;
            g.origin.line = self.lines.line_of(g.start()) as u64 + 1;
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
            line: self.lines.line_of(origin.offset as usize) as u64 + 1,
            ..origin
        };
        let mut reader = reader_at(&self.text, origin);
        let mut k = at;
        let mut fresh = Vec::new();
        let mut batch = Vec::new();
        // The reader's state before the game read next.
        let mut before = origin;
        loop {
            let mut game = Game::new();
            let read = reader.read_game(&mut game).unwrap_or(false);
            if !read {
                k = self.games.len();
                break;
            }
            batch.push((game, before));
            let next = reader.origin();
            before = next;
            while k < self.games.len() && self.games[k].origin.offset < next.offset {
                k += 1;
            }
            if batch.len() == BATCH {
                fresh.extend(check_batch(&self.settings, std::mem::take(&mut batch)));
            }
            if self.games.get(k).is_some_and(|g| {
                g.origin.offset == next.offset && g.origin.after_result == next.after_result
            }) {
                break;
            }
        }
        fresh.extend(check_batch(&self.settings, batch));
        let added = fresh.len();
        self.games.splice(at..k, fresh);
        for (n, g) in self.games.iter_mut().enumerate().skip(at + added) {
            g.origin.games = n as u64;
            // The archive findings of the other games name this one by its index.
            if let Some(record) = &mut g.record {
                record.set_index(n as u64 + 1);
            }
        }
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

/// Checks a batch of games on the pool, in order.
fn check_batch(settings: &Settings, batch: Vec<(Game, Origin)>) -> Vec<GameState> {
    if batch.len() < 4 {
        let mut worker = Worker::new(settings);
        return batch
            .into_iter()
            .map(|(game, origin)| worker.check(settings, &game, origin))
            .collect();
    }
    batch
        .into_par_iter()
        .map_init(
            || Worker::new(settings),
            |worker, (game, origin)| worker.check(settings, &game, origin),
        )
        .collect()
}

/// A thread's checker and the buffer of a main line's moves.
struct Worker {
    checker: Checker,
    main_line: Vec<Move>,
}

impl Worker {
    fn new(settings: &Settings) -> Worker {
        Worker {
            checker: Checker::new(settings.config),
            main_line: Vec::new(),
        }
    }

    /// Checks `game`, read at `origin`. A panic is the game's `internal-error`, as in
    /// `check`, and the checker is made anew.
    fn check(&mut self, settings: &Settings, game: &Game, origin: Origin) -> GameState {
        let run = catch_unwind(AssertUnwindSafe(|| {
            let mut findings = Vec::new();
            self.checker
                .check_main_line(game, &mut findings, &mut self.main_line);
            (findings, GameRecord::new(game, &self.main_line))
        }));
        let (findings, record) = match run {
            Ok((findings, record)) => (findings, Some(record)),
            Err(panic) => {
                *self = Worker::new(settings);
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                let message = format!("planilla failed on this game ({why}); please report it");
                (vec![internal_error(game, message)], None)
            }
        };
        let findings = findings
            .into_iter()
            .map(|finding| Located {
                span: span_of(game, &finding),
                finding,
            })
            .collect();
        GameState {
            origin: Origin {
                offset: game.offset(),
                line: game.first_line(),
                games: game.index() - 1,
                ..origin
            },
            end: (game.offset() + game.len_in_file()) as usize,
            findings,
            record,
            outline: outline(game),
        }
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
