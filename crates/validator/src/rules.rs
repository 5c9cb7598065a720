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
        let names: Vec<&str> = Rules::ALL.iter().map(|r| r.name()).collect();
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
            "unknown rules 'fide-2000' (fide-2023, fide-2009, fide-2005)"
        );
    }
}
