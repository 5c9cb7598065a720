//! The Python values handed back: a finding, a summary, a fix's change and a merge's
//! report line as dicts with the fields, in the order, of the lines `planilla check
//! --format jsonl`, `planilla fix` and `planilla merge` write (docs/cli.md), built from
//! the library's values.

use planilla_converter::Change;
use planilla_engine::merge::{MergeCounts, MergeLine};
use planilla_validator::{Finding, Severity};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A finding about a game of `file`, as its JSON Lines record.
pub fn finding<'py>(py: Python<'py>, file: &str, f: &Finding) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("type", "finding")?;
    dict.set_item("file", file)?;
    // `None` for a finding about a file rather than a game (game 0), as jsonl's `null`.
    dict.set_item("game", (f.game != 0).then_some(f.game))?;
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

/// A line of a merge's report (a game not written to the output, or a tag taken), as its
/// JSON Lines record: `group_file` and `group_game` only for a game set apart, `tag` and
/// `tag_line` only for a tag taken, as the binary leaves them out.
pub fn merge_line<'py>(py: Python<'py>, line: &MergeLine) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("type", "merge")?;
    dict.set_item("action", line.action.as_str())?;
    dict.set_item("code", line.code)?;
    dict.set_item("severity", line.severity.name())?;
    dict.set_item("file", &line.file)?;
    dict.set_item("game", line.game)?;
    dict.set_item("kept_file", line.kept.as_ref().map(|(f, _)| f))?;
    dict.set_item("kept_game", line.kept.as_ref().map(|(_, g)| g))?;
    dict.set_item("ply", line.ply)?;
    if let Some((file, game)) = &line.group {
        dict.set_item("group_file", file)?;
        dict.set_item("group_game", game)?;
    }
    if let Some((name, text)) = &line.tag {
        dict.set_item("tag", name)?;
        dict.set_item("tag_line", text)?;
    }
    dict.set_item("message", &line.message)?;
    Ok(dict)
}

/// A merge's summary record: games in = written + dropped + set apart, and the warnings
/// reported (report lines and findings).
pub fn merge_summary<'py>(
    py: Python<'py>,
    c: &MergeCounts,
    warnings: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("type", "summary")?;
    dict.set_item("files", c.files)?;
    dict.set_item("games", c.games)?;
    dict.set_item("written", c.written)?;
    dict.set_item("dropped", c.dropped)?;
    dict.set_item("set_apart", c.set_apart)?;
    dict.set_item("tags_taken", c.tags_taken)?;
    dict.set_item("warnings", warnings)?;
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
