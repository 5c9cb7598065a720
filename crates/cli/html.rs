//! `check --format html`: one self-contained HTML page an arbiter can open.
//!
//! The page is streamed like the SARIF log: a fixed head (its style and the start of a
//! data block), then one JSON entry per game text and per finding as they come, then the
//! summary and the script that builds the page from the data. Nothing is loaded from the
//! network; boards are drawn as SVG by the script from each finding's FEN, and only when
//! they come into view, so a report of 10,000 findings opens in about a second.
//!
//! Every text from the input reaches the page inside JSON, in a `<script
//! type="application/json">` block that the script reads and puts into the page as text,
//! never as markup. `<`, `>` and `&` are written as `\u003c`, `\u003e` and `\u0026`
//! there, so a tag value or comment holding `</script>` cannot end the block.

use crate::json::{JsonFinding, Summary};
use crate::output::Totals;
use planilla_core::san::{Lang, San, SanError, SanKind};
use planilla_core::{Bitboard, Move, Position, Square, Validation};
use planilla_parser::Game;
use planilla_validator::{Code, Finding};
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};
use std::io::{self, Write};

/// The page's style and script (files of their own, so that each reads as what it is).
const STYLE: &str = include_str!("html/report.css");
const SCRIPT: &str = include_str!("html/report.js");

/// The most bytes of a game's text the page keeps: a game with long comments is cut at
/// the last line break before this, and its findings past the cut keep their board and
/// message but have no place to highlight.
const TEXT_LIMIT: usize = 8 << 10;

/// The text of a game with findings, as the page shows it: decoded as the parser decoded
/// it (so a finding's line and column point into it), cut after [`TEXT_LIMIT`] bytes.
#[derive(Clone, Debug)]
pub struct GameText {
    /// The line of the file the text starts on.
    first_line: u64,
    /// The text.
    text: String,
    /// Whether the game goes on past the text.
    truncated: bool,
}

impl GameText {
    /// The text of `game` (at most [`TEXT_LIMIT`] bytes of it).
    pub fn of(game: &Game) -> GameText {
        let bytes = game.bytes();
        let truncated = bytes.len() > TEXT_LIMIT || game.skipped_bytes() > 0;
        let end = if bytes.len() > TEXT_LIMIT {
            // A cut at a line break never splits a character (a line longer than the
            // limit is cut where it is, and a split character shows as U+FFFD).
            bytes[..TEXT_LIMIT]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(TEXT_LIMIT, |i| i + 1)
        } else {
            bytes.len()
        };
        GameText {
            first_line: game.first_line(),
            text: game.decode(0..end).into_owned(),
            truncated,
        }
    }
}

/// The state of one HTML report: the text of the game whose findings come next, and the
/// counts by code for the summary.
pub struct Report {
    /// The game text handed over last, written before the first finding it has.
    pending: Option<GameText>,
    /// Entries written so far (the separator goes before every one but the first).
    entries: u64,
    /// Findings reported, by position of their code in [`Code::ALL`].
    by_code: Vec<u64>,
    /// One entry as JSON, reused.
    json: Vec<u8>,
}

impl Default for Report {
    fn default() -> Report {
        Report {
            pending: None,
            entries: 0,
            by_code: vec![0; Code::ALL.len()],
            json: Vec::new(),
        }
    }
}

/// A game's text in the data block.
#[derive(Serialize)]
struct GameEntry<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    file: &'a str,
    game: u64,
    line: u64,
    text: &'a str,
    truncated: bool,
}

/// A finding in the data block: the JSON Lines finding, the move with its number as the
/// human format writes it, and the squares its board marks.
#[derive(Serialize)]
struct FindingEntry<'a> {
    #[serde(flatten)]
    finding: JsonFinding<'a>,
    numbered_move: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    marks: Option<Marks>,
}

/// The squares a finding's board marks: the move's departure and arrival when it was
/// played, the pieces it may have meant when it was illegal or ambiguous.
#[derive(Serialize, Debug, Default, PartialEq, Eq)]
struct Marks {
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    candidates: Vec<String>,
}

/// The summary block: the JSON Lines summary, the counts by code, the unread inputs.
#[derive(Serialize)]
struct PageSummary<'a> {
    #[serde(flatten)]
    totals: Summary,
    version: &'static str,
    codes: Vec<CodeCount>,
    unread: &'a [String],
}

#[derive(Serialize)]
struct CodeCount {
    code: &'static str,
    severity: &'static str,
    count: u64,
}

impl Report {
    /// Writes the page up to the first data entry.
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn begin(&mut self, out: &mut impl Write) -> io::Result<()> {
        write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"planilla {}\">\n\
             <title>planilla check report</title>\n<style>\n{STYLE}</style>\n</head>\n\
             <body data-state=\"loading\">\n\
             <noscript><p class=\"noscript\">This report is drawn by its own script: \
             allow JavaScript for this file to see the findings.</p></noscript>\n\
             <script type=\"application/json\" id=\"planilla-data\">[\n",
            env!("CARGO_PKG_VERSION")
        )
    }

    /// Keeps the text of the game whose findings come next (written with its first
    /// finding, so a game whose findings are all filtered out costs nothing).
    pub fn game_text(&mut self, text: &GameText) {
        self.pending = Some(text.clone());
    }

    /// Drops a kept text that no finding took.
    pub fn forget_text(&mut self) {
        self.pending = None;
    }

    /// Writes one finding about `file`, after its game's text if it is the game's first.
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn finding(&mut self, out: &mut impl Write, file: &str, f: &Finding) -> io::Result<()> {
        if let Some(position) = Code::ALL.iter().position(|&c| c == f.code) {
            self.by_code[position] += 1;
        }
        if let Some(text) = self.pending.take() {
            let entry = GameEntry {
                kind: "game",
                file,
                game: f.game,
                line: text.first_line,
                text: &text.text,
                truncated: text.truncated,
            };
            self.entry(out, &entry)?;
        }
        let entry = FindingEntry {
            finding: JsonFinding::new(file, f),
            numbered_move: f.numbered_move.as_deref(),
            marks: marks(f),
        };
        self.entry(out, &entry)
    }

    fn entry(&mut self, out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
        self.json.clear();
        if self.entries > 0 {
            self.json.extend_from_slice(b",\n");
        }
        self.entries += 1;
        write_json(&mut self.json, value)?;
        out.write_all(&self.json)
    }

    /// Closes the data block and writes the summary and the script; `failures` name the
    /// inputs that could not be read.
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn end(
        &mut self,
        out: &mut impl Write,
        totals: &Totals,
        failures: &[String],
    ) -> io::Result<()> {
        let codes = Code::ALL
            .iter()
            .zip(&self.by_code)
            .filter(|&(_, &count)| count > 0)
            .map(|(code, &count)| CodeCount {
                code: code.as_str(),
                severity: code.severity().name(),
                count,
            })
            .collect();
        let summary = PageSummary {
            totals: Summary::new(totals),
            version: env!("CARGO_PKG_VERSION"),
            codes,
            unread: failures,
        };
        self.json.clear();
        write_json(&mut self.json, &summary)?;
        out.write_all(b"\n]</script>\n<script type=\"application/json\" id=\"planilla-summary\">")?;
        out.write_all(&self.json)?;
        write!(
            out,
            "</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
        )
    }
}

/// The marks of a finding about a move in a known position. The move is read in every
/// language, and the first reading that matches what the finding says is taken: an
/// `illegal-move` finds no legal move, an `ambiguous-move` several, any other finding
/// exactly one (so `Rf3` in a Spanish game is the king's move, not an English rook's,
/// when the game says so). A move after the game's end may match none (the side to move
/// is mated): then the first reading is taken as it is.
fn marks(f: &Finding) -> Option<Marks> {
    let (fen, written) = (f.fen.as_deref()?, f.san.as_deref()?);
    let pos = Position::from_fen(fen, Validation::Relaxed).ok()?;
    let fits = |outcome: &Result<Move, SanError>| match f.code {
        Code::IllegalMove => matches!(outcome, Err(SanError::Illegal(_))),
        Code::AmbiguousMove => matches!(outcome, Err(SanError::Ambiguous(_))),
        _ => outcome.is_ok(),
    };
    let mut readings = Lang::ALL
        .iter()
        .filter_map(|&lang| San::parse(written.as_bytes(), lang).ok())
        .map(|san| (san, san.resolve(&pos)));
    let first = readings.next()?;
    let (san, outcome) = if fits(&first.1) {
        first
    } else {
        readings.find(|(_, outcome)| fits(outcome)).unwrap_or(first)
    };
    let name = |sq: Square| Some(sq.to_string());
    Some(match outcome {
        Ok(m) => Marks {
            from: name(m.from()),
            to: name(m.to()),
            candidates: Vec::new(),
        },
        Err(SanError::Ambiguous(moves)) => Marks {
            from: None,
            to: moves.first().and_then(|m| name(m.to())),
            candidates: names(moves.iter().map(Move::from)),
        },
        Err(SanError::Illegal(_)) => match san.kind {
            SanKind::Normal {
                role,
                file,
                rank,
                to,
                ..
            } => {
                // The pieces the move may have meant: those of its kind on the written
                // file and rank, or of its kind anywhere when none stands there, or
                // when the side has none, every piece with a legal move there.
                let board = pos.board();
                let kind = board.by_role(role) & board.by_color(pos.turn());
                let written = kind
                    & file.map_or(Bitboard::FULL, Bitboard::from_file)
                    & rank.map_or(Bitboard::FULL, Bitboard::from_rank);
                let mut pieces: Vec<Square> = if !written.is_empty() {
                    written.collect()
                } else {
                    kind.collect()
                };
                if pieces.is_empty() {
                    pieces = pos
                        .legal_moves()
                        .iter()
                        .filter(|m| m.to() == to)
                        .map(Move::from)
                        .collect();
                }
                Marks {
                    from: None,
                    to: name(to),
                    candidates: names(pieces.into_iter()),
                }
            }
            SanKind::Castle(_) => Marks {
                candidates: vec![pos.king().to_string()],
                ..Marks::default()
            },
            SanKind::Null => return None,
        },
    })
}

/// The names of `squares`, sorted, each once.
fn names(squares: impl Iterator<Item = Square>) -> Vec<String> {
    let mut names: Vec<String> = squares.map(|sq| sq.to_string()).collect();
    names.sort();
    names.dedup();
    names
}

/// Appends `value` as compact JSON that is safe inside a `<script>` element: `<`, `>`
/// and `&` in strings are written as `\u003c`, `\u003e` and `\u0026`.
fn write_json(out: &mut Vec<u8>, value: &impl Serialize) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, ScriptSafe);
    value.serialize(&mut serializer).map_err(io::Error::other)
}

/// serde_json's compact formatter, with the characters that could end a `<script>`
/// element (or open a comment in it) escaped.
struct ScriptSafe;

impl Formatter for ScriptSafe {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(at) = rest.find(['<', '>', '&']) {
            writer.write_all(&rest.as_bytes()[..at])?;
            writer.write_all(match rest.as_bytes()[at] {
                b'<' => b"\\u003c",
                b'>' => b"\\u003e",
                _ => b"\\u0026",
            })?;
            rest = &rest[at + 1..];
        }
        CompactFormatter.write_string_fragment(writer, rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(code: Code, fen: &str, san: &str) -> Finding {
        Finding {
            code,
            game: 1,
            ply: Some(1),
            line: 1,
            column: 1,
            numbered_move: None,
            san: Some(san.to_string()),
            message: String::new(),
            fen: Some(fen.to_string()),
            variation: Vec::new(),
        }
    }

    fn marked(from: Option<&str>, to: Option<&str>, candidates: &[&str]) -> Option<Marks> {
        Some(Marks {
            from: from.map(str::to_string),
            to: to.map(str::to_string),
            candidates: candidates.iter().map(|s| s.to_string()).collect(),
        })
    }

    /// The squares each kind of finding marks, read in the language that fits it.
    #[test]
    fn boards_mark_the_move_or_its_candidates() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        // After 1. d4 d5 2. Nf3 Nf6 both knights reach d2.
        let knights = "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3";
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        for (f, expected) in [
            (
                finding(Code::CheckMark, start, "Nf3+"),
                marked(Some("g1"), Some("f3"), &[]),
            ),
            // Spanish: C is the knight.
            (
                finding(Code::NotationLanguage, start, "Cc3"),
                marked(Some("b1"), Some("c3"), &[]),
            ),
            (
                finding(Code::AmbiguousMove, knights, "Nd2"),
                marked(None, Some("d2"), &["b1", "f3"]),
            ),
            // No knight reaches e6: both knights are the candidates.
            (
                finding(Code::IllegalMove, knights, "Ne6"),
                marked(None, Some("e6"), &["b1", "f3"]),
            ),
            // The written file narrows the candidates; a file with no knight does not.
            (
                finding(Code::IllegalMove, knights, "Nbe5"),
                marked(None, Some("e5"), &["b1"]),
            ),
            (
                finding(Code::IllegalMove, knights, "Nhe5"),
                marked(None, Some("e5"), &["b1", "f3"]),
            ),
            // Black has no queen: the pieces with a legal move to d7 are the candidates.
            (
                finding(Code::IllegalMove, "4k3/8/8/8/8/8/3P4/4K2R b - - 0 1", "Qd7"),
                marked(None, Some("d7"), &["e8"]),
            ),
            (
                finding(Code::IllegalMove, black, "O-O"),
                marked(None, None, &["e8"]),
            ),
            // An illegal move read as English Rf3 in the start position: not a rook's
            // move there, and no language makes it legal.
            (
                finding(Code::IllegalMove, start, "Rf3"),
                marked(None, Some("f3"), &["a1", "h1"]),
            ),
            // A move that no reading fits is taken as first read.
            (
                finding(Code::MoveAfterGameEnd, start, "Nf6"),
                marked(None, Some("f6"), &["b1", "g1"]),
            ),
            // A null move, a move no language reads, a finding with no position.
            (finding(Code::IllegalMove, start, "--"), None),
            (finding(Code::IllegalMove, start, "Xy9"), None),
            (
                Finding {
                    fen: None,
                    ..finding(Code::CheckMark, start, "Nf3")
                },
                None,
            ),
        ] {
            assert_eq!(marks(&f), expected, "{:?} {:?}", f.code, f.san);
        }
    }

    /// Nothing written into the data block can close it or open a comment in it.
    #[test]
    fn script_breaking_text_is_escaped() {
        let mut out = Vec::new();
        let text = "</script><script>alert(1)</script><!-- & é \u{2028}";
        write_json(&mut out, &text).unwrap();
        let json = String::from_utf8(out).unwrap();
        assert_eq!(
            json,
            "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u003c!-- \\u0026 é \u{2028}\""
        );
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), text);
    }
}
