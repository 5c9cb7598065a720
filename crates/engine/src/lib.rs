//! planilla-engine: the way from sources to games that every front end of planilla (the
//! binary, the Python package) shares, so that each reads an input exactly as the others
//! do.
//!
//! - [`Source`]: a file or standard input, opened to be read as a stream or, for a
//!   regular file without compression, at offsets by several threads at once
//!   ([`Opened`]).
//! - [`decode`]: compressed input (zstd with concatenated frames, gzip with several
//!   members, bzip2), recognised by its first bytes, never by its name, and decoded on a
//!   thread of its own ([`decode::decoded`]); in-memory bytes are decoded the same way.
//!
//! - [`pipeline`]: the ordered parallel pipeline: the games of an input read, worked on
//!   by every thread of a rayon pool ([`pipeline::Job`]: what is done to one game), and
//!   their results handed back in input order, whatever the number of threads; a panic on
//!   one game caught and made that game's result.
//! - [`pulled`]: the same pipeline for a caller that asks for results a batch at a
//!   time ([`pulled::Pulled`]), on its own thread or on a pool.
//! - [`drive`]: the loop over a run's sources ([`drive::for_each_source`]): runs of small
//!   files read whole several at a time, large ones streamed in pieces or read at
//!   offsets, results handed on source after source as [`drive::Event`]s, progress and
//!   failures told to a [`drive::Progress`].
//! - [`jobs`]: the per-game jobs of check, fix and convert ([`jobs::CheckJob`],
//!   [`jobs::FixJob`], [`jobs::ConvertJob`]), so that every front end checks, fixes and
//!   converts a game alike.
//! - [`range`]: byte ranges of a file, the unit of distributed work: the games whose
//!   first byte lies in a range, numbered as in the whole file, found from the file's
//!   start or from the marks of an [`range::Index`].
//!
//! The engine knows nothing of arguments, output formats or terminals: those are the
//! front ends'.
//!
//! ```
//! use std::io::Read;
//!
//! // gzip data read as PGN text, whatever it is called.
//! let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
//! std::io::Write::write_all(&mut gz, b"1. e4 e5 *\n")?;
//! let data = gz.finish()?;
//! let mut text = String::new();
//! planilla_engine::decode::decoded(std::io::Cursor::new(data))?.read_to_string(&mut text)?;
//! assert_eq!(text, "1. e4 e5 *\n");
//! # Ok::<(), std::io::Error>(())
//! ```

#![warn(missing_docs)]

pub mod decode;
pub mod drive;
pub mod jobs;
pub mod merge;
pub mod pipeline;
pub mod pulled;
pub mod range;
mod source;

pub use source::{GameReader, OpenError, Opened, Source, io_reason};
