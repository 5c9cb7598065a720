//! The details of every game, written in input order to an anonymous temporary file
//! and read back once, at the end, for the few games whose keys repeat.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// The temporary file, created at the first record.
#[derive(Default)]
pub(crate) struct Spill {
    file: Option<BufWriter<File>>,
    /// The file's path while it still has one (where removing an open file fails).
    path: Option<PathBuf>,
    /// Bytes written.
    len: u64,
}

impl Spill {
    /// Appends one game's record: its file's number and its encoded details.
    pub(crate) fn push(&mut self, file: u32, detail: &[u8]) -> io::Result<()> {
        if self.file.is_none() {
            let file = self.create()?;
            self.file = Some(BufWriter::with_capacity(1 << 16, file));
        }
        let out = self.file.as_mut().expect("created above");
        out.write_all(&(detail.len() as u32).to_le_bytes())?;
        out.write_all(&file.to_le_bytes())?;
        out.write_all(detail)?;
        self.len += 8 + detail.len() as u64;
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

    /// Reads every record back in order, handing `wanted` games' (by their 0-based
    /// number in the run) file number and details to `on`; the others are skipped.
    /// Each call reads the file from its start.
    pub(crate) fn read_back(
        &mut self,
        wanted: impl Fn(u32) -> bool,
        mut on: impl FnMut(u32, u32, &[u8]),
    ) -> io::Result<()> {
        let Some(out) = &mut self.file else {
            return Ok(());
        };
        out.flush()?;
        let mut file: &File = out.get_ref();
        file.seek(SeekFrom::Start(0))?;
        let mut input = BufReader::with_capacity(1 << 16, file);
        let mut head = [0u8; 8];
        let mut detail = Vec::new();
        let mut game = 0u32;
        let mut read = 0u64;
        while read < self.len {
            input.read_exact(&mut head)?;
            let len = u32::from_le_bytes(head[..4].try_into().expect("4 bytes"));
            let source = u32::from_le_bytes(head[4..].try_into().expect("4 bytes"));
            if wanted(game) {
                detail.resize(len as usize, 0);
                input.read_exact(&mut detail)?;
                on(game, source, &detail);
            } else {
                input.seek_relative(i64::from(len))?;
            }
            read += 8 + u64::from(len);
            game += 1;
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
