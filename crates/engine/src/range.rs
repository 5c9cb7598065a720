//! Byte ranges of a file, the unit of distributed work: the games whose first byte lies in
//! `[start, end)`, cut as one reader of the whole file cuts them and numbered as it
//! numbers them (game, line and column), so that the outputs of any partition of a file
//! into ranges, put together in order, are the whole file's.
//!
//! Where a range's games start and end depends on every byte before them (a comment left
//! open swallows lines until a tag pair, a result ends a game only at a line's end), so it
//! is found by reading: from the file's start, or from the nearest earlier mark of an
//! [`Index`], a side file of places where games start (offset, line, game number) at most
//! [`Index::EVERY`] bytes apart, as samtools' `.fai` keeps where records start. With an
//! index, finding a range reads about two marks' worth of text, whatever the file's size.

use crate::decode::Compression;
use crate::source::io_reason;
use planilla_parser::split::{AtReader, ReadAt};
use planilla_parser::{Game, Origin, ReaderBuilder};
use std::fmt::Write as _;
use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

/// The games of a byte range: the text from `origin.offset` (where the reader of the whole
/// file stands before the range's first game) to `end` (where it stands before the first
/// game past the range, or the text's end). The spans of consecutive ranges tile the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// Where the range's games start, as the reader of the whole file has it there.
    pub origin: Origin,
    /// The offset where the games after the range start (the text's end for the last).
    pub end: u64,
}

impl Span {
    /// The span's length in bytes (0: the range holds no game start).
    pub fn len(&self) -> u64 {
        self.end.saturating_sub(self.origin.offset)
    }

    /// Whether the range holds no game start.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A reader of the span's text, to be read by a reader built with
    /// `builder.origin(span.origin)`.
    pub fn text(&self, input: Arc<dyn ReadAt>) -> io::Take<AtReader> {
        AtReader::new(input, self.origin.offset).take(self.len())
    }
}

/// Places in a file where games start, at most [`Index::EVERY`] bytes of text apart: the
/// reader's [`Origin`] there (offset, line, games before it, whether the game before ended
/// at a limit). Written by `planilla index` and read back by `--index`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Index {
    /// The size of the file indexed, in bytes: an index of another file (or of this one
    /// before it changed) is refused.
    pub size: u64,
    /// The marks, in order, the first at the file's start.
    pub marks: Vec<Origin>,
}

/// The first line of an index file.
const HEADER: &str = "planilla index 1";

impl Index {
    /// The most bytes of text between two marks (a mark is put at the first game start
    /// this far past the one before).
    pub const EVERY: u64 = 1 << 20;

    /// Indexes the text of `input` (a file of `size` bytes), read as `builder` reads it.
    ///
    /// # Errors
    ///
    /// A read error of `input`.
    pub fn build(input: Arc<dyn ReadAt>, size: u64, builder: &ReaderBuilder) -> io::Result<Index> {
        Index::build_every(input, size, builder, Index::EVERY)
    }

    /// [`Index::build`] with marks at most `every` bytes apart (at least 1), not
    /// [`Index::EVERY`]: the testkit's range property and the range fuzz target give
    /// small inputs marks past their start this way. Not for the index files `--index`
    /// reads, whose marks `planilla index` places.
    ///
    /// # Errors
    ///
    /// A read error of `input`.
    #[doc(hidden)]
    pub fn build_every(
        input: Arc<dyn ReadAt>,
        size: u64,
        builder: &ReaderBuilder,
        every: u64,
    ) -> io::Result<Index> {
        let every = every.max(1);
        let mut reader = builder.clone().build(AtReader::new(input, 0));
        let mut game = Game::new();
        let mut marks = vec![Origin::default()];
        loop {
            let here = reader.origin();
            if here.offset >= marks[marks.len() - 1].offset + every {
                marks.push(here);
            }
            if !reader.read_game(&mut game)? {
                break;
            }
        }
        Ok(Index { size, marks })
    }

    /// The index as its file holds it: a header, the file's size, then one line a mark
    /// (`OFFSET LINE GAMES AFTER_RESULT`, the last 0 or 1).
    pub fn to_text(&self) -> String {
        let mut text = format!("{HEADER}\nsize {}\n", self.size);
        for m in &self.marks {
            let _ = writeln!(
                text,
                "{} {} {} {}",
                m.offset,
                m.line,
                m.games,
                u8::from(m.after_result)
            );
        }
        text
    }

    /// Reads an index file's text.
    ///
    /// # Errors
    ///
    /// What is wrong with it, with the line.
    pub fn from_text(text: &str) -> Result<Index, String> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, HEADER)) => {}
            _ => {
                return Err(format!(
                    "line 1: not a planilla index (it starts '{HEADER}')"
                ));
            }
        }
        let size = match lines.next() {
            Some((_, line)) => line
                .strip_prefix("size ")
                .and_then(|n| n.parse().ok())
                .ok_or("line 2: expected 'size BYTES'")?,
            None => return Err("line 2: expected 'size BYTES'".into()),
        };
        let mut marks: Vec<Origin> = Vec::new();
        for (i, line) in lines {
            let fields: Vec<u64> = line
                .split(' ')
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    format!("line {}: expected 'OFFSET LINE GAMES AFTER_RESULT'", i + 1)
                })?;
            let [offset, line, games, after] = fields[..] else {
                return Err(format!(
                    "line {}: expected 'OFFSET LINE GAMES AFTER_RESULT'",
                    i + 1
                ));
            };
            if marks.last().is_some_and(|m| m.offset >= offset) || after > 1 || line == 0 {
                return Err(format!("line {}: marks out of order", i + 1));
            }
            marks.push(Origin {
                offset,
                line,
                games,
                after_result: after == 1,
            });
        }
        if marks.first() != Some(&Origin::default()) {
            return Err("line 3: the first mark is not the file's start (0 1 0 0)".into());
        }
        Ok(Index { size, marks })
    }

    /// The last mark at or before `offset`.
    fn mark_before(&self, offset: u64) -> Origin {
        let i = self.marks.partition_point(|m| m.offset <= offset);
        self.marks[i.saturating_sub(1)]
    }
}

/// Finds the span of the games whose first byte lies in `range`, in `input` read as
/// `builder` reads it (its origin the file's start), reading from the file's start or
/// from the marks of `index`.
///
/// # Errors
///
/// A read error of `input`.
pub fn locate(
    input: &Arc<dyn ReadAt>,
    range: Range<u64>,
    index: Option<&Index>,
    builder: &ReaderBuilder,
) -> io::Result<Span> {
    let start = first_game_at(input, range.start, Origin::default(), index, builder)?;
    let end = if range.end <= range.start {
        start
    } else {
        first_game_at(input, range.end, start, index, builder)?
    };
    Ok(Span {
        origin: start,
        end: end.offset.max(start.offset),
    })
}

/// Where the reader of the whole file stands before the first game whose first byte is at
/// or past `offset` (or at the text's end), reading on from `from` (a place where a game
/// starts), or from a later mark of `index`.
fn first_game_at(
    input: &Arc<dyn ReadAt>,
    offset: u64,
    mut from: Origin,
    index: Option<&Index>,
    builder: &ReaderBuilder,
) -> io::Result<Origin> {
    if let Some(index) = index {
        let mark = index.mark_before(offset);
        if mark.offset > from.offset {
            from = mark;
        }
    }
    if from.offset >= offset {
        return Ok(from);
    }
    let mut reader = builder
        .clone()
        .origin(from)
        .build(AtReader::new(Arc::clone(input), from.offset));
    let mut game = Game::new();
    loop {
        let before = reader.origin();
        if !reader.read_game(&mut game)? || game.offset() >= offset {
            return Ok(before);
        }
    }
}

/// Opens a plain text file to be read by byte ranges (at offsets), with its size; or says
/// why it cannot be: it cannot be opened or read, or it is compressed or UTF-16 (a
/// compressed stream cannot be entered in the middle, and UTF-16 text is read decoded,
/// so its games' offsets are not the file's).
///
/// # Errors
///
/// The message, naming the file.
pub fn open_plain(path: &Path) -> Result<(Arc<dyn ReadAt>, u64), String> {
    let name = path.display();
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {name}: {}", io_reason(&e)))?;
    let size = file
        .metadata()
        .map_err(|e| format!("cannot read {name}: {}", io_reason(&e)))?
        .len();
    plain(Arc::new(file), size, &name.to_string())
}

/// `input` (of `size` bytes, called `name`), if it is plain text that can be read by byte
/// ranges: see [`open_plain`].
///
/// # Errors
///
/// The message, naming the input.
pub fn plain(
    input: Arc<dyn ReadAt>,
    size: u64,
    name: &str,
) -> Result<(Arc<dyn ReadAt>, u64), String> {
    let mut head = [0u8; 4];
    let mut n = 0;
    while n < head.len() {
        match input.read_at(&mut head[n..], n as u64) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot read {name}: {}", io_reason(&e))),
        }
    }
    let compression = Compression::from_magic(&head[..n]);
    if compression != Compression::None {
        return Err(format!(
            "{name}: {} data cannot be read by byte ranges (it is one unit): read it whole",
            compression.name()
        ));
    }
    if planilla_parser::utf16_text(&head[..n]).is_some() {
        return Err(format!(
            "{name}: UTF-16 text cannot be read by byte ranges: read it whole"
        ));
    }
    Ok((input, size))
}
