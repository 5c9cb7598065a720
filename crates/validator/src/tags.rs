//! The tag check: standard tags whose values their definition excludes (`tag-value`)
//! and Seven Tag Roster tags a game lacks (`missing-tag`).
//!
//! The syntax of the values is the parser's ([`planilla_parser::tag_values`]); this
//! module decides which tags are judged and reports them. Tag names are compared without
//! case, as the reader keeps them: a `[date "..."]` tag is a Date tag, judged as one and
//! not missing.
//!
//! A game with no roster tag at all has no `missing-tag`: a bare movetext file, a game
//! pasted from a book, an opening book's entries (`[ECO]`, `[Opening]` only) or puzzles
//! (`[FEN]` only) are no game records, and a note per game saying that every roster tag is
//! missing would tell their reader nothing. A game with one roster tag or more, even a
//! game of tags only (a broadcast's tag-only export of rounds not played yet), is judged:
//! one `missing-tag` note per game lists every roster tag it lacks, at its first tag.

use crate::finding::{Code, Finding};
use planilla_parser::tag_values::TagKind;
use planilla_parser::{Game, TagSpans};
use std::borrow::Cow;

/// The Seven Tag Roster, in the standard's order.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The tags this check knows: name, index in [`ROSTER`] if a roster tag, and the kind of
/// its value if judged.
const KNOWN: [(&str, Option<usize>, Option<TagKind>); 16] = [
    ("Event", Some(0), None),
    ("Site", Some(1), None),
    ("Date", Some(2), Some(TagKind::Date)),
    ("Round", Some(3), Some(TagKind::Round)),
    ("White", Some(4), None),
    ("Black", Some(5), None),
    ("Result", Some(6), None),
    ("EventDate", None, Some(TagKind::Date)),
    ("UTCDate", None, Some(TagKind::Date)),
    ("WhiteElo", None, Some(TagKind::Elo)),
    ("BlackElo", None, Some(TagKind::Elo)),
    ("WhiteFideId", None, Some(TagKind::FideId)),
    ("BlackFideId", None, Some(TagKind::FideId)),
    ("TimeControl", None, Some(TagKind::TimeControl)),
    ("SetUp", None, Some(TagKind::SetUp)),
    ("UTCTime", None, Some(TagKind::Time)),
];

/// The entry of [`KNOWN`] for a tag name, compared without case. The length and the first
/// letter leave one candidate at most (the fourth letter tells `UTCDate` from `UTCTime`),
/// so a name costs one comparison of two [`words`], and most unknown names (`ECO`,
/// `Opening`) none.
fn known(name: &[u8]) -> Option<&'static (&'static str, Option<usize>, Option<TagKind>)> {
    let letter = |i: usize| name.get(i).map(|b| b | 0x20);
    let index = match (name.len(), letter(0)?) {
        (4, b's') => 1,
        (4, b'd') => 2,
        (5, b'e') => 0,
        (5, b'r') => 3,
        (5, b'w') => 4,
        (5, b'b') => 5,
        (5, b's') => 14,
        (6, b'r') => 6,
        (7, b'u') if letter(3) == Some(b'd') => 8,
        (7, b'u') => 15,
        (8, b'w') => 9,
        (8, b'b') => 10,
        (9, b'e') => 7,
        (11, b'w') => 11,
        (11, b'b') => 12,
        (11, b't') => 13,
        _ => return None,
    };
    (words(name) == KNOWN_WORDS[index]).then_some(&KNOWN[index])
}

/// The first and the last 4 bytes of a name of 4 to 7 bytes (8 of a name of 8 to 16), as
/// little-endian numbers with the 0x20 bit of every byte set: lower case for a letter.
/// The known names are letters only, so a name of the same length has the same words
/// exactly when it is the same name in any case; `None` for other lengths.
const fn words(name: &[u8]) -> Option<(u64, u64)> {
    if name.len() > 16 {
        return None;
    }
    if let (Some(head), Some(tail)) = (name.first_chunk::<8>(), name.last_chunk::<8>()) {
        let fold = 0x2020_2020_2020_2020;
        return Some((
            u64::from_le_bytes(*head) | fold,
            u64::from_le_bytes(*tail) | fold,
        ));
    }
    if let (Some(head), Some(tail)) = (name.first_chunk::<4>(), name.last_chunk::<4>()) {
        let fold = 0x2020_2020;
        return Some((
            (u32::from_le_bytes(*head) | fold) as u64,
            (u32::from_le_bytes(*tail) | fold) as u64,
        ));
    }
    None
}

/// The [`words`] of each name of [`KNOWN`].
const KNOWN_WORDS: [Option<(u64, u64)>; KNOWN.len()] = {
    let mut all = [None; KNOWN.len()];
    let mut i = 0;
    while i < KNOWN.len() {
        all[i] = words(KNOWN[i].0.as_bytes());
        i += 1;
    }
    all
};

/// Appends the `missing-tag` and `tag-value` findings of `game`'s tags to `out`: the
/// missing tags first (reported at the first tag), then each bad value in tag order.
///
/// Every game has tags, so this is one pass over them without allocation: names are
/// found by [`known`], and a value is decoded and parsed only when it is not one of its
/// tag's common forms ([`TagKind::is_plainly_valid`]).
pub(crate) fn check_tags(game: &Game, out: &mut Vec<Finding>) {
    let tags = game.tags();
    let Some(first) = tags.first() else {
        return;
    };
    let bytes = game.bytes();
    let tag_start = |t: &TagSpans| game.tokens()[t.token as usize].start as usize;
    let mark = out.len();
    // Bit `r`: roster tag `r` is present.
    let mut present = 0u8;

    for (i, t) in tags.iter().enumerate() {
        let Some(&(_, roster, kind)) = known(&bytes[t.name_span()]) else {
            continue;
        };
        if let Some(r) = roster {
            present |= 1 << r;
        }
        if let Some(kind) = kind
            && !kind.is_plainly_valid(&bytes[t.value_span()])
        {
            report_value(game, i, t, kind, out);
        }
    }

    let all = (1u8 << ROSTER.len()) - 1;
    if present != 0 && present != all {
        let missing: Vec<&str> = ROSTER
            .iter()
            .enumerate()
            .filter(|&(r, _)| present & (1 << r) == 0)
            .map(|(_, name)| *name)
            .collect();
        let message = match missing.as_slice() {
            [one] => format!("Seven Tag Roster tag {one} missing"),
            many => format!("Seven Tag Roster tags {} missing", many.join(", ")),
        };
        // Before the values' findings: it sits at the first tag.
        out.insert(
            mark,
            Finding::in_game(Code::MissingTag, game, tag_start(first), message),
        );
    }
}

/// Judges the value of `game`'s tag `t` (its `i`th), of a kind [`TagKind::is_plainly_valid`]
/// did not vouch for: decoded, escapes resolved, and parsed; reported if refused.
#[cold]
#[inline(never)]
fn report_value(game: &Game, i: usize, t: &TagSpans, kind: TagKind, out: &mut Vec<Finding>) {
    let raw = &game.bytes()[t.value_span()];
    let value: Cow<'_, str> = match std::str::from_utf8(raw) {
        Ok(plain) if plain.is_ascii() && !raw.contains(&b'\\') => Cow::Borrowed(plain),
        _ => game.tag_pairs().nth(i).map(|(_, v)| v).unwrap_or_default(),
    };
    if let Err(e) = kind.check(&value) {
        let name = game.decode(t.name_span());
        let at = game.tokens()[t.token as usize].start as usize;
        out.push(Finding::in_game(
            Code::TagValue,
            game,
            at,
            format!("tag {name} \"{value}\": {e}"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(pgn: &str) -> Vec<(Code, u64, String)> {
        let game = Game::from_bytes(pgn, Default::default());
        let mut out = Vec::new();
        check_tags(&game, &mut out);
        out.into_iter()
            .map(|f| (f.code, f.line, f.message))
            .collect()
    }

    const ROSTER_TAGS: &str = "[Event \"e\"]\n[Site \"s\"]\n[Date \"2024.02.29\"]\n[Round \"5.12\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n";

    /// The length table of [`known`] finds every known name, in any case.
    #[test]
    fn every_known_name_is_found() {
        for entry in &KNOWN {
            assert_eq!(known(entry.0.as_bytes()).map(|e| e.0), Some(entry.0));
            assert_eq!(
                known(entry.0.to_lowercase().as_bytes()).map(|e| e.0),
                Some(entry.0)
            );
        }
        for other in [
            &b"ECO"[..],
            b"Opening",
            b"Sitx",
            b"Dates",
            b"EventType",
            b"Termination",
            b"UTCDat\xc5",
            b"White\x00",
            b"WhiteEl",
        ] {
            assert!(known(other).is_none(), "{}", String::from_utf8_lossy(other));
        }
    }

    #[test]
    fn a_complete_roster_with_good_values_has_no_finding() {
        let pgn = format!(
            "{ROSTER_TAGS}[WhiteElo \"2750\"]\n[BlackElo \"\"]\n[WhiteFideId \"1503014\"]\n[BlackFideId \"-\"]\n[TimeControl \"40/7200:3600\"]\n[EventDate \"2024.??.??\"]\n[UTCDate \"2024.02.29\"]\n[UTCTime \"23:59:59\"]\n[SetUp \"0\"]\n\n1. e4 *\n"
        );
        assert_eq!(findings(&pgn), []);
    }

    #[test]
    fn no_tags_no_finding_and_tags_only_is_a_game() {
        assert_eq!(findings("1. e4 e5 *\n"), []);
        assert_eq!(
            findings("[ECO \"A00\"]\n[Opening \"Irregular\"]\n\n*\n"),
            []
        );
        assert_eq!(
            findings("[White \"w\"]\n[Black \"b\"]\n"),
            [(
                Code::MissingTag,
                1,
                "Seven Tag Roster tags Event, Site, Date, Round, Result missing".to_string()
            )]
        );
    }

    #[test]
    fn each_bad_value_is_named_at_its_tag() {
        let pgn = ROSTER_TAGS
            .replace("2024.02.29", "2023.02.29")
            .replace("[Site \"s\"]\n", "")
            .replace("5.12", "R5")
            + "[WhiteElo \"?\"]\n[TimeControl \"90 min + 30 s\"]\n[BlackFideId \"1234567890\"]\n[setup \"2\"]\n[UTCTime \"24:00:00\"]\n";
        assert_eq!(
            findings(&pgn),
            [
                (Code::MissingTag, 1, "Seven Tag Roster tag Site missing".to_string()),
                (
                    Code::TagValue,
                    2,
                    "tag Date \"2023.02.29\": no such day (the month has 28 days that year)".to_string()
                ),
                (
                    Code::TagValue,
                    3,
                    "tag Round \"R5\": not a round (?, - or numbers joined by dots)".to_string()
                ),
                (
                    Code::TagValue,
                    7,
                    "tag WhiteElo \"?\": not a rating (digits, - or empty)".to_string()
                ),
                (
                    Code::TagValue,
                    8,
                    "tag TimeControl \"90 min + 30 s\": not a time control (?, -, or fields like 40/7200, 300+2, 3600, *180 joined by :)".to_string()
                ),
                (
                    Code::TagValue,
                    9,
                    "tag BlackFideId \"1234567890\": not a FIDE id (at most 9 digits)".to_string()
                ),
                (Code::TagValue, 10, "tag setup \"2\": not 0 or 1".to_string()),
                (
                    Code::TagValue,
                    11,
                    "tag UTCTime \"24:00:00\": no such time (hours 00-23, minutes and seconds 00-59)"
                        .to_string()
                ),
            ]
        );
    }
}
