//! A Python file object as a source: anything with `read` (an open binary file, a
//! `pyarrow.fs` input file of S3, GCS or HDFS, an `fsspec` file), read by the engine as
//! it reads a file. Each read takes the interpreter lock for the call and no longer.
//!
//! A file object with `read_at(nbytes, offset)` (a `pyarrow` random-access file) or a
//! seekable one can also be read at offsets, so by byte ranges, with its size from
//! `size()` or from seeking to its end.

use planilla_parser::split::ReadAt;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::io::{self, Read};
use std::sync::{Arc, Mutex};

/// A Python file object, shared by the readers of a source.
#[derive(Debug)]
pub struct PyFile {
    object: Py<PyAny>,
    /// What findings about it are named: its `name` when that is a string.
    name: String,
    /// How it is read at offsets: `read_at` (no lock needed: each call says where), or
    /// `seek` then `read`, one reader at a time; `None` when it can be read only once,
    /// from where it stands.
    at: Option<At>,
}

#[derive(Debug)]
enum At {
    ReadAt,
    Seek(Mutex<()>),
}

/// The name findings about a file object without a `name` of its own carry.
pub const UNNAMED: &str = "<file>";

impl PyFile {
    /// The file object `object`, if it is one (it has `read`).
    pub fn new(object: &Bound<'_, PyAny>) -> Option<PyFile> {
        if !object.hasattr("read").unwrap_or(false) {
            return None;
        }
        let name = object
            .getattr("name")
            .and_then(|n| n.extract::<String>())
            .unwrap_or_else(|_| UNNAMED.to_string());
        let at = if object.hasattr("read_at").unwrap_or(false) {
            Some(At::ReadAt)
        } else if object
            .call_method0("seekable")
            .and_then(|s| s.extract::<bool>())
            .unwrap_or(false)
        {
            Some(At::Seek(Mutex::new(())))
        } else {
            None
        };
        Some(PyFile {
            object: object.clone().unbind(),
            name,
            at,
        })
    }

    /// What findings about it are named.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether it can be read at offsets (by byte ranges).
    pub fn positional(&self) -> bool {
        self.at.is_some()
    }

    /// Its size in bytes: `size()`, else the offset of its end.
    ///
    /// # Errors
    ///
    /// What the calls raise, as an I/O error.
    pub fn size(&self) -> io::Result<u64> {
        Python::attach(|py| {
            let object = self.object.bind(py);
            if let Ok(size) = object.call_method0("size") {
                return size.extract::<u64>();
            }
            let _one = self.lock();
            let here = object.call_method0("tell")?;
            let end = object.call_method1("seek", (0, 2))?.extract::<u64>()?;
            object.call_method1("seek", (here,))?;
            Ok(end)
        })
        .map_err(|e: PyErr| python_error(&e))
    }

    /// The lock of a file read by `seek` and `read` (`None` for `read_at`).
    fn lock(&self) -> Option<std::sync::MutexGuard<'_, ()>> {
        match &self.at {
            Some(At::Seek(lock)) => Some(lock.lock().unwrap_or_else(|p| p.into_inner())),
            _ => None,
        }
    }

    /// Copies the bytes a call returned into `buf`.
    fn copy(read: &Bound<'_, PyAny>, buf: &mut [u8]) -> PyResult<usize> {
        let Ok(bytes) = read.cast::<PyBytes>() else {
            return Err(PyTypeError::new_err(format!(
                "a file object's read must give bytes (open it in binary mode), not {}",
                read.get_type().name()?
            )));
        };
        let bytes = bytes.as_bytes();
        let n = bytes.len().min(buf.len());
        buf[..n].copy_from_slice(&bytes[..n]);
        Ok(n)
    }
}

/// A Python exception raised by a file object's method, as the I/O error a reader reports.
fn python_error(e: &PyErr) -> io::Error {
    io::Error::other(Python::attach(|py| e.value(py).to_string()))
}

impl ReadAt for PyFile {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let _one = self.lock();
        Python::attach(|py| {
            let object = self.object.bind(py);
            let read = match self.at {
                Some(At::ReadAt) => object.call_method1("read_at", (buf.len(), offset))?,
                _ => {
                    object.call_method1("seek", (offset,))?;
                    object.call_method1("read", (buf.len(),))?
                }
            };
            PyFile::copy(&read, buf)
        })
        .map_err(|e| python_error(&e))
    }
}

/// A reader of a file object from where it stands, to its end.
pub struct Stream(pub Arc<PyFile>);

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let read = self.0.object.bind(py).call_method1("read", (buf.len(),))?;
            PyFile::copy(&read, buf)
        })
        .map_err(|e| python_error(&e))
    }
}
