//! `convert -o FILE`: the output is written to a temporary file beside `FILE`
//! and renamed over it only when the whole run succeeded, so a failed or
//! interrupted run leaves `FILE` as it was (also when it is the input).
//!
//! The temporary file is removed when the run fails, when a [`Staged`] is
//! dropped without being committed, and on SIGINT, SIGTERM and SIGHUP (Unix):
//! a thread of its own waits for these signals, removes the file and then
//! lets the signal end the process as it would have without the handler (a
//! shell reports 130 for SIGINT, 143 for SIGTERM). Only SIGKILL, which no
//! program can catch, leaves the temporary file behind; `FILE` is untouched
//! then too.

use anyhow::Context;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The temporary files of the run (`fix` writes its output and its rejects at
/// once). The signal thread and [`Staged::commit`] both take this lock, so a
/// signal either removes a temporary file before its rename or finds the
/// rename done.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An output file being written beside its destination.
pub struct Staged {
    temp: PathBuf,
    dest: PathBuf,
    done: bool,
}

impl Staged {
    /// Creates the temporary file `.NAME.planilla-PID.tmp` beside `dest`.
    ///
    /// # Errors
    ///
    /// When the file cannot be created or the signal handler cannot be set up.
    pub fn create(dest: &Path) -> anyhow::Result<(Staged, File)> {
        remove_on_signals().context("cannot set up signal handling")?;
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = dir.join(format!(".{name}.planilla-{}.tmp", std::process::id()));
        // Created under the lock: a signal now either comes before the file
        // exists or finds it registered.
        let mut pending = pending();
        let file =
            File::create(&temp).with_context(|| format!("cannot create {}", temp.display()))?;
        pending.push(temp.clone());
        drop(pending);
        Ok((
            Staged {
                temp,
                dest: dest.to_path_buf(),
                done: false,
            },
            file,
        ))
    }

    /// Renames the temporary file over the destination.
    ///
    /// # Errors
    ///
    /// When the rename fails (the temporary file is removed then).
    pub fn commit(mut self) -> anyhow::Result<()> {
        let mut pending = pending();
        std::fs::rename(&self.temp, &self.dest).with_context(|| {
            format!(
                "cannot rename {} to {}",
                self.temp.display(),
                self.dest.display()
            )
        })?;
        pending.retain(|p| *p != self.temp);
        self.done = true;
        Ok(())
    }

    /// The destination.
    pub fn dest(&self) -> &Path {
        &self.dest
    }
}

impl Drop for Staged {
    /// Not committed: the temporary file goes, the destination stays as it was.
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let mut pending = pending();
        let _ = std::fs::remove_file(&self.temp);
        pending.retain(|p| *p != self.temp);
    }
}

/// A temporary file of the run's own (`merge`'s copy of standard input): removed when
/// dropped, and on SIGINT, SIGTERM and SIGHUP as the staged files are.
pub struct Scratch {
    path: Option<tempfile::TempPath>,
}

impl Scratch {
    /// Registers `path` (a temporary file) to be removed on a signal.
    ///
    /// # Errors
    ///
    /// When the signal handler cannot be set up.
    pub fn new(path: tempfile::TempPath) -> anyhow::Result<Scratch> {
        remove_on_signals().context("cannot set up signal handling")?;
        pending().push(path.to_path_buf());
        Ok(Scratch { path: Some(path) })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.path.as_deref().expect("kept until dropped")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let mut pending = pending();
        if let Some(path) = self.path.take() {
            pending.retain(|p| p.as_path() != &*path);
            // Removed here, under the lock.
            drop(path);
        }
    }
}

/// Starts, once, the thread that removes the temporary file on SIGINT,
/// SIGTERM or SIGHUP and then ends the process by that signal.
#[cfg(unix)]
fn remove_on_signals() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use std::sync::OnceLock;
    static STARTED: OnceLock<()> = OnceLock::new();
    if STARTED.get().is_some() {
        return Ok(());
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".to_string())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the process ends: no commit can follow.
                let pending = pending();
                for temp in pending.iter() {
                    let _ = std::fs::remove_file(temp);
                }
                // Die by the signal, as the default action would (a shell
                // sees 128 + the signal number); this does not return.
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        })?;
    let _ = STARTED.set(());
    Ok(())
}

/// Elsewhere the temporary file stays after an interrupt (the destination is
/// untouched all the same).
#[cfg(not(unix))]
fn remove_on_signals() -> std::io::Result<()> {
    Ok(())
}
