//! Text encodings: the choice of the caller, per-piece decoding, and character helpers
//! shared by the tokenizer and the location code.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// How the bytes of a file are decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 where valid, otherwise Windows-1252, decided character by character: every
    /// valid UTF-8 sequence is one character and every other byte is the Windows-1252
    /// character of that byte. A game that is valid UTF-8 reads as UTF-8, a Windows-1252
    /// file as Windows-1252, and a piece that mixes both (a tag value, a comment, even one
    /// token) reads each part as what it is. The tokenizer, [`decode`] and the column of
    /// a location all follow this one rule, so text decoded and written out again
    /// tokenizes as it was read.
    #[default]
    Auto,
    /// Forced UTF-8; every byte that is not part of a valid sequence decodes to U+FFFD.
    Utf8,
    /// Forced Windows-1252 (also the reading of "Latin-1" files under `Auto`).
    Windows1252,
    /// Forced ISO-8859-1: every byte is the code point of the same value.
    Latin1,
}

impl Encoding {
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
    pub fn single_byte(self) -> bool {
        matches!(self, Encoding::Windows1252 | Encoding::Latin1)
    }
}

/// Writes the command-line spelling, as [`Encoding::name`] gives it.
impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads the command-line spelling: `auto`, `utf-8`, `windows-1252` or `latin-1` (also
/// `utf8`, `cp1252`, `win-1252`, `latin1`, `iso-8859-1`; case-insensitive).
impl FromStr for Encoding {
    type Err = ParseEncodingError;

    fn from_str(name: &str) -> Result<Encoding, ParseEncodingError> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Ok(Encoding::Auto),
            "utf-8" | "utf8" => Ok(Encoding::Utf8),
            "windows-1252" | "cp1252" | "win-1252" => Ok(Encoding::Windows1252),
            "latin-1" | "latin1" | "iso-8859-1" => Ok(Encoding::Latin1),
            _ => Err(ParseEncodingError(name.to_string())),
        }
    }
}

/// An encoding name [`Encoding`] does not know; it displays as the command line reports
/// it (`unknown encoding 'x' (auto, utf-8, windows-1252, latin-1)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseEncodingError(String);

impl fmt::Display for ParseEncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown encoding '{}' (auto, utf-8, windows-1252, latin-1)",
            self.0
        )
    }
}

impl std::error::Error for ParseEncodingError {}

/// Decodes a piece of text with the rule of `encoding` (see [`Encoding`]): character by
/// character as the tokenizer reads them, so that the text agrees with the tokens.
pub fn decode(bytes: &[u8], encoding: Encoding) -> Cow<'_, str> {
    if bytes.is_ascii() {
        return Cow::Borrowed(ascii_str(bytes));
    }
    match encoding {
        Encoding::Auto | Encoding::Utf8 => match std::str::from_utf8(bytes) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => Cow::Owned(decode_mixed(bytes, encoding)),
        },
        Encoding::Windows1252 => decode_1252(bytes),
        Encoding::Latin1 => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// Text that is not valid UTF-8 under `Auto` or forced UTF-8: each valid sequence as
/// UTF-8, each other byte on its own (Windows-1252, or U+FFFD when UTF-8 is forced), as
/// [`char_at`] reads it. A byte left invalid by [`str::utf8_chunks`] is a lead or a
/// continuation byte, never the start of a valid sequence, so both agree.
fn decode_mixed(bytes: &[u8], encoding: Encoding) -> String {
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 2);
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for &byte in chunk.invalid() {
            text.push(match encoding {
                Encoding::Utf8 => '\u{FFFD}',
                _ => cp1252_char(byte),
            });
        }
    }
    text
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The characters `char_at` reads, one after another.
    fn chars_read(bytes: &[u8], encoding: Encoding) -> String {
        let mut text = String::new();
        let mut at = 0;
        while let Some((c, len)) = char_at(&bytes[at..], encoding) {
            text.push(c);
            at += len;
        }
        text
    }

    const ALL: [Encoding; 4] = [
        Encoding::Auto,
        Encoding::Utf8,
        Encoding::Windows1252,
        Encoding::Latin1,
    ];

    #[test]
    fn a_piece_mixing_utf8_and_windows_1252_reads_each_part_as_what_it_is() {
        // `±` in UTF-8, then `³` as the Windows-1252 byte: what the tokenizer reads.
        assert_eq!(decode(b"0\xc2\xb1\xb3", Encoding::Auto), "0±³");
        assert_eq!(
            decode(b"M\xfcller M\xc3\xbcller", Encoding::Auto),
            "Müller Müller"
        );
        assert_eq!(decode(b"O\x96O", Encoding::Auto), "O–O");
        assert_eq!(decode(b"\xe2\x82A", Encoding::Auto), "â‚A");
        assert_eq!(decode(b"\xe2\x82A", Encoding::Utf8), "\u{FFFD}\u{FFFD}A");
        assert_eq!(decode(b"Caf\xc3\xa9", Encoding::Windows1252), "CafÃ©");
        assert_eq!(count_chars(b"0\xc2\xb1\xb3", Encoding::Auto), 3);
    }

    proptest! {
        /// One rule: the decoded text is the characters the tokenizer reads, and it has
        /// as many characters as a column counts.
        #[test]
        fn decode_agrees_with_the_tokenizers_characters(
            bytes in proptest::collection::vec(
                prop_oneof![any::<u8>(), Just(0xc2u8), Just(0xe2), Just(0x80), Just(0xa0)],
                0..16,
            )
        ) {
            for encoding in ALL {
                let read = chars_read(&bytes, encoding);
                let decoded = decode(&bytes, encoding);
                prop_assert_eq!(decoded.as_ref(), read.as_str(), "{:?}", encoding);
                prop_assert_eq!(count_chars(&bytes, encoding), read.chars().count());
            }
        }
    }
}
