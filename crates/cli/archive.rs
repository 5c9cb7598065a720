//! `check --archive`: the run-level part of the archive checks. The workers make each
//! game's record ([`planilla_validator::archive::GameRecord`]); this module feeds them
//! to the judge in input order and hands its findings back once every game is in,
//! with what the report needs to filter and place them (the file's group of settings
//! and its source, for a baseline).

use crate::input::Source;
use planilla_validator::archive::{Archive, ArchiveFinding, GameRecord};
use std::collections::HashMap;
use std::io;

/// `--shard-by`: what `--shard K/N` divides the games by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ShardBy {
    /// The game's index in its file, modulo N.
    #[default]
    Index,
    /// The archive keys (needs `--archive`): every copy of a game, and every game of
    /// one Event and Round, in one shard.
    Moves,
}

impl From<ShardBy> for planilla_engine::jobs::ShardBy {
    fn from(by: ShardBy) -> Self {
        match by {
            ShardBy::Index => planilla_engine::jobs::ShardBy::Index,
            ShardBy::Moves => planilla_engine::jobs::ShardBy::Moves,
        }
    }
}

/// The archive of one `check` run.
#[derive(Default)]
pub struct ArchiveRun {
    archive: Archive,
    /// Each file's group of settings (for its filter) and source (for a baseline).
    files: HashMap<String, (usize, Source)>,
}

/// An archive finding with what placing it in the report needs.
pub struct Placed {
    /// The group of settings of the finding's file.
    pub group: usize,
    /// The finding's file.
    pub source: Source,
    /// The finding, with its file's name.
    pub found: ArchiveFinding,
}

impl ArchiveRun {
    /// Notes that the games that follow are of `source`, named `name`, checked with the
    /// settings of group `group`.
    pub fn open(&mut self, name: &str, group: usize, source: &Source) {
        self.files.insert(name.to_string(), (group, source.clone()));
    }

    /// Adds the next game's record, of the file opened last.
    ///
    /// # Errors
    ///
    /// The judge's temporary file cannot be written.
    pub fn push(&mut self, name: &str, record: &GameRecord) -> io::Result<()> {
        self.archive.push(name, record)
    }

    /// The archive findings, in the judge's order (see
    /// [`Archive::finish`](planilla_validator::archive::Archive::finish)).
    ///
    /// # Errors
    ///
    /// The judge's temporary file cannot be read back.
    pub fn finish(self) -> io::Result<Vec<Placed>> {
        let files = self.files;
        Ok(self
            .archive
            .finish()?
            .into_iter()
            .map(|found| {
                let (group, source) = files[&found.file].clone();
                Placed {
                    group,
                    source,
                    found,
                }
            })
            .collect())
    }
}
