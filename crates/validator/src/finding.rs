//! Findings: what the validator reports, with codes and severities from the
//! command-line contract.

use planilla_parser::Game;
use std::fmt;
use std::str::FromStr;

/// How serious a finding is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; not a fault.
    Note,
    /// Probably a fault in the record.
    Warning,
    /// The record is wrong.
    Error,
}

impl Severity {
    /// `note`, `warning` or `error`.
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $code:expr, $severity:ident;)*) => {
        /// A finding code of the command-line contract (`docs/cli.md`).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in the contract's order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The code as written in output and on the command line.
            pub const fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// The severity the contract gives this code.
            pub const fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }
        }
    };
}

codes! {
    /// Malformed PGN.
    SyntaxError = "syntax-error", Error;
    /// A FEN/SetUp tag that is malformed or impossible.
    InvalidFen = "invalid-fen", Error;
    /// A move that matches no legal move.
    IllegalMove = "illegal-move", Error;
    /// A move that matches two or more legal moves.
    AmbiguousMove = "ambiguous-move", Error;
    /// Result tag and marker disagree, or the result contradicts the final position.
    ResultMismatch = "result-mismatch", Error;
    /// Moves recorded after checkmate or stalemate: no legal move existed.
    MoveAfterGameEnd = "move-after-game-end", Error;
    /// Moves recorded after the game ended in a draw by a rule while legal moves
    /// remained (a dead position; under 2014+ rules fivefold repetition or 75 moves): the
    /// record is faithful, the moves are not part of the game.
    MoveAfterDraw = "move-after-draw", Warning;
    /// A win on time in a final position where the winner cannot checkmate by any legal
    /// sequence (Laws 6.9): a draw.
    TimeoutUnwinnable = "timeout-unwinnable", Error;
    /// A threefold-repetition claim was available and not taken.
    MissedThreefoldClaim = "missed-threefold-claim", Warning;
    /// A fifty-move claim was available and not taken.
    MissedFiftyMoveClaim = "missed-fifty-move-claim", Warning;
    /// Disambiguation no other piece needed.
    RedundantDisambiguation = "redundant-disambiguation", Warning;
    /// Disambiguation needed only if a pinned piece is counted.
    PinnedDisambiguation = "pinned-disambiguation", Note;
    /// The rank used where the file would have done.
    NonPreferredDisambiguation = "non-preferred-disambiguation", Note;
    /// `x` missing on a capture or present on a non-capture.
    CaptureMark = "capture-mark", Note;
    /// `+`/`#` missing or wrong, or `++` for mate.
    CheckMark = "check-mark", Note;
    /// Forms PGN export writes differently.
    NonStandardSan = "non-standard-san", Note;
    /// planilla itself failed on this game.
    InternalError = "internal-error", Error;
    /// A variant other than standard chess or Chess960.
    UnsupportedVariant = "unsupported-variant", Note;
    /// Text decoded as Windows-1252 / Latin-1, or holding U+FFFD.
    Encoding = "encoding", Note;
    /// The game is written in a language other than English.
    NotationLanguage = "notation-language", Note;
    /// A standard tag holds a value its definition excludes.
    TagValue = "tag-value", Warning;
    /// A tag of the Seven Tag Roster is missing.
    MissingTag = "missing-tag", Note;
    /// A malformed `[%clk]`/`[%emt]`, a clock that rises beyond the time control, or
    /// clocks missing from some moves.
    ClockAnnotation = "clock-annotation", Warning;
    /// A result PGN does not define but scoresheets write (`0-0`, `½-0`, `+/-`…).
    NonStandardResult = "non-standard-result", Warning;
    /// King placements on the centre squares that signal the result on a DGT board.
    DgtResultSignal = "dgt-result-signal", Warning;
    /// `--rules by-date` could not tell the edition from the game's Date alone.
    RulesByDate = "rules-by-date", Note;
    /// `fix --repair` read a move as the one reading within one edit of it that lets
    /// the game replay to its end (a change `fix` reports; `check` names it in the
    /// `illegal-move` message instead).
    RepairedMove = "repaired-move", Warning;
    /// The same start and main line as an earlier game of the run (`--archive`).
    DuplicateGame = "duplicate-game", Warning;
    /// Same players and start, and this main line is a proper prefix of another game's
    /// (`--archive`).
    TruncatedCopy = "truncated-copy", Warning;
    /// Same Event, Round, White and Black as an earlier game, but the main lines part
    /// (`--archive`).
    ConflictingCopies = "conflicting-copies", Warning;
    /// A player in two games of one Event and Round, or two games on one Board
    /// (`--archive`).
    RoundConflict = "round-conflict", Warning;
    /// One FideId under two names, or one name under two FideIds (`--archive`).
    PlayerIdentity = "player-identity", Note;
    /// The game's result differs from the TRF's for its pairing (`--trf`).
    TrfResult = "trf-result", Error;
    /// The TRF pairs the game's players with the colours the other way round (`--trf`).
    TrfColours = "trf-colours", Error;
    /// The TRF pairs the game's players in another round (`--trf`).
    TrfRound = "trf-round", Warning;
    /// The TRF records the game as a forfeit, a bye or a game of less than one move,
    /// and the PGN has moves (`--trf`).
    TrfUnplayed = "trf-unplayed", Error;
    /// A round's games played over the board that no PGN game was found for, listed
    /// (`--trf`; at the TRF file).
    TrfMissingGame = "trf-missing-game", Note;
    /// A game whose players the TRF pairs in no round (`--trf`).
    TrfUnknownGame = "trf-unknown-game", Warning;
    /// A TRF line that cannot be read, or fields that do not agree (`--trf`; at the TRF
    /// file, with line and column).
    TrfFile = "trf-file", Error;
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Code {
    type Err = UnknownCode;

    /// Reads a code as [`Code::as_str`] writes it.
    ///
    /// # Errors
    ///
    /// [`UnknownCode`] for any other text.
    fn from_str(name: &str) -> Result<Code, UnknownCode> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == name)
            .ok_or_else(|| UnknownCode(name.to_string()))
    }
}

/// A name that is no finding code (see [`Code::from_str`]), with the text that was
/// given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown finding code '{}'", self.0)
    }
}

impl std::error::Error for UnknownCode {}

/// One finding about one game, located in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What was found.
    pub code: Code,
    /// 1-based index of the game in its file.
    pub game: u64,
    /// 1-based half-move index along the line of the move, from the game's
    /// starting position; `None` where the finding has no move.
    pub ply: Option<u32>,
    /// 1-based line in the file.
    pub line: u64,
    /// 1-based column, in characters of the decoded line.
    pub column: u64,
    /// The move as written, with its move number for human output
    /// (`12. Nxe5`, `12... Nxe5`); `None` where the finding has no move.
    pub numbered_move: Option<String>,
    /// The move as written, alone (`Nxe5`).
    pub san: Option<String>,
    /// What is wrong, in lower case, without trailing period.
    pub message: String,
    /// FEN of the position before the move, where a position applies.
    pub fen: Option<String>,
    /// Empty for the main line, otherwise the path of 1-based variation
    /// indexes (the n-th variation opened in its parent line).
    pub variation: Vec<u32>,
}

impl Finding {
    /// A finding about `game` located at its byte `at`, about no move, position or
    /// variation (the findings about those fill them in).
    pub fn in_game(code: Code, game: &Game, at: usize, message: String) -> Finding {
        let location = game.location(at);
        Finding {
            code,
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

    /// The severity of the finding's code.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// The finding as `check` writes it after its location and code: the game, the ply,
    /// the variation and the move as written, then the message (`game 3, ply 5 (3. Nb5):
    /// ...`). Every front end (the report formats, the language server) says it alike.
    /// A finding about a file rather than a game (game 0: `trf-file`,
    /// `trf-missing-game`) is its message alone.
    pub fn text(&self) -> String {
        if self.game == 0 {
            return self.message.clone();
        }
        self.text_as_game(self.game)
    }

    /// [`Finding::text`] with another game number: the same game, numbered as it is
    /// now in a text that changed around it (the language server's documents).
    pub fn text_as_game(&self, game: u64) -> String {
        let mut text = format!("game {game}");
        if let Some(ply) = self.ply {
            text.push_str(&format!(", ply {ply}"));
        }
        if !self.variation.is_empty() {
            let path: Vec<String> = self.variation.iter().map(u32::to_string).collect();
            text.push_str(&format!(", variation {}", path.join(".")));
        }
        if let Some(m) = &self.numbered_move {
            text.push_str(&format!(" ({m})"));
        }
        text.push_str(": ");
        text.push_str(&self.message);
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code reads back from its name; anything else is refused with the message
    /// the command line prints.
    #[test]
    fn codes_read_back_from_their_names() {
        for &code in Code::ALL {
            assert_eq!(code.to_string().parse(), Ok(code));
        }
        assert_eq!(
            "no-such-code".parse::<Code>().unwrap_err().to_string(),
            "unknown finding code 'no-such-code'"
        );
    }
}
