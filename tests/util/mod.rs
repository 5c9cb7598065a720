//! The end-to-end harness shared by `tests/check.rs`, `tests/convert.rs` and
//! `tests/hostile.rs` (ripgrep's `tests/util` is the model): a [`Dir`] that gives a test a
//! fresh directory to write files into, a [`TestCommand`] that runs the real binary with
//! the same cleaned environment for every test and writes standard input from a thread of
//! its own, and [`golden`], the one comparison with the expected files under `corpora/`.

// Each test crate includes this module and uses only part of it.
#![allow(dead_code)]

pub mod hostile;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository's root, where every test runs the binary (paths like
/// `corpora/check/illegal.pgn` are relative to it).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Variables that change what the binary prints: `CI` hides the progress bar, GitHub's
/// own marks a run in Actions. Every test runs without them, on a developer's machine as
/// in CI.
const CLEANED: &[&str] = &["CI", "GITHUB_ACTIONS"];

/// The binary, run from the repository's root in the cleaned environment: the base of
/// [`TestCommand`], and of the tests that drive a child themselves (a closed pipe, a
/// signal in the middle of a run).
pub fn command() -> Command {
    command_for(Path::new(env!("CARGO_BIN_EXE_planilla")), &root())
}

/// `binary` (the binary, or a copy of it placed elsewhere) run from `dir` in the cleaned
/// environment.
pub fn command_for(binary: &Path, dir: &Path) -> Command {
    let mut command = Command::new(binary);
    command.current_dir(dir);
    for name in CLEANED {
        command.env_remove(name);
    }
    command
}

/// One run of the binary: its arguments, and the bytes for its standard input if any.
pub struct TestCommand {
    command: Command,
    stdin: Option<Vec<u8>>,
}

impl TestCommand {
    /// `planilla ARGS...`, with standard input closed.
    pub fn new(args: &[&str]) -> TestCommand {
        let mut command = command();
        command.args(args);
        TestCommand {
            command,
            stdin: None,
        }
    }

    /// Gives `input` on standard input.
    pub fn stdin(mut self, input: &[u8]) -> TestCommand {
        self.stdin = Some(input.to_vec());
        self
    }

    /// Runs the binary to its end and returns its status and both outputs. Standard input
    /// is written from a thread of its own: written here, a large input would wait for
    /// the binary to read while the binary waits for its full output pipe to be read.
    /// A binary that stops reading early (a closed pipe) is no error of the test's.
    pub fn output(mut self) -> Output {
        let Some(input) = self.stdin.take() else {
            return self.command.output().expect("the planilla binary runs");
        };
        let mut child = self
            .command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the planilla binary runs");
        let mut stdin = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().unwrap();
        feeder.join().unwrap();
        out
    }
}

/// `planilla ARGS...` run from the repository's root.
pub fn planilla(args: &[&str]) -> Output {
    TestCommand::new(args).output()
}

/// `planilla ARGS...`, checking that it exits with `exit` (its output shown when not).
pub fn run(args: &[&str], exit: i32) -> Output {
    let out = planilla(args);
    assert_eq!(
        out.status.code(),
        Some(exit),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `planilla ARGS...` run from `dir` (for the files found from the current directory:
/// `planilla.toml`, relative paths).
pub fn planilla_in(dir: &Path, args: &[&str]) -> Output {
    command_for(Path::new(env!("CARGO_BIN_EXE_planilla")), dir)
        .args(args)
        .output()
        .expect("the planilla binary runs")
}

/// `planilla ARGS...` with `input` on standard input.
pub fn planilla_stdin(args: &[&str], input: &[u8]) -> Output {
    TestCommand::new(args).stdin(input).output()
}

/// A directory of one test's own, empty when made: `CARGO_TARGET_TMPDIR/CRATE/NAME`, so
/// that two test crates never share one and a failed run leaves its files to look at.
pub struct Dir {
    path: PathBuf,
}

impl Dir {
    /// A fresh, empty directory named `name` within the test crate's.
    pub fn new(name: &str) -> Dir {
        let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(env!("CARGO_CRATE_NAME"))
            .join(name);
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Dir { path }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `contents` to the file `name` in the directory and returns its path.
    pub fn create(&self, name: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

/// Compares `actual` with `corpora/CORPUS/expected/EXPECTED`, showing both on a
/// difference. With `PLANILLA_BLESS=1` it rewrites the expected file instead, after a
/// deliberate change (then read the diff).
pub fn golden(corpus: &str, expected: &str, actual: &[u8]) {
    let path = root()
        .join("corpora")
        .join(corpus)
        .join("expected")
        .join(expected);
    if std::env::var_os("PLANILLA_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let want = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if want != actual {
        panic!(
            "{} differs:\n--- expected\n{}\n--- actual\n{}",
            path.display(),
            String::from_utf8_lossy(&want),
            String::from_utf8_lossy(actual)
        );
    }
}

/// Fills `dir` with three copies of every `.pgn` file of `corpus` (small files, read
/// whole several at a time) and `1zz-large.pgn`: the file `repeated` written over and over
/// past 300 KiB (streamed in batches), whose name sorts between the copies.
pub fn small_files_and_a_large_one(corpus: &Path, repeated: &Path, dir: &Path) {
    let mut originals: Vec<_> = std::fs::read_dir(corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    originals.sort();
    for round in 0..3 {
        for (k, original) in originals.iter().enumerate() {
            std::fs::copy(original, dir.join(format!("{round}{k:02}.pgn"))).unwrap();
        }
    }
    let text = std::fs::read(repeated).unwrap();
    std::fs::write(
        dir.join("1zz-large.pgn"),
        text.repeat((300 << 10) / text.len() + 1),
    )
    .unwrap();
}
