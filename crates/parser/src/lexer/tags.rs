//! Tag pairs: the fast path for `[Name "value"]`, the nom parser for every other form,
//! the lenient reading of unescaped quotes, tag-name hashes and escapes.

use super::classes::{CLASS, NAME, line_content_len};
use super::{Lexer, token};
use crate::token::{TagSpans, Token, TokenKind};
use nom::IResult;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char as byte_char, space0};
use std::borrow::Cow;
use std::collections::HashSet;

/// The (hashed) names of the tags seen in a tag section. A few are searched in a list;
/// a section with thousands of tags (hostile input) moves them to a set, so that each
/// tag line costs the same however many came before.
#[derive(Debug, Default)]
pub(super) struct TagNames {
    list: Vec<u64>,
    set: HashSet<u64>,
}

impl TagNames {
    const LIST_MAX: usize = 32;

    #[inline]
    pub(super) fn insert(&mut self, name: u64) {
        if self.list.len() < Self::LIST_MAX {
            self.list.push(name);
        } else {
            self.set.insert(name);
        }
    }

    pub(super) fn contains(&self, name: &u64) -> bool {
        self.list.contains(name) || (!self.set.is_empty() && self.set.contains(name))
    }

    /// Whether a name was seen twice among the first [`TagNames::LIST_MAX`] (the ones
    /// kept in order); only then are the tags compared by name.
    pub(super) fn any_repeated(&self) -> bool {
        let names = &self.list;
        (1..names.len()).any(|i| names[..i].contains(&names[i]))
    }

    pub(super) fn clear(&mut self) {
        self.list.clear();
        if !self.set.is_empty() {
            self.set.clear();
        }
    }
}

impl Lexer {
    /// Tokenizes the tag lines that follow a tag pair ending at `pos`, one `[Name "value"]`
    /// a line (after `\n` or `\r\n`), as the main loop would, with the bookkeeping of a
    /// tag line that can start no game; returns where the main loop goes on (the end of
    /// the last tag pair read). Called only in a tag section whose last line started
    /// with a well-formed tag pair and no blank line came before it: a tag line after it
    /// then never starts the next game.
    pub(super) fn tag_lines(
        &mut self,
        data: &[u8],
        mut pos: usize,
        limit: usize,
        newlines: &mut u64,
        tokens: &mut Vec<Token>,
        tags: &mut Vec<TagSpans>,
    ) -> usize {
        loop {
            let line = match data.get(pos..limit) {
                Some([b'\n', b'[', ..]) => pos + 1,
                Some([b'\r', b'\n', b'[', ..]) => pos + 2,
                _ => return pos,
            };
            let Some(((len, name, value), hash)) = tag_pair_fast(&data[line..limit]) else {
                return pos;
            };
            *newlines += 1;
            let base = line as u32;
            tags.push(TagSpans {
                token: tokens.len() as u32,
                name: (base + name.0 as u32, base + name.1 as u32),
                value: (base + value.0 as u32, base + value.1 as u32),
            });
            self.tag_name = hash;
            self.tag_names.insert(hash);
            pos = line + len;
            if pos <= self.max_tags_end {
                self.tags_end = pos;
            }
            tokens.push(token(TokenKind::Tag, line, pos));
        }
    }
}

/// The hash of the tag name at the start of a tag line (`[`, blanks, name), malformed
/// or not: the name runs to a blank, a quote, a `]` or the line end.
pub(super) fn tag_name_hash(line: &[u8]) -> u64 {
    let after = &line[1..];
    let skip = after
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let name = &after[skip..];
    let len = name
        .iter()
        .position(|&b| matches!(b, b' ' | b'\t' | b'"' | b']' | b'\r' | b'\n'))
        .unwrap_or(name.len());
    name_hash(&name[..len])
}

/// A hash of a tag name, eight bytes at a time (a name is one or two words): the
/// words, zero-padded, then the length.
pub(super) fn name_hash(name: &[u8]) -> u64 {
    let mut hash = NAME_SEED;
    for chunk in name.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        hash = name_hash_step(hash, u64::from_le_bytes(word));
    }
    name_hash_finish(hash, name.len())
}

const NAME_SEED: u64 = 0xcbf2_9ce4_8422_2325;

#[inline(always)]
const fn name_hash_step(hash: u64, word: u64) -> u64 {
    (hash ^ word)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(29)
}

#[inline(always)]
const fn name_hash_finish(hash: u64, len: usize) -> u64 {
    (hash ^ len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The hash of `Event`, the tag that conventionally opens a tag section.
pub(super) const EVENT_HASH: u64 = name_hash_finish(
    name_hash_step(NAME_SEED, u64::from_le_bytes(*b"Event\0\0\0")),
    5,
);

/// A line that is one or more well-formed tag pairs and nothing else: `[Name "value"]`,
/// blanks around and between (`[Event "x"] [Site "y"]`, as import format allows).
pub(crate) fn is_tag_shaped(line: &[u8]) -> bool {
    let mut rest = trim_blanks(line);
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        match one_tag_pair_len(rest) {
            Some(len) => rest = trim_blanks(&rest[len..]),
            None => return false,
        }
    }
    true
}

/// The length of the well-formed tag pair `s` starts with (`[Name "value"]`, blanks
/// inside the brackets allowed), if it does.
fn one_tag_pair_len(s: &[u8]) -> Option<usize> {
    let inner = s.strip_prefix(b"[")?;
    let blank = |b: &u8| matches!(b, b' ' | b'\t');
    let lead = inner.iter().take_while(|b| blank(b)).count();
    let name_len = tag_name_len(&inner[lead..]);
    if name_len == 0 {
        return None;
    }
    let mut i = lead + name_len;
    let gap = inner[i..].iter().take_while(|b| blank(b)).count();
    if gap == 0 || inner.get(i + gap) != Some(&b'"') {
        return None;
    }
    i += gap + 1;
    loop {
        match *inner.get(i)? {
            b'\\' => i += 2,
            b'"' => break,
            b'\n' => return None,
            _ => i += 1,
        }
    }
    i += 1;
    i += inner[i.min(inner.len())..]
        .iter()
        .take_while(|b| blank(b))
        .count();
    (inner.get(i) == Some(&b']')).then_some(1 + i + 1)
}

fn trim_blanks(s: &[u8]) -> &[u8] {
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let start = s.iter().take_while(|b| blank(b)).count();
    let end = s.len() - s[start..].iter().rev().take_while(|b| blank(b)).count();
    &s[start..end]
}

/// A parsed tag pair: token length, name span, raw value span (relative to the token).
type ParsedTag = (usize, (usize, usize), (usize, usize));

/// A tag pair: `[`, name, `"value"` (with `\"` and `\\` escapes), `]`. Returns the token
/// length and the name and raw value spans relative to `s`.
pub(super) fn tag_pair(s: &[u8]) -> Option<(ParsedTag, u64)> {
    if let Some(parsed) = tag_pair_fast(s) {
        return Some(parsed);
    }
    let parsed = tag_pair_general(s)?;
    Some((parsed, name_hash(&s[parsed.1.0..parsed.1.1])))
}

/// [`tag_pair`] for every form the fast path leaves: spaces inside the brackets,
/// escapes, quotes inside the value.
fn tag_pair_general(s: &[u8]) -> Option<ParsedTag> {
    let offset = |rest: &[u8]| s.len() - rest.len();
    let strict: IResult<&[u8], (&[u8], &[u8])> = (|i| {
        let (i, _) = byte_char('[')(i)?;
        let (i, _) = space0(i)?;
        let (i, name) = take_while1(is_name_byte)(i)?;
        let (i, _) = space0(i)?;
        let (i, _) = byte_char('"')(i)?;
        let (i, value) = quoted_value(i)?;
        let (i, _) = byte_char('"')(i)?;
        let (i, _) = space0(i)?;
        let (i, _) = byte_char(']')(i)?;
        Ok((i, (name, value)))
    })(s);
    if let Ok((rest, (name, value))) = strict {
        let name_start = name.as_ptr() as usize - s.as_ptr() as usize;
        let value_start = value.as_ptr() as usize - s.as_ptr() as usize;
        return Some((
            offset(rest),
            (name_start, name_start + name.len()),
            (value_start, value_start + value.len()),
        ));
    }
    lenient_tag_pair(s)
}

/// The usual shape `[Name "value"]` (one space, no escapes), by direct indexing, with
/// the name's [`name_hash`]; the nom parser in [`tag_pair`] reads the same and every
/// other form. The name is measured and hashed eight bytes at a time.
#[inline(always)]
pub(super) fn tag_pair_fast(s: &[u8]) -> Option<(ParsedTag, u64)> {
    if s.first() != Some(&b'[') {
        return None;
    }
    let mut i = 1;
    let mut hash = NAME_SEED;
    loop {
        let word = u64::from_le_bytes(*s.get(i..)?.first_chunk::<8>()?);
        let stops = not_name_bytes(word);
        if stops == 0 {
            hash = name_hash_step(hash, word);
            i += 8;
            continue;
        }
        let n = stops.trailing_zeros() as usize / 8;
        if n > 0 {
            hash = name_hash_step(hash, word & (u64::MAX >> (64 - 8 * n)));
        }
        i += n;
        break;
    }
    let name = (1, i);
    if i == 1 || s.get(i..i + 2) != Some(b" \"") {
        return None;
    }
    let value_start = i + 2;
    let stop = value_end(s.get(value_start..)?)?;
    let j = value_start + stop;
    (s[j] == b'"' && s.get(j + 1) == Some(&b']')).then_some((
        (j + 2, name, (value_start, j)),
        name_hash_finish(hash, i - 1),
    ))
}

/// Bit 7 set in each byte of `word` that is not a tag-name byte (see [`is_name_byte`]):
/// a control byte, a space, DEL, `"`, `[` or `]`. Exact for every byte, with no carries
/// between bytes.
#[inline(always)]
fn not_name_bytes(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let ascii = !word & HIGH;
    let low = word & !HIGH;
    // Bit 7 of each byte: the 7-bit byte is at least 0x21.
    let graphic_or_del = (low + ONES * 0x5F) & HIGH;
    let equal = |b: u8| {
        let diff = low ^ (ONES * u64::from(b));
        !(((diff & !HIGH) + !HIGH) | diff) & HIGH
    };
    ((!graphic_or_del & HIGH) | equal(0x7F) | equal(b'"') | equal(b'[') | equal(b']')) & ascii
}

/// The first `"`, `\\` or line end in `s`: the end of a plain tag value. Values are
/// short (a name, a date), so the first 24 bytes are looked at eight at a time in place,
/// and only a longer value calls `memchr3`.
#[inline(always)]
fn value_end(s: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Bit 7 of the lowest byte equal to `b` is set (higher ones may be set wrongly).
    let has = |word: u64, b: u8| {
        let x = word ^ (ONES * u64::from(b));
        x.wrapping_sub(ONES) & !x & HIGH
    };
    let mut at = 0;
    while at < 24
        && let Some(chunk) = s.get(at..at + 8)
    {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let hits = has(word, b'"') | has(word, b'\\') | has(word, b'\n');
        if hits != 0 {
            return Some(at + hits.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    memchr::memchr3(b'"', b'\\', b'\n', &s[at..]).map(|i| at + i)
}

/// Real files write unescaped quotes inside values (`[Event "The "Best" game"]`): accept
/// a value that runs to the last `"` before the `]` that closes the line.
fn lenient_tag_pair(s: &[u8]) -> Option<ParsedTag> {
    let line = &s[..line_content_len(s)];
    let head: IResult<&[u8], &[u8]> = (|i| {
        let (i, _) = tag(&b"["[..])(i)?;
        let (i, _) = space0(i)?;
        let (i, name) = take_while1(is_name_byte)(i)?;
        let (i, _) = take_while(|b| b == b' ' || b == b'\t')(i)?;
        let (i, _) = tag(&b"\""[..])(i)?;
        Ok((i, name))
    })(line);
    let (after_quote, name) = head.ok()?;
    let value_start = line.len() - after_quote.len();
    let trimmed = line.len()
        - line
            .iter()
            .rev()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
    if trimmed == 0 || line[trimmed - 1] != b']' {
        return None;
    }
    let close = line[..trimmed - 1]
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')?;
    if line[close] != b'"' || close < value_start {
        return None;
    }
    // A value holding the start of another tag pair (`[White "Tru[Event "E3"]`) is a tag
    // cut short with the next one glued on, not a value with quotes in it.
    let value = &line[value_start..=close];
    if value
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'[' && is_tag_start(&value[i..]))
    {
        return None;
    }
    let name_start = 1 + line[1..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    Some((
        trimmed,
        (name_start, name_start + name.len()),
        (value_start, close),
    ))
}

/// Whether `s` starts like a tag pair: `[`, a name of letters, digits or `_`, a space, `"`.
fn is_tag_start(s: &[u8]) -> bool {
    let name = tag_name_len(&s[1..]);
    name > 0 && s[1 + name..].starts_with(b" \"")
}

/// The length of the tag name `s` starts with: letters, digits and `_`.
fn tag_name_len(s: &[u8]) -> usize {
    s.iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count()
}

#[inline]
pub(super) fn is_name_byte(b: u8) -> bool {
    CLASS[b as usize] & NAME != 0
}

/// The raw bytes of a quoted value up to the closing quote (not included); a value may not
/// cross a line end.
pub(super) fn quoted_value(s: &[u8]) -> IResult<&[u8], &[u8]> {
    let mut i = 0;
    while let Some(j) = memchr::memchr3(b'"', b'\\', b'\n', &s[i..]) {
        i += j;
        match s[i] {
            b'"' => return Ok((&s[i..], &s[..i])),
            b'\\' if i + 1 < s.len() && s[i + 1] != b'\n' => i += 2,
            _ => break,
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(
        s,
        nom::error::ErrorKind::Char,
    )))
}

/// A malformed tag pair: up to the first `]` on the line, or the line end.
pub(super) fn malformed_tag_len(s: &[u8]) -> usize {
    let line = line_content_len(s);
    match memchr::memchr(b']', &s[..line]) {
        Some(close) => close + 1,
        None => line.max(1),
    }
}

/// Resolves the `\"` and `\\` escapes of a tag value.
pub(crate) fn unescape(value: Cow<'_, str>) -> Cow<'_, str> {
    if !value.contains('\\') {
        return value;
    }
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(next @ ('"' | '\\')) => out.push(next),
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::FAST_PATH_INPUTS;
    use proptest::prelude::*;

    #[test]
    fn value_end_finds_what_memchr3_finds() {
        // Every position of each stop byte, alone and after another, in short and long
        // values, with bytes that differ from a stop byte by one bit around it.
        let filler = [
            b'!',
            b'#',
            b'\x5d',
            b'\x0b',
            b'a',
            0x80,
            0xa2,
            b'\x0a' ^ 0x80,
        ];
        for len in 0..40 {
            for stop in [None, Some(b'"'), Some(b'\\'), Some(b'\n')] {
                for at in 0..len.max(1) {
                    for second in [None, Some(b'"'), Some(b'\n')] {
                        let mut s: Vec<u8> = (0..len).map(|i| filler[i % filler.len()]).collect();
                        if let Some(b) = stop
                            && at < len
                        {
                            s[at] = b;
                            if let Some(c) = second
                                && at + 1 < len
                            {
                                s[at + 1] = c;
                            }
                        }
                        let expected = memchr::memchr3(b'"', b'\\', b'\n', &s);
                        assert_eq!(value_end(&s), expected, "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn name_bytes_are_graphic_ascii_but_quotes_and_brackets_or_not_ascii() {
        for b in 0..=255u8 {
            let expected = (b.is_ascii_graphic() && !matches!(b, b'"' | b'[' | b']')) || b >= 0x80;
            assert_eq!(is_name_byte(b), expected, "byte {b:#04x}");
        }
    }

    #[test]
    fn not_name_bytes_matches_a_byte_by_byte_check() {
        for position in 0..8 {
            for byte in 0..=255u8 {
                for fill in [b'a', b'"', 0x80, 0x00] {
                    let mut window = [fill; 8];
                    window[position] = byte;
                    let mask = not_name_bytes(u64::from_le_bytes(window));
                    for (i, &b) in window.iter().enumerate() {
                        let bit = mask >> (8 * i + 7) & 1 == 1;
                        assert_eq!(bit, !is_name_byte(b), "{window:?}@{i}");
                    }
                    assert_eq!(mask & !0x8080_8080_8080_8080, 0);
                }
            }
        }
    }

    #[test]
    fn a_tag_name_hashes_the_same_on_the_fast_and_the_general_paths() {
        for name in [
            "Event",
            "WhiteElo",
            "WhiteFideId",
            "BlackTeamCountry",
            "X",
            "ECO",
        ] {
            for value in ["", "x", "a long value with more than 24 bytes in it"] {
                let line = format!("[{name} \"{value}\"]\n and more bytes after it");
                let (parsed, hash) = tag_pair_fast(line.as_bytes()).expect("the usual shape");
                assert_eq!(&line[parsed.1.0..parsed.1.1], name);
                assert_eq!(hash, name_hash(name.as_bytes()));
                assert_eq!(hash, tag_name_hash(line.as_bytes()));
            }
        }
        assert_eq!(EVENT_HASH, name_hash(b"Event"));
        assert_ne!(name_hash(b"Ev"), name_hash(b"Ev\0"));
    }

    proptest! {
        /// The fast path accepts only the strict `[Name "value"]` shape, with the same
        /// length and name hash.
        #[test]
        fn tag_pair_fast_agrees_with_the_nom_parser(s in FAST_PATH_INPUTS) {
            let bytes = s.as_bytes();
            if let Some((parsed, hash)) = tag_pair_fast(bytes) {
                prop_assert_eq!(hash, name_hash(&bytes[parsed.1.0..parsed.1.1]));
                let strict: IResult<&[u8], ()> = (|i| {
                    let (i, _) = byte_char('[')(i)?;
                    let (i, _) = take_while1(is_name_byte)(i)?;
                    let (i, _) = tag(&b" \""[..])(i)?;
                    let (i, _) = quoted_value(i)?;
                    let (i, _) = tag(&b"\"]"[..])(i)?;
                    Ok((i, ()))
                })(bytes);
                prop_assert_eq!(strict.map(|(rest, ())| bytes.len() - rest.len()).ok(), Some(parsed.0));
            }
        }
    }
}
