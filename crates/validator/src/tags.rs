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
use planilla_parser::tag_values::{
    TagValueError, check_time_control, parse_date, parse_elo, parse_fide_id, parse_round,
    parse_set_up, parse_time,
};
use planilla_parser::{Game, TagSpans};
use std::borrow::Cow;

/// The Seven Tag Roster, in the standard's order.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The check of a tag's value.
type ValueCheck = fn(&str) -> Result<(), TagValueError>;

/// The tags this check knows: name, index in [`ROSTER`] if a roster tag, and the check of
/// its value if judged.
const KNOWN: [(&str, Option<usize>, Option<ValueCheck>); 16] = [
    ("Event", Some(0), None),
    ("Site", Some(1), None),
    ("Date", Some(2), Some(|v| parse_date(v).map(drop))),
    ("Round", Some(3), Some(|v| parse_round(v).map(drop))),
    ("White", Some(4), None),
    ("Black", Some(5), None),
    ("Result", Some(6), None),
    ("EventDate", None, Some(|v| parse_date(v).map(drop))),
    ("UTCDate", None, Some(|v| parse_date(v).map(drop))),
    ("WhiteElo", None, Some(|v| parse_elo(v).map(drop))),
    ("BlackElo", None, Some(|v| parse_elo(v).map(drop))),
    ("WhiteFideId", None, Some(|v| parse_fide_id(v).map(drop))),
    ("BlackFideId", None, Some(|v| parse_fide_id(v).map(drop))),
    ("TimeControl", None, Some(check_time_control)),
    ("SetUp", None, Some(|v| parse_set_up(v).map(drop))),
    ("UTCTime", None, Some(|v| parse_time(v).map(drop))),
];

/// The entry of [`KNOWN`] for a tag name, compared without case: most names of a game are
/// told apart by their length alone.
fn known(name: &[u8]) -> Option<&'static (&'static str, Option<usize>, Option<ValueCheck>)> {
    let candidates: &[usize] = match name.len() {
        4 => &[1, 2],
        5 => &[0, 3, 4, 5, 14],
        6 => &[6],
        7 => &[8, 15],
        8 => &[9, 10],
        9 => &[7],
        11 => &[11, 12, 13],
        _ => return None,
    };
    // Names as the standard writes them first: a plain comparison, no case folding.
    let mut entries = candidates.iter().map(|&i| &KNOWN[i]);
    entries
        .clone()
        .find(|(known, _, _)| name == known.as_bytes())
        .or_else(|| entries.find(|(known, _, _)| name.eq_ignore_ascii_case(known.as_bytes())))
}

/// Appends the `missing-tag` and `tag-value` findings of `game`'s tags to `out`: the
/// missing tags first (reported at the first tag), then each bad value in tag order.
///
/// Tags are few, but every game has them: names are compared as raw bytes (lengths
/// first), and a value is decoded only when it is not plain ASCII without escapes.
pub(crate) fn check_tags(game: &Game, out: &mut Vec<Finding>) {
    let tags = game.tags();
    let Some(first) = tags.first() else {
        return;
    };
    let bytes = game.bytes();
    let tag_start = |t: &TagSpans| game.tokens()[t.token as usize].start as usize;
    let mark = out.len();
    let mut present = [false; ROSTER.len()];

    for (i, t) in tags.iter().enumerate() {
        let name = &bytes[t.name_span()];
        let Some(&(_, roster, check)) = known(name) else {
            continue;
        };
        if let Some(r) = roster {
            present[r] = true;
        }
        let Some(check) = check else {
            continue;
        };
        let raw = &bytes[t.value_span()];
        let value: Cow<'_, str> = match std::str::from_utf8(raw) {
            Ok(plain) if plain.is_ascii() && !raw.contains(&b'\\') => Cow::Borrowed(plain),
            _ => game.tag_pairs().nth(i).map(|(_, v)| v).unwrap_or_default(),
        };
        if let Err(e) = check(&value) {
            let name = game.decode(t.name_span());
            out.push(Finding::in_game(
                Code::TagValue,
                game,
                tag_start(t),
                format!("tag {name} \"{value}\": {e}"),
            ));
        }
    }

    let missing: Vec<&str> = ROSTER
        .iter()
        .zip(present)
        .filter(|(_, here)| !here)
        .map(|(name, _)| *name)
        .collect();
    if !missing.is_empty() && missing.len() < ROSTER.len() {
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
        assert!(known(b"ECO").is_none());
        assert!(known(b"Opening").is_none());
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
