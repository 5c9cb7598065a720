//! planilla-converter: rewrites the moves of PGN games in another notation
//! language, losing nothing.
//!
//! Each game is replayed by `planilla-validator` (the same replay `check`
//! uses), and every move that replayed is written as the canonical SAN of the
//! target language in place of the written token. Every other byte — tags,
//! comments, NAGs, variations, move numbers, escape lines, spacing and line
//! breaks — passes through unchanged (decoded by the game's encoding rule
//! and written in the output encoding). Moves recorded after the game ended
//! (checkmate, stalemate), which no position allows, are read as written in
//! the source language and written canonically without a position, so every
//! route between languages gives the same text. Moves that could not be
//! replayed (after an illegal move) keep their text with piece letters
//! translated one by one. The draw-offer mark `(=)` becomes the comment
//! `{(=)}`, which every PGN reader accepts.
//!
//! ```
//! use planilla_converter::{Converter, Options};
//! use planilla_core::san::Lang;
//! use planilla_parser::Game;
//!
//! let game = Game::from_bytes(&b"1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. 0-0 (=) *\n"[..], Default::default());
//! let mut converter = Converter::new(Options { from: None, to: Lang::En, ..Options::default() });
//! let out = converter.convert(&game);
//! assert_eq!(out.text, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O {(=)} *\n");
//! assert!(out.findings.iter().all(|f| f.severity() != planilla_validator::Severity::Error));
//! ```

#![warn(missing_docs)]

mod fix;
pub mod merge;
mod outcome;

pub use fix::{Change, FixOptions, Fixed, Fixer};
pub use outcome::{Conversion, Outcome};

use planilla_core::Role;
use planilla_core::detect::by_letters;
use planilla_core::san::{Iccf, Lang, San, SanKind};
use planilla_parser::{Game, Token, TokenKind};
use planilla_validator::{
    Checker, Code, Config, Finding, GameStats, MoveNotation, PlayedMove, Repair, RulesChoice,
};
use std::fmt;

/// What to convert to, and how to read the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The source language, or `None` to decide it per game.
    pub from: Option<Lang>,
    /// The target language (its piece letters).
    pub to: Lang,
    /// How the moves are written: canonical SAN, long algebraic or ICCF numeric.
    pub form: MoveForm,
    /// The source notation, or `None` to read each move in the notation its form is.
    pub notation: Option<MoveNotation>,
    /// The draw rules (they only affect the findings reported).
    pub rules: RulesChoice,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            from: None,
            to: Lang::En,
            form: MoveForm::San,
            notation: None,
            rules: RulesChoice::default(),
        }
    }
}

/// How `convert` writes the moves that replayed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveForm {
    /// Canonical SAN (`Nf3`, `exd5`, `O-O`).
    #[default]
    San,
    /// Long algebraic: the departure square always written (`Ng1-f3`, `e4xd5`, `O-O`).
    Lan,
    /// ICCF numeric (`7163`; castling as the king's move, `5171`; promotion digit).
    Iccf,
}

/// What `--to` names: a language's canonical SAN (`en`, `es`, …), long algebraic in a
/// language's letters (`lan` for English, `lan-es`, …), or ICCF numeric (`iccf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The piece letters (English for ICCF numbers, which have none).
    pub lang: Lang,
    /// The form of the moves.
    pub form: MoveForm,
}

impl std::str::FromStr for Target {
    type Err = String;

    fn from_str(s: &str) -> Result<Target, String> {
        let unknown = |code: &str| {
            format!(
                "unknown language '{code}' (en, es, it, pt, fr, de, nl, figurine; lan or lan-LANG for long algebraic; iccf)"
            )
        };
        if s == "iccf" {
            return Ok(Target {
                lang: Lang::En,
                form: MoveForm::Iccf,
            });
        }
        if s == "lan" {
            return Ok(Target {
                lang: Lang::En,
                form: MoveForm::Lan,
            });
        }
        let (code, form) = match s.strip_prefix("lan-") {
            Some(code) => (code, MoveForm::Lan),
            None => (s, MoveForm::San),
        };
        let lang = code.parse::<Lang>().map_err(|_| unknown(code))?;
        Ok(Target { lang, form })
    }
}

/// One converted game.
#[derive(Clone, Debug, Default)]
pub struct Converted {
    /// 1-based index of the game in its file.
    pub game: u64,
    /// The game's text: everything copied is decoded by the game's encoding
    /// rule, never copied as raw bytes.
    pub text: String,
    /// The replay's findings (the same as `check` reports).
    pub findings: Vec<Finding>,
    /// Whether the replay went through the game (false for an illegal or
    /// ambiguous move, an invalid FEN or an unsupported variant: the moves not
    /// replayed keep their text, letters translated one by one).
    pub complete: bool,
    /// Moves recorded after the game's end that are no move in the source
    /// language: their text is kept, letters translated one by one, so what
    /// they mean depends on the language they are read in. Every other move
    /// after the end is written canonically, as it reads.
    pub unread: u32,
    /// Whether two languages read the game legally with different moves: it was
    /// converted from the first, and `findings` holds the `notation-language` finding
    /// that names both.
    pub lang_ambiguous: bool,
    /// Where each token of `text` came from: its offset in `text` and its
    /// byte offset in the game (to place a character the output encoding
    /// cannot hold).
    pub origins: Vec<(usize, u32)>,
}

/// Converts games one after another. It keeps the replay's state (a [`Checker`]) from
/// one game to the next, as a worker that converts many games should.
#[derive(Debug)]
pub struct Converter {
    options: Options,
    checker: Checker,
}

impl Converter {
    /// A converter with no game converted yet.
    pub fn new(options: Options) -> Converter {
        Converter {
            options,
            checker: Checker::new(Config {
                rules: options.rules,
                lang: options.from,
                notation: options.notation,
            }),
        }
    }

    /// Converts one game.
    pub fn convert(&mut self, game: &Game) -> Converted {
        convert_game(&mut self.checker, game, &self.options)
    }
}

/// What the replay of one game gave, for a rewrite of it.
pub(crate) struct Replay {
    /// The replay's findings.
    pub(crate) findings: Vec<Finding>,
    /// The moves that replayed, in text order.
    pub(crate) played: Vec<PlayedMove>,
    /// The replay's counts and what it read.
    pub(crate) stats: GameStats,
    /// The repair search of the main line's first bad move, when one failed.
    pub(crate) repair: Option<Repair>,
}

impl Replay {
    /// Replays `game` with `checker`, recording its moves.
    pub(crate) fn of(checker: &mut Checker, game: &Game) -> Replay {
        let mut findings = Vec::new();
        let mut played = Vec::new();
        let (stats, repair) = checker.check_repairing(game, &mut findings, &mut played);
        Replay {
            findings,
            played,
            stats,
            repair,
        }
    }
}

/// A part of a game's text written otherwise: the tokens that start in `start..end`
/// (byte offsets in the game, on token boundaries) are replaced by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Edit {
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) text: String,
}

/// Converts one game, replayed by `checker` (built from `options`).
fn convert_game(checker: &mut Checker, game: &Game, options: &Options) -> Converted {
    let replay = Replay::of(checker, game);
    rewrite(game, replay, options, &[])
}

/// Writes `game` with its replayed moves in the canonical SAN of `options.to` and the
/// `edits` (sorted, not overlapping) applied; everything else passes through.
pub(crate) fn rewrite(game: &Game, replay: Replay, options: &Options, edits: &[Edit]) -> Converted {
    let Replay {
        findings,
        played,
        stats,
        ..
    } = replay;
    // A game that was not replayed (an invalid FEN, an unsupported variant) is
    // translated letter by letter, in the language its letters name.
    let from = stats
        .lang
        .or(options.from)
        .or_else(|| {
            let moves = game.tokens().iter().filter(|t| t.kind == TokenKind::San);
            by_letters(moves.map(|t| game.token_bytes(t)))
        })
        .unwrap_or(Lang::En);
    // Where the replay stopped at a move it could not play (or never
    // started), the contract keeps the rest as written, letters translated.
    let stopped = findings.iter().any(|f| stops_replay(f.code));
    let foreign = matches!(
        stats.notation,
        MoveNotation::Iccf | MoveNotation::Descriptive
    );
    let mut unread = 0;

    let bytes = game.bytes();
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut origins = Vec::new();
    let mut next_played = played.iter().peekable();
    // A replayed move's span may take in an en-passant mark after it: skipped up to here.
    let mut skip_to = 0u32;
    // A mark stood after a line break, which was kept: the space after the mark goes.
    let mut kept_break = false;
    let is_break = |token: &Token| {
        token.kind == TokenKind::Whitespace && game.token_bytes(token).contains(&b'\n')
    };
    let mut edits = edits.iter().peekable();
    for token in game.all_tokens() {
        while edits.peek().is_some_and(|e| e.end <= token.start) {
            edits.next();
        }
        if let Some(edit) = edits.peek().filter(|e| e.start <= token.start) {
            if edit.start == token.start {
                origins.push((text.len(), token.start));
                text.push_str(&edit.text);
            }
            continue;
        }
        if token.end <= skip_to {
            if is_break(&token) {
                origins.push((text.len(), token.start));
                text.push_str(&game.decode(token.span()));
                kept_break = true;
            }
            continue;
        }
        if std::mem::take(&mut kept_break)
            && token.kind == TokenKind::Whitespace
            && !is_break(&token)
        {
            continue;
        }
        origins.push((text.len(), token.start));
        // Every byte copied is decoded: the text is what the tokenizer read.
        let decoded = || game.decode(token.span());
        match token.kind {
            TokenKind::San => {
                while next_played.peek().is_some_and(|p| p.span.0 < token.start) {
                    next_played.next();
                }
                if let Some(p) = next_played.peek().filter(|p| p.span.0 == token.start) {
                    match (&p.san, &p.mv, options.form) {
                        (Some(san), Some(m), MoveForm::Lan) => {
                            San::write_long(m, san.suffix, options.to, &mut text);
                        }
                        (Some(_), Some(m), MoveForm::Iccf) => text.push_str(&Iccf::write(m)),
                        (Some(san), _, _) => san.write(options.to, &mut text),
                        (None, _, _) => text.push_str("--"),
                    }
                    // The move's span takes in the marks written apart after it
                    // (`e.p.`, `+`): the canonical move carries the right ones.
                    skip_to = p.span.1;
                    next_played.next();
                } else if foreign {
                    // ICCF numbers and descriptive moves have no letters to translate
                    // one by one: a move not replayed keeps its text.
                    text.push_str(&decoded());
                    unread += u32::from(!stopped);
                } else if stopped {
                    translate_letters(&decoded(), from, options.to, &mut text);
                } else if is_double_forfeit(game, &token) {
                    // `0-0` ending the movetext, not replayed: the scoresheet's double
                    // forfeit (`check` says `non-standard-result`), no castling.
                    text.push_str(&decoded());
                } else if !write_as_read(&decoded(), from, options.to, &mut text) {
                    translate_letters(&decoded(), from, options.to, &mut text);
                    unread += 1;
                }
            }
            TokenKind::EnPassantMark if token.start < skip_to => {}
            TokenKind::DrawOffer => {
                text.push('{');
                text.push_str(&decoded());
                text.push('}');
            }
            _ => text.push_str(&decoded()),
        }
    }
    // An edit that starts after the game's last byte adds text at its end.
    for edit in edits.filter(|e| e.start as usize >= bytes.len()) {
        text.push_str(&edit.text);
    }
    // A game whose movetext was skipped (over a reader limit) keeps only its tag
    // section, without the blank line that closed it: without one, the next game's
    // tags would join this game's when the output is read again.
    if game.skipped_bytes() > 0 && !text.is_empty() && !text.ends_with("\n\n") {
        text.push_str(if text.ends_with('\n') { "\n" } else { "\n\n" });
    }
    Converted {
        game: game.index(),
        text,
        findings,
        complete: !stopped,
        unread,
        lang_ambiguous: stats.lang_ambiguous,
        origins,
    }
}

/// Whether `token` is `0-0` as the game's last token: when the replay did not play it as
/// castling, it is the scoresheet result for a double forfeit.
fn is_double_forfeit(game: &Game, token: &Token) -> bool {
    game.token_bytes(token) == b"0-0" && game.tokens().last() == Some(token)
}

/// Findings after which the replay did not go on (or never started). A syntax error is
/// not one of them: the replay reports it and goes on (the rest of the game is still
/// replayed and converted); `convert` reports it all the same (see
/// [`Converter::convert_and_encode`]).
fn stops_replay(code: Code) -> bool {
    matches!(
        code,
        Code::IllegalMove | Code::AmbiguousMove | Code::InvalidFen | Code::UnsupportedVariant
    )
}

/// Writes a move that was not replayed (recorded after the game's end) as it
/// reads without a position: canonical in `to` (`0-0` as `O-O`, `d8D` as
/// `d8=Q`), disambiguation and marks as written. Returns false, writing
/// nothing, when the text is no move in `from`, or when its canonical form
/// would not read back as the same move (a pawn move naming only its rank,
/// which would read as a move number).
fn write_as_read(text: &str, from: Lang, to: Lang, out: &mut String) -> bool {
    let Ok(san) = San::parse(text.as_bytes(), from) else {
        return false;
    };
    if let SanKind::Normal {
        role: Role::Pawn,
        file: None,
        rank: Some(_),
        ..
    } = san.kind
    {
        return false;
    }
    let at = out.len();
    san.write(to, out);
    let read_back = San::parse(&out.as_bytes()[at..], to);
    if read_back.is_ok_and(|back| back.kind == san.kind && back.suffix == san.suffix) {
        true
    } else {
        out.truncate(at);
        false
    }
}

/// Writes a move that could not be replayed with its piece letters (and
/// figurines) translated one by one; everything else stays as written.
fn translate_letters(text: &str, from: Lang, to: Lang, out: &mut String) {
    for c in text.chars() {
        let role = match c {
            '\u{2654}'..='\u{265F}' => Role::ALL.into_iter().find(|&r| {
                let white = Lang::Figurine.letter(r).and_then(|g| g.chars().next());
                white.is_some_and(|w| c == w || char::from_u32(w as u32 + 6) == Some(c))
            }),
            'A'..='Z' => from.role_of_letter(c as u8),
            _ => None,
        };
        match role.map(|r| to.letter(r)) {
            Some(Some(letter)) => out.push_str(letter),
            // A pawn letter into Dutch, which has none: dropped (`Bd4` in German is
            // `d4`; kept, `B` would read back as a bishop).
            Some(None) => {}
            None => out.push(c),
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
    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            OutputEncoding::Utf8 => "utf-8",
            OutputEncoding::Windows1252 => "windows-1252",
            OutputEncoding::Latin1 => "latin-1",
        }
    }
}

impl fmt::Display for OutputEncoding {
    /// The command-line spelling ([`OutputEncoding::name`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for OutputEncoding {
    type Err = String;

    /// Reads the command-line spelling ([`OutputEncoding::name`], case aside, or
    /// `utf8`, `cp1252`, `latin1`, `iso-8859-1`).
    ///
    /// # Errors
    ///
    /// A message naming the spellings accepted, for an unknown name.
    fn from_str(s: &str) -> Result<OutputEncoding, String> {
        match s.to_ascii_lowercase().as_str() {
            "utf-8" | "utf8" => Ok(OutputEncoding::Utf8),
            "windows-1252" | "cp1252" => Ok(OutputEncoding::Windows1252),
            "latin-1" | "latin1" | "iso-8859-1" => Ok(OutputEncoding::Latin1),
            _ => Err(format!(
                "unknown output encoding '{s}' (utf-8, windows-1252, latin-1)"
            )),
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
    let text = converted.text.as_str();
    match encoding {
        OutputEncoding::Utf8 => {
            out.extend_from_slice(text.as_bytes());
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
    let before = converted.text.get(text_start..at).unwrap_or_default();
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

#[cfg(test)]
mod tests {
    use super::*;
    use planilla_parser::Encoding;

    fn convert(pgn: &[u8], from: Option<Lang>, to: Lang) -> Converted {
        let game = Game::from_bytes(pgn, Encoding::Auto);
        Converter::new(Options {
            from,
            to,
            ..Options::default()
        })
        .convert(&game)
    }

    /// Every output encoding reads back from the spelling it displays.
    #[test]
    fn output_encodings_read_back_from_their_names() {
        for encoding in [
            OutputEncoding::Utf8,
            OutputEncoding::Windows1252,
            OutputEncoding::Latin1,
        ] {
            assert_eq!(encoding.to_string().parse(), Ok(encoding));
        }
        assert!("latin-2".parse::<OutputEncoding>().is_err());
    }

    #[test]
    fn a_move_after_the_end_that_is_no_move_in_the_language_is_kept_and_counted() {
        let pgn = b"1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# Ke7 5. Df7 Lc4 *\n";
        let out = convert(pgn, Some(Lang::En), Lang::Es);
        assert_eq!(
            out.text,
            "1. e4 e5 2. Ac4 Cc6 3. Dh5 Cf6 4. Dxf7# Re7 5. Df7 Lc4 *\n"
        );
        assert!(out.complete);
        assert_eq!(out.unread, 2);
        let read = convert(
            b"1. f3 e5 2. g4 Qh4# Nf3 O-O-O *\n",
            Some(Lang::En),
            Lang::De,
        );
        assert_eq!(read.text, "1. f3 e5 2. g4 Dh4# Sf3 O-O-O *\n");
        assert_eq!(read.unread, 0);
    }

    #[test]
    fn moves_not_replayed_after_an_illegal_move_keep_their_text() {
        let out = convert(
            b"1. e4 Rxe4 2. 0-0 d8D Pe4 \xe2\x99\x9bh4 *\n",
            Some(Lang::Es),
            Lang::En,
        );
        assert_eq!(out.text, "1. e4 Kxe4 2. 0-0 d8Q Pe4 Qh4 *\n");
        assert!(!out.complete);
        assert_eq!(out.unread, 0);
    }

    #[test]
    fn a_windows_1252_game_is_decoded_everywhere() {
        let pgn = b"[White \"M\xfcller\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O\x96O Nf6 5. Qh8 O\x96O {caf\xe9} *\n";
        let out = convert(pgn, None, Lang::En);
        assert_eq!(
            out.text,
            "[White \"Müller\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Qh8 O–O {café} *\n"
        );
        let mut latin1 = Vec::new();
        let game = Game::from_bytes(&pgn[..], Encoding::Auto);
        let error = encode(&out, &game, OutputEncoding::Latin1, &mut latin1).unwrap_err();
        assert_eq!((error.line, error.column, error.character), (3, 51, '–'));
    }
}
