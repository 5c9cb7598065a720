//! What only the end of a game can tell: a variation left open, a missing termination
//! marker, a tag given twice.

use super::{Lexer, Sink, syntax};
use crate::encoding::decode;
use crate::finding::{Finding, FindingKind};
use crate::token::{TagSpans, Token, TokenKind};
use std::borrow::Cow;

impl Lexer {
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
        if !self.tag_names.any_repeated() {
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
