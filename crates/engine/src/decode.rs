//! Compressed input: which compression the first bytes say, and a reader that decodes it
//! on a thread of its own.

use std::io::{self, BufRead, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// How an input is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// Zstandard (`.zst`, lichess's database dumps).
    Zstd,
    /// gzip (`.gz`).
    Gzip,
    /// bzip2 (`.bz2`).
    Bzip2,
}

impl Compression {
    /// By the first bytes of the data: how it is decoded.
    pub fn from_magic(bytes: &[u8]) -> Compression {
        match bytes {
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Compression::Bzip2,
            _ => Compression::None,
        }
    }

    /// By the file name's last extension: only a guess made before the file is opened
    /// (its size as text, whether `fix --in-place` may rewrite it); the data is decoded
    /// by its first bytes.
    pub fn from_path(path: &Path) -> Compression {
        // As bytes: a name that is not UTF-8 has its extension too.
        let name = path
            .file_name()
            .map(|n| n.as_encoded_bytes().to_ascii_lowercase())
            .unwrap_or_default();
        if name.ends_with(b".zst") {
            Compression::Zstd
        } else if name.ends_with(b".gz") {
            Compression::Gzip
        } else if name.ends_with(b".bz2") {
            Compression::Bzip2
        } else {
            Compression::None
        }
    }

    /// The format's name, as messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "plain",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }

    /// Wraps `input` in the matching decoder. Concatenated members (as `cat a.gz b.gz`
    /// or parallel compressors write them) are all read. A decoder runs on a thread of
    /// its own (see [`ReadAhead`]).
    ///
    /// # Errors
    ///
    /// A zstd decoder that cannot be set up.
    pub fn wrap<R: BufRead + Send + 'static>(self, input: R) -> io::Result<Box<dyn Read + Send>> {
        let decoder: Box<dyn Read + Send> = match self {
            Compression::None => return Ok(Box::new(input)),
            Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(input)?),
            Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
            Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
        };
        Ok(Box::new(ReadAhead::spawn(decoder)))
    }
}

/// `input` as text: decoded when its first bytes are those of zstd, gzip or bzip2 data,
/// passed through otherwise.
///
/// # Errors
///
/// The error of reading the first bytes, or of setting up the decoder.
pub fn decoded<R: BufRead + Send + 'static>(mut input: R) -> io::Result<Box<dyn Read + Send>> {
    let kind = Compression::from_magic(input.fill_buf()?);
    kind.wrap(input)
}

/// Decompression on a thread of its own, a few chunks ahead of the reader, as
/// `zcat file | planilla` would run it. The checking threads take turns at reading, so a
/// decoder read in place would move from core to core with its large state (bzip2's
/// 900 KB blocks) and add its time to theirs; on its own thread it stays on one core and
/// overlaps the tokenizing and checking. Memory: at most [`ReadAhead::CHUNKS`] chunks of
/// [`ReadAhead::CHUNK`] bytes. A read error comes after every byte decoded before it; the
/// thread ends when the reader is dropped.
pub struct ReadAhead {
    full: Receiver<io::Result<Vec<u8>>>,
    empty: SyncSender<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl ReadAhead {
    /// The size of one chunk.
    pub const CHUNK: usize = 256 << 10;
    /// The chunks decoded ahead at most.
    pub const CHUNKS: usize = 4;

    /// Starts reading `inner` on a thread of its own.
    pub fn spawn(mut inner: Box<dyn Read + Send>) -> ReadAhead {
        let (full_tx, full) = sync_channel::<io::Result<Vec<u8>>>(Self::CHUNKS);
        let (empty, empty_rx) = sync_channel::<Vec<u8>>(Self::CHUNKS + 1);
        std::thread::spawn(move || {
            loop {
                let mut chunk = empty_rx.try_recv().unwrap_or_default();
                chunk.resize(Self::CHUNK, 0);
                let mut filled = 0;
                let mut error = None;
                while filled < Self::CHUNK {
                    match inner.read(&mut chunk[filled..]) {
                        Ok(0) => break,
                        Ok(n) => filled += n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            error = Some(e);
                            break;
                        }
                    }
                }
                chunk.truncate(filled);
                let end = filled < Self::CHUNK;
                if filled > 0 && full_tx.send(Ok(chunk)).is_err() {
                    return;
                }
                if let Some(e) = error {
                    let _ = full_tx.send(Err(e));
                    return;
                }
                if end {
                    // Dropping the sender is the end of the input.
                    return;
                }
            }
        });
        ReadAhead {
            full,
            empty,
            chunk: Vec::new(),
            at: 0,
        }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.chunk.len() {
            match self.full.recv() {
                Ok(Ok(next)) => {
                    let used = std::mem::replace(&mut self.chunk, next);
                    let _ = self.empty.try_send(used);
                    self.at = 0;
                }
                Ok(Err(e)) => return Err(e),
                // The decoder thread is done: the end of the input.
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A reader that counts the bytes read through it (a progress bar's position).
pub struct Counting<R> {
    inner: R,
    consumed: Arc<AtomicU64>,
}

impl<R> Counting<R> {
    /// Counts what is read from `inner` into `consumed`.
    pub fn new(inner: R, consumed: Arc<AtomicU64>) -> Counting<R> {
        Counting { inner, consumed }
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};

    fn read(data: Vec<u8>) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decoded(Cursor::new(data))?.read_to_end(&mut out)?;
        Ok(out)
    }

    /// Each format by its first bytes, members and frames concatenated; plain text as it
    /// is; a stream cut short is an error after the text decoded before it.
    #[test]
    fn every_format_by_its_first_bytes() {
        let text = b"[Event \"x\"]\n\n1. e4 e5 *\n".repeat(50);
        let gzip = |data: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        };
        let bzip2 = |data: &[u8]| {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        };
        let zstd = |data: &[u8]| zstd::encode_all(data, 1).unwrap();
        let (a, b) = text.split_at(333);
        for encode in [gzip, bzip2, zstd] {
            assert_eq!(read(encode(&text)).unwrap(), text);
            assert_eq!(read([encode(a), encode(b)].concat()).unwrap(), text);
            let whole = encode(&text);
            assert!(read(whole[..whole.len() / 2].to_vec()).is_err());
        }
        assert_eq!(read(text.clone()).unwrap(), text);
        assert_eq!(read(Vec::new()).unwrap(), b"");
    }
}
