//! What `convert` makes of one game: its text in the output encoding, the findings it
//! reports, and how far the game was converted.

use crate::{Converted, Converter, OutputEncoding, Unencodable, encode, stops_replay};
use planilla_parser::Game;
use planilla_validator::{Code, Finding, Severity, internal_error};

/// One game converted and encoded, as `convert` writes and reports it.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The game's text in the output encoding, or the first character it cannot hold.
    pub bytes: Result<Vec<u8>, Unencodable>,
    /// The findings `convert` reports (on standard error); the others are `check`'s
    /// business.
    pub reported: Vec<Finding>,
    /// How far the game was converted.
    pub outcome: Outcome,
    /// Where the game lies in its input: its offset, and the offset after its last byte
    /// (bytes skipped with a game over a limit included). A game that starts where the
    /// game written before it ends, both written whole, needs no separator between them
    /// ([`planilla_parser::Joiner::write_from`]).
    pub input: std::ops::Range<u64>,
}

/// How far a game was converted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every move replayed and rewritten.
    Converted,
    /// Moves converted as far as the replay got, the rest letter by letter.
    Incomplete,
    /// planilla failed on the game (a bug): its text is written unchanged.
    Failed,
    /// The game was over a reader limit: only its tag section was kept and written.
    Skipped,
}

impl Conversion {
    /// Whether the game was converted in full but has an error in its text (a syntax
    /// error: the text is kept as read).
    pub fn has_text_errors(&self) -> bool {
        self.outcome == Outcome::Converted
            && self
                .reported
                .iter()
                .any(|f| f.severity() == Severity::Error)
    }

    /// Whether two languages read the game legally: it was converted from the first,
    /// and the `notation-language` finding that names both is reported.
    pub fn lang_ambiguous(&self) -> bool {
        self.reported
            .iter()
            .any(|f| f.code == Code::NotationLanguage)
    }

    /// The conversion of a game planilla failed on (a panic while converting it, given
    /// what the panic said): an `internal-error` finding naming the game, and the
    /// game's own text written through unchanged (decoded by its encoding rule, in the
    /// output encoding), so nothing is lost and the run goes on.
    pub fn failed(game: &Game, encoding: OutputEncoding, panic: &str) -> Conversion {
        let finding = internal_error(
            game,
            format!(
                "planilla failed to convert this game ({panic}): its text is written \
                 unchanged; please report it"
            ),
        );
        Conversion {
            bytes: unchanged(game, encoding),
            reported: vec![finding],
            outcome: Outcome::Failed,
            input: input_span(game),
        }
    }
}

impl Converter {
    /// Converts one game ([`Converter::convert`]), encodes it, and decides what is
    /// reported and how far it was converted.
    pub fn convert_and_encode(&mut self, game: &Game, encoding: OutputEncoding) -> Conversion {
        let converted = self.convert(game);
        let mut bytes = Vec::with_capacity(converted.text.len());
        let encoded = encode(&converted, game, encoding, &mut bytes).map(|()| bytes);
        // A move recorded after the game's end that is no move in the language read
        // keeps its text: the game is not wholly converted, and the finding says where.
        let unread = converted.unread > 0;
        // A game two languages read legally was converted from the first: the note
        // that names both is reported, never a silent guess.
        let ambiguous = converted.lang_ambiguous;
        Conversion {
            bytes: encoded,
            reported: converted
                .findings
                .into_iter()
                .filter(|f| {
                    // A syntax error does not stop the replay (the text is kept as read),
                    // but the output then holds it: it is reported too.
                    stops_replay(f.code)
                        || f.code == Code::SyntaxError
                        || (unread && f.code == Code::MoveAfterGameEnd)
                        || (ambiguous && f.code == Code::NotationLanguage)
                })
                .collect(),
            outcome: if game.skipped_bytes() > 0 {
                Outcome::Skipped
            } else if converted.complete && !unread {
                Outcome::Converted
            } else {
                Outcome::Incomplete
            },
            input: input_span(game),
        }
    }
}

/// Where `game` lies in its input, the bytes skipped with a game over a limit included.
fn input_span(game: &Game) -> std::ops::Range<u64> {
    game.offset()..game.offset() + game.len_in_file()
}

/// The game's text as it is, decoded token by token with the game's encoding rule
/// (UTF-8 input is copied) and encoded like a converted game, so a character the output
/// encoding cannot hold is still an error with its place.
pub(crate) fn unchanged(game: &Game, encoding: OutputEncoding) -> Result<Vec<u8>, Unencodable> {
    let mut text = Converted {
        game: game.index(),
        ..Converted::default()
    };
    if game.encoding().utf8 {
        text.text.push_str(&game.decode(0..game.bytes().len()));
        text.origins.push((0, 0));
    } else {
        for token in game.all_tokens() {
            text.origins.push((text.text.len(), token.start));
            text.text.push_str(&game.decode(token.span()));
        }
    }
    let mut bytes = Vec::with_capacity(text.text.len());
    encode(&text, game, encoding, &mut bytes).map(|()| bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;
    use planilla_parser::Encoding;

    /// A game planilla failed on is an `internal-error` finding naming the game, and
    /// the game's own text is written in the output encoding.
    #[test]
    fn a_failed_game_is_written_unchanged_and_reported() {
        let cases: [(&[u8], OutputEncoding, &[u8]); 3] = [
            (
                "[Event \"Café\"]\n\n1. e4 e5 2. Cf3 *\n".as_bytes(),
                OutputEncoding::Utf8,
                "[Event \"Café\"]\n\n1. e4 e5 2. Cf3 *\n".as_bytes(),
            ),
            // Windows-1252 in, UTF-8 out: decoded, not copied.
            (
                b"[Event \"Caf\xe9\"]\n\n1. e4 e5 2. Cf3 *\n",
                OutputEncoding::Utf8,
                "[Event \"Café\"]\n\n1. e4 e5 2. Cf3 *\n".as_bytes(),
            ),
            (
                "[Event \"Café\"]\n\n1. e4 *\n".as_bytes(),
                OutputEncoding::Latin1,
                b"[Event \"Caf\xe9\"]\n\n1. e4 *\n",
            ),
        ];
        for (input, encoding, expected) in cases {
            let game = Game::from_bytes(input, Encoding::Auto);
            let done = Conversion::failed(&game, encoding, "the converter exploded");
            assert_eq!(done.bytes.as_deref(), Ok(expected));
            assert_eq!(done.outcome, Outcome::Failed);
            assert_eq!(done.reported.len(), 1);
            let finding = &done.reported[0];
            assert_eq!(finding.code, Code::InternalError);
            assert_eq!((finding.game, finding.line, finding.column), (1, 1, 1));
            assert!(
                finding.message.contains("the converter exploded")
                    && finding.message.contains("written unchanged"),
                "{}",
                finding.message
            );
        }
    }

    /// The unchanged text keeps the rule that nothing is substituted: a character the
    /// output encoding cannot hold is an error with its place.
    #[test]
    fn a_failed_game_the_encoding_cannot_hold_is_still_an_error() {
        let game = Game::from_bytes("[White \"Dvořák\"]\n\n1. e4 *\n".as_bytes(), Encoding::Auto);
        let done = Conversion::failed(&game, OutputEncoding::Latin1, "boom");
        let error = done.bytes.expect_err("ř is not Latin-1");
        assert_eq!((error.character, error.line, error.column), ('ř', 1, 12));
    }

    /// `pgn` converted to English in UTF-8, and the codes it reports.
    fn convert(pgn: &[u8]) -> (Conversion, Vec<Code>) {
        let game = Game::from_bytes(pgn, Encoding::Auto);
        let done =
            Converter::new(Options::default()).convert_and_encode(&game, OutputEncoding::Utf8);
        let codes = done.reported.iter().map(|f| f.code).collect();
        (done, codes)
    }

    /// A game converted in full reports nothing.
    #[test]
    fn a_clean_game_is_converted() {
        let (done, _) = convert(b"1. e4 e5 2. Cf3 *\n");
        assert_eq!(done.bytes.as_deref(), Ok(&b"1. e4 e5 2. Nf3 *\n"[..]));
        assert_eq!(done.outcome, Outcome::Converted);
        assert!(done.reported.is_empty());
    }

    /// A syntax error is reported but does not stop the replay: the game is converted
    /// in full, its text kept as read, and counted as having errors in its text.
    #[test]
    fn a_syntax_error_is_reported_and_the_moves_after_it_converted() {
        let (done, codes) = convert(b"1. e4 e5 ] 2. Cf3 *\n");
        assert_eq!(done.bytes.as_deref(), Ok(&b"1. e4 e5 ] 2. Nf3 *\n"[..]));
        assert_eq!(done.outcome, Outcome::Converted);
        assert_eq!(codes, [Code::SyntaxError]);
        assert!(done.has_text_errors());
    }

    /// An illegal move stops the replay: reported, and the game is incomplete.
    #[test]
    fn an_illegal_move_leaves_the_game_incomplete() {
        let (done, codes) = convert(b"1. e4 e5 2. Cf6 Cc6 *\n");
        assert_eq!(done.outcome, Outcome::Incomplete);
        assert!(codes.contains(&Code::IllegalMove), "{codes:?}");
        assert!(!done.has_text_errors());
    }
}
