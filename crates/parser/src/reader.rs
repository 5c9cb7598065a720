//! The streaming reader: any `io::Read` in, one game at a time out.
//!
//! Bytes are read in chunks into a rolling buffer that holds at most the current game (up
//! to the size limit) plus one chunk. The tokenizer runs over the buffer as it fills, in
//! one pass that also finds where the next game starts; the game's bytes are then copied
//! once into the caller's [`Game`], whose token list it has filled meanwhile.
//!
//! # Where a game starts
//!
//! The tokenizer looks at the first token of each line, outside brace comments:
//!
//! 1. A line whose first non-blank character is `[` is a tag line. It starts a new game
//!    when the current game already has movetext (anything but tags, whitespace, comments,
//!    `%` escape lines and draw-offer marks `(=)`, which annotate a move and which convert
//!    writes as the comment `{(=)}`), or when it follows a blank line inside a tag section and is
//!    an `Event` tag or repeats a tag name already seen in that section. So each tag
//!    section is one game, with or without movetext (broadcast exports write hundreds of
//!    tag-only sections separated by blank lines, some without `Event`), while a stray
//!    blank line inside one tag section (as ChessBase writes) does not split it. Whatever
//!    follows a tag on its line (`<br>`) does not end the tag section.
//! 2. A line whose first token is a move number or a move starts a new game without tags
//!    when the last token of the previous non-blank line was a result (`1-0`, `0-1`,
//!    `1/2-1/2`, `½-½`, `*`).
//!    Moves written on a tag's own line after the tag (`[Result "1-0"] e4 *`) begin the
//!    movetext, so the next tag line starts the next game. A tag pair in the middle of a
//!    line of movetext is a `syntax-error` finding and not a tag of the game.
//! 3. Inside a brace comment, a line that is exactly one well-formed tag pair ends the
//!    comment (it was never closed: the tokenizer reports it) and starts a new game, so a
//!    broken game never swallows the games after it.
//!
//! 4. A line that is exactly the separator [`crate::SEPARATOR`] (`% planilla: end of
//!    game`, at the first column, in any state: inside a comment, a tag section or a
//!    variation) ends the game before it, which ends before the line end that precedes
//!    the separator; the next game starts after the separator's line. The separator and
//!    that line end belong to no game: `fix` writes it between rejected games that would
//!    otherwise run together ([`crate::Joiner`]), so that each reads back as it came.
//!
//! Text before a game's first tag that is only whitespace, comments and escape lines
//! belongs to that game; any other text between games (garbage after a result) belongs to
//! the game before it. A byte order mark at the start of the file belongs to no game, nor
//! does a separator line, and input that is only whitespace is no game (whitespace before a
//! separator goes with it).
//!
//! Game counts therefore equal the number of tag sections, plus games without tags.
//! `scripts/check-corpora` checks this against an independent count.

use std::io::{self, Read};

use crate::encoding::Encoding;
use crate::finding::{Finding, FindingKind};
use crate::game::{DEFAULT_MAX_VARIATION_DEPTH, Game};
use crate::lexer::{Input, LexConfig, Lexer, Sink, Step};
use crate::token::TokenKind;

/// The default size of one read from the underlying reader.
pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;

/// A line longer than this, in a game over the size limit, is tokenized in pieces so
/// that memory stays bounded.
const LONG_LINE: usize = 1 << 20;

/// The default limit on the size of one game.
pub const DEFAULT_MAX_GAME_SIZE: usize = 16 * 1024 * 1024;

/// The default limit on the tokens of one game: 12 MiB of tokens. A real game, however
/// annotated, has tens of thousands; 16 MiB of `(` would have 16 million (192 MiB).
pub const DEFAULT_MAX_GAME_TOKENS: usize = 1 << 20;

/// Builds a [`Reader`] with chosen settings.
#[derive(Clone, Debug)]
pub struct ReaderBuilder {
    buffer_size: usize,
    max_game_size: usize,
    max_game_tokens: usize,
    encoding: Encoding,
    max_depth: u32,
    origin: Origin,
}

/// Where a reader's text starts within the whole input, and what the reading before it
/// left: a reader built with it reads a piece cut out of a larger input
/// ([`crate::split`]) as the rest of that input would be read, with the same game
/// numbers, byte offsets, line numbers and findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    /// Byte offset of the text's first byte in the whole input.
    pub offset: u64,
    /// Line number of the text's first byte (the first line is 1).
    pub line: u64,
    /// Games read before it.
    pub games: u64,
    /// The game before it was over a limit and ended at its result, so that text
    /// without tags after it is named as such.
    pub after_result: bool,
}

impl Default for Origin {
    /// The start of an input.
    fn default() -> Self {
        Origin {
            offset: 0,
            line: 1,
            games: 0,
            after_result: false,
        }
    }
}

impl Origin {
    /// The origin `self`, which a reader starting at `piece` with counts from zero (line
    /// 1, no game) reached, counted from `piece` instead: its offset stays, its line and
    /// games are added to `piece`'s, and `piece`'s `after_result` is taken when no game
    /// was read since.
    pub fn after(self, piece: Origin) -> Origin {
        Origin {
            offset: self.offset,
            line: piece.line + self.line - 1,
            games: piece.games + self.games,
            after_result: if self.games == 0 {
                piece.after_result
            } else {
                self.after_result
            },
        }
    }
}

impl Default for ReaderBuilder {
    fn default() -> Self {
        ReaderBuilder::new()
    }
}

impl ReaderBuilder {
    /// Default settings: 64 KiB reads, 16 MiB and 1,048,576 tokens a game,
    /// [`Encoding::Auto`], 256 nested variations.
    pub fn new() -> ReaderBuilder {
        ReaderBuilder {
            buffer_size: DEFAULT_BUFFER_SIZE,
            max_game_size: DEFAULT_MAX_GAME_SIZE,
            max_game_tokens: DEFAULT_MAX_GAME_TOKENS,
            encoding: Encoding::Auto,
            max_depth: DEFAULT_MAX_VARIATION_DEPTH,
            origin: Origin::default(),
        }
    }

    /// The number of bytes asked of the underlying reader at a time (at least 1). Results
    /// never depend on it.
    pub fn buffer_size(mut self, bytes: usize) -> Self {
        self.buffer_size = bytes.max(1);
        self
    }

    /// The largest game kept whole. A larger game keeps only its tag section (when that
    /// fits), gets a finding, and the reader skips to the next game.
    pub fn max_game_size(mut self, bytes: usize) -> Self {
        self.max_game_size = bytes.max(1);
        self
    }

    /// The most tokens a game kept whole may have (at least 1). A game with more, once
    /// its movetext has begun, is treated as one over the size limit: it keeps its tag
    /// section, gets a finding, and the reader skips to the next game. Tokens cost 12
    /// bytes each, so this bounds a game's memory where the size limit alone does not
    /// (a game of `(` has a token a byte).
    pub fn max_game_tokens(mut self, tokens: usize) -> Self {
        self.max_game_tokens = tokens.max(1);
        self
    }

    /// The encoding rule ([`Encoding::Auto`] unless forced).
    pub fn encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// The deepest nesting of variations before a finding is reported.
    pub fn max_variation_depth(mut self, depth: u32) -> Self {
        self.max_depth = depth;
        self
    }

    /// Where the text the reader is given starts in the whole input ([`Origin`]; the
    /// start of an input unless set). Past the input's first byte, the text is not
    /// looked at for a byte order mark or UTF-16.
    pub fn origin(mut self, origin: Origin) -> Self {
        self.origin = origin;
        self
    }

    /// Where the text a reader of these settings is given starts ([`ReaderBuilder::origin`]).
    pub fn starts_at(&self) -> Origin {
        self.origin
    }

    /// Builds a reader over `text`, the whole of its input, which it reads where it lies:
    /// nothing is copied into a buffer of the reader's, as a read from a slice would be.
    /// [`Reader::into_buffer`] gives `text` back.
    pub fn build_text(self, text: Vec<u8>) -> Reader<io::Empty> {
        let mut reader = self.build(io::empty());
        reader.end = text.len();
        reader.buf = text;
        reader.eof = true;
        reader
    }

    /// Builds the reader over `inner`.
    pub fn build<R: Read>(self, inner: R) -> Reader<R> {
        let origin = self.origin;
        let lex = LexConfig {
            encoding: self.encoding,
            max_depth: self.max_depth,
        };
        Reader {
            inner,
            lexer: Lexer::new(lex),
            config: self,
            buf: Vec::new(),
            start: 0,
            end: 0,
            base: origin.offset,
            eof: false,
            read_error: None,
            utf16_decoder: None,
            raw: Vec::new(),
            raw_eof: false,
            bom_checked: origin.offset > 0,
            utf16: None,
            line: origin.line,
            games: origin.games,
            skipping: false,
            ended_at_result: origin.after_result.then_some(origin.games),
            dropped: 0,
            summary: EncodingSummary::default(),
        }
    }
}

/// Counts of how the games read so far were decoded: the per-file encoding report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EncodingSummary {
    /// Games read and tokenized.
    pub games: u64,
    /// Games whose bytes are all ASCII.
    pub ascii_games: u64,
    /// Games that are valid UTF-8 with non-ASCII text.
    pub utf8_games: u64,
    /// Games with at least one piece decoded as Windows-1252 (or a forced single-byte
    /// encoding).
    pub single_byte_games: u64,
    /// Games that hold U+FFFD replacement characters.
    pub replacement_games: u64,
}

impl EncodingSummary {
    /// One word for the file: `ascii`, `utf-8`, `windows-1252` or `mixed`.
    pub fn verdict(&self) -> &'static str {
        match (self.utf8_games, self.single_byte_games) {
            (0, 0) => "ascii",
            (_, 0) => "utf-8",
            (0, _) => "windows-1252",
            _ => "mixed",
        }
    }
}

/// A streaming PGN reader over any [`Read`]. Memory stays bounded by the largest game
/// (up to the size limit) plus one buffer, whatever the input size.
pub struct Reader<R> {
    inner: R,
    config: ReaderBuilder,
    lexer: Lexer,
    buf: Vec<u8>,
    /// Start of the current game in `buf`.
    start: usize,
    /// End of valid data in `buf`.
    end: usize,
    /// File offset of `buf[0]`.
    base: u64,
    eof: bool,
    /// The underlying reader failed (a compressed file cut short): the data before the
    /// failure is read to its end as if the input ended there, and the error is returned
    /// after its last game.
    read_error: Option<io::Error>,
    /// UTF-16 input is decoded to UTF-8 in [`Reader::fill`]: `raw` holds the bytes read
    /// and not yet decoded, `raw_eof` whether the underlying reader is at its end.
    utf16_decoder: Option<encoding_rs::Decoder>,
    raw: Vec<u8>,
    raw_eof: bool,
    bom_checked: bool,
    /// The input looks like UTF-16 (reported with the first game).
    utf16: Option<&'static str>,
    /// Line number of the current game's first byte.
    line: u64,
    games: u64,
    /// The current game is over the size limit and being skipped.
    skipping: bool,
    /// The game just read was ended at its result by [`Reader::end_of_moves`]: its
    /// number, for the message of the text after it.
    ended_at_result: Option<u64>,
    /// Bytes of the current game dropped while skipping.
    dropped: u64,
    summary: EncodingSummary,
}

impl<R: Read> Reader<R> {
    /// A reader with default settings; see [`ReaderBuilder`] for others.
    pub fn new(inner: R) -> Reader<R> {
        ReaderBuilder::new().build(inner)
    }

    /// Reads the next game into `game` (whose buffers are reused) and tokenizes it.
    /// Returns `Ok(false)` at the end of the input.
    ///
    /// # Errors
    ///
    /// An I/O error of the underlying reader, with the number of bytes read before it and
    /// the games read in the message, once every game of the text read before it has been
    /// returned (the last one as the input ended there: a game cut short gets the
    /// findings a file cut short gets); problems in the PGN are findings.
    ///
    /// # Panics
    ///
    /// Only through a bug of the tokenizer; no input bytes should make it panic (the
    /// reader fuzz target checks that). The reader is then in an unknown state and is
    /// not to be read again: the binary's pipeline catches such a panic, names the game
    /// ([`Reader::games_read`] + 1) and its byte offset ([`Reader::offset`]), and goes on
    /// with the next input.
    pub fn read_game(&mut self, game: &mut Game) -> io::Result<bool> {
        self.read_game_inner(game)
            .map_err(|e| read_failure(&e, self.base + self.end as u64, self.games))
    }

    /// Where the next game starts, and what the reading so far left for it: a reader
    /// built with this [`Origin`] over the rest of the text reads the rest as this one
    /// would.
    pub fn origin(&self) -> Origin {
        Origin {
            offset: self.offset(),
            line: self.line,
            games: self.games,
            after_result: self.ended_at_result.is_some(),
        }
    }

    /// The byte offset in the input (of the text, once decoded from UTF-16) where the
    /// next game starts.
    pub fn offset(&self) -> u64 {
        self.base + self.start as u64
    }

    fn read_game_inner(&mut self, game: &mut Game) -> io::Result<bool> {
        game.clear();
        game.encoding_choice = self.config.encoding;
        game.max_depth = self.config.max_depth;
        if !self.bom_checked {
            while self.end - self.start < 4 && !self.eof {
                self.fill();
            }
            let head = &self.buf[self.start..self.end];
            if head.starts_with(b"\xEF\xBB\xBF") {
                self.start += 3;
            }
            if let Some(utf16) = Utf16::of(head) {
                // UTF-16 text is decoded to UTF-8 as it is read: what was read so far
                // is the first of it (a byte order mark is dropped).
                self.utf16 = Some(utf16.name);
                let encoding = utf16.encoding;
                self.raw = head[utf16.bom..].to_vec();
                self.raw_eof = self.eof;
                self.eof = false;
                self.end = self.start;
                self.utf16_decoder = Some(encoding.new_decoder_without_bom_handling());
                while self.end == self.start && !self.eof {
                    self.fill();
                }
            }
            self.bom_checked = true;
        }
        let lex = LexConfig {
            encoding: self.config.encoding,
            max_depth: self.config.max_depth,
        };
        // Runs once a game, and again after each separator line with no game before it.
        'game: loop {
            let offset = self.base + self.start as u64;
            self.lexer
                .reset(lex, self.config.max_game_size, self.config.max_game_tokens);
            self.skipping = false;
            self.dropped = 0;
            loop {
                let data = &self.buf[self.start..self.end];
                let mut sink = Sink {
                    tokens: &mut game.tokens,
                    tags: &mut game.tags,
                    findings: &mut game.findings,
                };
                let mode = if self.eof { Input::End } else { Input::More };
                let mut step = self.lexer.run(data, mode, true, &mut sink);
                if step == Step::Need {
                    // Everything up to the last line end is tokenized; what is left is one
                    // incomplete line. A line too long to hold is taken in pieces: in a game
                    // being skipped, or when the line alone is over the size limit (its game
                    // is over the limit then, whichever game it belongs to).
                    let open = data.len() - self.lexer.droppable();
                    let threshold = if self.skipping {
                        LONG_LINE
                    } else {
                        LONG_LINE.max(self.config.max_game_size)
                    };
                    if open > threshold {
                        step = self.lexer.run(data, Input::Partial, true, &mut sink);
                    }
                }
                match step {
                    Step::Boundary(at) => {
                        self.finish(game, at, offset);
                        return Ok(true);
                    }
                    Step::Separator {
                        at,
                        end,
                        dropped_line_end,
                    } => {
                        let separator = self.start + at;
                        // That line end is the separator's, not the skipped game's.
                        self.dropped -= u64::from(dropped_line_end);
                        if self.skipping || self.lexer.has_content {
                            self.finish(game, at, offset);
                            // A game over a limit may have ended at its result, before the
                            // separator: the text after it is the next game.
                            if self.start == separator {
                                self.skip_separator(end - at);
                            }
                            return Ok(true);
                        }
                        // Only whitespace before it: no game, and the whitespace goes with
                        // the separator.
                        self.line += self.lexer.newlines;
                        self.start = separator;
                        self.skip_separator(end - at);
                        continue 'game;
                    }
                    Step::End => {
                        if !self.skipping && !self.lexer.has_content {
                            // Only whitespace is left (or nothing): no game.
                            self.base += self.end as u64;
                            self.start = 0;
                            self.end = 0;
                            return match self.read_error.take() {
                                Some(e) => Err(e),
                                None => Ok(false),
                            };
                        }
                        let at = self.end - self.start;
                        self.finish(game, at, offset);
                        return Ok(true);
                    }
                    Step::Need => {
                        // Every byte before `droppable` belongs to this game (a game starts
                        // only at a line start, and a comment goes on to its search point).
                        // Tokens are counted once the tag section is complete, so that what
                        // is kept of the game never depends on where a read ended.
                        let too_many_tokens = self.lexer.in_movetext()
                            && game.tokens.len() > self.config.max_game_tokens;
                        // A line end at the end of that is the game's only if no
                        // separator line follows it.
                        let data = &self.buf[self.start..self.end];
                        let known = self.lexer.droppable();
                        let known = known - usize::from(known > 0 && data[known - 1] == b'\n');
                        let too_large = known > self.config.max_game_size;
                        if !self.skipping
                            && (too_many_tokens || too_large)
                            && let Some(at) = self.end_of_moves(game)
                        {
                            self.finish_at_result(game, at, offset);
                            return Ok(true);
                        }
                        if self.skipping || too_many_tokens || too_large {
                            self.skip_oversized(game);
                        }
                        self.fill();
                    }
                }
            }
        }
    }

    /// Passes over a separator line of `len` bytes at the start of the unread data (see
    /// [`crate::SEPARATOR`]): it belongs to no game.
    fn skip_separator(&mut self, len: usize) {
        let separator = &self.buf[self.start..self.start + len];
        self.line += memchr::memchr_iter(b'\n', separator).count() as u64;
        self.start += len;
    }

    /// Number of games returned so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// How the games read so far were decoded.
    pub fn encoding_summary(&self) -> EncodingSummary {
        self.summary
    }

    /// The underlying reader.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The reader's buffer: for a reader built by [`ReaderBuilder::build_text`], its text
    /// as it was given.
    pub fn into_buffer(self) -> Vec<u8> {
        self.buf
    }

    /// Reads one more chunk into the buffer, making room first. An error of the
    /// underlying reader ends the input here (see `read_error`).
    fn fill(&mut self) {
        let chunk = self.config.buffer_size;
        if self.buf.len() - self.end < chunk {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.base += self.start as u64;
                self.end -= self.start;
                self.start = 0;
            }
            if self.buf.len() - self.end < chunk {
                self.buf.resize(self.end + chunk, 0);
            }
        }
        if self.utf16_decoder.is_some() {
            self.fill_utf16(chunk);
            return;
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..self.end + chunk]) {
                Ok(0) => {
                    self.eof = true;
                    return;
                }
                Ok(n) => {
                    self.end += n.min(chunk);
                    return;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // The text read so far is read to its end; the error comes after
                    // its last game.
                    self.read_error = Some(e);
                    self.eof = true;
                    return;
                }
            }
        }
    }

    /// [`Reader::fill`] for UTF-16 input: reads raw bytes and decodes them into at most
    /// `chunk` bytes of UTF-8 (an unpaired surrogate or a last odd byte becomes U+FFFD).
    fn fill_utf16(&mut self, chunk: usize) {
        let Some(decoder) = self.utf16_decoder.as_mut() else {
            return;
        };
        loop {
            if self.raw.is_empty() && !self.raw_eof {
                self.raw.resize(chunk, 0);
                let read = self.inner.read(&mut self.raw);
                self.raw.truncate(*read.as_ref().unwrap_or(&0));
                match read {
                    Ok(0) => self.raw_eof = true,
                    Ok(_) => {}
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        self.read_error = Some(e);
                        self.raw_eof = true;
                    }
                }
            }
            // Room for one character at least (four bytes of UTF-8), whatever the chunk.
            let room = chunk.max(4);
            if self.buf.len() < self.end + room {
                self.buf.resize(self.end + room, 0);
            }
            let dst = &mut self.buf[self.end..self.end + room];
            let (result, read, written, _) = decoder.decode_to_utf8(&self.raw, dst, self.raw_eof);
            self.raw.drain(..read);
            self.end += written;
            // Given the last bytes and done with them, the decoder is finished and must
            // not be called again (encoding_rs panics): the text ends with what it wrote.
            let input_empty = result == encoding_rs::CoderResult::InputEmpty;
            if self.raw_eof && self.raw.is_empty() && input_empty {
                self.eof = true;
                return;
            }
            if written > 0 {
                return;
            }
        }
    }

    /// Where a game over a limit ends, if its moves ended before it: after the line of
    /// the first result outside variations that follows the last move or move number
    /// (and the blank lines after it).
    /// Only the tokens within both limits are looked at (so the answer never depends on
    /// where a read ended); `None` when they hold no such result or its line goes past
    /// a limit: the game is skipped then.
    fn end_of_moves(&self, game: &Game) -> Option<usize> {
        let data = &self.buf[self.start..self.end];
        let limit = self.config.max_game_size;
        let tokens = &game.tokens[..game.tokens.len().min(self.config.max_game_tokens)];
        let tokens = &tokens[..tokens.partition_point(|t| t.end as usize <= limit)];
        let after_moves = tokens
            .iter()
            .rposition(|t| matches!(t.kind, TokenKind::San | TokenKind::MoveNumber))
            .map_or(0, |i| i + 1);
        let mut depth = 0u32;
        let mut result = None;
        for (i, t) in tokens.iter().enumerate() {
            match t.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::Result if depth == 0 && i >= after_moves => {
                    result = Some(t.end as usize);
                    break;
                }
                _ => {}
            }
        }
        let end = result?;
        let mut at = end + memchr::memchr(b'\n', &data[end..])? + 1;
        // Blank lines after it go with the game, as they do before any next game.
        while let Some(i) = memchr::memchr(b'\n', &data[at..])
            && at + i < limit
            && data[at..at + i].iter().all(u8::is_ascii_whitespace)
        {
            at += i + 1;
        }
        // The game up to there is within both limits (a token past the ones looked at
        // that starts before `at` puts it over).
        let within = at <= limit
            && game.tokens.partition_point(|t| (t.start as usize) < at)
                <= self.config.max_game_tokens;
        within.then_some(at)
    }

    /// The current game is over the size limit: drop what is tokenized (its tokens too),
    /// so memory stays bounded; the game is put together in [`Reader::finish`].
    fn skip_oversized(&mut self, game: &mut Game) {
        if !self.skipping {
            self.skipping = true;
            let data = &self.buf[self.start..self.end];
            game.bytes
                .extend_from_slice(&data[..self.lexer.retained_tags(data)]);
        }
        let drop = self.lexer.droppable();
        if drop > 0 {
            self.dropped += drop as u64;
            self.lexer.shift(drop);
            self.start += drop;
        }
        game.tokens.clear();
        game.tags.clear();
        game.findings.clear();
    }

    /// Ends a game over a limit at `at`, the end of the line of the result that ended its
    /// moves ([`Reader::end_of_moves`]): what overflows the limit is text after the game,
    /// read as the next one.
    fn finish_at_result(&mut self, game: &mut Game, at: usize, offset: u64) {
        let data = &self.buf[self.start..self.start + at];
        // Tokenized again, as the game it is (the tokens so far run past it).
        game.bytes.extend_from_slice(data);
        game.tokenize();
        self.lexer.newlines = memchr::memchr_iter(b'\n', data).count() as u64;
        self.finish_read(game, at, offset);
        self.ended_at_result = Some(self.games);
    }

    fn finish(&mut self, game: &mut Game, at: usize, offset: u64) {
        let after_result = self.ended_at_result.take();
        let data = &self.buf[self.start..self.start + at];
        let total = self.dropped + at as u64;
        let too_many_tokens = game.tokens.len() > self.config.max_game_tokens;
        let over = too_many_tokens || at > self.config.max_game_size;
        if over
            && !self.skipping
            && let Some(end) = self.end_of_moves(game)
        {
            self.finish_at_result(game, end, offset);
            return;
        }
        if self.skipping || over {
            // The outcome depends only on the game: its tag section (the tag lines that end
            // within the limit) is kept and tokenized again, the rest counted as skipped.
            if !self.skipping {
                game.bytes
                    .extend_from_slice(&data[..self.lexer.retained_tags(data)]);
            }
            game.tokenize();
            game.skipped = total - game.bytes.len() as u64;
            let kept = game.bytes.len() as u32;
            let mut message = if total > self.config.max_game_size as u64 {
                format!(
                    "game larger than {} bytes: movetext skipped",
                    self.config.max_game_size
                )
            } else {
                format!(
                    "game with more than {} tokens (moves, numbers, comments, marks): \
                     movetext skipped",
                    self.config.max_game_tokens
                )
            };
            if let Some(previous) = after_result
                && game.tags.is_empty()
            {
                message.push_str(&after_result_of(previous));
                game.after_result_of = Some(previous);
            }
            game.findings.insert(
                0,
                Finding::new(FindingKind::GameTooLarge, message, kept..kept),
            );
        } else {
            game.bytes.extend_from_slice(data);
            let mut sink = Sink {
                tokens: &mut game.tokens,
                tags: &mut game.tags,
                findings: &mut game.findings,
            };
            self.lexer.finish(&game.bytes, &mut sink);
            game.analyze_encoding();
        }
        self.finish_read(game, at, offset);
    }

    /// The book-keeping of a game read to byte `at` of the unread data: its number,
    /// offset and line, and the encoding summary.
    fn finish_read(&mut self, game: &mut Game, at: usize, offset: u64) {
        let newlines = self.lexer.newlines;
        if let Some(name) = self.utf16.take() {
            let message = format!("the file is {name}: read as such");
            game.findings.insert(
                0,
                Finding::new(
                    FindingKind::Encoding,
                    message,
                    0..(game.bytes.len() as u32).min(2),
                ),
            );
        }
        self.start += at;
        self.games += 1;
        game.index = self.games;
        game.offset = offset;
        game.first_line = self.line;
        self.line += newlines;
        let info = game.encoding();
        self.summary.games += 1;
        self.summary.ascii_games += info.ascii as u64;
        self.summary.utf8_games += (!info.ascii && info.single_byte_pieces == 0) as u64;
        self.summary.single_byte_games += (info.single_byte_pieces > 0) as u64;
        self.summary.replacement_games += info.replacement_chars as u64;
    }
}

/// What the message of a game over a limit adds when the game is text without tags
/// after the game `previous`, which was over a limit and ended at its result.
pub(crate) fn after_result_of(previous: u64) -> String {
    format!("; it is text without tags after the result of game {previous}, which ends there")
}

/// A read error of the underlying reader, saying where the input failed: after `bytes`
/// bytes of text, in which `games` games were read.
pub fn read_failure(e: &io::Error, bytes: u64, games: u64) -> io::Error {
    io::Error::new(
        e.kind(),
        format!(
            "after {bytes} bytes of text ({}): {e}",
            match games {
                0 => "no game read".to_string(),
                1 => "1 game read".to_string(),
                n => format!("{n} games read"),
            }
        ),
    )
}

/// The text a [`Reader`] reads from `input` when it is UTF-16 (see `Utf16::of`): its
/// UTF-8, a byte order mark dropped, an unpaired surrogate or a last odd byte as U+FFFD;
/// `None` for any other input.
pub fn utf16_text(input: &[u8]) -> Option<Vec<u8>> {
    let utf16 = Utf16::of(&input[..input.len().min(4)])?;
    let (text, _) = utf16
        .encoding
        .decode_without_bom_handling(&input[utf16.bom..]);
    Some(text.into_owned().into_bytes())
}

/// Whether input that begins with `head` (its first four bytes, or all of a shorter
/// input) is read as UTF-16.
pub(crate) fn is_utf16(head: &[u8]) -> bool {
    Utf16::of(&head[..head.len().min(4)]).is_some()
}

/// UTF-16 input, as its first bytes tell.
struct Utf16 {
    encoding: &'static encoding_rs::Encoding,
    name: &'static str,
    /// Length of its byte order mark (0 or 2).
    bom: usize,
}

impl Utf16 {
    /// Whether the start of the input is UTF-16 text: a UTF-16 byte order mark, or
    /// ASCII characters each paired with a NUL byte.
    fn of(head: &[u8]) -> Option<Utf16> {
        let ascii = |b: u8| matches!(b, b'\t' | b'\n' | b'\r' | 0x20..=0x7E);
        let (big, bom) = match head {
            [0xFF, 0xFE, ..] => (false, 2),
            [0xFE, 0xFF, ..] => (true, 2),
            [a, 0, b, 0, ..] if ascii(*a) && ascii(*b) => (false, 0),
            [0, a, 0, b, ..] if ascii(*a) && ascii(*b) => (true, 0),
            _ => return None,
        };
        Some(if big {
            Utf16 {
                encoding: encoding_rs::UTF_16BE,
                name: "UTF-16 (big-endian)",
                bom,
            }
        } else {
            Utf16 {
                encoding: encoding_rs::UTF_16LE,
                name: "UTF-16 (little-endian)",
                bom,
            }
        })
    }
}
