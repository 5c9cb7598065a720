//! Baselines: `--write-baseline FILE` records the findings of a run, `--baseline FILE`
//! reports only the findings not recorded (`docs/cli.md`, "Baseline").
//!
//! A finding is recorded by its file, its game's content, its code, ply and variation,
//! never by a line number or a game's index: games inserted before a recorded one, or the
//! games of a file put in another order, leave its findings recognised. The game's content
//! is a hash of its tags (names and values) and its moves, variations and result as
//! written ([`game_key`]), so editing a comment keeps it and changing a move does not. Two
//! equal findings of two equal games in one file are two entries: each absorbs one.

use crate::input::{Source, clean_absolute};
use anyhow::{Context, bail};
use planilla_parser::{Game, TokenKind};
use planilla_validator::Finding;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// The format's version, written in every baseline and required when one is read.
const VERSION: u32 = 1;

/// The content key of `game`: FNV-1a (64 bits) over its tag names and values and its
/// moves, en-passant marks, variation brackets and results, each with its kind, in text
/// order. Comments, NAGs, glyphs, move numbers and spacing are left out. The same on
/// every machine and in every version of planilla that reads baselines of [`VERSION`].
pub fn game_key(game: &Game) -> u64 {
    let mut hash = Fnv::new();
    let bytes = game.bytes();
    for tag in game.tags() {
        hash.write(b"T");
        hash.write(&bytes[tag.name_span()]);
        hash.write(&[0]);
        hash.write(&bytes[tag.value_span()]);
        hash.write(&[0xff]);
    }
    for token in game.tokens() {
        let kind: &[u8] = match token.kind {
            TokenKind::San => b"S",
            TokenKind::EnPassantMark => b"E",
            TokenKind::VariationStart => b"(",
            TokenKind::VariationEnd => b")",
            TokenKind::Result => b"R",
            _ => continue,
        };
        hash.write(kind);
        hash.write(game.token_bytes(token));
        hash.write(&[0xff]);
    }
    hash.0
}

/// A finding's fingerprint for SARIF's `partialFingerprints`, from the same key as the
/// baseline: code scanning keeps tracking the alert when the game moves in its file.
pub fn fingerprint(key: u64, f: &Finding) -> String {
    format!(
        "{key:016x}:{}:{}:{}",
        f.code,
        f.ply.map_or_else(|| "-".to_string(), |p| p.to_string()),
        variation_text(&f.variation)
    )
}

fn variation_text(path: &[u32]) -> String {
    let parts: Vec<String> = path.iter().map(u32::to_string).collect();
    parts.join(".")
}

/// FNV-1a, 64 bits: tiny, stable, and good enough to tell games apart in one file.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// One recorded finding.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    /// The file, from the baseline's directory, with `/` between components.
    file: String,
    /// The game's content key, 16 hexadecimal digits.
    game: String,
    code: String,
    ply: Option<u32>,
    variation: Vec<u32>,
}

impl Entry {
    fn new(file: &str, key: u64, f: &Finding) -> Entry {
        Entry {
            file: file.to_string(),
            game: format!("{key:016x}"),
            code: f.code.to_string(),
            ply: f.ply,
            variation: f.variation.to_vec(),
        }
    }
}

/// A baseline file.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    version: u32,
    findings: Vec<Entry>,
}

/// How a source is named in a baseline: its path from the baseline's directory (where the
/// file lies outside it: its absolute path), `.` components left out; standard input is
/// `-`. Runs from different directories name a file alike.
fn file_name(dir: &Path, source: &Source) -> String {
    let Source::File(path) = source else {
        return "-".to_string();
    };
    let absolute = clean_absolute(path);
    let relative = absolute.strip_prefix(dir).unwrap_or(&absolute);
    let parts: Vec<String> = relative
        .components()
        .filter(|c| !matches!(c, Component::RootDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let joined = parts.join("/");
    if relative.is_absolute() {
        format!("/{joined}")
    } else {
        joined
    }
}

/// The directory a baseline's file names are relative to.
fn dir_of(path: &Path) -> PathBuf {
    let mut dir = clean_absolute(path);
    dir.pop();
    dir
}

/// A baseline read with `--baseline`: the findings it still absorbs.
pub struct Baseline {
    dir: PathBuf,
    remaining: HashMap<Entry, u32>,
    /// The current source's name in the baseline.
    file: String,
}

impl Baseline {
    /// Reads the baseline at `path`.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or is not a baseline of this version.
    pub fn load(path: &Path) -> anyhow::Result<Baseline> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read the baseline", path.display()))?;
        let file: BaselineFile = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a planilla baseline", path.display()))?;
        if file.version != VERSION {
            bail!(
                "{}: a baseline of version {} (this planilla reads version {VERSION}); write it again with --write-baseline",
                path.display(),
                file.version
            );
        }
        let mut remaining = HashMap::new();
        for entry in file.findings {
            *remaining.entry(entry).or_insert(0) += 1;
        }
        Ok(Baseline {
            dir: dir_of(path),
            remaining,
            file: String::new(),
        })
    }

    /// The findings that follow are of `source`.
    pub fn open(&mut self, source: &Source) {
        self.file = file_name(&self.dir, source);
    }

    /// Whether the baseline records `f` (of the game with content `key`), which it then
    /// no longer absorbs.
    pub fn absorbs(&mut self, key: u64, f: &Finding) -> bool {
        match self.remaining.get_mut(&Entry::new(&self.file, key, f)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }
}

/// A baseline being written with `--write-baseline`.
pub struct Recorder {
    path: PathBuf,
    dir: PathBuf,
    entries: Vec<Entry>,
    file: String,
}

impl Recorder {
    /// A recorder that will write `path`.
    pub fn new(path: &Path) -> Recorder {
        Recorder {
            path: path.to_path_buf(),
            dir: dir_of(path),
            entries: Vec::new(),
            file: String::new(),
        }
    }

    /// The findings that follow are of `source`.
    pub fn open(&mut self, source: &Source) {
        self.file = file_name(&self.dir, source);
    }

    /// Records `f` of the game with content `key`.
    pub fn record(&mut self, key: u64, f: &Finding) {
        self.entries.push(Entry::new(&self.file, key, f));
    }

    /// Writes the baseline, sorted so that a new one differs from the old by its changes
    /// alone, one finding a line: through a temporary file renamed over the old one.
    ///
    /// # Errors
    ///
    /// The file cannot be written.
    pub fn write(mut self) -> anyhow::Result<()> {
        self.entries.sort();
        let (staged, file) = crate::staged::Staged::create(&self.path)?;
        let mut out = std::io::BufWriter::new(file);
        let context = || format!("{}: cannot write the baseline", self.path.display());
        writeln!(out, "{{\"version\":{VERSION},\"findings\":[").with_context(context)?;
        for (i, entry) in self.entries.iter().enumerate() {
            let comma = if i + 1 < self.entries.len() { "," } else { "" };
            let line = serde_json::to_string(entry).expect("an entry is JSON");
            writeln!(out, "{line}{comma}").with_context(context)?;
        }
        writeln!(out, "]}}").with_context(context)?;
        out.into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
            .with_context(context)?;
        staged.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(pgn: &str) -> u64 {
        game_key(&Game::from_bytes(pgn.as_bytes(), Default::default()))
    }

    /// The key follows tags and moves, not comments, numbers, glyphs or spacing.
    #[test]
    fn the_key_is_the_games_content() {
        let base = key("[Event \"e\"]\n[White \"w\"]\n\n1. e4 e5 (1... c5) 2. Nf3 1-0\n");
        for same in [
            "[Event  \"e\"]\n[White \"w\"]\n\n1.e4 e5 (1...c5) 2.Nf3 1-0\n",
            "[Event \"e\"]\n[White \"w\"]\n\n1. e4 {best} e5 $1 (1... c5!?) 2. Nf3 1-0\n",
            "[Event \"e\"]\r\n[White \"w\"]\r\n\r\n1. e4 e5\r\n(1... c5) 2. Nf3 1-0\r\n",
        ] {
            assert_eq!(key(same), base, "{same}");
        }
        for other in [
            "[Event \"f\"]\n[White \"w\"]\n\n1. e4 e5 (1... c5) 2. Nf3 1-0\n",
            "[White \"w\"]\n[Event \"e\"]\n\n1. e4 e5 (1... c5) 2. Nf3 1-0\n",
            "[Event \"e\"]\n[White \"w\"]\n\n1. e4 e5 (1... c6) 2. Nf3 1-0\n",
            "[Event \"e\"]\n[White \"w\"]\n\n1. e4 e5 1... c5 2. Nf3 1-0\n",
            "[Event \"e\"]\n[White \"w\"]\n\n1. e4 e5 (1... c5) 2. Nf3 0-1\n",
        ] {
            assert_ne!(key(other), base, "{other}");
        }
        // Fixed for version 1, so a baseline written today is read tomorrow: FNV-1a of
        // the bytes "Se4\xffR*\xff" (computed apart, in Python).
        assert_eq!(key("1. e4 *"), 0x1bb6_64d7_0fff_7855);
    }

    #[test]
    fn files_are_named_from_the_baselines_directory() {
        let dir = std::path::absolute("archive").unwrap();
        let name = |p: &str| file_name(&dir, &Source::File(PathBuf::from(p)));
        assert_eq!(name("archive/games/a.pgn"), "games/a.pgn");
        assert_eq!(name("./archive/./games/a.pgn"), "games/a.pgn");
        assert_eq!(name("archive/x/../games/a.pgn"), "games/a.pgn");
        assert_eq!(name("/elsewhere/b.pgn"), "/elsewhere/b.pgn");
        assert_eq!(file_name(&dir, &Source::Stdin), "-");
    }
}
