//! Standard Algebraic Notation in every language planilla reads.
//!
//! [`San::parse`] reads a move as real records write it, with the piece
//! letters of one [`Lang`]: `Nf3`, Spanish `Cf3`, `0-0`, `e8Q`, `e8=Q`,
//! `e8(Q)`, `exd6 e.p.`/`a.p.`, `+`, `#`, `++`, glyphs such as `!?`, long
//! algebraic `Ng1-f3`/`e2xd3`, UCI-like `e2e4`, and null moves `--`/`Z0`.
//! [`San::resolve`] finds the legal move it names, or says precisely why
//! there is none, without generating every legal move. [`San::notation`]
//! tells how the written form differs from canonical SAN, and
//! [`SanPlus::from_move`] writes canonical SAN in any language.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::position::{CastlingError, Move, MoveKind, MoveList, Position};
use crate::types::{CastlingSide, Color, File, Rank, Role, Square};
use std::fmt;

/// A notation language: which letters name the pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English, the PGN export standard: K Q R B N (P).
    En,
    /// Spanish: R D T A C (P).
    Es,
    /// Italian: R D T A C (P).
    It,
    /// Portuguese: R D T B C (P).
    Pt,
    /// French: R D T F C (P).
    Fr,
    /// German: K D T L S (B).
    De,
    /// Dutch: K D T L P (no pawn letter).
    Nl,
    /// Figurines ♔♕♖♗♘♙, either colour's glyph for either side.
    Figurine,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 8] = [
        Lang::En,
        Lang::Es,
        Lang::It,
        Lang::Pt,
        Lang::Fr,
        Lang::De,
        Lang::Nl,
        Lang::Figurine,
    ];

    /// The code used on the command line (`en`, `es`, … `figurine`).
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
            Lang::It => "it",
            Lang::Pt => "pt",
            Lang::Fr => "fr",
            Lang::De => "de",
            Lang::Nl => "nl",
            Lang::Figurine => "figurine",
        }
    }

    /// The language's name in English.
    pub const fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Es => "Spanish",
            Lang::It => "Italian",
            Lang::Pt => "Portuguese",
            Lang::Fr => "French",
            Lang::De => "German",
            Lang::Nl => "Dutch",
            Lang::Figurine => "figurine",
        }
    }

    /// Reads a code as [`Lang::code`] writes it.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The letter (or glyph) that names `role`; `None` for a pawn in Dutch.
    pub const fn letter(self, role: Role) -> Option<&'static str> {
        let letters: [&str; 6] = match self {
            // Pawn, knight, bishop, rook, queen, king.
            Lang::En => ["P", "N", "B", "R", "Q", "K"],
            Lang::Es | Lang::It => ["P", "C", "A", "T", "D", "R"],
            Lang::Pt => ["P", "C", "B", "T", "D", "R"],
            Lang::Fr => ["P", "C", "F", "T", "D", "R"],
            Lang::De => ["B", "S", "L", "T", "D", "K"],
            Lang::Nl => ["", "P", "L", "T", "D", "K"],
            Lang::Figurine => ["♙", "♘", "♗", "♖", "♕", "♔"],
        };
        let s = letters[role.index()];
        if s.is_empty() { None } else { Some(s) }
    }

    /// The role named by the upper-case ASCII letter `c`, if the language has it.
    #[inline]
    pub fn role_of_letter(self, c: u8) -> Option<Role> {
        if !c.is_ascii_uppercase() {
            return None;
        }
        match LETTER_TABLES[self as usize][(c - b'A') as usize] {
            0 => None,
            r => Some(Role::ALL[r as usize - 1]),
        }
    }

    /// Whether an ASCII letter names a piece in this language.
    pub fn has_letter(self, c: u8) -> bool {
        self.role_of_letter(c).is_some()
    }
}

/// For each language, the role (index + 1) named by each capital letter A..Z,
/// 0 for none; built from [`Lang::letter`] at compile time.
static LETTER_TABLES: [[u8; 26]; 8] = {
    let mut tables = [[0u8; 26]; 8];
    let mut l = 0;
    while l < 8 {
        let lang = Lang::ALL[l];
        let mut r = 0;
        while r < 6 {
            if let Some(letter) = lang.letter(Role::ALL[r]) {
                let b = letter.as_bytes();
                if b.len() == 1 && b[0].is_ascii_uppercase() {
                    tables[l][(b[0] - b'A') as usize] = r as u8 + 1;
                }
            }
            r += 1;
        }
        l += 1;
    }
    tables
};

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The figurine glyphs are U+2654..U+265F: bytes E2 99 94..9F.
fn figurine_role(s: &[u8]) -> Option<Role> {
    match s {
        [0xe2, 0x99, b, ..] if (0x94..=0x9f).contains(b) => Some(match (b - 0x94) % 6 {
            0 => Role::King,
            1 => Role::Queen,
            2 => Role::Rook,
            3 => Role::Bishop,
            4 => Role::Knight,
            _ => Role::Pawn,
        }),
        _ => None,
    }
}

/// A check or mate mark as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Mate,
    /// `++`: mate in older and Spanish texts (sometimes double check).
    DoublePlus,
}

/// The move a SAN names, before it is resolved against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SanKind {
    /// A piece or pawn move.
    Normal {
        /// The moving piece (a pawn when no letter is written).
        role: Role,
        /// The departure file, when written.
        file: Option<File>,
        /// The departure rank, when written.
        rank: Option<Rank>,
        /// Whether a capture mark (`x`, `:`) is written.
        capture: bool,
        /// The destination.
        to: Square,
        /// The promotion piece, when written.
        promotion: Option<Role>,
    },
    /// Castling.
    Castle(CastlingSide),
    /// A null move (`--`, `Z0`, `0000`): the side passes.
    Null,
}

/// Written forms that PGN export would write differently (each is a bit).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Forms(u16);

macro_rules! forms {
    ($($(#[$doc:meta])* $name:ident = $bit:expr, $text:expr;)*) => {
        impl Forms {
            $($(#[$doc])* pub const $name: Forms = Forms(1 << $bit);)*

            /// Short descriptions of the forms present, in a fixed order.
            pub fn descriptions(self) -> impl Iterator<Item = &'static str> {
                [$((Forms::$name, $text)),*]
                    .into_iter()
                    .filter(move |(f, _)| self.contains(*f))
                    .map(|(_, t)| t)
            }
        }
    };
}

forms! {
    /// Castling written with digit zeros: `0-0`.
    CASTLE_ZEROS = 0, "castling written with zeros";
    /// Castling written otherwise unusually: `o-o`, en or em dash, no dashes.
    CASTLE_OTHER = 1, "castling not written O-O";
    /// Promotion without `=`: `e8Q`, Spanish `d8D`.
    PROMOTION_BARE = 2, "promotion without '='";
    /// Promotion in parentheses or after a slash: `e8(Q)`, `e8/Q`.
    PROMOTION_OTHER = 3, "promotion in parentheses or after a slash";
    /// An en-passant mark: `e.p.` or Spanish `a.p.`.
    EN_PASSANT_MARK = 4, "en-passant mark";
    /// A piece letter in lower case.
    LOWERCASE_PIECE = 5, "lower-case piece letter";
    /// Long algebraic: the departure square always written (`Ng1-f3`, `e2e4`).
    LONG_ALGEBRAIC = 6, "long algebraic notation";
    /// A pawn letter written (`Pe4`).
    PAWN_LETTER = 7, "pawn letter";
    /// Capture written with `:` or `×`.
    CAPTURE_OTHER = 8, "capture not written 'x'";
    /// A null move.
    NULL_MOVE = 9, "null move";
}

impl Forms {
    /// No unusual form.
    pub const NONE: Forms = Forms(0);

    /// Whether every form in `other` is present.
    #[inline]
    pub const fn contains(self, other: Forms) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// Whether no form is present.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The forms of `self` that are not in `other`.
    #[inline]
    pub const fn without(self, other: Forms) -> Forms {
        Forms(self.0 & !other.0)
    }
}

impl std::ops::BitOr for Forms {
    type Output = Forms;
    fn bitor(self, rhs: Forms) -> Forms {
        Forms(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Forms {
    fn bitor_assign(&mut self, rhs: Forms) {
        self.0 |= rhs.0;
    }
}

/// A move as written: what it names, its check mark, and its unusual forms.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct San {
    /// What the move names.
    pub kind: SanKind,
    /// The check or mate mark as written.
    pub suffix: Option<Suffix>,
    /// Forms PGN export would write differently.
    pub forms: Forms,
}

/// Why a token is not a SAN move in the given language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanParseError {
    /// What is wrong, in lower case.
    pub reason: &'static str,
}

impl fmt::Display for SanParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason)
    }
}

impl std::error::Error for SanParseError {}

fn parse_err(reason: &'static str) -> SanParseError {
    SanParseError { reason }
}

/// Strips ASCII whitespace, NO-BREAK SPACE (UTF-8 and Latin-1) and other
/// common Unicode spaces from the end.
fn trim_end_spaces(mut s: &[u8]) -> &[u8] {
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
    pub fn parse(bytes: &[u8], lang: Lang) -> Result<San, SanParseError> {
        match parse_plain(bytes, lang) {
            Some(san) => Ok(san),
            None => parse_general(bytes, lang),
        }
    }
}

/// [`San::parse`] without the fast path for the common shapes (which must read
/// them the same way: a test compares the two).
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
        return Err(parse_err("empty move"));
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
                None => return Err(parse_err("not a piece letter in this language")),
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
        promotion = Some(promo_letter(*c, &mut forms).ok_or(parse_err("bad promotion piece"))?);
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
            promotion = Some(promo_letter(*c, &mut forms).ok_or(parse_err("bad promotion piece"))?);
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
        return Err(parse_err("no destination square"));
    };
    let to = Square::from_coords(
        File::from_char(*f).ok_or(parse_err("no destination square"))?,
        Rank::from_char(*r).ok_or(parse_err("no destination square"))?,
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
            Some(File::from_char(*f).ok_or(parse_err("bad departure square"))?),
            Some(Rank::from_char(*r).ok_or(parse_err("bad departure square"))?),
        ),
        _ => return Err(parse_err("unexpected characters in move")),
    };
    if dash && (file.is_none() || rank.is_none()) {
        return Err(parse_err("'-' must follow a departure square"));
    }
    if file.is_some() && rank.is_some() && (dash || role.is_none()) {
        forms |= Forms::LONG_ALGEBRAIC;
    }
    let role = role.unwrap_or(Role::Pawn);
    if role != Role::Pawn && promotion.is_some() {
        return Err(parse_err("only a pawn can promote"));
    }
    if promotion == Some(Role::King) || promotion == Some(Role::Pawn) {
        return Err(parse_err("cannot promote to a king or pawn"));
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

impl San {
    /// The plain shapes nearly every move has (`Nf3`, `exd5`, `Qh4xe1+`,
    /// `e8=Q#`), read quickly; `None` for anything else, which
    /// [`San::parse`] reads (and for these shapes gives the same result).
    /// The small return value comes back in registers, which matters in a
    /// loop over millions of moves.
    #[inline]
    pub fn parse_plain(bytes: &[u8], lang: Lang) -> Option<San> {
        parse_plain(bytes, lang)
    }

    /// The legal move in the common case (one piece of the written kind can
    /// make an ordinary move to the square), without generating moves;
    /// `None` when [`San::resolve`] must decide (and explain a failure).
    #[inline]
    pub fn resolve_quick(&self, pos: &Position) -> Option<Move> {
        match self.kind {
            SanKind::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                capture,
            } if !self.forms.contains(Forms::LONG_ALGEBRAIC) => {
                let from = from_mask(role, file, rank, capture, to);
                resolve_direct(pos, role, from, to, promotion)
            }
            _ => None,
        }
    }

    /// Whether this is a null move.
    pub fn is_null(&self) -> bool {
        matches!(self.kind, SanKind::Null)
    }
}

/// The shapes nearly every move has, read without the general machinery:
/// `[piece][file][rank][x]square[=piece][+|#|++]` in ASCII, piece letters
/// in upper case. Anything else (castling, glyphs, en-passant marks,
/// long algebraic, figurines, lower-case letters) returns `None` and goes
/// through the general parser, which gives the same result for these shapes.
#[inline]
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
    // Castling in ASCII (`O-O`, `0-0-0`): the same reading as the general parser's,
    // which is the one that handles dashes outside ASCII.
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

fn parse_castling(s: &[u8]) -> Option<(CastlingSide, Forms)> {
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

/// Why a written move is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The side to move has no piece of that kind.
    NoPiece(Role),
    /// No piece of that kind (matching the written departure file or rank)
    /// can reach the square.
    NoPieceReaches(Role, Square),
    /// The destination holds a piece of the side to move.
    OwnPieceOnTarget(Square),
    /// A pawn capture to an empty square (and not en passant).
    NothingToCapture(Square),
    /// The move would leave the king in check (a pinned piece moving off
    /// its line).
    LeavesKingInCheck,
    /// The king would move onto an attacked square.
    KingIntoCheck(Square),
    /// The king is in check and the move does not answer it.
    DoesNotAnswerCheck,
    /// Castling is not legal now.
    Castling(CastlingError),
    /// A pawn reaching the last rank without a promotion piece.
    MissingPromotion,
    /// A promotion piece on a move that does not reach the last rank.
    NotAPromotion,
    /// A null move while in check.
    NullMoveInCheck,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::NoPiece(role) => {
                write!(f, "no {} of the side to move on the board", role.name())
            }
            IllegalReason::NoPieceReaches(role, sq) => {
                write!(f, "no {} can reach {sq}", role.name())
            }
            IllegalReason::OwnPieceOnTarget(sq) => {
                write!(f, "{sq} is occupied by a piece of the side to move")
            }
            IllegalReason::NothingToCapture(sq) => write!(f, "nothing to capture on {sq}"),
            IllegalReason::LeavesKingInCheck => {
                f.write_str("the move would leave the king in check")
            }
            IllegalReason::KingIntoCheck(sq) => write!(f, "the king would move into check on {sq}"),
            IllegalReason::DoesNotAnswerCheck => {
                f.write_str("the king is in check and the move does not answer it")
            }
            IllegalReason::Castling(e) => e.fmt(f),
            IllegalReason::MissingPromotion => {
                f.write_str("a pawn reaching the last rank must promote")
            }
            IllegalReason::NotAPromotion => {
                f.write_str("only a pawn reaching the last rank can promote")
            }
            IllegalReason::NullMoveInCheck => f.write_str("a null move while in check"),
        }
    }
}

/// Why a SAN does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// No legal move matches.
    Illegal(IllegalReason),
    /// Two or more legal moves match (all listed).
    Ambiguous(Vec<Move>),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Illegal(r) => r.fmt(f),
            SanError::Ambiguous(c) => write!(f, "{} legal moves match", c.len()),
        }
    }
}

impl std::error::Error for SanError {}

/// Pieces of `role` and `color` whose moves reach `to` by geometry alone
/// (pins, checks and own pieces on `to` ignored).
fn reaching(pos: &Position, role: Role, to: Square, capture_hint: bool) -> Bitboard {
    let board = pos.board();
    let color = pos.turn();
    let ours = board.by_role(role) & board.by_color(color);
    let occ = board.occupied();
    match role {
        Role::Pawn => {
            let captures = pawn_attacks(color.other(), to) & ours;
            let pushes = if occ.contains(to) {
                Bitboard::EMPTY
            } else {
                pawn_pushers(color, to, ours, occ)
            };
            if capture_hint {
                captures
            } else {
                captures | pushes
            }
        }
        Role::Knight => knight_attacks(to) & ours,
        Role::Bishop => bishop_attacks(to, occ) & ours,
        Role::Rook => rook_attacks(to, occ) & ours,
        Role::Queen => (bishop_attacks(to, occ) | rook_attacks(to, occ)) & ours,
        Role::King => king_attacks(to) & ours,
    }
}

/// The squares a written move of `role` to `to` may depart from: the written file and
/// rank. A pawn move with neither a file nor a capture mark written is a push along the
/// file it lands on (`d5` never means `exd5`; `Pxd5` may).
fn from_mask(
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
) -> Bitboard {
    let file = match (role, file) {
        (Role::Pawn, None) if !capture => Some(to.file()),
        _ => file,
    };
    file.map_or(Bitboard::FULL, Bitboard::from_file)
        & rank.map_or(Bitboard::FULL, Bitboard::from_rank)
}

impl San {
    /// The legal move this SAN names in `pos`.
    ///
    /// Only moves of the written piece to the written square are generated.
    /// A capture mark is not required to match (a missing or spurious `x`
    /// is a notation finding, not an illegal move), nor is a check mark.
    ///
    /// # Errors
    ///
    /// [`SanError::Illegal`] with the reason, or [`SanError::Ambiguous`]
    /// with every matching move.
    pub fn resolve(&self, pos: &Position) -> Result<Move, SanError> {
        let mut list = MoveList::new();
        self.resolve_with(pos, &mut list)
    }

    /// Like [`San::resolve`], reusing a caller-owned move list.
    ///
    /// # Errors
    ///
    /// As [`San::resolve`].
    pub fn resolve_with(&self, pos: &Position, list: &mut MoveList) -> Result<Move, SanError> {
        match self.kind {
            SanKind::Null => Err(SanError::Illegal(if pos.is_check() {
                IllegalReason::NullMoveInCheck
            } else {
                IllegalReason::NoPiece(Role::King)
            })),
            SanKind::Castle(side) => pos
                .castling_obstacle(side)
                .map_err(|e| SanError::Illegal(IllegalReason::Castling(e))),
            SanKind::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let mut role = role;
                // UCI or long algebraic without a letter ("g1f3", "e1g1"):
                // the piece on the departure square decides.
                if role == Role::Pawn
                    && self.forms.contains(Forms::LONG_ALGEBRAIC)
                    && let (Some(f), Some(r)) = (file, rank)
                {
                    let from = Square::from_coords(f, r);
                    if pos.board().color_at(from) == Some(pos.turn()) {
                        role = pos.board().role_at(from).unwrap_or(Role::Pawn);
                    }
                }
                if role == Role::King
                    && let Some(m) = self.king_move_as_castling(pos, file, rank, to)
                {
                    return Ok(m);
                }
                let from = from_mask(role, file, rank, capture, to);
                if let Some(m) = resolve_direct(pos, role, from, to, promotion) {
                    return Ok(m);
                }
                pos.legal_moves_to(role, from, to, list);
                let last_rank = to.rank() == pos.turn().other().back_rank();
                if role == Role::Pawn && last_rank {
                    match promotion {
                        Some(p) => list.retain(|m| m.promotion() == Some(p)),
                        None if !list.is_empty() => {
                            return Err(SanError::Illegal(IllegalReason::MissingPromotion));
                        }
                        None => {}
                    }
                } else if promotion.is_some() {
                    return Err(SanError::Illegal(IllegalReason::NotAPromotion));
                }
                match list.len() {
                    1 => Ok(list[0]),
                    0 => Err(SanError::Illegal(diagnose(
                        pos, role, file, rank, capture, to,
                    ))),
                    _ => Err(SanError::Ambiguous(list.to_vec())),
                }
            }
        }
    }

    /// A king move written as its castling destination ("e1g1" in UCI, or
    /// the king taking its own rook as Chess960 UCI writes castling).
    fn king_move_as_castling(
        &self,
        pos: &Position,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
    ) -> Option<Move> {
        let (f, r) = (file?, rank?);
        let from = Square::from_coords(f, r);
        if from != pos.king() || to.rank() != from.rank() {
            return None;
        }
        for side in CastlingSide::ALL {
            if let Some(m) = pos.castle_if_legal(side) {
                let onto_rook = m.castling_rook() == Some(to);
                let two_steps =
                    m.to() == to && from.file().index().abs_diff(to.file().index()) == 2;
                if onto_rook || two_steps {
                    return Some(m);
                }
            }
        }
        None
    }

    /// How the written form differs from canonical SAN for the move `m`
    /// (which this SAN resolved to in `before`); `after` is the position
    /// after it, used for the check mark.
    pub fn notation(&self, before: &Position, m: &Move, after: &Position) -> Notation {
        let actual = if after.is_check() {
            if after.has_legal_moves() {
                Some(Suffix::Check)
            } else {
                Some(Suffix::Mate)
            }
        } else {
            None
        };
        self.notation_given(before, m, actual)
    }

    /// Whether the move is written as canonical SAN, decided without looking at the
    /// position when it plainly is (no departure square written for a piece, the
    /// right marks): `true` only where [`San::notation_given`] finds it canonical, so
    /// that a caller may skip it.
    #[inline]
    pub fn is_plainly_canonical(&self, m: &Move, actual: Option<Suffix>) -> bool {
        self.forms.is_empty()
            && self.suffix == actual
            && match self.kind {
                SanKind::Normal {
                    role,
                    file,
                    rank,
                    capture,
                    ..
                } => {
                    capture == m.is_capture()
                        && (role == Role::Pawn || (file.is_none() && rank.is_none()))
                }
                SanKind::Castle(_) | SanKind::Null => true,
            }
    }

    /// Like [`San::notation`], given the check mark the move deserves
    /// (`Some(Check)`, `Some(Mate)` or `None`) when the caller knows it.
    pub fn notation_given(&self, before: &Position, m: &Move, actual: Option<Suffix>) -> Notation {
        let mut notation = Notation {
            forms: self.forms,
            ..Notation::default()
        };
        notation.check = match (self.suffix, actual) {
            (None, None)
            | (Some(Suffix::Check), Some(Suffix::Check))
            | (Some(Suffix::Mate), Some(Suffix::Mate)) => CheckMark::Right,
            (Some(Suffix::DoublePlus), Some(Suffix::Mate)) => CheckMark::DoublePlusForMate,
            (None, Some(_)) => CheckMark::Missing,
            _ => CheckMark::Wrong,
        };
        if let SanKind::Normal {
            role,
            file,
            rank,
            capture,
            ..
        } = self.kind
        {
            if capture != m.is_capture() {
                notation.capture = if capture {
                    CaptureMark::Spurious
                } else {
                    CaptureMark::Missing
                };
            }
            if role != Role::Pawn && !self.forms.contains(Forms::LONG_ALGEBRAIC) {
                notation.disambiguation = disambiguation_verdict(before, m, file, rank);
            }
        }
        notation
    }
}

/// The common case without generating moves: exactly one piece of the
/// written kind (and departure file or rank) can legally go to `to` by an
/// ordinary move, or the king steps to a safe square. Anything else (castling,
/// en passant, promotions, no or several candidates, double check) returns
/// `None` and takes the general path, which also explains failures.
#[inline]
fn resolve_direct(
    pos: &Position,
    role: Role,
    from: Bitboard,
    to: Square,
    promotion: Option<Role>,
) -> Option<Move> {
    let board = pos.board();
    let color = pos.turn();
    if promotion.is_some() || board.by_color(color).contains(to) {
        return None;
    }
    let king = pos.king();
    if role == Role::King {
        // One king, one step, onto a square no enemy piece attacks once it has left.
        let occupied = board.occupied() ^ Bitboard::from_square(king);
        // While the king may castle, a king move can be castling written as one.
        let rights = pos.castling_rights() & Bitboard::from_rank(color.back_rank());
        if !from.contains(king)
            || rights.any()
            || !king_attacks(king).contains(to)
            || board.attackers(to, color.other(), occupied).any()
        {
            return None;
        }
        return Some(Move::normal(role, king, board.role_at(to), to, None));
    }
    let checkers = pos.checkers();
    if let Some(checker) = checkers.first()
        && (checkers.more_than_one()
            || !(crate::attacks::between(king, checker) | checker).contains(to))
    {
        return None;
    }
    let ours = board.by_role(role) & board.by_color(color) & from;
    let occupied = board.occupied();
    let candidates = match role {
        Role::Pawn => {
            if to.rank() == color.other().back_rank() {
                return None;
            }
            if occupied.contains(to) {
                pawn_attacks(color.other(), to) & ours
            } else {
                // Pushes only: a capture onto an empty square is en passant
                // or an error, both for the general path.
                pawn_pushers(color, to, ours, occupied)
            }
        }
        // What `reaching` finds, in place for the common pieces (measured: fewer
        // instructions than the call; queens measured better through it).
        Role::Knight => knight_attacks(to) & ours,
        Role::Bishop => bishop_attacks(to, occupied) & ours,
        Role::Rook => rook_attacks(to, occupied) & ours,
        _ => reaching(pos, role, to, false) & ours,
    };
    let legal = unpinned(pos, candidates, to);
    let from = legal.first()?;
    if legal.more_than_one() {
        return None;
    }
    Some(Move::normal(role, from, board.role_at(to), to, None))
}

/// The pawns of `pawns` that a push (one square, or two from the start) takes to the
/// empty square `to`.
#[inline]
fn pawn_pushers(color: Color, to: Square, pawns: Bitboard, occupied: Bitboard) -> Bitboard {
    let target = Bitboard::from_square(to);
    let back = |b: Bitboard| match color {
        Color::White => b.shift_down(),
        Color::Black => b.shift_up(),
    };
    let one = back(target);
    if (one & pawns).any() {
        return one & pawns;
    }
    if to.rank() == color.fourth_rank() && (one & occupied).is_empty() {
        return back(one) & pawns;
    }
    Bitboard::EMPTY
}

/// The pieces of `from` that a pin does not hold off a move to `to` (a pinned piece may
/// still move along the pin line).
#[inline]
fn unpinned(pos: &Position, from: Bitboard, to: Square) -> Bitboard {
    let pinned = pos.pinned();
    if (from & pinned).is_empty() {
        return from;
    }
    let king = pos.king();
    from.into_iter()
        .filter(|&f| !pinned.contains(f) || crate::attacks::line(king, f).contains(to))
        .fold(Bitboard::EMPTY, |acc, f| acc | f)
}

/// Finds why no legal move of `role` reaches `to`.
fn diagnose(
    pos: &Position,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
) -> IllegalReason {
    let board = pos.board();
    let ours = board.by_role(role) & board.by_color(pos.turn());
    if ours.is_empty() {
        return IllegalReason::NoPiece(role);
    }
    let pawn_capture = role == Role::Pawn && (capture || file.is_some_and(|f| f != to.file()));
    let reach = reaching(pos, role, to, pawn_capture) & from_mask(role, file, rank, capture, to);
    if reach.is_empty() {
        return IllegalReason::NoPieceReaches(role, to);
    }
    if board.by_color(pos.turn()).contains(to) {
        return IllegalReason::OwnPieceOnTarget(to);
    }
    if pawn_capture && !board.occupied().contains(to) && pos.ep_square() != Some(to) {
        return IllegalReason::NothingToCapture(to);
    }
    if role == Role::King {
        IllegalReason::KingIntoCheck(to)
    } else if pos.is_check() {
        IllegalReason::DoesNotAnswerCheck
    } else {
        IllegalReason::LeavesKingInCheck
    }
}

/// How a check mark compares with the position after the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum CheckMark {
    /// As canonical SAN writes it.
    #[default]
    Right,
    /// The move gives check or mate and no mark is written.
    Missing,
    /// A mark that does not match: `+` on mate, `#` on check, a mark on a
    /// quiet move, `++` on a plain check.
    Wrong,
    /// `++` written for mate (standard in Spanish records).
    DoublePlusForMate,
}

/// How a capture mark compares with the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum CaptureMark {
    /// As canonical SAN writes it.
    #[default]
    Right,
    /// A capture written without `x`.
    Missing,
    /// `x` written on a move that captures nothing.
    Spurious,
}

/// How written disambiguation compares with what the rules require.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Disambiguation {
    /// Exactly what is needed.
    #[default]
    Right,
    /// A file, rank or square that no other piece needed.
    Redundant,
    /// Needed only if a pinned piece is counted as able to move there.
    PinnedOnly,
    /// The rank used where the file would have done.
    NonPreferred,
}

/// How a written move differs from canonical SAN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Notation {
    /// Unusual written forms.
    pub forms: Forms,
    /// The check mark.
    pub check: CheckMark,
    /// The capture mark.
    pub capture: CaptureMark,
    /// The disambiguation.
    pub disambiguation: Disambiguation,
}

impl Notation {
    /// Whether the move is written exactly as canonical SAN.
    pub fn is_canonical(&self) -> bool {
        self.forms.is_empty()
            && self.check == CheckMark::Right
            && self.capture == CaptureMark::Right
            && self.disambiguation == Disambiguation::Right
    }
}

/// Which part of the departure square SAN needs to tell `from` apart from
/// the squares in `others`.
fn needed(from: Square, others: Bitboard) -> (bool, bool) {
    if others.is_empty() {
        (false, false)
    } else if (others & Bitboard::from_file(from.file())).is_empty() {
        (true, false)
    } else if (others & Bitboard::from_rank(from.rank())).is_empty() {
        (false, true)
    } else {
        (true, true)
    }
}

/// Other pieces of the mover's kind with a legal move to the same square.
fn legal_rivals(pos: &Position, m: &Move) -> Bitboard {
    if m.role() != Role::Pawn && !pos.is_check() {
        // Out of check a piece's move is legal unless a pin holds it off the line.
        let reach = reaching(pos, m.role(), m.to(), false) - Bitboard::from_square(m.from());
        return unpinned(pos, reach, m.to());
    }
    let mut list = MoveList::new();
    pos.legal_moves_to(m.role(), Bitboard::FULL, m.to(), &mut list);
    list.iter()
        .filter(|o| o.from() != m.from() && o.promotion() == m.promotion())
        .fold(Bitboard::EMPTY, |acc, o| acc | o.from())
}

fn disambiguation_verdict(
    pos: &Position,
    m: &Move,
    file: Option<File>,
    rank: Option<Rank>,
) -> Disambiguation {
    // Nothing written: resolution already proved nothing else was needed.
    if m.castling_side().is_some() || (file.is_none() && rank.is_none()) {
        return Disambiguation::Right;
    }
    let written = (file.is_some(), rank.is_some());
    let rivals = legal_rivals(pos, m);
    let need = needed(m.from(), rivals);
    if written == need {
        return Disambiguation::Right;
    }
    if written == (false, true)
        && need == (true, false)
        && (rivals & Bitboard::from_rank(m.from().rank())).is_empty()
    {
        return Disambiguation::NonPreferred;
    }
    // Counting pieces that reach the square but are pinned (or otherwise
    // could not legally go there), would the written form be needed?
    let pseudo = reaching(pos, m.role(), m.to(), false) - Bitboard::from_square(m.from());
    let need_pseudo = needed(m.from(), pseudo);
    if written == need_pseudo
        || (written.0 <= need_pseudo.0
            && written.1 <= need_pseudo.1
            && need_pseudo != (false, false))
    {
        return Disambiguation::PinnedOnly;
    }
    if written == (false, true) && need_pseudo == (true, false) {
        return Disambiguation::PinnedOnly;
    }
    Disambiguation::Redundant
}

/// A move in canonical SAN, with its check mark: what PGN export writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SanPlus {
    /// The move.
    pub san: San,
}

impl San {
    /// The canonical SAN of the legal move `m` in `pos`, without check mark.
    pub fn from_move(pos: &Position, m: &Move) -> San {
        let kind = match m.kind() {
            MoveKind::Castle(side) => SanKind::Castle(side),
            _ => {
                let (file, rank) = if m.role() == Role::Pawn {
                    (m.is_capture().then(|| m.from().file()), None)
                } else if m.role() == Role::King {
                    (None, None)
                } else {
                    let (f, r) = needed(m.from(), legal_rivals(pos, m));
                    (f.then(|| m.from().file()), r.then(|| m.from().rank()))
                };
                SanKind::Normal {
                    role: m.role(),
                    file,
                    rank,
                    capture: m.is_capture(),
                    to: m.to(),
                    promotion: m.promotion(),
                }
            }
        };
        San {
            kind,
            suffix: None,
            forms: Forms::NONE,
        }
    }

    /// Appends the move (with its suffix, if any) in `lang` to `out`.
    /// Promotions are written with `=` and castling as `O-O` in every
    /// language, as PGN export does.
    pub fn write(&self, lang: Lang, out: &mut String) {
        match self.kind {
            SanKind::Null => out.push_str("--"),
            SanKind::Castle(CastlingSide::KingSide) => out.push_str("O-O"),
            SanKind::Castle(CastlingSide::QueenSide) => out.push_str("O-O-O"),
            SanKind::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.push_str(lang.letter(role).unwrap_or("?"));
                }
                if let Some(f) = file {
                    out.push(f.char());
                }
                if let Some(r) = rank {
                    out.push(r.char());
                }
                if capture {
                    out.push('x');
                }
                out.push(to.file().char());
                out.push(to.rank().char());
                if let Some(p) = promotion {
                    out.push('=');
                    out.push_str(lang.letter(p).unwrap_or("?"));
                }
            }
        }
        match self.suffix {
            None => {}
            Some(Suffix::Check) => out.push('+'),
            Some(Suffix::Mate) => out.push('#'),
            Some(Suffix::DoublePlus) => out.push_str("++"),
        }
    }

    /// The move written in `lang`.
    pub fn to_string_in(&self, lang: Lang) -> String {
        let mut s = String::with_capacity(8);
        self.write(lang, &mut s);
        s
    }
}

impl SanPlus {
    /// The canonical SAN of the legal move `m` in `pos`, with `+` or `#`.
    pub fn from_move(pos: &Position, m: &Move) -> SanPlus {
        let mut san = San::from_move(pos, m);
        let after = pos.play(m);
        if after.is_check() {
            san.suffix = Some(if after.has_legal_moves() {
                Suffix::Check
            } else {
                Suffix::Mate
            });
        }
        SanPlus { san }
    }

    /// The move written in `lang`.
    pub fn to_string_in(&self, lang: Lang) -> String {
        self.san.to_string_in(lang)
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_in(Lang::En))
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.san.fmt(f)
    }
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
}
