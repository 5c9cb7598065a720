//! Findings: problems in the input, reported as values with a byte span.
//!
//! This is the parser's own finding type, apart from the validator's: the parser knows
//! no chess, no ply, position or variation path and no finding code beyond the text's
//! (`syntax-error`, `encoding`), and it depends on no other crate of the workspace. The
//! validator turns each of these into its located `Finding` (line, column, game) beside
//! the findings of the replay.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// The kind of a [`Finding`]; [`FindingKind::code`] maps it to the finding codes of the
/// command line contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// Malformed PGN: a stray token, an unterminated comment, tag or variation, an
    /// unmatched `)`, variations nested deeper than the limit.
    Syntax,
    /// Text decoded as Windows-1252 or Latin-1, invalid UTF-8, or U+FFFD already present.
    Encoding,
    /// The game was larger than the configured limit: its movetext was skipped and only
    /// its tag section (when it fits) was kept.
    GameTooLarge,
}

impl FindingKind {
    /// The finding code: `syntax-error` (also for a game over the size limit, which the
    /// contract reports as malformed input) or `encoding`.
    pub fn code(self) -> &'static str {
        match self {
            FindingKind::Syntax | FindingKind::GameTooLarge => "syntax-error",
            FindingKind::Encoding => "encoding",
        }
    }
}

/// A problem found in one game, located by a byte span in the game's bytes. Use
/// [`crate::Game::location`] to turn `span.start` into a line and column.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Finding {
    /// What kind of problem.
    pub kind: FindingKind,
    /// Lowercase message without trailing period.
    pub message: Cow<'static, str>,
    /// Byte span in the game's bytes.
    pub span: Range<u32>,
}

impl Finding {
    pub(crate) fn new(
        kind: FindingKind,
        message: impl Into<Cow<'static, str>>,
        span: Range<u32>,
    ) -> Self {
        Finding {
            kind,
            message: message.into(),
            span,
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.code(), self.message)
    }
}
