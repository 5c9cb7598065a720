//! Cutting one input into pieces that several threads tokenize at once.
//!
//! A [`Splitter`] reads the input and cuts it into pieces of about a chosen size, each
//! cut at the start of a line that most likely starts a game: a line that begins with
//! `[Event "` after a blank line, found by a SIMD substring search (memchr's `memmem`),
//! and that is one well-formed tag pair and nothing else (the tokenizer's own test), so
//! that it starts a game even inside a comment never closed. The bytes in between are
//! not looked at. Finding every game boundary exactly takes the tokenizer's whole state
//! (comments spanning lines, tag sections, results, the limits on a game), so the
//! splitter does not try: a cut is a guess, and the tokenizer proves or corrects it.
//!
//! Each piece holds, after its cut, the whole line at the cut. [`read_ahead`] tokenizes
//! a piece on its own, with counts from zero, and keeps every game but the one that
//! holds that last line: a game starts at the cut exactly when that one starts there,
//! since the tokenizer decides a boundary at the line that starts the game. Once the
//! piece before is settled, [`settle`] holds the guess against where the games of the
//! piece before really ended (a [`Link`]): when they end at the cut, the games read ahead
//! are the input's games, moved to their place ([`Game::relocate`]); otherwise the piece
//! is read again from where the games before really ended, with the text between that
//! and the cut carried over. The games, their tokens and findings are therefore those a
//! [`Reader`] gives over the whole input, whichever cuts were guessed: the property is
//! tested on every shared file and under the reader fuzz target.
//!
//! A piece that reaches [`MAX_PIECE`] bytes without a likely game start (a file without
//! `Event` tags, games without tags, a huge comment or line), or an input in UTF-16
//! (decoded as it is read), is not cut at all: [`Next::Unsplittable`] tells the caller to
//! read the rest with a [`Reader`] alone ([`Splitter::into_reader`]), whose memory stays
//! bounded whatever the rest holds.

use std::io::{self, Read};

use memchr::memmem;

use crate::game::Game;
use crate::lexer::is_tag_shaped;
use crate::reader::{Origin, Reader, ReaderBuilder};

/// A piece grows to at most this many bytes (or four times the size asked, if more)
/// looking for a likely game start; past it,
/// the rest of the input is not cut ([`Next::Unsplittable`]). Larger than all but the
/// most annotated real games, so that a file of games with `Event` tags is cut
/// throughout, and small enough that the pieces in flight stay a few MiB a thread.
pub const MAX_PIECE: usize = 4 << 20;

/// One piece of the input: its bytes, where they start, and where the next piece starts.
#[derive(Debug)]
pub struct Piece {
    /// The bytes: the piece's own, then (unless it is the last) the whole line at the cut,
    /// with which the next piece starts.
    pub bytes: Vec<u8>,
    /// Byte offset of `bytes[0]` in the input.
    pub start: u64,
    /// Where in `bytes` the next piece starts; `None` for the last piece, and the end of
    /// `bytes` for the piece [`Splitter::unread`] gives.
    pub cut: Option<usize>,
    /// The read error that ended the input after these bytes.
    pub error: Option<io::Error>,
}

/// What [`Splitter::next_piece`] gives.
#[derive(Debug)]
pub enum Next {
    /// The next piece.
    Piece(Piece),
    /// The input is read to its end.
    End,
    /// The rest of the input is not cut: read it with [`Splitter::into_reader`].
    Unsplittable,
}

/// Reads an input and cuts it into [`Piece`]s; see the module documentation.
pub struct Splitter<R> {
    inner: R,
    /// Bytes read and not yet handed out in a piece (the last piece's line at the cut
    /// first).
    carry: Vec<u8>,
    /// Byte offset of `carry[0]` in the input.
    offset: u64,
    target: usize,
    /// The line start in `carry` from which the next search for a cut goes on.
    searched: usize,
    ended: bool,
    error: Option<io::Error>,
    done: bool,
}

impl<R: Read> Splitter<R> {
    /// A splitter over `inner` that cuts pieces of at least `target` bytes (at least 1),
    /// at the first likely game start past it.
    pub fn new(inner: R, target: usize) -> Splitter<R> {
        Splitter {
            inner,
            carry: Vec::new(),
            offset: 0,
            target: target.max(1),
            searched: 0,
            ended: false,
            error: None,
            done: false,
        }
    }

    /// Reads on to the next cut and hands out the piece before it.
    pub fn next_piece(&mut self) -> Next {
        if self.done {
            return Next::End;
        }
        if self.offset == 0 {
            while self.carry.len() < 4 && self.fill() {}
            if crate::reader::is_utf16(&self.carry) {
                return Next::Unsplittable;
            }
        }
        loop {
            if let Some((cut, line_end)) = self.find_cut() {
                let rest = self.carry[cut..].to_vec();
                let mut bytes = std::mem::replace(&mut self.carry, rest);
                bytes.truncate(line_end);
                let start = self.offset;
                self.offset += cut as u64;
                // The search stopped at the cut: what follows it is searched again.
                self.searched = 0;
                return Next::Piece(Piece {
                    bytes,
                    start,
                    cut: Some(cut),
                    error: None,
                });
            }
            if self.ended {
                self.done = true;
                if self.carry.is_empty() && self.error.is_none() {
                    return Next::End;
                }
                return Next::Piece(Piece {
                    bytes: std::mem::take(&mut self.carry),
                    start: self.offset,
                    cut: None,
                    error: self.error.take(),
                });
            }
            if self.carry.len() >= MAX_PIECE.max(4 * self.target) {
                return Next::Unsplittable;
            }
            self.fill();
        }
    }

    /// The bytes read and not handed out, as the last piece, when reading stopped where
    /// it should not have (the underlying reader panicked: a bug): the game they end in
    /// is cut short, so the piece's cut is its end and that game is not one of its games.
    pub fn unread(&mut self) -> Piece {
        self.done = true;
        let bytes = std::mem::take(&mut self.carry);
        Piece {
            cut: Some(bytes.len()),
            bytes,
            start: self.offset,
            error: None,
        }
    }

    /// A reader of the rest of the input, after [`Next::Unsplittable`], once the pieces
    /// handed out are settled: `link` is where their games end.
    pub fn into_reader(
        self,
        link: Link,
        builder: &ReaderBuilder,
    ) -> Reader<io::Chain<io::Cursor<Vec<u8>>, R>> {
        debug_assert_eq!(link.origin.offset + link.tail.len() as u64, self.offset);
        let mut text = link.tail;
        text.extend_from_slice(&self.carry);
        builder
            .clone()
            .origin(link.origin)
            .build(io::Cursor::new(text).chain(self.inner))
    }

    /// Reads once more into `carry`; false once the input has ended (or failed).
    fn fill(&mut self) -> bool {
        if self.ended {
            return false;
        }
        // Reads of a quarter piece: what follows a cut is copied to the next piece, so
        // it is kept to about one read. `read_to_end` reads into the spare capacity
        // without zeroing it first, and keeps what was read before an error.
        let want = (self.target / 4).clamp(4 << 10, 64 << 10);
        self.carry.reserve(want);
        match (&mut self.inner)
            .take(want as u64)
            .read_to_end(&mut self.carry)
        {
            Ok(n) => {
                self.ended = n < want;
                n > 0
            }
            Err(e) => {
                // The bytes before the failure are read to their end; the error comes
                // after their last game.
                self.error = Some(e);
                self.ended = true;
                false
            }
        }
    }

    /// The cut in `carry`, past `target`, with the end of its line.
    fn find_cut(&mut self) -> Option<(usize, usize)> {
        // Every line start before the last line start was judged by the last search (its
        // line was whole); the search goes on from there.
        let from = self.searched.max(self.target);
        self.searched = memchr::memrchr(b'\n', &self.carry).map_or(0, |i| i + 1);
        if from >= self.carry.len() {
            return None;
        }
        likely_game_start(&self.carry, from)
    }
}

/// The first line start at or after `from` whose line is whole, begins with `[Event "`
/// after a blank line, and is one well-formed tag pair: the cut and the end of that line.
fn likely_game_start(data: &[u8], from: usize) -> Option<(usize, usize)> {
    let finder = memmem::Finder::new(b"\n[Event \"");
    let mut at = from.saturating_sub(1);
    while let Some(i) = finder.find(&data[at..]) {
        let newline = at + i;
        at = newline + 1;
        let before = &data[..newline];
        let blank_before = before.ends_with(b"\n") || before.ends_with(b"\n\r");
        if blank_before && newline + 1 >= from {
            let (start, end) = whole_line(data, newline + 1)?;
            if is_tag_shaped(&data[start..end - 1]) {
                return Some((start, end));
            }
        }
    }
    None
}

/// The line that starts at `start`, if its end (the byte after its `\n`) is in `data`.
fn whole_line(data: &[u8], start: usize) -> Option<(usize, usize)> {
    let end = start + memchr::memchr(b'\n', data.get(start..)?)? + 1;
    Some((start, end))
}

/// Where the games of the pieces read so far end: the [`Origin`] of the next game, and
/// the bytes from its start to the next piece's cut, which that piece's text lacks when
/// the cut was not a game start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Link {
    /// Where the next game starts.
    pub origin: Origin,
    /// The input's bytes from `origin.offset` to the next piece's start.
    pub tail: Vec<u8>,
}

/// What reading a piece gave: how many games of the caller's list are its own, and where
/// the games after them start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceEnd {
    /// The piece's games are the first `games` of the list.
    pub games: usize,
    /// Where the next game starts (counted as the reader that read the piece counts).
    pub next: Origin,
    /// The same place as a position in the text read.
    pub next_at: usize,
}

/// A read of a piece that stopped at an error of `read`: the games before it, and the
/// error.
#[derive(Debug)]
pub struct Stopped<E> {
    /// The games read before the error, the first of the caller's list.
    pub games: usize,
    /// What `read` returned.
    pub error: E,
    /// The place the reader's counts start from: add it ([`Origin::after`]) to an
    /// origin the error took from the reader to place it in the input.
    pub counted_from: Origin,
}

/// Tokenizes `piece` on its own, before the piece before it is settled: games numbered
/// and lines counted from zero (offsets are the input's). `read` reads one game (the
/// caller's [`Reader::read_game`], with what it does around it); `games` are reused.
///
/// # Errors
///
/// The first error `read` returns, after the games before it.
pub fn read_ahead<E, F>(
    builder: &ReaderBuilder,
    piece: &Piece,
    games: &mut Vec<Game>,
    read: F,
) -> Result<PieceEnd, Stopped<E>>
where
    F: FnMut(&mut Reader<&[u8]>, &mut Game) -> Result<bool, E>,
{
    let origin = Origin {
        offset: piece.start,
        ..Origin::default()
    };
    read_text(builder, origin, &piece.bytes, piece.cut, games, read)
}

/// Settles a piece read ahead once the piece before it is settled (`link` is where its
/// games end; [`Link::default`] before the first piece): the games read ahead are moved
/// to their place when the cut was where the games before it end, and otherwise the
/// piece is read again from there. Returns where this piece's games end.
///
/// # Errors
///
/// The error of the read ahead or of the read again, after the games before it.
pub fn settle<E, F>(
    builder: &ReaderBuilder,
    piece: &Piece,
    ahead: Result<PieceEnd, Stopped<E>>,
    link: &Link,
    games: &mut Vec<Game>,
    read: F,
) -> (usize, Result<Link, Stopped<E>>)
where
    F: FnMut(&mut Reader<&[u8]>, &mut Game) -> Result<bool, E>,
{
    let guessed_right = link.origin.offset == piece.start && !link.origin.after_result;
    if guessed_right {
        debug_assert!(link.tail.is_empty());
        let (read, ahead) = match ahead {
            Ok(end) => (end.games, Ok(end)),
            Err(mut stopped) => {
                stopped.counted_from = link.origin;
                (stopped.games, Err(stopped))
            }
        };
        for game in &mut games[..read] {
            game.relocate(link.origin);
        }
        let settled = ahead.map(|end| Link {
            origin: end.next.after(link.origin),
            tail: tail(&piece.bytes, end.next_at, piece.cut),
        });
        return (read, settled);
    }
    // The cut was not where a game starts: the piece is read again from where the
    // games before it end, their last bytes first.
    let mut text = Vec::with_capacity(link.tail.len() + piece.bytes.len());
    text.extend_from_slice(&link.tail);
    text.extend_from_slice(&piece.bytes);
    let cut = piece.cut.map(|c| c + link.tail.len());
    match read_text(builder, link.origin, &text, cut, games, read) {
        Ok(end) => {
            let settled = Link {
                origin: end.next,
                tail: tail(&text, end.next_at, cut),
            };
            (end.games, Ok(settled))
        }
        Err(stopped) => (stopped.games, Err(stopped)),
    }
}

/// The bytes from the next game's start to the cut (none for the last piece).
fn tail(text: &[u8], next_at: usize, cut: Option<usize>) -> Vec<u8> {
    cut.map_or_else(Vec::new, |cut| text[next_at..cut].to_vec())
}

/// Reads the games of `text`, which starts at `origin`; with a cut, the game that holds
/// the line at the cut is the next piece's (see the module documentation).
fn read_text<E, F>(
    builder: &ReaderBuilder,
    origin: Origin,
    text: &[u8],
    cut: Option<usize>,
    games: &mut Vec<Game>,
    mut read: F,
) -> Result<PieceEnd, Stopped<E>>
where
    F: FnMut(&mut Reader<&[u8]>, &mut Game) -> Result<bool, E>,
{
    let mut reader = builder.clone().origin(origin).build(text);
    let mut count = 0;
    let mut before_last = reader.origin();
    loop {
        if games.len() <= count {
            games.push(Game::new());
        }
        let before = reader.origin();
        match read(&mut reader, &mut games[count]) {
            Ok(true) => {
                before_last = before;
                count += 1;
            }
            Ok(false) => break,
            Err(error) => {
                return Err(Stopped {
                    games: count,
                    error,
                    counted_from: Origin::default(),
                });
            }
        }
    }
    if cut.is_none() {
        return Ok(PieceEnd {
            games: count,
            next: reader.origin(),
            next_at: text.len(),
        });
    }
    // The line at the cut is never only whitespace, so it is in a game: the last one.
    Ok(PieceEnd {
        games: count.saturating_sub(1),
        next: before_last,
        next_at: (before_last.offset - origin.offset) as usize,
    })
}
