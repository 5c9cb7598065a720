//! Tokens that start with a digit (move numbers, results, castling with zeros), NAGs,
//! results as scoresheets write them (`½-½`, `½-0`, `0.5-0.5`) and evaluation marks.

use super::classes::{is_delimiter_byte, is_mark_char, is_token_end, word_len};
use super::moves::{castling_len, san_suffix};
use crate::encoding::{Encoding, char_at};
use crate::token::TokenKind;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char as byte_char, digit1, space0};
use nom::sequence::preceded;
use nom::{IResult, Parser};

/// Tokens that start with a digit: results, castling with zeros, move numbers.
pub(super) fn digit_token(s: &[u8], encoding: Encoding) -> (TokenKind, usize) {
    // Fast path: `12.` not followed by a spaced ellipsis, or `12...`.
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if let Some(len) = iccf_len(s, digits, encoding) {
        return (TokenKind::San, len);
    }
    if s.get(digits) == Some(&b'.') {
        // `0.5-0.5` and its kin: no move is numbered 0.
        if digits == 1
            && s[0] == b'0'
            && let Some(len) = scoresheet_result_len(s, encoding)
        {
            return (TokenKind::Result, len);
        }
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
    if let Some(len) = scoresheet_result_len(s, encoding) {
        return (TokenKind::Result, len);
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

/// A move in ICCF numeric notation: four digits 1-8 (departure file and rank,
/// destination file and rank: `5254` is e2-e4), a fifth digit 1-4 for a promotion
/// (`57581`), check marks, then a token end; `digits` is the length of the run of digits
/// at the start of `s`. A move number is never written so (no dot, four digits 1-8).
fn iccf_len(s: &[u8], digits: usize, encoding: Encoding) -> Option<usize> {
    let square_digits = |d: &[u8]| d.iter().all(|b| matches!(b, b'1'..=b'8'));
    let ok = match digits {
        4 => square_digits(&s[..4]),
        5 => square_digits(&s[..4]) && matches!(s[4], b'1'..=b'4'),
        _ => false,
    };
    if !ok {
        return None;
    }
    san_suffix(s, digits, encoding)
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
pub(super) fn nag_len(s: &[u8]) -> Option<usize> {
    let parsed: IResult<&[u8], &[u8]> = preceded(byte_char('$'), digit1).parse(s);
    parsed.ok().map(|(rest, _)| s.len() - rest.len())
}

/// One side's score as a scoresheet writes it, in half points: `1`, `0`, and a half
/// point as `1/2`, `0.5` or `½` (UTF-8, or the Windows-1252 / Latin-1 byte 0xBD).
fn score(s: &[u8], encoding: Encoding) -> Option<(u8, usize)> {
    let mut half = alt((tag(&b"1/2"[..]), tag(&b"0.5"[..])));
    let parsed: IResult<&[u8], &[u8]> = half.parse(s);
    if let Ok((_, written)) = parsed {
        return Some((1, written.len()));
    }
    match s.first()? {
        b'1' => Some((2, 1)),
        b'0' => Some((0, 1)),
        _ => match char_at(s, encoding)? {
            ('½', len) => Some((1, len)),
            _ => None,
        },
    }
}

/// A result as scoresheets write it beside PGN's own: two scores joined by `-`, with at
/// least one half point or a half point written `½` or `0.5` (`½-½`, `½-0`, `0-1/2`,
/// `0.5-0.5`). `1-0`, `0-1` and `1/2-1/2` are PGN's and read before this; `0-0` is
/// castling to the lexer (the validator reads it as a result where the moves end) and
/// `1-1` no result at all.
pub(super) fn scoresheet_result_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    let (white, a) = score(s, encoding)?;
    if s.get(a) != Some(&b'-') {
        return None;
    }
    let (black, b) = score(&s[a + 1..], encoding)?;
    let len = a + 1 + b;
    let both_whole = white != 1 && black != 1;
    (!both_whole && is_result_end(s, len)).then_some(len)
}

/// Evaluation marks and glyph runs written as a word of their own: `=`, `+=`, `=+`, `+/-`,
/// `-+`, `±`, `∓`, `∞`, `=/∞`, `‼`… (never `--`, the null move).
pub(super) fn evaluation_len(s: &[u8], encoding: Encoding) -> Option<usize> {
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

/// A move number `12.` or `12...` followed by a space or a move (not `12. ...`, nor
/// anything [`digit_token`] reads otherwise).
#[inline(always)]
pub(super) fn move_number_fast(s: &[u8]) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::FAST_PATH_INPUTS;
    use proptest::prelude::*;

    /// Scoresheet results, and words that are none.
    #[test]
    fn scoresheet_results() {
        let cases: &[(&[u8], Option<usize>)] = &[
            ("½-½".as_bytes(), Some(5)),
            (b"\xBD-\xBD", Some(3)),
            ("½-0".as_bytes(), Some(4)),
            ("0-½".as_bytes(), Some(4)),
            (b"1/2-0", Some(5)),
            (b"0-1/2", Some(5)),
            (b"0.5-0.5", Some(7)),
            (b"1/2-1/2 ", Some(7)),
            (b"0-1/2x", None),
            (b"0-0", None),
            (b"1-1", None),
            (b"1-0", None),
            (b"0.5", None),
            (b"1/2", None),
            (b"0-1/2-1", None),
        ];
        for &(text, expected) in cases {
            let encoding = if text.is_ascii() || std::str::from_utf8(text).is_ok() {
                Encoding::Auto
            } else {
                Encoding::Windows1252
            };
            assert_eq!(
                scoresheet_result_len(text, encoding),
                expected,
                "{}",
                String::from_utf8_lossy(text)
            );
        }
    }

    /// The results reach the token stream as results; `0.5-0.5` is no move number.
    #[test]
    fn scoresheet_results_are_result_tokens() {
        for text in ["0.5-0.5", "1/2-0", "0-1/2", "1/2-1/2"] {
            assert_eq!(
                digit_token(text.as_bytes(), Encoding::Auto),
                (TokenKind::Result, text.len()),
                "{text}"
            );
        }
        assert_eq!(digit_token(b"0-0", Encoding::Auto).0, TokenKind::San);
    }

    /// ICCF numbers are moves; numbers that cannot be one stay move numbers.
    #[test]
    fn iccf_numbers_are_moves() {
        for (text, len) in [("5254 ", 4), ("57581 ", 5), ("7163+ ", 5), ("5171)", 4)] {
            assert_eq!(
                digit_token(text.as_bytes(), Encoding::Auto),
                (TokenKind::San, len),
                "{text}"
            );
        }
        for text in ["5254. ", "5294 ", "57585 ", "525 ", "525412 ", "1234. "] {
            assert_ne!(
                digit_token(text.as_bytes(), Encoding::Auto).0,
                TokenKind::San,
                "{text}"
            );
        }
    }

    proptest! {
        /// The fast path accepts only what the full scanner accepts, with the same length.
        #[test]
        fn move_number_fast_agrees_with_digit_token(s in FAST_PATH_INPUTS) {
            let bytes = s.as_bytes();
            if let Some(len) = move_number_fast(bytes) {
                prop_assert_eq!(digit_token(bytes, Encoding::Auto), (TokenKind::MoveNumber, len));
            }
        }
    }
}
