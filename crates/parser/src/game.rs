//! One game: its bytes, where it was in the file, its tokens, tags and findings.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Mutex;

use crate::encoding::{self, Encoding};
use crate::finding::{Finding, FindingKind};
use crate::lexer::{self, LexConfig, Sink};
use crate::reader::{Origin, after_result_of};
use crate::token::{TagSpans, Token, TokenKind};

/// The default limit on nested variations.
pub const DEFAULT_MAX_VARIATION_DEPTH: u32 = 256;

/// A place in the input file, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// Byte offset in the file (a skipped byte order mark counts).
    pub byte: u64,
    /// 1-based line number.
    pub line: u64,
    /// 1-based column, counted in characters of the decoded line.
    pub column: u64,
}

/// How a game's text was decoded: see [`Game::encoding`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameEncoding {
    /// Every byte is ASCII.
    pub ascii: bool,
    /// The whole game is valid UTF-8.
    pub utf8: bool,
    /// Number of pieces (tag values, comments, other tokens) decoded as Windows-1252
    /// because they are not valid UTF-8 (under [`Encoding::Auto`]), or with non-ASCII
    /// bytes decoded by a forced single-byte encoding.
    pub single_byte_pieces: u32,
    /// The text holds U+FFFD replacement characters (damage done before us).
    pub replacement_chars: bool,
}

/// One game of a PGN file. The caller owns it and hands it to [`crate::Reader::read_game`]
/// again and again: its buffers are reused, so reading allocates nothing per game once
/// they have grown.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) bytes: Vec<u8>,
    pub(crate) tokens: Vec<Token>,
    pub(crate) tags: Vec<TagSpans>,
    pub(crate) findings: Vec<Finding>,
    pub(crate) index: u64,
    pub(crate) offset: u64,
    pub(crate) first_line: u64,
    pub(crate) skipped: u64,
    pub(crate) encoding_choice: Encoding,
    pub(crate) max_depth: u32,
    pub(crate) encoding: GameEncoding,
    /// The game is text without tags after this game, which was over a limit and ended
    /// at its result: its first finding says so, with this number.
    pub(crate) after_result_of: Option<u64>,
    location_cache: LocationCache,
}

/// The last place [`Game::location`] computed, so that the next one, further on, counts
/// lines and characters from there: reporting every finding of a game then costs one
/// pass over its bytes, not one per finding.
#[derive(Default)]
struct LocationCache(Mutex<Option<Counted>>);

#[derive(Clone, Copy)]
struct Counted {
    at: usize,
    newlines: u64,
    column: u64,
}

impl Clone for LocationCache {
    fn clone(&self) -> Self {
        LocationCache::default()
    }
}

impl std::fmt::Debug for LocationCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LocationCache")
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// An empty game, ready to be filled by a reader.
    pub fn new() -> Game {
        Game {
            bytes: Vec::new(),
            tokens: Vec::new(),
            tags: Vec::new(),
            findings: Vec::new(),
            index: 0,
            offset: 0,
            first_line: 1,
            skipped: 0,
            encoding_choice: Encoding::Auto,
            max_depth: DEFAULT_MAX_VARIATION_DEPTH,
            encoding: GameEncoding::default(),
            after_result_of: None,
            location_cache: LocationCache::default(),
        }
    }

    /// A tokenized game made from the given bytes, as the first game of a file (index 1,
    /// offset 0, line 1). The bytes are taken as one game even if they hold several.
    pub fn from_bytes(bytes: impl Into<Vec<u8>>, encoding: Encoding) -> Game {
        let mut game = Game::new();
        game.bytes = bytes.into();
        game.index = 1;
        game.encoding_choice = encoding;
        game.tokenize();
        game
    }

    /// This game with the bytes of `span` replaced by `text` and tokenized again, kept in
    /// its place in the file (index, offset, first line, encoding rule): a repaired game
    /// reports its findings where the original stands.
    pub fn with_replaced(&self, span: (u32, u32), text: &[u8]) -> Game {
        let (start, end) = (span.0 as usize, span.1 as usize);
        let mut bytes = Vec::with_capacity(self.bytes.len() + text.len());
        bytes.extend_from_slice(&self.bytes[..start]);
        bytes.extend_from_slice(text);
        bytes.extend_from_slice(&self.bytes[end..]);
        let mut game = Game::from_bytes(bytes, self.encoding_choice);
        game.index = self.index;
        game.offset = self.offset;
        game.first_line = self.first_line;
        game.max_depth = self.max_depth;
        game
    }

    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.tokens.clear();
        self.tags.clear();
        self.findings.clear();
        self.skipped = 0;
        self.encoding = GameEncoding::default();
        self.after_result_of = None;
        self.forget_locations();
    }

    /// Moves a game read by a reader whose counts started from zero (line 1, no game
    /// before) at `piece` to its place in the whole input: its number and first line
    /// count from `piece` (its byte offset is the input's already). See
    /// [`crate::split`].
    pub fn relocate(&mut self, piece: Origin) {
        self.index += piece.games;
        self.first_line += piece.line - 1;
        if let Some(previous) = self.after_result_of {
            let (old, new) = (
                after_result_of(previous),
                after_result_of(previous + piece.games),
            );
            self.after_result_of = Some(previous + piece.games);
            if let Some(finding) = self.findings.first_mut()
                && let Some(head) = finding.message.strip_suffix(old.as_str())
            {
                finding.message = format!("{head}{new}").into();
            }
        }
    }

    fn forget_locations(&mut self) {
        *self
            .location_cache
            .0
            .get_mut()
            .unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Tokenizes the game's bytes as one game: fills [`Game::tokens`], [`Game::tags`],
    /// [`Game::findings`] and [`Game::encoding`] (the reader and [`Game::from_bytes`] call
    /// it; a game they made is tokenized already).
    pub(crate) fn tokenize(&mut self) {
        // Findings of the reader (a skipped oversized game) come before the tokenizer's.
        self.findings
            .retain(|f| f.kind == FindingKind::GameTooLarge);
        let config = LexConfig {
            encoding: self.encoding_choice,
            max_depth: self.max_depth,
        };
        let mut sink = Sink {
            tokens: &mut self.tokens,
            tags: &mut self.tags,
            findings: &mut self.findings,
        };
        lexer::tokenize(&self.bytes, config, &mut sink);
        self.forget_locations();
        self.analyze_encoding();
    }

    /// How deep variations may nest before the reader reports them (deeper ones stay in
    /// the tokens, after a `syntax-error`).
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// The game's raw bytes, exactly as in the file (for an oversized game, only its tag
    /// section: see [`Game::skipped_bytes`]).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// 1-based index of the game in its file.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// Byte offset of the game's first byte in the file.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Line number (1-based) of the game's first byte in the file.
    pub fn first_line(&self) -> u64 {
        self.first_line
    }

    /// Number of bytes of the game that were not kept because the game was larger than
    /// one of the reader's limits (0 for every normal game).
    pub fn skipped_bytes(&self) -> u64 {
        self.skipped
    }

    /// The game's length in the file, skipped bytes included.
    pub fn len_in_file(&self) -> u64 {
        self.bytes.len() as u64 + self.skipped
    }

    /// The tokens other than whitespace, in order. Whitespace is implicit: every byte
    /// between two of these tokens (or before the first, or after the last) is a
    /// separator. [`Game::all_tokens`] yields the whitespace tokens too.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// Every token in order, [`TokenKind::Whitespace`] included: their spans tile
    /// [`Game::bytes`] exactly.
    pub fn all_tokens(&self) -> AllTokens<'_> {
        AllTokens {
            tokens: &self.tokens,
            next: 0,
            at: 0,
            len: self.bytes.len() as u32,
        }
    }

    /// The bytes of one token.
    pub fn token_bytes(&self, token: &Token) -> &[u8] {
        self.bytes.get(token.span()).unwrap_or_default()
    }

    /// The spans of the tag pairs, in order.
    pub fn tags(&self) -> &[TagSpans] {
        &self.tags
    }

    /// Name and decoded value (escapes resolved) of every tag pair, in order.
    pub fn tag_pairs(&self) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> + '_ {
        self.tags.iter().map(move |t| {
            (
                self.tag_piece(t.name_span()),
                lexer::unescape(self.tag_piece(t.value_span())),
            )
        })
    }

    /// The index in [`Game::tags`] and the value (as [`Game::tag_pairs`] gives it) of the
    /// first tag pair whose name is `name` up to ASCII case, found by the names' bytes:
    /// only that value is decoded.
    pub fn tag_ignoring_case(&self, name: &str) -> Option<(usize, Cow<'_, str>)> {
        let name = name.as_bytes();
        let index = self
            .tags
            .iter()
            .position(|t| self.bytes[t.name_span()].eq_ignore_ascii_case(name))?;
        let value = lexer::unescape(self.tag_piece(self.tags[index].value_span()));
        Some((index, value))
    }

    /// A tag's name or value as text. A game whose bytes are its text (ASCII, or valid
    /// UTF-8 read as UTF-8: most games) is sliced, with no decoding: its piece is valid
    /// UTF-8 whenever its ends fall on character boundaries, which the check of the
    /// piece alone tells (not of the whole game, which would cost a pass over it).
    fn tag_piece(&self, span: Range<usize>) -> Cow<'_, str> {
        let as_is =
            self.encoding.ascii || (self.encoding.utf8 && !self.encoding_choice.single_byte());
        match as_is
            .then(|| std::str::from_utf8(&self.bytes[span.clone()]).ok())
            .flatten()
        {
            Some(piece) => Cow::Borrowed(piece),
            None => self.decode(span),
        }
    }

    /// The value of the first tag pair with this name (case-sensitive), decoded with the
    /// game's encoding rule and with `\"` and `\\` resolved.
    pub fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        self.tag_raw(name)
            .map(|value| lexer::unescape(self.decode_bytes(value)))
    }

    /// The raw bytes of the first tag value with this name (escapes not resolved).
    fn tag_raw(&self, name: &str) -> Option<&[u8]> {
        let name = name.as_bytes();
        // The lengths first: most names differ in length from the one asked for.
        self.tags
            .iter()
            .find(|t| {
                (t.name.1 - t.name.0) as usize == name.len() && &self.bytes[t.name_span()] == name
            })
            .map(|t| &self.bytes[t.value_span()])
    }

    /// Problems found while reading and tokenizing this game.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// Whether the game has any movetext token (a move, number, result, ...), as opposed
    /// to only tags, whitespace, comments and draw-offer marks (as the reader splits
    /// games: see [`crate::reader`]).
    pub fn has_movetext(&self) -> bool {
        self.tokens.iter().any(|t| {
            !t.kind.is_trivia() && !matches!(t.kind, TokenKind::Tag | TokenKind::DrawOffer)
        })
    }

    /// The encoding chosen for the file.
    pub fn encoding_choice(&self) -> Encoding {
        self.encoding_choice
    }

    /// How the game's text was decoded.
    pub fn encoding(&self) -> GameEncoding {
        self.encoding
    }

    /// Decodes a span of the game's bytes with the game's rule: under [`Encoding::Auto`]
    /// each valid UTF-8 sequence as UTF-8 and every other byte as Windows-1252 (the
    /// characters the tokenizer read); else the forced encoding.
    pub fn decode(&self, span: Range<usize>) -> Cow<'_, str> {
        self.decode_bytes(self.bytes.get(span).unwrap_or_default())
    }

    /// The text of a span as [`Game::decode`] gives it, in UTF-8 bytes: the bytes
    /// themselves when they already are that text (ASCII, or a UTF-8 game read as
    /// UTF-8), without checking them again. SAN is read from these bytes, so that a move
    /// means the same whatever the file's encoding (`O\x96O`, castling with a
    /// Windows-1252 en dash, reads as `O–O`).
    pub fn decoded_bytes(&self, span: Range<usize>) -> Cow<'_, [u8]> {
        let bytes = self.bytes.get(span).unwrap_or_default();
        let as_is = bytes.is_ascii() || (self.encoding.utf8 && !self.encoding_choice.single_byte());
        match as_is {
            true => Cow::Borrowed(bytes),
            false => match self.decode_bytes(bytes) {
                Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
                Cow::Owned(text) => Cow::Owned(text.into_bytes()),
            },
        }
    }

    fn decode_bytes<'a>(&self, bytes: &'a [u8]) -> Cow<'a, str> {
        encoding::decode(bytes, self.encoding_choice)
    }

    /// Where a byte of the game is in the file: byte offset, line and column (counted in
    /// characters of the decoded line). Computed on demand. A position past the end is
    /// clamped to the end.
    pub fn location(&self, byte_in_game: usize) -> Location {
        let bytes = &self.bytes;
        let at = byte_in_game.min(bytes.len());
        let mut cache = self
            .location_cache
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        // Go on from the last place when it lies before this one on a character boundary
        // (not a UTF-8 continuation byte, which could be read either way).
        let from = match *cache {
            Some(c) if c.at <= at && (c.at == at || !matches!(bytes[c.at], 0x80..=0xBF)) => c,
            _ => Counted {
                at: 0,
                newlines: 0,
                column: 1,
            },
        };
        let span = &bytes[from.at..at];
        let counted = match memchr::memrchr(b'\n', span) {
            None => Counted {
                at,
                newlines: from.newlines,
                column: from.column + encoding::count_chars(span, self.encoding_choice) as u64,
            },
            Some(last) => Counted {
                at,
                newlines: from.newlines + memchr::memchr_iter(b'\n', span).count() as u64,
                column: encoding::count_chars(&span[last + 1..], self.encoding_choice) as u64 + 1,
            },
        };
        *cache = Some(counted);
        Location {
            byte: self.offset + at as u64,
            line: self.first_line + counted.newlines,
            column: counted.column,
        }
    }

    pub(crate) fn analyze_encoding(&mut self) {
        let (ascii, nul) = ascii_and_nul(&self.bytes);
        if nul {
            self.report_nul_bytes();
        }
        self.report_lone_cr();
        let bytes = &self.bytes;
        let mut info = GameEncoding {
            ascii,
            ..GameEncoding::default()
        };
        if info.ascii {
            info.utf8 = true;
            self.encoding = info;
            return;
        }
        info.utf8 = std::str::from_utf8(bytes).is_ok();
        let choice = self.encoding_choice;
        if choice != Encoding::Windows1252 && choice != Encoding::Latin1 {
            info.replacement_chars = find_replacement(bytes).is_some();
        }
        let mut pieces = PieceReport::default();
        if !info.utf8 || choice.single_byte() {
            for (index, token) in self.tokens.iter().enumerate() {
                let piece = &bytes[token.span()];
                if piece.is_ascii() {
                    continue;
                }
                let single = choice.single_byte() || std::str::from_utf8(piece).is_err();
                if single {
                    pieces.add(index, token, &self.tags, bytes);
                }
            }
            // The separators too: a NO-BREAK SPACE written as byte 0xA0.
            for gap in self
                .all_tokens()
                .filter(|t| t.kind == TokenKind::Whitespace)
            {
                let piece = &bytes[gap.span()];
                if !piece.is_ascii()
                    && (choice.single_byte() || std::str::from_utf8(piece).is_err())
                {
                    pieces.add_space(&gap);
                }
            }
        }
        info.single_byte_pieces = pieces.count;
        self.encoding = info;
        match choice {
            Encoding::Auto if pieces.count > 0 => {
                let message = format!("decoded as windows-1252: {}", pieces.describe());
                self.findings.push(Finding::new(
                    FindingKind::Encoding,
                    message,
                    pieces.first.clone(),
                ));
            }
            // Forced, the note says so: what the contract's `encoding` row reports is
            // what was decoded as a single-byte encoding, asked for or not.
            Encoding::Windows1252 | Encoding::Latin1 if pieces.count > 0 => {
                let message = format!(
                    "decoded as {} (--encoding): {}",
                    choice.name(),
                    pieces.describe()
                );
                self.findings.push(Finding::new(
                    FindingKind::Encoding,
                    message,
                    pieces.first.clone(),
                ));
            }
            Encoding::Utf8 if !info.utf8 => {
                let span = first_invalid_utf8(bytes);
                self.findings.push(Finding::new(
                    FindingKind::Encoding,
                    "invalid utf-8 decoded as U+FFFD",
                    span,
                ));
            }
            _ => {}
        }
        if info.replacement_chars {
            let at = find_replacement(bytes).unwrap_or(0) as u32;
            self.findings.push(Finding::new(
                FindingKind::Encoding,
                "text holds U+FFFD replacement characters",
                at..at + 3,
            ));
        }
    }
}

impl Game {
    /// Text whose lines end with a lone CR (classic Mac OS) has no line ends planilla
    /// reads, so neither its lines nor its games are told apart: say so, at the first CR.
    fn report_lone_cr(&mut self) {
        let bytes = &self.bytes;
        if memchr::memchr(b'\n', bytes).is_some() {
            return;
        }
        let Some(at) = memchr::memchr(b'\r', bytes) else {
            return;
        };
        let at = at as u32;
        self.insert_finding(Finding::new(
            FindingKind::Syntax,
            "lines end with a lone CR (classic Mac OS), which planilla does not read as line \
             ends: games and lines are not told apart; convert the line ends to LF or CRLF",
            at..at + 1,
        ));
    }

    /// NUL bytes are no PGN text: runs of them are what a crash while writing leaves.
    /// Outside comments and tag values the tokenizer reports each as an unexpected token;
    /// here the first one inside another token (a comment, a tag) gets a finding. Called
    /// by `analyze_encoding` for a game that has one.
    fn report_nul_bytes(&mut self) {
        let bytes = &self.bytes;
        let Some(first) = memchr::memchr(0, bytes) else {
            return;
        };
        let tokens = &self.tokens;
        let inside = |at: usize| {
            let i = tokens.partition_point(|t| (t.end as usize) <= at);
            tokens
                .get(i)
                .filter(|t| (t.start as usize) <= at && t.kind != TokenKind::Unknown)
        };
        let mut hidden = memchr::memchr_iter(0, &bytes[first..])
            .map(|i| first + i)
            .filter_map(|at| inside(at).map(|t| (at, t.kind)));
        let Some((at, kind)) = hidden.next() else {
            return;
        };
        let more = hidden.count();
        let place = match kind {
            TokenKind::Comment | TokenKind::LineComment => "a comment",
            TokenKind::Tag => "a tag pair",
            TokenKind::Escape => "an escape line",
            _ => "a token",
        };
        let message = match more {
            0 => format!("NUL byte in {place}: the file may be damaged"),
            // The others may stand in another kind of token: counted, not placed.
            1 => format!(
                "NUL byte in {place}, and 1 more inside a token of this game: the file may be damaged"
            ),
            n => format!(
                "NUL byte in {place}, and {n} more inside tokens of this game: the file may be damaged"
            ),
        };
        let at = at as u32;
        self.insert_finding(Finding::new(FindingKind::Syntax, message, at..at + 1));
    }

    /// Adds a finding in the order of places (the tokenizer's findings are in order).
    fn insert_finding(&mut self, finding: Finding) {
        let index = self
            .findings
            .iter()
            .position(|f| f.span.start > finding.span.start)
            .unwrap_or(self.findings.len());
        self.findings.insert(index, finding);
    }
}

/// The first U+FFFD (`EF BF BD`) in `bytes`. A search for the rare lead byte is cheaper
/// than building a substring searcher for every game.
fn find_replacement(bytes: &[u8]) -> Option<usize> {
    memchr::memchr_iter(0xEF, bytes).find(|&at| bytes[at..].starts_with(&[0xEF, 0xBF, 0xBD]))
}

fn first_invalid_utf8(bytes: &[u8]) -> Range<u32> {
    match std::str::from_utf8(bytes) {
        Ok(_) => 0..0,
        Err(e) => {
            let at = e.valid_up_to() as u32;
            at..at + e.error_len().unwrap_or(1) as u32
        }
    }
}

/// Which pieces of a game were decoded as Windows-1252, for the `encoding` finding.
#[derive(Default)]
struct PieceReport {
    count: u32,
    first: Range<u32>,
    tag_names: Vec<String>,
    comments: u32,
    other: u32,
    spaces: u32,
}

impl PieceReport {
    /// A space between tokens (which is no token) decoded as Windows-1252.
    fn add_space(&mut self, gap: &Token) {
        if self.count == 0 || gap.start < self.first.start {
            self.first = gap.start..gap.end;
        }
        self.count += 1;
        self.spaces += 1;
    }

    fn add(&mut self, index: usize, token: &Token, tags: &[TagSpans], bytes: &[u8]) {
        if self.count == 0 {
            self.first = token.start..token.end;
        }
        self.count += 1;
        match token.kind {
            TokenKind::Tag => {
                let name = tags
                    .iter()
                    .find(|t| t.token as usize == index)
                    .map(|t| &bytes[t.name_span()]);
                if let Some(name) = name {
                    self.tag_names
                        .push(String::from_utf8_lossy(name).into_owned());
                }
            }
            TokenKind::Comment | TokenKind::LineComment => self.comments += 1,
            _ => self.other += 1,
        }
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        match self.tag_names.len() {
            0 => {}
            1 => parts.push(format!("tag {}", self.tag_names[0])),
            _ => parts.push(format!("tags {}", self.tag_names.join(", "))),
        }
        let plural =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        if self.comments > 0 {
            parts.push(plural(self.comments, "comment", "comments"));
        }
        if self.other > 0 {
            parts.push(plural(self.other, "other token", "other tokens"));
        }
        if self.spaces > 0 {
            parts.push(plural(
                self.spaces,
                "space between tokens",
                "spaces between tokens",
            ));
        }
        parts.join(", ")
    }
}

/// Every token of a game, whitespace included: see [`Game::all_tokens`].
#[derive(Clone, Debug)]
pub struct AllTokens<'a> {
    tokens: &'a [Token],
    next: usize,
    at: u32,
    len: u32,
}

impl Iterator for AllTokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let upcoming = self.tokens.get(self.next);
        let gap_end = upcoming.map_or(self.len, |t| t.start);
        if self.at < gap_end {
            let gap = Token {
                kind: TokenKind::Whitespace,
                start: self.at,
                end: gap_end,
            };
            self.at = gap_end;
            return Some(gap);
        }
        let token = *upcoming?;
        self.next += 1;
        self.at = token.end;
        Some(token)
    }
}

/// Whether `bytes` are all ASCII, and whether one of them is NUL: one pass folding their
/// OR and their minimum, which the compiler turns into vector instructions (where
/// `is_ascii` and `memchr` made two passes).
fn ascii_and_nul(bytes: &[u8]) -> (bool, bool) {
    let (mut or, mut min) = (0u8, u8::MAX);
    for &b in bytes {
        or |= b;
        min = min.min(b);
    }
    (or < 0x80, min == 0)
}

#[cfg(test)]
mod tests {
    use super::ascii_and_nul;

    /// The one pass agrees with `is_ascii` and a search for NUL, wherever the byte
    /// that decides stands (each length up to past a vector's width, every place).
    #[test]
    fn ascii_and_nul_agree_with_their_two_passes() {
        for len in 0..80 {
            for at in 0..len.max(1) {
                for special in [0u8, 0x80, 0xe9, 0xff, b'a'] {
                    let mut bytes = vec![b'e'; len];
                    if let Some(b) = bytes.get_mut(at) {
                        *b = special;
                    }
                    let expected = (bytes.is_ascii(), bytes.contains(&0));
                    assert_eq!(ascii_and_nul(&bytes), expected, "{bytes:?}");
                }
            }
        }
    }
}
