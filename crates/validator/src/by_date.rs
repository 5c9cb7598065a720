//! `--rules by-date`: each game by the edition of the Laws in force on its Date.
//!
//! The FIDE Laws of 1 July 2009 and of 1 July 2014 changed the draw rules a validator
//! can tell apart (castling rights in "the same position"; fivefold repetition and 75
//! moves ending the game by themselves): a game is judged by the edition in force on its
//! Date. A Date without a year (or no Date) gets the default edition and a note; a Date
//! whose month is unknown in a year an edition came into force gets the edition in force
//! on the first day it can mean (the older one). Either way the `rules-by-date` note is
//! reported only when the editions the Date allows would judge the game differently
//! (see [`Undecided`] and `Checker::check_with`).

use crate::finding::{Code, Finding};
use crate::rules::{Rules, RulesChoice};
use planilla_parser::Game;
use planilla_parser::tag_values::parse_date;

/// The editions after 2005 with the year and month they came into force (on the 1st),
/// newest first; before the last of them, [`Rules::Fide2005`].
const EDITIONS: [(u16, u8, Rules); 2] = [(2014, 7, Rules::Fide2023), (2009, 7, Rules::Fide2009)];

/// The edition in force in `month` of `year`.
fn in_force(year: u16, month: u8) -> Rules {
    EDITIONS
        .iter()
        .find(|&&(y, m, _)| (year, month) >= (y, m))
        .map_or(Rules::Fide2005, |&(_, _, rules)| rules)
}

/// The first day of `rules` as the message names it.
fn first_day(rules: Rules) -> &'static str {
    match rules {
        Rules::Fide2023 => "2014-07-01",
        Rules::Fide2009 => "2009-07-01",
        Rules::Fide2005 => "the start",
    }
}

/// A Date that does not decide the edition alone: the editions it allows (the one the
/// game is judged by among them) and the `rules-by-date` note to report when they would
/// judge the game differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Undecided {
    pub(crate) editions: &'static [Rules],
    pub(crate) note: Finding,
}

/// The edition `choice` gives `game`, and what its Date left undecided.
pub(crate) fn rules_for(choice: RulesChoice, game: &Game) -> (Rules, Option<Undecided>) {
    if let RulesChoice::Edition(rules) = choice {
        return (rules, None);
    }
    let default = Rules::default();
    // A name that is not ASCII never equals `Date` up to ASCII case, decoded or not.
    let Some((index, value)) = game.tag_ignoring_case("Date") else {
        let note = format!("no Date tag: judged by {default}, the default edition");
        return (
            default,
            Some(Undecided {
                editions: &Rules::ALL,
                note: Finding::in_game(Code::RulesByDate, game, 0, note),
            }),
        );
    };
    let at = game.tokens()[game.tags()[index].token as usize].start as usize;
    let undecided = |editions: &'static [Rules], message: String| {
        Some(Undecided {
            editions,
            note: Finding::in_game(Code::RulesByDate, game, at, message),
        })
    };
    let (year, month) = match parse_date(&value) {
        Ok(date) => (date.year, date.month),
        // A value not in the PGN form (tag-value says so) may still show its year.
        Err(_) => lenient_year_month(&value),
    };
    let Some(year) = year else {
        let message =
            format!("Date \"{value}\" has no year: judged by {default}, the default edition");
        return (default, undecided(&Rules::ALL, message));
    };
    match month {
        Some(month) => (in_force(year, month.clamp(1, 12)), None),
        None => {
            let (first, last) = (in_force(year, 1), in_force(year, 12));
            if first == last {
                return (first, None);
            }
            let message = format!(
                "Date \"{value}\" may fall before or after {}, when {last} came into force: judged by {first}, the edition in force on its first possible day",
                first_day(last)
            );
            let editions: &'static [Rules] = match last {
                Rules::Fide2023 => &[Rules::Fide2009, Rules::Fide2023],
                _ => &[Rules::Fide2005, Rules::Fide2009],
            };
            (first, undecided(editions, message))
        }
    }
}

/// The year (and month) of a date written in another form than PGN's, when it starts
/// with four digits (`1985-03-12`, `1985/3/12`, `1985`).
fn lenient_year_month(value: &str) -> (Option<u16>, Option<u8>) {
    let b = value.trim().as_bytes();
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    if b.len() < 4 || !digits(&b[..4]) || b.get(4).is_some_and(u8::is_ascii_digit) {
        return (None, None);
    }
    let year = std::str::from_utf8(&b[..4])
        .ok()
        .and_then(|y| y.parse().ok());
    let rest = b.get(5..).unwrap_or_default();
    let len = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let month = std::str::from_utf8(&rest[..len.min(2)])
        .ok()
        .and_then(|m| m.parse::<u8>().ok())
        .filter(|m| (1..=12).contains(m) && (1..=2).contains(&len));
    (year, month)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(date: Option<&str>) -> (Rules, Option<String>) {
        let pgn = match date {
            Some(d) => format!("[Event \"e\"]\n[Date \"{d}\"]\n\n1. e4 *\n"),
            None => "[Event \"e\"]\n\n1. e4 *\n".to_string(),
        };
        let game = Game::from_bytes(pgn.as_bytes(), Default::default());
        let (rules, undecided) = rules_for(RulesChoice::ByDate, &game);
        (rules, undecided.map(|u| u.note.message))
    }

    /// The edition of each Date, at the edges of the editions and with parts unknown.
    #[test]
    fn each_date_gets_the_edition_in_force() {
        use Rules::*;
        let table = [
            ("1985.09.10", Fide2005, false),
            ("2009.06.30", Fide2005, false),
            ("2009.07.01", Fide2009, false),
            ("2014.06.30", Fide2009, false),
            ("2014.07.01", Fide2023, false),
            ("2026.11.25", Fide2023, false),
            ("1985.??.??", Fide2005, false),
            ("2013.??.??", Fide2009, false),
            ("2015.??.??", Fide2023, false),
            ("2014.07.??", Fide2023, false),
            ("2009.??.??", Fide2005, true),
            ("2014.??.??", Fide2009, true),
            ("????.??.??", Fide2023, true),
            ("????.07.01", Fide2023, true),
            ("1985-09-10", Fide2005, false),
            ("2014/7/1", Fide2023, false),
            ("2014-13-01", Fide2009, true),
            ("sometime", Fide2023, true),
            ("", Fide2023, true),
        ];
        for (date, rules, noted) in table {
            let (got, note) = judged(Some(date));
            assert_eq!((got, note.is_some()), (rules, noted), "{date}: {note:?}");
        }
        assert_eq!(
            judged(None),
            (
                Fide2023,
                Some("no Date tag: judged by fide-2023, the default edition".into())
            )
        );
        assert_eq!(
            judged(Some("????.??.??")).1.unwrap(),
            "Date \"????.??.??\" has no year: judged by fide-2023, the default edition"
        );
        assert_eq!(
            judged(Some("2014.??.??")).1.unwrap(),
            "Date \"2014.??.??\" may fall before or after 2014-07-01, when fide-2023 came into force: judged by fide-2009, the edition in force on its first possible day"
        );
    }

    /// A fixed edition is every game's, whatever its Date, and never noted.
    #[test]
    fn a_fixed_edition_ignores_the_date() {
        let game = Game::from_bytes(
            &b"[Date \"1985.09.10\"]\n\n1. e4 *\n"[..],
            Default::default(),
        );
        for rules in Rules::ALL {
            assert_eq!(rules_for(rules.into(), &game), (rules, None));
        }
    }
}
