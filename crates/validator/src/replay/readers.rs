//! Moves written in the notations older than SAN, and which notation a game is written
//! in: ICCF numeric (`5254`), English descriptive (`P-K4`, `N-KB3`, `PxP`) and Spanish
//! descriptive (`P4R`, `C3AR`, `PxP`). Long algebraic (`Ng1-f3`) is SAN's own reader's;
//! here it is only told apart as a whole game's notation.
//!
//! The replay reads every move as SAN first: SAN and these notations never read the same
//! text (`5254` and `P-K4` are no SAN, `e4` no descriptive move), so a SAN game never
//! comes here, and a game written in another notation is read move by move in the
//! notation each move's form is. The one text that reads two ways is a descriptive move
//! read in English or in Spanish (`RxP`: rook or king takes pawn): the game's
//! descriptive language decides it, from the moves only one of them reads.

use crate::checker::GameChecker;
use crate::finding::Code;
use crate::replay::Site;
use planilla_core::san::{Descriptive, Iccf, Lang, San, Suffix, write_descriptive};
use planilla_core::{Move, MoveList, Position};
use planilla_parser::{Game, TokenKind};
use std::fmt;
use std::str::FromStr;

/// The notation a game's moves are written in (`--notation`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveNotation {
    /// Standard algebraic notation, in any piece-letter language (`Nf3`, Spanish `Cf3`).
    #[default]
    San,
    /// Long algebraic: the departure square always written (`Ng1-f3`, `e2-e4`, `e2e4`).
    Lan,
    /// ICCF numeric: `5254` for e2-e4.
    Iccf,
    /// Descriptive, English (`P-K4`) or Spanish (`P4R`).
    Descriptive,
}

impl MoveNotation {
    /// Every notation, SAN first.
    pub const ALL: [MoveNotation; 4] = [
        MoveNotation::San,
        MoveNotation::Lan,
        MoveNotation::Iccf,
        MoveNotation::Descriptive,
    ];

    /// The code used on the command line (`san`, `lan`, `iccf`, `descriptive`).
    pub const fn code(self) -> &'static str {
        match self {
            MoveNotation::San => "san",
            MoveNotation::Lan => "lan",
            MoveNotation::Iccf => "iccf",
            MoveNotation::Descriptive => "descriptive",
        }
    }
}

impl fmt::Display for MoveNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A notation code that names no [`MoveNotation`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNotation(String);

impl fmt::Display for UnknownNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown notation '{}' (san, lan, iccf, descriptive)",
            self.0
        )
    }
}

impl std::error::Error for UnknownNotation {}

impl FromStr for MoveNotation {
    type Err = UnknownNotation;

    fn from_str(code: &str) -> Result<MoveNotation, UnknownNotation> {
        MoveNotation::ALL
            .into_iter()
            .find(|n| n.code() == code)
            .ok_or_else(|| UnknownNotation(code.to_string()))
    }
}

/// A move that SAN does not read, read in another notation.
#[derive(Clone, Debug)]
pub(super) enum Other {
    Iccf(Iccf),
    Descriptive(Descriptive),
}

impl Other {
    /// The check or mate mark as written.
    pub(super) fn suffix(&self) -> Option<Suffix> {
        match self {
            // ICCF numbers carry no marks; one written by hand is ignored.
            Other::Iccf(_) => None,
            Other::Descriptive(d) => d.suffix(),
        }
    }
}

/// Whether the legal move `m` of `pos` gives what the written `mark` says: a mate for
/// `#`, `mate` or `++`; a check (or a mate) for `+` or `ch`.
fn gives(pos: &Position, m: &Move, mark: Suffix) -> bool {
    matches!(
        (Suffix::deserved(&pos.play(m)), mark),
        (Some(Suffix::Mate), _) | (Some(_), Suffix::Check)
    )
}

/// Whether `text` has the shape of a long-algebraic move: a piece letter or figurine,
/// then the departure square, `-`, `x` or `:` (or nothing, as UCI), and the destination
/// (`Ng1-f3`, `e2-e4`, `e7e8q`, `Cg1-f3`); a promotion and marks may follow.
fn lan_shaped(text: &[u8]) -> bool {
    let body = match text {
        [0xe2, 0x99, _, rest @ ..] => rest,
        [c, rest @ ..] if c.is_ascii_uppercase() => rest,
        _ => text,
    };
    let square = |s: &[u8]| matches!(s, [b'a'..=b'h', b'1'..=b'8', ..]);
    if !square(body) {
        return false;
    }
    let rest = &body[2..];
    let rest = match rest {
        [b'-' | b'x' | b':', rest @ ..] => rest,
        _ => rest,
    };
    square(rest)
}

/// Whether a move's text is castling or a null move, which every notation writes alike.
fn is_castling_or_null(text: &[u8]) -> bool {
    matches!(text.first(), Some(b'O' | b'0' | b'o' | b'-' | b'Z'))
}

/// Whether every move of `game` (variations included) is written in long algebraic, or
/// is castling or a null move, and at least one is: checked only when the first move
/// has the shape, which a SAN game's first move (`e4`, `Nf3`) never has.
pub(crate) fn is_lan_game(game: &Game) -> bool {
    let mut moves = game
        .tokens()
        .iter()
        .filter(|t| t.kind == TokenKind::San)
        .map(|t| game.token_bytes(t));
    let Some(first) = moves.find(|m| !is_castling_or_null(m)) else {
        return false;
    };
    lan_shaped(first) && moves.all(|m| is_castling_or_null(m) || lan_shaped(m))
}

impl GameChecker<'_> {
    /// Reads `text`, a move SAN does not read, in the other notations the game allows
    /// (all of them, unless `--notation` names one); `None` if none reads it.
    #[cold]
    #[inline(never)]
    pub(super) fn read_other(&mut self, text: &[u8]) -> Option<Other> {
        let forced = self.config.notation;
        if matches!(forced, Some(MoveNotation::San | MoveNotation::Lan)) {
            return None;
        }
        if text.first().is_some_and(u8::is_ascii_digit) {
            if forced == Some(MoveNotation::Descriptive) {
                return None;
            }
            return Iccf::parse(text).ok().map(Other::Iccf);
        }
        if forced == Some(MoveNotation::Iccf) {
            return None;
        }
        let lang = self.descriptive_lang();
        Descriptive::parse(text, lang).ok().map(Other::Descriptive)
    }

    /// The language of the game's descriptive moves: the one `--lang` names (English or
    /// Spanish), else the one more of its moves read in alone (English when as many, or
    /// none, do). Decided once a game, at its first descriptive move.
    fn descriptive_lang(&mut self) -> Lang {
        if let Some(lang) = self.desc_lang {
            return lang;
        }
        let lang = match self.config.lang {
            Some(lang @ (Lang::En | Lang::Es)) => lang,
            _ => {
                let game = self.game;
                let (mut english, mut spanish) = (0u32, 0u32);
                for token in game.tokens().iter().filter(|t| t.kind == TokenKind::San) {
                    let text = game.decoded_bytes(token.span());
                    let en = Descriptive::parse(&text, Lang::En).is_ok();
                    let es = Descriptive::parse(&text, Lang::Es).is_ok();
                    english += u32::from(en && !es);
                    spanish += u32::from(es && !en);
                }
                if spanish > english {
                    Lang::Es
                } else {
                    Lang::En
                }
            }
        };
        self.desc_lang = Some(lang);
        lang
    }

    /// The legal move `other` (written at `site`) stands for, when exactly one fits;
    /// otherwise reports the move as illegal (none fits) or ambiguous (several do,
    /// each named in the game's notation and in SAN) and returns `None`.
    #[cold]
    #[inline(never)]
    pub(super) fn resolve_other(&mut self, other: &Other, site: &Site) -> Option<Move> {
        let pos = site.before;
        let mut fits = MoveList::new();
        let notation = match other {
            Other::Iccf(iccf) => {
                iccf.candidates(pos, &mut fits);
                MoveNotation::Iccf
            }
            Other::Descriptive(d) => {
                d.candidates(pos, &mut fits);
                MoveNotation::Descriptive
            }
        };
        self.other_read.get_or_insert(notation);
        if fits.len() == 1 {
            return Some(fits[0]);
        }
        // Books leave a move unqualified where its check or mate mark tells it apart
        // (`B-N5 ch`: Bb4+, not Bg4): a mark written chooses among the moves that fit,
        // when exactly one of them gives it (`ch` or `+` a check or a mate, `mate` a mate).
        if let Some(mark) = other.suffix().filter(|_| fits.len() > 1)
            && let [only] = fits
                .iter()
                .filter(|m| gives(pos, m, mark))
                .collect::<Vec<_>>()[..]
        {
            return Some(*only);
        }
        let (_, written) = self.describe(site);
        let lang = match other {
            Other::Descriptive(_) => self.desc_lang.unwrap_or(Lang::En),
            Other::Iccf(_) => self.lang,
        };
        let (code, message) = if fits.is_empty() {
            let wanted = match other {
                Other::Iccf(iccf) => format!("a move from {} to {}", iccf.from, iccf.to),
                Other::Descriptive(d) => d.describe(pos),
            };
            (
                Code::IllegalMove,
                format!("no legal move fits {written}: it asks for {wanted}"),
            )
        } else {
            let named: Vec<String> = fits
                .iter()
                .map(|m| {
                    let san = San::from_move(pos, m)
                        .with_suffix(Suffix::deserved(&pos.play(m)))
                        .to_string_in(lang);
                    let own = match other {
                        Other::Iccf(_) => Iccf::write(m),
                        Other::Descriptive(_) => write_descriptive(pos, m, &fits, lang),
                    };
                    format!("{san} ({own})")
                })
                .collect();
            (
                Code::AmbiguousMove,
                format!(
                    "{written} matches {} legal moves: {}",
                    named.len(),
                    named.join(", ")
                ),
            )
        };
        self.push_at(code, site, message);
        None
    }

    /// The notation the game was read in, as [`GameStats::notation`] gives it.
    ///
    /// [`GameStats::notation`]: crate::GameStats::notation
    pub(crate) fn notation(&self) -> MoveNotation {
        match self.other_read {
            Some(notation) => notation,
            None if self.lan_game => MoveNotation::Lan,
            None => MoveNotation::San,
        }
    }

    /// The words that name the game's notation in its `notation-language` note
    /// (`English descriptive notation`, `long algebraic notation, Spanish letters`, with
    /// `letters` the language's name and `letters`), or `None` for SAN, whose note (if
    /// any) names its language only.
    pub(crate) fn notation_words(&self, letters: &str) -> Option<String> {
        Some(match self.notation() {
            MoveNotation::San => return None,
            MoveNotation::Lan if self.lang == Lang::En => "long algebraic notation".to_string(),
            MoveNotation::Lan => format!("long algebraic notation, {letters}"),
            MoveNotation::Iccf => "ICCF numeric notation".to_string(),
            MoveNotation::Descriptive => format!(
                "{} descriptive notation",
                self.desc_lang.unwrap_or(Lang::En).name()
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_algebraic_shapes() {
        for yes in [
            "e2-e4", "Ng1-f3", "e2e4", "e7e8q", "Cg1-f3", "e4xd5", "Qd1:h5+",
        ] {
            assert!(lan_shaped(yes.as_bytes()), "{yes}");
        }
        for no in ["e4", "Nf3", "exd5", "Nbd7", "N1f3", "O-O", "P-K4", "5254"] {
            assert!(!lan_shaped(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn notation_codes_read_back() {
        for n in MoveNotation::ALL {
            assert_eq!(n.code().parse::<MoveNotation>(), Ok(n));
        }
        assert!("auto".parse::<MoveNotation>().is_err());
    }
}
