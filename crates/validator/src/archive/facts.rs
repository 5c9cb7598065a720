//! The tags the judge compares (players, Event, Round, Board, FideIds), normalised, and
//! the keys made of them.
//!
//! Each game's keys are made twice: in the worker, from the game's tag values, for
//! every game ([`Fields::of_values`], which allocates nothing for ASCII values), and in
//! the judge, from the details read back, for the few games whose keys repeat
//! ([`Facts::of`], then [`Facts::fields`]). Both hash the same normalised bytes, so
//! they give the same keys.

use super::detail::Detail;
use super::names::NAMES;
use std::borrow::Cow;

/// The tags whose values [`Fields::of_values`] reads, and the game's start (`FEN`): the
/// first names of [`NAMES`], so that a tag's code (its place there plus 1) is its place
/// here plus 1.
pub(crate) const FACT_TAGS: [&str; 10] = {
    let mut tags = [""; 10];
    let mut i = 0;
    while i < tags.len() {
        tags[i] = NAMES[i];
        i += 1;
    }
    tags
};

/// The position of [`FACT_TAGS`]' `FEN`.
pub(crate) const FEN: usize = 9;

/// The tags the judge compares, normalised: empty where unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) event: String,
    pub(crate) round: String,
    pub(crate) board: String,
    pub(crate) white_fide: Option<u64>,
    pub(crate) black_fide: Option<u64>,
}

impl Facts {
    /// The normalised tags of a game's details.
    pub(crate) fn of(d: &Detail) -> Facts {
        Facts::read(|name| d.tag(name).map(Cow::Borrowed))
    }

    /// The normalised tags of a game whose tag values `tag` gives (see [`FACT_TAGS`]).
    pub(crate) fn read<'t>(tag: impl Fn(&str) -> Option<Cow<'t, str>>) -> Facts {
        let text =
            |name: &str, how: fn(&str) -> String| tag(name).map(|v| how(&v)).unwrap_or_default();
        let mut event = text("Event", normalise);
        if !event.is_empty() {
            event.push('@');
            let year = tag("EventDate")
                .and_then(|v| year(&v).map(str::to_string))
                .or_else(|| tag("Date").and_then(|v| year(&v).map(str::to_string)));
            event.push_str(&year.unwrap_or_default());
        }
        Facts {
            white: text("White", normalise),
            black: text("Black", normalise),
            event,
            round: text("Round", |v| known_round(v).to_string()),
            board: text("Board", |v| known_round(v).to_string()),
            white_fide: tag("WhiteFideId").and_then(|v| fide_id(&v)),
            black_fide: tag("BlackFideId").and_then(|v| fide_id(&v)),
        }
    }

    /// Whether Event and Round are both known: only then can two games be in one round.
    pub(crate) fn round_known(&self) -> bool {
        !self.event.is_empty() && !self.round.is_empty()
    }

    /// The keys of these tags.
    pub(crate) fn fields(&self) -> Fields {
        let key = |text: &str| {
            let mut h = FieldHasher::default();
            text.bytes().for_each(|b| h.byte(b));
            h.finish()
        };
        Fields {
            white: key(&self.white),
            black: key(&self.black),
            event: key(&self.event),
            round: key(&self.round),
            board: key(&self.board),
            white_fide: self.white_fide,
            black_fide: self.black_fide,
        }
    }
}

/// The keys of the tags the judge compares: each normalised value hashed (0 where
/// unknown), and the FideIds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Fields {
    pub(crate) white: u64,
    pub(crate) black: u64,
    /// Event and its year (see [`Facts::read`]).
    pub(crate) event: u64,
    pub(crate) round: u64,
    pub(crate) board: u64,
    pub(crate) white_fide: Option<u64>,
    pub(crate) black_fide: Option<u64>,
}

impl Fields {
    /// The keys of the values of [`FACT_TAGS`] (the first tag of each name, its text
    /// in UTF-8), as [`Facts::read`] and [`Facts::fields`] make them: an ASCII value
    /// is normalised and hashed a byte at a time, without making a string.
    pub(crate) fn of_values(values: &[Option<Cow<'_, [u8]>>; FACT_TAGS.len()]) -> Fields {
        let value = |i: usize| values[i].as_deref().map(Text::of);
        let name = |i: usize| {
            let mut h = FieldHasher::default();
            match value(i) {
                Some(Text::Ascii(v)) => h.normalised_ascii(v),
                Some(Text::Utf8(v)) => normalise(v).bytes().for_each(|b| h.byte(b)),
                None => {}
            }
            h
        };
        let mut event = name(2);
        if event.len != 0 {
            event.byte(b'@');
            let year = |i: usize| match value(i)? {
                Text::Ascii(v) => ascii_year(v),
                Text::Utf8(v) => year(v).map(str::as_bytes),
            };
            let year = year(7).or_else(|| year(8));
            year.unwrap_or_default().iter().for_each(|&b| event.byte(b));
        }
        let known = |i: usize| {
            let mut h = FieldHasher::default();
            let known = match value(i) {
                Some(Text::Ascii(v)) => match trim_ascii(v) {
                    b"?" | b"-" => b"",
                    known => known,
                },
                Some(Text::Utf8(v)) => known_round(v).as_bytes(),
                None => b"",
            };
            known.iter().for_each(|&b| h.byte(b));
            h.finish()
        };
        let fide = |i: usize| match value(i)? {
            Text::Ascii(v) => ascii_fide_id(v),
            Text::Utf8(v) => fide_id(v),
        };
        Fields {
            white: name(0).finish(),
            black: name(1).finish(),
            event: event.finish(),
            round: known(3),
            board: known(4),
            white_fide: fide(5),
            black_fide: fide(6),
        }
    }

    /// Whether Event and Round are both known.
    fn round_known(&self) -> bool {
        self.event != 0 && self.round != 0
    }

    /// The key of White and Black; 0 when a name is unknown.
    pub(crate) fn pair_key(&self) -> u64 {
        if self.white == 0 || self.black == 0 {
            return 0;
        }
        mix(3, &[self.white, self.black])
    }

    /// The key of `what` (and `more`) in this game's Event and Round; 0 when the round
    /// or `what` is unknown.
    pub(crate) fn in_round_key(&self, salt: u64, what: u64, more: u64) -> u64 {
        if !self.round_known() || what == 0 {
            return 0;
        }
        mix(salt, &[self.event, self.round, what, more])
    }

    /// Each player's FideId and name key, where both are known.
    pub(crate) fn identities(&self) -> [Option<(u64, u64)>; 2] {
        let identity = |name: u64, fide: Option<u64>| fide.filter(|_| name != 0).map(|f| (f, name));
        [
            identity(self.white, self.white_fide),
            identity(self.black, self.black_fide),
        ]
    }
}

/// A FideId: a positive number, spaces around it allowed.
fn fide_id(value: &str) -> Option<u64> {
    value.trim().parse::<u64>().ok().filter(|&id| id != 0)
}

/// [`fide_id`] of ASCII text, without making it a `str`: `+` and digits, as
/// `u64::from_str` reads them.
fn ascii_fide_id(value: &[u8]) -> Option<u64> {
    let value = trim_ascii(value);
    let digits = value.strip_prefix(b"+").unwrap_or(value);
    if digits.is_empty() {
        return None;
    }
    let mut id = 0u64;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        id = id.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    (id != 0).then_some(id)
}

/// The year of a date, when its first four characters (spaces trimmed) are digits:
/// an event recurs under one name year after year ("Dortmund", round 6 of 1993 and of
/// 1995), so its year is part of it.
fn year(value: &str) -> Option<&str> {
    let year = value.trim().get(..4)?;
    year.bytes().all(|b| b.is_ascii_digit()).then_some(year)
}

/// A tag value's text, seen as its bytes when they are ASCII (nearly always): the
/// byte functions below then do what the `str` ones do, without checking the bytes
/// for UTF-8 once more.
enum Text<'a> {
    Ascii(&'a [u8]),
    Utf8(&'a str),
}

impl Text<'_> {
    /// The text of `bytes`, UTF-8 (an invalid value reads as empty: the caller gives
    /// only text).
    fn of(bytes: &[u8]) -> Text<'_> {
        match bytes.is_ascii() {
            true => Text::Ascii(bytes),
            false => Text::Utf8(std::str::from_utf8(bytes).unwrap_or_default()),
        }
    }
}

/// ASCII text trimmed as [`str::trim`] trims it.
fn trim_ascii(text: &[u8]) -> &[u8] {
    let space = |b: &u8| char::from(*b).is_whitespace();
    let start = text.iter().position(|b| !space(b)).unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|b| !space(b))
        .map_or(start, |e| e + 1);
    &text[start..end]
}

/// [`year`] of ASCII text.
fn ascii_year(value: &[u8]) -> Option<&[u8]> {
    let year = trim_ascii(value).get(..4)?;
    year.iter().all(u8::is_ascii_digit).then_some(year)
}

/// A name, event or similar compared without case, spaces and punctuation: its letters
/// and digits, lower case ("Carlsen, M." and "carlsen m" are one). `?` becomes empty.
pub(crate) fn normalise(text: &str) -> String {
    // Nearly every name is ASCII: a byte at a time, without Unicode's tables.
    if text.is_ascii() {
        let mut out = text.to_ascii_lowercase();
        out.retain(|c| c.is_ascii_alphanumeric());
        return out;
    }
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A Round or Board value, trimmed; empty for the values that say it is unknown.
fn known_round(text: &str) -> &str {
    match text.trim() {
        "?" | "-" => "",
        known => known,
    }
}

/// The key of one normalised field, fed a byte at a time: FNV-1a over its bytes, then
/// its length, finished by a strong mix; 0 for an empty field.
struct FieldHasher {
    hash: Hasher,
    len: u64,
}

impl Default for FieldHasher {
    fn default() -> FieldHasher {
        FieldHasher {
            hash: Hasher::new(10),
            len: 0,
        }
    }
}

impl FieldHasher {
    fn byte(&mut self, b: u8) {
        self.hash.byte(b);
        self.len += 1;
    }

    /// Feeds ASCII `text` as [`normalise`] gives it: its letters and digits, lower case.
    fn normalised_ascii(&mut self, text: &[u8]) {
        for &b in text {
            let kept = NORMALISED[usize::from(b & 0x7f)];
            if kept != 0 {
                self.byte(kept);
            }
        }
    }

    fn finish(mut self) -> u64 {
        if self.len == 0 {
            return 0;
        }
        self.hash.u64(self.len);
        self.hash.finish()
    }
}

/// Each ASCII byte as [`normalise`] keeps it: letters lower case, digits as they are,
/// everything else 0 (dropped).
const NORMALISED: [u8; 128] = {
    let mut table = [0; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            table[b] = c.to_ascii_lowercase();
        }
        b += 1;
    }
    table
};

/// The key of `parts` under `salt`: never 0.
pub(crate) fn mix(salt: u64, parts: &[u64]) -> u64 {
    let mut h = Hasher::new(salt);
    parts.iter().for_each(|&p| h.u64(p));
    h.finish()
}

/// FNV-1a, with a rotation after each word, finished by a strong mix: the same on every
/// machine and run (shards of one archive may be run on several; the keys of one version
/// of planilla, since what is hashed may change between versions: docs/cli.md), never 0
/// (0 means "no key").
pub(crate) struct Hasher(u64);

impl Hasher {
    pub(crate) fn new(salt: u64) -> Hasher {
        Hasher(0xcbf2_9ce4_8422_2325 ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.byte(b));
        self.u64(bytes.len() as u64);
    }

    fn byte(&mut self, b: u8) {
        self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }

    pub(crate) fn u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v).wrapping_mul(0x0000_0100_0000_01b3);
        self.0 = self.0.rotate_left(29);
    }

    pub(crate) fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        z.max(1)
    }
}
