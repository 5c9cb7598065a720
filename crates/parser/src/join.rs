//! Games written one after another so that they read back as the same games.
//!
//! A game's bytes, written right after another game's, may not read back as a game of its
//! own: a game that ends inside a comment left open, in a tag cut short, without a result
//! or without a line end runs into the next one, and a game that was the first of its file
//! (a comment before its tags) or that followed a game it no longer follows joins the game
//! before it. [`Joiner`] writes games one after another and puts the separator line
//! [`SEPARATOR`] between two of them exactly where the reader would not otherwise start
//! the second at its first byte. The reader honours that line in any state (inside a
//! comment, a tag section, a variation) and counts it to no game, so every game reads
//! back with the bytes it was written with.
//!
//! ```
//! use planilla_parser::{Game, Joiner, Reader};
//!
//! // A game cut short in a comment, then a game without tags: one game if simply joined.
//! let games: [&[u8]; 2] = [b"1. e4 {cut short", b"1. d4 d5 *\n"];
//! let mut out = Vec::new();
//! let mut joiner = Joiner::new();
//! for game in games {
//!     joiner.write(&mut out, game)?;
//! }
//! assert_eq!(out, b"1. e4 {cut short\n% planilla: end of game\n1. d4 d5 *\n");
//! let mut reader = Reader::new(&out[..]);
//! let mut game = Game::new();
//! for written in games {
//!     assert!(reader.read_game(&mut game)?);
//!     assert_eq!(game.bytes(), written);
//! }
//! assert!(!reader.read_game(&mut game)?);
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io::{self, Write};
use std::ops::Range;

use crate::encoding::Encoding;
use crate::finding::Finding;
use crate::game::DEFAULT_MAX_VARIATION_DEPTH;
use crate::lexer::{Input, LexConfig, Lexer, Sink, Step};
use crate::reader::is_utf16;
use crate::token::{TagSpans, Token};

/// The separator line: a PGN escape line (`%` in the first column, which other readers
/// skip) that ends the game before it wherever it stands and belongs to no game. It is
/// written with a line end before it, which is the separator's too, so the game before
/// keeps its bytes, line end or not.
pub const SEPARATOR: &str = "% planilla: end of game";

/// Writes games one after another, each as given, with [`SEPARATOR`] between two games
/// only where the reader would not read the second as starting at its first byte. Keeps a
/// copy of the last game written (the caller's buffers are not held).
#[derive(Debug, Default)]
pub struct Joiner {
    /// The last game written; `None` before the first.
    last: Option<Vec<u8>>,
    /// The last game and the start of the next one, tokenized together.
    joined: Vec<u8>,
    tokens: Vec<Token>,
    tags: Vec<TagSpans>,
    findings: Vec<Finding>,
    separators: u64,
    /// Where the last game written ended in its input, when it was written whole
    /// ([`Joiner::write_from`]).
    follows_at: Option<u64>,
}

impl Joiner {
    /// A joiner that has written nothing yet.
    pub fn new() -> Joiner {
        Joiner::default()
    }

    /// Writes `game` (a game's bytes) to `out` after the games written before it, with a
    /// separator line first when it is needed.
    ///
    /// # Errors
    ///
    /// The error of `out`.
    pub fn write<W: Write + ?Sized>(&mut self, out: &mut W, game: &[u8]) -> io::Result<()> {
        self.follows_at = None;
        if self.needs_separator(game) {
            self.separators += 1;
            out.write_all(b"\n")?;
            out.write_all(SEPARATOR.as_bytes())?;
            out.write_all(b"\n")?;
        }
        self.write_following(out, game)
    }

    /// Writes `game` to `out` as [`Joiner::write`] does, knowing where it lay in its
    /// input (`input`: its offset and the offset after it) and whether its text is
    /// written whole (its moves rewritten at most: not a game over a limit, of which only
    /// the tags are kept). A game that starts where the last game written ended, in the
    /// same input ([`Joiner::next_input`] between inputs), both written whole, follows it
    /// as it did there: no separator is needed, and the last game is not tokenized again.
    ///
    /// # Errors
    ///
    /// The error of `out`.
    pub fn write_from<W: Write + ?Sized>(
        &mut self,
        out: &mut W,
        game: &[u8],
        input: Range<u64>,
        whole: bool,
    ) -> io::Result<()> {
        let written = if self.follows_at == Some(input.start) {
            self.write_following(out, game)
        } else {
            self.write(out, game)
        };
        self.follows_at = whole.then_some(input.end);
        written
    }

    /// The games written next come from another input.
    pub fn next_input(&mut self) {
        self.follows_at = None;
    }

    /// Writes `game` with no separator, for a game known to follow the last one.
    fn write_following<W: Write + ?Sized>(&mut self, out: &mut W, game: &[u8]) -> io::Result<()> {
        out.write_all(game)?;
        let last = self.last.get_or_insert_with(Vec::new);
        last.clear();
        last.extend_from_slice(game);
        Ok(())
    }

    /// How many separator lines were written.
    pub fn separators(&self) -> u64 {
        self.separators
    }

    /// Whether `game`, written next, needs a separator before it to read back as a game of
    /// its own that starts at its first byte.
    pub fn needs_separator(&mut self, game: &[u8]) -> bool {
        let Some(last) = &self.last else {
            // First in its file, only a byte order mark or UTF-16 text would read
            // otherwise: the reader looks for those at the file's start alone.
            return game.starts_with(b"\xEF\xBB\xBF") || is_utf16(&game[..game.len().min(4)]);
        };
        // The last game, then the next one through the end of its first line that holds a
        // token: the reader decides there whether a game starts.
        let first_token = game
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(game.len());
        let head_end =
            memchr::memchr(b'\n', &game[first_token..]).map_or(game.len(), |i| first_token + i + 1);
        self.joined.clear();
        self.joined.extend_from_slice(last);
        self.joined.extend_from_slice(&game[..head_end]);
        self.tokens.clear();
        self.tags.clear();
        self.findings.clear();
        let mut sink = Sink {
            tokens: &mut self.tokens,
            tags: &mut self.tags,
            findings: &mut self.findings,
        };
        let config = LexConfig {
            encoding: Encoding::Auto,
            max_depth: DEFAULT_MAX_VARIATION_DEPTH,
        };
        let step = Lexer::new(config).run(&self.joined, Input::End, true, &mut sink);
        step != Step::Boundary(last.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::reader::Reader;

    /// Games joined, then read back: the games as given, each with its bytes.
    fn round_trip(games: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut joiner = Joiner::new();
        for game in games {
            joiner.write(&mut out, game).unwrap();
        }
        let mut reader = Reader::new(&out[..]);
        let mut game = Game::new();
        let mut read = Vec::new();
        while reader.read_game(&mut game).unwrap() {
            read.push(game.bytes().to_vec());
        }
        let given: Vec<Vec<u8>> = games.iter().map(|g| g.to_vec()).collect();
        assert_eq!(read, given, "{}", String::from_utf8_lossy(&out));
        out
    }

    #[test]
    fn a_separator_only_where_the_games_would_run_together() {
        let sep = format!("\n{SEPARATOR}\n");
        let cases: [(&[&[u8]], usize); 12] = [
            // Games as a reader cut them from one file: nothing added.
            (
                &[
                    b"[Event \"a\"]\n\n1. e4 *\n\n",
                    b"[Event \"b\"]\n\n1. d4 *\n",
                ],
                0,
            ),
            (&[b"1. e4 *\n", b"1. d4 *\n"], 0),
            (&[b"[Event \"a\"]\n\n", b"[Event \"b\"]\n"], 0),
            // A comment left open ends at a line of one tag pair; it needs no separator.
            (&[b"{\n", b"[o \"\"]\n4\n"], 0),
            (&[b"[o \"\"]\n4\n", b"["], 0),
            // A comment left open, a tag cut short, no result, no line end.
            (&[b"{\n", b"["], 1),
            (&[b"1. e4 e5", b"1. d4 *\n"], 1),
            (&[b"1. e4 *", b"[Event \"b\"]\n"], 1),
            // A comment before the tags, which would belong to the game before.
            (&[b"1. e4 *\n", b"{intro}\n[Event \"b\"]\n*\n"], 1),
            // A tag section without a blank line, which would be one section.
            (&[b"[Site \"a\"]\n", b"[White \"b\"]\n"], 1),
            // A line comment or an escape line left at the end.
            (&[b"1. e4 ;c", b"1. d4 *\n"], 1),
            (&[b"4\n%", b"%x\n"], 1),
        ];
        for (games, separators) in cases {
            let out = round_trip(games);
            let count = String::from_utf8_lossy(&out).matches(&sep).count();
            assert_eq!(count, separators, "{}", String::from_utf8_lossy(&out));
        }
    }

    #[test]
    fn the_first_game_keeps_what_only_a_file_start_would_drop() {
        round_trip(&[b"\xEF\xBB\xBF1. e4 *\n"]);
        round_trip(&[b"a\0b\0 *\n", b"1. e4 *\n"]);
    }

    #[test]
    fn separators_in_a_row_and_at_the_start_are_no_games() {
        let text = format!("{SEPARATOR}\n\n{SEPARATOR}\r\n1. e4 *\n{SEPARATOR}\n{SEPARATOR}");
        let mut reader = Reader::new(text.as_bytes());
        let mut game = Game::new();
        assert!(reader.read_game(&mut game).unwrap());
        assert_eq!(game.bytes(), b"1. e4 *");
        assert_eq!(game.location(0).line, 4);
        assert!(!reader.read_game(&mut game).unwrap());
    }
}
