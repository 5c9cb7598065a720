//! The fast loop over the common movetext: moves (castling too), move numbers and
//! comments closed on their line, glued or apart, across line ends. Most of a game's tokens are read here
//! without the main loop's bookkeeping.

use super::classes::{CLASS, HIGH, MOVE_START, NUMBER_START, SPACE};
use super::moves::{castling_fast, san_fast};
use super::numbers::move_number_fast;
use super::token;
use crate::token::{Token, TokenKind};

/// Tokenizes moves, move numbers and one-line comments from `pos` (a token start in the
/// movetext, not at a line start), as long as nothing else comes, within
/// `data[..limit]`; counts the line ends it passes in `newlines`. Pushes exactly the
/// tokens the main loop would, and returns where the main loop goes on.
///
/// A line start matters to the main loop (a tag there starts the next game; a result
/// before it may end the game), so the loop never stops right after a line end: when
/// the token after a gap that holds one is not a move, a move number or a comment, it
/// returns the start of that gap (and does not count its line ends), and the main loop
/// reads the gap again. A gap that reaches `limit` or a non-ASCII byte (which may be a
/// Unicode space) is left to the main loop the same way.
#[inline(always)]
pub(super) fn movetext_run(
    data: &[u8],
    mut pos: usize,
    limit: usize,
    newlines: &mut u64,
    tokens: &mut Vec<Token>,
) -> usize {
    // Where the main loop goes on if the token at `pos` is not read here, and the line
    // ends in the gap before `pos` (counted once its token is pushed).
    let mut resume = pos;
    let mut gap_newlines = 0;
    // Said outright, so that the checks against `limit` cover the indexing too.
    let limit = limit.min(data.len());
    loop {
        // One look-up sorts the token's first byte.
        let first = data[pos];
        let class = CLASS[first as usize];
        let (kind, len) = if class & MOVE_START != 0 {
            match san_fast(&data[pos..]) {
                Some(len) => (TokenKind::San, len),
                None => return resume,
            }
        } else if class & NUMBER_START != 0 {
            match move_number_fast(&data[pos..limit]) {
                Some(len) => (TokenKind::MoveNumber, len),
                None => return resume,
            }
        } else if first == b'O' {
            match castling_fast(&data[pos..limit]) {
                Some(len) => (TokenKind::San, len),
                None => return resume,
            }
        } else if first == b'{' {
            // A comment closed on its line (`{ [%clk 0:03:00] }` after every move).
            match memchr::memchr2(b'}', b'\n', &data[pos + 1..limit]) {
                Some(i) if data[pos + 1 + i] == b'}' => (TokenKind::Comment, i + 2),
                _ => return resume,
            }
        } else {
            return resume;
        };
        *newlines += gap_newlines;
        let end = pos + len;
        tokens.push(token(kind, pos, end));
        pos = end;
        // The common gap: one space before the next token.
        if pos + 1 < limit
            && data[pos] == b' '
            && CLASS[data[pos + 1] as usize] & (SPACE | HIGH) == 0
        {
            pos += 1;
            resume = pos;
            gap_newlines = 0;
            continue;
        }
        resume = pos;
        gap_newlines = 0;
        while pos < limit && CLASS[data[pos] as usize] & SPACE != 0 {
            gap_newlines += u64::from(data[pos] == b'\n');
            pos += 1;
        }
        if pos >= limit || data[pos] >= 0x80 {
            return resume;
        }
        if gap_newlines == 0 {
            // Spaces alone: the token after them is no line start.
            resume = pos;
        }
    }
}
