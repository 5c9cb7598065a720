//! `planilla.merge`: many sources in, one archive out, each game once, as `planilla
//! merge` writes it. The run is the engine's ([`planilla_engine::merge`]): every source
//! is read twice, once to judge every game and plan which copy of each is written, once
//! to write, each time by the engine's pipeline on the call's threads.
//!
//! Reading a source twice: text is kept, a path is opened again, a seekable file object
//! is sought back to where it stood when `merge` was called (for both reads, so the same
//! object twice in the list is the same games twice), and any other file object is
//! spooled to an anonymous temporary file as the first read reads it, the second read
//! reading the spool.
//!
//! Outputs named by a path are written to a temporary file beside them, renamed into
//! place only when the whole run succeeded (as the binary's `-o`); nothing is created
//! before the first read is done.

use crate::options;
use crate::py_values;
use crate::pyfile::{PyFile, Stream};
use crate::run::{Settings, threads_of};
use crate::source::{Source, SourceError, reason};
use planilla_converter::OutputEncoding;
use planilla_engine::Opened;
use planilla_engine::decode::decoded;
use planilla_engine::merge::{
    JudgeJob, Merge, MergeCounts, MergeLine, MergeOptions, Sinks, WriteJob,
};
use planilla_engine::pipeline::{BatchConfig, Job};
use planilla_engine::pulled::{Pulled, Threads};
use planilla_parser::{Encoding, ReaderBuilder};
use planilla_validator::Severity;
use planilla_validator::archive::ArchiveFinding;
use pyo3::exceptions::{PyTypeError, PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString, PyTuple};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// What `merge` made of its sources: see `merge`.
#[pyclass(frozen, module = "planilla")]
pub struct Merged {
    /// The merged games: `str` for UTF-8 output, `bytes` in another encoding, `None`
    /// when they were written to `output`.
    #[pyo3(get)]
    text: Option<Py<PyAny>>,
    /// The copies of conflict groups, byte for byte as read, under `conflicts=True`.
    #[pyo3(get)]
    conflicts: Option<Py<PyBytes>>,
    /// The dropped copies, byte for byte as read, under `dropped=True`.
    #[pyo3(get)]
    dropped: Option<Py<PyBytes>>,
    /// A dict for each game not written to the output and each tag taken, as
    /// `planilla merge --format jsonl` writes its `"type": "merge"` lines.
    #[pyo3(get)]
    report: Py<PyList>,
    /// The archive findings the merge does not act on (`round-conflict`,
    /// `player-identity`), as `check` gives findings.
    #[pyo3(get)]
    findings: Py<PyList>,
    /// The counts: `games` = `written` + `dropped` + `set_apart`.
    #[pyo3(get)]
    summary: Py<PyDict>,
}

#[pymethods]
impl Merged {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Merged(report={}, findings={}, summary={})",
            self.report.bind(py).len(),
            self.findings.bind(py).len(),
            self.summary.bind(py).repr()?
        ))
    }
}

/// Where one of the merge's outputs goes, as the caller asked.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Wanted {
    /// Not written (`None`, or `False` for `conflicts` and `dropped`).
    No,
    /// Handed back in the result (`output=None`, `conflicts=True`, `dropped=True`).
    Back,
    /// Written to this file.
    Path(PathBuf),
}

impl Wanted {
    /// `conflicts=` or `dropped=`: `None`, a bool, or a path.
    fn of(value: Option<&Bound<'_, PyAny>>, keyword: &str) -> PyResult<Wanted> {
        let Some(value) = value.filter(|v| !v.is_none()) else {
            return Ok(Wanted::No);
        };
        if let Ok(flag) = value.cast::<PyBool>() {
            return Ok(if flag.is_true() {
                Wanted::Back
            } else {
                Wanted::No
            });
        }
        value.extract::<PathBuf>().map(Wanted::Path).map_err(|_| {
            PyTypeError::new_err(format!(
                "{keyword} must be a path, True or None, not {}",
                value
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })
    }

    fn path(&self) -> Option<&Path> {
        match self {
            Wanted::Path(path) => Some(path),
            _ => None,
        }
    }
}

/// How a source is read the second time.
enum Again {
    /// Text, kept; a path, opened again.
    Reopen,
    /// A seekable file object, sought back to where it stood (for both reads).
    Seek(Py<PyAny>, u64),
    /// A file object that can be read once: what the first read read of it, spooled to
    /// this anonymous temporary file (made by the first read).
    Spool(Option<File>),
}

/// One source of the merge.
struct Input {
    /// How the first read opens it, and its name.
    source: Source,
    again: Again,
}

impl Input {
    /// The sources `sources` names: one source (text as `bytes` or `str`, a path, a file
    /// object) or a list or tuple of them, in which a `str` is a path, as in `check`'s
    /// lists.
    fn all(sources: &Bound<'_, PyAny>) -> PyResult<Vec<Input>> {
        if sources.is_instance_of::<PyList>() || sources.is_instance_of::<PyTuple>() {
            return sources
                .try_iter()?
                .map(|item| {
                    let item = item?;
                    if item.is_instance_of::<PyString>() {
                        return Ok(Input::reopened(Source::File(item.extract::<PathBuf>()?)));
                    }
                    if item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>() {
                        return Err(PyTypeError::new_err(
                            "sources must be one source or a list of sources, not a list of lists",
                        ));
                    }
                    Input::one(&item)
                })
                .collect();
        }
        Ok(vec![Input::one(sources)?])
    }

    /// One source: text, a path or a file object.
    fn one(item: &Bound<'_, PyAny>) -> PyResult<Input> {
        if let Some(file) = PyFile::new(item) {
            let source = Source::Object(Arc::new(file));
            let seekable = item
                .call_method0("seekable")
                .and_then(|s| s.is_truthy())
                .unwrap_or(false);
            let at = match seekable {
                true => item
                    .call_method0("tell")
                    .and_then(|t| t.extract::<u64>())
                    .ok(),
                false => None,
            };
            let again = match at {
                Some(at) => Again::Seek(item.clone().unbind(), at),
                None => Again::Spool(None),
            };
            return Ok(Input { source, again });
        }
        match Source::all(item)?.pop() {
            Some(source @ (Source::Text(_) | Source::File(_))) => Ok(Input::reopened(source)),
            _ => Err(PyTypeError::new_err(
                "a source must be bytes or str of PGN, a path or a binary file object",
            )),
        }
    }

    fn reopened(source: Source) -> Input {
        Input {
            source,
            again: Again::Reopen,
        }
    }

    /// Opened for the first read.
    fn first(
        &mut self,
        encoding: Encoding,
        at_offsets: bool,
    ) -> Result<(ReaderBuilder, Opened), SourceError> {
        match &mut self.again {
            Again::Reopen => self.source.open(encoding, at_offsets),
            Again::Seek(object, at) => {
                seek(object, *at).map_err(|e| SourceError::reading(&self.source, &e))?;
                self.source.open(encoding, at_offsets)
            }
            Again::Spool(spool) => {
                let Source::Object(file) = &self.source else {
                    unreachable!("only file objects are spooled")
                };
                let failed = |e: io::Error| {
                    SourceError::other(
                        e.kind(),
                        format!(
                            "{}: cannot spool it to a temporary file to read it twice: {}",
                            self.source.name(),
                            reason(&e)
                        ),
                    )
                };
                let file_spool = tempfile::tempfile().map_err(failed)?;
                let tee = Tee {
                    read: Stream(Arc::clone(file)),
                    spool: file_spool.try_clone().map_err(failed)?,
                };
                *spool = Some(file_spool);
                let input = decoded(BufReader::with_capacity(1 << 20, tee))
                    .map_err(|e| SourceError::reading(&self.source, &e))?;
                Ok((
                    ReaderBuilder::new().encoding(encoding),
                    Opened::Stream(input),
                ))
            }
        }
    }

    /// Opened for the second read: the same bytes as the first.
    fn second(
        &mut self,
        encoding: Encoding,
        at_offsets: bool,
    ) -> Result<(ReaderBuilder, Opened), SourceError> {
        match &mut self.again {
            Again::Reopen | Again::Seek(..) => self.first(encoding, at_offsets),
            Again::Spool(spool) => {
                let mut spool = spool.take().expect("spooled by the first read");
                spool
                    .seek(SeekFrom::Start(0))
                    .map_err(|e| SourceError::reading(&self.source, &e))?;
                let input = decoded(BufReader::with_capacity(1 << 20, spool))
                    .map_err(|e| SourceError::reading(&self.source, &e))?;
                Ok((
                    ReaderBuilder::new().encoding(encoding),
                    Opened::Stream(input),
                ))
            }
        }
    }
}

/// Seeks a file object to `at`.
fn seek(object: &Py<PyAny>, at: u64) -> io::Result<()> {
    Python::attach(|py| object.bind(py).call_method1("seek", (at,)).map(drop))
        .map_err(|e| io::Error::other(Python::attach(|py| e.value(py).to_string())))
}

/// A file object read once, each byte read also written to the spool.
struct Tee {
    read: Stream,
    spool: File,
}

impl Read for Tee {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.read.read(buf)?;
        self.spool.write_all(&buf[..n]).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot spool it to a temporary file to read it twice: {e}"),
            )
        })?;
        Ok(n)
    }
}

/// An output written to a temporary file beside its destination, renamed over it by
/// [`Staged::commit`]; dropped before that, the temporary file goes and the destination
/// stays as it was.
struct Staged {
    dest: PathBuf,
    temp: PathBuf,
    writer: BufWriter<File>,
    done: bool,
}

impl Staged {
    /// Creates `.NAME.planilla-PID-N.tmp` beside `dest`.
    fn create(dest: &Path) -> Result<Staged, SourceError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{name}.planilla-{}-{n}.tmp", std::process::id()));
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(|e| cannot_write(dest, &e))?;
        Ok(Staged {
            dest: dest.to_path_buf(),
            temp,
            writer: BufWriter::with_capacity(1 << 16, file),
            done: false,
        })
    }

    /// Flushes the file and renames it over the destination.
    fn commit(mut self) -> Result<(), SourceError> {
        self.writer
            .flush()
            .map_err(|e| cannot_write(&self.dest, &e))?;
        std::fs::rename(&self.temp, &self.dest).map_err(|e| cannot_write(&self.dest, &e))?;
        self.done = true;
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

fn cannot_write(dest: &Path, e: &io::Error) -> SourceError {
    SourceError::other(
        e.kind(),
        format!("{}: cannot write: {}", dest.display(), reason(e)),
    )
}

/// Where one output goes during the run.
enum Sink {
    Memory(Vec<u8>),
    File(Staged),
}

impl Sink {
    /// The sink of `wanted`, `None` when it is not written.
    fn open(wanted: &Wanted) -> Result<Option<Sink>, SourceError> {
        Ok(match wanted {
            Wanted::No => None,
            Wanted::Back => Some(Sink::Memory(Vec::new())),
            Wanted::Path(path) => Some(Sink::File(Staged::create(path)?)),
        })
    }

    /// The text held, once the run succeeded and the file (if any) was renamed into place.
    fn commit(self) -> Result<Option<Vec<u8>>, SourceError> {
        match self {
            Sink::Memory(text) => Ok(Some(text)),
            Sink::File(staged) => staged.commit().map(|()| None),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Memory(text) => text.write(buf),
            Sink::File(staged) => staged.writer.write(buf).map_err(|e| written(staged, e)),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Sink::Memory(text) => text.write_all(buf),
            Sink::File(staged) => staged.writer.write_all(buf).map_err(|e| written(staged, e)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Memory(_) => Ok(()),
            Sink::File(staged) => staged.writer.flush().map_err(|e| written(staged, e)),
        }
    }
}

/// A write to an output file failed: the error names the file.
fn written(staged: &Staged, e: io::Error) -> io::Error {
    let message = format!("{}: cannot write: {}", staged.dest.display(), reason(&e));
    io::Error::new(e.kind(), message)
}

/// What ends a run.
enum Failure {
    /// An input, an output or a temporary file failed: the exception of its kind.
    Io(SourceError),
    /// A kept game holds a character the output's encoding cannot hold.
    Unencodable { message: String, character: char },
}

impl From<SourceError> for Failure {
    fn from(e: SourceError) -> Failure {
        Failure::Io(e)
    }
}

impl Failure {
    /// An error of the engine's merge while writing: a kept game the output's encoding
    /// cannot hold (the engine's `InvalidData`, `FILE:LINE:COLUMN: ENCODING cannot hold
    /// the character 'C' (U+XXXX)`), else what failed, as its message says.
    fn writing(e: io::Error) -> Failure {
        let message = e.to_string();
        if e.kind() == io::ErrorKind::InvalidData
            && let Some(character) = unencodable_character(&message)
        {
            return Failure::Unencodable { message, character };
        }
        Failure::Io(SourceError::other(e.kind(), message))
    }

    fn into_py(self, encoding: OutputEncoding) -> PyErr {
        match self {
            Failure::Io(e) => e.into(),
            Failure::Unencodable { message, character } => PyUnicodeEncodeError::new_err((
                encoding.name(),
                character.to_string(),
                0usize,
                1usize,
                message,
            )),
        }
    }
}

/// The character the engine's message of an unencodable game names (its `(U+XXXX)`).
fn unencodable_character(message: &str) -> Option<char> {
    if !message.contains(" cannot hold the character ") {
        return None;
    }
    let hex = message.rsplit_once("(U+")?.1.strip_suffix(')')?;
    char::from_u32(u32::from_str_radix(hex, 16).ok()?)
}

/// A path as an absolute path with `.` and `..` worked out (not following links), as
/// the binary compares its outputs with its inputs.
fn clean_absolute(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut clean = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

/// What a run made, before it becomes Python values.
struct Done {
    lines: Vec<MergeLine>,
    findings: Vec<ArchiveFinding>,
    counts: MergeCounts,
    text: Option<Vec<u8>>,
    conflicts: Option<Vec<u8>>,
    dropped: Option<Vec<u8>>,
}

/// The outputs asked for.
struct Outputs {
    out: Wanted,
    conflicts: Wanted,
    dropped: Wanted,
}

/// What [`read_all`] hands on, in input order.
enum Step<'a, T> {
    /// An input was opened: its games' results follow.
    Opened(&'a Source),
    /// The results of the next games of the input opened last.
    Results(Vec<T>),
}

/// Reads every input (the first or the second time) with `job` on `threads`, handing on
/// each input as it is opened and each batch's results, input after input.
fn read_all<J>(
    inputs: &mut [Input],
    second: bool,
    encoding: Encoding,
    threads: &Threads,
    job: &Arc<J>,
    mut on: impl FnMut(Step<'_, J::Output>) -> Result<(), Failure>,
) -> Result<(), Failure>
where
    J: Job + Send + 'static,
    J::Output: 'static,
{
    // Several threads read a plain file at offsets, as the binary does.
    let at_offsets = matches!(threads, Threads::Pool(_));
    for input in inputs {
        let (builder, text) = match second {
            false => input.first(encoding, at_offsets)?,
            true => input.second(encoding, at_offsets)?,
        };
        on(Step::Opened(&input.source))?;
        let batching = BatchConfig::default();
        let mut pulled = Pulled::new(builder, text, batching, threads, Arc::clone(job));
        while let Some(batch) = pulled.next_batch() {
            let batch = batch.map_err(|e| SourceError::reading(&input.source, &e))?;
            on(Step::Results(batch))?;
        }
    }
    Ok(())
}

/// The two reads and what lies between them.
fn run(
    mut inputs: Vec<Input>,
    settings: Settings,
    options: MergeOptions,
    threads: &Threads,
    outputs: &Outputs,
) -> Result<Done, Failure> {
    let mut merge = Merge::new(options);
    let encoding = settings.encoding;
    let temp = |e: io::Error| Failure::Io(SourceError::archive(e));
    // Read 1: every game judged; then the plan.
    let judge = Arc::new(JudgeJob {
        config: settings.config,
    });
    read_all(&mut inputs, false, encoding, threads, &judge, |step| {
        match step {
            Step::Opened(source) => merge.open(&source.name()),
            Step::Results(batch) => merge.judged(&batch).map_err(temp)?,
        }
        Ok(())
    })?;
    let findings = merge.plan().map_err(temp)?;

    // Read 2: every game written where the plan says.
    let mut out = Sink::open(&outputs.out)?.expect("the merged games are always written");
    let mut conflicts = Sink::open(&outputs.conflicts)?;
    let mut dropped = Sink::open(&outputs.dropped)?;
    let mut lines = Vec::new();
    let mut report = |line: &MergeLine| {
        lines.push(line.clone());
        Ok(())
    };
    let write = Arc::new(WriteJob {
        options: merge.piece_options(),
    });
    let mut sinks = Sinks {
        out: &mut out,
        dropped: dropped.as_mut().map(|d| d as &mut dyn Write),
        conflicts: conflicts.as_mut().map(|c| c as &mut dyn Write),
    };
    read_all(&mut inputs, true, encoding, threads, &write, |step| {
        match step {
            Step::Opened(_) => merge.reopen(),
            Step::Results(batch) => merge.write(&batch, &mut sinks, &mut report),
        }
        .map_err(Failure::writing)
    })?;
    let counts = merge
        .finish(&mut sinks, &mut report)
        .map_err(Failure::writing)?;
    // Renamed into place in the binary's order, the merged games last.
    let dropped = dropped.map(Sink::commit).transpose()?.flatten();
    let conflicts = conflicts.map(Sink::commit).transpose()?.flatten();
    let text = out.commit()?;
    Ok(Done {
        lines,
        findings,
        counts,
        text,
        conflicts,
        dropped,
    })
}

/// Merges PGN sources into one archive, each game once, as `planilla merge` does.
///
/// `sources` is one source (PGN text as `bytes` or `str`, a path, a binary file object,
/// compressed or not) or a list of them, in which a `str` is a path (as in `check`'s
/// lists). Every source is read twice: a file object is sought back to where it stood,
/// or, when it cannot seek, spooled to a temporary file as it is read the first time.
///
/// The games kept go to `output` (a path, written through a temporary file renamed into
/// place; `None`: handed back as `Merged.text`, `str` in UTF-8, else `bytes`). With
/// `conflicts` (a path, or `True` for `Merged.conflicts`), every copy of a group whose
/// copies part is set apart there, none kept; without it the first copy is kept. With
/// `dropped` (a path, or `True` for `Merged.dropped`), the dropped copies go there, byte
/// for byte. `tags="merge"` lets the kept copy take the tags only dropped copies have;
/// `sort="date"` writes the games by Date, Event, Round and Board.
///
/// Returns a `Merged`: `text`, `conflicts`, `dropped`, `report` (a dict for each game not
/// written and each tag taken), `findings` (`round-conflict`, `player-identity`) and
/// `summary`. Raises `OSError` for an input that cannot be read or an output that cannot
/// be written (nothing is written then), `UnicodeEncodeError` for a kept game that
/// `output_encoding` cannot hold, `ValueError` for a bad option value.
#[pyfunction]
#[pyo3(signature = (sources, *, output=None, conflicts=None, dropped=None, tags="keep", sort="input", output_encoding="utf-8", rules="by-date", lang="auto", encoding="auto", threads=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per option.
pub fn merge(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    output: Option<PathBuf>,
    conflicts: Option<&Bound<'_, PyAny>>,
    dropped: Option<&Bound<'_, PyAny>>,
    tags: &str,
    sort: &str,
    output_encoding: &str,
    rules: &str,
    lang: &str,
    encoding: &str,
    threads: Option<usize>,
) -> PyResult<Merged> {
    let take_tags = match tags {
        "keep" => false,
        "merge" => true,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown tags '{tags}' (keep, merge)"
            )));
        }
    };
    let sort_by_date = match sort {
        "input" => false,
        "date" => true,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown sort '{sort}' (input, date)"
            )));
        }
    };
    let output_encoding: OutputEncoding = options::parse(output_encoding)?;
    let settings = Settings::new(rules, lang, encoding)?;
    let threads = threads_of(threads)?;
    let outputs = Outputs {
        out: output.map_or(Wanted::Back, Wanted::Path),
        conflicts: Wanted::of(conflicts, "conflicts")?,
        dropped: Wanted::of(dropped, "dropped")?,
    };
    let inputs = Input::all(sources)?;
    if inputs.is_empty() {
        return Err(PyValueError::new_err("nothing to merge"));
    }
    let named = [
        ("output", outputs.out.path()),
        ("conflicts", outputs.conflicts.path()),
        ("dropped", outputs.dropped.path()),
    ];
    let named: Vec<(&str, &Path)> = named
        .into_iter()
        .filter_map(|(keyword, p)| p.map(|p| (keyword, p)))
        .collect();
    for (i, (keyword, path)) in named.iter().enumerate() {
        let clean = clean_absolute(path);
        if let Some((other, _)) = named[..i].iter().find(|(_, p)| clean_absolute(p) == clean) {
            return Err(PyValueError::new_err(format!(
                "{other} and {keyword} name the same file {}",
                path.display()
            )));
        }
        if inputs
            .iter()
            .any(|s| matches!(&s.source, Source::File(p) if clean_absolute(p) == clean))
        {
            return Err(PyValueError::new_err(format!(
                "{keyword} {} is also an input: write the merge to another file",
                path.display()
            )));
        }
    }
    let options = MergeOptions {
        set_apart_conflicts: outputs.conflicts != Wanted::No,
        take_tags,
        sort_by_date,
        encoding: output_encoding,
    };
    let done = py
        .detach(|| run(inputs, settings, options, &threads, &outputs))
        .map_err(|e| e.into_py(output_encoding))?;

    let report = PyList::empty(py);
    let mut warnings = 0;
    for line in &done.lines {
        warnings += u64::from(line.severity == Severity::Warning);
        report.append(py_values::merge_line(py, line)?)?;
    }
    let findings = PyList::empty(py);
    for found in &done.findings {
        warnings += u64::from(found.finding.severity() == Severity::Warning);
        findings.append(py_values::finding(py, &found.file, &found.finding)?)?;
    }
    let text = done.text.map(|text| match output_encoding {
        // The output's encoding is UTF-8: nothing is replaced here.
        OutputEncoding::Utf8 => PyString::new(py, &String::from_utf8_lossy(&text))
            .into_any()
            .unbind(),
        _ => PyBytes::new(py, &text).into_any().unbind(),
    });
    let bytes = |b: Option<Vec<u8>>| b.map(|b| PyBytes::new(py, &b).unbind());
    Ok(Merged {
        text,
        conflicts: bytes(done.conflicts),
        dropped: bytes(done.dropped),
        report: report.unbind(),
        findings: findings.unbind(),
        summary: py_values::merge_summary(py, &done.counts, warnings)?.unbind(),
    })
}
