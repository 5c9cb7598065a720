//! The syntax of standard tag values: dates, rounds, ratings, FIDE ids, time controls,
//! `SetUp` and `UTCTime`, parsed with nom into typed values.
//!
//! Each parser takes the whole (decoded, unescaped) value and accepts it only if all of it
//! has the form; what it refuses is returned as the [`TagValueError`] naming what the
//! definition excludes. No chess here: whether a game's tags are reported is the
//! validator's decision.
//!
//! ```
//! use planilla_parser::tag_values::{Period, TimeControl, parse_date, parse_time_control};
//!
//! let tc = parse_time_control("40/7200:3600").unwrap();
//! assert_eq!(
//!     tc,
//!     TimeControl::Periods(vec![
//!         Period { moves: Some(40), seconds: 7200, increment: 0, sandclock: false },
//!         Period { moves: None, seconds: 3600, increment: 0, sandclock: false },
//!     ])
//! );
//! assert!(parse_date("2024.02.30").is_err());
//! assert_eq!(parse_date("1985.??.??").unwrap().year, Some(1985));
//! ```

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while_m_n};
use nom::character::complete::{char, digit1};
use nom::combinator::{all_consuming, map, map_res, opt, recognize, value as constant, verify};
use nom::multi::{many0_count, separated_list1};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};
use std::fmt;

/// A value refused by one of this module's parsers: what the tag's definition asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagValueError {
    /// What the definition excludes, in lower case, e.g. `not a date (YYYY.MM.DD, ?? for
    /// unknown parts)`.
    pub reason: &'static str,
}

impl fmt::Display for TagValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason)
    }
}

impl std::error::Error for TagValueError {}

const fn refuse(reason: &'static str) -> TagValueError {
    TagValueError { reason }
}

/// A `Date`, `EventDate` or `UTCDate` value: `YYYY.MM.DD` with `????`/`??` for the parts
/// not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Date {
    /// The year, if known.
    pub year: Option<u16>,
    /// The month (1-12), if known.
    pub month: Option<u8>,
    /// The day of the month (valid for the month and, when known, the year), if known.
    pub day: Option<u8>,
}

/// Parses a date tag value (`2024.02.29`, `1985.??.??`, `????.??.??`).
///
/// # Errors
///
/// A value not of the form `YYYY.MM.DD` (each part digits or all `?`), a month outside
/// 1-12, or a day the month (of that year, when known) does not have.
pub fn parse_date(value: &str) -> Result<Date, TagValueError> {
    judge_date(date_parts(value)?)
}

/// The date whose parts are written `parts`, if the calendar has it.
fn judge_date((year, month, day): DateParts) -> Result<Date, TagValueError> {
    if month.is_some_and(|m| !(1..=12).contains(&m)) {
        return Err(refuse("no such month (01-12)"));
    }
    if let Some(d) = day {
        let last = match month {
            Some(m) => days_in_month(year, m as u8),
            None => 31,
        };
        if d == 0 || d > u16::from(last) {
            return Err(refuse(match last {
                28 => "no such day (the month has 28 days that year)",
                29 => "no such day (the month has at most 29 days)",
                30 => "no such day (the month has 30 days)",
                _ => "no such day (01-31)",
            }));
        }
    }
    Ok(Date {
        year,
        month: month.map(|m| m as u8),
        day: day.map(|d| d as u8),
    })
}

/// Year, month and day as written, `None` for a part of `?`.
type DateParts = (Option<u16>, Option<u16>, Option<u16>);

/// The year, month and day of a date's form `YYYY.MM.DD` (`None` for a part of `?`).
/// The common forms are read by hand ([`date_parts_by_hand`]); others by
/// [`date_parts_nom`] (a unit test checks that both agree).
fn date_parts(value: &str) -> Result<DateParts, TagValueError> {
    match date_parts_by_hand(value.as_bytes()) {
        Some(parts) => Ok(parts),
        None => date_parts_nom(value),
    }
}

/// The parts of `YYYY.MM.DD` with each part digits or all `?`, read from the bytes;
/// `None` for any other form.
fn date_parts_by_hand(b: &[u8]) -> Option<DateParts> {
    if b.len() != 10 || b[4] != b'.' || b[7] != b'.' {
        return None;
    }
    let part = |r: std::ops::Range<usize>| {
        let part = &b[r];
        if part.iter().all(|&c| c == b'?') {
            return Some(None);
        }
        part.iter()
            .try_fold(0u16, |n, &c| {
                c.is_ascii_digit().then(|| n * 10 + u16::from(c - b'0'))
            })
            .map(Some)
    };
    Some((part(0..4)?, part(5..7)?, part(8..10)?))
}

/// [`date_parts`] by nom, for every form.
fn date_parts_nom(value: &str) -> Result<DateParts, TagValueError> {
    fn part(n: usize) -> impl FnMut(&str) -> IResult<&str, Option<u16>> {
        move |i| {
            alt((
                map(take_while_m_n(n, n, |c| c == '?'), |_| None),
                map_res(
                    take_while_m_n(n, n, |c: char| c.is_ascii_digit()),
                    |d: &str| d.parse::<u16>().map(Some),
                ),
            ))
            .parse(i)
        }
    }
    let (_, (year, _, month, _, day)) =
        all_consuming((part(4), char('.'), part(2), char('.'), part(2)))
            .parse(value)
            .map_err(|_: nom::Err<nom::error::Error<&str>>| {
                refuse("not a date (YYYY.MM.DD, ?? for unknown parts)")
            })?;
    Ok((year, month, day))
}

/// The days of `month` (1-12) in `year`; February has 29 when the year is not known.
fn days_in_month(year: Option<u16>, month: u8) -> u8 {
    match month {
        2 => match year {
            Some(y) if !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) => 28,
            _ => 29,
        },
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A `Round` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round<'a> {
    /// `?`: not known.
    Unknown,
    /// `-`: does not apply.
    NotApplicable,
    /// Dot-separated numbers, as written: `5`, or `5.12` (round 5, board 12); read them
    /// with [`Round::numbers`].
    Numbers(&'a str),
}

impl Round<'_> {
    /// The numbers of a [`Round::Numbers`] (`5.12` gives 5 and 12); none otherwise.
    pub fn numbers(&self) -> impl Iterator<Item = u32> + '_ {
        let text = match self {
            Round::Numbers(text) => *text,
            _ => "",
        };
        text.split('.')
            .filter(|part| !part.is_empty())
            .filter_map(|part| part.parse().ok())
    }
}

/// Parses a `Round` value (`?`, `-`, `5`, `5.12`, `1.1`) without allocating.
///
/// # Errors
///
/// Anything else: empty, letters, an empty part (`5.`), a number over `u32`.
pub fn parse_round(value: &str) -> Result<Round<'_>, TagValueError> {
    all_consuming(alt((
        constant(Round::Unknown, char('?')),
        constant(Round::NotApplicable, char('-')),
        map(
            recognize((
                number::<u32>,
                many0_count(preceded(char('.'), number::<u32>)),
            )),
            Round::Numbers,
        ),
    )))
    .parse(value)
    .map(|(_, r)| r)
    .map_err(|_: nom::Err<nom::error::Error<&str>>| {
        refuse("not a round (?, - or numbers joined by dots)")
    })
}

/// Parses a `WhiteElo`/`BlackElo` value: a number, or `None` for `-` or an empty value.
///
/// # Errors
///
/// Anything else (`?`, letters, a sign, a fraction).
pub fn parse_elo(value: &str) -> Result<Option<u32>, TagValueError> {
    if value.is_empty() || value == "-" {
        return Ok(None);
    }
    if let Some(n) = short_number(value) {
        return Ok(Some(n));
    }
    whole(number::<u32>, value)
        .map(Some)
        .map_err(|_| refuse("not a rating (digits, - or empty)"))
}

/// Parses a `WhiteFideId`/`BlackFideId` value: up to 9 digits, or `None` for an empty
/// value or `-` (a player without a FIDE id, as broadcasts write it).
///
/// # Errors
///
/// Anything else, or more than 9 digits.
pub fn parse_fide_id(value: &str) -> Result<Option<u32>, TagValueError> {
    if value.is_empty() || value == "-" {
        return Ok(None);
    }
    if let Some(n) = short_number(value) {
        return Ok(Some(n));
    }
    if value.len() > 9 {
        return Err(refuse("not a FIDE id (at most 9 digits)"));
    }
    whole(number::<u32>, value)
        .map(Some)
        .map_err(|_| refuse("not a FIDE id (at most 9 digits)"))
}

/// Parses a `SetUp` value: `0` (the standard start) or `1` (a FEN tag gives the start).
///
/// # Errors
///
/// Anything else.
pub fn parse_set_up(value: &str) -> Result<bool, TagValueError> {
    match value {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(refuse("not 0 or 1")),
    }
}

/// A `UTCTime` (or `Time`) value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Time {
    /// Hours, 0-23.
    pub hour: u8,
    /// Minutes, 0-59.
    pub minute: u8,
    /// Seconds, 0-59 (60 for a leap second).
    pub second: u8,
}

/// Parses a `UTCTime` value `HH:MM:SS`.
///
/// # Errors
///
/// Another form, or an hour over 23, minutes over 59, seconds over 60.
pub fn parse_time(value: &str) -> Result<Time, TagValueError> {
    fn two(i: &str) -> IResult<&str, u8> {
        map_res(
            take_while_m_n(2, 2, |c: char| c.is_ascii_digit()),
            str::parse,
        )
        .parse(i)
    }
    let (_, (hour, _, minute, _, second)) = all_consuming((two, char(':'), two, char(':'), two))
        .parse(value)
        .map_err(|_: nom::Err<nom::error::Error<&str>>| refuse("not a time (HH:MM:SS)"))?;
    if hour > 23 || minute > 59 || second > 60 {
        return Err(refuse(
            "no such time (hours 00-23, minutes and seconds 00-59)",
        ));
    }
    Ok(Time {
        hour,
        minute,
        second,
    })
}

/// A `TimeControl` value as the PGN standard (section 9.6.1) defines it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `?`: not known.
    Unknown,
    /// `-`: no time control.
    None,
    /// The periods, in the order they are played (fields joined by `:`); the last one
    /// repeats if it has a move count, as the standard says.
    Periods(Vec<Period>),
}

/// One period (field) of a [`TimeControl`].
///
/// The standard's forms: `40/7200` (`moves` and `seconds`), `300+2` (`seconds` and
/// `increment`), `3600` (`seconds`), `*180` (`sandclock` and `seconds`). `40/5400+30`,
/// the form FIDE events and broadcasts write for a period with an increment from move
/// one, is read too (`moves`, `seconds` and `increment`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// The moves to play in the period, or `None` for the rest of the game.
    pub moves: Option<u32>,
    /// The time the period gives, in seconds (a sandclock's whole time).
    pub seconds: u32,
    /// Seconds added after each move of the period (0 if none).
    pub increment: u32,
    /// A sandclock (hourglass): the time the player uses flows to the opponent.
    pub sandclock: bool,
}

/// Parses a `TimeControl` value (`?`, `-`, `40/7200:3600`, `300+2`, `*180`).
///
/// # Errors
///
/// Anything else: text (`90 min + 30 s`), an empty field, a missing number.
pub fn parse_time_control(value: &str) -> Result<TimeControl, TagValueError> {
    all_consuming(alt((
        constant(TimeControl::Unknown, tag("?")),
        constant(TimeControl::None, tag("-")),
        map(separated_list1(char(':'), period), TimeControl::Periods),
    )))
    .parse(value)
    .map(|(_, tc)| tc)
    .map_err(|_: nom::Err<nom::error::Error<&str>>| TIME_CONTROL_FORM)
}

/// Whether [`parse_time_control`] accepts `value`, without building its periods (for a
/// check that runs on every game).
///
/// # Errors
///
/// As [`parse_time_control`].
pub fn check_time_control(value: &str) -> Result<(), TagValueError> {
    all_consuming(alt((
        constant((), tag("?")),
        constant((), tag("-")),
        constant((), (period, many0_count(preceded(char(':'), period)))),
    )))
    .parse(value)
    .map(drop)
    .map_err(|_: nom::Err<nom::error::Error<&str>>| TIME_CONTROL_FORM)
}

const TIME_CONTROL_FORM: TagValueError =
    refuse("not a time control (?, -, or fields like 40/7200, 300+2, 3600, *180 joined by :)");

/// One field of a time control: `*180`, `40/7200`, `300+2`, `3600` or `40/5400+30` (a
/// move count of 0 is no period).
fn period(i: &str) -> IResult<&str, Period> {
    alt((
        map(preceded(char('*'), number::<u32>), |seconds| Period {
            moves: None,
            seconds,
            increment: 0,
            sandclock: true,
        }),
        map(
            (
                opt(terminated(verify(number::<u32>, |&n| n > 0), char('/'))),
                number::<u32>,
                opt(preceded(char('+'), number::<u32>)),
            ),
            |(moves, seconds, increment)| Period {
                moves,
                seconds,
                increment: increment.unwrap_or(0),
                sandclock: false,
            },
        ),
    ))
    .parse(i)
}

/// The standard tags whose values this module reads, for a caller that judges every
/// game's tags: [`TagKind::check`] gives a parser's verdict without its value, and
/// [`TagKind::is_plainly_valid`] reads the common valid forms from the raw bytes, so
/// that most values cost neither decoding nor a parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TagKind {
    /// `Date`, `EventDate`, `UTCDate`: [`parse_date`].
    Date,
    /// `Round`: [`parse_round`].
    Round,
    /// `WhiteElo`, `BlackElo`: [`parse_elo`].
    Elo,
    /// `WhiteFideId`, `BlackFideId`: [`parse_fide_id`].
    FideId,
    /// `TimeControl`: [`check_time_control`].
    TimeControl,
    /// `SetUp`: [`parse_set_up`].
    SetUp,
    /// `UTCTime`: [`parse_time`].
    Time,
}

impl TagKind {
    /// Whether the (decoded, unescaped) `value` has the form the tag's definition asks
    /// for: the verdict of the tag's parser.
    ///
    /// # Errors
    ///
    /// What the tag's parser refuses.
    pub fn check(self, value: &str) -> Result<(), TagValueError> {
        if self.is_plainly_valid(value.as_bytes()) {
            return Ok(());
        }
        self.parse(value)
    }

    /// [`TagKind::check`] by the tag's parser alone.
    fn parse(self, value: &str) -> Result<(), TagValueError> {
        match self {
            TagKind::Date => parse_date(value).map(drop),
            TagKind::Round => parse_round(value).map(drop),
            TagKind::Elo => parse_elo(value).map(drop),
            TagKind::FideId => parse_fide_id(value).map(drop),
            TagKind::TimeControl => check_time_control(value),
            TagKind::SetUp => parse_set_up(value).map(drop),
            TagKind::Time => parse_time(value).map(drop),
        }
    }

    /// Whether the raw bytes of a value are one of the tag's common valid forms (digits
    /// and punctuation only, so no decoding or escape can change them): `2024.02.29`,
    /// `2024.??.??`, `5.12`, `2750`, `40/7200:3600`, `300+2`, `12:30:00`... `false` only
    /// says that [`TagKind::check`] must judge the decoded value; a unit test checks that
    /// the parsers accept every value this accepts.
    pub fn is_plainly_valid(self, value: &[u8]) -> bool {
        match self {
            TagKind::Date => plain_date(value),
            TagKind::Round => value == b"?" || value == b"-" || plain_round(value),
            TagKind::Elo | TagKind::FideId => {
                value.is_empty() || value == b"-" || short_digits(value)
            }
            TagKind::TimeControl => {
                value == b"?" || value == b"-" || value.split(|&b| b == b':').all(plain_period)
            }
            TagKind::SetUp => value == b"0" || value == b"1",
            TagKind::Time => plain_time(value),
        }
    }
}

/// A date the calendar has, `YYYY.MM.DD` in digits (the common case, read without
/// building its parts) or with parts of `?`.
fn plain_date(value: &[u8]) -> bool {
    if let &[y1, y2, y3, y4, b'.', m1, m2, b'.', d1, d2] = value
        && [y1, y2, y3, y4, m1, m2, d1, d2]
            .iter()
            .all(u8::is_ascii_digit)
    {
        let d = |c: u8| u16::from(c - b'0');
        let year = d(y1) * 1000 + d(y2) * 100 + d(y3) * 10 + d(y4);
        let (month, day) = (d(m1) * 10 + d(m2), d(d1) * 10 + d(d2));
        return (1..=12).contains(&month)
            && day >= 1
            && day <= u16::from(days_in_month(Some(year), month as u8));
    }
    date_parts_by_hand(value).is_some_and(|parts| judge_date(parts).is_ok())
}

/// 1 to 9 ASCII digits: a number that fits a `u32` whatever its digits.
fn short_digits(digits: &[u8]) -> bool {
    (1..=9).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit)
}

/// Numbers of 1 to 9 digits joined by dots (`5`, `5.12`), read in one pass.
fn plain_round(value: &[u8]) -> bool {
    let mut digits = 0;
    for &b in value {
        if b.is_ascii_digit() && digits < 9 {
            digits += 1;
        } else if b == b'.' && digits > 0 {
            digits = 0;
        } else {
            return false;
        }
    }
    digits > 0
}

/// A time control field of the forms `3600`, `300+2`, `40/7200` and `40/5400+30`, each
/// number of 1 to 9 digits and the move count not 0 (a sandclock is left to the parser).
fn plain_period(field: &[u8]) -> bool {
    let (moves, rest) = match field.iter().position(|&b| b == b'/') {
        Some(i) => (Some(&field[..i]), &field[i + 1..]),
        None => (None, field),
    };
    let (seconds, increment) = match rest.iter().position(|&b| b == b'+') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    moves.is_none_or(|m| short_digits(m) && m.iter().any(|&b| b != b'0'))
        && short_digits(seconds)
        && increment.is_none_or(short_digits)
}

/// `HH:MM:SS` in range, as [`parse_time`] accepts it.
fn plain_time(value: &[u8]) -> bool {
    let &[h1, h2, b':', m1, m2, b':', s1, s2] = value else {
        return false;
    };
    let two = |a: u8, b: u8| {
        (a.is_ascii_digit() && b.is_ascii_digit()).then(|| (a - b'0') * 10 + (b - b'0'))
    };
    matches!(
        (two(h1, h2), two(m1, m2), two(s1, s2)),
        (Some(h), Some(m), Some(s)) if h <= 23 && m <= 59 && s <= 60
    )
}

/// A value of 1 to 9 ASCII digits, read by hand (the common case of ratings and ids;
/// the nom parsers read the rest).
fn short_number(value: &str) -> Option<u32> {
    let b = value.as_bytes();
    if b.is_empty() || b.len() > 9 {
        return None;
    }
    b.iter().try_fold(0u32, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
    })
}

/// A run of ASCII digits read as a `T` (too large a number fails).
fn number<T: std::str::FromStr>(i: &str) -> IResult<&str, T> {
    map_res(digit1, str::parse).parse(i)
}

/// Runs `parser` over all of `value`.
fn whole<'a, O>(
    parser: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
    value: &'a str,
) -> Result<O, ()> {
    all_consuming(parser)
        .parse(value)
        .map(|(_, o)| o)
        .map_err(|_| ())
}

#[cfg(test)]
mod tests;
