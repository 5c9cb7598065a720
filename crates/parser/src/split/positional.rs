//! Cutting an input that can be read at any offset (a regular file) without reading it
//! through: the splitter reads only a window past each piece's target size to find the
//! cut, and the thread that takes a piece reads its bytes itself ([`Piece::load`]). So
//! the serial step no longer copies the input (the kernel's copy from the page cache
//! was most of its time): every thread copies its own pieces, at once.

use std::fmt;
use std::io::{self, Read};
use std::sync::Arc;

use super::{MAX_PIECE, Next, Piece, Splitter, likely_game_start};

/// An input read at any offset without a cursor of its own: several threads read their
/// pieces of it at once (a regular file: `pread` on Unix).
pub trait ReadAt: Send + Sync {
    /// Reads into `buf` from byte `offset` of the input: how many bytes were read, 0 at
    /// its end.
    ///
    /// # Errors
    ///
    /// The input's read error.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
}

#[cfg(unix)]
impl ReadAt for std::fs::File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(self, buf, offset)
    }
}

impl ReadAt for Vec<u8> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.len());
        let n = buf.len().min(self.len() - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }
}

/// A [`Read`] over a [`ReadAt`] input from a given offset: what a positional splitter
/// reads the rest of the input with when it stops cutting ([`Splitter::into_reader`]).
#[derive(Clone)]
pub struct AtReader {
    input: Arc<dyn ReadAt>,
    /// The offset of the next byte read.
    pos: u64,
}

impl fmt::Debug for AtReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AtReader").field("pos", &self.pos).finish()
    }
}

impl AtReader {
    /// A reader of `input` from byte `pos`.
    pub fn new(input: Arc<dyn ReadAt>, pos: u64) -> AtReader {
        AtReader { input, pos }
    }
}

impl Read for AtReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.input.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// The bytes a piece of a positional splitter still has to read: `len` from its start,
/// or (`None`, the last piece) all to the input's end.
#[derive(Clone)]
pub(super) struct Pending {
    input: Arc<dyn ReadAt>,
    len: Option<usize>,
}

impl fmt::Debug for Pending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pending").field("len", &self.len).finish()
    }
}

/// How many bytes a positional splitter reads at a time looking for a cut.
const WINDOW_READ: usize = 16 << 10;

/// One read of `input` at `offset`, made again when a signal interrupted it.
fn read_once(input: &dyn ReadAt, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    loop {
        match input.read_at(buf, offset) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            read => return read,
        }
    }
}

/// Reads `len` bytes of `input` from `offset` into `buf`, or all to the input's end for
/// `None`; `buf`'s length is set to what was read. Fewer bytes only at an error,
/// returned with them.
fn read_exactly(
    input: &dyn ReadAt,
    buf: &mut Vec<u8>,
    offset: u64,
    len: Option<usize>,
) -> Option<io::Error> {
    let mut filled = 0;
    let error = loop {
        let want = len.unwrap_or(filled + WINDOW_READ * 4);
        if filled == want {
            break None;
        }
        // Room written once is not cleared again (see `Splitter::recycle`).
        if buf.len() < want {
            buf.resize(want, 0);
        }
        match read_once(input, &mut buf[filled..want], offset + filled as u64) {
            Ok(0) if len.is_none() => break None,
            Ok(0) => {
                break Some(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the input became shorter while it was read",
                ));
            }
            Ok(n) => filled += n,
            Err(e) => break Some(e),
        }
    };
    buf.truncate(filled);
    error
}

impl Piece {
    /// Reads the piece's bytes, for a piece of a positional splitter
    /// ([`Splitter::positional`]), which hands out where a piece lies and leaves the
    /// reading to the thread that takes it; nothing for any other piece. A read error
    /// makes the piece the input's last: its bytes end where reading stopped, and the
    /// error comes after its games.
    pub fn load(&mut self) {
        let Some(Pending { input, len }) = self.pending.take() else {
            return;
        };
        if let Some(e) = read_exactly(input.as_ref(), &mut self.bytes, self.start, len) {
            self.cut = None;
            self.error = Some(e);
        }
    }
}

impl Splitter<io::Empty> {
    /// A splitter over an input read at any offset, cutting pieces of at least `target`
    /// bytes (at least 1) as [`Splitter::new`] does. It reads only what it needs to find
    /// each cut; the pieces it hands out are read by whoever takes them
    /// ([`Piece::load`]).
    pub fn positional(input: Arc<dyn ReadAt>, target: usize) -> Splitter<io::Empty> {
        let mut splitter = Splitter::new(io::empty(), target);
        splitter.at = Some(input);
        splitter
    }
}

impl<R> Splitter<R> {
    /// [`Splitter::next_piece`] of a positional splitter: the next cut, found in a
    /// window read past the piece's target size; the piece's bytes are not read.
    pub(super) fn next_positional(&mut self, input: &Arc<dyn ReadAt>) -> Next {
        if self.offset == 0 {
            // What is read of the first four bytes (fewer in a shorter input).
            let mut head = Vec::new();
            read_exactly(input.as_ref(), &mut head, 0, Some(4));
            if crate::reader::is_utf16(&head) {
                return Next::Unsplittable;
            }
        }
        // The window starts three bytes before the first line start that may be a
        // cut: a cut's test looks back at the blank line before it (`\n` or `\n\r`).
        let from = self.offset + self.target as u64;
        let base = from.saturating_sub(3).max(self.offset);
        let from = usize::try_from(from - base).unwrap_or(usize::MAX);
        let mut window = std::mem::take(&mut self.carry);
        window.clear();
        let mut searched = from;
        let limit = MAX_PIECE.max(4 * self.target) as u64;
        let next = loop {
            let len = window.len();
            window.resize(len + WINDOW_READ, 0);
            let read = match read_once(input.as_ref(), &mut window[len..], base + len as u64) {
                Ok(n) => n,
                Err(e) => {
                    // The input failed: the bytes before the failure are the last piece.
                    window.truncate(len);
                    self.error = Some(e);
                    0
                }
            };
            window.truncate(len + read);
            // (A window that ends before `searched` holds no line start to judge.)
            let found = if searched <= window.len() {
                likely_game_start(&self.finder, &window, searched)
            } else {
                None
            };
            if let Some((cut, line_end)) = found {
                let start = self.offset;
                self.offset = base + cut as u64;
                let len = usize::try_from(base + line_end as u64 - start)
                    .expect("a piece fits in memory");
                break self.piece_at(input, start, Some(len), Some(self.offset));
            }
            // The lines searched were judged; the last one, perhaps not whole, is
            // judged again once more is read.
            searched = searched.max(memchr::memrchr(b'\n', &window).map_or(0, |i| i + 1));
            if read == 0 {
                // The input ends in the window, or before it (somewhere past `offset`,
                // or at it exactly): the rest is the last piece, read to the end.
                self.done = true;
                let mut probe = [0u8; 1];
                let empty = window.is_empty()
                    && self.error.is_none()
                    && (base == self.offset
                        || matches!(read_once(input.as_ref(), &mut probe, self.offset), Ok(0)));
                if empty {
                    break Next::End;
                }
                break self.piece_at(input, self.offset, None, None);
            }
            if base + window.len() as u64 - self.offset >= limit {
                break Next::Unsplittable;
            }
        };
        self.carry = window;
        self.carry.clear();
        next
    }

    /// A piece of `len` bytes (`None`: to the end) from `start` of a positional input,
    /// whose next piece starts at `next`, to be read by whoever takes it, in a recycled
    /// buffer when there is one.
    fn piece_at(
        &mut self,
        input: &Arc<dyn ReadAt>,
        start: u64,
        len: Option<usize>,
        next: Option<u64>,
    ) -> Next {
        Next::Piece(Piece {
            bytes: self.spare.pop().unwrap_or_default(),
            start,
            cut: next.map(|next| (next - start) as usize),
            error: self.error.take(),
            pending: Some(Pending {
                input: Arc::clone(input),
                len,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// An input whose length drops to `after` once `shrink_at` reads have been made, as a
    /// file rewritten while it is read.
    struct Shrinking {
        data: Vec<u8>,
        after: usize,
        shrink_at: usize,
        reads: AtomicUsize,
    }

    impl ReadAt for Shrinking {
        fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
            let reads = self.reads.fetch_add(1, Ordering::Relaxed);
            let len = if reads >= self.shrink_at {
                self.after
            } else {
                self.data.len()
            };
            self.data[..len].to_vec().read_at(buf, offset)
        }
    }

    fn games(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n").into_bytes())
            .collect()
    }

    /// The pieces tile the input, each cut at a game start, and their bytes once loaded
    /// are the input's; the last one is read to the end.
    #[test]
    fn pieces_tile_the_input_and_load_its_bytes() {
        let data = games(200);
        let mut splitter = Splitter::positional(Arc::new(data.clone()), 100);
        let mut end = 0u64;
        loop {
            match splitter.next_piece() {
                Next::Piece(mut piece) => {
                    assert_eq!(piece.start, end);
                    assert!(piece.bytes.is_empty() || piece.pending.is_some());
                    piece.load();
                    assert!(piece.error.is_none());
                    let start = piece.start as usize;
                    assert_eq!(piece.bytes, data[start..start + piece.bytes.len()]);
                    match piece.cut {
                        Some(cut) => {
                            end += cut as u64;
                            assert!(data[end as usize..].starts_with(b"[Event \""));
                            // The piece holds the whole line at the cut.
                            assert_eq!(piece.bytes.last(), Some(&b'\n'));
                        }
                        None => {
                            end = data.len() as u64;
                            assert_eq!(start + piece.bytes.len(), data.len());
                        }
                    }
                    splitter.recycle(piece.bytes);
                }
                Next::End => break,
                Next::Unsplittable => panic!("games with Event tags are cut"),
            }
        }
        assert_eq!(end, data.len() as u64);
    }

    /// A piece whose bytes are gone when it is loaded (the input became shorter after
    /// the splitter cut it) becomes the input's last, with the bytes that were there and
    /// an error after them.
    #[test]
    fn a_piece_of_an_input_that_became_shorter_is_the_last_with_an_error() {
        let data = games(100);
        // Two reads find the cut (the first bytes, for UTF-16, and one window); the
        // third, the piece's, finds 300 bytes.
        let input = Shrinking {
            after: 300,
            shrink_at: 2,
            data,
            reads: AtomicUsize::new(0),
        };
        let mut splitter = Splitter::positional(Arc::new(input), 600);
        let Next::Piece(mut first) = splitter.next_piece() else {
            panic!("a piece")
        };
        assert!(first.cut.is_some());
        let len = first.cut.unwrap();
        assert!(len > 300, "the piece reaches past where the input will end");
        first.load();
        assert_eq!(first.bytes.len(), 300);
        assert_eq!(first.cut, None);
        let error = first.error.expect("an error after the bytes");
        assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
    }

    /// An input shorter than a piece is one piece read to its end; an empty one none.
    #[test]
    fn a_short_input_is_one_piece_and_an_empty_one_none() {
        let data = games(2);
        let mut splitter = Splitter::positional(Arc::new(data.clone()), 1 << 20);
        let Next::Piece(mut piece) = splitter.next_piece() else {
            panic!("a piece")
        };
        piece.load();
        assert_eq!((piece.bytes, piece.cut), (data, None));
        assert!(matches!(splitter.next_piece(), Next::End));
        let mut empty = Splitter::positional(Arc::new(Vec::new()), 1 << 20);
        assert!(matches!(empty.next_piece(), Next::End));
    }
}
