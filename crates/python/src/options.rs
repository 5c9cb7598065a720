//! The keyword arguments shared by the functions, read by the same `FromStr`s the
//! binary's options go through, so an unknown value is refused with the same message.

use planilla_core::san::Lang;
use planilla_parser::Encoding;
use planilla_validator::{Code, MoveNotation, RulesChoice};
use pyo3::PyResult;
use pyo3::exceptions::PyValueError;
use std::fmt::Display;
use std::str::FromStr;

/// Reads `value` by `T`'s `FromStr`; its error is a `ValueError` with the message the
/// command line shows.
pub fn parse<T>(value: &str) -> PyResult<T>
where
    T: FromStr,
    T::Err: Display,
{
    value
        .parse()
        .map_err(|e: T::Err| PyValueError::new_err(e.to_string()))
}

/// `lang=`: `auto` (`None`, decided per game) or a language code.
pub fn lang(value: &str) -> PyResult<Option<Lang>> {
    if value == "auto" {
        return Ok(None);
    }
    value.parse().map(Some).map_err(|_| {
        PyValueError::new_err(format!(
            "unknown language '{value}' (auto, en, es, it, pt, fr, de, nl, figurine)"
        ))
    })
}

/// `notation=`: `auto` (`None`: each move read in the notation its form is) or a
/// notation code (`san`, `lan`, `iccf`, `descriptive`).
pub fn notation(value: &str) -> PyResult<Option<MoveNotation>> {
    if value == "auto" {
        return Ok(None);
    }
    parse(value).map(Some)
}

/// `rules=`.
pub fn rules(value: &str) -> PyResult<RulesChoice> {
    parse(value)
}

/// `encoding=`.
pub fn encoding(value: &str) -> PyResult<Encoding> {
    parse(value)
}

/// Which codes are reported: `select=` (only these) and `ignore=` (never these), as
/// `--select` and `--ignore`.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    selected: Option<Vec<Code>>,
    ignored: Vec<Code>,
}

impl Filter {
    /// The filter of the codes named in `select` and `ignore`.
    ///
    /// # Errors
    ///
    /// A `ValueError` naming an unknown code.
    pub fn new(select: Option<Vec<String>>, ignore: Option<Vec<String>>) -> PyResult<Filter> {
        let codes = |names: Vec<String>| -> PyResult<Vec<Code>> {
            names.iter().map(|name| parse::<Code>(name)).collect()
        };
        Ok(Filter {
            selected: select.map(codes).transpose()?,
            ignored: codes(ignore.unwrap_or_default())?,
        })
    }

    /// Whether findings of `code` are reported.
    pub fn keeps(&self, code: Code) -> bool {
        self.selected.as_ref().is_none_or(|s| s.contains(&code)) && !self.ignored.contains(&code)
    }
}
