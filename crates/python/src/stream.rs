//! `planilla.iter_check`: `check`'s findings handed over one at a time, a batch of games
//! read and checked ahead, so that memory stays that of one batch however many findings
//! a large corpus has.

use crate::py_values::{self, Totals};
use crate::run::{Batches, Job};
use crate::source::SourceError;
use planilla_validator::Finding;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Mutex;

/// Where the iteration is.
struct State {
    batches: Batches,
    /// Findings of the last batch (or the archive's) not handed over yet, with their
    /// file's name.
    pending: VecDeque<(String, Finding)>,
    totals: Totals,
    /// Whether the last source was read to its end.
    finished: bool,
}

impl State {
    /// The next finding, reading and checking batches until one has a finding; `None`
    /// after the last.
    fn next_finding(&mut self) -> Result<Option<(String, Finding)>, SourceError> {
        while self.pending.is_empty() && !self.finished {
            match self.batches.next_batch()? {
                Some((i, results)) => {
                    let kept = self.totals.add(results, &self.batches.job().filter);
                    let name = self.batches.job().sources[i].name();
                    self.pending
                        .extend(kept.into_iter().map(|f| (name.clone(), f)));
                }
                None => {
                    self.totals.files = self.batches.opened();
                    let found = self.batches.late_findings()?;
                    let kept = self.totals.add_archive(found, &self.batches.job().filter);
                    self.pending.extend(kept);
                    self.finished = true;
                }
            }
        }
        Ok(self.pending.pop_front())
    }
}

/// The next item of an iterator whose state is behind `state`: `next` runs with the
/// interpreter lock released (it reads and checks games), the mutex held.
///
/// # Errors
///
/// What `next` fails with, and a `RuntimeError` when a panic on an earlier item poisoned
/// the lock (the reader's state is then unknown).
pub fn next_detached<S: Send, T: Send>(
    py: Python<'_>,
    state: &Mutex<S>,
    next: impl FnOnce(&mut S) -> Result<Option<T>, SourceError> + Send,
) -> PyResult<Option<T>> {
    let result = py.detach(|| state.lock().map(|mut s| next(&mut s)).map_err(|_| ()));
    let next = result.map_err(|()| {
        PyRuntimeError::new_err("this iterator failed on an earlier game and cannot go on")
    })?;
    Ok(next?)
}

/// An iterator over findings: see `iter_check`.
#[pyclass(module = "planilla")]
pub struct Findings {
    state: Mutex<State>,
}

#[pymethods]
impl Findings {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let next = next_detached(py, &self.state, |state| state.next_finding())?;
        next.map(|(name, f)| py_values::finding(py, &name, &f))
            .transpose()
    }

    /// The summary (a dict, as `check`'s) once every finding was handed over; `None`
    /// before.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let state = self
            .state
            .lock()
            .map_err(|_| PyRuntimeError::new_err("this iterator failed on an earlier game"))?;
        let done = state.finished && state.pending.is_empty();
        done.then(|| state.totals.to_dict(py)).transpose()
    }
}

/// Checks PGN games and yields the findings one at a time, in input order.
///
/// The arguments are `check`'s. Games are read and checked a batch at a time (on
/// `threads` threads, the interpreter lock released) as the findings are asked for, so
/// memory stays bounded whatever the input's size. Once the iterator is exhausted, its
/// `summary` holds the totals (before, `None`). A file that cannot be read raises
/// `OSError` when the iteration reaches it.
#[pyfunction]
#[pyo3(signature = (source, *, rules="by-date", lang="auto", encoding="auto", select=None, ignore=None, threads=None, shard=None, archive=false, range=None, index=None, trf=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per option.
pub fn iter_check(
    source: &Bound<'_, PyAny>,
    rules: &str,
    lang: &str,
    encoding: &str,
    select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    threads: Option<usize>,
    shard: Option<&str>,
    archive: bool,
    range: Option<(u64, u64)>,
    index: Option<&str>,
    trf: Option<PathBuf>,
) -> PyResult<Findings> {
    let job = Job::new(
        source, rules, lang, encoding, select, ignore, threads, shard, archive, range, index, trf,
    )?;
    Ok(Findings {
        state: Mutex::new(State {
            batches: Batches::new(job),
            pending: VecDeque::new(),
            totals: Totals::default(),
            finished: false,
        }),
    })
}
