//! Move shapes: SAN (a fast path for the common shapes and the full scanner), castling,
//! figurines, promotions, check marks and en-passant marks. The lexer knows no language:
//! it only decides where a move ends.

use super::classes::{CLASS, MOVE_START, is_delimiter_byte, is_mark_char, is_token_end};
use crate::encoding::{Encoding, char_at, is_unicode_space, utf8_char};

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
pub(super) fn castling_len(s: &[u8], encoding: Encoding) -> Option<usize> {
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
/// the piece letters of the languages in docs/notation.md past `h`, but `o` (castling)
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
pub(super) fn san_suffix(s: &[u8], mut i: usize, encoding: Encoding) -> Option<usize> {
    let mut marks = 0;
    while marks < 2 && matches!(s.get(i), Some(b'+' | b'#')) {
        i += 1;
        marks += 1;
    }
    is_token_end(s, i, encoding).then_some(i)
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
/// accepts a superset with the same lengths. The body is measured without a loop: the
/// bytes of an 8-byte window classified at once, then a count of trailing ones.
///
/// `s` starts with a file letter or a piece letter (a [`MOVE_START`] byte), as the
/// callers have checked: the first byte then always belongs to the move's body.
#[inline(always)]
pub(super) fn san_fast(s: &[u8]) -> Option<usize> {
    let window: &[u8; 8] = s.first_chunk()?;
    debug_assert!(CLASS[window[0] as usize] & MOVE_START != 0);
    let mask = move_body_mask(window) | 1;
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

/// Castling as it is mostly written, `O-O` or `O-O-O` with `+`, `#` or `++`, followed by
/// an ASCII delimiter; every other form is left to [`san_len`], which reads these with
/// the same lengths.
#[inline(always)]
pub(super) fn castling_fast(s: &[u8]) -> Option<usize> {
    let mut end = if s.starts_with(b"O-O-O") {
        5
    } else if s.starts_with(b"O-O") {
        3
    } else {
        return None;
    };
    if matches!(s.get(end), Some(b'+' | b'#')) {
        end += 1;
        if matches!(s.get(end), Some(b'+' | b'#')) {
            end += 1;
        }
    }
    is_delimiter_byte(*s.get(end)?).then_some(end)
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

/// The pieces of the descriptive notations (English K Q R B N P, `Kt`; Spanish R D T A C
/// P), which a descriptive move's words are made of.
fn is_descriptive_letter(b: u8) -> bool {
    matches!(
        b,
        b'K' | b'Q' | b'R' | b'B' | b'N' | b'P' | b'T' | b'C' | b'A' | b'D'
    )
}

/// The length of a move in descriptive notation at the start of `s`, English (`P-K4`,
/// `N-KB3`, `PxP`, `KtxB`, `R(1)-Q1`, `QxN(KB2)`, `P-K8=Q`, `P-Q4ch`) or Spanish (`P4R`,
/// `C3AR`, `PAxP`, `C(4R)6D`, `P8R=D`), check marks included; tried when [`san_len`]
/// reads no move there, so that a SAN move is never read as one. Only the shape is
/// checked: what the move means, the core's descriptive reader decides. It must name a
/// square (a rank digit) or a capture (`x`).
pub(crate) fn descriptive_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    // Castling as some English books print it.
    if (s.starts_with(b"Castles") || s.starts_with(b"castles")) && is_token_end(s, 7, encoding) {
        return Some(7);
    }
    if !s.first().copied().is_some_and(is_descriptive_letter) {
        return None;
    }
    let mut i = 0;
    let (mut square, mut capture) = (false, false);
    while let Some(&b) = s.get(i) {
        match b {
            b if is_descriptive_letter(b) => i += 1,
            b't' if i > 0 && s[i - 1] == b'K' => i += 1,
            b'1'..=b'8' => {
                square = true;
                i += 1;
            }
            b'x' | b':' => {
                capture = true;
                i += 1;
            }
            // `×` for a capture (UTF-8, or Windows-1252 byte 0xD7).
            0x80..=0xFF => match char_at(&s[i..], encoding) {
                Some(('×', len)) => {
                    capture = true;
                    i += len;
                }
                _ => break,
            },
            b'-' | b'/' | b'=' if i > 0 => i += 1,
            // A qualifier or a promotion piece in parentheses: `N(4)`, `R(QR1)`,
            // `(4AD)`, `(Q)`.
            b'(' => {
                let inner = s[i + 1..]
                    .iter()
                    .take(6)
                    .take_while(|&&c| is_descriptive_letter(c) || matches!(c, b'1'..=b'8' | b't'))
                    .count();
                if inner == 0 || s.get(i + 1 + inner) != Some(&b')') {
                    break;
                }
                i += inner + 2;
            }
            _ => break,
        }
        if i > 20 {
            return None;
        }
    }
    if !(square || capture) || matches!(s[i - 1], b'-' | b'/' | b'=' | b'x' | b':' | 0x97 | 0xd7) {
        return None;
    }
    // Check glued as English books write it: `P-Q4ch`.
    if s[i..].starts_with(b"ch") && is_token_end(s, i + 2, encoding) {
        return Some(i + 2);
    }
    san_suffix(s, i, encoding)
}

/// A check or mate mark written as a word after a move, as English descriptive books
/// write it: `ch`, `mate`, `dis ch`, `dbl ch`.
pub(crate) fn check_word_len(s: &[u8], encoding: Encoding) -> Option<usize> {
    [&b"dis ch"[..], b"dbl ch", b"ch", b"mate"]
        .into_iter()
        .find(|w| s.starts_with(w) && is_token_end(s, w.len(), encoding))
        .map(<[u8]>::len)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::FAST_PATH_INPUTS;
    use proptest::prelude::*;

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

    /// Descriptive moves are read whole, their check marks included, and only where SAN
    /// reads nothing; words that are no move are left alone.
    #[test]
    fn descriptive_moves_are_one_token() {
        for (text, len) in [
            ("P-K4 ", 4),
            ("N-KB3 ", 5),
            ("Kt-KB3 ", 6),
            ("PxP e.p.", 3),
            ("QxN(KB2) ", 8),
            ("R(QR1)-N1 ", 9),
            ("N(4)-N5 ", 7),
            ("P-K8=Q ch", 6),
            ("P-K8(Q) ", 7),
            ("P-Q4ch ", 6),
            ("B-N5+ ", 5),
            ("P4R ", 3),
            ("C3AR ", 4),
            ("C(4R)6D ", 7),
            ("CxP(4AD) ", 8),
            ("P8R=D++ ", 7),
            ("Castles ", 7),
            ("R-Q1)", 4),
            ("P×P ", 4),
            ("C×A+ ", 5),
        ] {
            assert_eq!(
                descriptive_len(text.as_bytes(), Encoding::Auto),
                Some(len),
                "{text}"
            );
        }
        for text in ["Pxx ", "RR ", "P- ", "Kt ", "DRAW ", "N(4 ", "Pe4x "] {
            assert_eq!(
                descriptive_len(text.as_bytes(), Encoding::Auto),
                None,
                "{text}"
            );
        }
        for (text, len) in [("ch ", 2), ("mate)", 4), ("dis ch ", 6), ("dbl ch", 6)] {
            assert_eq!(check_word_len(text.as_bytes(), Encoding::Auto), Some(len));
        }
        for text in ["chess", "mated", "dis"] {
            assert_eq!(
                check_word_len(text.as_bytes(), Encoding::Auto),
                None,
                "{text}"
            );
        }
    }

    proptest! {
        /// The fast path accepts only what the full scanner accepts, with the same length.
        #[test]
        fn san_fast_agrees_with_san_len(s in FAST_PATH_INPUTS) {
            let bytes = s.as_bytes();
            let starts_a_move = bytes.first().is_some_and(|&b| CLASS[b as usize] & MOVE_START != 0);
            if starts_a_move && let Some(len) = san_fast(bytes) {
                prop_assert_eq!(san_len(bytes, Encoding::Auto), Some(len));
            }
        }

        /// So does the fast path for castling.
        #[test]
        fn castling_fast_agrees_with_san_len(s in "(O-O|O-O-O)[+#]{0,3}[ O0o+#=.()!?a-h1-8\\-]{0,3}") {
            let bytes = s.as_bytes();
            if let Some(len) = castling_fast(bytes) {
                prop_assert_eq!(san_len(bytes, Encoding::Auto), Some(len));
            }
        }
    }
}
