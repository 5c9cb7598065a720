//! planilla-converter: rewrites the moves of PGN games in another notation
//! language, losing nothing.
//!
//! Each game is replayed by `planilla-validator` (the same replay `check`
//! uses), and every move that replayed is written as the canonical SAN of the
//! target language in place of the written token. Every other byte — tags,
//! comments, NAGs, variations, move numbers, escape lines, spacing and line
//! breaks — passes through unchanged (decoded by the game's encoding rule
//! and written in the output encoding). Moves that could not be replayed
//! (after an illegal move) keep their text with piece letters translated one
//! by one. The draw-offer mark `(=)` becomes the comment `{(=)}`, which every
//! PGN reader accepts.
//!
//! ```
//! use planilla_converter::{Options, convert_game};
//! use planilla_core::san::Lang;
//! use planilla_parser::Game;
//!
//! let game = Game::from_bytes(&b"1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. 0-0 (=) *\n"[..], Default::default());
//! let out = convert_game(&game, &Options { from: None, to: Lang::En, ..Options::default() });
//! assert_eq!(String::from_utf8(out.text).unwrap(), "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O {(=)} *\n");
//! assert!(out.findings.iter().all(|f| f.severity() != planilla_validator::Severity::Error));
//! ```

#![warn(missing_docs)]

use planilla_core::san::{Lang, SanPlus};
use planilla_parser::{Game, TokenKind};
use planilla_validator::{Config, Finding, PlayedMove, Rules, check_game_recording};
use std::fmt;

/// What to convert to, and how to read the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The source language, or `None` to decide it per game.
    pub from: Option<Lang>,
    /// The target language.
    pub to: Lang,
    /// The draw rules (they only affect the findings reported).
    pub rules: Rules,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            from: None,
            to: Lang::En,
            rules: Rules::default(),
        }
    }
}

/// One converted game.
#[derive(Clone, Debug, Default)]
pub struct Converted {
    /// 1-based index of the game in its file.
    pub game: u64,
    /// The game's text, in UTF-8.
    pub text: Vec<u8>,
    /// The replay's findings (the same as `check` reports).
    pub findings: Vec<Finding>,
    /// Whether every move was replayed and rewritten canonically (false for
    /// an illegal or ambiguous move, an invalid FEN or an unsupported variant).
    pub complete: bool,
    /// Where each token of `text` came from: its offset in `text` and its
    /// byte offset in the game (to place a character the output encoding
    /// cannot hold).
    pub origins: Vec<(usize, u32)>,
}

/// Converts one game.
pub fn convert_game(game: &Game, options: &Options) -> Converted {
    let config = Config {
        rules: options.rules,
        lang: options.from,
    };
    let mut findings = Vec::new();
    let mut played: Vec<PlayedMove> = Vec::new();
    let stats = check_game_recording(game, &config, &mut findings, Some(&mut played));
    let from = stats.lang.or(options.from).unwrap_or(Lang::En);

    let bytes = game.bytes();
    let utf8 = game.encoding().utf8;
    let mut text = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    let mut origins = Vec::new();
    let mut next_played = played.iter().peekable();
    let mut skip_to = 0u32;
    let mut san = String::new();
    for token in game.all_tokens() {
        if token.end <= skip_to {
            continue;
        }
        origins.push((text.len(), token.start));
        let raw = game.token_bytes(&token);
        match token.kind {
            TokenKind::San => {
                while next_played.peek().is_some_and(|p| p.span.0 < token.start) {
                    next_played.next();
                }
                if let Some(p) = next_played.peek().filter(|p| p.span.0 == token.start) {
                    san.clear();
                    match &p.mv {
                        Some(m) => {
                            san.push_str(&SanPlus::from_move(&p.before, m).to_string_in(options.to))
                        }
                        None => san.push_str("--"),
                    }
                    text.extend_from_slice(san.as_bytes());
                    // The move's span may take in an en-passant mark after it.
                    skip_to = p.span.1;
                    next_played.next();
                } else {
                    translate_letters(raw, from, options.to, &mut text);
                }
            }
            TokenKind::EnPassantMark if token.start < skip_to => {}
            TokenKind::DrawOffer => {
                text.push(b'{');
                push_decoded(game, &token, utf8, &mut text);
                text.push(b'}');
            }
            _ => push_decoded(game, &token, utf8, &mut text),
        }
    }
    let complete = findings.iter().all(|f| {
        !matches!(
            f.code,
            planilla_validator::Code::IllegalMove
                | planilla_validator::Code::AmbiguousMove
                | planilla_validator::Code::InvalidFen
                | planilla_validator::Code::UnsupportedVariant
        )
    });
    Converted {
        game: game.index(),
        text,
        findings,
        complete,
        origins,
    }
}

fn push_decoded(game: &Game, token: &planilla_parser::Token, utf8: bool, out: &mut Vec<u8>) {
    if utf8 {
        out.extend_from_slice(game.token_bytes(token));
    } else {
        out.extend_from_slice(game.decode(token.span()).as_bytes());
    }
}

/// Writes a move that could not be replayed with its piece letters (and
/// figurines) translated one by one; everything else stays as written.
pub fn translate_letters(raw: &[u8], from: Lang, to: Lang, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < raw.len() {
        let c = raw[i];
        let figurine = raw
            .get(i..i + 3)
            .filter(|g| g[0] == 0xe2 && g[1] == 0x99 && (0x94..=0x9f).contains(&g[2]));
        let role = if let Some(g) = figurine {
            planilla_core::Role::ALL.into_iter().find(|&r| {
                let white = Lang::Figurine.letter(r).map(str::as_bytes);
                white.is_some_and(|w| w[2] == g[2] || w[2] + 6 == g[2])
            })
        } else if c.is_ascii_uppercase() {
            from.role_of_letter(c)
        } else {
            None
        };
        match role.and_then(|r| to.letter(r)) {
            Some(letter) => {
                out.extend_from_slice(letter.as_bytes());
                i += if figurine.is_some() { 3 } else { 1 };
            }
            None => {
                let n = if figurine.is_some() { 3 } else { 1 };
                out.extend_from_slice(&raw[i..(i + n).min(raw.len())]);
                i += n;
            }
        }
    }
}

/// The encodings convert can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputEncoding {
    /// UTF-8 (the default).
    #[default]
    Utf8,
    /// Windows-1252.
    Windows1252,
    /// ISO-8859-1: code points up to U+00FF.
    Latin1,
}

impl OutputEncoding {
    /// Reads the command-line spelling.
    pub fn from_name(name: &str) -> Option<OutputEncoding> {
        match name.to_ascii_lowercase().as_str() {
            "utf-8" | "utf8" => Some(OutputEncoding::Utf8),
            "windows-1252" | "cp1252" => Some(OutputEncoding::Windows1252),
            "latin-1" | "latin1" | "iso-8859-1" => Some(OutputEncoding::Latin1),
            _ => None,
        }
    }

    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            OutputEncoding::Utf8 => "utf-8",
            OutputEncoding::Windows1252 => "windows-1252",
            OutputEncoding::Latin1 => "latin-1",
        }
    }
}

/// A character the output encoding cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unencodable {
    /// The character.
    pub character: char,
    /// 1-based line of the character in the input.
    pub line: u64,
    /// 1-based column of the character in the input.
    pub column: u64,
    /// The encoding asked for.
    pub encoding: OutputEncoding,
}

impl fmt::Display for Unencodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {} cannot hold the character '{}' (U+{:04X})",
            self.line,
            self.column,
            self.encoding.name(),
            self.character,
            self.character as u32
        )
    }
}

impl std::error::Error for Unencodable {}

/// Encodes a converted game's text into `out`, never substituting: the
/// first character the encoding cannot hold is an error with its place in
/// the input.
///
/// # Errors
///
/// [`Unencodable`] for a character outside the encoding.
pub fn encode(
    converted: &Converted,
    game: &Game,
    encoding: OutputEncoding,
    out: &mut Vec<u8>,
) -> Result<(), Unencodable> {
    let text = std::str::from_utf8(&converted.text).unwrap_or("");
    match encoding {
        OutputEncoding::Utf8 => {
            out.extend_from_slice(&converted.text);
            Ok(())
        }
        OutputEncoding::Latin1 => {
            for (i, c) in text.char_indices() {
                if (c as u32) < 0x100 {
                    out.push(c as u32 as u8);
                } else {
                    return Err(unencodable(converted, game, i, c, encoding));
                }
            }
            Ok(())
        }
        OutputEncoding::Windows1252 => {
            let mut encoder = encoding_rs::WINDOWS_1252.new_encoder();
            let mut buf = vec![0u8; text.len() + 16];
            let mut consumed = 0;
            loop {
                let (result, read, written) =
                    encoder.encode_from_utf8_without_replacement(&text[consumed..], &mut buf, true);
                out.extend_from_slice(&buf[..written]);
                consumed += read;
                match result {
                    encoding_rs::EncoderResult::InputEmpty => return Ok(()),
                    encoding_rs::EncoderResult::OutputFull => continue,
                    encoding_rs::EncoderResult::Unmappable(c) => {
                        let at = consumed - c.len_utf8();
                        return Err(unencodable(converted, game, at, c, encoding));
                    }
                }
            }
        }
    }
}

/// Finds the input line and column of the character at `at` in the
/// converted text, from the token it came from.
fn unencodable(
    converted: &Converted,
    game: &Game,
    at: usize,
    c: char,
    encoding: OutputEncoding,
) -> Unencodable {
    let (text_start, game_start) = converted
        .origins
        .iter()
        .rev()
        .find(|(t, _)| *t <= at)
        .copied()
        .unwrap_or((0, 0));
    let origin = game.location(game_start as usize);
    let before = std::str::from_utf8(&converted.text[text_start..at]).unwrap_or("");
    let (line, column) = match before.rfind('\n') {
        Some(nl) => (
            origin.line + before.matches('\n').count() as u64,
            before[nl + 1..].chars().count() as u64 + 1,
        ),
        None => (origin.line, origin.column + before.chars().count() as u64),
    };
    Unencodable {
        character: c,
        line,
        column,
        encoding,
    }
}
