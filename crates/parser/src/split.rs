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
//! A thread need not wait for the pieces before to be read to number its games: with a
//! guess of where they are numbered from (the [`Piece::likely`] counts of the
//! pieces in between, or those their threads counted), [`read_from`] reads the piece and
//! hands its games on a few at a time, as soon as they are read, while their text and
//! tokens are in the core's cache. The guess, a [`Link`], is right when it equals where
//! the games before really end; the caller holds it against that and reads the piece
//! again from there when it is not. [`read_from`] reading from the true [`Link`] is the
//! second way the property above is tested. A piece is tokenized where it lies
//! ([`TextReader`]), and its buffer can be given back to the splitter for a later piece
//! ([`Splitter::recycle`]), so that nothing is copied but what follows a cut.
//!
//! An input that can be read at any offset (a regular file, [`ReadAt`]) is cut by a
//! positional splitter ([`Splitter::positional`]): it reads only a window past each
//! piece's target size, where it looks for the cut, and the thread that takes a piece
//! reads the piece's bytes itself ([`Piece::load`]). The cuts are the same test's; the
//! serial step then reads a few KiB a piece instead of the whole input.
//!
//! A piece that reaches [`MAX_PIECE`] bytes without a likely game start (a file without
//! `Event` tags, games without tags, a huge comment or line), or an input in UTF-16
//! (decoded as it is read), is not cut at all: [`Next::Unsplittable`] tells the caller to
//! read the rest with a [`Reader`] alone ([`Splitter::into_reader`]), whose memory stays
//! bounded whatever the rest holds.

use std::io::{self, Read};
use std::sync::Arc;

use memchr::memmem::Finder;

mod positional;
pub use positional::{AtReader, ReadAt};

use crate::game::Game;
use crate::lexer::is_tag_shaped;
use crate::reader::{Origin, Reader, ReaderBuilder};

/// A piece grows to at most this many bytes (or four times the size asked, if more)
/// looking for a likely game start; past it,
/// the rest of the input is not cut ([`Next::Unsplittable`]). Larger than all but the
/// most annotated real games, so that a file of games with `Event` tags is cut
/// throughout, and small enough that the pieces in flight stay a few MiB a thread.
pub const MAX_PIECE: usize = 4 << 20;

/// The buffers of pieces worked on that a [`Splitter`] keeps for later pieces: as many as
/// are in flight on a few threads.
const SPARE_BUFFERS: usize = 8;

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
    /// What is still to be read into `bytes` ([`Piece::load`]), for a piece of a
    /// positional splitter.
    pending: Option<positional::Pending>,
}

impl Piece {
    /// A guess at what the piece's own games (the bytes before the cut) hold: one game,
    /// plus each `[Event "` line after a blank line past the first byte (the cut's test
    /// without the test of the whole line, which a count does not need), and every line
    /// end. A thread numbers the games and lines of the pieces after this one from it
    /// while this one is being read ([`Counts`]). A search and a count over the piece:
    /// the thread that takes the piece makes it, so that the splitter, the serial step,
    /// does not.
    pub fn likely(&self) -> Counts {
        let own = &self.bytes[..self.cut.unwrap_or(self.bytes.len())];
        let games = 1 + event_finder()
            .find_iter(own)
            .filter(|&newline| blank_before(own, newline))
            .count() as u64;
        Counts {
            games,
            newlines: memchr::memchr_iter(b'\n', own).count() as u64,
        }
    }
}

/// How many games and line ends a piece's own games hold. [`Piece::likely`] guesses
/// them; reading the piece counts them. A thread that takes a piece before
/// the ones before it are read adds these up to guess where its games are numbered from,
/// so that it can work on each game as soon as it is read; the guess is checked once the
/// games before are read ([`read_from`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games.
    pub games: u64,
    /// Line ends (`\n`).
    pub newlines: u64,
}

impl Counts {
    /// The counts between `from`, where a reader started, and `to`, where it ended.
    pub fn between(from: Origin, to: Origin) -> Counts {
        Counts {
            games: to.games - from.games,
            newlines: to.line - from.line,
        }
    }

    /// Where a piece that starts at byte `offset` starts, if the piece before it started
    /// at `from` and held these counts (and its last game did not end at a limit).
    pub fn after(self, from: Origin, offset: u64) -> Origin {
        Origin {
            offset,
            line: from.line + self.newlines,
            games: from.games + self.games,
            after_result: false,
        }
    }
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

/// The rest of the input after the last piece ([`Splitter::into_reader`]): the stream
/// a splitter reads, or a positional input from where its pieces end.
#[derive(Debug)]
pub enum Rest<R> {
    /// The rest of the stream.
    Stream(R),
    /// The rest of a positional input.
    At(AtReader),
}

impl<R: Read> Read for Rest<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Rest::Stream(inner) => inner.read(buf),
            Rest::At(inner) => inner.read(buf),
        }
    }
}

/// Reads an input and cuts it into [`Piece`]s; see the module documentation.
pub struct Splitter<R> {
    inner: R,
    /// Bytes read and not yet handed out in a piece (the last piece's line at the cut
    /// first).
    carry: Vec<u8>,
    /// How many bytes of `carry` are read; the rest of it is spare room, written once
    /// (a recycled buffer's room is written already, so it is not cleared again).
    filled: usize,
    /// Byte offset of `carry[0]` in the input.
    offset: u64,
    target: usize,
    /// The line start in `carry` from which the next search for a cut goes on.
    searched: usize,
    ended: bool,
    error: Option<io::Error>,
    done: bool,
    /// Buffers of pieces worked on, given back ([`Splitter::recycle`]) to hold the next
    /// pieces: a new buffer of a piece's size is mapped fresh from the system each time
    /// (page faults, zeroed pages), a recycled one is already in memory.
    spare: Vec<Vec<u8>>,
    finder: Finder<'static>,
    /// The input of a positional splitter ([`Splitter::positional`]), read at any
    /// offset: `inner` is then not read.
    at: Option<Arc<dyn ReadAt>>,
}

impl<R: Read> Splitter<R> {
    /// A splitter over `inner` that cuts pieces of at least `target` bytes (at least 1),
    /// at the first likely game start past it.
    pub fn new(inner: R, target: usize) -> Splitter<R> {
        Splitter {
            inner,
            carry: Vec::new(),
            filled: 0,
            offset: 0,
            target: target.max(1),
            searched: 0,
            ended: false,
            error: None,
            done: false,
            spare: Vec::new(),
            finder: event_finder(),
            at: None,
        }
    }

    /// The splitter of a stream that starts at byte `offset` of the whole input (a byte
    /// range of a file, read from where its first game starts): the pieces carry the
    /// whole input's offsets. A stream that does not start at 0 is not looked at for
    /// UTF-16, as a reader with such an [`Origin`](crate::Origin) does not.
    pub fn starting_at(mut self, offset: u64) -> Splitter<R> {
        self.offset = offset;
        self
    }

    /// Gives back the bytes of a piece worked on, to hold a later piece. At most a few
    /// are kept.
    pub fn recycle(&mut self, bytes: Vec<u8>) {
        // A buffer that held a huge piece goes back to the system.
        if self.spare.len() < SPARE_BUFFERS && bytes.capacity() <= 4 * self.target {
            // Its bytes stay as they are, to be written over: room that is written once
            // is not cleared again.
            self.spare.push(bytes);
        }
    }

    /// Reads on to the next cut and hands out the piece before it.
    pub fn next_piece(&mut self) -> Next {
        if self.done {
            return Next::End;
        }
        if let Some(at) = self.at.clone() {
            return self.next_positional(&at);
        }
        if self.offset == 0 {
            while self.filled < 4 && self.fill() {}
            if crate::reader::is_utf16(self.text()) {
                return Next::Unsplittable;
            }
        }
        loop {
            if let Some((cut, line_end)) = self.find_cut() {
                let mut rest = self.spare.pop().unwrap_or_default();
                // Room for the next piece, so that reading it seldom moves it.
                let room = self.target + self.target / 2;
                rest.reserve(room.saturating_sub(rest.len()));
                let left = self.filled - cut;
                if rest.len() < left {
                    rest.resize(left, 0);
                }
                rest[..left].copy_from_slice(&self.carry[cut..self.filled]);
                self.filled = left;
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
                    pending: None,
                });
            }
            if self.ended {
                self.done = true;
                if self.filled == 0 && self.error.is_none() {
                    return Next::End;
                }
                let bytes = self.take_carry();
                return Next::Piece(Piece {
                    bytes,
                    start: self.offset,
                    cut: None,
                    error: self.error.take(),
                    pending: None,
                });
            }
            if self.filled >= MAX_PIECE.max(4 * self.target) {
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
        let bytes = self.take_carry();
        Piece {
            cut: Some(bytes.len()),
            bytes,
            start: self.offset,
            error: None,
            pending: None,
        }
    }

    /// A reader of the rest of the input, after [`Next::Unsplittable`], once the pieces
    /// handed out are settled: `link` is where their games end.
    pub fn into_reader(
        self,
        link: Link,
        builder: &ReaderBuilder,
    ) -> Reader<io::Chain<io::Cursor<Vec<u8>>, Rest<R>>> {
        debug_assert_eq!(link.origin.offset + link.tail.len() as u64, self.offset);
        let mut text = link.tail;
        text.extend_from_slice(self.text());
        let rest = match self.at {
            Some(input) => Rest::At(AtReader::new(input, self.offset)),
            None => Rest::Stream(self.inner),
        };
        builder
            .clone()
            .origin(link.origin)
            .build(io::Cursor::new(text).chain(rest))
    }

    /// Reads once more into `carry`; false once the input has ended (or failed).
    fn fill(&mut self) -> bool {
        if self.ended {
            return false;
        }
        // Reads of a quarter piece: what follows a cut is copied to the next piece, so
        // it is kept to about one read. Each read asks for the whole quarter at once, so
        // that a buffered input of that size hands its bytes over without copying them
        // into its own buffer first (`read_to_end` starts with 8 KiB reads, which a
        // `BufReader` serves by copying).
        let want = (self.target / 4).clamp(4 << 10, 64 << 10);
        let (start, end) = (self.filled, self.filled + want);
        if self.carry.len() < end {
            self.carry.resize(end, 0);
        }
        // `filled` counts each read at once: bytes read before a panic of the input are
        // handed out by `unread`.
        while self.filled < end {
            match self.inner.read(&mut self.carry[self.filled..end]) {
                Ok(0) => {
                    self.ended = true;
                    break;
                }
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    // The bytes before the failure are read to their end; the error comes
                    // after their last game.
                    self.error = Some(e);
                    self.ended = true;
                    break;
                }
            }
        }
        self.filled > start
    }

    /// The cut in `carry`, past `target`, with the end of its line.
    fn find_cut(&mut self) -> Option<(usize, usize)> {
        // Every line start before the last line start was judged by the last search (its
        // line was whole); the search goes on from there.
        let from = self.searched.max(self.target);
        self.searched = memchr::memrchr(b'\n', self.text()).map_or(0, |i| i + 1);
        if from >= self.filled {
            return None;
        }
        likely_game_start(&self.finder, self.text(), from)
    }

    /// The bytes read and not handed out.
    fn text(&self) -> &[u8] {
        &self.carry[..self.filled]
    }

    /// Takes the bytes read and not handed out.
    fn take_carry(&mut self) -> Vec<u8> {
        let mut bytes = std::mem::take(&mut self.carry);
        bytes.truncate(self.filled);
        self.filled = 0;
        bytes
    }
}

/// Whether the line end at `newline` ends a blank line.
fn blank_before(data: &[u8], newline: usize) -> bool {
    let before = &data[..newline];
    before.ends_with(b"\n") || before.ends_with(b"\n\r")
}

/// The first line start at or after `from` whose line is whole, begins with `[Event "`
/// after a blank line, and is one well-formed tag pair: the cut and the end of that line.
/// `finder` looks for `\n[Event "` ([`event_finder`]).
fn likely_game_start(finder: &Finder<'_>, data: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut at = from.saturating_sub(1);
    while let Some(i) = finder.find(&data[at..]) {
        let newline = at + i;
        at = newline + 1;
        if blank_before(data, newline) && newline + 1 >= from {
            let (start, end) = whole_line(data, newline + 1)?;
            if is_tag_shaped(&data[start..end - 1]) {
                return Some((start, end));
            }
        }
    }
    None
}

/// The search for a line that begins with `[Event "`, built once a splitter (building it
/// costs more than a search of a few KiB).
fn event_finder() -> Finder<'static> {
    Finder::new(b"\n[Event \"")
}

/// The line that starts at `start`, if its end (the byte after its `\n`) is in `data`.
fn whole_line(data: &[u8], start: usize) -> Option<(usize, usize)> {
    let end = start + memchr::memchr(b'\n', data.get(start..)?)? + 1;
    Some((start, end))
}

/// The reader of one piece's text, which it reads where it lies
/// ([`ReaderBuilder::build_text`]): the reader the `read` functions given to
/// [`read_ahead`], [`settle`] and [`read_from`] are handed.
pub type TextReader = Reader<io::Empty>;

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
    /// How many of the piece's games were read (and handed on); when they are handed on
    /// all at once, the first `games` of the caller's list.
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
    /// How many games were read (and handed on) before the error; when they are handed
    /// on all at once, the first of the caller's list.
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
    piece: &mut Piece,
    games: &mut Vec<Game>,
    read: F,
) -> Result<PieceEnd, Stopped<E>>
where
    F: FnMut(&mut TextReader, &mut Game) -> Result<bool, E>,
{
    let origin = Origin {
        offset: piece.start,
        ..Origin::default()
    };
    let text = std::mem::take(&mut piece.bytes);
    let reader = builder.clone().origin(origin).build_text(text);
    let (text, end) = read_text(reader, piece.cut, usize::MAX, games, read, |_| {});
    piece.bytes = text;
    end
}

/// Settles a piece read ahead once the piece before it is settled (`link` is where its
/// games end; [`Link::default`] before the first piece): the games read ahead are moved
/// to their place when the cut was where the games before it end, and otherwise the
/// piece is read again from there ([`read_from`]). Returns where this piece's games end.
///
/// # Errors
///
/// The error of the read ahead or of the read again, after the games before it.
pub fn settle<E, F>(
    builder: &ReaderBuilder,
    piece: &mut Piece,
    ahead: Result<PieceEnd, Stopped<E>>,
    link: &Link,
    games: &mut Vec<Game>,
    read: F,
) -> (usize, Result<Link, Stopped<E>>)
where
    F: FnMut(&mut TextReader, &mut Game) -> Result<bool, E>,
{
    let guessed_right = link.origin.offset == piece.start && !link.origin.after_result;
    if !guessed_right {
        return read_from(builder, piece, link, usize::MAX, games, read, |_| {});
    }
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
    (read, settled)
}

/// Reads `piece` from `link`, where the games before it end (its `tail` first, when the
/// cut was not a game start), and hands its games to `work` in order, a group of about
/// `group` bytes of text at a time, each group as soon as it is read: its text and tokens
/// are still in the core's cache. Returns how many games it handed on and where the games
/// after them start. With `group` of `usize::MAX`, every game is handed on at once and
/// stays in `games`, the first of the list.
///
/// This is how a thread reads a piece with its games' numbers guessed ([`Counts`]):
/// `link` is then the guess, and the games and where they end are the input's when the
/// guess equals where the games before really end; otherwise the piece is read again from
/// there.
///
/// # Errors
///
/// The first error `read` returns, after the games before it (all handed on).
pub fn read_from<E, F, W>(
    builder: &ReaderBuilder,
    piece: &mut Piece,
    link: &Link,
    group: usize,
    games: &mut Vec<Game>,
    read: F,
    work: W,
) -> (usize, Result<Link, Stopped<E>>)
where
    F: FnMut(&mut TextReader, &mut Game) -> Result<bool, E>,
    W: FnMut(&[Game]),
{
    // The piece's bytes are lent to the reader and given back, unless its text is the
    // tail and the bytes joined.
    let joined = !link.tail.is_empty();
    let text = if joined {
        [&link.tail[..], &piece.bytes[..]].concat()
    } else {
        std::mem::take(&mut piece.bytes)
    };
    let cut = piece.cut.map(|c| c + link.tail.len());
    let reader = builder.clone().origin(link.origin).build_text(text);
    let (text, end) = read_text(reader, cut, group, games, read, work);
    let read = match end {
        Ok(end) => {
            let settled = Link {
                origin: end.next,
                tail: tail(&text, end.next_at, cut),
            };
            (end.games, Ok(settled))
        }
        Err(stopped) => (stopped.games, Err(stopped)),
    };
    if !joined {
        piece.bytes = text;
    }
    read
}

/// The bytes from the next game's start to the cut (none for the last piece).
fn tail(text: &[u8], next_at: usize, cut: Option<usize>) -> Vec<u8> {
    cut.map_or_else(Vec::new, |cut| text[next_at..cut].to_vec())
}

/// Reads the games of the text of `reader`; with a cut, the game that holds the line at
/// the cut is the next piece's (see the module documentation). The games are handed to
/// `work` in groups of about `group` bytes, the last game read held back until the next
/// one is read (it may be the next piece's). Gives the text back.
fn read_text<E, F, W>(
    mut reader: TextReader,
    cut: Option<usize>,
    group: usize,
    games: &mut Vec<Game>,
    mut read: F,
    mut work: W,
) -> (Vec<u8>, Result<PieceEnd, Stopped<E>>)
where
    F: FnMut(&mut TextReader, &mut Game) -> Result<bool, E>,
    W: FnMut(&[Game]),
{
    let origin = reader.origin();
    // Games handed on, games in `games` not yet handed on, and their bytes.
    let (mut handed, mut held, mut bytes) = (0, 0, 0);
    let mut before_last = reader.origin();
    loop {
        if games.len() <= held {
            games.push(Game::new());
        }
        let before = reader.origin();
        match read(&mut reader, &mut games[held]) {
            Ok(true) => {
                before_last = before;
                bytes += games[held].bytes().len();
                held += 1;
                if bytes >= group && held > 1 {
                    // Every game but the last is the piece's: handed on now, the last
                    // kept as the first of the next group.
                    work(&games[..held - 1]);
                    handed += held - 1;
                    games.swap(0, held - 1);
                    held = 1;
                    bytes = games[0].bytes().len();
                }
            }
            Ok(false) => break,
            Err(error) => {
                work(&games[..held]);
                let stopped = Stopped {
                    games: handed + held,
                    error,
                    counted_from: Origin::default(),
                };
                return (reader.into_buffer(), Err(stopped));
            }
        }
    }
    if cut.is_none() {
        work(&games[..held]);
        let next = reader.origin();
        let text = reader.into_buffer();
        let end = PieceEnd {
            games: handed + held,
            next,
            next_at: text.len(),
        };
        return (text, Ok(end));
    }
    // The line at the cut is never only whitespace, so it is in a game: the last one.
    let own = held.saturating_sub(1);
    work(&games[..own]);
    let end = PieceEnd {
        games: handed + own,
        next: before_last,
        next_at: (before_last.offset - origin.offset) as usize,
    };
    (reader.into_buffer(), Ok(end))
}
