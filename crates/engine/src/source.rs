//! Sources: a file or standard input, opened to be read.

use crate::decode::{Compression, Counting};
use planilla_parser::split::ReadAt;
use std::fmt;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One input to read: a file or standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file, as the user named it (or as found under a named directory).
    File(PathBuf),
}

/// A source opened to be read.
pub enum Opened {
    /// A regular file, read at offsets.
    At(Arc<dyn ReadAt>),
    /// Anything else, read as a stream (decompressed).
    Stream(Box<dyn Read + Send>),
}

/// A source that could not be opened, or whose first bytes could not be read. Shown as
/// `cannot open PATH` or `cannot read PATH` (`cannot read standard input`); the I/O
/// error is its [`std::error::Error::source`].
#[derive(Debug)]
pub struct OpenError {
    /// Whether the file could not be opened at all (`false`: it could not be read).
    pub opening: bool,
    /// The source's name ([`Source::display_name`]).
    pub name: String,
    /// What the system said.
    pub error: io::Error,
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if self.opening { "open" } else { "read" };
        match self.name.as_str() {
            "<stdin>" => write!(f, "cannot {verb} standard input"),
            name => write!(f, "cannot {verb} {name}"),
        }
    }
}

impl OpenError {
    /// The message a front end shows: what could not be done, then the system's reason
    /// as the system words it (`cannot open x.pgn: No such file or directory (os error
    /// 2)`).
    pub fn message(&self) -> String {
        format!("{self}: {}", self.error)
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl Source {
    /// The name used in reports.
    pub fn display_name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }

    /// Opens the source for reading as a stream, decompressed when its first bytes are
    /// those of zstd, gzip or bzip2 data. `consumed` counts the bytes read from the
    /// source itself (compressed bytes for a compressed file), for a progress bar.
    ///
    /// # Errors
    ///
    /// The file cannot be opened, or its first bytes cannot be read.
    pub fn open(&self, consumed: Arc<AtomicU64>) -> Result<Box<dyn Read + Send>, OpenError> {
        match self.open_to_read(consumed, false)? {
            Opened::Stream(input) => Ok(input),
            Opened::At(_) => unreachable!("asked for a stream"),
        }
    }

    /// Opens the source, as [`Source::open`] does; with `at_offsets`, a regular file
    /// without compression comes back to be read at offsets, which lets several threads
    /// read their own pieces of it at once (`check -j2` and up: the serial step then only
    /// finds the cuts). Standard input, a compressed file, a file that is not a regular
    /// one (a pipe, a device) and every file on systems without `pread` come back as a
    /// stream. The file is opened once: a FIFO opened twice would wait for a second
    /// writer. `consumed` follows the furthest byte read, for a progress bar.
    ///
    /// # Errors
    ///
    /// The file cannot be opened, or its first bytes cannot be read.
    pub fn open_to_read(
        &self,
        mut consumed: Arc<AtomicU64>,
        at_offsets: bool,
    ) -> Result<Opened, OpenError> {
        let failed = |opening: bool| {
            let name = self.display_name();
            move |error: io::Error| OpenError {
                opening,
                name,
                error,
            }
        };
        let p = match self {
            Source::File(p) => p,
            Source::Stdin => {
                let input = BufReader::new(Counting::new(io::stdin(), consumed));
                return crate::decode::decoded(input)
                    .map(Opened::Stream)
                    .map_err(failed(false));
            }
        };
        let mut file = std::fs::File::open(p).map_err(failed(true))?;
        if at_offsets && cfg!(unix) && file.metadata().map_err(failed(false))?.is_file() {
            let input = CountedFile { file, consumed };
            // A file that holds compressed data, whatever its name, is read as a stream,
            // decoded. `pread` leaves the file's position at its start.
            let mut magic = [0u8; 4];
            let n = input.file_read_at(&mut magic, 0).map_err(failed(false))?;
            if Compression::from_magic(&magic[..n]) == Compression::None {
                return Ok(Opened::At(Arc::new(input)));
            }
            CountedFile { file, consumed } = input;
        }
        let input = BufReader::with_capacity(1 << 16, Counting::new(file, consumed));
        crate::decode::decoded(input)
            .map(Opened::Stream)
            .map_err(failed(false))
    }
}

/// A game reader over a decompressed source.
pub type GameReader = planilla_parser::Reader<Box<dyn Read + Send>>;

/// An I/O error's reason in lower case, without the "(os error N)" tail, as the
/// binary's messages word it.
pub fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => {
            let s = e.to_string();
            let s = s.split(" (os error").next().unwrap_or(&s).to_string();
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
                None => s,
            }
        }
    }
}

/// A regular file read at offsets, counting how far it has been read.
struct CountedFile {
    file: std::fs::File,
    consumed: Arc<AtomicU64>,
}

impl CountedFile {
    #[cfg(unix)]
    fn file_read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        // The parser's `ReadAt` for a file: `pread`.
        ReadAt::read_at(&self.file, buf, offset)
    }

    #[cfg(not(unix))]
    fn file_read_at(&self, _: &mut [u8], _: u64) -> io::Result<usize> {
        unreachable!("`Source::open_to_read` reads at offsets only where there is `pread`")
    }
}

impl ReadAt for CountedFile {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let n = self.file_read_at(buf, offset)?;
        self.consumed
            .fetch_max(offset + n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
