//! The Python values handed back: a finding, a summary and a fix's change as dicts with
//! the fields, in the order, of the lines `planilla check --format jsonl` and `planilla
//! fix` write (docs/cli.md), built from the library's values.

use planilla_converter::Change;
use planilla_validator::{Finding, Severity};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A finding about a game of `file`, as its JSON Lines record.
pub fn finding<'py>(py: Python<'py>, file: &str, f: &Finding) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("type", "finding")?;
    dict.set_item("file", file)?;
    dict.set_item("game", f.game)?;
    dict.set_item("ply", f.ply)?;
    dict.set_item("line", f.line)?;
    dict.set_item("column", f.column)?;
    dict.set_item("severity", f.severity().name())?;
    dict.set_item("code", f.code.as_str())?;
    dict.set_item("move", f.san.as_deref())?;
    dict.set_item("message", &f.message)?;
    dict.set_item("fen", f.fen.as_deref())?;
    dict.set_item("variation", &f.variation)?;
    Ok(dict)
}

/// A change `fix` made to a game of `file`, as its JSON Lines record.
pub fn change<'py>(py: Python<'py>, file: &str, c: &Change) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("type", "fix")?;
    dict.set_item("file", file)?;
    dict.set_item("game", c.game)?;
    dict.set_item("ply", c.ply)?;
    dict.set_item("code", c.code.as_str())?;
    dict.set_item("before", &c.before)?;
    dict.set_item("after", &c.after)?;
    Ok(dict)
}

/// What a run counted: the fields of the JSON Lines summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Sources read.
    pub files: u64,
    /// Games checked.
    pub games: u64,
    /// Half-moves replayed, in every line.
    pub plies: u64,
    /// Findings reported, indexed by severity (`Severity as usize`: notes, warnings,
    /// errors).
    reported: [u64; 3],
}

impl Totals {
    /// Counts one reported finding of severity `s`.
    pub fn count(&mut self, s: Severity) {
        self.reported[s as usize] += 1;
    }

    /// The summary record.
    pub fn to_dict<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("type", "summary")?;
        dict.set_item("files", self.files)?;
        dict.set_item("games", self.games)?;
        dict.set_item("plies", self.plies)?;
        for s in [Severity::Error, Severity::Warning, Severity::Note] {
            dict.set_item(format!("{}s", s.name()), self.reported[s as usize])?;
        }
        Ok(dict)
    }
}
