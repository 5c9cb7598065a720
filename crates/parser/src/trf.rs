//! FIDE Tournament Report Files (TRF): the file a pairing program writes for FIDE
//! rating, read and written back. The layout is the FIDE Data Exchange Format (TRF-2006,
//! TRF16 and TRF-2026 share the player records read here; TRFx `XX*` records are kept
//! as written):
//!
//! - a record is a line whose first three characters are its code: `001` a player,
//!   `012` the tournament's name, `240` a bye (TRF-2026), `###` a comment, anything else
//!   (`022`…`362`, `XXR`, `XXC`, `DAT`, a federation's code) kept as written;
//! - a `001` record has fixed columns, counted in characters from 1: the starting rank
//!   (5-8), sex (10), title (11-13), name (15-47, `Last, First`), FIDE rating (49-52),
//!   federation (54-56), FIDE number (58-68), birth date (70-79), points (81-84), rank
//!   (86-89), then one field of 10 columns per round from column 92: the opponent's
//!   starting rank (4 columns; `0000` or blank: none), the colour (`w`, `b`, `-` or
//!   blank, 5 columns on) and the result (7 columns on: `+ - W D L 1 = 0 H F U Z`, any
//!   case, or blank);
//! - lines end in LF, CRLF or CR; a line that is not UTF-8 is read as Windows-1252
//!   (Latin-1), so that a name's columns are counted in characters either way.
//!
//! The reader knows nothing of chess: it gives the records ([`Tournament`]) and the
//! faults of the lines it could not read whole ([`TrfError`], with line and column),
//! and goes on with the next line. [`write`] writes the records back so that they read
//! back the same.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while_m_n};
use nom::character::complete::{one_of, space0};
use nom::combinator::{all_consuming, map_res, value};
use nom::sequence::delimited;
use nom::{IResult, Parser};
use std::fmt::Write as _;

/// The column (1-based) of round 1's field; each round's is 10 columns on.
pub const FIRST_ROUND_COLUMN: usize = 92;
/// The columns of a round's field.
pub const ROUND_WIDTH: usize = 10;

/// A TRF file's records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tournament {
    /// Every record other than a player, in file order (comments and unknown records
    /// included), as written.
    pub headers: Vec<Header>,
    /// The players (`001` records), in file order.
    pub players: Vec<Player>,
    /// The byes of `240` records (TRF-2026).
    pub byes: Vec<Bye>,
}

/// A record other than a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Its 1-based line in the file.
    pub line: u64,
    /// The first three characters (`012`, `XXR`, `###`).
    pub code: String,
    /// The rest of the line from the fifth character, trailing spaces removed.
    pub text: String,
}

/// A player record (`001`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Its 1-based line in the file.
    pub line: u64,
    /// The starting rank (columns 5-8), the number opponents refer to.
    pub rank: u32,
    /// Column 10 (`m`, `w`), blank: empty.
    pub sex: String,
    /// Columns 11-13, trimmed (`GM`, `wim`, …).
    pub title: String,
    /// Columns 15-47, trimmed.
    pub name: String,
    /// Columns 49-52.
    pub rating: Option<u32>,
    /// Columns 54-56, trimmed.
    pub federation: String,
    /// Columns 58-68 (0 or blank: none).
    pub fide_id: Option<u64>,
    /// Columns 70-79, trimmed.
    pub birth: String,
    /// Columns 81-84, trimmed (`11.5`).
    pub points: String,
    /// Columns 86-89.
    pub place: Option<u32>,
    /// The round fields, round 1 first; trailing blank fields are not kept.
    pub rounds: Vec<RoundField>,
}

/// One round of a player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundField {
    /// The opponent's starting rank; `None` for `0000` or blank (a bye, an absence).
    pub opponent: Option<u32>,
    /// The colour, `None` for `-` or blank (a bye, a forfeit).
    pub colour: Option<Colour>,
    /// The result code, `None` for blank.
    pub result: Option<ResultCode>,
}

impl RoundField {
    /// Whether every column of the field is blank (or says nothing: `0000 -`).
    pub fn is_blank(&self) -> bool {
        self.opponent.is_none() && self.colour.is_none() && self.result.is_none()
    }
}

/// A colour in a round field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// `w`.
    White,
    /// `b`.
    Black,
}

/// A result code of a round field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultCode {
    /// `-`: forfeit loss.
    ForfeitLoss,
    /// `+`: forfeit win.
    ForfeitWin,
    /// `W`: win of a game that lasted less than one move (not rated).
    ShortWin,
    /// `D`: draw of a game that lasted less than one move (not rated).
    ShortDraw,
    /// `L`: loss of a game that lasted less than one move (not rated).
    ShortLoss,
    /// `1`: win.
    Win,
    /// `=`: draw.
    Draw,
    /// `0`: loss.
    Loss,
    /// `H`: half-point bye.
    HalfBye,
    /// `F`: full-point bye.
    FullBye,
    /// `U`: pairing-allocated bye.
    PairingBye,
    /// `Z`: zero-point bye (a known absence).
    ZeroBye,
}

impl ResultCode {
    /// The code as a TRF writes it (letters upper case).
    pub const fn as_char(self) -> char {
        match self {
            ResultCode::ForfeitLoss => '-',
            ResultCode::ForfeitWin => '+',
            ResultCode::ShortWin => 'W',
            ResultCode::ShortDraw => 'D',
            ResultCode::ShortLoss => 'L',
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::HalfBye => 'H',
            ResultCode::FullBye => 'F',
            ResultCode::PairingBye => 'U',
            ResultCode::ZeroBye => 'Z',
        }
    }

    /// The code of a character (letters in either case).
    pub fn from_char(c: char) -> Option<ResultCode> {
        Some(match c.to_ascii_uppercase() {
            '-' => ResultCode::ForfeitLoss,
            '+' => ResultCode::ForfeitWin,
            'W' => ResultCode::ShortWin,
            'D' => ResultCode::ShortDraw,
            'L' => ResultCode::ShortLoss,
            '1' => ResultCode::Win,
            '=' => ResultCode::Draw,
            '0' => ResultCode::Loss,
            'H' => ResultCode::HalfBye,
            'F' => ResultCode::FullBye,
            'U' => ResultCode::PairingBye,
            'Z' => ResultCode::ZeroBye,
            _ => return None,
        })
    }

    /// What the code means, in words (for messages).
    pub const fn meaning(self) -> &'static str {
        match self {
            ResultCode::ForfeitLoss => "a forfeit loss",
            ResultCode::ForfeitWin => "a forfeit win",
            ResultCode::ShortWin => "a win in a game of less than one move",
            ResultCode::ShortDraw => "a draw in a game of less than one move",
            ResultCode::ShortLoss => "a loss in a game of less than one move",
            ResultCode::Win => "a win",
            ResultCode::Draw => "a draw",
            ResultCode::Loss => "a loss",
            ResultCode::HalfBye => "a half-point bye",
            ResultCode::FullBye => "a full-point bye",
            ResultCode::PairingBye => "a pairing-allocated bye",
            ResultCode::ZeroBye => "a zero-point bye",
        }
    }
}

/// A bye of a `240` record (TRF-2026): its kind (`F`, `H` or `Z`), round and players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bye {
    /// The record's 1-based line.
    pub line: u64,
    /// `FullBye`, `HalfBye` or `ZeroBye`.
    pub kind: ResultCode,
    /// The round.
    pub round: u32,
    /// The starting ranks of the players who get it.
    pub players: Vec<u32>,
}

/// A line the reader could not read whole: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfError {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
    /// What is wrong, in lower case.
    pub message: String,
}

/// A file's records and the faults of its lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Read {
    /// The records read.
    pub tournament: Tournament,
    /// The faults, in file order.
    pub errors: Vec<TrfError>,
}

/// Reads a TRF file's bytes. A line with a fault gives a [`TrfError`]; a player
/// record whose starting rank cannot be read is left out, any other fault leaves the
/// field it is in unknown (blank) and the record is kept.
pub fn read(bytes: &[u8]) -> Read {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut out = Read::default();
    for (i, raw) in lines(bytes).enumerate() {
        let line = i as u64 + 1;
        let text = decode_line(raw);
        read_line(line, text.trim_end(), &mut out);
    }
    out
}

/// The lines of `bytes`, ended by LF, CRLF or CR (a last line without an end
/// included; an empty file has none).
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = match rest.get(end..end + 2) {
            Some(b"\r\n") => 2,
            _ if end < rest.len() => 1,
            _ => 0,
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

/// A line's text: UTF-8 when it is, else Windows-1252 (Latin-1 and its superset).
fn decode_line(raw: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(raw) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => encoding_rs::WINDOWS_1252.decode_without_bom_handling(raw).0,
    }
}

/// One line's record, or its faults.
fn read_line(line: u64, text: &str, out: &mut Read) {
    if text.trim().is_empty() {
        return;
    }
    let columns = Columns::new(text);
    if columns.len() < 3 {
        out.errors.push(TrfError {
            line,
            column: 1,
            message: format!("'{text}' is too short for a record (a 3-character code first)"),
        });
        return;
    }
    let code = columns.slice(1, 3);
    if code == "001" {
        if let Some(player) = read_player(line, &columns, &mut out.errors) {
            out.tournament.players.push(player);
        }
        return;
    }
    let rest = columns.from(5).trim_end().to_string();
    if code == "240"
        && let Some(bye) = read_bye(line, &columns, &mut out.errors)
    {
        out.tournament.byes.push(bye);
    }
    out.tournament.headers.push(Header {
        line,
        code: code.to_string(),
        text: rest,
    });
}

/// A line's characters, addressed by 1-based column.
struct Columns<'a> {
    text: &'a str,
    /// The byte offset of each character, and the text's length last.
    starts: Vec<usize>,
}

impl<'a> Columns<'a> {
    fn new(text: &'a str) -> Columns<'a> {
        let mut starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        starts.push(text.len());
        Columns { text, starts }
    }

    /// The number of characters.
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Columns `first..=last` (those the line has).
    fn slice(&self, first: usize, last: usize) -> &'a str {
        let at = |column: usize| self.starts[(column - 1).min(self.len())];
        &self.text[at(first)..at(last + 1)]
    }

    /// Columns from `first` to the end.
    fn from(&self, first: usize) -> &'a str {
        self.slice(first, self.len().max(first))
    }
}

/// A number in a field, spaces around it allowed.
fn number<T: std::str::FromStr>(field: &str) -> IResult<&str, T> {
    all_consuming(delimited(
        space0,
        map_res(
            take_while_m_n(1, 20, |c: char| c.is_ascii_digit()),
            str::parse,
        ),
        space0,
    ))
    .parse(field)
}

/// A field that may be blank or a number: `Ok(None)` blank.
fn optional_number<T: std::str::FromStr>(field: &str) -> Result<Option<T>, ()> {
    if field.trim().is_empty() {
        return Ok(None);
    }
    number(field).map(|(_, n)| Some(n)).map_err(|_| ())
}

/// The colour column: `w`, `b` (either case), `-` or blank.
fn colour(field: &str) -> IResult<&str, Option<Colour>> {
    all_consuming(alt((
        value(Some(Colour::White), one_of("wW")),
        value(Some(Colour::Black), one_of("bB")),
        value(None, tag("-")),
        value(None, tag(" ")),
        value(None, tag("")),
    )))
    .parse(field)
}

/// The result column: a code or blank.
fn result(field: &str) -> IResult<&str, Option<ResultCode>> {
    all_consuming(alt((
        map_res(one_of("+-WDL1=0HFUZwdlhfuz"), |c| {
            ResultCode::from_char(c).map(Some).ok_or(())
        }),
        value(None, tag(" ")),
        value(None, tag("")),
    )))
    .parse(field)
}

/// A `001` record; `None` when its starting rank cannot be read.
fn read_player(line: u64, c: &Columns<'_>, errors: &mut Vec<TrfError>) -> Option<Player> {
    let mut fault = |column: usize, message: String| {
        errors.push(TrfError {
            line,
            column: column as u64,
            message,
        })
    };
    let rank_field = c.slice(5, 8);
    let rank = match optional_number::<u32>(rank_field) {
        Ok(Some(rank)) if rank > 0 => rank,
        _ => {
            fault(
                5,
                format!(
                    "player record: the starting rank (columns 5-8) is '{rank_field}', not a \
                     number from 1 to 9999; the record is skipped"
                ),
            );
            return None;
        }
    };
    let mut player = Player {
        line,
        rank,
        sex: c.slice(10, 10).trim().to_string(),
        title: c.slice(11, 13).trim().to_string(),
        name: c.slice(15, 47).trim().to_string(),
        rating: None,
        federation: c.slice(54, 56).trim().to_string(),
        fide_id: None,
        birth: c.slice(70, 79).trim().to_string(),
        points: c.slice(81, 84).trim().to_string(),
        place: None,
        rounds: Vec::new(),
    };
    let mut numeric = |first: usize, last: usize, what: &str| -> Option<u64> {
        let field = c.slice(first, last);
        optional_number::<u64>(field).unwrap_or_else(|()| {
            fault(
                first,
                format!(
                    "player {rank}: the {what} (columns {first}-{last}) is '{}', not a number",
                    field.trim()
                ),
            );
            None
        })
    };
    player.rating = numeric(49, 52, "rating").and_then(|r| u32::try_from(r).ok());
    player.fide_id = numeric(58, 68, "FIDE number").filter(|&id| id != 0);
    player.place = numeric(86, 89, "rank").and_then(|r| u32::try_from(r).ok());
    let mut round = 1;
    loop {
        let start = FIRST_ROUND_COLUMN + (round - 1) * ROUND_WIDTH;
        if c.len() < start {
            break;
        }
        let mut field = RoundField::default();
        let opponent = c.slice(start, start + 3);
        match optional_number::<u32>(opponent) {
            Ok(n) => field.opponent = n.filter(|&n| n != 0),
            Err(()) => fault(
                start,
                format!(
                    "player {rank}, round {round}: the opponent (columns {start}-{}) is \
                     '{}', not a starting rank",
                    start + 3,
                    opponent.trim()
                ),
            ),
        }
        let colour_field = c.slice(start + 5, start + 5);
        match colour(colour_field) {
            Ok((_, colour)) => field.colour = colour,
            Err(_) => fault(
                start + 5,
                format!(
                    "player {rank}, round {round}: the colour (column {}) is '{colour_field}', \
                     not w, b or -",
                    start + 5
                ),
            ),
        }
        let result_field = c.slice(start + 7, start + 7);
        match result(result_field) {
            Ok((_, code)) => field.result = code,
            Err(_) => fault(
                start + 7,
                format!(
                    "player {rank}, round {round}: the result (column {}) is \
                     '{result_field}', not one of + - W D L 1 = 0 H F U Z",
                    start + 7
                ),
            ),
        }
        // Anything in the field's other columns shifts the field: its columns do not
        // say what they seem to.
        for (first, last) in [(start + 4, start + 4), (start + 6, start + 6)] {
            let gap = c.slice(first, last);
            if !gap.trim().is_empty() {
                fault(
                    first,
                    format!(
                        "player {rank}, round {round}: column {first} should be blank, is \
                         '{gap}' (the round's field is out of its columns)"
                    ),
                );
            }
        }
        let between = c.slice(start + 8, start + ROUND_WIDTH - 1);
        if !between.trim().is_empty() {
            fault(
                start + 8,
                format!(
                    "player {rank}, round {round}: columns {}-{} should be blank, are \
                     '{between}' (the round's field is out of its columns)",
                    start + 8,
                    start + ROUND_WIDTH - 1
                ),
            );
        }
        player.rounds.push(field);
        round += 1;
    }
    while player.rounds.last().is_some_and(RoundField::is_blank) {
        player.rounds.pop();
    }
    Some(player)
}

/// A `240` record: `240 T RRR PPPP PPPP …` (type at column 5, round at 7-9, players
/// from column 11, five columns apart).
fn read_bye(line: u64, c: &Columns<'_>, errors: &mut Vec<TrfError>) -> Option<Bye> {
    let mut fault = |column: usize, message: String| {
        errors.push(TrfError {
            line,
            column: column as u64,
            message,
        });
        None
    };
    let kind = match ResultCode::from_char(c.slice(5, 5).chars().next().unwrap_or(' ')) {
        Some(k @ (ResultCode::FullBye | ResultCode::HalfBye | ResultCode::ZeroBye)) => k,
        _ => {
            return fault(
                5,
                format!(
                    "bye record: the type (column 5) is '{}', not F, H or Z",
                    c.slice(5, 5)
                ),
            );
        }
    };
    let round = match optional_number::<u32>(c.slice(7, 9)) {
        Ok(Some(round)) if round > 0 => round,
        _ => {
            return fault(
                7,
                format!(
                    "bye record: the round (columns 7-9) is '{}', not a round number",
                    c.slice(7, 9).trim()
                ),
            );
        }
    };
    let mut players = Vec::new();
    for word in c.from(11).split(' ') {
        if word.is_empty() {
            continue;
        }
        match optional_number::<u32>(word) {
            Ok(Some(p)) if p > 0 => players.push(p),
            _ => {
                let at = 11
                    + c.from(11)
                        .find(word)
                        .map_or(0, |b| c.from(11)[..b].chars().count());
                return fault(
                    at,
                    format!("bye record: '{word}' is not a player's starting rank"),
                );
            }
        }
    }
    Some(Bye {
        line,
        kind,
        round,
        players,
    })
}

/// Writes the records as a TRF file: the headers first (the `240` records among
/// them, which [`Tournament::byes`] is read from), then the players, each line ended by CRLF as the format asks. The text reads back as the same
/// records ([`read`]), line numbers aside; a field wider than its columns (a name of
/// more than 33 characters) cannot.
pub fn write(t: &Tournament) -> String {
    let mut out = String::new();
    for h in &t.headers {
        if h.text.is_empty() {
            out.push_str(&h.code);
        } else {
            let _ = write!(out, "{:<3} {}", h.code, h.text);
        }
        out.push_str("\r\n");
    }
    for p in &t.players {
        let mut line = String::new();
        let _ = write!(
            line,
            "001 {:>4} {:<1}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
            p.rank,
            p.sex,
            p.title,
            p.name,
            p.rating.map(|r| r.to_string()).unwrap_or_default(),
            p.federation,
            p.fide_id.map(|r| r.to_string()).unwrap_or_default(),
            p.birth,
            p.points,
            p.place.map(|r| r.to_string()).unwrap_or_default(),
        );
        for r in &p.rounds {
            let opponent = match r.opponent {
                Some(o) => format!("{o:>4}"),
                None => "0000".to_string(),
            };
            let colour = match r.colour {
                Some(Colour::White) => 'w',
                Some(Colour::Black) => 'b',
                None => '-',
            };
            let result = r.result.map_or(' ', ResultCode::as_char);
            let _ = write!(line, "  {opponent} {colour} {result}");
        }
        out.push_str(line.trim_end());
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player line built to the columns, as a pairing program writes it.
    const CARLSEN: &str = "001    1 m GM Carlsen, Magnus                   2830 NOR     1503014 1990/11/30  2.5    1     2 w 1     3 b =  0000 - H";

    #[test]
    fn a_player_line_reads_by_its_columns() {
        let read = read(CARLSEN.as_bytes());
        assert_eq!(read.errors, []);
        let p = &read.tournament.players[0];
        assert_eq!(p.rank, 1);
        assert_eq!(p.sex, "m");
        assert_eq!(p.title, "GM");
        assert_eq!(p.name, "Carlsen, Magnus");
        assert_eq!(p.rating, Some(2830));
        assert_eq!(p.federation, "NOR");
        assert_eq!(p.fide_id, Some(1_503_014));
        assert_eq!(p.birth, "1990/11/30");
        assert_eq!(p.points, "2.5");
        assert_eq!(p.place, Some(1));
        assert_eq!(
            p.rounds,
            [
                RoundField {
                    opponent: Some(2),
                    colour: Some(Colour::White),
                    result: Some(ResultCode::Win)
                },
                RoundField {
                    opponent: Some(3),
                    colour: Some(Colour::Black),
                    result: Some(ResultCode::Draw)
                },
                RoundField {
                    opponent: None,
                    colour: None,
                    result: Some(ResultCode::HalfBye)
                },
            ]
        );
    }

    #[test]
    fn latin1_names_count_columns_in_characters() {
        // "Müller" in Latin-1 (one byte for ü) and in UTF-8 (two): the same columns.
        let utf8 = CARLSEN.replace("Carlsen, Magnus", "Müller, Jürgen ");
        let mut latin1 = Vec::new();
        for c in utf8.chars() {
            latin1.push(u8::try_from(u32::from(c)).unwrap());
        }
        for bytes in [utf8.as_bytes(), &latin1[..]] {
            let read = read(bytes);
            assert_eq!(read.errors, []);
            assert_eq!(read.tournament.players[0].name, "Müller, Jürgen");
            assert_eq!(read.tournament.players[0].rating, Some(2830));
            assert_eq!(read.tournament.players[0].rounds.len(), 3);
        }
    }

    #[test]
    fn line_ends_and_headers() {
        let text = format!("012 Test Open\r\nXXR 9\r\n### a comment\r{CARLSEN}\n\n022 Oslo");
        let read = read(text.as_bytes());
        assert_eq!(read.errors, []);
        let codes: Vec<(u64, &str, &str)> = read
            .tournament
            .headers
            .iter()
            .map(|h| (h.line, h.code.as_str(), h.text.as_str()))
            .collect();
        assert_eq!(
            codes,
            [
                (1, "012", "Test Open"),
                (2, "XXR", "9"),
                (3, "###", "a comment"),
                (6, "022", "Oslo")
            ]
        );
        assert_eq!(read.tournament.players[0].line, 4);
    }

    #[test]
    fn blank_fields_withdrawn_players_and_forfeits() {
        // No rating, federation or FIDE number; round 2 a forfeit with colour '-';
        // rounds 3-4 blank (withdrawn), and no trailing field kept.
        let line = "001    7      Doe, Jane                                                          1.0   12     4 b 1     9 - -                    ";
        let read = read(line.as_bytes());
        assert_eq!(read.errors, []);
        let p = &read.tournament.players[0];
        assert_eq!(
            (p.rating, p.fide_id, p.federation.as_str()),
            (None, None, "")
        );
        assert_eq!(p.rounds.len(), 2);
        assert_eq!(
            p.rounds[1],
            RoundField {
                opponent: Some(9),
                colour: None,
                result: Some(ResultCode::ForfeitLoss)
            }
        );
    }

    #[test]
    fn faults_are_located_and_reading_goes_on() {
        let bad_result = CARLSEN.replace("3 b =", "3 b x");
        let bad_rank = CARLSEN.replace("001    1", "001   1x");
        let text = format!("{bad_result}\n{bad_rank}\nX\n{CARLSEN}\n");
        let read = read(text.as_bytes());
        let at: Vec<(u64, u64)> = read.errors.iter().map(|e| (e.line, e.column)).collect();
        assert_eq!(at, [(1, 109), (2, 5), (3, 1)]);
        assert!(
            read.errors[0]
                .message
                .contains("round 2: the result (column 109) is 'x'")
        );
        // The record with a bad result is kept, its field blank; the bad rank's is not.
        assert_eq!(read.tournament.players.len(), 2);
        assert_eq!(read.tournament.players[0].rounds[1].result, None);
    }

    #[test]
    fn bye_records() {
        let read = read(b"240 H 003  026  047\n240 Q 001 4\n");
        assert_eq!(
            read.tournament.byes,
            [Bye {
                line: 1,
                kind: ResultCode::HalfBye,
                round: 3,
                players: vec![26, 47]
            }]
        );
        assert_eq!(read.errors.len(), 1);
        assert_eq!((read.errors[0].line, read.errors[0].column), (2, 5));
    }

    #[test]
    fn written_back_reads_the_same() {
        let text = format!("012 Test\nXXR 3\n{CARLSEN}\n");
        let first = read(text.as_bytes());
        let again = read(write(&first.tournament).as_bytes());
        assert_eq!(again.errors, []);
        assert_eq!(again.tournament, first.tournament);
    }
}
