//! Text encodings: the choice of the caller, per-piece decoding, and character helpers
//! shared by the tokenizer and the location code.

use std::borrow::Cow;

/// How the bytes of a file are decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 where valid, otherwise Windows-1252, decided piece by piece: the whole game
    /// when it is valid UTF-8, else each tag value, comment or token on its own.
    #[default]
    Auto,
    /// Forced UTF-8; invalid sequences decode to U+FFFD.
    Utf8,
    /// Forced Windows-1252 (also the reading of "Latin-1" files under `Auto`).
    Windows1252,
    /// Forced ISO-8859-1: every byte is the code point of the same value.
    Latin1,
}

impl Encoding {
    /// Parses the command-line spelling: `auto`, `utf-8`, `windows-1252` or `latin-1`
    /// (also `utf8`, `cp1252`, `iso-8859-1`; case-insensitive).
    pub fn from_name(name: &str) -> Option<Encoding> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(Encoding::Auto),
            "utf-8" | "utf8" => Some(Encoding::Utf8),
            "windows-1252" | "cp1252" | "win-1252" => Some(Encoding::Windows1252),
            "latin-1" | "latin1" | "iso-8859-1" => Some(Encoding::Latin1),
            _ => None,
        }
    }

    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Auto => "auto",
            Encoding::Utf8 => "utf-8",
            Encoding::Windows1252 => "windows-1252",
            Encoding::Latin1 => "latin-1",
        }
    }

    /// Whether every byte is one character (Windows-1252 or Latin-1 forced).
    pub(crate) fn single_byte(self) -> bool {
        matches!(self, Encoding::Windows1252 | Encoding::Latin1)
    }
}

/// How one piece of text (a tag value, a comment, a token) is decoded under `Auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceEncoding {
    /// Only ASCII bytes.
    Ascii,
    /// Valid UTF-8 with non-ASCII characters.
    Utf8,
    /// Not valid UTF-8, decoded as Windows-1252 (or as forced).
    SingleByte,
}

/// Classifies one piece of bytes.
pub fn classify(bytes: &[u8]) -> PieceEncoding {
    if bytes.is_ascii() {
        PieceEncoding::Ascii
    } else if std::str::from_utf8(bytes).is_ok() {
        PieceEncoding::Utf8
    } else {
        PieceEncoding::SingleByte
    }
}

/// Decodes a piece of text with the rule of `encoding` (see [`Encoding`]).
pub fn decode(bytes: &[u8], encoding: Encoding) -> Cow<'_, str> {
    match encoding {
        Encoding::Auto => match std::str::from_utf8(bytes) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => decode_1252(bytes),
        },
        Encoding::Utf8 => String::from_utf8_lossy(bytes),
        Encoding::Windows1252 => match bytes.is_ascii() {
            true => Cow::Borrowed(ascii_str(bytes)),
            false => decode_1252(bytes),
        },
        Encoding::Latin1 => match bytes.is_ascii() {
            true => Cow::Borrowed(ascii_str(bytes)),
            false => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
        },
    }
}

fn ascii_str(bytes: &[u8]) -> &str {
    // ASCII is always valid UTF-8; the fallback is never taken.
    std::str::from_utf8(bytes).unwrap_or_default()
}

fn decode_1252(bytes: &[u8]) -> Cow<'_, str> {
    let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
    text
}

/// Windows-1252 code point of a byte (0x80..=0x9F mapped as the code page does; the five
/// unassigned bytes map to the C1 control of the same value, as encoding_rs does).
pub(crate) fn cp1252_char(byte: u8) -> char {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}',
        '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}',
        '\u{178}',
    ];
    match byte {
        0x80..=0x9F => HIGH[(byte - 0x80) as usize],
        _ => byte as char,
    }
}

/// Decodes the valid UTF-8 character starting at `bytes[0]`, if there is one.
pub(crate) fn utf8_char(bytes: &[u8]) -> Option<(char, usize)> {
    let first = *bytes.first()?;
    let len = match first {
        0x00..=0x7F => return Some((first as char, 1)),
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let piece = bytes.get(..len)?;
    let text = std::str::from_utf8(piece).ok()?;
    text.chars().next().map(|c| (c, len))
}

/// The character at `bytes[0]` under `encoding` and the number of bytes it takes. Under
/// `Auto` a valid UTF-8 sequence is one character and any other byte is Windows-1252;
/// under forced UTF-8 an invalid byte is U+FFFD.
pub(crate) fn char_at(bytes: &[u8], encoding: Encoding) -> Option<(char, usize)> {
    let first = *bytes.first()?;
    if first < 0x80 {
        return Some((first as char, 1));
    }
    match encoding {
        Encoding::Auto => Some(utf8_char(bytes).unwrap_or((cp1252_char(first), 1))),
        Encoding::Utf8 => Some(utf8_char(bytes).unwrap_or(('\u{FFFD}', 1))),
        Encoding::Windows1252 => Some((cp1252_char(first), 1)),
        Encoding::Latin1 => Some((first as char, 1)),
    }
}

/// Counts the characters of `bytes` as [`char_at`] reads them.
pub(crate) fn count_chars(bytes: &[u8], encoding: Encoding) -> usize {
    if bytes.is_ascii() || encoding.single_byte() {
        return bytes.len();
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.chars().count();
    }
    let mut count = 0;
    let mut pos = 0;
    while let Some((_, len)) = char_at(&bytes[pos..], encoding) {
        pos += len;
        count += 1;
    }
    count
}

/// Unicode space characters that separate tokens (besides ASCII whitespace).
pub(crate) fn is_unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}
