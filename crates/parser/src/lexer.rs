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

use std::borrow::Cow;
use std::collections::HashSet;

use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char as byte_char, digit1, space0};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::encoding::{Encoding, char_at, decode, is_unicode_space, utf8_char};
use crate::finding::{Finding, FindingKind};
use crate::token::{TagSpans, Token, TokenKind};

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

    /// Reports what only the end of the game can tell (an unclosed variation, a missing
    /// termination marker).
    /// `data` is the game's bytes.
    pub(crate) fn finish(&mut self, data: &[u8], sink: &mut Sink<'_>) {
        self.repeated_tags(data, sink);
        if self.depth > 0 {
            let at = self.outermost_open;
            sink.findings
                .push(syntax("unterminated variation", at, at + 1));
        }
        if let Some(at) = missing_result(data, sink.tokens, self.depth) {
            // Prose separates moves with `;`, which in PGN starts a comment to the end
            // of the line: the result may stand in one.
            let in_line_comment = sink.tokens.iter().any(|t| {
                t.kind == TokenKind::LineComment
                    && data.get(t.span()).is_some_and(|c| {
                        c.windows(3).any(|w| w == b"1-0" || w == b"0-1")
                            || c.windows(7).any(|w| w == b"1/2-1/2")
                            || c.trim_ascii_end().ends_with(b"*")
                    })
            });
            if in_line_comment {
                let message = format!(
                    "{MISSING_RESULT}; a ';' starts a comment to the end of its line, and a \
                     result stands in one"
                );
                sink.findings.push(Finding::new(
                    FindingKind::Syntax,
                    Cow::Owned(message),
                    at as u32..at as u32,
                ));
            } else {
                sink.findings.push(syntax(MISSING_RESULT, at, at));
            }
        }
        if self.unlisted > 0 {
            let at = self.first_unlisted;
            let message = format!(
                "{} more syntax errors in this game, from here on, are not listed",
                self.unlisted
            );
            sink.findings.push(Finding::new(
                FindingKind::Syntax,
                message,
                at as u32..at as u32 + 1,
            ));
        }
    }

    /// Reports each tag pair whose name an earlier tag pair of the game has with another
    /// value (PGN: a tag name should appear once in a tag section): the first value is
    /// the one read; the same value twice is harmless and not reported. The names of the
    /// tag lines are compared by their hashes, kept for game boundaries; only a game
    /// with a repeated hash has its tags compared by name.
    fn repeated_tags(&mut self, data: &[u8], sink: &mut Sink<'_>) {
        let names = &self.tag_names.list;
        if !(1..names.len()).any(|i| names[..i].contains(&names[i])) {
            return;
        }
        let tags = &*sink.tags;
        let repeated: Vec<(TagSpans, TagSpans)> = tags
            .iter()
            .enumerate()
            .filter_map(|(i, tag)| {
                let name = &data[tag.name_span()];
                let first = tags[..i].iter().find(|t| &data[t.name_span()] == name)?;
                (data[first.value_span()] != data[tag.value_span()]).then_some((*first, *tag))
            })
            .collect();
        for (first, tag) in repeated {
            self.repeated_tag(data, first, tag, sink);
        }
    }

    #[cold]
    #[inline(never)]
    fn repeated_tag(&mut self, data: &[u8], first: TagSpans, tag: TagSpans, sink: &mut Sink<'_>) {
        let encoding = self.config.encoding;
        let text = |span: std::ops::Range<usize>| -> String {
            decode(&data[span], encoding).chars().take(60).collect()
        };
        let message = format!(
            "tag {} given twice with different values: \"{}\" is read, \"{}\" ignored (PGN: a \
             tag name should appear once in a tag section)",
            text(tag.name_span()),
            text(first.value_span()),
            text(tag.value_span()),
        );
        let token = sink.tokens[tag.token as usize];
        self.report(
            sink,
            Finding::new(FindingKind::Syntax, message, token.start..token.end),
        );
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
                // Fast loop: moves and move numbers separated by single spaces, in the
                // middle of a line of movetext, need no bookkeeping at all.
                let start = pos;
                // At most 64 KiB at a time, so that the token limit is checked within
                // a line of moves too.
                pos = movetext_run(data, pos, limit.min(pos + (1 << 16)), &mut tokens);
                if pos != start {
                    last_was_result = false;
                    if tokens.len() > self.max_tokens {
                        break self.too_many_tokens();
                    }
                    continue;
                }
            }
            let first = data[pos];

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
            // `k`-`t`: castling `o-o` and the lower-case piece letters (`nf3`).
            b'A'..=b'Z' | b'a'..=b'h' | b'k'..=b't' => match san_len(rest, encoding) {
                Some(len) => (TokenKind::San, len),
                None => (TokenKind::Unknown, word_len(rest, encoding)),
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

/// The (hashed) names of the tags seen in a tag section. A few are searched in a list;
/// a section with thousands of tags (hostile input) moves them to a set, so that each
/// tag line costs the same however many came before.
#[derive(Debug, Default)]
struct TagNames {
    list: Vec<u64>,
    set: HashSet<u64>,
}

impl TagNames {
    const LIST_MAX: usize = 32;

    fn insert(&mut self, name: u64) {
        if self.list.len() < Self::LIST_MAX {
            self.list.push(name);
        } else {
            self.set.insert(name);
        }
    }

    fn contains(&self, name: &u64) -> bool {
        self.list.contains(name) || (!self.set.is_empty() && self.set.contains(name))
    }

    fn clear(&mut self) {
        self.list.clear();
        if !self.set.is_empty() {
            self.set.clear();
        }
    }
}

/// The finding for a game with moves and no termination marker. It does not say whether
/// the game is the last of its input, so that a game reads the same alone as in its file.
const MISSING_RESULT: &str = "the game ends without a result (1-0, 0-1, 1/2-1/2 or *): \
                              its end may be missing, or the file cut short";

/// Where a game with moves but no termination marker should have had one: right after
/// its last token, at the end of its text (before the line ends that close a comment left
/// open). `None` when the game has a marker outside variations (one inside a variation
/// does not end the game) or no move at all (a tag-only section of a broadcast export, a
/// game of comments). `depth_at_end` is the variation depth after the last token.
fn missing_result(data: &[u8], tokens: &[Token], depth_at_end: u32) -> Option<usize> {
    // Nearly every game ends with its result outside variations: the last token that
    // branches or ends is a result, at the depth of the end (no variation token follows
    // it), 0. Only other games are scanned whole.
    let last_branch_or_end = tokens.iter().rev().find(|t| {
        matches!(
            t.kind,
            TokenKind::Result | TokenKind::VariationStart | TokenKind::VariationEnd
        )
    });
    if depth_at_end == 0 && last_branch_or_end.is_some_and(|t| t.kind == TokenKind::Result) {
        return None;
    }
    let mut has_moves = false;
    let mut depth = 0u32;
    for t in tokens {
        match t.kind {
            TokenKind::Result if depth == 0 => return None,
            TokenKind::San | TokenKind::MoveNumber => has_moves = true,
            TokenKind::VariationStart => depth += 1,
            TokenKind::VariationEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let last = tokens.last().filter(|_| has_moves)?;
    let text = data.get(last.span()).unwrap_or_default();
    let blank = text
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    Some(last.end as usize - blank)
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

/// The hash of the tag name at the start of a tag line (`[`, blanks, name), malformed
/// or not: the name runs to a blank, a quote, a `]` or the line end.
fn tag_name_hash(line: &[u8]) -> u64 {
    let after = &line[1..];
    let skip = after
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let name = &after[skip..];
    let len = name
        .iter()
        .position(|&b| matches!(b, b' ' | b'\t' | b'"' | b']' | b'\r' | b'\n'))
        .unwrap_or(name.len());
    name_hash(&name[..len])
}

/// A hash of a tag name, eight bytes at a time (a name is one or two words): the
/// words, zero-padded, then the length.
fn name_hash(name: &[u8]) -> u64 {
    let mut hash = NAME_SEED;
    for chunk in name.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        hash = name_hash_step(hash, u64::from_le_bytes(word));
    }
    name_hash_finish(hash, name.len())
}

const NAME_SEED: u64 = 0xcbf2_9ce4_8422_2325;

#[inline(always)]
const fn name_hash_step(hash: u64, word: u64) -> u64 {
    (hash ^ word)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(29)
}

#[inline(always)]
const fn name_hash_finish(hash: u64, len: usize) -> u64 {
    (hash ^ len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The hash of `Event`, the tag that conventionally opens a tag section.
const EVENT_HASH: u64 = name_hash_finish(
    name_hash_step(NAME_SEED, u64::from_le_bytes(*b"Event\0\0\0")),
    5,
);

/// A line that is one or more well-formed tag pairs and nothing else: `[Name "value"]`,
/// blanks around and between (`[Event "x"] [Site "y"]`, as import format allows).
fn is_tag_shaped(line: &[u8]) -> bool {
    let mut rest = trim_blanks(line);
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        match one_tag_pair_len(rest) {
            Some(len) => rest = trim_blanks(&rest[len..]),
            None => return false,
        }
    }
    true
}

/// The length of the well-formed tag pair `s` starts with (`[Name "value"]`, blanks
/// inside the brackets allowed), if it does.
fn one_tag_pair_len(s: &[u8]) -> Option<usize> {
    let inner = s.strip_prefix(b"[")?;
    let blank = |b: &u8| matches!(b, b' ' | b'\t');
    let lead = inner.iter().take_while(|b| blank(b)).count();
    let name_len = tag_name_len(&inner[lead..]);
    if name_len == 0 {
        return None;
    }
    let mut i = lead + name_len;
    let gap = inner[i..].iter().take_while(|b| blank(b)).count();
    if gap == 0 || inner.get(i + gap) != Some(&b'"') {
        return None;
    }
    i += gap + 1;
    loop {
        match *inner.get(i)? {
            b'\\' => i += 2,
            b'"' => break,
            b'\n' => return None,
            _ => i += 1,
        }
    }
    i += 1;
    i += inner[i.min(inner.len())..]
        .iter()
        .take_while(|b| blank(b))
        .count();
    (inner.get(i) == Some(&b']')).then_some(1 + i + 1)
}

fn trim_blanks(s: &[u8]) -> &[u8] {
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let start = s.iter().take_while(|b| blank(b)).count();
    let end = s.len() - s[start..].iter().rev().take_while(|b| blank(b)).count();
    &s[start..end]
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

#[inline]
fn whitespace_len(s: &[u8], encoding: Encoding) -> usize {
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        if CLASS[b as usize] & SPACE != 0 {
            i += 1;
            continue;
        }
        match b {
            0x80..=0xFF => match char_at(&s[i..], encoding) {
                Some((c, len)) if is_unicode_space(c) => i += len,
                _ => break,
            },
            _ => break,
        }
    }
    i
}

/// Length of a `;` comment or `%` escape: up to the line end, without `\r\n` or `\n`.
fn line_content_len(s: &[u8]) -> usize {
    match memchr::memchr(b'\n', s) {
        Some(nl) if nl > 0 && s[nl - 1] == b'\r' => nl - 1,
        Some(nl) => nl,
        None => s.len(),
    }
}

/// Byte classes for the hot paths.
const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
/// A byte of a tag name: ASCII graphic except `"`, `[` and `]`, or any byte from 0x80.
const NAME: u8 = 4;
/// A byte from 0x80 up (part of a character that may be a Unicode space).
const HIGH: u8 = 8;

static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let spaces = b" \t\n\r\x0b\x0c,";
    let mut i = 0;
    while i < spaces.len() {
        table[spaces[i] as usize] = SPACE | DELIMITER;
        i += 1;
    }
    let delimiters = b"{}()[];$!?";
    let mut i = 0;
    while i < delimiters.len() {
        table[delimiters[i] as usize] = DELIMITER;
        i += 1;
    }
    // Control characters (a NUL, a DOS end-of-file byte) end a word too: one stuck to a
    // move is reported on its own, and the move is read.
    let mut b = 0usize;
    while b < 0x20 {
        table[b] |= DELIMITER;
        b += 1;
    }
    table[0x7f] |= DELIMITER;
    let mut b = 0usize;
    while b < 256 {
        let c = b as u8;
        if (c.is_ascii_graphic() && c != b'"' && c != b'[' && c != b']') || c >= 0x80 {
            table[b] |= NAME;
        }
        if c >= 0x80 {
            table[b] |= HIGH;
        }
        b += 1;
    }
    table
};

/// Whether a byte may not continue a word: ASCII whitespace and the PGN punctuation.
#[inline]
fn is_delimiter_byte(b: u8) -> bool {
    CLASS[b as usize] & DELIMITER != 0
}

/// Whether a token that ends at `s[i]` is complete: nothing follows, or a delimiter, a
/// glyph, an en-passant mark, or a non-ASCII separator or mark.
#[inline]
pub(crate) fn is_token_end(s: &[u8], i: usize, encoding: Encoding) -> bool {
    let Some(&b) = s.get(i) else { return true };
    if b < 0x80 {
        return is_delimiter_byte(b)
            || (matches!(b, b'a' | b'e') && en_passant_len(&s[i..], encoding).is_some());
    }
    match char_at(&s[i..], encoding) {
        Some((c, _)) => is_unicode_space(c) || is_mark_char(c) || matches!(c, '«' | '»'),
        None => true,
    }
}

/// Evaluation and move marks written after a move.
fn is_mark_char(c: char) -> bool {
    matches!(c, '±' | '∓' | '∞' | '⩲' | '⩱' | '‼' | '⁇' | '⁉' | '⁈' | '□')
}

/// An unknown word: at least one character, up to a delimiter or separator.
fn word_len(s: &[u8], encoding: Encoding) -> usize {
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        if b < 0x80 {
            if i > 0 && is_delimiter_byte(b) {
                break;
            }
            i += 1;
        } else {
            match char_at(&s[i..], encoding) {
                Some((c, _)) if i > 0 && is_unicode_space(c) => break,
                Some((_, len)) => i += len,
                None => i += 1,
            }
        }
    }
    i.max(1)
}

fn non_ascii_token(s: &[u8], encoding: Encoding) -> (TokenKind, usize) {
    let Some((c, len)) = char_at(s, encoding) else {
        return (TokenKind::Unknown, 1);
    };
    if is_unicode_space(c) {
        return (TokenKind::Whitespace, whitespace_len(s, encoding));
    }
    match c {
        '\u{2654}'..='\u{265F}' => match san_len(s, encoding) {
            Some(len) => (TokenKind::San, len),
            None => (TokenKind::Unknown, word_len(s, encoding)),
        },
        '½' => match half_result_len(s, encoding) {
            Some(len) => (TokenKind::Result, len),
            None => (TokenKind::Unknown, word_len(s, encoding)),
        },
        '«' => {
            let after = &s[len..];
            match after.first() {
                Some(b'=') => match char_at(&after[1..], encoding) {
                    Some(('»', close)) => (TokenKind::DrawOffer, len + 1 + close),
                    _ => (TokenKind::Unknown, word_len(s, encoding)),
                },
                _ => (TokenKind::Unknown, word_len(s, encoding)),
            }
        }
        _ if is_mark_char(c) => match evaluation_len(s, encoding) {
            Some(len) => (TokenKind::Glyph, len),
            None => (TokenKind::Unknown, word_len(s, encoding)),
        },
        _ => (TokenKind::Unknown, word_len(s, encoding)),
    }
}

/// Tokens that start with a digit: results, castling with zeros, move numbers.
fn digit_token(s: &[u8], encoding: Encoding) -> (TokenKind, usize) {
    // Fast path: `12.` not followed by a spaced ellipsis, or `12...`.
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if s.get(digits) == Some(&b'.') {
        let dots = s[digits..].iter().take_while(|&&b| b == b'.').count();
        let end = digits + dots;
        // A dash after the number, a scoresheet habit (`1.-e4`, `1.- e4`), belongs to it.
        if s.get(end) == Some(&b'-')
            && s.get(end + 1)
                .is_some_and(|&b| b.is_ascii_alphabetic() || b == b' ')
        {
            return (TokenKind::MoveNumber, end + 1);
        }
        if dots > 1 || s.get(end) != Some(&b' ') || s.get(end + 1) != Some(&b'.') {
            return (TokenKind::MoveNumber, end);
        }
    }
    for result in [&b"1-0"[..], b"0-1", b"1/2-1/2"] {
        if s.starts_with(result) && is_result_end(s, result.len()) {
            return (TokenKind::Result, result.len());
        }
    }
    if let Some(len) = castling_len(s, encoding).and_then(|len| san_suffix(s, len, encoding)) {
        return (TokenKind::San, len);
    }
    match move_number(s) {
        Ok((rest, ())) => {
            let len = s.len() - rest.len();
            let dotted = s[..len].last().is_some_and(|&b| b == b'.');
            if dotted || is_token_end(s, len, encoding) {
                (TokenKind::MoveNumber, len)
            } else if let Some(len) = ellipsis_len(&s[len..], encoding).map(|e| len + e) {
                (TokenKind::MoveNumber, len)
            } else {
                (TokenKind::Unknown, word_len(s, encoding))
            }
        }
        Err(_) => (TokenKind::Unknown, word_len(s, encoding)),
    }
}

/// A result must not run on into a word (`1-0-0`, `1/2x`).
fn is_result_end(s: &[u8], i: usize) -> bool {
    match s.get(i) {
        Some(b) => !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'/' | b'.')),
        None => true,
    }
}

/// `12`, `12.`, `12...`, `12 .` (digits, then optional spaces only when dots follow).
fn move_number(s: &[u8]) -> IResult<&[u8], ()> {
    let (rest, _) = digit1(s)?;
    let (after_space, _) = space0(rest)?;
    let dots = |i| take_while1::<_, _, nom::error::Error<&[u8]>>(|b| b == b'.')(i);
    match dots(after_space) {
        Ok((after_dots, _)) => {
            // `1. ... Ba5`: a spaced ellipsis for Black's move belongs to the number.
            let (after_space, _) = space0(after_dots)?;
            match take_while1::<_, _, nom::error::Error<&[u8]>>(|b| b == b'.')(after_space) {
                Ok((after_more, more)) if more.len() >= 2 => Ok((after_more, ())),
                _ => Ok((after_dots, ())),
            }
        }
        Err(_) => Ok((rest, ())),
    }
}

/// `…` (U+2026, or Windows-1252 byte 0x85) directly after a move number.
fn ellipsis_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    match char_at(s, encoding) {
        Some(('…', len)) => Some(len),
        _ => None,
    }
}

/// `$` followed by digits.
fn nag_len(s: &[u8]) -> Option<usize> {
    let parsed: IResult<&[u8], &[u8]> = preceded(byte_char('$'), digit1).parse(s);
    parsed.ok().map(|(rest, _)| s.len() - rest.len())
}

/// `½-½` with `½` in UTF-8 or as the Windows-1252 / Latin-1 byte 0xBD.
fn half_result_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    let (first, a) = char_at(s, encoding)?;
    if first != '½' || s.get(a) != Some(&b'-') {
        return None;
    }
    let (second, b) = char_at(&s[a + 1..], encoding)?;
    let len = a + 1 + b;
    (second == '½' && is_result_end(s, len)).then_some(len)
}

/// Evaluation marks and glyph runs written as a word of their own: `=`, `+=`, `=+`, `+/-`,
/// `-+`, `±`, `∓`, `∞`, `=/∞`, `‼`… (never `--`, the null move).
fn evaluation_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'+' | b'-' | b'=' | b'/' => i += 1,
            0x80..=0xFF => match char_at(&s[i..], encoding) {
                Some((c, len)) if is_mark_char(c) => i += len,
                _ => break,
            },
            _ => break,
        }
    }
    // Dashes and slashes alone (`-`, `/`, `-/-`) are no evaluation: a stray `-` (`1 - 0`)
    // is reported, not taken for a glyph; `--` is the null move.
    if s[..i].iter().all(|&b| b == b'-' || b == b'/') {
        return None;
    }
    let end_ok = match s.get(i) {
        None => true,
        Some(&b) if b < 0x80 => is_delimiter_byte(b),
        Some(_) => is_token_end(s, i, encoding),
    };
    end_ok.then_some(i)
}

/// `e.p.`, `a.p.`, `e. p.`, `a. p.` (final dot optional; the inner space may be a
/// NO-BREAK SPACE), then the move's check or mate mark if it comes after (`dxe3 a.p.+`),
/// ending at a token end.
pub(crate) fn en_passant_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    if s.len() < 3 || !matches!(s[0], b'a' | b'e') || s[1] != b'.' {
        return None;
    }
    let mut i = 2;
    if s[i] == b' ' {
        i += 1;
    } else if s[i] >= 0x80
        && let Some(('\u{a0}', len)) = char_at(&s[i..], encoding)
    {
        i += len;
    }
    if s.get(i) != Some(&b'p') {
        return None;
    }
    i += 1;
    if s.get(i) == Some(&b'.') {
        i += 1;
    }
    let mut marks = 0;
    while marks < 2 && matches!(s.get(i), Some(b'+' | b'#')) {
        i += 1;
        marks += 1;
    }
    let end_ok = match s.get(i) {
        None => true,
        Some(&b) if b < 0x80 => is_delimiter_byte(b),
        Some(_) => {
            matches!(char_at(&s[i..], encoding), Some((c, _)) if is_unicode_space(c) || is_mark_char(c))
        }
    };
    end_ok.then_some(i)
}

/// Castling with `O`, `0` or `o` and `-` or an en or em dash (UTF-8, or Windows-1252 bytes
/// 0x96 and 0x97).
fn castling_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    let is_o = |b: u8| matches!(b, b'O' | b'0' | b'o');
    if !s.first().copied().is_some_and(is_o) {
        return None;
    }
    let mut i = 1;
    let mut sides = 0;
    while sides < 2 {
        let dash = match s.get(i) {
            Some(b'-') => 1,
            Some(0x80..=0xFF) => match char_at(&s[i..], encoding) {
                Some(('–' | '—', len)) => len,
                _ => break,
            },
            _ => break,
        };
        if !s.get(i + dash).copied().is_some_and(is_o) {
            break;
        }
        i += dash + 1;
        sides += 1;
    }
    (sides > 0).then_some(i)
}

/// A piece letter: any ASCII capital (every language's letters, and more for safety).
fn is_piece_letter(b: u8) -> bool {
    b.is_ascii_uppercase()
}

/// A piece letter written in lower case (`nf3`, Spanish `tc1`) that is no file letter:
/// the letters of the languages in notation-and-rules.md past `h`, but `o` (castling)
/// and `x` (a capture). The move parser reads them and notes the form.
fn is_lowercase_piece_letter(b: u8) -> bool {
    matches!(b, b'k' | b'l' | b'n' | b'p' | b'q' | b'r' | b's' | b't')
}

/// Length of a figurine (U+2654..=U+265F) at the start of `s`.
fn figurine_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    if encoding.single_byte() {
        return None;
    }
    match utf8_char(s) {
        // A variation selector after it (U+FE0F emoji style, U+FE0E text style, as
        // phones write them) is part of the figurine.
        Some(('\u{2654}'..='\u{265F}', len)) => match s[len..] {
            [0xef, 0xb8, 0x8e | 0x8f, ..] => Some(len + 3),
            _ => Some(len),
        },
        _ => None,
    }
}

/// Check marks (`+`, `++`, `#`) after a move, then a token end.
fn san_suffix(s: &[u8], mut i: usize, encoding: Encoding) -> Option<usize> {
    let mut marks = 0;
    while marks < 2 && matches!(s.get(i), Some(b'+' | b'#')) {
        i += 1;
        marks += 1;
    }
    is_token_end(s, i, encoding).then_some(i)
}

/// Tokenizes moves, move numbers and one-line comments separated by single spaces from
/// `pos`, as long as nothing else comes; returns where it stopped (at a token start or at a gap that is not
/// a single space). Pushes exactly what the general loop would.
#[inline(always)]
fn movetext_run(data: &[u8], mut pos: usize, limit: usize, tokens: &mut Vec<Token>) -> usize {
    loop {
        let (kind, len) = match data[pos] {
            b'a'..=b'h' | b'A'..=b'N' | b'P'..=b'Y' => match san_fast(&data[pos..]) {
                Some(len) => (TokenKind::San, len),
                None => return pos,
            },
            b'1'..=b'9' => match move_number_fast(&data[pos..limit]) {
                Some(len) => (TokenKind::MoveNumber, len),
                None => return pos,
            },
            // A comment closed on its own line (`{ [%clk 0:03:00] }` after every move).
            b'{' => match memchr::memchr2(b'}', b'\n', &data[pos + 1..limit]) {
                Some(i) if data[pos + 1 + i] == b'}' => (TokenKind::Comment, i + 2),
                _ => return pos,
            },
            _ => return pos,
        };
        let end = pos + len;
        tokens.push(token(kind, pos, end));
        pos = end;
        if pos + 1 < limit
            && data[pos] == b' '
            && CLASS[data[pos + 1] as usize] & (SPACE | HIGH) == 0
        {
            pos += 1;
        } else {
            return pos;
        }
    }
}

/// A move number `12.` or `12...` followed by a space or a move (not `12. ...`, nor
/// anything [`digit_token`] reads otherwise).
#[inline(always)]
fn move_number_fast(s: &[u8]) -> Option<usize> {
    if !s.first()?.is_ascii_digit() {
        return None;
    }
    let mut digits = 1;
    while digits < 4 && s.get(digits).is_some_and(u8::is_ascii_digit) {
        digits += 1;
    }
    if s.get(digits) != Some(&b'.') {
        return None;
    }
    let dots = if s.get(digits + 1..digits + 3) == Some(b"..") {
        3
    } else {
        1
    };
    let end = digits + dots;
    match s.get(end) {
        Some(b' ') if s.get(end + 1) != Some(&b'.') => Some(end),
        Some(b'a'..=b'h' | b'A'..=b'Z') => Some(end),
        _ => None,
    }
}

/// One bit per byte of `window`: set for `a`-`h`, `1`-`8` and `x`. Plain integer
/// arithmetic on the eight bytes at once: no table look-ups, no branches.
#[inline(always)]
fn move_body_mask(window: &[u8; 8]) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = u64::from_le_bytes(*window);
    let ascii = !word & HIGH;
    let low = word & !HIGH;
    // Bit 7 of each byte: the 7-bit byte is at least `lo`, or greater than `hi`.
    let at_least = |lo: u8| (low + ONES * u64::from(0x80 - lo)) & HIGH;
    let above = |hi: u8| (low + ONES * u64::from(0x7F - hi)) & HIGH;
    let file = at_least(b'a') & !above(b'h');
    let rank = at_least(b'1') & !above(b'8');
    let diff = low ^ (ONES * u64::from(b'x'));
    let x = !(((diff & !HIGH) + !HIGH) | diff) & HIGH;
    let hits = (file | rank | x) & ascii;
    // Gather bit 7 of each byte into the low eight bits.
    ((hits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// The common move shapes (`e4`, `Nf3`, `exd5`, `Nbd7`, `Qh4xe1`, `e2e4`, with `+`, `#`
/// or `++`) followed by an ASCII delimiter; anything else is left to [`san_len`], which
/// accepts a superset with the same lengths. The body is measured without a loop: one
/// table look-up per byte of an 8-byte window, then a count of trailing ones.
#[inline(always)]
fn san_fast(s: &[u8]) -> Option<usize> {
    let window: &[u8; 8] = s.first_chunk()?;
    let mask = move_body_mask(window) | u32::from(window[0].is_ascii_uppercase());
    let mut end = mask.trailing_ones() as usize;
    if end < 2 || end == 8 {
        return None;
    }
    if !matches!(window[end - 2], b'a'..=b'h') || !matches!(window[end - 1], b'1'..=b'8') {
        return None;
    }
    // A body of seven bytes leaves its marks past the window.
    if matches!(s.get(end), Some(b'+' | b'#')) {
        end += 1;
        if matches!(s.get(end), Some(b'+' | b'#')) {
            end += 1;
        }
    }
    let next = *s.get(end)?;
    // `(` may open a promotion piece `e8(Q)`: leave it to the full scanner.
    (is_delimiter_byte(next) && next != b'(').then_some(end)
}

/// The length of a move-shaped token at the start of `s`, if it is one.
pub(crate) fn san_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    // Fast paths for the most common shapes: `e4`, `Nf3`, followed by a delimiter.
    match *s {
        [b'a'..=b'h', b'1'..=b'8', next, ..]
            if is_delimiter_byte(next) && !matches!(next, b'(') =>
        {
            return Some(2);
        }
        [
            b'A'..=b'N' | b'P'..=b'Y',
            b'a'..=b'h',
            b'1'..=b'8',
            next,
            ..,
        ] if is_delimiter_byte(next) => return Some(3),
        _ => {}
    }
    if matches!(s.first(), Some(b'O' | b'0' | b'o'))
        && let Some(len) = castling_len(s, encoding).and_then(|len| san_suffix(s, len, encoding))
    {
        return Some(len);
    }
    if s.starts_with(b"--") || s.starts_with(b"Z0") {
        return is_token_end(s, 2, encoding).then_some(2);
    }
    let mut i = 0;
    let mut piece = false;
    match *s.first()? {
        b if is_piece_letter(b) || is_lowercase_piece_letter(b) => {
            i = 1;
            piece = true;
        }
        b if b >= 0x80 => {
            i = figurine_len(s, encoding)?;
            piece = true;
        }
        _ => {}
    }
    if s.get(i) == Some(&b'@') {
        i += 1;
    }
    let body_start = i;
    let mut files = 0;
    let mut ranks = 0;
    let mut last_rank = false;
    let mut last_file = 0u8;
    let mut first_file = 0u8;
    let mut captures = 0;
    while let Some(&b) = s.get(i) {
        match b {
            b'a'..=b'h' => {
                if ranks > 0 && s.get(i + 1) == Some(&b'.') {
                    break; // a glued en-passant mark: `exd6a.p.`
                }
                if b == b'b' && last_rank && is_token_end(s, i + 1, encoding) {
                    break; // a UCI promotion to a bishop: `d7d8b`
                }
                if files == 0 {
                    first_file = b;
                }
                files += 1;
                last_file = b;
                last_rank = false;
                i += 1;
            }
            b'1'..=b'8' => {
                ranks += 1;
                last_rank = true;
                i += 1;
            }
            b'x' | b':' => {
                captures += 1;
                last_rank = false;
                i += 1;
                // The captured piece named after the mark: `Bb4xNc3`.
                if s.get(i).copied().is_some_and(is_piece_letter)
                    && matches!(s.get(i + 1), Some(b'a'..=b'h'))
                {
                    i += 1;
                }
            }
            b'-' if matches!(s.get(i + 1), Some(b'a'..=b'h')) => {
                last_rank = false;
                i += 1;
            }
            _ => break,
        }
        if i - body_start > 12 {
            return None;
        }
    }
    let pawn_capture_abbreviation =
        !piece && ranks == 0 && files == 2 && captures <= 1 && first_file.abs_diff(last_file) == 1;
    if files == 0 || !(last_rank || pawn_capture_abbreviation) {
        return None;
    }
    if last_rank {
        i = promotion_end(s, i, encoding);
    }
    san_suffix(s, i, encoding)
}

/// Skips a promotion after the destination square: `=Q`, `/Q`, `(Q)`, `Q`, `=♕`, or a
/// lower-case UCI letter (`e7e8q`).
fn promotion_end(s: &[u8], i: usize, encoding: Encoding) -> usize {
    let mut j = i;
    let marked = matches!(s.get(j), Some(b'=' | b'/'));
    if marked {
        j += 1;
    }
    match s.get(j) {
        Some(b'(')
            if s.get(j + 1).copied().is_some_and(is_piece_letter)
                && s.get(j + 2) == Some(&b')') =>
        {
            j + 3
        }
        // A figurine in parentheses: `b8(♕)`.
        Some(b'(') if s.get(j + 1).is_some_and(|&b| b >= 0x80) => {
            match figurine_len(&s[j + 1..], encoding) {
                Some(len) if s.get(j + 1 + len) == Some(&b')') => j + 2 + len,
                _ => i,
            }
        }
        Some(&b) if is_piece_letter(b) => j + 1,
        Some(&b) if b >= 0x80 => figurine_len(&s[j..], encoding).map_or(i, |len| j + len),
        Some(b'q' | b'r' | b'b' | b'n') if !marked && is_token_end(s, j + 1, encoding) => j + 1,
        _ => i,
    }
}

/// A parsed tag pair: token length, name span, raw value span (relative to the token).
type ParsedTag = (usize, (usize, usize), (usize, usize));

/// A tag pair: `[`, name, `"value"` (with `\"` and `\\` escapes), `]`. Returns the token
/// length and the name and raw value spans relative to `s`.
fn tag_pair(s: &[u8]) -> Option<(ParsedTag, u64)> {
    if let Some(parsed) = tag_pair_fast(s) {
        return Some(parsed);
    }
    let parsed = tag_pair_general(s)?;
    Some((parsed, name_hash(&s[parsed.1.0..parsed.1.1])))
}

/// [`tag_pair`] for every form the fast path leaves: spaces inside the brackets,
/// escapes, quotes inside the value.
fn tag_pair_general(s: &[u8]) -> Option<ParsedTag> {
    let offset = |rest: &[u8]| s.len() - rest.len();
    let strict: IResult<&[u8], (&[u8], &[u8])> = (|i| {
        let (i, _) = byte_char('[')(i)?;
        let (i, _) = space0(i)?;
        let (i, name) = take_while1(is_name_byte)(i)?;
        let (i, _) = space0(i)?;
        let (i, _) = byte_char('"')(i)?;
        let (i, value) = quoted_value(i)?;
        let (i, _) = byte_char('"')(i)?;
        let (i, _) = space0(i)?;
        let (i, _) = byte_char(']')(i)?;
        Ok((i, (name, value)))
    })(s);
    if let Ok((rest, (name, value))) = strict {
        let name_start = name.as_ptr() as usize - s.as_ptr() as usize;
        let value_start = value.as_ptr() as usize - s.as_ptr() as usize;
        return Some((
            offset(rest),
            (name_start, name_start + name.len()),
            (value_start, value_start + value.len()),
        ));
    }
    lenient_tag_pair(s)
}

/// The usual shape `[Name "value"]` (one space, no escapes), by direct indexing, with
/// the name's [`name_hash`]; the nom parser in [`tag_pair`] reads the same and every
/// other form. The name is measured and hashed eight bytes at a time.
#[inline]
fn tag_pair_fast(s: &[u8]) -> Option<(ParsedTag, u64)> {
    if s.first() != Some(&b'[') {
        return None;
    }
    let mut i = 1;
    let mut hash = NAME_SEED;
    loop {
        let word = u64::from_le_bytes(*s.get(i..)?.first_chunk::<8>()?);
        let stops = not_name_bytes(word);
        if stops == 0 {
            hash = name_hash_step(hash, word);
            i += 8;
            continue;
        }
        let n = stops.trailing_zeros() as usize / 8;
        if n > 0 {
            hash = name_hash_step(hash, word & (u64::MAX >> (64 - 8 * n)));
        }
        i += n;
        break;
    }
    let name = (1, i);
    if i == 1 || s.get(i..i + 2) != Some(b" \"") {
        return None;
    }
    let value_start = i + 2;
    let stop = value_end(s.get(value_start..)?)?;
    let j = value_start + stop;
    (s[j] == b'"' && s.get(j + 1) == Some(&b']')).then_some((
        (j + 2, name, (value_start, j)),
        name_hash_finish(hash, i - 1),
    ))
}

/// Bit 7 set in each byte of `word` that is not a tag-name byte (see [`is_name_byte`]):
/// a control byte, a space, DEL, `"`, `[` or `]`. Exact for every byte, with no carries
/// between bytes.
#[inline(always)]
fn not_name_bytes(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let ascii = !word & HIGH;
    let low = word & !HIGH;
    // Bit 7 of each byte: the 7-bit byte is at least 0x21.
    let graphic_or_del = (low + ONES * 0x5F) & HIGH;
    let equal = |b: u8| {
        let diff = low ^ (ONES * u64::from(b));
        !(((diff & !HIGH) + !HIGH) | diff) & HIGH
    };
    ((!graphic_or_del & HIGH) | equal(0x7F) | equal(b'"') | equal(b'[') | equal(b']')) & ascii
}

/// The first `"`, `\\` or line end in `s`: the end of a plain tag value. Values are
/// short (a name, a date), so the first 24 bytes are looked at eight at a time in place,
/// and only a longer value calls `memchr3`.
#[inline]
fn value_end(s: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Bit 7 of the lowest byte equal to `b` is set (higher ones may be set wrongly).
    let has = |word: u64, b: u8| {
        let x = word ^ (ONES * u64::from(b));
        x.wrapping_sub(ONES) & !x & HIGH
    };
    let mut at = 0;
    while at < 24
        && let Some(chunk) = s.get(at..at + 8)
    {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let hits = has(word, b'"') | has(word, b'\\') | has(word, b'\n');
        if hits != 0 {
            return Some(at + hits.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    memchr::memchr3(b'"', b'\\', b'\n', &s[at..]).map(|i| at + i)
}

/// Real files write unescaped quotes inside values (`[Event "The "Best" game"]`): accept
/// a value that runs to the last `"` before the `]` that closes the line.
fn lenient_tag_pair(s: &[u8]) -> Option<ParsedTag> {
    let line = &s[..line_content_len(s)];
    let head: IResult<&[u8], &[u8]> = (|i| {
        let (i, _) = tag(&b"["[..])(i)?;
        let (i, _) = space0(i)?;
        let (i, name) = take_while1(is_name_byte)(i)?;
        let (i, _) = take_while(|b| b == b' ' || b == b'\t')(i)?;
        let (i, _) = tag(&b"\""[..])(i)?;
        Ok((i, name))
    })(line);
    let (after_quote, name) = head.ok()?;
    let value_start = line.len() - after_quote.len();
    let trimmed = line.len()
        - line
            .iter()
            .rev()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
    if trimmed == 0 || line[trimmed - 1] != b']' {
        return None;
    }
    let close = line[..trimmed - 1]
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')?;
    if line[close] != b'"' || close < value_start {
        return None;
    }
    // A value holding the start of another tag pair (`[White "Tru[Event "E3"]`) is a tag
    // cut short with the next one glued on, not a value with quotes in it.
    let value = &line[value_start..=close];
    if value
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'[' && is_tag_start(&value[i..]))
    {
        return None;
    }
    let name_start = 1 + line[1..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    Some((
        trimmed,
        (name_start, name_start + name.len()),
        (value_start, close),
    ))
}

/// Whether `s` starts like a tag pair: `[`, a name of letters, digits or `_`, a space, `"`.
fn is_tag_start(s: &[u8]) -> bool {
    let name = tag_name_len(&s[1..]);
    name > 0 && s[1 + name..].starts_with(b" \"")
}

/// The length of the tag name `s` starts with: letters, digits and `_`.
fn tag_name_len(s: &[u8]) -> usize {
    s.iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count()
}

#[inline]
fn is_name_byte(b: u8) -> bool {
    CLASS[b as usize] & NAME != 0
}

/// The raw bytes of a quoted value up to the closing quote (not included); a value may not
/// cross a line end.
fn quoted_value(s: &[u8]) -> IResult<&[u8], &[u8]> {
    let mut i = 0;
    while let Some(j) = memchr::memchr3(b'"', b'\\', b'\n', &s[i..]) {
        i += j;
        match s[i] {
            b'"' => return Ok((&s[i..], &s[..i])),
            b'\\' if i + 1 < s.len() && s[i + 1] != b'\n' => i += 2,
            _ => break,
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(
        s,
        nom::error::ErrorKind::Char,
    )))
}

/// A malformed tag pair: up to the first `]` on the line, or the line end.
fn malformed_tag_len(s: &[u8]) -> usize {
    let line = line_content_len(s);
    match memchr::memchr(b']', &s[..line]) {
        Some(close) => close + 1,
        None => line.max(1),
    }
}

/// Resolves the `\"` and `\\` escapes of a tag value.
pub(crate) fn unescape(value: Cow<'_, str>) -> Cow<'_, str> {
    if !value.contains('\\') {
        return value;
    }
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(next @ ('"' | '\\')) => out.push(next),
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn value_end_finds_what_memchr3_finds() {
        // Every position of each stop byte, alone and after another, in short and long
        // values, with bytes that differ from a stop byte by one bit around it.
        let filler = [
            b'!',
            b'#',
            b'\x5d',
            b'\x0b',
            b'a',
            0x80,
            0xa2,
            b'\x0a' ^ 0x80,
        ];
        for len in 0..40 {
            for stop in [None, Some(b'"'), Some(b'\\'), Some(b'\n')] {
                for at in 0..len.max(1) {
                    for second in [None, Some(b'"'), Some(b'\n')] {
                        let mut s: Vec<u8> = (0..len).map(|i| filler[i % filler.len()]).collect();
                        if let Some(b) = stop
                            && at < len
                        {
                            s[at] = b;
                            if let Some(c) = second
                                && at + 1 < len
                            {
                                s[at + 1] = c;
                            }
                        }
                        let expected = memchr::memchr3(b'"', b'\\', b'\n', &s);
                        assert_eq!(value_end(&s), expected, "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn name_bytes_are_graphic_ascii_but_quotes_and_brackets_or_not_ascii() {
        for b in 0..=255u8 {
            let expected = (b.is_ascii_graphic() && !matches!(b, b'"' | b'[' | b']')) || b >= 0x80;
            assert_eq!(is_name_byte(b), expected, "byte {b:#04x}");
        }
    }

    #[test]
    fn not_name_bytes_matches_a_byte_by_byte_check() {
        for position in 0..8 {
            for byte in 0..=255u8 {
                for fill in [b'a', b'"', 0x80, 0x00] {
                    let mut window = [fill; 8];
                    window[position] = byte;
                    let mask = not_name_bytes(u64::from_le_bytes(window));
                    for (i, &b) in window.iter().enumerate() {
                        let bit = mask >> (8 * i + 7) & 1 == 1;
                        assert_eq!(bit, !is_name_byte(b), "{window:?}@{i}");
                    }
                    assert_eq!(mask & !0x8080_8080_8080_8080, 0);
                }
            }
        }
    }

    #[test]
    fn a_tag_name_hashes_the_same_on_the_fast_and_the_general_paths() {
        for name in [
            "Event",
            "WhiteElo",
            "WhiteFideId",
            "BlackTeamCountry",
            "X",
            "ECO",
        ] {
            for value in ["", "x", "a long value with more than 24 bytes in it"] {
                let line = format!("[{name} \"{value}\"]\n and more bytes after it");
                let (parsed, hash) = tag_pair_fast(line.as_bytes()).expect("the usual shape");
                assert_eq!(&line[parsed.1.0..parsed.1.1], name);
                assert_eq!(hash, name_hash(name.as_bytes()));
                assert_eq!(hash, tag_name_hash(line.as_bytes()));
            }
        }
        assert_eq!(EVENT_HASH, name_hash(b"Event"));
        assert_ne!(name_hash(b"Ev"), name_hash(b"Ev\0"));
    }

    #[test]
    fn move_body_mask_matches_a_byte_by_byte_check() {
        let naive = |b: u8| matches!(b, b'a'..=b'h' | b'1'..=b'8' | b'x');
        for position in 0..8 {
            for byte in 0..=255u8 {
                let mut window = *b"--------";
                window[position] = byte;
                let expected = u32::from(naive(byte)) << position;
                assert_eq!(move_body_mask(&window), expected, "{byte:#x}@{position}");
            }
        }
    }

    proptest! {
        /// The fast paths accept only what the full scanners accept, with the same length.
        #[test]
        fn fast_paths_agree_with_full_scanners(s in "[a-hx1-8NBRQKO+#=.() !?a-z0-9\\[\\]\"\\\\-]{0,12}") {
            let bytes = s.as_bytes();
            if let Some(len) = san_fast(bytes) {
                prop_assert_eq!(san_len(bytes, Encoding::Auto), Some(len));
            }
            if let Some((parsed, hash)) = tag_pair_fast(bytes) {
                prop_assert_eq!(hash, name_hash(&bytes[parsed.1.0..parsed.1.1]));
                let strict: IResult<&[u8], ()> = (|i| {
                    let (i, _) = byte_char('[')(i)?;
                    let (i, _) = take_while1(is_name_byte)(i)?;
                    let (i, _) = tag(&b" \""[..])(i)?;
                    let (i, _) = quoted_value(i)?;
                    let (i, _) = tag(&b"\"]"[..])(i)?;
                    Ok((i, ()))
                })(bytes);
                prop_assert_eq!(strict.map(|(rest, ())| bytes.len() - rest.len()).ok(), Some(parsed.0));
            }
            if let Some(len) = move_number_fast(bytes) {
                prop_assert_eq!(digit_token(bytes, Encoding::Auto), (TokenKind::MoveNumber, len));
            }
        }
    }
}
