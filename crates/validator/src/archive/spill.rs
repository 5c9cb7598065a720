//! The details of every game, written in input order to an anonymous temporary file
//! and read back at the end for the few games whose keys repeat.
//!
//! Where each block of [`BLOCK`] games starts in the file is kept (one byte a game), so
//! that reading back reads only the blocks of the games wanted, not the whole file:
//! the file holds some 260 bytes a game, and of ten million games a few ten thousand
//! are read back.

use super::detail::{put_varint, take_varint};
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// Games to a block: a block is found by its start, and read whole.
const BLOCK: usize = 8;

/// The temporary file, created at the first record.
#[derive(Default)]
pub(crate) struct Spill {
    file: Option<BufWriter<File>>,
    /// The file's path while it still has one (where removing an open file fails).
    path: Option<PathBuf>,
    /// Bytes written.
    len: u64,
    /// Games written.
    games: usize,
    /// Where each block of games starts in the file.
    blocks: Vec<u64>,
    /// One record's head, made before it is written.
    head: Vec<u8>,
}

impl Spill {
    /// Appends one game's record: its file's number, the caller's key and its encoded
    /// details.
    pub(crate) fn push(&mut self, file: u32, caller_key: u64, detail: &[u8]) -> io::Result<()> {
        if self.file.is_none() {
            let file = self.create()?;
            self.file = Some(BufWriter::with_capacity(1 << 16, file));
        }
        let out = self.file.as_mut().expect("created above");
        if self.games.is_multiple_of(BLOCK) {
            self.blocks.push(self.len);
        }
        self.head.clear();
        put_varint(&mut self.head, detail.len() as u64);
        put_varint(&mut self.head, u64::from(file));
        put_varint(&mut self.head, caller_key);
        out.write_all(&self.head)?;
        out.write_all(detail)?;
        self.len += (self.head.len() + detail.len()) as u64;
        self.games += 1;
        Ok(())
    }

    /// Bytes written so far.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Creates the file in the temporary directory and removes its name at once, so
    /// that nothing is left behind however the run ends (where the system allows it).
    fn create(&mut self) -> io::Result<File> {
        static COUNT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "planilla-archive-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        if std::fs::remove_file(&path).is_err() {
            self.path = Some(path);
        }
        Ok(file)
    }

    /// Reads back the games marked in the bit set `wanted` (by their 0-based number in
    /// the run, bit `n % 64` of word `n / 64`), in order, handing each one's number,
    /// file number, caller's key and details to `on`.
    pub(crate) fn read_back(
        &mut self,
        wanted: &[u64],
        mut on: impl FnMut(u32, u32, u64, &[u8]),
    ) -> io::Result<()> {
        let Some(out) = &mut self.file else {
            return Ok(());
        };
        out.flush()?;
        let mut file: &File = out.get_ref();
        let is_wanted = |game: usize| wanted[game / 64] & (1 << (game % 64)) != 0;
        let block_wanted =
            |block: usize| (block * BLOCK..((block + 1) * BLOCK).min(self.games)).any(&is_wanted);
        let mut bytes = Vec::new();
        let mut block = 0;
        while block < self.blocks.len() {
            // Whole words without a wanted game are passed at once.
            if wanted[block * BLOCK / 64] == 0 {
                block = (block * BLOCK / 64 + 1) * 64 / BLOCK;
                continue;
            }
            if !block_wanted(block) {
                block += 1;
                continue;
            }
            // A run of wanted blocks is one read.
            let first = block;
            while block < self.blocks.len() && block_wanted(block) {
                block += 1;
            }
            let from = self.blocks[first];
            let to = self.blocks.get(block).copied().unwrap_or(self.len);
            bytes.resize((to - from) as usize, 0);
            file.seek(SeekFrom::Start(from))?;
            file.read_exact(&mut bytes)?;
            let mut rest = &bytes[..];
            let mut game = first * BLOCK;
            while !rest.is_empty() {
                let bad = || io::Error::other("the archive's temporary file is damaged");
                let len = take_varint(&mut rest).ok_or_else(bad)? as usize;
                let source = take_varint(&mut rest).ok_or_else(bad)? as u32;
                let caller_key = take_varint(&mut rest).ok_or_else(bad)?;
                let detail = rest.get(..len).ok_or_else(bad)?;
                rest = &rest[len..];
                if is_wanted(game) {
                    on(game as u32, source, caller_key, detail);
                }
                game += 1;
            }
        }
        Ok(())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        // Closed first: some systems remove no open file.
        self.file = None;
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
        }
    }
}
