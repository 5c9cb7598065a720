//! Where to cut a PGN text into byte ranges to test them: places found by scanning its
//! bytes inside a tag pair, a brace comment, a variation and a multi-byte UTF-8
//! character, a few of each kind chosen at random among all (reservoir sampling, so a
//! file of any size is scanned in one pass and little memory).

use crate::Seeded;

/// A kind of place to cut at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Between a tag pair's `[` (at a line's start) and its `]`.
    Tag,
    /// Between a `{` and its `}`.
    Comment,
    /// Between a `(` and its `)`, outside comments and tag pairs.
    Variation,
    /// After the first byte of a multi-byte UTF-8 character.
    MultiByte,
}

impl Place {
    /// Every kind, in the order [`Places::cuts`] lists them.
    pub const ALL: [Place; 4] = [
        Place::Tag,
        Place::Comment,
        Place::Variation,
        Place::MultiByte,
    ];

    /// The kind's name, as `range-corpus` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Place::Tag => "tag",
            Place::Comment => "comment",
            Place::Variation => "variation",
            Place::MultiByte => "multi-byte",
        }
    }
}

/// What the scanner is inside of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inside {
    Movetext,
    /// A tag pair opened at this offset.
    Tag(u64),
    /// A brace comment opened at this offset.
    Comment(u64),
    /// A `;` comment, to the line's end.
    LineComment,
}

/// The places of a text fed to it in order ([`Places::scan`]), `per_kind` of each kind
/// kept, each kind's chosen uniformly among all its places.
#[derive(Clone, Debug)]
pub struct Places {
    random: Seeded,
    per_kind: usize,
    kept: [Vec<u64>; 4],
    seen: [u64; 4],
    /// The offset of the next byte fed.
    at: u64,
    inside: Inside,
    line_start: bool,
    /// Open variations, and where the outermost opened.
    depth: u32,
    variation: u64,
    /// Whether the byte before was the first of a multi-byte character.
    lead: bool,
}

impl Places {
    /// A scanner keeping `per_kind` places of each kind, chosen by `seed`.
    pub fn new(seed: u64, per_kind: usize) -> Places {
        Places {
            random: Seeded::new(seed),
            per_kind,
            kept: Default::default(),
            seen: [0; 4],
            at: 0,
            inside: Inside::Movetext,
            line_start: true,
            depth: 0,
            variation: 0,
            lead: false,
        }
    }

    /// Scans the next bytes of the text.
    pub fn scan(&mut self, bytes: &[u8]) {
        for &b in bytes {
            let at = self.at;
            self.at += 1;
            if self.lead && (0x80..0xC0).contains(&b) {
                self.found(Place::MultiByte, at);
            }
            self.lead = (0xC2..0xF5).contains(&b);
            let line_start = std::mem::replace(&mut self.line_start, b == b'\n');
            match (self.inside, b) {
                (Inside::Tag(start), b']') => {
                    self.inside = Inside::Movetext;
                    self.between(Place::Tag, start, at);
                }
                (Inside::Comment(start), b'}') => {
                    self.inside = Inside::Movetext;
                    self.between(Place::Comment, start, at);
                }
                (Inside::Tag(_) | Inside::LineComment, b'\n') => self.inside = Inside::Movetext,
                (Inside::Movetext, b'[') if line_start => {
                    self.inside = Inside::Tag(at);
                    self.depth = 0;
                }
                (Inside::Movetext, b'{') => self.inside = Inside::Comment(at),
                (Inside::Movetext, b';') => self.inside = Inside::LineComment,
                (Inside::Movetext, b'(') => {
                    if self.depth == 0 {
                        self.variation = at;
                    }
                    self.depth += 1;
                }
                (Inside::Movetext, b')') if self.depth > 0 => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        self.between(Place::Variation, self.variation, at);
                    }
                }
                _ => {}
            }
        }
    }

    /// A place of `kind` in the middle of the bytes strictly between `open` and `close`,
    /// if there are any.
    fn between(&mut self, kind: Place, open: u64, close: u64) {
        if close > open + 1 {
            self.found(kind, open + 1 + (close - open - 1) / 2);
        }
    }

    /// Keeps `at`, a place of `kind`, with the chance that leaves each place of the kind
    /// seen so far equally likely to be kept.
    fn found(&mut self, kind: Place, at: u64) {
        let k = kind as usize;
        self.seen[k] += 1;
        if self.kept[k].len() < self.per_kind {
            self.kept[k].push(at);
        } else {
            let i = self.random.below(self.seen[k].min(1 << 31) as usize);
            if i < self.per_kind {
                self.kept[k][i] = at;
            }
        }
    }

    /// The places kept, by kind.
    pub fn cuts(&self) -> Vec<(Place, u64)> {
        Place::ALL
            .iter()
            .flat_map(|&kind| self.kept[kind as usize].iter().map(move |&at| (kind, at)))
            .collect()
    }

    /// How many places of `kind` were seen.
    pub fn seen(&self, kind: Place) -> u64 {
        self.seen[kind as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_inside_what_they_name() {
        let text = "[Event \"Caf\u{e9}\"]\n\n1. e4 {a comment} (1. d4 (1. c4) d5) e5 ; (no\n*\n";
        let mut places = Places::new(1, 8);
        // Fed in pieces of 3 bytes: a character and a pair cut between two feeds.
        for piece in text.as_bytes().chunks(3) {
            places.scan(piece);
        }
        let at = |kind| {
            places
                .cuts()
                .into_iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, at)| at as usize)
                .collect::<Vec<_>>()
        };
        // The middle of `Event "Café"`, of `a comment`, of `1. d4 (1. c4) d5`; the
        // second byte of `é`. The `(` of the `;` comment opens nothing.
        assert_eq!(at(Place::Tag), [7]);
        assert_eq!(at(Place::Comment), [28]);
        assert_eq!(at(Place::Variation), [44]);
        assert_eq!(at(Place::MultiByte), [12]);
        assert!(!text.is_char_boundary(12));
    }

    #[test]
    fn each_kind_keeps_at_most_its_share() {
        let mut places = Places::new(7, 3);
        places.scan("{a} ".repeat(100).as_bytes());
        assert_eq!(places.seen(Place::Comment), 100);
        let kept = places.cuts();
        assert_eq!(kept.len(), 3);
        assert!(kept.iter().all(|(_, at)| at % 4 == 1));
    }
}
