//! `planilla.convert` and `planilla.fix`: PGN text rewritten game by game by the engine's
//! jobs of `convert` and `fix` (the converter's `Converter` and `Fixer`) on the calling
//! thread, read and written as `planilla convert` and `planilla fix` read and write it.

use crate::options;
use crate::py_values;
use crate::source::{Source, SourceError};
use planilla_converter::{Change, FixOptions, Options, Outcome, OutputEncoding, Target};
use planilla_engine::jobs::{ConvertJob, FixJob};
use planilla_engine::pipeline::{BatchConfig, Job};
use planilla_engine::pulled::{Pulled, Threads};
use planilla_parser::{Encoding, Joiner};
use planilla_validator::Finding;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};
use std::sync::Arc;

/// Hands `on` the result of `job` on each game of the source `pgn` in turn, worked on by
/// the engine's pipeline on the calling thread; returns the name findings about it carry.
fn for_each_game<J>(
    pgn: &Bound<'_, PyAny>,
    encoding: Encoding,
    job: J,
    mut on: impl FnMut(J::Output) + Send,
) -> PyResult<String>
where
    J: Job + Send + 'static,
    J::Output: 'static,
{
    let source = one(pgn)?;
    pgn.py().detach(|| -> Result<(), SourceError> {
        let (builder, input) = source.open(encoding, false)?;
        let batching = BatchConfig::default();
        let mut pulled = Pulled::new(builder, input, batching, &Threads::Caller, Arc::new(job));
        while let Some(batch) = pulled.next_batch() {
            let batch = batch.map_err(|e| SourceError::reading(&source, &e))?;
            batch.into_iter().for_each(&mut on);
        }
        Ok(())
    })?;
    Ok(source.name())
}

/// The one source `pgn` names: PGN text (`bytes` or `str`), a path or a file object, read
/// as `check` reads it (compressed input decoded).
fn one(pgn: &Bound<'_, PyAny>) -> PyResult<Source> {
    let many = pgn.is_instance_of::<PyList>() || pgn.is_instance_of::<PyTuple>();
    match Source::all(pgn)?.pop() {
        Some(source @ (Source::Text(_) | Source::File(_) | Source::Object(_))) if !many => {
            Ok(source)
        }
        _ => Err(pyo3::exceptions::PyTypeError::new_err(
            "pgn must be one source: bytes or str of PGN, a path or a binary file object",
        )),
    }
}

/// Rewrites the moves of PGN text in another notation language.
///
/// `pgn` is PGN text (`bytes` or `str`), a path or a binary file object, compressed or
/// not, read as `check` reads it.
/// Every move that replays is written as `to` says (`planilla convert --to`: the
/// canonical SAN of a language, `lan`/`lan-es` for long algebraic, `iccf`); every other
/// character (tags, comments, spacing) passes through. `from_` is the language the moves
/// are written in (`auto`: decided per game); `notation` their notation (`auto`: each
/// move read in the notation its form is; `san`, `lan`, `iccf`, `descriptive`).
#[pyfunction]
#[pyo3(signature = (pgn, *, to="en", from_="auto", notation="auto", rules="by-date", encoding="auto"))]
pub fn convert(
    pgn: &Bound<'_, PyAny>,
    to: &str,
    from_: &str,
    notation: &str,
    rules: &str,
    encoding: &str,
) -> PyResult<String> {
    let target: Target = options::parse(to)?;
    let options = Options {
        from: options::lang(from_)?,
        to: target.lang,
        form: target.form,
        notation: options::notation(notation)?,
        rules: options::rules(rules)?,
    };
    // UTF-8 holds every character: no game's bytes are an error.
    let job = ConvertJob {
        options,
        encoding: OutputEncoding::Utf8,
    };
    let mut out = Vec::new();
    // The games go one after another as `planilla convert` writes them: a separator line
    // only where two would otherwise run together (where the text had one).
    let mut joiner = Joiner::new();
    for_each_game(pgn, options::encoding(encoding)?, job, |done| {
        let whole = done.outcome != Outcome::Skipped;
        if let Ok(bytes) = &done.bytes {
            // Writing to a Vec cannot fail.
            let _ = joiner.write_from(&mut out, bytes, done.input, whole);
        }
    })?;
    // The converter writes UTF-8: nothing is replaced here.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// What `fix` made of the text: see `fix`.
#[pyclass(frozen, module = "planilla")]
pub struct Fixed {
    /// The games, each fixed or as it came.
    #[pyo3(get)]
    text: String,
    /// The changes made, each a dict as `planilla fix --format jsonl` writes it.
    #[pyo3(get)]
    changes: Py<PyList>,
    /// The findings reported beside them (why a game was rejected, what a fixed game
    /// keeps), each a dict as `check` reports it.
    #[pyo3(get)]
    findings: Py<PyList>,
    /// The games no rewrite makes whole, each as bytes exactly as read.
    #[pyo3(get)]
    rejected: Py<PyList>,
}

/// What one game became.
struct FixedGame {
    changes: Vec<Change>,
    findings: Vec<Finding>,
    rejected: Option<Vec<u8>>,
}

/// Rewrites the parts of PGN games that the record itself shows to be wrong.
///
/// `pgn` is PGN text (`bytes` or `str`), a path or a binary file object, compressed or
/// not, read as `check` reads it; findings and changes name it as `check` does.
/// The result made to agree with the final position, results as scoresheets write them,
/// moves after the game's end and DGT result signals, as `planilla fix` does. With
/// `repair=True`, a game whose first bad move has exactly one reading within one edit
/// that lets the game replay to its end is fixed with it. Returns a `Fixed`: `text` (every
/// game, fixed or as it came), `changes`, `findings` and `rejected`.
#[pyfunction]
#[pyo3(signature = (pgn, *, repair=false, to=None, from_="auto", notation="auto", rules="by-date", encoding="auto"))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per option.
pub fn fix(
    py: Python<'_>,
    pgn: &Bound<'_, PyAny>,
    repair: bool,
    to: Option<&str>,
    from_: &str,
    notation: &str,
    rules: &str,
    encoding: &str,
) -> PyResult<Fixed> {
    let job = FixJob {
        options: FixOptions {
            from: options::lang(from_)?,
            to: to.map(options::parse).transpose()?,
            rules: options::rules(rules)?,
            notation: options::notation(notation)?,
            repair,
        },
        trf: None,
    };
    let mut text = Vec::new();
    let mut joiner = Joiner::new();
    let mut games = Vec::new();
    let name = for_each_game(pgn, options::encoding(encoding)?, job, |fixed| {
        // As `planilla fix` writes them: a separator line only where two games would
        // otherwise run together. Writing to a Vec cannot fail.
        let _ = joiner.write(&mut text, &fixed.bytes);
        games.push(FixedGame {
            changes: fixed.changes,
            findings: fixed.reported,
            rejected: fixed.rejected,
        });
    })?;
    let (changes, findings, rejected) = (PyList::empty(py), PyList::empty(py), PyList::empty(py));
    for game in &games {
        for f in &game.findings {
            findings.append(py_values::finding(py, &name, f)?)?;
        }
        for c in &game.changes {
            changes.append(py_values::change(py, &name, c)?)?;
        }
        if let Some(raw) = &game.rejected {
            rejected.append(PyBytes::new(py, raw))?;
        }
    }
    Ok(Fixed {
        // The converter writes UTF-8: nothing is replaced here.
        text: String::from_utf8_lossy(&text).into_owned(),
        changes: changes.unbind(),
        findings: findings.unbind(),
        rejected: rejected.unbind(),
    })
}
