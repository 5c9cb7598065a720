//! `check --trf`: the run-level part of the TRF checks. Each TRF named (on the command
//! line, in `planilla.toml` or an override) is read once; the workers judge each game
//! against the TRF of its file, and this module takes the judgements in input order,
//! marking the pairings that have a game and keeping the findings (their memory is the
//! findings', the TRF's and a mark a pairing) until every game is in: then the games'
//! findings in input order, then each TRF's own (`trf-file`, `trf-missing-game`) at
//! its lines.

use crate::html::GameText;
use crate::input::{Source, io_reason};
use planilla_validator::Finding;
use planilla_validator::trf::{Judged, TrfCheck};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The TRF checks of one run.
#[derive(Default)]
pub struct TrfRun {
    /// Each TRF read, in the order the run first needed it.
    files: Vec<Loaded>,
    by_path: HashMap<PathBuf, usize>,
    /// The games' findings, in input order.
    found: Vec<Placed>,
}

/// One TRF and what its findings need.
struct Loaded {
    check: Arc<TrfCheck>,
    /// Which pairings have a game.
    marked: Vec<bool>,
    /// The TRF as a source (for a baseline).
    source: Source,
    /// The group of settings whose filter its own findings go through: the first that
    /// names it.
    group: usize,
}

/// A TRF finding with what placing it in the report needs.
pub struct Placed {
    /// The group of settings of the file the finding is about.
    pub group: usize,
    /// Its file (the game's, or the TRF for the TRF's own findings).
    pub source: Source,
    /// The game's content key (0 for a TRF's own findings).
    pub key: u64,
    /// The finding.
    pub finding: Finding,
    /// Whether it is the first of its game's findings (a TRF's own: each).
    pub first: bool,
    /// The text of its game, kept for the HTML report, on the first finding of a game.
    pub text: Option<GameText>,
}

impl TrfRun {
    /// The TRF at `path`, read the first time it is asked for (its own findings then go
    /// through the filter of `group`): its number in this run.
    ///
    /// # Errors
    ///
    /// The file cannot be read.
    pub fn load(&mut self, path: &Path, group: usize) -> anyhow::Result<usize> {
        if let Some(&i) = self.by_path.get(path) {
            return Ok(i);
        }
        let shown = shown(path);
        let check = read_trf(path, &shown.display().to_string())?;
        let i = self.files.len();
        self.files.push(Loaded {
            marked: vec![false; check.pairings()],
            check: Arc::new(check),
            source: Source::File(shown),
            group,
        });
        self.by_path.insert(path.to_path_buf(), i);
        Ok(i)
    }

    /// TRF `trf`, for the workers to judge games against.
    pub fn check(&self, trf: usize) -> Arc<TrfCheck> {
        Arc::clone(&self.files[trf].check)
    }

    /// Takes the judgement of a game of the file `source` (group `group`) against TRF
    /// `trf`: its pairings marked, its findings kept when `home` (the run reports the
    /// game's findings), with the game's `text` when the HTML report keeps it.
    #[allow(clippy::too_many_arguments)]
    pub fn take(
        &mut self,
        trf: usize,
        group: usize,
        source: &Source,
        key: u64,
        judged: &Judged,
        home: bool,
        text: Option<&GameText>,
    ) {
        let loaded = &mut self.files[trf];
        for &id in &judged.pairings {
            loaded.marked[id as usize] = true;
        }
        if home {
            let mut text = text.filter(|_| !judged.findings.is_empty()).cloned();
            for (i, finding) in judged.findings.iter().cloned().enumerate() {
                self.found.push(Placed {
                    group,
                    source: source.clone(),
                    key,
                    finding,
                    first: i == 0,
                    text: text.take(),
                });
            }
        }
    }

    /// The findings: the games', in input order, then each TRF's own (its faults,
    /// then one `trf-missing-game` a round) unless `games_only` (a shard other than
    /// the first: the first reports them).
    pub fn finish(self, games_only: bool) -> Vec<Placed> {
        let mut found = self.found;
        if games_only {
            return found;
        }
        for loaded in self.files {
            for finding in loaded
                .check
                .file_findings()
                .into_iter()
                .chain(loaded.check.missing(&loaded.marked))
            {
                found.push(Placed {
                    group: loaded.group,
                    source: loaded.source.clone(),
                    key: 0,
                    finding,
                    first: true,
                    text: None,
                });
            }
        }
        found
    }
}

/// The TRF at `path`, its findings naming it `name`.
///
/// # Errors
///
/// The file cannot be read (`PATH: cannot read the TRF file: REASON`).
pub fn read_trf(path: &Path, name: &str) -> anyhow::Result<TrfCheck> {
    TrfCheck::from_file(path, name).map_err(|e| {
        anyhow::anyhow!(
            "{}: cannot read the TRF file: {}",
            path.display(),
            io_reason(&e)
        )
    })
}

/// How a TRF's path is shown: from the current directory when it is below it (a path
/// from `planilla.toml` is made absolute), else as given.
fn shown(path: &Path) -> PathBuf {
    if path.is_absolute()
        && let Ok(current) = std::env::current_dir()
        && let Ok(relative) = path.strip_prefix(&current)
    {
        return relative.to_path_buf();
    }
    path.to_path_buf()
}
