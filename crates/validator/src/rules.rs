//! Editions of the FIDE Laws, as far as a validator can tell them apart.

use std::fmt;
use std::str::FromStr;

/// Which edition of the FIDE Laws the draw rules follow (the `--rules` option of
/// `docs/cli.md`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Rules {
    /// FIDE 2023 (as 2014): fivefold repetition and the 75-move rule end the
    /// game automatically; castling rights count as in 2009.
    #[default]
    Fide2023,
    /// FIDE 2009: claims only; castling rights lost only once king or rook moved.
    Fide2009,
    /// FIDE 2005: claims only; castling counts in "same position" only when
    /// it is possible right now.
    Fide2005,
}

impl Rules {
    /// Every edition, newest first.
    pub const ALL: [Rules; 3] = [Rules::Fide2023, Rules::Fide2009, Rules::Fide2005];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Fide2023 => "fide-2023",
            Rules::Fide2009 => "fide-2009",
            Rules::Fide2005 => "fide-2005",
        }
    }

    /// Whether fivefold repetition and 75 moves end the game by themselves.
    pub const fn automatic_draws(self) -> bool {
        matches!(self, Rules::Fide2023)
    }

    /// The repetition key of `pos` under this edition.
    #[inline]
    pub fn key(self, pos: &planilla_core::Position) -> u64 {
        match self {
            Rules::Fide2005 => pos.zobrist_2005(),
            _ => pos.zobrist(),
        }
    }
}

/// How the edition is chosen for each game (the `--rules` option): one edition for
/// every game, or each game by the edition in force on its Date (`by-date`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum RulesChoice {
    /// Every game by this edition.
    Edition(Rules),
    /// Each game by the edition in force on its Date tag; a game whose Date has no
    /// year by the default edition, with a note when the editions would judge it
    /// differently (see the `by_date` module). The default.
    #[default]
    ByDate,
}

impl From<Rules> for RulesChoice {
    fn from(rules: Rules) -> RulesChoice {
        RulesChoice::Edition(rules)
    }
}

impl fmt::Display for RulesChoice {
    /// The name used on the command line: an edition's, or `by-date`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesChoice::Edition(rules) => rules.fmt(f),
            RulesChoice::ByDate => f.write_str(BY_DATE),
        }
    }
}

impl FromStr for RulesChoice {
    type Err = UnknownRules;

    /// Reads `by-date` or an edition's name.
    ///
    /// # Errors
    ///
    /// [`UnknownRules`] for any other text; its message lists the names.
    fn from_str(name: &str) -> Result<RulesChoice, UnknownRules> {
        if name == BY_DATE {
            return Ok(RulesChoice::ByDate);
        }
        name.parse().map(RulesChoice::Edition)
    }
}

/// The name of [`RulesChoice::ByDate`] on the command line.
const BY_DATE: &str = "by-date";

impl fmt::Display for Rules {
    /// The name used on the command line ([`Rules::name`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rules {
    type Err = UnknownRules;

    /// Reads a name as [`Rules::name`] writes it.
    ///
    /// # Errors
    ///
    /// [`UnknownRules`] for any other text; its message lists the names.
    fn from_str(name: &str) -> Result<Rules, UnknownRules> {
        Rules::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| UnknownRules(name.to_string()))
    }
}

/// A name that is no edition of the rules (see [`Rules::from_str`]), with the text
/// that was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<&str> = Rules::ALL.iter().map(|r| r.name()).collect();
        names.push(BY_DATE);
        write!(f, "unknown rules '{}' ({})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownRules {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every edition reads back from its name, and anything else is refused with the
    /// message the command line prints.
    #[test]
    fn rules_read_back_from_their_names() {
        for rules in Rules::ALL {
            assert_eq!(rules.to_string().parse(), Ok(rules));
        }
        assert_eq!(
            "fide-2000".parse::<Rules>().unwrap_err().to_string(),
            "unknown rules 'fide-2000' (fide-2023, fide-2009, fide-2005, by-date)"
        );
    }

    /// The choice reads back from its name too, `by-date` included.
    #[test]
    fn choices_read_back_from_their_names() {
        for choice in Rules::ALL
            .map(RulesChoice::from)
            .into_iter()
            .chain([RulesChoice::ByDate])
        {
            assert_eq!(choice.to_string().parse(), Ok(choice));
        }
        assert_eq!(
            "by-date".parse::<Rules>().map_err(|e| e.0),
            Err("by-date".into())
        );
        assert_eq!(RulesChoice::default(), RulesChoice::ByDate);
    }
}
