//! What `source` arguments name: files, or PGN text handed over in memory, each opened
//! as a game reader. Errors carry the command line's messages (`games.pgn: no such file
//! or directory`), as the matching Python exception.

use crate::pyfile::{PyFile, Stream};
use planilla_engine::Opened;
use planilla_engine::decode::decoded;
use planilla_engine::range::{Index, locate, open_plain, plain};
use planilla_parser::split::ReadAt;
use planilla_parser::{Encoding, ReaderBuilder};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyTypeError,
    PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use std::io::{self, BufReader, Cursor, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

/// The name findings about in-memory text carry in their `file` field.
pub const IN_MEMORY: &str = "<string>";

/// One input.
#[derive(Clone, Debug)]
pub enum Source {
    /// A file, by the path the caller gave.
    File(PathBuf),
    /// PGN text handed over as `bytes` or `str` (copied once: the work runs without
    /// the interpreter lock, when Python objects must not be touched).
    Text(Arc<[u8]>),
    /// A binary file object (anything with `read`: an open file, a `pyarrow.fs` or
    /// `fsspec` file of remote storage), read from where it stands.
    Object(Arc<PyFile>),
    /// The games of a file that start in a byte range, numbered as in the whole file
    /// (`range=(start, end)`, the binary's `--range`), found from the marks of an index
    /// when one is given (`index=`, the binary's `--index`).
    Range(Positional, std::ops::Range<u64>, Option<Arc<Index>>),
}

/// A file read at offsets: by its path, or a file object that can be (`read_at`, or
/// `seek`).
#[derive(Clone, Debug)]
pub enum Positional {
    /// A file by its path.
    Path(PathBuf),
    /// A file object.
    Object(Arc<PyFile>),
}

impl Positional {
    /// The name findings about it carry.
    fn name(&self) -> String {
        match self {
            Positional::Path(path) => path.display().to_string(),
            Positional::Object(file) => file.name().to_string(),
        }
    }

    /// Its bytes, read at offsets, and its size, if it is plain text (not compressed,
    /// not UTF-16); else the message that says why not.
    pub fn open(&self) -> Result<(Arc<dyn ReadAt>, u64), String> {
        match self {
            Positional::Path(path) => open_plain(path),
            Positional::Object(file) => {
                let name = file.name();
                let size = file
                    .size()
                    .map_err(|e| format!("cannot read {name}: {}", reason(&e)))?;
                plain(Arc::clone(file) as Arc<dyn ReadAt>, size, name)
            }
        }
    }

    /// What `source` names, when it is one file: a path or a file object that can be
    /// read at offsets.
    fn of(source: &Source) -> Option<Positional> {
        match source {
            Source::File(path) => Some(Positional::Path(path.clone())),
            Source::Object(file) if file.positional() => Some(Positional::Object(Arc::clone(file))),
            _ => None,
        }
    }
}

impl Source {
    /// The sources `source` names: `bytes` or `str` is PGN text, an `os.PathLike` is a
    /// file, a binary file object (with `read`) is read as one, and a list or tuple holds
    /// paths (as `str` or `os.PathLike`).
    ///
    /// # Errors
    ///
    /// A `TypeError` for anything else.
    pub fn all(source: &Bound<'_, PyAny>) -> PyResult<Vec<Source>> {
        if let Ok(bytes) = source.cast::<PyBytes>() {
            return Ok(vec![Source::Text(bytes.as_bytes().into())]);
        }
        if let Ok(text) = source.cast::<PyString>() {
            return Ok(vec![Source::Text(text.to_cow()?.as_bytes().into())]);
        }
        if source.is_instance_of::<PyList>() || source.is_instance_of::<PyTuple>() {
            return source
                .try_iter()?
                .map(|item| Ok(Source::File(item?.extract::<PathBuf>()?)))
                .collect();
        }
        if let Some(file) = PyFile::new(source) {
            return Ok(vec![Source::Object(Arc::new(file))]);
        }
        match source.extract::<PathBuf>() {
            Ok(path) => Ok(vec![Source::File(path)]),
            Err(_) => Err(PyTypeError::new_err(format!(
                "source must be a path, a list of paths, a binary file object, bytes or str of PGN, not {}",
                source.get_type().name()?
            ))),
        }
    }

    /// The name findings carry in their `file` field: the path as given, as the command
    /// line shows it.
    pub fn name(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Range(file, ..) => file.name(),
            Source::Object(file) => file.name().to_string(),
            Source::Text(_) => IN_MEMORY.to_string(),
        }
    }

    /// The source opened as the binary opens its sources, for the engine's pipeline: how
    /// its games are read (decoding text by `encoding`; a range's numbered from where its
    /// first game starts, as in the whole file), and its bytes. Compressed input (zstd,
    /// gzip, bzip2: known by its first bytes, as the binary knows it) is decoded by the
    /// engine's decoders, the binary's, on a thread of their own. With `at_offsets`, a
    /// plain file comes back to be read at offsets by several threads, as the binary
    /// reads it with several.
    ///
    /// # Errors
    ///
    /// A file that cannot be opened, or whose first bytes cannot be read (or, for a
    /// range, one that cannot be read by byte ranges), as [`SourceError`].
    pub fn open(
        &self,
        encoding: Encoding,
        at_offsets: bool,
    ) -> Result<(ReaderBuilder, Opened), SourceError> {
        let builder = ReaderBuilder::new().encoding(encoding);
        let input: Box<dyn Read + Send> = match self {
            Source::File(path) => {
                let source = planilla_engine::Source::File(path.clone());
                let opened = source
                    .open_to_read(Arc::new(AtomicU64::new(0)), at_offsets)
                    .map_err(|e| match e.opening {
                        true => SourceError::new(self, &e.error),
                        false => SourceError::reading(self, &e.error),
                    })?;
                return Ok((builder, opened));
            }
            Source::Text(bytes) => decoded(Cursor::new(Arc::clone(bytes)))
                .map_err(|e| SourceError::reading(self, &e))?,
            Source::Object(file) => {
                let stream = BufReader::with_capacity(1 << 20, Stream(Arc::clone(file)));
                decoded(stream).map_err(|e| SourceError::reading(self, &e))?
            }
            Source::Range(file, range, index) => {
                return self.open_range(file, range, index.as_deref(), builder);
            }
        };
        Ok((builder, Opened::Stream(input)))
    }

    /// A range's games: the file read from where the first of them starts, numbered from
    /// there as the whole file (the engine's `range::locate`).
    fn open_range(
        &self,
        file: &Positional,
        range: &std::ops::Range<u64>,
        index: Option<&Index>,
        builder: ReaderBuilder,
    ) -> Result<(ReaderBuilder, Opened), SourceError> {
        let invalid = |message| SourceError {
            kind: io::ErrorKind::InvalidInput,
            message,
        };
        let (input, size) = file.open().map_err(invalid)?;
        if let Some(index) = index
            && index.size != size
        {
            return Err(invalid(format!(
                "{}: the index was made of a file of {} bytes, and this one has {size}: index it again",
                file.name(),
                index.size
            )));
        }
        let span = locate(&input, range.clone(), index, &builder)
            .map_err(|e| SourceError::reading(self, &e))?;
        let text = Opened::Stream(Box::new(span.text(input)));
        Ok((builder.origin(span.origin), text))
    }

    /// `sources` with `range=(start, end)` applied: one file, read by that byte range,
    /// from the marks of `index` (an index's text, as `planilla.index` gives it) if given.
    ///
    /// # Errors
    ///
    /// A `ValueError` unless `sources` is one file and `start <= end`, or for an index
    /// that cannot be read, or one without a range.
    pub fn ranged(
        sources: Vec<Source>,
        range: Option<(u64, u64)>,
        index: Option<&str>,
    ) -> PyResult<Vec<Source>> {
        let Some((start, end)) = range else {
            if index.is_some() {
                return Err(PyValueError::new_err(
                    "index is for a range: give range= too",
                ));
            }
            return Ok(sources);
        };
        let index = index
            .map(|text| {
                Index::from_text(text).map_err(|e| PyValueError::new_err(format!("bad index: {e}")))
            })
            .transpose()?
            .map(Arc::new);
        if end < start {
            return Err(PyValueError::new_err(format!(
                "bad range ({start}, {end}): the end is before the start"
            )));
        }
        match &sources[..] {
            [one] => match Positional::of(one) {
                Some(file) => Ok(vec![Source::Range(file, start..end, index)]),
                None => Err(PyValueError::new_err(
                    "range reads one file at offsets: give one path or a seekable file object (not text, nor a list)",
                )),
            },
            _ => Err(PyValueError::new_err(
                "range reads one file: give one path (not text, nor a list)",
            )),
        }
    }
}

/// A source that could not be opened or read to its end: the message names it, and
/// the kind picks the Python exception.
#[derive(Debug)]
pub struct SourceError {
    kind: io::ErrorKind,
    message: String,
}

impl SourceError {
    /// `source` could not be opened: `e`.
    pub fn new(source: &Source, e: &io::Error) -> SourceError {
        SourceError {
            kind: e.kind(),
            message: format!("{}: {}", source.name(), reason(e)),
        }
    }

    /// The archive judge's temporary file could not be written or read back: `e`.
    pub fn archive(e: io::Error) -> SourceError {
        SourceError {
            kind: e.kind(),
            message: format!("cannot use the archive's temporary file: {e}"),
        }
    }

    /// Anything else that ends a run, as the exception of `kind` with `message`.
    pub fn other(kind: io::ErrorKind, message: String) -> SourceError {
        SourceError { kind, message }
    }

    /// `source` could not be read to its end: `e`.
    pub fn reading(source: &Source, e: &io::Error) -> SourceError {
        SourceError {
            kind: e.kind(),
            message: format!("{}: cannot read: {}", source.name(), reason(e)),
        }
    }
}

impl From<SourceError> for PyErr {
    fn from(e: SourceError) -> PyErr {
        match e.kind {
            io::ErrorKind::NotFound => PyFileNotFoundError::new_err(e.message),
            io::ErrorKind::PermissionDenied => PyPermissionError::new_err(e.message),
            io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(e.message),
            _ => PyOSError::new_err(e.message),
        }
    }
}

/// An I/O error's reason as the command line words it: in lower case, without the
/// "(os error N)" tail.
pub fn reason(e: &io::Error) -> String {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

/// Indexes a PGN file for byte ranges: the text of the index `planilla index` writes (where
/// games start, at most a mebibyte apart, with their offsets, lines and numbers), to pass
/// as `index=` with `range=`.
///
/// `path` is a path, or a binary file object that can be read at offsets (with
/// `read_at`, or seekable). Raises `OSError` for a file that cannot be read, or that is
/// compressed or UTF-16 (such a file is read whole).
#[pyfunction]
#[pyo3(signature = (path, *, encoding="auto"))]
pub fn index(py: Python<'_>, path: &Bound<'_, PyAny>, encoding: &str) -> PyResult<String> {
    let encoding = crate::options::encoding(encoding)?;
    let source = match PyFile::new(path) {
        Some(file) => Source::Object(Arc::new(file)),
        None => Source::File(path.extract::<PathBuf>()?),
    };
    let Some(file) = Positional::of(&source) else {
        return Err(PyTypeError::new_err(
            "index reads a file at offsets: this file object has neither read_at nor seek",
        ));
    };
    py.detach(|| -> Result<String, SourceError> {
        let (input, size) = file.open().map_err(|message| SourceError {
            kind: io::ErrorKind::InvalidInput,
            message,
        })?;
        let builder = ReaderBuilder::new().encoding(encoding);
        let index =
            Index::build(input, size, &builder).map_err(|e| SourceError::reading(&source, &e))?;
        Ok(index.to_text())
    })
    .map_err(PyErr::from)
}
