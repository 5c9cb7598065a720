//! `planilla.games`: the games of the sources one at a time, each with its tags, its
//! main line as SAN and UCI, and its findings, so that a python-chess user can hand the
//! legal games on. The sources are read by the engine's pipeline on the calling thread,
//! as the binary reads them, one game a batch: memory stays that of one game.

use crate::py_values;
use crate::run::Settings;
use crate::source::{Source, SourceError};
use crate::stream::next_detached;
use planilla_core::san::Lang;
use planilla_core::unwinnable::{Budget, Solver};
use planilla_core::{Color, GameEnd, Position, Validation};
use planilla_engine::pipeline::{BatchConfig, Job};
use planilla_engine::pulled::{Pulled, Threads};
use planilla_parser::{Game, TokenKind};
use planilla_validator::{
    Checker, Code, Config, Finding, PlayedMove, SOLVER_BUDGET, internal_error,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex};

/// One game as `games` hands it on, before it becomes a dict.
struct GameRecord {
    file: String,
    index: u64,
    tags: Vec<(String, String)>,
    fen: Option<String>,
    san: Vec<String>,
    uci: Vec<String>,
    legal: bool,
    /// The last position the main line reached, as FEN (None for an invalid FEN tag or
    /// a skipped variant).
    final_fen: Option<String>,
    /// Whether that position is dead (Laws 5.2.2: no sequence of legal moves ends in
    /// checkmate; a checkmate or stalemate is not), and whether White and Black can still
    /// mate from it (a checkmate: the side that gave it; a stalemate: neither).
    dead: Option<bool>,
    can_mate: Option<[bool; 2]>,
    findings: Vec<Finding>,
}

/// Where the iteration is: the sources left, and the games of the current one.
struct Cursor {
    sources: Vec<Source>,
    next_source: usize,
    /// The current source's name, and its games.
    current: Option<(String, Pulled<Describe>)>,
    settings: Settings,
    describe: Arc<Describe>,
}

impl Cursor {
    /// The next game of the sources, or `None` after the last.
    fn next_game(&mut self) -> Result<Option<GameRecord>, SourceError> {
        loop {
            if let Some((name, pulled)) = &mut self.current {
                match pulled.next_batch() {
                    // One game a batch.
                    Some(Ok(batch)) => {
                        if let Some(mut record) = batch.into_iter().next() {
                            record.file = name.clone();
                            return Ok(Some(record));
                        }
                    }
                    Some(Err(e)) => {
                        self.current = None;
                        let source = &self.sources[self.next_source - 1];
                        return Err(SourceError::reading(source, &e));
                    }
                    None => self.current = None,
                }
                continue;
            }
            let Some(source) = self.sources.get(self.next_source) else {
                return Ok(None);
            };
            self.next_source += 1;
            let (builder, input) = source.open(self.settings.encoding, false)?;
            let batching = BatchConfig {
                max_games: 1,
                ..BatchConfig::default()
            };
            let describe = Arc::clone(&self.describe);
            let pulled = Pulled::new(builder, input, batching, &Threads::Caller, describe);
            self.current = Some((source.name(), pulled));
        }
    }
}

/// `games`' work on each game: checked, its main line's moves recorded, described.
struct Describe {
    config: Config,
}

impl Job for Describe {
    /// Its `file` is left for the caller, which knows the source.
    type Output = GameRecord;
    /// The checker, the dead-position solver, and the findings and moves of a game,
    /// reused.
    type Worker = (Checker, Solver, Vec<Finding>, Vec<PlayedMove>);

    fn worker(&self) -> Self::Worker {
        let solver = Solver::new(SOLVER_BUDGET);
        (Checker::new(self.config), solver, Vec::new(), Vec::new())
    }

    fn run(&self, worker: &mut Self::Worker, game: &Game) -> GameRecord {
        let (checker, solver, findings, played) = worker;
        findings.clear();
        played.clear();
        checker.check_recording(game, findings, played);
        let fen = game.tag("FEN").map(|fen| fen.into_owned());
        let skipped = findings.iter().any(|f| f.code == Code::UnsupportedVariant);
        let (san, uci, last) = main_line(game, fen.as_deref(), played);
        let last = last.filter(|_| !skipped);
        // The budgets `check` gives the game (see `SOLVER_BUDGET`).
        solver.set_budget(match &fen {
            Some(_) => Budget::default(),
            None => SOLVER_BUDGET,
        });
        let end = last.map(|pos| final_state(solver, &pos));
        let legal = !findings.iter().any(|f| {
            f.variation.is_empty()
                && matches!(
                    f.code,
                    Code::IllegalMove
                        | Code::AmbiguousMove
                        | Code::InvalidFen
                        | Code::UnsupportedVariant
                )
        });
        GameRecord {
            fen,
            san,
            uci,
            legal,
            final_fen: last.map(|pos| pos.fen()),
            dead: end.map(|(dead, _)| dead),
            can_mate: end.map(|(_, can_mate)| can_mate),
            findings: findings.clone(),
            ..GameRecord::tags_of(game)
        }
    }

    /// A game planilla failed on is one `internal-error` finding naming it, and not legal.
    fn failed(&self, game: &Game, panic: &str) -> GameRecord {
        let message = format!("planilla failed on this game ({panic}); please report it");
        GameRecord {
            findings: vec![internal_error(game, message)],
            ..GameRecord::tags_of(game)
        }
    }
}

impl GameRecord {
    /// The record of `game` with its number and tags only.
    fn tags_of(game: &Game) -> GameRecord {
        GameRecord {
            file: String::new(),
            index: game.index(),
            tags: game
                .tag_pairs()
                .map(|(name, value)| (name.into_owned(), value.into_owned()))
                .collect(),
            fen: None,
            san: Vec::new(),
            uci: Vec::new(),
            legal: false,
            final_fen: None,
            dead: None,
            can_mate: None,
            findings: Vec::new(),
        }
    }
}

/// Whether `pos` is dead, and whether White and Black can still mate from it (see
/// [`GameRecord::dead`]); the same solver and budgets as `check`'s, but without its
/// screen: every position is asked.
fn final_state(solver: &mut Solver, pos: &Position) -> (bool, [bool; 2]) {
    match pos.game_end() {
        Some(GameEnd::Checkmate { winner }) => (false, Color::ALL.map(|c| c == winner)),
        Some(GameEnd::Stalemate) => (false, [false; 2]),
        _ => {
            let can_mate = Color::ALL.map(|color| solver.may_mate(pos, color));
            (can_mate == [false; 2], can_mate)
        }
    }
}

/// The main line's moves that replayed, as English SAN and as UCI, and the position
/// they reach: the moves of `played` written outside every variation, played again from
/// the game's start.
fn main_line(
    game: &Game,
    fen: Option<&str>,
    played: &[PlayedMove],
) -> (Vec<String>, Vec<String>, Option<Position>) {
    let mut depth = 0u32;
    let mut starts = Vec::new();
    for token in game.tokens() {
        match token.kind {
            TokenKind::VariationStart => depth += 1,
            TokenKind::VariationEnd => depth = depth.saturating_sub(1),
            TokenKind::San if depth == 0 => starts.push(token.start),
            _ => {}
        }
    }
    let start = match fen {
        Some(fen) => Position::from_fen(fen, Validation::Strict),
        None => Ok(Position::new()),
    };
    let (mut san, mut uci) = (Vec::new(), Vec::new());
    let Ok(mut position) = start else {
        return (san, uci, None);
    };
    // Chess960 UCI writes castling as the king taking its rook.
    let chess960 = !position.has_standard_castling()
        || game
            .tag("Variant")
            .is_some_and(|v| v.to_ascii_lowercase().contains("960"));
    for m in played
        .iter()
        .filter(|m| starts.binary_search(&m.span.0).is_ok())
    {
        match &m.san {
            Some(written) => {
                let Ok(resolved) = written.resolve(&position) else {
                    break;
                };
                san.push(written.to_string_in(Lang::En));
                uci.push(resolved.to_uci(chess960));
                position.play_unchecked(&resolved);
            }
            None => {
                let Some(passed) = position.pass_turn() else {
                    break;
                };
                san.push("--".to_string());
                uci.push("0000".to_string());
                position = passed;
            }
        }
    }
    (san, uci, Some(position))
}

/// An iterator over games: see `games`.
#[pyclass(module = "planilla")]
pub struct Games {
    cursor: Mutex<Cursor>,
}

#[pymethods]
impl Games {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let record = next_detached(py, &self.cursor, Cursor::next_game)?;
        record.map(|r| to_dict(py, r)).transpose()
    }
}

/// The dict of one game.
fn to_dict<'py>(py: Python<'py>, r: GameRecord) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("file", &r.file)?;
    dict.set_item("game", r.index)?;
    let tags = PyDict::new(py);
    for (name, value) in &r.tags {
        tags.set_item(name, value)?;
    }
    dict.set_item("tags", tags)?;
    dict.set_item("fen", r.fen)?;
    dict.set_item("san", r.san)?;
    dict.set_item("uci", r.uci)?;
    dict.set_item("legal", r.legal)?;
    dict.set_item("final_fen", r.final_fen)?;
    dict.set_item("dead", r.dead)?;
    let can_mate = match r.can_mate {
        Some([white, black]) => {
            let both = PyDict::new(py);
            both.set_item("white", white)?;
            both.set_item("black", black)?;
            Some(both)
        }
        None => None,
    };
    dict.set_item("can_mate", can_mate)?;
    let findings = r
        .findings
        .iter()
        .map(|f| py_values::finding(py, &r.file, f))
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("findings", findings)?;
    Ok(dict)
}

/// Yields the games of `source` one at a time, read as they are needed.
///
/// `source` is as for `check`. Each game is a dict: `file`, `game` (its 1-based index
/// in the file), `tags` (a dict), `fen` (the FEN tag, or None), `san` and `uci` (the
/// main line's moves that replayed, in English SAN and in UCI), `legal` (whether the
/// main line replayed to its end), `final_fen` (the position those moves reach),
/// `dead` (whether it is a dead position: no sequence of legal moves ends in
/// checkmate), `can_mate` (`{"white": bool, "black": bool}`: whether each can still
/// mate from it, the question of a win on time) and `findings` (as `check` reports
/// them).
#[pyfunction]
#[pyo3(signature = (source, *, rules="by-date", lang="auto", encoding="auto", range=None, index=None))]
pub fn games(
    source: &Bound<'_, PyAny>,
    rules: &str,
    lang: &str,
    encoding: &str,
    range: Option<(u64, u64)>,
    index: Option<&str>,
) -> PyResult<Games> {
    let settings = Settings::new(rules, lang, encoding)?;
    Ok(Games {
        cursor: Mutex::new(Cursor {
            sources: Source::ranged(Source::all(source)?, range, index)?,
            next_source: 0,
            current: None,
            settings,
            describe: Arc::new(Describe {
                config: settings.config,
            }),
        }),
    })
}
