//! Results as scoresheets and broadcasts write them beside PGN's four (`½-½`, `0-0`,
//! `½-0`, `+/-`…): what each means, and where the movetext ends with one that the
//! tokenizer cannot tell from a move or an evaluation (`0-0`, `+/-`, `-/+`).

use crate::checker::GameChecker;
use crate::finding::Code;
use planilla_parser::{Game, Token, TokenKind};

/// A written result read for what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reading {
    /// The result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`, `*`), or for the outcomes
    /// PGN has no result for, one fixed form of them (`0-0`, `1/2-0`, `0-1/2`, `+/+`).
    pub(super) result: &'static str,
    /// What a finding says it means; empty for PGN's own results.
    meaning: &'static str,
}

impl Reading {
    /// Whether the result is written as PGN defines it.
    pub(super) fn is_standard(self) -> bool {
        self.meaning.is_empty()
    }
}

/// Reads a written result: PGN's four, and the scoresheet forms. `None` for text that
/// is no result (`1-1`, `draw`, `?`).
pub(super) fn read_result(text: &str) -> Option<Reading> {
    let standard = |result| Reading {
        result,
        meaning: "",
    };
    // Nearly every result is PGN's, written without spaces: read at once.
    match text {
        "1-0" => return Some(standard("1-0")),
        "0-1" => return Some(standard("0-1")),
        "1/2-1/2" => return Some(standard("1/2-1/2")),
        "*" => return Some(standard("*")),
        _ => {}
    }
    let text = text.trim();
    let other = |result, meaning| Reading { result, meaning };
    Some(match text {
        "1-0" => standard("1-0"),
        "0-1" => standard("0-1"),
        "1/2-1/2" => standard("1/2-1/2"),
        "*" => standard("*"),
        "+/-" => other("1-0", "1-0 (White won by forfeit)"),
        "-/+" => other("0-1", "0-1 (Black won by forfeit)"),
        "0-0" | "-/-" => other(
            "0-0",
            "both lost (a double forfeit), which no PGN result says",
        ),
        "+/+" => other("+/+", "both won, which no PGN result says"),
        _ => {
            // The half point written `½`, `0.5` or alone (`1/2` for a draw).
            let halves = text.replace('½', "1/2").replace("0.5", "1/2");
            match halves.as_str() {
                "1/2-1/2" | "1/2" => other("1/2-1/2", "1/2-1/2 (a draw)"),
                "1/2-0" => other(
                    "1/2-0",
                    "half a point for White and none for Black, which no PGN result says",
                ),
                "0-1/2" => other(
                    "0-1/2",
                    "none for White and half a point for Black, which no PGN result says",
                ),
                "1-1/2" => other(
                    "1-1/2",
                    "a point for White and half a point for Black, which no PGN result says",
                ),
                "1/2-1" => other(
                    "1/2-1",
                    "half a point for White and a point for Black, which no PGN result says",
                ),
                _ => return None,
            }
        }
    })
}

/// What a written result means, as PGN writes it (`½-½` is `1/2-1/2`, `+/-` is `1-0`),
/// or for the outcomes PGN has no result for, one fixed form of them (`0-0`, `1/2-0`,
/// `0-1/2`, `+/+`); `None` for text that is no result (`1-1`, `draw`, `?`).
///
/// ```
/// assert_eq!(planilla_validator::result_meaning("½-½"), Some("1/2-1/2"));
/// assert_eq!(planilla_validator::result_meaning("-/-"), Some("0-0"));
/// assert_eq!(planilla_validator::result_meaning("draw"), None);
/// ```
pub fn result_meaning(text: &str) -> Option<&'static str> {
    read_result(text).map(|r| r.result)
}

/// The index of the game's last token when it is a scoresheet result the tokenizer read
/// as something else: the evaluation glyphs `+/-` and `-/+`, or `0-0` (castling with
/// zeros, unless the replay finds it no legal move there). In the middle of the moves
/// those are what the tokenizer says; as the movetext's last word they end it.
pub(super) fn trailing_mark(game: &Game) -> Option<usize> {
    let tokens = game.tokens();
    let last = tokens.len().checked_sub(1)?;
    let token = tokens[last];
    let is_mark = match token.kind {
        TokenKind::Glyph => matches!(game.token_bytes(&token), b"+/-" | b"-/+"),
        TokenKind::San => game.token_bytes(&token) == b"0-0",
        _ => false,
    };
    is_mark.then_some(last)
}

/// Where the parser reported the game's missing result when the game ends with a
/// [`trailing_mark`]: that finding waits for the replay to tell whether the mark is a
/// result (see `GameChecker::report_held_missing_result`).
pub(crate) fn missing_result_at(game: &Game) -> Option<usize> {
    trailing_mark(game).map(|i| game.tokens()[i].end as usize)
}

impl GameChecker<'_> {
    /// Reports a result, written at byte `at` (in the Result tag or the movetext), in a
    /// form PGN does not define.
    pub(super) fn report_non_standard(&mut self, reading: Reading, written: &str, at: usize) {
        if reading.is_standard() {
            return;
        }
        let message = format!(
            "'{}' is no result PGN defines: it means {}",
            written.escape_debug(),
            reading.meaning
        );
        self.game_note(Code::NonStandardResult, at, message);
    }

    /// Reports a Result tag written in a form PGN does not define (before the moves'
    /// findings: the tag comes first).
    pub(super) fn report_non_standard_tag(&mut self, written: Option<&str>) {
        let Some(written) = written else {
            return;
        };
        if let Some(reading) = read_result(written)
            && !reading.is_standard()
        {
            let at = self.tag_position("Result").unwrap_or(0);
            self.report_non_standard(reading, written, at);
        }
    }

    /// A [`trailing_mark`] `0-0` that was castling: the game has no result, as the
    /// parser said (its finding was held back until now).
    pub(super) fn report_held_missing_result(&mut self, mark: Token) {
        let game = self.game;
        if let Some(f) = game
            .findings()
            .iter()
            .find(|f| f.span.start as usize == mark.end as usize)
        {
            self.game_note(Code::SyntaxError, mark.end as usize, f.message.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every written form and what it reads as.
    #[test]
    fn written_results_and_their_meaning() {
        let cases = [
            ("1-0", Some(("1-0", true))),
            ("0-1", Some(("0-1", true))),
            ("1/2-1/2", Some(("1/2-1/2", true))),
            ("*", Some(("*", true))),
            ("½-½", Some(("1/2-1/2", false))),
            ("0.5-0.5", Some(("1/2-1/2", false))),
            ("1/2", Some(("1/2-1/2", false))),
            ("+/-", Some(("1-0", false))),
            ("-/+", Some(("0-1", false))),
            ("0-0", Some(("0-0", false))),
            ("-/-", Some(("0-0", false))),
            ("+/+", Some(("+/+", false))),
            ("½-0", Some(("1/2-0", false))),
            ("1/2-0", Some(("1/2-0", false))),
            ("0-½", Some(("0-1/2", false))),
            ("0-1/2", Some(("0-1/2", false))),
            ("1-1", None),
            ("draw", None),
            ("?", None),
            ("", None),
        ];
        for (text, expected) in cases {
            let got = read_result(text).map(|r| (r.result, r.is_standard()));
            assert_eq!(got, expected, "{text}");
        }
    }
}
