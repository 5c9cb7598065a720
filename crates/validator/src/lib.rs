//! planilla-validator: replays parsed games through `planilla-core` and
//! reports findings with the codes, severities and locations of the
//! command-line contract.
//!
//! [`check_game`] checks one game; the binary runs it on many games in parallel.
//!
//! ```
//! use planilla_parser::Game;
//! use planilla_validator::{check_game, Code, Config};
//!
//! let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Ab5 Cf6 4. Rd2 1-0\n";
//! let game = Game::from_bytes(&pgn[..], Default::default());
//! let mut findings = Vec::new();
//! check_game(&game, &Config::default(), &mut findings);
//! // Spanish notation, decided from the letters; "Rd2" is a king move onto its own pawn.
//! assert_eq!(findings[0].code, Code::NotationLanguage);
//! assert_eq!(findings[1].code, Code::IllegalMove);
//! assert_eq!(findings[1].ply, Some(7));
//! ```

#![warn(missing_docs)]

mod finding;
mod replay;
mod rules;

pub use finding::{Code, Finding, Severity};
pub use replay::{Config, GameStats, PlayedMove, check_game, check_game_recording};
pub use rules::Rules;

use planilla_parser::Game;

/// An `internal-error` finding about a whole game, at its first byte: planilla
/// failed on it (a panic caught while working on it).
pub fn internal_error(game: &Game, message: String) -> Finding {
    let location = game.location(0);
    Finding {
        code: Code::InternalError,
        game: game.index(),
        ply: None,
        line: location.line,
        column: location.column,
        numbered_move: None,
        san: None,
        message,
        fen: None,
        variation: Vec::new(),
    }
}
