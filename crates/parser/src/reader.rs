//! The streaming reader: any `io::Read` in, one game at a time out.
//!
//! Bytes are read in chunks into a rolling buffer that holds at most the current game (up
//! to the size limit) plus one chunk. A small line-oriented state machine (the splitter)
//! finds where the next game starts; the game's bytes are then copied once into the
//! caller's [`Game`] and tokenized there.
//!
//! # Where a game starts
//!
//! The splitter looks at the start of each line, outside brace comments:
//!
//! 1. A line whose first non-blank character is `[` is a tag line. It starts a new game
//!    when the current game already has movetext (anything but tags, whitespace, comments
//!    and `%` escape lines), or when it follows a blank line inside a tag section and is
//!    an `Event` tag or repeats a tag name already seen in that section. So each tag section is one game,
//!    with or without movetext (broadcast exports write hundreds of tag-only sections
//!    separated by blank lines), while a stray blank line inside one tag section (as
//!    ChessBase writes) does not split it.
//! 2. A line whose first word is a move number or a move-shaped token starts a new game
//!    without tags when the last word of the previous non-blank line was a result
//!    (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`).
//! 3. Inside a brace comment, a line that is exactly one well-formed tag pair ends the
//!    comment (it was never closed: the tokenizer reports it) and starts a new game, so a
//!    broken game never swallows the games after it.
//!
//! Text before a game's first tag that is only whitespace, comments and escape lines
//! belongs to that game; any other text between games (garbage after a result) belongs to
//! the game before it. A byte order mark at the start of the file belongs to no game.

use std::io::{self, Read};

use memchr::{memchr, memchr2, memchr3};

use crate::encoding::Encoding;
use crate::finding::{Finding, FindingKind};
use crate::game::{DEFAULT_MAX_VARIATION_DEPTH, Game};
use crate::lexer;

/// The default size of one read from the underlying reader.
pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;

/// The default limit on the size of one game.
pub const DEFAULT_MAX_GAME_SIZE: usize = 16 * 1024 * 1024;

/// How far the splitter looks ahead at the start of a line.
const LOOKAHEAD: usize = 4096;

/// How many bytes of a line the result check looks back at.
const LOOKBACK: usize = 24;

/// Builds a [`Reader`] with chosen settings.
#[derive(Clone, Debug)]
pub struct ReaderBuilder {
    buffer_size: usize,
    max_game_size: usize,
    encoding: Encoding,
    max_depth: u32,
    tokenize: bool,
}

impl Default for ReaderBuilder {
    fn default() -> Self {
        ReaderBuilder::new()
    }
}

impl ReaderBuilder {
    /// Default settings: 64 KiB reads, 16 MiB games, [`Encoding::Auto`], 256 nested
    /// variations, tokenizing every game.
    pub fn new() -> ReaderBuilder {
        ReaderBuilder {
            buffer_size: DEFAULT_BUFFER_SIZE,
            max_game_size: DEFAULT_MAX_GAME_SIZE,
            encoding: Encoding::Auto,
            max_depth: DEFAULT_MAX_VARIATION_DEPTH,
            tokenize: true,
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

    /// Whether [`Reader::read_game`] tokenizes each game (default true). Without it only
    /// the bytes and position are filled; call [`Game::tokenize`] later.
    pub fn tokenize(mut self, yes: bool) -> Self {
        self.tokenize = yes;
        self
    }

    /// Builds the reader over `inner`.
    pub fn build<R: Read>(self, inner: R) -> Reader<R> {
        Reader {
            inner,
            config: self,
            buf: Vec::new(),
            start: 0,
            end: 0,
            base: 0,
            eof: false,
            bom_checked: false,
            line: 1,
            games: 0,
            split: Splitter::default(),
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
    buf: Vec<u8>,
    /// Start of the current game in `buf`.
    start: usize,
    /// End of valid data in `buf`.
    end: usize,
    /// File offset of `buf[0]`.
    base: u64,
    eof: bool,
    bom_checked: bool,
    /// Line number of the current game's first byte.
    line: u64,
    games: u64,
    split: Splitter,
    summary: EncodingSummary,
}

impl<R: Read> Reader<R> {
    /// A reader with default settings; see [`ReaderBuilder`] for others.
    pub fn new(inner: R) -> Reader<R> {
        ReaderBuilder::new().build(inner)
    }

    /// Reads the next game into `game` (whose buffers are reused). Returns `Ok(false)` at
    /// the end of the input.
    ///
    /// # Errors
    ///
    /// Only I/O errors of the underlying reader; problems in the PGN are findings.
    pub fn read_game(&mut self, game: &mut Game) -> io::Result<bool> {
        game.clear();
        game.encoding_choice = self.config.encoding;
        game.max_depth = self.config.max_depth;
        if !self.bom_checked {
            while self.end - self.start < 3 && !self.eof {
                self.fill()?;
            }
            if self.buf[self.start..self.end].starts_with(b"\xEF\xBB\xBF") {
                self.start += 3;
            }
            self.bom_checked = true;
        }
        let offset = self.base + self.start as u64;
        let encoding = self.config.encoding;
        self.split.reset();
        self.split.max_tags_end = self.config.max_game_size;
        loop {
            let data = &self.buf[self.start..self.end];
            match self.split.scan(data, self.eof, encoding) {
                Step::Boundary(at) => {
                    self.finish(game, at, offset);
                    return Ok(true);
                }
                Step::End => {
                    let at = self.end - self.start;
                    if !self.split.skipping && !self.split.has_content {
                        // Only whitespace is left (or nothing): no game.
                        self.base += self.end as u64;
                        self.start = 0;
                        self.end = 0;
                        return Ok(false);
                    }
                    self.finish(game, at, offset);
                    return Ok(true);
                }
                Step::Need => {
                    if self.split.pos > self.config.max_game_size || self.split.skipping {
                        self.skip_oversized(game);
                    }
                    self.fill()?;
                }
            }
        }
    }

    /// Number of games returned so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// How the games read so far were decoded (counts only tokenized games).
    pub fn encoding_summary(&self) -> EncodingSummary {
        self.summary
    }

    /// The underlying reader.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads one more chunk into the buffer, making room first.
    fn fill(&mut self) -> io::Result<()> {
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
        loop {
            match self.inner.read(&mut self.buf[self.end..self.end + chunk]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n.min(chunk);
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The current game is over the size limit: keep its tag section, drop what was
    /// scanned (but the last bytes of the line, for the result check).
    fn skip_oversized(&mut self, game: &mut Game) {
        let split = &mut self.split;
        if !split.skipping {
            split.skipping = true;
            split.dropped = 0;
            let retained = &self.buf[self.start..self.start + split.tags_end];
            game.bytes.extend_from_slice(retained);
        }
        // Keep the line that waits for lookahead, or the last bytes of a long line (for the
        // result check at its end).
        let drop = if split.at_line_start {
            split.pos
        } else {
            split.pos.saturating_sub(2 * LOOKBACK)
        };
        if drop > 0 {
            split.shift(drop);
            split.dropped += drop as u64;
            self.start += drop;
        }
    }

    fn finish(&mut self, game: &mut Game, at: usize, offset: u64) {
        let oversized = self.split.skipping || at > self.config.max_game_size;
        if oversized {
            // The outcome depends only on the game: its tag section (the tag lines that end
            // within the limit) is kept, the rest is counted as skipped.
            if !self.split.skipping {
                let retained = &self.buf[self.start..self.start + self.split.tags_end];
                game.bytes.extend_from_slice(retained);
            }
            let total = self.split.dropped + at as u64;
            game.skipped = total - game.bytes.len() as u64;
            let kept = game.bytes.len() as u32;
            let message = format!(
                "game larger than {} bytes: movetext skipped",
                self.config.max_game_size
            );
            game.findings
                .push(Finding::new(FindingKind::GameTooLarge, message, kept..kept));
        } else {
            game.bytes
                .extend_from_slice(&self.buf[self.start..self.start + at]);
        }
        self.start += at;
        self.games += 1;
        game.index = self.games;
        game.offset = offset;
        game.first_line = self.line;
        self.line += self.split.lines;
        if self.config.tokenize {
            game.tokenize();
            let info = game.encoding();
            self.summary.games += 1;
            self.summary.ascii_games += info.ascii as u64;
            self.summary.utf8_games += (!info.ascii && info.single_byte_pieces == 0) as u64;
            self.summary.single_byte_games += (info.single_byte_pieces > 0) as u64;
            self.summary.replacement_games += info.replacement_chars as u64;
        }
    }
}

/// What the splitter found.
enum Step {
    /// The next game starts at this offset from the current game's start.
    Boundary(usize),
    /// More input is needed.
    Need,
    /// The input ended; the current game runs to the end.
    End,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    /// Only whitespace, comments and escapes so far.
    #[default]
    Empty,
    Tags,
    Movetext,
}

/// The state of the game splitter; every position is relative to the current game start.
#[derive(Debug, Default)]
struct Splitter {
    /// Next byte to look at.
    pos: usize,
    /// Start of the current line.
    line_start: usize,
    at_line_start: bool,
    /// The rest of the line is skipped (tag line, `;` comment, `%` escape).
    rest_of_line: bool,
    in_comment: bool,
    phase: Phase,
    /// Any non-whitespace byte so far (comments included).
    has_content: bool,
    blank_after_tags: bool,
    tag_names: Vec<u64>,
    /// The last non-blank line ended with a result.
    pending_result: bool,
    /// Newlines passed in the current game.
    lines: u64,
    /// End of the last tag line of the tag section, for a game over the size limit.
    tags_end: usize,
    this_line_is_tag: bool,
    skipping: bool,
    /// Bytes dropped from the buffer while skipping an oversized game.
    dropped: u64,
    /// The start of the current line was dropped while skipping.
    line_start_dropped: bool,
    max_tags_end: usize,
}

enum LineStart {
    Need,
    Boundary,
    Continue,
}

impl Splitter {
    fn reset(&mut self) {
        let mut names = std::mem::take(&mut self.tag_names);
        names.clear();
        *self = Splitter {
            at_line_start: true,
            tag_names: names,
            ..Splitter::default()
        };
    }

    /// Forget the first `n` bytes of the game (they were skipped).
    fn shift(&mut self, n: usize) {
        self.pos -= n;
        self.line_start_dropped |= n > self.line_start;
        self.line_start = self.line_start.saturating_sub(n);
        self.tags_end = self.tags_end.saturating_sub(n);
    }

    fn scan(&mut self, data: &[u8], eof: bool, encoding: Encoding) -> Step {
        loop {
            if self.pos >= data.len() {
                return if eof { Step::End } else { Step::Need };
            }
            if self.at_line_start {
                match self.line_start(data, eof, encoding) {
                    LineStart::Need => return Step::Need,
                    LineStart::Boundary => return Step::Boundary(self.pos),
                    LineStart::Continue => self.at_line_start = false,
                }
            }
            // One search per stop: the line end, and what changes the comment state.
            let rest = &data[self.pos..];
            let hit = if self.rest_of_line {
                memchr(b'\n', rest)
            } else if self.in_comment {
                memchr2(b'}', b'\n', rest)
            } else if self.phase == Phase::Movetext {
                memchr3(b'\n', b'{', b';', rest)
            } else {
                self.before_movetext(rest)
            };
            let Some(offset) = hit else {
                self.pos = data.len();
                continue;
            };
            let at = self.pos + offset;
            self.pos = at + 1;
            match data[at] {
                b'\n' => {
                    self.line_end(data, at);
                    self.lines += 1;
                    self.line_start = self.pos;
                    self.line_start_dropped = false;
                    self.at_line_start = true;
                    self.rest_of_line = false;
                    self.this_line_is_tag = false;
                }
                b'}' => self.in_comment = false,
                b'{' => {
                    self.in_comment = true;
                    self.has_content = true;
                }
                _ => {
                    // `;`: the rest of the line is a comment.
                    self.rest_of_line = true;
                    self.has_content = true;
                }
            }
        }
    }

    /// Before any movetext, every byte counts: the first one that is not blank, a comment
    /// or a line end makes the game's movetext start. Returns the offset of the next stop
    /// (`\n`, `{`, `;`) like the searches of [`Splitter::scan`].
    fn before_movetext(&mut self, rest: &[u8]) -> Option<usize> {
        for (i, &b) in rest.iter().enumerate() {
            match b {
                b'\n' | b'{' | b';' => return Some(i),
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {}
                _ => {
                    self.phase = Phase::Movetext;
                    self.has_content = true;
                    return memchr3(b'\n', b'{', b';', &rest[i..]).map(|j| i + j);
                }
            }
        }
        None
    }

    /// Decides what the line starting at `self.pos` means.
    fn line_start(&mut self, data: &[u8], eof: bool, encoding: Encoding) -> LineStart {
        let p = self.pos;
        let first = data[p];
        let may_matter = matches!(
            first,
            b'[' | b'%' | b'\n' | b' ' | b'\t' | b'\r' | 0x0b | 0x0c | 0xA0 | 0xC2 | 0xEF
        );
        let may_start_game = self.pending_result && !self.in_comment;
        if !may_matter && !may_start_game {
            // Most lines start with a move or a number and change nothing.
            return LineStart::Continue;
        }
        if !self.in_comment && first == b'%' {
            self.rest_of_line = true;
            self.has_content = true;
            return LineStart::Continue;
        }
        let q = p + leading_space(&data[p..]);
        if q >= data.len() || (data.len() - q < 3 && data[q] >= 0x80) {
            // The leading space may go on (or a multi-byte space may be cut).
            return if eof || q - p >= LOOKAHEAD {
                LineStart::Continue
            } else {
                LineStart::Need
            };
        }
        let first = data[q];
        if first == b'\n' {
            if !self.in_comment && self.phase == Phase::Tags {
                self.blank_after_tags = true;
            }
            return LineStart::Continue;
        }
        if first != b'['
            && !(self.pending_result && !self.in_comment && self.phase == Phase::Movetext)
        {
            return LineStart::Continue;
        }
        // Look ahead to the line end, within bounds.
        let window_end = data.len().min(q + LOOKAHEAD);
        let line_end = match memchr(b'\n', &data[q..window_end]) {
            Some(i) => q + i,
            None if eof || window_end - q >= LOOKAHEAD => window_end,
            None => return LineStart::Need,
        };
        let line = &data[q..line_end];
        if self.in_comment {
            if is_tag_shaped(line) {
                return LineStart::Boundary;
            }
            return LineStart::Continue;
        }
        if first == b'[' {
            let name = tag_name_hash(line);
            match self.phase {
                Phase::Movetext => return LineStart::Boundary,
                Phase::Tags
                    if self.blank_after_tags
                        && (name == EVENT_HASH || self.tag_names.contains(&name)) =>
                {
                    return LineStart::Boundary;
                }
                _ => {}
            }
            self.phase = Phase::Tags;
            self.has_content = true;
            self.blank_after_tags = false;
            self.tag_names.push(name);
            self.rest_of_line = true;
            self.this_line_is_tag = true;
            return LineStart::Continue;
        }
        if lexer::starts_move(line, encoding) {
            return LineStart::Boundary;
        }
        LineStart::Continue
    }

    /// A line ended at `newline`: note tag-section ends and lines ending in a result.
    fn line_end(&mut self, data: &[u8], newline: usize) {
        if self.this_line_is_tag
            && self.phase == Phase::Tags
            && newline < self.max_tags_end
            && !self.skipping
        {
            self.tags_end = newline + 1;
        }
        if self.in_comment {
            return;
        }
        if !self.pending_result && self.phase == Phase::Movetext {
            // Most lines end in a move or a comment: only a line whose last byte could end
            // a result needs the word check.
            let last = data[self.line_start..newline]
                .iter()
                .rev()
                .find(|&&b| !matches!(b, b' ' | b'\t' | b'\r'));
            if !matches!(last, Some(b'0' | b'1' | b'2' | b'*' | 0xBD)) {
                return;
            }
        }
        let from = self.line_start.max(newline.saturating_sub(LOOKBACK));
        let line = &data[from..newline];
        let trimmed = line.len()
            - line
                .iter()
                .rev()
                .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r'))
                .count();
        if trimmed == 0 {
            return; // a blank line keeps what the line before said
        }
        let line = &line[..trimmed];
        let word_start = line
            .iter()
            .rposition(|&b| matches!(b, b' ' | b'\t' | 0x0b | 0x0c))
            .map_or(0, |i| i + 1);
        let word = &line[word_start..];
        let whole_word = word_start > 0 || (from == self.line_start && !self.line_start_dropped);
        self.pending_result = whole_word && self.phase == Phase::Movetext && is_result_word(word);
    }
}

/// Leading separators of a line: ASCII blanks, a byte order mark, NO-BREAK SPACE.
fn leading_space(s: &[u8]) -> usize {
    let mut i = 0;
    loop {
        match s.get(i..) {
            Some([b' ' | b'\t' | b'\r' | 0x0b | 0x0c, ..]) => i += 1,
            Some([0xEF, 0xBB, 0xBF, ..]) => i += 3,
            Some([0xC2, 0xA0, ..]) => i += 2,
            Some([0xA0, ..]) => i += 1,
            _ => return i,
        }
    }
}

fn is_result_word(word: &[u8]) -> bool {
    matches!(
        word,
        b"1-0" | b"0-1" | b"1/2-1/2" | b"*" | b"\xC2\xBD-\xC2\xBD" | b"\xBD-\xBD"
    )
}

/// FNV-1a hash of the tag name at the start of a tag line.
fn tag_name_hash(line: &[u8]) -> u64 {
    let after = &line[1..];
    let skip = after
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let name = after[skip..]
        .iter()
        .take_while(|&&b| !matches!(b, b' ' | b'\t' | b'"' | b']' | b'\r'));
    name.fold(FNV_OFFSET, |hash, &b| fnv_step(hash, b))
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

const fn fnv_step(hash: u64, byte: u8) -> u64 {
    (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
}

/// The hash of `Event`, the tag that conventionally opens a tag section.
const EVENT_HASH: u64 = {
    let name = b"Event";
    let mut hash = FNV_OFFSET;
    let mut i = 0;
    while i < name.len() {
        hash = fnv_step(hash, name[i]);
        i += 1;
    }
    hash
};

/// A line that is exactly one well-formed tag pair: `[Name "value"]`, blanks around.
fn is_tag_shaped(line: &[u8]) -> bool {
    let line = trim_blanks(line);
    let Some(inner) = line.strip_prefix(b"[").and_then(|l| l.strip_suffix(b"]")) else {
        return false;
    };
    let inner = trim_blanks(inner);
    let name_len = inner
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if name_len == 0 {
        return false;
    }
    let value = trim_blanks(&inner[name_len..]);
    if value.len() < 2
        || value[0] != b'"'
        || value[value.len() - 1] != b'"'
        || name_len == inner.len()
    {
        return false;
    }
    if !matches!(inner[name_len], b' ' | b'\t') {
        return false;
    }
    let body = &value[1..value.len() - 1];
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'\\' => i += 2,
            b'"' => return false,
            _ => i += 1,
        }
    }
    true
}

fn trim_blanks(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r'))
        .count();
    let end = s.len()
        - s[start..]
            .iter()
            .rev()
            .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r'))
            .count();
    &s[start..end]
}
