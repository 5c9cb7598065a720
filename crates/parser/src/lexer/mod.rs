//! The tokenizer: bytes in, lossless tokens out, and where the next game starts.
//!
//! The reader runs it over the bytes of the current game as they arrive in its rolling
//! buffer, one pass for everything: tokens (nom's complete mode, over complete lines only,
//! so a token never depends on where a read ended), tag spans, findings, and the game
//! boundary (the rules are in the [`crate::reader`] module). The main loop skips
//! whitespace, which is not stored, and dispatches on the first byte of each token (ASCII
//! fast paths; non-ASCII characters decoded with the game's encoding rule). Tag pairs, NAGs
//! and move numbers are small nom parsers; the move shape is a hand-written scanner because
//! it must decide where a move ends without knowing any language.
//!
//! This module is the state machine (the [`Lexer`] and its main loop); the scanners it
//! dispatches to live beside it, one file per kind of token:
//!
//! - `classes`: the byte classes of the hot paths, whitespace, words and the end of a token;
//! - `numbers`: tokens that start with a digit (move numbers, results), NAGs and
//!   evaluation marks;
//! - `movetext`: the fast loop over runs of moves, move numbers and one-line comments;
//! - `moves`: move shapes (SAN, castling, en-passant marks, promotions);
//! - `tags`: tag pairs, tag-name hashes and the repeated-tag bookkeeping;
//! - `finish`: what only the end of a game can tell (an open variation, a missing result).

mod classes;
mod finish;
mod moves;
mod movetext;
mod numbers;
mod tags;

use std::borrow::Cow;

use crate::encoding::{Encoding, char_at, decode, is_unicode_space};
use crate::finding::{Finding, FindingKind};
use crate::token::{TagSpans, Token, TokenKind};

use classes::CLASS;
use classes::HIGH;
use classes::SPACE;
pub(crate) use classes::is_token_end;
use classes::line_content_len;
use classes::non_ascii_token;
use classes::word_len;
use moves::san_fast;
pub(crate) use moves::{check_word_len, descriptive_len, en_passant_len, san_len};
use movetext::movetext_run;
use numbers::digit_token;
use numbers::evaluation_len;
use numbers::move_number_fast;
use numbers::nag_len;
use tags::EVENT_HASH;
use tags::TagNames;
pub(crate) use tags::is_tag_shaped;
use tags::malformed_tag_len;
use tags::tag_name_hash;
use tags::tag_pair;
pub(crate) use tags::unescape;

/// The most syntax findings the tokenizer lists for one game; past it they are counted
/// and reported as one finding, so that a game of garbage (16 MiB of `)` or of random
/// bytes) costs bounded memory and output.
pub const MAX_SYNTAX_FINDINGS: usize = 1000;

/// Limits and choices for one tokenizer run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LexConfig {
    pub encoding: Encoding,
    pub max_depth: u32,
}

/// Where the tokens, tag spans and findings go.
pub(crate) struct Sink<'a> {
    pub tokens: &'a mut Vec<Token>,
    pub tags: &'a mut Vec<TagSpans>,
    pub findings: &'a mut Vec<Finding>,
}

/// How much of the data a run may tokenize.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// More data may follow: only complete lines.
    More,
    /// The input has ended: everything.
    End,
    /// Everything, though more may follow (a line too long to hold, in a game being
    /// skipped; its tokens are thrown away).
    Partial,
}

/// What a run of the lexer found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The next game starts at this offset; the tokens before it are complete.
    Boundary(usize),
    /// A game separator line ([`crate::SEPARATOR`]) spans `at..end`, with the line end
    /// before it: the game ends at `at`, and the separator belongs to no game. The
    /// tokens before `at` are complete, and the newlines counted are those before `at`.
    /// `dropped_line_end`: that line end was among the bytes dropped from a game over a
    /// limit (the separator then starts at 0).
    Separator {
        at: usize,
        end: usize,
        dropped_line_end: bool,
    },
    /// More input is needed to go on.
    Need,
    /// The input ended and every byte is tokenized.
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

/// The tokenizer's state between runs; every position is relative to the game start.
#[derive(Debug)]
pub(crate) struct Lexer {
    config: LexConfig,
    /// Where the next run goes on: in a whitespace gap, or at the start of an open comment.
    pub(crate) pos: usize,
    /// The whitespace gap at `pos` began before it (it ran to the end of the data last
    /// time): the newlines it held so far (already counted in `newlines`) and the start of
    /// the line after the last of them. Resuming there, rather than at the gap's start,
    /// scans a long run of blank lines once and lets a skipped game drop it.
    gap_newlines: u64,
    gap_line_start: Option<usize>,
    /// Offset 0 is the start of a line (false once bytes have been dropped).
    zero_is_line_start: bool,
    /// Syntax findings not listed (past [`MAX_SYNTAX_FINDINGS`]), and where the first
    /// and the last of them are.
    unlisted: u64,
    first_unlisted: usize,
    last_unlisted: usize,
    /// Inside a comment that starts at `pos`: the search goes on from this line start.
    comment_from: Option<usize>,
    /// The search position of an open comment is a line start (to be checked for a tag).
    comment_from_line_start: bool,
    depth: u32,
    outermost_open: usize,
    depth_reported: bool,
    phase: Phase,
    /// Anything but whitespace so far.
    pub(crate) has_content: bool,
    blank_after_tags: bool,
    /// The last tag line was a malformed tag pair (a file cut in a tag, another glued
    /// after it): a repeated tag name on the next line starts the next game.
    after_malformed_tag: bool,
    tag_names: TagNames,
    last_was_result: bool,
    /// The last result was written inside a variation.
    result_nested: bool,
    /// The current line started with a tag: what follows on it does not end the tags.
    on_tag_line: bool,
    /// Hash of the name of the last tag pair (or malformed tag) tokenized.
    tag_name: u64,
    /// End of the last tag line's first token, if it ends within `max_tags_end`; see
    /// [`Lexer::retained_tags`].
    pub(crate) tags_end: usize,
    /// Newlines passed so far in this game.
    pub(crate) newlines: u64,
    /// No line end lies between `pos` and this offset.
    no_newline_until: usize,
    pub(crate) max_tags_end: usize,
    /// In the movetext, a run stops (as if it needed more data) once the token list
    /// holds more tokens than this: the reader then skips the game, so that one line of
    /// `((((` never becomes millions of tokens at once.
    max_tokens: usize,
}

impl Lexer {
    pub(crate) fn new(config: LexConfig) -> Lexer {
        Lexer {
            config,
            pos: 0,
            gap_newlines: 0,
            gap_line_start: None,
            zero_is_line_start: true,
            unlisted: 0,
            first_unlisted: 0,
            last_unlisted: 0,
            comment_from: None,
            comment_from_line_start: false,
            depth: 0,
            outermost_open: 0,
            depth_reported: false,
            phase: Phase::Empty,
            has_content: false,
            blank_after_tags: false,
            after_malformed_tag: false,
            tag_names: TagNames::default(),
            last_was_result: false,
            result_nested: false,
            on_tag_line: false,
            tag_name: 0,
            tags_end: 0,
            newlines: 0,
            no_newline_until: 0,
            max_tags_end: usize::MAX,
            max_tokens: usize::MAX,
        }
    }

    /// Ready for a new game (keeps the allocation of the tag-name list).
    pub(crate) fn reset(&mut self, config: LexConfig, max_tags_end: usize, max_tokens: usize) {
        let mut names = std::mem::take(&mut self.tag_names);
        names.clear();
        *self = Lexer::new(config);
        self.tag_names = names;
        self.max_tags_end = max_tags_end;
        self.max_tokens = max_tokens;
    }

    /// Forgets the first `n` bytes of the game (skipped as part of an oversized game).
    pub(crate) fn shift(&mut self, n: usize) {
        self.pos = self.pos.saturating_sub(n);
        self.gap_line_start = self.gap_line_start.map(|at| at.saturating_sub(n));
        self.zero_is_line_start &= n == 0;
        self.no_newline_until = self.no_newline_until.saturating_sub(n);
        self.comment_from = self.comment_from.map(|from| from - n);
        self.outermost_open = self.outermost_open.saturating_sub(n);
        self.tags_end = self.tags_end.saturating_sub(n);
    }

    /// The run stops at the token limit: the reader will skip the game.
    #[cold]
    #[inline(never)]
    fn too_many_tokens(&self) -> Step {
        Step::Need
    }

    /// Whether the game's movetext has begun (its tag section is then complete).
    pub(crate) fn in_movetext(&self) -> bool {
        self.phase == Phase::Movetext
    }

    /// How far the game's bytes may be dropped while skipping: up to the resume point, or
    /// inside an open comment up to the line where its search goes on.
    pub(crate) fn droppable(&self) -> usize {
        self.comment_from.unwrap_or(self.pos)
    }

    /// How much of an oversized game is kept: its tag section, through the end of the
    /// line of the last tag that ends within the limit (or up to that tag, if its line
    /// runs past the limit).
    pub(crate) fn retained_tags(&self, data: &[u8]) -> usize {
        let end = self.tags_end.min(data.len());
        if end == 0 {
            return 0;
        }
        match memchr::memchr(b'\n', &data[end..]) {
            Some(i) if end + i < self.max_tags_end => end + i + 1,
            _ => end,
        }
    }

    /// Adds a syntax finding, or counts it once the game has [`MAX_SYNTAX_FINDINGS`].
    fn report(&mut self, sink: &mut Sink<'_>, finding: Finding) {
        if sink.findings.len() < MAX_SYNTAX_FINDINGS {
            sink.findings.push(finding);
        } else {
            let at = finding.span.start as usize;
            if self.unlisted == 0 {
                self.first_unlisted = at;
            }
            self.unlisted += 1;
            self.last_unlisted = at;
        }
    }

    /// Tokenizes `data` (the game's bytes so far) from where the last run stopped. Only
    /// complete lines are tokenized unless `eof`. With `split`, stops at the start of the
    /// next game.
    pub(crate) fn run(
        &mut self,
        data: &[u8],
        mode: Input,
        split: bool,
        sink: &mut Sink<'_>,
    ) -> Step {
        let eof = mode == Input::End;
        let limit = if eof || mode == Input::Partial {
            data.len()
        } else {
            // Bytes before `no_newline_until` are known to hold no line end: a line longer
            // than many reads is not searched again and again.
            let from = self.pos.max(self.no_newline_until);
            match memchr::memrchr(b'\n', &data[from..]) {
                Some(i) => from + i + 1,
                None => {
                    self.no_newline_until = data.len();
                    return Step::Need;
                }
            }
        };
        if let Some(from) = self.comment_from {
            let start = self.pos;
            match self.comment(data, start, from, limit, eof, split, sink) {
                Some(step) => return step,
                None => self.comment_from = None,
            }
        }
        let encoding = self.config.encoding;
        // The hot state lives in locals and is written back at every exit; so does the
        // token list, which lets the compiler keep its length in a register.
        let mut tokens = std::mem::take(&mut *sink.tokens);
        let mut pos = self.pos;
        let mut phase = self.phase;
        let mut last_was_result = self.last_was_result;
        let mut on_tag_line = self.on_tag_line;
        let mut newlines_total = self.newlines;
        // A gap cut at the end of the data last time goes on here: no fast path.
        let mut resumed_gap = self.gap_newlines > 0 || self.gap_line_start.is_some();
        let step = loop {
            // Whitespace is not stored: it is the bytes between tokens.
            let mut line_start = None;
            let mut after_result_line = false;
            // Fast path: one space between two tokens on a line.
            if pos + 1 < limit
                && data[pos] == b' '
                && CLASS[data[pos + 1] as usize] & (SPACE | HIGH) == 0
                && !resumed_gap
            {
                pos += 1;
            } else {
                let mut newlines = self.gap_newlines;
                let mut next_line = self.gap_line_start;
                while pos < limit {
                    let b = data[pos];
                    if CLASS[b as usize] & SPACE != 0 {
                        if b == b'\n' {
                            newlines += 1;
                            newlines_total += 1;
                            next_line = Some(pos + 1);
                        }
                        pos += 1;
                    } else if b >= 0x80 {
                        match char_at(&data[pos..limit], encoding) {
                            Some((c, len)) if is_unicode_space(c) => pos += len,
                            _ => break,
                        }
                    } else {
                        break;
                    }
                }
                if pos >= limit {
                    if !eof {
                        // The gap may go on in the next data: remember it and resume here.
                        self.gap_newlines = newlines;
                        self.gap_line_start = next_line;
                    }
                    break if eof { Step::End } else { Step::Need };
                }
                if resumed_gap {
                    resumed_gap = false;
                    self.gap_newlines = 0;
                    self.gap_line_start = None;
                }
                if newlines > 0 {
                    line_start = next_line;
                    after_result_line = last_was_result;
                    on_tag_line = false;
                    if newlines > 1 && phase == Phase::Tags {
                        self.blank_after_tags = true;
                    }
                } else if pos == 0 && self.zero_is_line_start {
                    line_start = Some(0);
                }
            }
            if line_start.is_none() && phase == Phase::Movetext && !on_tag_line {
                // Fast loop: moves, move numbers and one-line comments in the movetext,
                // from the middle of a line on, need no bookkeeping but the newlines.
                let start = pos;
                // At most 64 KiB at a time, so that the token limit is checked within
                // a long run of moves too.
                let run_limit = limit.min(pos + (1 << 16));
                pos = movetext_run(data, pos, run_limit, &mut newlines_total, &mut tokens);
                if pos != start {
                    last_was_result = false;
                    if tokens.len() > self.max_tokens {
                        break self.too_many_tokens();
                    }
                    continue;
                }
            }
            let first = data[pos];
            if first == b'%'
                && split
                && line_start == Some(pos)
                && let Some(end) = separator_end(data, pos, limit, eof)
            {
                // The line end before the separator is the separator's: a game written
                // before it ends as it was written, with or without a line end. At 0 it
                // is a line end dropped with a game over a limit, or there is none.
                // (A dropped line end stays counted: the separator's span lacks it.)
                let dropped_line_end = pos == 0 && !self.zero_is_line_start;
                newlines_total -= u64::from(pos > 0);
                break Step::Separator {
                    at: pos.saturating_sub(1),
                    end,
                    dropped_line_end,
                };
            }
            if first == b'{' {
                self.has_content = true;
                last_was_result = false;
                // Fast path: a comment closed on its own line.
                let body = &data[pos + 1..limit];
                if let Some(i) = memchr::memchr2(b'}', b'\n', body)
                    && body[i] == b'}'
                {
                    let end = pos + i + 2;
                    tokens.push(token(TokenKind::Comment, pos, end));
                    pos = end;
                    if tokens.len() > self.max_tokens && phase == Phase::Movetext {
                        break self.too_many_tokens();
                    }
                    continue;
                }
                self.newlines = newlines_total;
                self.pos = pos;
                *sink.tokens = std::mem::take(&mut tokens);
                let outcome = self.comment(data, pos, pos + 1, limit, eof, split, sink);
                tokens = std::mem::take(&mut *sink.tokens);
                match outcome {
                    Some(step) => {
                        *sink.tokens = tokens;
                        self.phase = phase;
                        self.last_was_result = last_was_result;
                        self.on_tag_line = on_tag_line;
                        return step;
                    }
                    None => {
                        pos = self.pos;
                        newlines_total = self.newlines;
                        continue;
                    }
                }
            }

            let (kind, len) = match first {
                b'a'..=b'h' | b'A'..=b'N' | b'P'..=b'Y'
                    if let Some(len) = san_fast(&data[pos..]) =>
                {
                    (TokenKind::San, len)
                }
                b'1'..=b'9' if let Some(len) = move_number_fast(&data[pos..limit]) => {
                    (TokenKind::MoveNumber, len)
                }
                _ => self.token(data, pos, limit, tokens.len(), sink),
            };
            let end = pos + len;
            if let Some(line_start) = line_start {
                if first == b'[' {
                    // A tag line (well-formed or not) decides about game boundaries.
                    let name = self.tag_name;
                    let new_game = match phase {
                        Phase::Movetext => true,
                        Phase::Tags => {
                            (self.blank_after_tags
                                && (name == EVENT_HASH || self.tag_names.contains(&name)))
                                || (self.after_malformed_tag && self.tag_names.contains(&name))
                        }
                        Phase::Empty => false,
                    };
                    if split && new_game {
                        self.discard_from(pos, sink);
                        pos = line_start;
                        break Step::Boundary(line_start);
                    }
                    phase = Phase::Tags;
                    on_tag_line = true;
                    self.blank_after_tags = false;
                    self.after_malformed_tag = kind == TokenKind::Unknown;
                    self.tag_names.insert(name);
                    if end <= self.max_tags_end {
                        self.tags_end = end;
                    }
                } else if split
                    && after_result_line
                    && phase == Phase::Movetext
                    && matches!(kind, TokenKind::San | TokenKind::MoveNumber)
                    // A result inside a variation (an annotator's `30. Qh8# 1-0)`) ends
                    // the game only before a line that starts at move 1 (a variation
                    // left open, then a game without tags); else the variation goes on.
                    && (!self.result_nested || data[pos..].starts_with(b"1."))
                {
                    // A move after a line that ended with a result: a game without tags.
                    self.discard_from(pos, sink);
                    pos = line_start;
                    break Step::Boundary(line_start);
                }
            }
            if kind == TokenKind::Tag && phase == Phase::Movetext {
                // A tag pair after the moves started (not at a line start,
                // where it would begin the next game): not a tag of this game.
                sink.tags.pop();
                self.report(sink, syntax("tag pair inside the movetext", pos, end));
            }
            if on_tag_line
                && matches!(
                    kind,
                    TokenKind::San
                        | TokenKind::MoveNumber
                        | TokenKind::Result
                        | TokenKind::VariationStart
                )
            {
                // Moves written on the line of a tag (`[Result "1-0"] e4 *`):
                // the movetext has begun.
                on_tag_line = false;
            }
            // In movetext (the common case) nothing about the game's phase changes.
            if phase != Phase::Movetext && !on_tag_line {
                self.has_content = true;
                match kind {
                    TokenKind::Tag if phase == Phase::Empty => phase = Phase::Tags,
                    // A draw offer annotates a move; before any move it is no more
                    // movetext than the comment `{(=)}` that convert writes for it.
                    TokenKind::Tag
                    | TokenKind::LineComment
                    | TokenKind::Escape
                    | TokenKind::DrawOffer => {}
                    _ => phase = Phase::Movetext,
                }
            } else if !self.has_content {
                self.has_content = true;
            }
            last_was_result = kind == TokenKind::Result;
            if last_was_result {
                self.result_nested = self.depth > 0;
            }
            tokens.push(token(kind, pos, end));
            pos = end;
            if kind == TokenKind::Tag
                && on_tag_line
                && phase == Phase::Tags
                && !self.blank_after_tags
                && !self.after_malformed_tag
            {
                // The usual tag section, one tag pair a line: no line of it starts a game.
                pos = self.tag_lines(
                    data,
                    pos,
                    limit,
                    &mut newlines_total,
                    &mut tokens,
                    sink.tags,
                );
            }
            // The token limit is checked after every token but those of a run of moves
            // (after the run), in the movetext only (a tag section is kept whole).
            if tokens.len() > self.max_tokens && phase == Phase::Movetext {
                break self.too_many_tokens();
            }
        };
        *sink.tokens = tokens;
        self.pos = pos;
        self.phase = phase;
        self.last_was_result = last_was_result;
        self.on_tag_line = on_tag_line;
        self.newlines = newlines_total;
        step
    }

    /// Drops what the token at `pos` already added (a tag span, findings) when a game
    /// boundary is found at its line instead.
    fn discard_from(&mut self, pos: usize, sink: &mut Sink<'_>) {
        let pos = pos as u32;
        while sink.tags.last().is_some_and(|t| t.name.0 >= pos) {
            sink.tags.pop();
        }
        while sink.findings.last().is_some_and(|f| f.span.start >= pos) {
            sink.findings.pop();
        }
        // One token's finding at most was counted instead of listed.
        if self.unlisted > 0 && self.last_unlisted >= pos as usize {
            self.unlisted -= 1;
        }
    }

    /// Scans a brace comment that starts at `start`, searching on from `from`. Returns
    /// `None` when the comment is complete and pushed, or the step to return.
    #[allow(clippy::too_many_arguments)]
    fn comment(
        &mut self,
        data: &[u8],
        start: usize,
        from: usize,
        limit: usize,
        eof: bool,
        split: bool,
        sink: &mut Sink<'_>,
    ) -> Option<Step> {
        let mut at = from;
        // A resumed search starts at a line start, which must be looked at first.
        let mut check_line = from != start + 1 && self.comment_from_line_start;
        loop {
            if check_line {
                if at >= limit {
                    if eof {
                        break;
                    }
                    self.comment_from = Some(at);
                    self.comment_from_line_start = true;
                    return Some(Step::Need);
                }
                if split && let Some(end) = separator_end(data, at, limit, eof) {
                    // The comment was never closed: the separator ends the game, and the
                    // line end before it is the separator's.
                    // At 0, that line end was dropped with a game over a limit.
                    let sep = at.saturating_sub(1);
                    sink.findings
                        .push(syntax("unterminated comment", start, sep));
                    sink.tokens.push(token(TokenKind::Comment, start, sep));
                    self.pos = sep;
                    // (A dropped line end stays counted: the separator's span lacks it.)
                    self.newlines -= u64::from(at > 0);
                    self.comment_from = None;
                    return Some(Step::Separator {
                        at: sep,
                        end,
                        dropped_line_end: at == 0,
                    });
                }
                if split {
                    let line_end =
                        memchr::memchr(b'\n', &data[at..limit]).map_or(limit, |i| at + i);
                    if is_tag_shaped(&data[at..line_end]) {
                        // The comment was never closed: the tag pair starts the next game.
                        sink.findings
                            .push(syntax("unterminated comment", start, at));
                        sink.tokens.push(token(TokenKind::Comment, start, at));
                        self.pos = at;
                        self.comment_from = None;
                        return Some(Step::Boundary(at));
                    }
                }
            }
            match memchr::memchr2(b'}', b'\n', &data[at..limit]) {
                Some(i) if data[at + i] == b'}' => {
                    let end = at + i + 1;
                    sink.tokens.push(token(TokenKind::Comment, start, end));
                    self.pos = end;
                    self.comment_from = None;
                    return None;
                }
                Some(i) => {
                    at += i + 1;
                    self.newlines += 1;
                    check_line = true;
                }
                None if eof => break,
                None => {
                    self.comment_from = Some(limit);
                    self.comment_from_line_start = limit > 0 && data[limit - 1] == b'\n';
                    return Some(Step::Need);
                }
            }
        }
        sink.findings
            .push(syntax("unterminated comment", start, data.len()));
        sink.tokens
            .push(token(TokenKind::Comment, start, data.len()));
        self.pos = data.len();
        self.comment_from = None;
        Some(Step::End)
    }

    /// The token at `pos` (not whitespace, not a brace comment), within `data[..limit]`.
    fn token(
        &mut self,
        data: &[u8],
        pos: usize,
        limit: usize,
        token_index: usize,
        sink: &mut Sink<'_>,
    ) -> (TokenKind, usize) {
        let encoding = self.config.encoding;
        let rest = &data[pos..limit];
        let first = rest[0];
        let (kind, len) = match first {
            b';' => (TokenKind::LineComment, line_content_len(rest)),
            b'%' if pos == 0 || data[pos - 1] == b'\n' => {
                (TokenKind::Escape, line_content_len(rest))
            }
            b'[' => match tag_pair(rest) {
                Some(((len, name, value), name_hash)) => {
                    self.tag_name = name_hash;
                    let base = pos as u32;
                    sink.tags.push(TagSpans {
                        token: token_index as u32,
                        name: (base + name.0 as u32, base + name.1 as u32),
                        value: (base + value.0 as u32, base + value.1 as u32),
                    });
                    (TokenKind::Tag, len)
                }
                None => {
                    self.tag_name = tag_name_hash(rest);
                    let len = malformed_tag_len(rest);
                    self.report(sink, syntax("malformed tag pair", pos, pos + len));
                    return (TokenKind::Unknown, len);
                }
            },
            b'(' if rest.starts_with(b"(=)") => (TokenKind::DrawOffer, 3),
            b'(' => {
                self.depth += 1;
                if self.depth == 1 {
                    self.outermost_open = pos;
                }
                if self.depth > self.config.max_depth && !self.depth_reported {
                    self.depth_reported = true;
                    let message =
                        format!("variations nested deeper than {}", self.config.max_depth);
                    let span = pos as u32..pos as u32 + 1;
                    sink.findings
                        .push(Finding::new(FindingKind::Syntax, message, span));
                }
                (TokenKind::VariationStart, 1)
            }
            b')' if self.depth > 0 => {
                self.depth -= 1;
                (TokenKind::VariationEnd, 1)
            }
            b')' => {
                self.report(sink, syntax("unmatched ')'", pos, pos + 1));
                return (TokenKind::Unknown, 1);
            }
            b'$' => match nag_len(rest) {
                Some(len) => (TokenKind::Nag, len),
                None => (TokenKind::Unknown, word_len(rest, encoding)),
            },
            b'!' | b'?' => (
                TokenKind::Glyph,
                rest.iter().take_while(|&&b| b == b'!' || b == b'?').count(),
            ),
            b'*' => (TokenKind::Result, 1),
            b'0'..=b'9' => digit_token(rest, encoding),
            b'-' if rest.starts_with(b"--") && is_token_end(rest, 2, encoding) => {
                (TokenKind::San, 2)
            }
            // Forfeits both ways (`-/-`, `+/+`): results, never an evaluation nor a move.
            b'+' | b'-'
                if (rest.starts_with(b"-/-") || rest.starts_with(b"+/+"))
                    && is_token_end(rest, 3, encoding) =>
            {
                (TokenKind::Result, 3)
            }
            b'+' | b'-' | b'=' | b'/' => match evaluation_len(rest, encoding) {
                Some(len) => (TokenKind::Glyph, len),
                None => (TokenKind::Unknown, word_len(rest, encoding)),
            },
            // A mate mark written apart from its move (`Qxf7 #`): the replay joins it to
            // the move before it, as it does `+` and `++`.
            b'#' if is_token_end(rest, 1, encoding) => (TokenKind::Glyph, 1),
            b'a' | b'e' if en_passant_len(rest, encoding).is_some() => (
                TokenKind::EnPassantMark,
                en_passant_len(rest, encoding).unwrap_or(1),
            ),
            // Check and mate as words (`P-Q4 ch`, `R-Q8 mate`): marks the replay joins to
            // the move before them, as it does `+` and `#`.
            b'c' | b'd' | b'm' if check_word_len(rest, encoding).is_some() => (
                TokenKind::Glyph,
                check_word_len(rest, encoding).unwrap_or(1),
            ),
            // `k`-`t`: castling `o-o` and the lower-case piece letters (`nf3`); what SAN
            // does not read may be a descriptive move (`P-K4`, `C3AR`).
            b'A'..=b'Z' | b'a'..=b'h' | b'k'..=b't' => match san_len(rest, encoding) {
                Some(len) => (TokenKind::San, len),
                None => match descriptive_len(rest, encoding) {
                    Some(len) => (TokenKind::San, len),
                    None => (TokenKind::Unknown, word_len(rest, encoding)),
                },
            },
            0x80..=0xFF => non_ascii_token(rest, encoding),
            // A stray `}` (a `{` is handled by the caller) and anything else.
            _ => (TokenKind::Unknown, word_len(rest, encoding)),
        };
        let len = len.clamp(1, rest.len());
        if kind == TokenKind::Unknown {
            // The text as the game's encoding rule decodes it (`ÿ`, not U+FFFD).
            let text: String = decode(&rest[..len], encoding).chars().take(40).collect();
            let message = format!("unexpected '{}'", text.escape_debug());
            let span = pos as u32..(pos + len) as u32;
            self.report(sink, Finding::new(FindingKind::Syntax, message, span));
        }
        (kind, len)
    }
}

/// Tokenizes `bytes` as one whole game (no game boundaries), into cleared buffers.
pub(crate) fn tokenize(bytes: &[u8], config: LexConfig, sink: &mut Sink<'_>) {
    sink.tokens.clear();
    sink.tags.clear();
    let mut lexer = Lexer::new(config);
    let step = lexer.run(bytes, Input::End, false, sink);
    debug_assert_eq!(step, Step::End);
    lexer.finish(bytes, sink);
}

/// Where the game separator line ([`crate::SEPARATOR`]) that starts at `pos` ends
/// (after its line end), if the line at `pos` is one: its text alone on the line, then
/// `\n`, `\r\n`, or the end of the input.
fn separator_end(data: &[u8], pos: usize, limit: usize, eof: bool) -> Option<usize> {
    let line = &data[pos..limit];
    let rest = line.strip_prefix(crate::SEPARATOR.as_bytes())?;
    let end = limit - rest.len();
    match rest {
        [] if eof => Some(end),
        [b'\n', ..] => Some(end + 1),
        [b'\r', b'\n', ..] => Some(end + 2),
        _ => None,
    }
}

fn token(kind: TokenKind, start: usize, end: usize) -> Token {
    Token {
        kind,
        start: start as u32,
        end: end as u32,
    }
}

fn syntax(message: &'static str, start: usize, end: usize) -> Finding {
    Finding::new(
        FindingKind::Syntax,
        Cow::Borrowed(message),
        start as u32..end as u32,
    )
}

/// Inputs for the property tests that hold each fast path to its full scanner: the bytes
/// of moves, move numbers and tag pairs, and their neighbours.
#[cfg(test)]
const FAST_PATH_INPUTS: &str = "[a-hx1-8NBRQKO+#=.() !?a-z0-9\\[\\]\"\\\\-]{0,12}";
