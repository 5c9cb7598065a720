//! `planilla.check_arrow`: `check`'s findings handed over columnar, as `pyarrow`
//! record batches, for Spark's `mapInArrow`, Parquet writers and data frames.
//!
//! The columns are built in Rust, as Arrow lays them out (values, offsets, validity
//! bitmaps), and given to `pyarrow.Array.from_buffers`: no Python object is made per
//! finding or per value, only a few buffers per batch.

use crate::py_values::Totals;
use crate::run::{Batches, Job};
use crate::source::SourceError;
use crate::stream::next_detached;
use planilla_validator::Finding;
use pyo3::exceptions::{PyImportError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::path::PathBuf;
use std::sync::Mutex;

/// A batch is handed over once it holds this many findings' text (or `batch_size`
/// findings): a string column's offsets are 32-bit.
const BATCH_TEXT: usize = 64 << 20;

/// A column of strings: Arrow's `utf8` layout.
#[derive(Default)]
struct Strings {
    offsets: Vec<i32>,
    data: Vec<u8>,
    valid: Validity,
}

impl Strings {
    fn push(&mut self, value: Option<&str>) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.data.extend_from_slice(value.unwrap_or("").as_bytes());
        self.offsets.push(
            i32::try_from(self.data.len()).expect("a batch's text is handed over before 2 GiB"),
        );
        self.valid.push(value.is_some());
    }
}

/// A validity bitmap (least significant bit first), with its count of nulls.
#[derive(Default)]
struct Validity {
    bits: Vec<u8>,
    len: usize,
    nulls: usize,
}

impl Validity {
    fn push(&mut self, valid: bool) {
        if self.len.is_multiple_of(8) {
            self.bits.push(0);
        }
        if valid {
            self.bits[self.len / 8] |= 1 << (self.len % 8);
        } else {
            self.nulls += 1;
        }
        self.len += 1;
    }
}

/// The findings of a batch, a column each, in the order of the fields of a `planilla
/// check --format jsonl` line.
#[derive(Default)]
struct Columns {
    rows: usize,
    kind: Strings,
    file: Strings,
    game: Vec<i64>,
    /// `null` for a finding about a file rather than a game (game 0).
    game_valid: Validity,
    ply: Vec<i32>,
    ply_valid: Validity,
    line: Vec<i64>,
    column: Vec<i64>,
    severity: Strings,
    code: Strings,
    san: Strings,
    message: Strings,
    fen: Strings,
    /// The variation paths: offsets into `steps`.
    variation: Vec<i32>,
    steps: Vec<i32>,
}

/// The columns' names and types, as `pyarrow` types are named.
const FIELDS: [(&str, &str, bool); 12] = [
    ("type", "string", false),
    ("file", "string", false),
    ("game", "int64", true),
    ("ply", "int32", true),
    ("line", "int64", false),
    ("column", "int64", false),
    ("severity", "string", false),
    ("code", "string", false),
    ("move", "string", true),
    ("message", "string", false),
    ("fen", "string", true),
    ("variation", "list", false),
];

/// A number as Arrow's 64-bit integer (no finding's number comes near the limit).
fn wide(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Columns {
    fn push(&mut self, file: &str, f: &Finding) {
        self.rows += 1;
        self.kind.push(Some("finding"));
        self.file.push(Some(file));
        self.game.push(wide(f.game));
        self.game_valid.push(f.game != 0);
        self.ply
            .push(f.ply.map_or(0, |p| i32::try_from(p).unwrap_or(i32::MAX)));
        self.ply_valid.push(f.ply.is_some());
        self.line.push(wide(f.line));
        self.column.push(wide(f.column));
        self.severity.push(Some(f.severity().name()));
        self.code.push(Some(f.code.as_str()));
        self.san.push(f.san.as_deref());
        self.message.push(Some(&f.message));
        self.fen.push(f.fen.as_deref());
        if self.variation.is_empty() {
            self.variation.push(0);
        }
        let steps = f
            .variation
            .iter()
            .map(|&s| i32::try_from(s).unwrap_or(i32::MAX));
        self.steps.extend(steps);
        self.variation
            .push(i32::try_from(self.steps.len()).unwrap_or(i32::MAX));
    }

    /// The bytes of text held, to hand the batch over before a string column's offsets
    /// could overflow.
    fn text(&self) -> usize {
        [&self.file, &self.message, &self.fen, &self.san]
            .iter()
            .map(|s| s.data.len())
            .sum()
    }

    /// The batch as a `pyarrow.RecordBatch` of `schema`; the columns are emptied.
    fn take<'py>(
        &mut self,
        pa: &Bound<'py, PyModule>,
        schema: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let taken = std::mem::take(self);
        let py = pa.py();
        let n = taken.rows;
        let buffer = |bytes: &[u8]| pa.call_method1("py_buffer", (PyBytes::new(py, bytes),));
        let bitmap = |v: &Validity| -> PyResult<Bound<'py, PyAny>> {
            if v.nulls == 0 {
                Ok(py.None().into_bound(py))
            } else {
                buffer(&v.bits)
            }
        };
        let field_type = |i: usize| schema.call_method1("field", (i,))?.getattr("type");
        let array = |i: usize, buffers: Vec<Bound<'py, PyAny>>, nulls: usize| {
            let kwargs = PyDict::new(py);
            kwargs.set_item("null_count", nulls)?;
            pa.getattr("Array")?.call_method(
                "from_buffers",
                (field_type(i)?, n, PyList::new(py, buffers)?),
                Some(&kwargs),
            )
        };
        let strings = |i: usize, s: &Strings| -> PyResult<Bound<'py, PyAny>> {
            let offsets: Vec<u8> = if s.offsets.is_empty() {
                0i32.to_le_bytes().to_vec()
            } else {
                s.offsets.iter().flat_map(|o| o.to_le_bytes()).collect()
            };
            let buffers = vec![bitmap(&s.valid)?, buffer(&offsets)?, buffer(&s.data)?];
            array(i, buffers, s.valid.nulls)
        };
        let ints = |i: usize, values: Vec<u8>, valid: Option<&Validity>| {
            let bits = valid.map_or(Ok(py.None().into_bound(py)), bitmap)?;
            array(
                i,
                vec![bits, buffer(&values)?],
                valid.map_or(0, |v| v.nulls),
            )
        };
        let le64 = |v: &[i64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let le32 = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let variation = {
            let list_type = field_type(11)?;
            let steps = pa.getattr("Array")?.call_method1(
                "from_buffers",
                (
                    list_type.getattr("value_type")?,
                    taken.steps.len(),
                    PyList::new(py, [py.None().into_bound(py), buffer(&le32(&taken.steps))?])?,
                ),
            )?;
            let offsets = if taken.variation.is_empty() {
                vec![0]
            } else {
                taken.variation
            };
            let kwargs = PyDict::new(py);
            kwargs.set_item("children", PyList::new(py, [steps])?)?;
            pa.getattr("Array")?.call_method(
                "from_buffers",
                (
                    list_type,
                    n,
                    PyList::new(py, [py.None().into_bound(py), buffer(&le32(&offsets))?])?,
                ),
                Some(&kwargs),
            )?
        };
        let columns = [
            strings(0, &taken.kind)?,
            strings(1, &taken.file)?,
            ints(2, le64(&taken.game), Some(&taken.game_valid))?,
            ints(3, le32(&taken.ply), Some(&taken.ply_valid))?,
            ints(4, le64(&taken.line), None)?,
            ints(5, le64(&taken.column), None)?,
            strings(6, &taken.severity)?,
            strings(7, &taken.code)?,
            strings(8, &taken.san)?,
            strings(9, &taken.message)?,
            strings(10, &taken.fen)?,
            variation,
        ];
        let kwargs = PyDict::new(py);
        kwargs.set_item("schema", schema)?;
        pa.getattr("RecordBatch")?.call_method(
            "from_arrays",
            (PyList::new(py, columns)?,),
            Some(&kwargs),
        )
    }
}

/// The schema of the batches: the fields of a `--format jsonl` finding, with Arrow types
/// (`ply`, `move` and `fen` may be null; `variation` is a list of 32-bit integers).
fn schema<'py>(pa: &Bound<'py, PyModule>) -> PyResult<Bound<'py, PyAny>> {
    let py = pa.py();
    let fields = FIELDS
        .iter()
        .map(|&(name, kind, nullable)| {
            let kind = match kind {
                "list" => {
                    let item =
                        pa.call_method1("field", ("item", pa.call_method0("int32")?, false))?;
                    pa.call_method1("list_", (item,))?
                }
                _ => pa.call_method0(kind)?,
            };
            pa.call_method1("field", (name, kind, nullable))
        })
        .collect::<PyResult<Vec<_>>>()?;
    pa.call_method1("schema", (PyList::new(py, fields)?,))
}

/// `pyarrow`, or an `ImportError` that says how to get it.
fn pyarrow(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("pyarrow").map_err(|e| {
        PyImportError::new_err(format!(
            "check_arrow needs pyarrow (pip install 'planilla[arrow]' or pip install pyarrow): {e}"
        ))
    })
}

/// Where the iteration is.
struct State {
    batches: Batches,
    columns: Columns,
    totals: Totals,
    /// Findings a batch holds before it is handed over.
    rows: usize,
    /// Whether every source was read and the archive's findings added.
    finished: bool,
    /// A read error to raise once the findings before it are handed over.
    failed: Option<SourceError>,
}

impl State {
    /// Reads and checks games until a batch's worth of findings is held or the input
    /// ends; whether there is anything to hand over.
    /// A read error comes after the findings of the games read before it, as
    /// `iter_check` hands them over: the batch so far first, the error on the next call.
    fn fill(&mut self) -> Result<Option<()>, SourceError> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        while !self.finished && self.columns.rows < self.rows && self.columns.text() < BATCH_TEXT {
            let next = match self.batches.next_batch() {
                Ok(next) => next,
                Err(e) if self.columns.rows > 0 => {
                    self.failed = Some(e);
                    break;
                }
                Err(e) => return Err(e),
            };
            match next {
                Some((i, results)) => {
                    let kept = self.totals.add(results, &self.batches.job().filter);
                    if !kept.is_empty() {
                        let name = self.batches.job().sources[i].name();
                        for f in &kept {
                            self.columns.push(&name, f);
                        }
                    }
                }
                None => {
                    self.totals.files = self.batches.opened();
                    let found = self.batches.late_findings()?;
                    for (name, f) in self.totals.add_archive(found, &self.batches.job().filter) {
                        self.columns.push(&name, &f);
                    }
                    self.finished = true;
                }
            }
        }
        Ok((self.columns.rows > 0).then_some(()))
    }
}

/// An iterator over record batches of findings: see `check_arrow`.
#[pyclass(module = "planilla")]
pub struct FindingBatches {
    state: Mutex<State>,
    schema: Py<PyAny>,
}

#[pymethods]
impl FindingBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if next_detached(py, &self.state, State::fill)?.is_none() {
            return Ok(None);
        }
        let pa = pyarrow(py)?;
        let mut state = self.lock()?;
        state.columns.take(&pa, self.schema.bind(py)).map(Some)
    }

    /// The batches' `pyarrow.Schema`.
    #[getter]
    fn schema(&self, py: Python<'_>) -> Py<PyAny> {
        self.schema.clone_ref(py)
    }

    /// The summary (a dict, as `check`'s) once every batch was handed over; `None`
    /// before.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let state = self.lock()?;
        let done = state.finished && state.columns.rows == 0;
        done.then(|| state.totals.to_dict(py)).transpose()
    }
}

impl FindingBatches {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, State>> {
        self.state
            .lock()
            .map_err(|_| PyRuntimeError::new_err("this iterator failed on an earlier game"))
    }
}

/// Checks PGN games and yields the findings as `pyarrow.RecordBatch`es, in input order.
///
/// The arguments are `check`'s, and `batch_size`: the most findings in a batch (a batch
/// of games may add more at once, and a batch is handed over early once its text nears
/// 64 MiB). The columns are the fields of a `planilla check --format jsonl` finding
/// (`schema`); games are read and checked as the batches are asked for, so memory stays
/// bounded whatever the input's size. Once the iterator is exhausted, its `summary`
/// holds the totals (before, `None`). Needs `pyarrow`.
#[pyfunction]
#[pyo3(signature = (source, *, rules="by-date", lang="auto", encoding="auto", select=None, ignore=None, threads=None, shard=None, archive=false, range=None, index=None, trf=None, batch_size=65536))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per option.
pub fn check_arrow(
    py: Python<'_>,
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
    batch_size: usize,
) -> PyResult<FindingBatches> {
    if batch_size == 0 {
        return Err(PyValueError::new_err("batch_size must be at least 1"));
    }
    let schema = schema(&pyarrow(py)?)?.unbind();
    let job = Job::new(
        source, rules, lang, encoding, select, ignore, threads, shard, archive, range, index, trf,
    )?;
    Ok(FindingBatches {
        state: Mutex::new(State {
            batches: Batches::new(job),
            columns: Columns::default(),
            totals: Totals::default(),
            rows: batch_size,
            finished: false,
            failed: None,
        }),
        schema,
    })
}
