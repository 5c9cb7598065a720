//! planilla-parser: a streaming, lossless PGN reader and writer for real-world files.
//!
//! Bytes in, games and located tokens out. The crate knows nothing of chess rules: a
//! [`TokenKind::San`] token is only the shape of a move, which `planilla-core` interprets.
//!
//! - [`Reader`] reads any [`std::io::Read`] one game at a time with bounded memory, into a
//!   [`Game`] the caller owns and reuses (no allocation per game once buffers have grown).
//!   How games are told apart is described in the [`reader`] module.
//! - Each game is tokenized losslessly: every byte belongs to exactly one [`Token`]
//!   ([`Game::all_tokens`]; whitespace is kept implicit, as the gaps between the tokens of
//!   [`Game::tokens`]), so [`write_lossless`] reproduces the input byte for byte, with
//!   chosen tokens replaced.
//! - Encodings: UTF-8 with or without BOM, Windows-1252 / Latin-1, and mixed files decided
//!   character by character under [`Encoding::Auto`] (a valid UTF-8 sequence is UTF-8, any
//!   other byte Windows-1252), one rule for the tokenizer, the decoded text and the
//!   columns; [`Game::encoding`] and the `encoding` findings say what was decoded how.
//! - Problems are [`Finding`] values with byte spans; [`Game::location`] turns a span into
//!   a line and column only when something is reported. After a broken game the reader
//!   goes on with the next one.
//! - [`split`] cuts one input into pieces that several threads tokenize at once, with
//!   the games, tokens and findings of the whole input read by one [`Reader`].
//! - [`write_export`] writes the PGN export format; [`Joiner`] writes games one after
//!   another so that they read back as the same games (with the separator line
//!   [`SEPARATOR`] between two of them only where they would otherwise run together).
//! - [`trf`] reads FIDE Tournament Report Files (the arbiter's record of pairings and
//!   results) by their columns, with each faulty line located, and writes them back.
//! - [`tag_values`] parses the values of standard tags (dates, rounds, ratings, FIDE ids,
//!   `TimeControl` into its periods, `SetUp`, `UTCTime`) into typed values.
//!
//! # Performance
//!
//! One pass over the bytes: the tokenizer runs over the reader's rolling buffer (complete
//! lines only, so nothing depends on read sizes) and finds the next game's start itself;
//! each game's bytes are then copied once into the [`Game`]. Tag pairs, NAGs and move
//! numbers are nom parsers (complete mode); the common shapes (`Nf3`, `12.`, one-line
//! comments, `[Name "value"]`) take hand-written fast paths that unit tests check against
//! the full scanners. `scripts/bench parser` compares the speed with pgn-reader.
//!
//! # Example
//!
//! ```
//! use planilla_parser::{Game, Reader, TokenKind};
//!
//! let pgn = b"[White \"Fran\xe7ois\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Cf3 {al paso} exd6a.p. 1-0\n";
//! let mut reader = Reader::new(&pgn[..]);
//! let mut game = Game::new();
//! while reader.read_game(&mut game)? {
//!     // Latin-1 bytes in a tag are decoded as Windows-1252, and reported.
//!     assert_eq!(game.tag("White").as_deref(), Some("François"));
//!     assert_eq!(game.findings()[0].kind.code(), "encoding");
//!     let moves: Vec<&[u8]> = game
//!         .tokens()
//!         .iter()
//!         .filter(|t| t.kind == TokenKind::San)
//!         .map(|t| game.token_bytes(t))
//!         .collect();
//!     assert_eq!(moves, [&b"e4"[..], b"e5", b"Cf3", b"exd6"]);
//!     let location = game.location(game.bytes().len() - 4);
//!     assert_eq!((location.line, location.column), (4, 36));
//! }
//! # Ok::<(), std::io::Error>(())
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod commands;
pub mod encoding;
mod finding;
mod game;
mod join;
mod lexer;
pub mod reader;
pub mod split;
pub mod tag_values;
mod token;
pub mod trf;
mod writer;

pub use encoding::{Encoding, ParseEncodingError};
pub use finding::{Finding, FindingKind};
pub use game::{AllTokens, DEFAULT_MAX_VARIATION_DEPTH, Game, GameEncoding, Location};
pub use join::{Joiner, SEPARATOR};
pub use lexer::MAX_SYNTAX_FINDINGS;
pub use reader::{
    DEFAULT_BUFFER_SIZE, DEFAULT_MAX_GAME_SIZE, DEFAULT_MAX_GAME_TOKENS, EncodingSummary, Origin,
    Reader, ReaderBuilder, read_failure, utf16_text,
};
pub use token::{TagSpans, Token, TokenKind};
pub use writer::{ExportOptions, write_export, write_lossless};
