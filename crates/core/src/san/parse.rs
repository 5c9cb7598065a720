//! Reading a move as written: the fast path for the plain shapes, the general parser
//! for every other form, and castling.

use super::lang::figurine_role;
use super::{Forms, Lang, San, SanKind, Suffix};
use crate::types::{CastlingSide, File, Rank, Role, Square};
use std::fmt;

/// Why a token is not a SAN move in the given language. A small `Copy` value, so that a
/// parse result comes back in registers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SanParseError {
    /// Nothing but marks and spaces.
    Empty,
    /// A capital letter that names no piece in the language.
    NotAPieceLetter,
    /// A promotion piece the language does not name.
    BadPromotionPiece,
    /// No file and rank where the destination square belongs.
    NoDestination,
    /// A departure file and rank that are no square.
    BadDeparture,
    /// Characters SAN has no place for.
    UnexpectedCharacters,
    /// A dash without the full departure square before it.
    DashWithoutDeparture,
    /// A promotion piece on a piece's move.
    OnlyPawnPromotes,
    /// Promotion to a king or a pawn.
    PromotesToKingOrPawn,
}

impl fmt::Display for SanParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SanParseError::Empty => "empty move",
            SanParseError::NotAPieceLetter => "not a piece letter in this language",
            SanParseError::BadPromotionPiece => "bad promotion piece",
            SanParseError::NoDestination => "no destination square",
            SanParseError::BadDeparture => "bad departure square",
            SanParseError::UnexpectedCharacters => "unexpected characters in move",
            SanParseError::DashWithoutDeparture => "'-' must follow a departure square",
            SanParseError::OnlyPawnPromotes => "only a pawn can promote",
            SanParseError::PromotesToKingOrPawn => "cannot promote to a king or pawn",
        })
    }
}

impl std::error::Error for SanParseError {}

/// Strips ASCII whitespace, NO-BREAK SPACE (UTF-8 and Latin-1) and other
/// common Unicode spaces from the end.
pub(super) fn trim_end_spaces(mut s: &[u8]) -> &[u8] {
    loop {
        s = match s {
            [rest @ .., 0xc2, 0xa0] => rest,
            [rest @ .., b' ' | b'\t' | b'\r' | b'\n' | 0xa0] => rest,
            // U+2000..U+200B and U+202F, U+3000 are E2 80 xx / E3 80 80.
            [rest @ .., 0xe2, 0x80, 0x80..=0x8b | 0xaf] => rest,
            _ => return s,
        }
    }
}

fn strip_suffix<'a>(s: &'a [u8], suffix: &[u8]) -> Option<&'a [u8]> {
    s.strip_suffix(suffix)
}

/// Removes an en-passant mark (`e.p.`, `a.p.`, `a. p.`, `ep`, with or
/// without the last dot) from the end.
fn strip_en_passant(s: &[u8]) -> Option<&[u8]> {
    // Every mark ends in '.' or 'p'.
    if !matches!(s.last(), Some(b'.' | b'p')) {
        return None;
    }
    for mark in [
        &b"e.p."[..],
        b"a.p.",
        b"e. p.",
        b"a. p.",
        // With a NO-BREAK SPACE (U+00A0, as decoded text holds it).
        b"e.\xc2\xa0p.",
        b"a.\xc2\xa0p.",
        b"e.p",
        b"a.p",
        b"ep",
    ] {
        if let Some(rest) = strip_suffix(s, mark) {
            // "ep" glued to a square would be ambiguous with nothing, but
            // only accept it after a rank digit or a space.
            if mark == b"ep" && !matches!(rest.last(), Some(b'1'..=b'8' | b' ')) {
                continue;
            }
            return Some(rest);
        }
    }
    None
}

impl San {
    /// Reads a move written with the piece letters of `lang`. Trailing check
    /// marks, annotation glyphs (`!`, `?`, `!?`, …) and en-passant marks are
    /// accepted and recorded.
    ///
    /// # Errors
    ///
    /// A [`SanParseError`] when the bytes are not a move in that language.
    #[inline(always)]
    pub fn parse(bytes: &[u8], lang: Lang) -> Result<San, SanParseError> {
        match parse_plain(bytes, lang) {
            Some(san) => Ok(san),
            None => parse_general(bytes, lang),
        }
    }

    /// [`San::parse`]'s fast path alone: the move when it has one of the plain shapes
    /// nearly every move has (`[piece][file][rank][x]square[=piece][+|#|++]`, piece
    /// letters in upper case), `None` for every other form. What it accepts is ASCII by
    /// its form and reads as [`San::parse`] reads it, so a caller may try it before
    /// asking whether the bytes are ASCII at all.
    #[inline(always)]
    pub fn parse_plain(bytes: &[u8], lang: Lang) -> Option<San> {
        parse_plain(bytes, lang)
    }
}

/// [`San::parse`] without the fast path for the common shapes (which must read
/// them the same way: a test compares the two). Kept out of line: the callers' loops
/// inline only the fast path.
#[inline(never)]
fn parse_general(bytes: &[u8], lang: Lang) -> Result<San, SanParseError> {
    // A figurine typed on a phone often carries a variation selector (U+FE0F emoji
    // style, U+FE0E text style): the same piece.
    if bytes
        .windows(3)
        .any(|w| matches!(w, [0xef, 0xb8, 0x8e | 0x8f]))
    {
        let mut plain = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if matches!(bytes[i..], [0xef, 0xb8, 0x8e | 0x8f, ..]) {
                i += 3;
            } else {
                plain.push(bytes[i]);
                i += 1;
            }
        }
        return parse_general(&plain, lang);
    }
    let mut s = trim_end_spaces(bytes);
    let mut suffix = None;
    let mut forms = Forms::NONE;
    // Peel marks off the end in any order: glyphs, check marks, e.p.
    loop {
        let before = s.len();
        while let [rest @ .., b'!' | b'?'] = s {
            s = rest;
        }
        if let Some(rest) = strip_suffix(s, b"++") {
            suffix = suffix.or(Some(Suffix::DoublePlus));
            s = rest;
        } else if let [rest @ .., b'+'] = s {
            suffix = suffix.or(Some(Suffix::Check));
            s = rest;
        } else if let [rest @ .., b'#'] = s {
            suffix = suffix.or(Some(Suffix::Mate));
            s = rest;
        }
        if let Some(rest) = strip_en_passant(s) {
            forms |= Forms::EN_PASSANT_MARK;
            s = rest;
        }
        s = trim_end_spaces(s);
        if s.len() == before {
            break;
        }
    }
    if s.is_empty() {
        return Err(SanParseError::Empty);
    }

    if let Some((side, form)) = parse_castling(s) {
        return Ok(San {
            kind: SanKind::Castle(side),
            suffix,
            forms: forms | form,
        });
    }
    if matches!(s, b"--" | b"Z0" | b"0000" | b"@@@@") {
        return Ok(San {
            kind: SanKind::Null,
            suffix,
            forms: forms | Forms::NULL_MOVE,
        });
    }

    // The piece letter or figurine.
    let (role, mut rest) = if let Some(role) = figurine_role(s) {
        (Some(role), &s[3..])
    } else {
        match s[0] {
            c @ b'A'..=b'Z' => match lang.role_of_letter(c) {
                Some(role) => (Some(role), &s[1..]),
                None => return Err(SanParseError::NotAPieceLetter),
            },
            c @ (b'i'..=b'z') if lang.has_letter(c.to_ascii_uppercase()) => {
                forms |= Forms::LOWERCASE_PIECE;
                (lang.role_of_letter(c.to_ascii_uppercase()), &s[1..])
            }
            _ => (None, s),
        }
    };
    if role == Some(Role::Pawn) {
        forms |= Forms::PAWN_LETTER;
    }

    // Promotion at the end: "=Q", "Q", "(Q)", "/Q", figurine, lower case.
    let mut promotion = None;
    let promo_letter = |c: u8, forms: &mut Forms| -> Option<Role> {
        if let Some(r) = lang.role_of_letter(c) {
            return Some(r);
        }
        let r = lang.role_of_letter(c.to_ascii_uppercase())?;
        *forms |= Forms::LOWERCASE_PIECE;
        Some(r)
    };
    if let [head @ .., b'(', c, b')'] = rest {
        promotion = Some(promo_letter(*c, &mut forms).ok_or(SanParseError::BadPromotionPiece)?);
        forms |= Forms::PROMOTION_OTHER;
        rest = head;
    } else if let [head @ .., b'(', a, b, c, b')'] = rest
        && let Some(role) = figurine_role(&[*a, *b, *c])
    {
        // A figurine in parentheses: `b8(♕)`.
        promotion = Some(role);
        forms |= Forms::PROMOTION_OTHER;
        rest = head;
    } else if rest.len() >= 4 && figurine_role(&rest[rest.len() - 3..]).is_some() {
        promotion = figurine_role(&rest[rest.len() - 3..]);
        rest = &rest[..rest.len() - 3];
        match rest {
            [head @ .., b'='] => rest = head,
            [head @ .., b'/'] => {
                forms |= Forms::PROMOTION_OTHER;
                rest = head;
            }
            _ => forms |= Forms::PROMOTION_BARE,
        }
    } else if let [head @ .., sep, c] = rest {
        // A letter after the destination's rank digit, '=' or '/'.
        if c.is_ascii_alphabetic() && (sep.is_ascii_digit() || matches!(sep, b'=' | b'/')) {
            promotion = Some(promo_letter(*c, &mut forms).ok_or(SanParseError::BadPromotionPiece)?);
            rest = match sep {
                b'=' => head,
                b'/' => {
                    forms |= Forms::PROMOTION_OTHER;
                    head
                }
                _ => {
                    forms |= Forms::PROMOTION_BARE;
                    &rest[..rest.len() - 1]
                }
            };
        }
    }

    // The destination square.
    let [head @ .., f, r] = rest else {
        return Err(SanParseError::NoDestination);
    };
    let to = Square::from_coords(
        File::from_char(*f).ok_or(SanParseError::NoDestination)?,
        Rank::from_char(*r).ok_or(SanParseError::NoDestination)?,
    );
    let mut head = head;
    let mut capture = false;
    let mut dash = false;
    match head {
        [h @ .., b'x' | b'X'] => {
            capture = true;
            head = h;
        }
        [h @ .., b':'] => {
            capture = true;
            forms |= Forms::CAPTURE_OTHER;
            head = h;
        }
        [h @ .., 0xc3, 0x97] => {
            capture = true;
            forms |= Forms::CAPTURE_OTHER;
            head = h;
        }
        [h @ .., b'-'] => {
            dash = true;
            head = h;
        }
        _ => {}
    }
    let (file, rank) = match head {
        [] => (None, None),
        [c] if (b'a'..=b'h').contains(c) => (File::from_char(*c), None),
        [c] if (b'1'..=b'8').contains(c) => (None, Rank::from_char(*c)),
        [f, r] => (
            Some(File::from_char(*f).ok_or(SanParseError::BadDeparture)?),
            Some(Rank::from_char(*r).ok_or(SanParseError::BadDeparture)?),
        ),
        _ => return Err(SanParseError::UnexpectedCharacters),
    };
    if dash && (file.is_none() || rank.is_none()) {
        return Err(SanParseError::DashWithoutDeparture);
    }
    if file.is_some() && rank.is_some() && (dash || role.is_none()) {
        forms |= Forms::LONG_ALGEBRAIC;
    }
    let role = role.unwrap_or(Role::Pawn);
    if role != Role::Pawn && promotion.is_some() {
        return Err(SanParseError::OnlyPawnPromotes);
    }
    if promotion == Some(Role::King) || promotion == Some(Role::Pawn) {
        return Err(SanParseError::PromotesToKingOrPawn);
    }
    Ok(San {
        kind: SanKind::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        },
        suffix,
        forms,
    })
}

/// The shapes nearly every move has, read without the general machinery:
/// `[piece][file][rank][x]square[=piece][+|#|++]` in ASCII, piece letters
/// in upper case. Anything else (castling, a move or two a game, glyphs, en-passant marks,
/// long algebraic, figurines, lower-case letters) returns `None` and goes
/// through the general parser, which gives the same result for these shapes.
#[inline(always)]
fn parse_plain(bytes: &[u8], lang: Lang) -> Option<San> {
    let mut s = bytes;
    let mut suffix = None;
    match s {
        [rest @ .., b'+', b'+'] => {
            suffix = Some(Suffix::DoublePlus);
            s = rest;
        }
        [rest @ .., b'+'] => {
            suffix = Some(Suffix::Check);
            s = rest;
        }
        [rest @ .., b'#'] => {
            suffix = Some(Suffix::Mate);
            s = rest;
        }
        _ => {}
    }
    let mut promotion = None;
    if let [rest @ .., b'=', p] = s {
        promotion = Some(
            lang.role_of_letter(*p)
                .filter(|r| !matches!(r, Role::King | Role::Pawn))?,
        );
        s = rest;
    }
    let (role, s) = match s {
        [c @ b'A'..=b'Z', rest @ ..] => {
            (lang.role_of_letter(*c).filter(|r| *r != Role::Pawn)?, rest)
        }
        _ => (Role::Pawn, s),
    };
    let [head @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] = s else {
        return None;
    };
    let to = Square::from_coords(File::from_char(*f)?, Rank::from_char(*r)?);
    let (capture, head) = match head {
        [h @ .., b'x'] => (true, h),
        _ => (false, head),
    };
    let (file, rank) = match head {
        [] => (None, None),
        [c @ b'a'..=b'h'] => (File::from_char(*c), None),
        [c @ b'1'..=b'8'] if role != Role::Pawn => (None, Rank::from_char(*c)),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] if role != Role::Pawn => {
            (File::from_char(*f), Rank::from_char(*r))
        }
        _ => return None,
    };
    if promotion.is_some() && role != Role::Pawn {
        return None;
    }
    Some(San {
        kind: SanKind::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        },
        suffix,
        forms: Forms::NONE,
    })
}

pub(super) fn parse_castling(s: &[u8]) -> Option<(CastlingSide, Forms)> {
    if !matches!(s.first(), Some(b'O' | b'o' | b'0')) || s.len() > 9 {
        return None;
    }
    // Normalise: O, o, 0 as the letter; '-', en dash (E2 80 93) or em dash
    // (E2 80 94) as separator. Text in another encoding is decoded before it
    // gets here: a Windows-1252 dash arrives as one of these.
    let mut letters = [0u8; 3];
    let mut count = 0;
    let mut dashes = 0;
    let mut other = false;
    let mut i = 0;
    while i < s.len() {
        let letter = match s[i] {
            b'O' => b'O',
            b'0' => b'0',
            b'o' => {
                other = true;
                b'O'
            }
            b'-' => {
                dashes += 1;
                i += 1;
                continue;
            }
            0xe2 if matches!(s.get(i + 1..i + 3), Some([0x80, 0x93 | 0x94])) => {
                dashes += 1;
                other = true;
                i += 3;
                continue;
            }
            _ => return None,
        };
        // A fourth letter is no castling.
        *letters.get_mut(count)? = letter;
        count += 1;
        i += 1;
    }
    let letters = &letters[..count];
    let side = match letters.len() {
        2 => CastlingSide::KingSide,
        3 => CastlingSide::QueenSide,
        _ => return None,
    };
    if dashes != 0 && dashes != letters.len() - 1 {
        return None;
    }
    if dashes == 0 {
        other = true;
    }
    let zeros = letters.iter().all(|&c| c == b'0');
    if !zeros && letters.contains(&b'0') {
        return None;
    }
    let mut forms = Forms::NONE;
    if zeros {
        forms |= Forms::CASTLE_ZEROS;
    }
    if other {
        forms |= Forms::CASTLE_OTHER;
    }
    Some((side, forms))
}

#[cfg(test)]
mod tests {
    use super::{Lang, parse_general, parse_plain};

    /// Every string over `alphabet` of length 1 to `max`.
    fn strings(alphabet: &[u8], max: usize, mut each: impl FnMut(&[u8])) {
        let mut s = Vec::new();
        fn go(s: &mut Vec<u8>, alphabet: &[u8], max: usize, each: &mut dyn FnMut(&[u8])) {
            if !s.is_empty() {
                each(s);
            }
            if s.len() == max {
                return;
            }
            for &c in alphabet {
                s.push(c);
                go(s, alphabet, max, each);
                s.pop();
            }
        }
        go(&mut s, alphabet, max, &mut each);
    }

    /// The fast path reads what it accepts exactly as the general parser does.
    fn agree(alphabet: &[u8], max: usize, langs: &[Lang]) -> usize {
        let mut accepted = 0;
        for &lang in langs {
            strings(alphabet, max, |s| {
                if let Some(plain) = parse_plain(s, lang) {
                    accepted += 1;
                    assert_eq!(
                        Ok(plain),
                        parse_general(s, lang),
                        "{:?} in {lang:?}",
                        String::from_utf8_lossy(s)
                    );
                }
            });
        }
        accepted
    }

    #[test]
    fn plain_moves_read_like_the_general_parser() {
        // Castling letters too: the fast path leaves castling to the general parser.
        let accepted = agree(b"aeh18x=+#NQKPRDTACO0-", 4, &[Lang::En, Lang::Es, Lang::De]);
        assert!(accepted > 1000, "{accepted}");
    }

    /// What the fast path accepts is ASCII: a caller tries it before looking at the bytes
    /// (a NO-BREAK SPACE, a Latin-1 or UTF-8 letter, a figurine's bytes: never a move here).
    #[test]
    fn plain_moves_are_ascii() {
        let mut accepted = 0;
        strings(b"eh8x=+N\xa0\xc2\xe2\x99\x98", 4, |s| {
            if parse_plain(s, Lang::En).is_some() {
                accepted += 1;
                assert!(s.is_ascii(), "{s:?}");
            }
        });
        assert!(accepted > 10, "{accepted}");
    }
}
