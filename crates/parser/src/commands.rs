//! Clock commands inside comments (`{ [%eval 0.17] [%clk 0:03:00] }`): syntax only, no
//! chess.
//!
//! [`clock_commands`] finds the `[%clk H:MM:SS]` (the time left on the mover's clock
//! after the move) and `[%emt H:MM:SS]` (the time the move took) commands of a comment's
//! text and reads their values; every other command (`[%eval]`, `[%csl]`, `[%cal]`, ...)
//! is skipped. A comment without `[%` costs one byte search. The TimeControl tag is read by
//! [`crate::tag_values::parse_time_control`]. What the values mean for a game (a clock
//! that rises, a move without one) is judged by the validator.

use nom::bytes::complete::take_while1;
use nom::character::complete::char as byte_char;
use nom::combinator::{all_consuming, opt};
use nom::sequence::preceded;
use nom::{IResult, Parser};
use std::fmt;
use std::ops::Range;

/// Which clock command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockKind {
    /// `[%clk]`: the time left on the mover's clock after the move.
    Clock,
    /// `[%emt]`: the time the move took (elapsed move time).
    Elapsed,
}

impl ClockKind {
    /// The command's name as written (`clk`, `emt`).
    pub const fn name(self) -> &'static str {
        match self {
            ClockKind::Clock => "clk",
            ClockKind::Elapsed => "emt",
        }
    }
}

/// A clock command found in a comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockCommand {
    /// `clk` or `emt`.
    pub kind: ClockKind,
    /// The command's bytes in the text given to [`clock_commands`], from `[` to `]`
    /// (to the end of the text, spaces left out, when the `]` is missing).
    pub span: Range<usize>,
    /// The value in milliseconds, or what is wrong with it.
    pub value: Result<u64, ClockError>,
}

/// What is wrong with a clock command's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockError {
    /// No `]` closes the command.
    Unclosed,
    /// The value is not `H:MM:SS` (with an optional fraction of the seconds).
    NotHms,
    /// The minutes are over 59.
    MinutesOver59,
    /// The seconds are over 59.
    SecondsOver59,
    /// The hours are too many to count.
    TooLarge,
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClockError::Unclosed => "no ']' closes the command",
            ClockError::NotHms => "the value is not H:MM:SS",
            ClockError::MinutesOver59 => "the minutes are over 59",
            ClockError::SecondsOver59 => "the seconds are over 59",
            ClockError::TooLarge => "the hours are too many",
        })
    }
}

/// Whether `text` may hold a command (`[%`): one byte search, for callers that read
/// commands only where there are some.
#[inline]
pub fn has_commands(text: &[u8]) -> bool {
    // The comment that opens with its command (`{ [%clk 0:04:58] }`, after every move of
    // an online export): one comparison of four bytes.
    text.starts_with(b"{ [%") || command_start(text).is_some()
}

/// The index of the first `[%` in `text`. A search for the rarer `%` alone, with no
/// searcher to build per call as a two-byte [`memchr::memmem`] search has.
#[inline]
fn command_start(text: &[u8]) -> Option<usize> {
    let mut from = 0;
    loop {
        let rest = &text[from..];
        // Most comments with commands are short (`{ [%clk 0:04:58] }`): a plain loop
        // beats the set-up of a vector search there.
        let i = if rest.len() < 64 {
            rest.iter().position(|&b| b == b'%')
        } else {
            memchr::memchr(b'%', rest)
        }?;
        let at = from + i;
        if at > 0 && text[at - 1] == b'[' {
            return Some(at - 1);
        }
        from = at + 1;
    }
}

/// The clock commands of a comment's text (without its braces), in order.
///
/// ```
/// use planilla_parser::commands::{ClockKind, clock_commands};
///
/// let found: Vec<_> = clock_commands(b"{ [%eval 0.17] [%clk 0:03:00.5] }").collect();
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].kind, ClockKind::Clock);
/// assert_eq!(found[0].value, Ok(180_500));
/// ```
pub fn clock_commands(text: &[u8]) -> ClockCommands<'_> {
    ClockCommands { text, at: 0 }
}

/// The iterator of [`clock_commands`].
#[derive(Clone, Debug)]
pub struct ClockCommands<'t> {
    text: &'t [u8],
    at: usize,
}

impl Iterator for ClockCommands<'_> {
    type Item = ClockCommand;

    fn next(&mut self) -> Option<ClockCommand> {
        if self.at == 0
            && let Some(command) = lone_clock(self.text)
        {
            self.at = self.text.len();
            return Some(command);
        }
        self.search()
    }
}

impl ClockCommands<'_> {
    /// The next command, found by searching for `[%`.
    fn search(&mut self) -> Option<ClockCommand> {
        loop {
            let start = self.at + command_start(&self.text[self.at..])?;
            let name_start = start + 2;
            let name_len = self.text[name_start..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            let after_name = name_start + name_len;
            // Other commands are skipped from their name on, so that one missing its
            // `]` hides no clock after it.
            self.at = after_name;
            let kind = match &self.text[name_start..after_name] {
                b"clk" => ClockKind::Clock,
                b"emt" => ClockKind::Elapsed,
                _ => continue,
            };
            let close = self.text[after_name..]
                .iter()
                .position(|&b| b == b']')
                .map(|i| after_name + i);
            self.at = close.map_or(self.text.len(), |c| c + 1);
            let Some(close) = close else {
                return Some(ClockCommand {
                    kind,
                    span: start..start + self.text[start..].trim_ascii_end().len(),
                    value: Err(ClockError::Unclosed),
                });
            };
            // A command that holds another's start lost its `]`: `[%clk 0:01:00 [%emt ...]`.
            if let Some(next) = command_start(&self.text[after_name..close]) {
                self.at = after_name + next;
                return Some(ClockCommand {
                    kind,
                    span: start..after_name + next,
                    value: Err(ClockError::Unclosed),
                });
            }
            let value = self.text[after_name..close].trim_ascii();
            return Some(ClockCommand {
                kind,
                span: start..close + 1,
                value: parse_hms(value),
            });
        }
    }
}

/// The command of a text that is `[%clk H:MM:SS]` alone, or with one space on each side
/// as lichess writes every clock (`{ [%clk 0:03:00] }`), with a value of the common shape
/// (`H:MM:SS`, one hour digit, in range): read at fixed places, without a search. What
/// [`clock_commands`] finds there, its only command; `None` for any other text, which
/// [`clock_commands`] reads.
#[inline]
pub fn lone_clock(text: &[u8]) -> Option<ClockCommand> {
    let (start, command) = match text {
        [b' ', command @ .., b' '] if command.len() == 14 => (1, command),
        command if command.len() == 14 => (0, command),
        _ => return None,
    };
    let value = command.strip_prefix(b"[%clk ")?.strip_suffix(b"]")?;
    Some(ClockCommand {
        kind: ClockKind::Clock,
        span: start..start + command.len(),
        value: Ok(short_hms(value)?),
    })
}

/// Reads `H:MM:SS` or `H:MM:SS.f` (hours: any number of digits) into milliseconds
/// (fraction digits past the third are dropped).
pub fn parse_hms(value: &[u8]) -> Result<u64, ClockError> {
    match short_hms(value) {
        Some(ms) => Ok(ms),
        None => parse_hms_full(value),
    }
}

/// The common shape, `H:MM:SS` with one hour digit and in range, read directly (in
/// milliseconds); `None` for any other. The unit tests check it against the full parser.
#[inline]
fn short_hms(value: &[u8]) -> Option<u64> {
    let &[h, b':', m1, m2, b':', s1, s2] = value else {
        return None;
    };
    let in_range = [h, m1, m2, s1, s2].iter().all(u8::is_ascii_digit) && m1 < b'6' && s1 < b'6';
    let d = |b: u8| u64::from(b - b'0');
    in_range.then(|| ((d(h) * 60 + d(m1) * 10 + d(m2)) * 60 + d(s1) * 10 + d(s2)) * 1000)
}

/// [`parse_hms`] without its fast path.
fn parse_hms_full(value: &[u8]) -> Result<u64, ClockError> {
    fn digits(i: &[u8]) -> IResult<&[u8], &[u8]> {
        take_while1(|b: u8| b.is_ascii_digit())(i)
    }
    let mut hms = all_consuming((
        digits,
        preceded(byte_char(':'), digits),
        preceded(byte_char(':'), digits),
        opt(preceded(byte_char('.'), digits)),
    ));
    let (_, (h, m, s, fraction)) = hms.parse(value).map_err(|_| ClockError::NotHms)?;
    if m.len() != 2 || s.len() != 2 {
        return Err(ClockError::NotHms);
    }
    let two = |d: &[u8]| u64::from(d[0] - b'0') * 10 + u64::from(d[1] - b'0');
    let (minutes, seconds) = (two(m), two(s));
    if minutes > 59 {
        return Err(ClockError::MinutesOver59);
    }
    if seconds > 59 {
        return Err(ClockError::SecondsOver59);
    }
    let hours = number(h).ok_or(ClockError::TooLarge)?;
    let mut millis = 0;
    for (i, d) in fraction.unwrap_or_default().iter().take(3).enumerate() {
        millis += u64::from(d - b'0') * [100, 10, 1][i];
    }
    hours
        .checked_mul(3_600_000)
        .and_then(|h| h.checked_add((minutes * 60 + seconds) * 1000 + millis))
        .ok_or(ClockError::TooLarge)
}

/// ASCII digits as a number, `None` on overflow.
fn number(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |n, d| {
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first `[%` of a text, and whether there is one, for every text of up to six
    /// bytes over the bytes that matter (and a long one, for the vector search).
    #[test]
    fn commands_are_found_as_a_plain_search_finds_them() {
        let naive = |t: &[u8]| t.windows(2).position(|w| w == b"[%");
        let alphabet = b"{ [%}c";
        let mut texts = vec![Vec::new()];
        for _ in 0..6 {
            let longer: Vec<Vec<u8>> = texts
                .iter()
                .flat_map(|t| {
                    alphabet.iter().map(move |&b| {
                        let mut t = t.clone();
                        t.push(b);
                        t
                    })
                })
                .collect();
            texts.extend(longer.into_iter().filter(|t| t.len() <= 6));
            texts.sort();
            texts.dedup();
        }
        let mut long = vec![b'c'; 100];
        long.extend_from_slice(b" [%clk 0:01:00]");
        texts.push(long);
        for text in &texts {
            let shown = String::from_utf8_lossy(text);
            assert_eq!(command_start(text), naive(text), "{shown:?}");
            assert_eq!(has_commands(text), naive(text).is_some(), "{shown:?}");
        }
        assert!(texts.len() > 40_000, "{}", texts.len());
    }

    #[test]
    fn clock_values() {
        let cases: &[(&str, Result<u64, ClockError>)] = &[
            ("0:05:00", Ok(300_000)),
            ("1:23:45", Ok(5_025_000)),
            ("0:02:59.9", Ok(179_900)),
            ("0:00:00.123456", Ok(123)),
            ("100:00:01", Ok(360_001_000)),
            ("0:60:00", Err(ClockError::MinutesOver59)),
            ("0:05:60", Err(ClockError::SecondsOver59)),
            ("0:5:00", Err(ClockError::NotHms)),
            ("5:00", Err(ClockError::NotHms)),
            ("0:05:00.", Err(ClockError::NotHms)),
            ("a:05:00", Err(ClockError::NotHms)),
            ("-0:05:00", Err(ClockError::NotHms)),
            ("0:05:00 x", Err(ClockError::NotHms)),
            ("", Err(ClockError::NotHms)),
            ("99999999999999999999:00:00", Err(ClockError::TooLarge)),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_hms(text.as_bytes()), *expected, "{text}");
            assert_eq!(parse_hms_full(text.as_bytes()), *expected, "{text}");
        }
        // The fast path agrees with the full parser on every short shape it may take.
        for h in [b'0', b'9', b'a'] {
            for m in [b"00", b"59", b"60", b"5a"] {
                for sec in [b"00", b"59", b"60", b"a0"] {
                    let v = [h, b':', m[0], m[1], b':', sec[0], sec[1]];
                    assert_eq!(parse_hms(&v), parse_hms_full(&v), "{v:?}");
                }
            }
        }
    }

    #[test]
    fn commands_in_comments() {
        type Case = (
            &'static str,
            &'static [(ClockKind, Result<u64, ClockError>)],
        );
        let cases: &[Case] = &[
            ("{ no commands }", &[]),
            (
                "{ [%eval 0.17] [%clk 0:03:00] }",
                &[(ClockKind::Clock, Ok(180_000))],
            ),
            (
                "{[%clk 0:03:00][%emt 0:00:02]}",
                &[
                    (ClockKind::Clock, Ok(180_000)),
                    (ClockKind::Elapsed, Ok(2000)),
                ],
            ),
            ("{ [%clk  0:03:00 ] }", &[(ClockKind::Clock, Ok(180_000))]),
            ("{ [%clock 0:03:00] [%csl Ga1] }", &[]),
            (
                "{ [%eval 0.1 [%clk 0:00:01] }",
                &[(ClockKind::Clock, Ok(1000))],
            ),
            (
                "{ [%clk 0:03:00 }",
                &[(ClockKind::Clock, Err(ClockError::Unclosed))],
            ),
            (
                "{ [%clk 0:03:00 [%emt 0:00:01] }",
                &[
                    (ClockKind::Clock, Err(ClockError::Unclosed)),
                    (ClockKind::Elapsed, Ok(1000)),
                ],
            ),
            (
                "{ [%clk 0:99:00] }",
                &[(ClockKind::Clock, Err(ClockError::MinutesOver59))],
            ),
            ("{ [%clk] }", &[(ClockKind::Clock, Err(ClockError::NotHms))]),
        ];
        for (text, expected) in cases {
            let found: Vec<_> = clock_commands(text.as_bytes())
                .map(|c| (c.kind, c.value))
                .collect();
            assert_eq!(found, *expected, "{text}");
        }
        // A lone clock, read without the search, gives what the search gives.
        for text in [
            " [%clk 0:03:00] ",
            "[%clk 1:23:45]",
            "  [%clk 0:99:00]\n",
            " [%clk 0:03:0] ",
            " [%clk 0:03:00]] ",
            " [%clk 0:03:00] x",
            " [%clk 0:03:00] [%emt 0:00:01] ",
        ] {
            let text = text.as_bytes();
            let mut search = ClockCommands { text, at: 0 };
            let searched: Vec<_> = std::iter::from_fn(|| search.search()).collect();
            let found: Vec<_> = clock_commands(text).collect();
            assert_eq!(found, searched, "{text:?}");
        }
        assert!(lone_clock(b" [%clk 0:03:00] ").is_some());
        assert!(lone_clock(b"[%clk 0:03:00]").is_some());
        let text = b"{ [%eval 1] [%clk 0:03:00] }";
        let found: Vec<_> = clock_commands(text).collect();
        assert_eq!(&text[found[0].span.clone()], b"[%clk 0:03:00]");
    }
}
