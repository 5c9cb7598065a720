//! The tag names the details write as one byte: the names of nearly every tag of real
//! archives, so that a game's tag names take a byte each in the temporary file instead
//! of their length and text (some 60 bytes a game of the file's 300).
//!
//! A name is found by a hash of its length and three of its letters into a table of
//! 128 places, which no two names of [`NAMES`] share (the table is built at compile
//! time, and the build fails if two do), then one comparison.

/// The names with a code, the code being the position plus 1 (0: a name without one,
/// written as text). The first ten are the tags the judge compares
/// ([`FACT_TAGS`](super::facts::FACT_TAGS) are made of them). A code is part of the
/// temporary file only, which lives as long as one run: the list may change from one
/// version to the next.
pub(crate) const NAMES: [&str; 51] = [
    "White",
    "Black",
    "Event",
    "Round",
    "Board",
    "WhiteFideId",
    "BlackFideId",
    "EventDate",
    "Date",
    "FEN",
    "Site",
    "Result",
    "WhiteElo",
    "BlackElo",
    "ECO",
    "Opening",
    "Variation",
    "WhiteTitle",
    "BlackTitle",
    "PlyCount",
    "Annotator",
    "UTCTime",
    "UTCDate",
    "TimeControl",
    "Termination",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "WhiteTeam",
    "BlackTeam",
    "EventType",
    "SetUp",
    "Source",
    "SourceDate",
    "Mode",
    "Variant",
    "EventRounds",
    "EventCountry",
    "WhiteClock",
    "BlackClock",
    "Time",
    "SubVariation",
    "Remark",
    "GameId",
    "Link",
    "WhiteUSCF",
    "BlackUSCF",
    "Stage",
    "Section",
    "WhiteTeamCountry",
    "BlackTeamCountry",
    "Lichess",
];

/// The code of tag name `name` (its bytes as written): 1 + its position in [`NAMES`],
/// or 0 for a name not there.
#[inline]
pub(crate) fn code(name: &[u8]) -> u8 {
    let Some(place) = place(name) else { return 0 };
    let code = TABLE[place];
    if code != 0 && NAMES[usize::from(code - 1)].as_bytes() == name {
        code
    } else {
        0
    }
}

/// The name of code `code` (1 or more), if it has one.
pub(crate) fn name(code: u8) -> Option<&'static str> {
    NAMES.get(usize::from(code).checked_sub(1)?).copied()
}

/// The place of a name in [`TABLE`]: a multiplicative hash of its length, its first
/// and its last two bytes; `None` for a name shorter than every name of [`NAMES`].
#[inline]
const fn place(name: &[u8]) -> Option<usize> {
    let len = name.len();
    if len < 3 || len > 255 {
        return None;
    }
    let key = (len as u32) << 24
        | (name[0] as u32) << 16
        | (name[len - 2] as u32) << 8
        | name[len - 1] as u32;
    // The multiplier was picked so that no two names of `NAMES` share a place.
    Some((key.wrapping_mul(0x9e37_79b1_u32.wrapping_mul(80)) >> 25) as usize)
}

/// Each place's code (0: none).
const TABLE: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut i = 0;
    while i < NAMES.len() {
        let Some(place) = place(NAMES[i].as_bytes()) else {
            panic!("a name of NAMES is too short for the table");
        };
        assert!(table[place] == 0, "two names of NAMES share a place");
        table[place] = i as u8 + 1;
        i += 1;
    }
    table
};
