//! planilla-validator: replays parsed games through `planilla-core` and
//! reports findings with the codes, severities and locations of the
//! command-line contract.
//!
//! A [`Checker`] checks one game after another, keeping what the next game can
//! use: a worker owns one and reuses it.
//!
//! ```
//! use planilla_parser::Game;
//! use planilla_validator::{Checker, Code, Config};
//!
//! let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Ab5 Cf6 4. Rd2 1-0\n";
//! let game = Game::from_bytes(&pgn[..], Default::default());
//! let mut checker = Checker::new(Config::default());
//! let mut findings = Vec::new();
//! checker.check(&game, &mut findings);
//! // The game has tags but not the whole Seven Tag Roster (a note at its first tag).
//! assert_eq!(findings[0].code, Code::MissingTag);
//! // Spanish notation, decided from the letters; "Rd2" is a king move onto its own pawn.
//! assert_eq!(findings[1].code, Code::NotationLanguage);
//! assert_eq!(findings[2].code, Code::IllegalMove);
//! assert_eq!(findings[2].ply, Some(7));
//! ```

#![warn(missing_docs)]

pub mod archive;
mod by_date;
mod checker;
mod finding;
pub mod repair;
mod replay;
mod rules;
mod tags;
pub mod trf;

pub use checker::{Checker, Config, GameStats, MainLineEnd, PlayedMove, SOLVER_BUDGET};
pub use finding::{Code, Finding, Severity, UnknownCode};
pub use repair::{Candidate, Edit, Repair, RepairOutcome};
pub use replay::{MoveNotation, UnknownNotation, result_meaning};
pub use rules::{Rules, RulesChoice, UnknownRules};

use planilla_parser::Game;

/// An `internal-error` finding about a whole game, at its first byte: planilla
/// failed on it (a panic caught while working on it).
pub fn internal_error(game: &Game, message: String) -> Finding {
    Finding::in_game(Code::InternalError, game, 0, message)
}
