//! Law 6.9: a game lost on time is drawn when the opponent cannot checkmate by any
//! possible series of legal moves (the same in the 2005, 2009 and 2014+ editions). A
//! game whose result gives a win on time in such a position is a `timeout-unwinnable`.
//!
//! A win is on time when the record says so: a Termination tag that names the time
//! (`Time forfeit`, lichess's and the PGN standard's; `won on time`, chess.com's), the
//! loser's last clock at `[%clk 0:00:00]`, or a comment after the last move that names
//! the flag (`{White forfeits on time}` as FICS writes it, `{Black oversteps the time
//! limit}`, `{las negras pierden por tiempo}`). Only a decisive game whose main line
//! replayed to its end without an end on the board is asked, and the question
//! ([`planilla_core::unwinnable::Solver::may_mate`]) only when the record says the win
//! was on time: most games pay for a look at one tag and the last tokens.

use super::clocks::Clocks;
use super::{GameChecker, Line};
use crate::finding::{Code, Finding};
use planilla_core::Color;
use planilla_parser::TokenKind;

/// Words that say a game was lost on time, in a Termination tag or in a comment after
/// the last move (compared in lower case).
const ON_TIME: [&str; 11] = [
    "time forfeit",
    "on time",
    "timeout",
    "time out",
    "flag",
    "overstep",
    "out of time",
    "time expired",
    "por tiempo",
    "bandera",
    "tiempo agotado",
];

/// Whether `text` says a game was lost on time.
fn says_on_time(text: &str) -> bool {
    let text = text.to_lowercase();
    ON_TIME.iter().any(|words| text.contains(words))
}

impl GameChecker<'_> {
    /// Judges a decisive `result` (`1-0`, `0-1`, written at byte `at`) of the main line
    /// `main`, replayed to its end with no end on the board, against Law 6.9; returns
    /// whether the game is drawn by it.
    pub(super) fn judge_win_on_time(
        &mut self,
        main: &Line,
        result: &str,
        at: usize,
        clocks: &Clocks,
    ) -> bool {
        let winner = match result {
            "1-0" => Color::White,
            "0-1" => Color::Black,
            _ => return false,
        };
        if !self.won_on_time(clocks, winner.other()) || self.solver.may_mate(&main.pos, winner) {
            return false;
        }
        let message = format!(
            "the result {result} is a win on time, but {} cannot checkmate by any legal \
             sequence from the final position: 1/2-1/2 (Law 6.9)",
            if winner == Color::White {
                "White"
            } else {
                "Black"
            }
        );
        let finding = Finding {
            fen: Some(main.pos.fen()),
            ..self.finding(Code::TimeoutUnwinnable, at, message)
        };
        self.out.push(finding);
        true
    }

    /// Whether the record says `loser` lost on time (see the module).
    fn won_on_time(&self, clocks: &Clocks, loser: Color) -> bool {
        let game = self.game;
        if game.tag("Termination").is_some_and(|t| says_on_time(&t)) {
            return true;
        }
        if clocks.last_of(loser) == Some(0) {
            return true;
        }
        // The comments after the main line's last move, read from the game's end.
        let mut depth = 0u32;
        for token in game.tokens().iter().rev() {
            match token.kind {
                TokenKind::VariationEnd => depth += 1,
                TokenKind::VariationStart => depth = depth.saturating_sub(1),
                TokenKind::San if depth == 0 => return false,
                TokenKind::Comment if depth == 0 && says_on_time(&game.decode(token.span())) => {
                    return true;
                }
                _ => {}
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::{Checker, Code, Config, Rules};
    use planilla_parser::Game;

    /// The `timeout-unwinnable` findings of `pgn` checked under `rules`: their messages.
    fn timeouts(pgn: &str, rules: Rules) -> Vec<String> {
        let mut out = Vec::new();
        let config = Config {
            rules: rules.into(),
            ..Config::default()
        };
        Checker::new(config).check(&Game::from_bytes(pgn, Default::default()), &mut out);
        out.into_iter()
            .filter(|f| f.code == Code::TimeoutUnwinnable)
            .map(|f| f.message)
            .collect()
    }

    /// The words of a win on time are found in any case, in ASCII and other text.
    #[test]
    fn on_time_words_are_found_in_any_case() {
        for (text, on_time) in [
            ("Time forfeit", true),
            ("TIME FORFEIT", true),
            ("White won on time", true),
            ("Black forfeits on Time", true),
            ("White oversteps the time limit", true),
            ("las negras pierden POR TIEMPO", true),
            ("Bandera", true),
            ("Normal", false),
            ("White resigns", false),
            ("", false),
            ("Pérdida por tiempo", true),
            ("Pérdida por abandono", false),
            ("FLÄG", false),
        ] {
            assert_eq!(super::says_on_time(text), on_time, "{text}");
        }
    }

    /// A win on time, told by a tag, a clock or a comment, stands when the winner can
    /// still mate and is a draw when it cannot, under every edition. The positions'
    /// verdicts were checked with chasolver 3.0.0.
    #[test]
    fn a_win_on_time_is_a_draw_when_the_winner_cannot_mate() {
        // A knight against a queen: White cannot mate (the queen could always take a
        // knight that checks); Black can (chasolver: -B).
        let knight = "[FEN \"8/8/8/8/8/4N1K1/8/q5k1 b - - 0 1\"]\n";
        let unwinnable = "the result 1-0 is a win on time, but White cannot checkmate by any \
                          legal sequence from the final position: 1/2-1/2 (Law 6.9)";
        for rules in Rules::ALL {
            let tag = format!("{knight}[Termination \"Time forfeit\"]\n\n1... Qa2 1-0\n");
            assert_eq!(timeouts(&tag, rules), [unwinnable], "{rules:?}");
        }
        let clock = format!("{knight}\n1... Qa2 {{ [%clk 0:00:00] }} 1-0\n");
        assert_eq!(timeouts(&clock, Rules::Fide2023), [unwinnable]);
        let comment = format!("{knight}\n1... Qa2 {{Black forfeits on time}} 1-0\n");
        assert_eq!(timeouts(&comment, Rules::Fide2023), [unwinnable]);
        // No word of time: a resignation, not judged.
        let resigned = format!("{knight}\n1... Qa2 1-0\n");
        assert!(timeouts(&resigned, Rules::Fide2023).is_empty());
        // A knight against a pawn: the pawn can promote and box its own king in, so the
        // win on time stands (chasolver: WB).
        let pawn = "[FEN \"7k/8/8/8/8/8/p7/K1N5 b - - 0 1\"]\n[Termination \"Time forfeit\"]\n\n\
                    1... Kg7 1-0\n";
        assert!(timeouts(pawn, Rules::Fide2023).is_empty());
    }
}
