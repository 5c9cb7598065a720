//! Options and plumbing shared by the subcommands that read games: paths,
//! directories, standard input, encodings, languages, threads, progress.

use clap::Args;
use ignore::WalkBuilder;
use indicatif::{ProgressBar, ProgressStyle};
use planilla_core::san::Lang;
use planilla_parser::Encoding;
use planilla_validator::MoveNotation;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, Mutex};

/// Input options of every subcommand that reads games.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Files or directories (searched recursively for *.pgn, *.pgn.zst, *.pgn.gz,
    /// *.pgn.bz2); `-` or nothing reads standard input.
    pub paths: Vec<PathBuf>,
    /// Text encoding: auto (UTF-8 where valid, else Windows-1252, decided piece by
    /// piece), utf-8, windows-1252 or latin-1.
    #[arg(long, default_value = "auto")]
    pub encoding: Encoding,
    /// Threads that read and check (default: all cores, at most 256); -j1 does all the
    /// work on one thread (a compressed input is decoded on one more). Output is the same
    /// for every number.
    #[arg(short = 'j', long, default_value_t = 0)]
    pub threads: usize,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    /// In directories, read hidden files and the files .gitignore and .ignore leave out
    /// too (files named on the command line are always read).
    #[arg(long)]
    pub no_ignore: bool,
}

/// `path` made absolute and cleaned without looking at the file system: `.` components
/// dropped, each `..` taking off the component before it. Configuration and baseline files
/// name the files they cover by this path, relative to their own directory, so that runs
/// from different directories (`../baseline.json`) agree.
pub fn clean_absolute(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut clean = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    clean
}

/// `--lang`: a language or automatic detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LangChoice(pub Option<Lang>);

impl FromStr for LangChoice {
    type Err = String;

    /// Reads `auto` or a language code.
    fn from_str(s: &str) -> Result<LangChoice, String> {
        if s == "auto" {
            return Ok(LangChoice(None));
        }
        s.parse::<Lang>().map(|l| LangChoice(Some(l))).map_err(|_| {
            format!("unknown language '{s}' (auto, en, es, it, pt, fr, de, nl, figurine)")
        })
    }
}

/// `--notation`: a notation or automatic detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotationChoice(pub Option<MoveNotation>);

impl FromStr for NotationChoice {
    type Err = String;

    /// Reads `auto` or a notation code.
    fn from_str(s: &str) -> Result<NotationChoice, String> {
        if s == "auto" {
            return Ok(NotationChoice(None));
        }
        s.parse::<MoveNotation>()
            .map(|n| NotationChoice(Some(n)))
            .map_err(|_| format!("unknown notation '{s}' (auto, san, lan, iccf, descriptive)"))
    }
}

// Sources and their decoding are the engine's, shared with the Python package.
pub use planilla_engine::decode::Compression;
pub use planilla_engine::{Source, io_reason};

/// Whether a file name is one planilla reads when walking a directory:
/// `*.pgn`, and `*.pgn.zst`, `*.pgn.gz`, `*.pgn.bz2`.
/// The name is compared as bytes: a name that is not UTF-8 (Latin-1 names from old
/// Windows archives) is found too.
fn is_pgn(path: &Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    let name = name.as_encoded_bytes().to_ascii_lowercase();
    [&b".pgn"[..], b".pgn.zst", b".pgn.gz", b".pgn.bz2"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// What the paths on the command line expand to.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The sources to read, in order.
    pub sources: Vec<Source>,
    /// Paths that cannot be read (a missing path, a directory with no PGN, an
    /// unreadable directory or file): named on standard error, exit status 2.
    pub problems: Vec<String>,
    /// Entries of a searched directory that are named like PGN but are not
    /// regular files (a FIFO, a socket, a device): named on standard error and
    /// not read, since opening one may wait forever; the exit status stays.
    pub skipped: Vec<String>,
}

impl Inputs {
    /// Names the problems and the skipped entries on standard error; returns
    /// whether there was a problem.
    pub fn report(&self) -> bool {
        for p in self.problems.iter().chain(&self.skipped) {
            eprintln!("planilla: {p}");
        }
        !self.problems.is_empty()
    }
}

/// Expands the paths into sources, in order: files as given (whatever their
/// kind: a FIFO such as `<(zcat x.pgn.gz)` or `/dev/stdin` is read),
/// directories walked recursively in sorted order, where only regular files
/// (or symbolic links to one) are taken, and, unless `--no-ignore`, neither hidden
/// files nor what `.gitignore`, `.ignore` and git's other exclude files leave out. The
/// sources that could be found are returned whatever went wrong with the others.
pub fn collect_sources(input: &InputArgs) -> Inputs {
    let mut found = Inputs::default();
    if input.paths.is_empty() {
        found.sources.push(Source::Stdin);
    }
    for path in &input.paths {
        if path.as_os_str() == "-" {
            found.sources.push(Source::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Err(e) => found
                .problems
                .push(format!("{}: {}", path.display(), io_reason(&e))),
            Ok(meta) if meta.is_dir() => {
                let before = found.sources.len();
                let seen = Arc::new(Mutex::new(HashSet::new()));
                walk(path, !input.no_ignore, &mut found, &seen);
                if found.sources.len() == before {
                    found.problems.push(format!(
                        "{}: directory holds no .pgn file (nor .pgn.zst, .pgn.gz, .pgn.bz2){}",
                        path.display(),
                        if input.no_ignore {
                            ""
                        } else {
                            " that is not hidden or ignored (--no-ignore reads them)"
                        }
                    ));
                }
            }
            Ok(_) => found.sources.push(Source::File(path.clone())),
        }
    }
    found
}

/// Walks `dir` in sorted order (depth first, a directory's entries sorted by name),
/// taking the PGN files found; with `filter`, as ripgrep and ruff walk a repository
/// (the `ignore` crate: hidden files and directories, `.gitignore` inside a git
/// repository, `.ignore`, git's exclude files). Symbolic links are followed by hand
/// rather than by the walker, which counts the named directory's own parents as
/// ancestors and would not enter a link back to one of them: here each real directory
/// is entered once, whichever way it is reached (`seen`), which also ends symlink loops.
fn walk(dir: &Path, filter: bool, found: &mut Inputs, seen: &Arc<Mutex<HashSet<PathBuf>>>) {
    let Ok(real) = std::fs::canonicalize(dir) else {
        found
            .problems
            .push(format!("{}: cannot resolve directory", dir.display()));
        return;
    };
    if !seen.lock().expect("not poisoned").insert(real) {
        return;
    }
    // Directories whose real path cannot be told, found while filtering.
    let unresolved = Arc::new(Mutex::new(Vec::new()));
    let mut builder = WalkBuilder::new(dir);
    builder
        .standard_filters(filter)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b));
    {
        let (seen, unresolved) = (Arc::clone(seen), Arc::clone(&unresolved));
        builder.filter_entry(move |entry| {
            // A directory already walked (through a link) is not walked again.
            if entry.depth() == 0 || !entry.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            match std::fs::canonicalize(entry.path()) {
                Ok(real) => seen.lock().expect("not poisoned").insert(real),
                Err(_) => {
                    unresolved.lock().expect("not poisoned").push(format!(
                        "{}: cannot resolve directory",
                        entry.path().display()
                    ));
                    false
                }
            }
        });
    }
    for entry in builder.build() {
        let entry = match entry {
            Ok(entry) if entry.depth() == 0 => continue,
            Ok(entry) => entry,
            // A directory that cannot be read, or a PGN file whose kind cannot be told;
            // an entry of no interest that cannot be looked at is passed over. A bad
            // ignore file is not the archive's problem: it is passed over too.
            Err(e) => {
                if let (Some(path), Some(error)) = (error_path(&e), e.io_error())
                    && (path.is_dir() || is_pgn(path))
                {
                    found
                        .problems
                        .push(format!("{}: {}", path.display(), io_reason(error)));
                }
                continue;
            }
        };
        found
            .problems
            .append(&mut unresolved.lock().expect("not poisoned"));
        let path = entry.path();
        let Some(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            continue;
        } else if kind.is_symlink() {
            // `metadata` follows the link: a link to a regular file is read, a link to a
            // directory walked.
            match std::fs::metadata(path) {
                Ok(meta) if meta.is_dir() => walk(path, filter, found, seen),
                Ok(meta) => take_file(path, &meta.file_type(), found),
                Err(e) if is_pgn(path) => {
                    found
                        .problems
                        .push(format!("{}: {}", path.display(), io_reason(&e)))
                }
                Err(_) => {}
            }
        } else {
            take_file(path, &kind, found);
        }
    }
    found
        .problems
        .append(&mut unresolved.lock().expect("not poisoned"));
}

/// The path an error of the walk is about, if it names one.
fn error_path(e: &ignore::Error) -> Option<&Path> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

/// Takes a file found in a directory when it is named like PGN: read if it is a regular
/// file, else named as skipped.
fn take_file(path: &Path, kind: &std::fs::FileType, found: &mut Inputs) {
    if !is_pgn(path) {
        return;
    }
    if kind.is_file() {
        found.sources.push(Source::File(path.to_path_buf()));
    } else {
        found.skipped.push(format!(
            "{}: skipped: {}, not a regular file (name it on the command line to read it)",
            path.display(),
            file_kind(kind)
        ));
    }
}

/// What a file that is neither a regular file nor a directory is.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        } else if kind.is_socket() {
            return "a socket";
        } else if kind.is_block_device() {
            return "a block device";
        } else if kind.is_char_device() {
            return "a character device";
        }
    }
    let _ = kind;
    "a special file"
}

/// The progress bar as the engine follows a run: its position, and each source that
/// failed named on standard error above it.
pub struct BarProgress<'a>(pub &'a ProgressBar);

impl planilla_engine::drive::Progress for BarProgress<'_> {
    fn read_to(&self, bytes: u64) {
        self.0.set_position(bytes);
    }

    fn failed(&self, message: &str) {
        self.0.suspend(|| eprintln!("planilla: {message}"));
    }
}

/// Shows the games done so far and their rate beside the progress bar.
pub fn show_games(bar: &ProgressBar, games: u64) {
    let secs = bar.elapsed().as_secs_f64().max(1e-3);
    bar.set_message(format!("{games} games, {:.0} games/s", games as f64 / secs));
}

/// A progress bar on standard error for large inputs on a terminal; hidden
/// in pipes, in CI, with `--quiet`, and for small inputs.
pub fn progress_bar(total: Option<u64>, quiet: bool) -> ProgressBar {
    const LARGE: u64 = 4 << 20;
    let on_terminal = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    if quiet || !on_terminal || total.is_some_and(|t| t < LARGE) {
        return ProgressBar::hidden();
    }
    match total {
        Some(t) => {
            let bar = ProgressBar::new(t);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40.cyan/blue} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg} eta {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {bytes} {binary_bytes_per_sec} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        }
    }
}
