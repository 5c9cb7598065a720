//! Byte classes for the hot paths, whitespace, words, and where a token ends.

use super::moves::{en_passant_len, san_len};
use super::numbers::{evaluation_len, scoresheet_result_len};
use crate::encoding::{Encoding, char_at, is_unicode_space};
use crate::token::TokenKind;

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
pub(super) fn line_content_len(s: &[u8]) -> usize {
    match memchr::memchr(b'\n', s) {
        Some(nl) if nl > 0 && s[nl - 1] == b'\r' => nl - 1,
        Some(nl) => nl,
        None => s.len(),
    }
}

/// Byte classes for the hot paths.
pub(super) const SPACE: u8 = 1;
const DELIMITER: u8 = 2;
/// A byte of a tag name: ASCII graphic except `"`, `[` and `]`, or any byte from 0x80.
pub(super) const NAME: u8 = 4;
/// A byte from 0x80 up (part of a character that may be a Unicode space).
pub(super) const HIGH: u8 = 8;
/// The first byte of a move the movetext's fast loop reads: a file or a piece letter
/// (`O` is castling, `Z` a null move: the main loop reads those).
pub(super) const MOVE_START: u8 = 16;
/// The first digit of a move number: `1`-`9`.
pub(super) const NUMBER_START: u8 = 32;

pub(super) static CLASS: [u8; 256] = {
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
        if matches!(c, b'a'..=b'h' | b'A'..=b'N' | b'P'..=b'Y') {
            table[b] |= MOVE_START;
        }
        if matches!(c, b'1'..=b'9') {
            table[b] |= NUMBER_START;
        }
        b += 1;
    }
    table
};

/// Whether a byte may not continue a word: ASCII whitespace and the PGN punctuation.
#[inline]
pub(super) fn is_delimiter_byte(b: u8) -> bool {
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
pub(super) fn is_mark_char(c: char) -> bool {
    matches!(c, '±' | '∓' | '∞' | '⩲' | '⩱' | '‼' | '⁇' | '⁉' | '⁈' | '□')
}

/// An unknown word: at least one character, up to a delimiter or separator.
pub(super) fn word_len(s: &[u8], encoding: Encoding) -> usize {
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

pub(super) fn non_ascii_token(s: &[u8], encoding: Encoding) -> (TokenKind, usize) {
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
        '½' => match scoresheet_result_len(s, encoding) {
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
