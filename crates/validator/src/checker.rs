//! The checker a worker owns: it checks one game after another, keeping what the
//! next game can use (the language the letters decided last, the replay's lists).

use crate::by_date::Undecided;
use crate::finding::{Code, Finding};
use crate::repair::{Failure, Repair};
use crate::replay::{Buffers, Letters, MoveNotation, is_lan_game, missing_result_at};
use crate::rules::{Rules, RulesChoice};
use planilla_core::detect::LastVerdict;
use planilla_core::san::{Lang, San};
use planilla_core::unwinnable::{Budget, Solver};
use planilla_core::{Move, Position, Validation};
use planilla_parser::{FindingKind, Game};

/// The budgets of the dead-position solver a [`Checker`] asks (see
/// `planilla_core::unwinnable::Budget`): the defaults (chasolver's, which decide every
/// position of CHA's oracle files) but for the searches' totals, 100,000 nodes instead of
/// 1,000,000 and 16,777,216, and 20,000 reachable positions instead of 200,000. A
/// position that runs out of them is taken as live (an undecided colour may mate): 10 of
/// the 1,163 dead positions of the oracle files, all composed; in exchange no question
/// costs more than about 60 ms, where the full budgets spend up to 2 s on one, and the
/// positions a game really reaches next to a wall (alive, but their mate is long) take a
/// few ms instead of a quarter of a second. These are the budgets of games played from
/// the standard start; a game set up from a FEN, which may be a composed position, gets
/// the full ones ([`Budget::default`]), under which no position of the oracle files is
/// left undecided.
pub const SOLVER_BUDGET: Budget = Budget {
    first_search_nodes_per_ply: 1_000,
    search_nodes_per_ply: 7_000,
    search_nodes: 100_000,
    probe_nodes: 1_000,
    closure_positions: 3_000,
    check_chain_plies: 16,
    wide_closure_positions: 20_000,
    deep_search_nodes: 100_000,
};

/// What the validator checks and how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// The edition of the draw rules, or how to choose it per game.
    pub rules: RulesChoice,
    /// The notation language, or `None` to decide it per game.
    pub lang: Option<Lang>,
    /// The notation (SAN, long algebraic, ICCF numeric, descriptive), or `None` to read
    /// each move in the notation its form is and name the game's in a note.
    pub notation: Option<MoveNotation>,
}

/// Counts about one checked game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Half-moves replayed, in every line.
    pub plies: u64,
    /// The notation language the game was read in.
    pub lang: Option<Lang>,
    /// Whether two languages replay the main line legally with different moves: the
    /// game was read in the first of them, and a `notation-language` finding says so.
    pub lang_ambiguous: bool,
    /// The notation the game was read in: the first other than SAN that one of its moves
    /// is written in, long algebraic when every move is, else SAN.
    pub notation: MoveNotation,
    /// How the main line ended, for tools that rewrite its result (`fix`).
    pub main_end: MainLineEnd,
}

/// How the main line ended where the record itself decides the result: on the board,
/// or by an electronic board's result signal after its moves. Each is the ply and the
/// result it means, as PGN writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MainLineEnd {
    /// The end on the board (mate, stalemate, a dead position, an automatic draw under
    /// the rules in force) and the ply of the move that reached it (0: the starting
    /// position), when the main line was replayed up to it.
    pub board: Option<(u32, &'static str)>,
    /// A DGT result signal ending the moves: the ply of its first placement.
    pub signal: Option<(u32, &'static str)>,
    /// The result gives a win on time to a side that cannot checkmate from the final
    /// position by any legal sequence (Laws 6.9: `timeout-unwinnable`): the game is
    /// drawn.
    pub drawn_on_time: bool,
}

/// A written move that replayed, for tools that rewrite it (the converter): its
/// canonical SAN, not the position (a few bytes a move, however long the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Byte span of the move in the game, an en-passant mark after it included.
    pub span: (u32, u32),
    /// 1-based half-move index of the move along its line.
    pub ply: u32,
    /// The move's canonical SAN with its check or mate mark; `None` for a null move.
    pub san: Option<San>,
    /// The move itself (for writers of other notations); `None` for a null move.
    pub mv: Option<Move>,
}

/// Checks games one after another, keeping its state between them: a worker owns one
/// and reuses it for every game it checks, as a `csv` reader's caller reuses one record.
///
/// The state it keeps changes no finding: it is the language the letters of the last
/// game decided (the replay starts in it, and starts again when a game's letters decide
/// otherwise), the lists the replay fills (kept at their size, so that a worker's
/// games allocate little once the first ones are checked) and the dead-position
/// solver's tables.
///
/// ```
/// use planilla_parser::Game;
/// use planilla_validator::{Checker, Code, Config};
///
/// let mut checker = Checker::new(Config::default());
/// let mut findings = Vec::new();
/// for pgn in ["1. e4 e5 2. Cf3 Cc6 *", "1. d4 Cf6 2. Ag5 e6 *"] {
///     findings.clear();
///     let stats = checker.check(&Game::from_bytes(pgn, Default::default()), &mut findings);
///     assert_eq!(stats.plies, 4);
///     assert_eq!(findings[0].code, Code::NotationLanguage);
/// }
/// ```
#[derive(Debug)]
pub struct Checker {
    config: Config,
    verdict: LastVerdict,
    buffers: Buffers,
    solver: Solver,
}

impl Default for Checker {
    fn default() -> Checker {
        Checker::new(Config::default())
    }
}

impl Checker {
    /// A checker with no game checked yet.
    pub fn new(config: Config) -> Checker {
        Checker {
            config,
            verdict: LastVerdict::new(),
            buffers: Buffers::default(),
            solver: Solver::new(SOLVER_BUDGET),
        }
    }

    /// Checks `game`, appending its findings to `out` in the order they occur.
    pub fn check(&mut self, game: &Game, out: &mut Vec<Finding>) -> GameStats {
        self.check_with(game, out, Recording::Off).0
    }

    /// Like [`Checker::check`], and leaves in `main_line` the main line's moves that
    /// replayed, up to the first that did not (what [`crate::archive`] compares).
    pub fn check_main_line(
        &mut self,
        game: &Game,
        out: &mut Vec<Finding>,
        main_line: &mut Vec<Move>,
    ) -> GameStats {
        main_line.clear();
        self.check_with(game, out, Recording::MainLine(main_line)).0
    }

    /// Like [`Checker::check`], and appends every move that replayed (in every line,
    /// in text order) to `played`.
    pub fn check_recording(
        &mut self,
        game: &Game,
        out: &mut Vec<Finding>,
        played: &mut Vec<PlayedMove>,
    ) -> GameStats {
        self.check_with(game, out, Recording::Played(played)).0
    }

    /// Like [`Checker::check_recording`], and returns the repair search's verdict on the
    /// main line's first illegal or ambiguous move (`None` when every main-line move
    /// replayed, or the one that did not is the game's result or a DGT signal written as
    /// moves). [`Checker::check`] runs the same search, to name a unique repair in that
    /// move's finding; this hands it to the caller, as `fix --repair` needs it.
    ///
    /// ```
    /// use planilla_core::san::Lang;
    /// use planilla_parser::Game;
    /// use planilla_validator::{Checker, Config, Edit, RepairOutcome};
    ///
    /// let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba5 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 *";
    /// let game = Game::from_bytes(pgn, Default::default());
    /// let (mut out, mut played) = (Vec::new(), Vec::new());
    /// let (_, repair) = Checker::default().check_repairing(&game, &mut out, &mut played);
    /// let repair = repair.expect("4. Ba5 is illegal");
    /// assert_eq!((repair.ply, repair.written.as_str()), (7, "Ba5"));
    /// let RepairOutcome::Unique(candidate) = &repair.outcome else { panic!() };
    /// assert_eq!(candidate.edit, Edit::Replaced);
    /// assert_eq!(candidate.san.to_string_in(Lang::En), "Ba4");
    /// // The bytes a repair replaces.
    /// assert_eq!(&pgn[repair.span.0 as usize..repair.span.1 as usize], "Ba5");
    /// assert!(out[0].message.ends_with("if 4. Ba5 is read as 4. Ba4"));
    /// ```
    pub fn check_repairing(
        &mut self,
        game: &Game,
        out: &mut Vec<Finding>,
        played: &mut Vec<PlayedMove>,
    ) -> (GameStats, Option<Repair>) {
        self.check_with(game, out, Recording::Played(played))
    }

    /// Checks `game`, recording the moves that replayed as `recording` asks.
    fn check_with(
        &mut self,
        game: &Game,
        out: &mut Vec<Finding>,
        recording: Recording<'_>,
    ) -> (GameStats, Option<Repair>) {
        let first = out.len();
        let mut checker = GameChecker {
            game,
            config: self.config,
            rules: Rules::default(),
            lang: Lang::En,
            out,
            plies: 0,
            recording,
            letters: Letters::default(),
            lang_ambiguous: false,
            lan_game: false,
            other_read: None,
            desc_lang: None,
            foreign: false,
            main_end: MainLineEnd::default(),
            verdict: &mut self.verdict,
            buffers: &mut self.buffers,
            failure: None,
            solver: &mut self.solver,
            dead_plies: Vec::new(),
            dead_known: false,
            undecided: None,
            max_clock: 0,
        };
        let replayed = checker.run();
        // The search runs once the language is settled, for games with a bad move only.
        let repair = if checker.failure.is_some() {
            checker.repair_failed_move()
        } else {
            None
        };
        let stats = GameStats {
            plies: checker.plies,
            // A descriptive game is in the language of its descriptive moves.
            lang: replayed.then_some(match checker.notation() {
                MoveNotation::Descriptive => checker.desc_lang.unwrap_or(checker.lang),
                _ => checker.lang,
            }),
            lang_ambiguous: checker.lang_ambiguous,
            notation: checker.notation(),
            main_end: checker.main_end,
        };
        let judged = checker.rules;
        if let Some((undecided, at)) = checker.undecided.take()
            && checker.max_clock >= 8
            && self.editions_differ(game, &out[first..], undecided.editions, judged)
        {
            out.insert(at, undecided.note);
        }
        (stats, repair)
    }

    /// Whether checking `game` under any of `editions` but `judged` gives other findings
    /// than `findings` (those of `judged`).
    fn editions_differ(
        &mut self,
        game: &Game,
        findings: &[Finding],
        editions: &[Rules],
        judged: Rules,
    ) -> bool {
        let config = self.config;
        let mut other = Vec::with_capacity(findings.len());
        let others = editions.iter().filter(|&&rules| rules != judged);
        let differ = others.into_iter().any(|&rules| {
            self.config.rules = rules.into();
            other.clear();
            self.check_with(game, &mut other, Recording::Off);
            other != findings
        });
        self.config = config;
        differ
    }
}

/// What a replay records of the moves it plays, for its caller: one field, so that a
/// move played with nothing to record costs one test.
pub(crate) enum Recording<'g> {
    /// Nothing (`check`).
    Off,
    /// Every move that replayed, in every line, in text order (the converter, `fix`).
    Played(&'g mut Vec<PlayedMove>),
    /// The main line's moves of the last replay (the archive checks).
    MainLine(&'g mut Vec<Move>),
}

/// Checks one game and appends its findings (in the order they occur): the state of
/// one [`Checker::check`], its replay's methods spread over the `replay` modules.
pub(crate) struct GameChecker<'g> {
    pub(crate) game: &'g Game,
    pub(crate) config: Config,
    /// The edition of the draw rules this game is judged by (see `by_date`).
    pub(crate) rules: Rules,
    /// The language the game is being read in.
    pub(crate) lang: Lang,
    pub(crate) out: &'g mut Vec<Finding>,
    /// Half-moves replayed so far.
    pub(crate) plies: u64,
    /// What the replay records of the moves it plays, for the caller.
    pub(crate) recording: Recording<'g>,
    /// The piece letters of the moves replayed so far (see [`GameChecker::replay`]).
    pub(crate) letters: Letters,
    /// Two languages read the game legally (see [`GameStats::lang_ambiguous`]).
    pub(crate) lang_ambiguous: bool,
    /// Every move is written in long algebraic (or `--notation lan`): the form is the
    /// game's notation, named once, not a finding of each move.
    pub(crate) lan_game: bool,
    /// The first notation other than SAN a move of this replay was read in.
    pub(crate) other_read: Option<MoveNotation>,
    /// The language of the game's descriptive moves, decided at the first one.
    pub(crate) desc_lang: Option<Lang>,
    /// The move being played was read in another notation: no SAN to judge.
    pub(crate) foreign: bool,
    /// How the main line ended (see [`GameStats::main_end`]).
    pub(crate) main_end: MainLineEnd,
    /// The checker's last verdict of the letters: the first guess of the language.
    pub(crate) verdict: &'g mut LastVerdict,
    /// The checker's lists, for the replay to reuse.
    pub(crate) buffers: &'g mut Buffers,
    /// The main line's move that did not read or resolve in the last replay, for the
    /// repair search (see [`crate::repair`]).
    pub(crate) failure: Option<Failure>,
    /// The checker's dead-position solver.
    pub(crate) solver: &'g mut Solver,
    /// The first dead position the search found in each line (its variation path and
    /// ply) on the first replay, and whether this replay is the second, which knows
    /// them (see `replay::dead`).
    pub(crate) dead_plies: Vec<(Vec<u32>, u32)>,
    pub(crate) dead_known: bool,
    /// What the game's Date left undecided (`--rules by-date`), and where in `out` its
    /// note goes if the editions it allows judge the game differently.
    pub(crate) undecided: Option<(Undecided, usize)>,
    /// The highest half-move clock of any position the replay reached: below 8 no
    /// position can have occurred three times (the editions differ only in repetitions
    /// and in the automatic draws, the 75-move one included).
    pub(crate) max_clock: u32,
}

impl GameChecker<'_> {
    /// A finding of this game at byte `at`, about no move, position or variation:
    /// the findings about those fill them in.
    pub(crate) fn finding(&self, code: Code, at: usize, message: String) -> Finding {
        Finding::in_game(code, self.game, at, message)
    }

    /// Reports a finding about the whole game (or its tags) at byte `at`.
    pub(crate) fn game_note(&mut self, code: Code, at: usize, message: String) {
        self.out.push(self.finding(code, at, message));
    }

    pub(crate) fn tag_position(&self, name: &str) -> Option<usize> {
        let game = self.game;
        game.tags()
            .iter()
            .find(|t| game.bytes()[t.name_span()].eq_ignore_ascii_case(name.as_bytes()))
            .map(|t| game.tokens()[t.token as usize].start as usize)
    }

    /// Returns whether the movetext was replayed (not for a skipped variant
    /// or an invalid FEN).
    fn run(&mut self) -> bool {
        let game = self.game;
        if let Some(variant) = game.tag("Variant")
            && !supported_variant(&variant)
        {
            let at = self.tag_position("Variant").unwrap_or(0);
            self.game_note(
                Code::UnsupportedVariant,
                at,
                format!("variant '{variant}' is not standard chess or chess960: game skipped"),
            );
            // Its movetext is not chess as we know it: only how the text was
            // decoded is worth reporting.
            for f in game
                .findings()
                .iter()
                .filter(|f| f.kind == FindingKind::Encoding)
            {
                self.game_note(Code::Encoding, f.span.start as usize, f.message.to_string());
            }
            return false;
        }

        // A game that ends with `0-0` or `+/-` may end with a result the tokenizer read
        // as a move or a glyph: the parser's word that its result is missing waits for
        // the replay (see `replay::scoresheet`).
        let held = game
            .findings()
            .iter()
            .any(|f| f.kind == FindingKind::Syntax)
            .then(|| missing_result_at(game))
            .flatten();
        for f in game.findings() {
            if held == Some(f.span.start as usize) && f.kind == FindingKind::Syntax {
                continue;
            }
            let code = match f.kind {
                FindingKind::Encoding => Code::Encoding,
                FindingKind::Syntax | FindingKind::GameTooLarge => Code::SyntaxError,
            };
            self.game_note(code, f.span.start as usize, f.message.to_string());
        }
        crate::tags::check_tags(game, self.out);
        let (rules, undecided) = crate::by_date::rules_for(self.config.rules, game);
        self.rules = rules;
        self.undecided = undecided.map(|u| (u, self.out.len()));

        let set_up = self.tag_position("FEN").is_some();
        self.solver.set_budget(if set_up {
            Budget::default()
        } else {
            SOLVER_BUDGET
        });
        let start = match game.tag("FEN") {
            None => Position::new(),
            Some(fen) => match Position::from_fen(&fen, Validation::Strict) {
                Ok(pos) => pos,
                Err(e) => {
                    let at = self.tag_position("FEN").unwrap_or(0);
                    self.game_note(Code::InvalidFen, at, format!("{e}: '{fen}'"));
                    return false;
                }
            },
        };

        self.lan_game = match self.config.notation {
            Some(notation) => notation == MoveNotation::Lan,
            None => is_lan_game(game),
        };
        match self.config.lang {
            Some(lang) => {
                self.lang = lang;
                let at = self.out.len();
                self.replay(start);
                if let Some(note) = self.language_note() {
                    self.out.insert(at, note);
                }
            }
            None => self.replay_detecting(start),
        }
        true
    }
}

/// Variant tag values that mean standard chess or Chess960.
fn supported_variant(name: &str) -> bool {
    let n: String = name
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    matches!(
        n.as_str(),
        "" | "standard"
            | "chess"
            | "normal"
            | "fromposition"
            | "chess960"
            | "960"
            | "fischerandom"
            | "fischerrandom"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checker moves into the worker thread that owns it, and one checker gives the
    /// findings of a checker per game, game after game.
    #[test]
    fn a_worker_owns_a_checker_and_reuses_it() {
        let games = [
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Re1 (5. d3) 5... b5 *",
            "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. O-O Cf6 5. Te1 (5. d3 b5) 5... b5 6. Rd2 *",
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. Rb1 *",
            "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 1-0",
        ];
        let config = Config::default();
        let worker = std::thread::spawn(move || {
            let mut checker = Checker::new(config);
            let mut results = Vec::new();
            for game in games.iter().cycle().take(3 * games.len()) {
                let (mut out, mut played) = (Vec::new(), Vec::new());
                let game = Game::from_bytes(*game, Default::default());
                let stats = checker.check_recording(&game, &mut out, &mut played);
                results.push((out, played, stats));
            }
            results
        });
        let results = worker.join().expect("the worker finished");
        for (game, result) in games.iter().cycle().zip(results) {
            let (mut out, mut played) = (Vec::new(), Vec::new());
            let game = Game::from_bytes(*game, Default::default());
            let stats = Checker::new(config).check_recording(&game, &mut out, &mut played);
            assert_eq!(result, (out, played, stats));
        }
    }

    /// `--rules by-date` (the default) notes an undecided Date only when the editions
    /// it allows judge the game differently.
    #[test]
    fn an_undecided_date_is_noted_only_when_the_editions_differ() {
        let notes = |tags: &str, moves: &str| {
            let pgn = format!("{tags}\n\n{moves}\n");
            let game = Game::from_bytes(pgn.as_bytes(), Default::default());
            let mut out = Vec::new();
            Checker::default().check(&game, &mut out);
            out.iter()
                .filter(|f| f.code == crate::Code::RulesByDate)
                .count()
        };
        let shuffle = |times: usize| "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(times);
        let quiet = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0";
        // No repetition at all: every edition says the same.
        assert_eq!(notes("[Event \"e\"]", quiet), 0);
        // A threefold repetition without castling rights changing: the same claim in
        // every edition.
        assert_eq!(
            notes("[Date \"????.??.??\"]", &format!("{} 1/2-1/2", shuffle(2))),
            0
        );
        // Fivefold, played on: an end under fide-2023 only.
        let five = format!("{}3. e4 1-0", shuffle(4));
        assert_eq!(notes("[Event \"e\"]", &five), 1);
        assert_eq!(notes("[Date \"????.??.??\"]", &five), 1);
        // 2014 with the month unknown: fide-2009 or fide-2023, which differ here...
        assert_eq!(notes("[Date \"2014.??.??\"]", &five), 1);
        // ...but 2009 allows fide-2005 and fide-2009, which do not.
        assert_eq!(notes("[Date \"2009.??.??\"]", &five), 0);
        // A dated game is never noted.
        assert_eq!(notes("[Date \"2020.01.01\"]", &five), 0);
        // Castling rights lost by a rook's move in a repetition, castling blocked at the
        // start: the same position three times two plies earlier under fide-2005, where
        // castling counts only when it is possible now.
        let castling = "[FEN \"4k3/8/8/8/8/8/8/4K1NR w K - 0 1\"]";
        let moves = "1. Rh2 Kd8 2. Rh1 Ke8 3. Rh2 Kd8 4. Rh1 Ke8 5. Rh2 Kd8 6. Rh1 Ke8 1/2-1/2";
        assert_eq!(notes(castling, moves), 1);
        assert_eq!(
            notes(&format!("{castling}\n[Date \"2009.??.??\"]"), moves),
            1
        );
        assert_eq!(
            notes(&format!("{castling}\n[Date \"2014.??.??\"]"), moves),
            0
        );
    }
}
