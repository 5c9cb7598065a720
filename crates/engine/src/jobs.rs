//! The per-game jobs of `check`, `fix` and `convert`, the same under every front end: what
//! the pipeline does to one game ([`Job`]), with the per-thread state each keeps (a
//! [`Checker`], a [`Fixer`], a [`Converter`]) and the result of a game planilla failed
//! on. A front end adds what its own output needs of a game ([`CheckJob::keep`]: the
//! binary's HTML report keeps the game's text) and turns the results into its reports.

use crate::pipeline::Job;
use planilla_converter::{
    Conversion, Converter, FixOptions, Fixed, Fixer, Options, OutputEncoding,
};
use planilla_core::Move;
use planilla_parser::Game;
use planilla_validator::archive::{GameRecord, Shard};
use planilla_validator::trf::{Judged, TrfCheck};
use planilla_validator::{Checker, Config, Finding, GameStats, internal_error};
use std::sync::Arc;

/// What a shard of a `check` run divides the games by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ShardBy {
    /// The game's index in its file, modulo the shards' number.
    #[default]
    Index,
    /// The archive keys (with [`CheckJob::archive`]): every copy of a game, and every
    /// game of one Event and Round, in one shard.
    Moves,
}

/// `check`'s work on each game: the games of the shard replayed, the others left alone.
#[derive(Clone, Debug)]
pub struct CheckJob<K> {
    /// The checker's configuration.
    pub config: Config,
    /// Only this shard's games are checked.
    pub shard: Option<Shard>,
    /// What the shard divides the games by.
    pub shard_by: ShardBy,
    /// Whether each game's archive record is made.
    pub archive: bool,
    /// The tournament report every game is judged against (`--trf`), every game of the
    /// input: a game of another shard is reported with its judgement alone (not
    /// `home`), so that each shard knows which of the TRF's games the input holds.
    pub trf: Option<Arc<TrfCheck>>,
    /// The game's content key, when the front end wants one (the binary's baseline and
    /// SARIF fingerprints); it is also the archive record's caller key.
    pub key: Option<fn(&Game) -> u64>,
    /// What the front end keeps of a game besides its findings, given the game and its
    /// findings, those of its TRF judgement included (the binary's HTML report: the
    /// game's text, when it has a finding the report shows).
    pub keep: K,
}

impl CheckJob<fn(&Game, &[Finding])> {
    /// The job of `config`: every game checked, nothing kept beside the findings.
    pub fn new(config: Config) -> Self {
        CheckJob {
            config,
            shard: None,
            shard_by: ShardBy::Index,
            archive: false,
            trf: None,
            key: None,
            keep: |_, _| {},
        }
    }
}

/// What `check` finds in one game.
#[derive(Debug)]
pub struct GameReport<T> {
    /// The findings, in the order they occur in the game.
    pub findings: Vec<Finding>,
    /// Counts.
    pub stats: GameStats,
    /// The game's content key ([`CheckJob::key`]), when the run wants it.
    pub key: Option<u64>,
    /// What the front end keeps of the game ([`CheckJob::keep`]).
    pub kept: T,
    /// The game's archive record, with [`CheckJob::archive`].
    pub record: Option<GameRecord>,
    /// The game judged against [`CheckJob::trf`].
    pub trf: Option<Judged>,
    /// Whether this run reports the game's own findings (a shard by moves also
    /// judges games whose own findings another shard reports).
    pub home: bool,
}

impl<T: Send, K: Fn(&Game, &[Finding]) -> T + Sync> Job for CheckJob<K> {
    /// `None` for a game of another shard (without [`CheckJob::trf`]).
    type Output = Option<GameReport<T>>;
    /// The checker, and the main line's moves for the archive record.
    type Worker = (Checker, Vec<Move>);

    fn worker(&self) -> (Checker, Vec<Move>) {
        (Checker::new(self.config), Vec::new())
    }

    fn run(&self, worker: &mut (Checker, Vec<Move>), game: &Game) -> Self::Output {
        let (checker, main_line) = worker;
        let by_index = self.shard_by == ShardBy::Index;
        let trf = self.trf.as_ref().map(|trf| trf.judge(game));
        if by_index && self.shard.is_some_and(|s| !s.keeps(game.index())) {
            return trf.map(|trf| self.elsewhere(game, trf));
        }
        let mut findings = Vec::new();
        let (stats, mut record) = if self.archive {
            let stats = checker.check_main_line(game, &mut findings, main_line);
            (stats, Some(GameRecord::new(game, main_line)))
        } else {
            (checker.check(game, &mut findings), None)
        };
        let mut home = true;
        if let (false, Some(shard), Some(r)) = (by_index, self.shard, &mut record) {
            let role = r.shard(shard);
            if !role.judged && !role.home {
                return trf.map(|trf| self.elsewhere(game, trf));
            }
            if !role.judged {
                record = None;
            }
            home = role.home;
            if !home {
                findings.clear();
            }
        }
        let key = self.key.map(|key| key(game));
        if let (Some(key), Some(r)) = (key, &mut record) {
            r.set_caller_key(key);
        }
        // What the front end keeps answers for the TRF's findings about the game too
        // (the HTML report shows the game with them).
        let kept = match &trf {
            Some(judged) if home && !judged.findings.is_empty() => {
                let all: Vec<Finding> = findings.iter().chain(&judged.findings).cloned().collect();
                (self.keep)(game, &all)
            }
            _ => (self.keep)(game, &findings),
        };
        Some(GameReport {
            findings,
            stats,
            key,
            kept,
            record,
            trf,
            home,
        })
    }

    /// A game planilla failed on is one `internal-error` finding naming it.
    fn failed(&self, game: &Game, panic: &str) -> Self::Output {
        let message = format!("planilla failed on this game ({panic}); please report it");
        let findings = vec![internal_error(game, message)];
        Some(GameReport {
            kept: (self.keep)(game, &findings),
            findings,
            stats: GameStats::default(),
            key: self.key.map(|key| key(game)),
            record: None,
            // The judge looks at the tags and the tokens only: a panic in the replay
            // leaves it the game to judge (and a panic of its own, no judgement).
            trf: self.trf.as_ref().and_then(|trf| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| trf.judge(game))).ok()
            }),
            // Under a shard by moves the game's shard is unknown: the first reports it.
            home: self.shard_by == ShardBy::Index || self.shard.is_none_or(|s| s.k == 0),
        })
    }
}

impl<T, K: Fn(&Game, &[Finding]) -> T> CheckJob<K> {
    /// The report of a game another shard reports: its TRF judgement alone.
    fn elsewhere(&self, game: &Game, trf: Judged) -> GameReport<T> {
        GameReport {
            findings: Vec::new(),
            stats: GameStats::default(),
            key: None,
            kept: (self.keep)(game, &[]),
            record: None,
            trf: Some(trf),
            home: false,
        }
    }
}

/// `fix`'s work on each game.
#[derive(Clone, Debug)]
pub struct FixJob {
    /// How games are fixed.
    pub options: FixOptions,
    /// `fix --trf`: the tournament report whose results a game takes where its own
    /// differ and the record does not decide another.
    pub trf: Option<Arc<TrfCheck>>,
}

impl Job for FixJob {
    type Output = Fixed;
    type Worker = Fixer;

    fn worker(&self) -> Fixer {
        Fixer::new(self.options)
    }

    fn run(&self, fixer: &mut Fixer, game: &Game) -> Fixed {
        let trf = self.trf.as_ref().and_then(|trf| trf.judge(game).trf_result);
        fixer.fix_with(game, trf)
    }

    fn failed(&self, game: &Game, panic: &str) -> Fixed {
        Fixed::failed(game, panic)
    }
}

/// `convert`'s work on each game.
#[derive(Clone, Copy, Debug)]
pub struct ConvertJob {
    /// How games are converted.
    pub options: Options,
    /// The output's encoding.
    pub encoding: OutputEncoding,
}

impl Job for ConvertJob {
    type Output = Conversion;
    type Worker = Converter;

    fn worker(&self) -> Converter {
        Converter::new(self.options)
    }

    fn run(&self, converter: &mut Converter, game: &Game) -> Conversion {
        converter.convert_and_encode(game, self.encoding)
    }

    fn failed(&self, game: &Game, panic: &str) -> Conversion {
        Conversion::failed(game, self.encoding, panic)
    }
}
