//! The notation languages and their piece letters.

use crate::types::Role;
use std::fmt;
use std::str::FromStr;

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

/// Writes the language's code, as [`Lang::code`] gives it and [`FromStr`] reads it.
impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Reads a language code as [`Lang::code`] writes it (`en`, `es`, … `figurine`).
impl FromStr for Lang {
    type Err = ParseLangError;

    fn from_str(code: &str) -> Result<Lang, ParseLangError> {
        Lang::ALL
            .into_iter()
            .find(|l| l.code() == code)
            .ok_or_else(|| ParseLangError(code.to_string()))
    }
}

/// A language code that names no [`Lang`]; it displays as the command line reports it
/// (`unknown language 'xx' (en, es, it, pt, fr, de, nl, figurine)`). `auto`, which the
/// binary's `--lang` also accepts, is no language and is refused here too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLangError(String);

impl fmt::Display for ParseLangError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown language '{}' (en, es, it, pt, fr, de, nl, figurine)",
            self.0
        )
    }
}

impl std::error::Error for ParseLangError {}

/// The figurine glyphs are U+2654..U+265F: bytes E2 99 94..9F.
pub(super) fn figurine_role(s: &[u8]) -> Option<Role> {
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
