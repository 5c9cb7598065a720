//! Replaying one game (and every variation) and reporting what is wrong.

use crate::finding::{Code, Finding};
use crate::rules::Rules;
use planilla_core::detect::{
    Detection, by_letters, by_letters_used, candidates, detect, first_letter, last_letters_verdict,
    letters_of, same_reading,
};
use planilla_core::san::{
    CaptureMark, CheckMark, Disambiguation, Forms, Lang, Notation, San, SanError, SanKind,
    SanParseError, Suffix,
};
use planilla_core::{Color, Move, MoveKind, MoveList, Position, Square, Validation};
use planilla_parser::encoding::decode;
use planilla_parser::{FindingKind, Game, Token, TokenKind};

/// What the validator checks and how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// The edition of the draw rules.
    pub rules: Rules,
    /// The notation language, or `None` to decide it per game.
    pub lang: Option<Lang>,
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
}

/// A written move that replayed, for tools that rewrite it (the converter): its
/// canonical SAN, not the position (a few bytes a move, however long the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Byte span of the move in the game, an en-passant mark after it included.
    pub span: (u32, u32),
    /// The move's canonical SAN with its check or mate mark; `None` for a null move.
    pub san: Option<San>,
}

/// How a line of play ended on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Checkmate(Color),
    Stalemate,
    DeadPosition,
    Fivefold,
    SeventyFive,
}

impl End {
    fn describe(self) -> &'static str {
        match self {
            End::Checkmate(_) => "checkmate",
            End::Stalemate => "stalemate",
            End::DeadPosition => "a dead position (neither side can mate)",
            End::Fivefold => "fivefold repetition (an automatic draw)",
            End::SeventyFive => "the 75-move rule (an automatic draw)",
        }
    }

    /// The only result the final position allows.
    fn result(self) -> &'static str {
        match self {
            End::Checkmate(Color::White) => "1-0",
            End::Checkmate(Color::Black) => "0-1",
            _ => "1/2-1/2",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Moves are replayed.
    Live,
    /// A move failed (illegal, ambiguous, or after the end): the rest of the
    /// line is not replayed. `at_last_move` is true while the failed move is
    /// still the line's last token, so a variation after it branches from
    /// the line's position.
    Stopped { at_last_move: bool },
}

/// One line of play: the main line or a variation.
struct Line {
    pos: Position,
    /// The position before the last move played (variations branch from it).
    prev: Option<Position>,
    /// Half-moves from the game's start to the current position.
    ply: u32,
    path: Vec<u32>,
    children: u32,
    state: State,
    /// How, at which ply, after which move and in which position the game
    /// ended on the board in this line.
    end: Option<(End, u32, String, Position)>,
    /// Whether this line's end has been reported for a later move.
    end_reported: bool,
    /// A variation skipped because its start position is unknown.
    skipped: bool,
}

/// The repetition keys of one line. A variation does not copy its parent's keys: it
/// counts through them (`base`), since the parent does not move while the variation is
/// read. A long run of reversible moves keeps a count per key, so counting repetitions
/// stays linear in the number of moves.
#[derive(Default)]
struct History {
    /// The keys of this line's positions, in order, from its first (a variation's start).
    keys: Vec<u64>,
    /// First key that may recur: after the last irreversible move.
    since: usize,
    /// `since` before the last move, and `None` when history restarted there (a null
    /// move: a variation replacing it starts a history of its own).
    prev_since: Option<usize>,
    /// Occurrences of each key in `keys[since..]`, kept once that run is long.
    counts: Option<KeyCounts>,
    /// `counts` before the last move, when that move was irreversible.
    prev_counts: Option<KeyCounts>,
    /// The parent's keys `[start..end]` that come before this line's own keys.
    base: Option<Base>,
    /// A filter of the keys in `keys[since..]`, one for each parity of their index
    /// (the side to move): bit `key >> 58` of `seen[i % 2]` is set for every key at
    /// index `i`. A clear bit proves a position new without a scan (see
    /// [`History::may_recur`]).
    seen: [u64; 2],
}

#[derive(Clone, Copy)]
struct Base {
    start: usize,
    end: usize,
}

/// A run of reversible moves this long keeps a count per key.
const COUNTED_RUN: usize = 48;

type KeyCounts = std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<KeyHasher>>;

/// Repetition keys are Zobrist keys, already uniformly spread: they hash to themselves.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

impl History {
    /// A history starting at one position, with room for `capacity` keys.
    fn starting(key: u64, capacity: usize) -> History {
        let mut keys = Vec::with_capacity(capacity.max(1));
        keys.push(key);
        History {
            keys,
            seen: [seen_bit(key), 0],
            ..History::default()
        }
    }

    /// A variation's history, branching from the position `before_last` (before this
    /// line's last move) or from the current position, whose key is `start_key`; its
    /// keys go into `keys` (a list of an earlier variation, reused: cleared here).
    fn branch(&self, before_last: bool, start_key: u64, mut keys: Vec<u64>) -> History {
        // The start position is the variation's first key; the base holds the parent's
        // keys before it that may recur.
        let len = self.keys.len();
        let base = if before_last {
            self.prev_since.map(|start| Base {
                start,
                end: len - 2,
            })
        } else {
            Some(Base {
                start: self.since,
                end: len - 1,
            })
        };
        keys.clear();
        keys.reserve(16);
        keys.push(start_key);
        History {
            keys,
            base,
            seen: [seen_bit(start_key), 0],
            ..History::default()
        }
    }

    /// Occurrences of `key` in `keys[start..end]`.
    /// The position counted stands at index `target` (in this line's numbering, past
    /// its last key): only keys an even number of plies before it, four or more, can
    /// be the same position (the same side to move, and a piece that left a square needs
    /// two moves of its side to come back).
    fn count_in(&self, start: usize, end: usize, key: u64, target: usize) -> u32 {
        let len = self.keys.len();
        let counted = if start == self.since {
            self.counts.as_ref().map(|c| (c, len))
        } else if Some(start) == self.prev_since && self.since + 1 == len {
            self.prev_counts.as_ref().map(|c| (c, len - 1))
        } else {
            None
        };
        let scan = |keys: &[u64]| keys.iter().filter(|&&k| k == key).count() as u32;
        match counted {
            // The counts cover `keys[start..upto]`, a key or two more than asked.
            Some((counts, upto)) if end <= upto && upto - end <= 2 => {
                counts.get(&key).copied().unwrap_or(0) - scan(&self.keys[end..upto])
            }
            _ => {
                let Some(mut hi) = target.checked_sub(4).map(|t| t.min(end.wrapping_sub(1))) else {
                    return 0;
                };
                if (target - hi) % 2 == 1 {
                    let Some(h) = hi.checked_sub(1) else { return 0 };
                    hi = h;
                }
                if end == 0 || hi < start {
                    return 0;
                }
                self.keys[start..=hi]
                    .iter()
                    .rev()
                    .step_by(2)
                    .filter(|&&k| k == key)
                    .count() as u32
            }
        }
    }

    /// Records the position after a move: its key, and whether the move was
    /// irreversible (a capture or a pawn move) or a null move (history restarts).
    #[inline(always)]
    fn push(&mut self, key: u64, restart: Restart) {
        // Nearly every move, inlined: reversible in a short run without counts, or
        // irreversible after one.
        let len = self.keys.len();
        if restart != Restart::Null
            && self.counts.is_none()
            && self.prev_counts.is_none()
            && len < self.keys.capacity()
            && len + 1 - self.since < COUNTED_RUN
        {
            self.prev_since = Some(self.since);
            // Branch-free: an irreversible move starts the run (and its filter) anew.
            let keep = u64::from(restart != Restart::Irreversible).wrapping_neg();
            self.seen[0] &= keep;
            self.seen[1] &= keep;
            if restart == Restart::Irreversible {
                self.since = len;
            }
            self.seen[len & 1] |= seen_bit(key);
            self.keys.push(key);
            return;
        }
        self.push_slow(key, restart);
    }

    /// Whether `key`, about to be pushed, may stand in `keys[since..]` at an index of
    /// its own parity: `false` proves that it does not.
    #[inline]
    fn may_recur(&self, key: u64) -> bool {
        self.seen[self.keys.len() & 1] & seen_bit(key) != 0
    }

    #[inline(never)]
    fn push_slow(&mut self, key: u64, restart: Restart) {
        self.prev_counts = None;
        if restart != Restart::No {
            self.seen = [0, 0];
        }
        self.seen[self.keys.len() & 1] |= seen_bit(key);
        match restart {
            Restart::No => {
                self.prev_since = Some(self.since);
                if let Some(counts) = &mut self.counts {
                    *counts.entry(key).or_insert(0) += 1;
                }
            }
            Restart::Irreversible => {
                self.prev_since = Some(self.since);
                self.prev_counts = self.counts.take();
                self.since = self.keys.len();
            }
            Restart::Null => {
                self.prev_since = None;
                self.counts = None;
                self.since = self.keys.len();
                self.base = None;
            }
        }
        self.keys.push(key);
        if self.counts.is_none() && self.keys.len() - self.since >= COUNTED_RUN {
            self.count_run();
        }
    }

    /// Starts counting the keys of the current run, once it is long.
    #[cold]
    fn count_run(&mut self) {
        let mut counts = KeyCounts::default();
        for &k in &self.keys[self.since..] {
            *counts.entry(k).or_insert(0) += 1;
        }
        self.counts = Some(counts);
    }
}

/// The bit of `key` in [`History::seen`].
#[inline]
fn seen_bit(key: u64) -> u64 {
    1 << (key >> 58)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Restart {
    No,
    Irreversible,
    Null,
}

/// How often `key` occurred in the history of the line `at` of a stack of lines, its
/// variation's ancestors included, since the last irreversible move.
#[inline]
fn occurrences(histories: &[History], at: usize, key: u64) -> u32 {
    let own = &histories[at];
    // Nothing before the line's own keys to count, and either fewer than four
    // reversible plies since the last capture or pawn move or a key the filter has not
    // seen: no position can have recurred (the common case). One branch, nearly always
    // taken: tested one by one, these conditions mispredicted (measured: the chain
    // cost about 4% of `check -j1`'s CPU time).
    let alone = (own.since != 0) | own.base.is_none();
    if alone & ((own.keys.len() - own.since < 4) | !own.may_recur(key)) {
        return 0;
    }
    // The counted position comes after the line's last key; a variation's first key
    // stands where its base ends.
    let mut target = own.keys.len();
    let mut n = own.count_in(own.since, own.keys.len(), key, target);
    // Every line's keys start with its first position: `since` is 0 until a restart.
    let mut base = if own.since == 0 { own.base } else { None };
    let mut at = at;
    while let Some(b) = base {
        at -= 1;
        let parent = &histories[at];
        target += b.end;
        n += parent.count_in(b.start, b.end, key, target);
        base = if b.start == 0 { parent.base } else { None };
    }
    n
}

/// The piece letters a game's moves use (variations included), collected while it is
/// replayed (see [`planilla_core::detect::letters_of`]).
#[derive(Default)]
struct Letters {
    used: u32,
    figurines: bool,
}

impl Letters {
    fn add(&mut self, (used, figurines): (u32, bool)) {
        self.used |= used;
        self.figurines |= figurines;
    }

    /// The letters of a move [`San::parse`] read from ASCII `text`: the piece letter
    /// first, and the promotion piece after `=` (what `letters_of` finds there).
    #[inline]
    fn add_plain(&mut self, text: &[u8], san: &San) {
        if let SanKind::Normal {
            promotion: Some(_), ..
        } = san.kind
        {
            self.add(letters_of(text));
        } else if let Some(&c) = text.first() {
            self.used |= first_letter(c);
        }
    }
}

/// A written move, for findings about it.
struct Site<'p> {
    /// First byte of the move in the game.
    at: usize,
    /// Its length in bytes (an en-passant mark after it included).
    len: usize,
    ply: u32,
    before: &'p Position,
    path: &'p [u32],
}

/// The first draw-claim chance of a rule on the main line.
struct Chance {
    /// 0: the position the game starts from (set up by a FEN whose half-move clock is
    /// 100 or more).
    ply: u32,
    /// Byte of the completing move (or of the FEN tag).
    at: usize,
    numbered: String,
    san: String,
    fen: String,
    /// Who made the completing move (at the start: the side to move).
    mover: Color,
    later: u32,
}

/// The half-move clock field of a FEN this program wrote.
fn fen_clock(fen: &str) -> &str {
    fen.split(' ').nth(4).unwrap_or("?")
}

/// Results as PGN writes them, normalised (`½-½` reads as `1/2-1/2`).
fn normalise_result(text: &str) -> Option<&'static str> {
    match text.trim() {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "½-½" | "1/2" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    }
}

/// Whether `token` is a check or mate mark on its own (`+`, `++`, `#`).
fn is_check_mark(game: &Game, token: &Token) -> bool {
    token.kind == TokenKind::Glyph && matches!(game.token_bytes(token), b"+" | b"++" | b"#")
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

/// Checks one game and appends its findings (in the order they occur).
pub struct GameChecker<'g> {
    game: &'g Game,
    config: Config,
    lang: Lang,
    out: &'g mut Vec<Finding>,
    plies: u64,
    played: Option<&'g mut Vec<PlayedMove>>,
    /// The piece letters of the moves replayed so far (see [`GameChecker::replay`]).
    letters: Letters,
    /// Two languages read the game legally (see [`GameStats::lang_ambiguous`]).
    lang_ambiguous: bool,
}

/// Checks `game`, appending findings to `out`.
pub fn check_game(game: &Game, config: &Config, out: &mut Vec<Finding>) -> GameStats {
    check_game_recording(game, config, out, None)
}

/// Like [`check_game`], and records every move that replayed (in every
/// line, in text order) into `played` when given.
pub fn check_game_recording(
    game: &Game,
    config: &Config,
    out: &mut Vec<Finding>,
    played: Option<&mut Vec<PlayedMove>>,
) -> GameStats {
    let mut checker = GameChecker {
        game,
        config: *config,
        lang: Lang::En,
        out,
        plies: 0,
        played,
        letters: Letters::default(),
        lang_ambiguous: false,
    };
    let replayed = checker.run();
    GameStats {
        plies: checker.plies,
        lang: replayed.then_some(checker.lang),
        lang_ambiguous: checker.lang_ambiguous,
    }
}

impl GameChecker<'_> {
    #[allow(clippy::too_many_arguments)] // every field of a finding, named at each call
    fn push(
        &mut self,
        code: Code,
        at: usize,
        ply: Option<u32>,
        moved: Option<(&str, &str)>,
        message: String,
        fen: Option<String>,
        variation: &[u32],
    ) {
        let finding = self.finding(code, at, ply, moved, message, fen, variation);
        self.out.push(finding);
    }

    /// A finding of this game at byte `at`.
    #[allow(clippy::too_many_arguments)] // as `push`
    fn finding(
        &self,
        code: Code,
        at: usize,
        ply: Option<u32>,
        moved: Option<(&str, &str)>,
        message: String,
        fen: Option<String>,
        variation: &[u32],
    ) -> Finding {
        let location = self.game.location(at);
        Finding {
            code,
            game: self.game.index(),
            ply,
            line: location.line,
            column: location.column,
            numbered_move: moved.map(|(numbered, _)| numbered.to_string()),
            san: moved.map(|(_, san)| san.to_string()),
            message,
            fen,
            variation: variation.to_vec(),
        }
    }

    fn game_note(&mut self, code: Code, at: usize, message: String) {
        self.push(code, at, None, None, message, None, &[]);
    }

    fn tag_position(&self, name: &str) -> Option<usize> {
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

        for f in game.findings() {
            let code = match f.kind {
                FindingKind::Encoding => Code::Encoding,
                FindingKind::Syntax | FindingKind::GameTooLarge => Code::SyntaxError,
            };
            self.game_note(code, f.span.start as usize, f.message.to_string());
        }

        let start = match game.tag("FEN") {
            None => Position::new(),
            Some(fen) => match Position::from_fen(&fen, Validation::Strict) {
                Ok(pos) => pos,
                Err(e) => {
                    let at = self.tag_position("FEN").unwrap_or(0);
                    self.push(
                        Code::InvalidFen,
                        at,
                        None,
                        None,
                        format!("{e}: '{fen}'"),
                        None,
                        &[],
                    );
                    return false;
                }
            },
        };

        match self.config.lang {
            Some(lang) => {
                self.lang = lang;
                self.replay(start);
            }
            None => self.replay_detecting(start),
        }
        true
    }

    /// Replays in the language the letters of the game's moves decide (see
    /// [`GameChecker::detect_language`]). That is nearly always the language of the
    /// previous game: the replay starts in that one, collects the letters as it goes
    /// and, when they decide otherwise, drops its findings and starts again. The
    /// findings are the same either way; the guess only saves a pass over the tokens.
    fn replay_detecting(&mut self, start: Position) {
        let findings = self.out.len();
        let recorded = self.played.as_ref().map_or(0, |p| p.len());
        let plies = self.plies;
        if let Some(guess) = last_letters_verdict() {
            self.lang = guess;
            let (used, figurines) = self.replay(start);
            if by_letters_used(used, figurines) == Some(guess) {
                if let Some(note) = self.language_note() {
                    self.out.insert(findings, note);
                }
                return;
            }
            self.out.truncate(findings);
            if let Some(played) = self.played.as_deref_mut() {
                played.truncate(recorded);
            }
            self.plies = plies;
        }
        self.lang = self.detect_language(&start);
        let at = self.out.len();
        self.replay(start);
        // Made after the replay, which collects the letters it names. An ambiguous
        // game's note already names the language it was read in.
        if !self.lang_ambiguous
            && let Some(note) = self.language_note()
        {
            self.out.insert(at, note);
        }
    }

    /// The note that a game is written in another language than English.
    fn language_note(&self) -> Option<Finding> {
        if self.lang == Lang::En {
            return None;
        }
        let first = self
            .game
            .tokens()
            .iter()
            .find(|t| t.kind == TokenKind::San)?;
        let message = format!("the game is written in {} notation", self.lang_name());
        let at = first.start as usize;
        Some(self.finding(Code::NotationLanguage, at, None, None, message, None, &[]))
    }

    /// The language's name, and the others that read the game's letters the same way.
    fn lang_name(&self) -> String {
        let others = same_reading(self.lang, self.letters.used);
        if others.is_empty() {
            return self.lang.name().to_string();
        }
        let others: Vec<&str> = others.iter().map(|l| l.name()).collect();
        format!(
            "{} (or {}: the same letters)",
            self.lang.name(),
            others.join(" or ")
        )
    }

    /// Decides the language from the letters of every move and, where they leave two
    /// readings, by replaying the main line; reports two legal readings instead of
    /// guessing (and goes on with the first). Runs only when
    /// the guess of [`GameChecker::replay_detecting`] was wrong.
    #[cold]
    fn detect_language(&mut self, start: &Position) -> Lang {
        let game = self.game;
        let main_line_moves = || {
            let mut depth = 0u32;
            game.tokens().iter().filter_map(move |t| {
                match t.kind {
                    TokenKind::VariationStart => depth += 1,
                    TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                    TokenKind::San if depth == 0 => return Some(game.token_bytes(t)),
                    _ => {}
                }
                None
            })
        };
        // The letters of every move, variations included, rule languages out.
        let all_moves = || {
            game.tokens()
                .iter()
                .filter(|t| t.kind == TokenKind::San)
                .map(|t| game.token_bytes(t))
        };
        // Nearly always the letters decide: no list, no replay.
        if let Some(lang) = by_letters(all_moves()) {
            return lang;
        }
        let others = all_moves()
            .map(letters_of)
            .fold((0, false), |(u, f), (mu, mf)| (u | mu, f | mf));
        let texts: Vec<_> = main_line_moves()
            .map(|m| decode(m, game.encoding_choice()))
            .collect();
        let moves: Vec<&[u8]> = texts.iter().map(|text| text.as_bytes()).collect();
        if moves.is_empty() {
            return Lang::En;
        }
        // With variations, a reading must replay them too: the main line alone may be
        // legal in two languages that the variations tell apart, or the same in both
        // while the variations read differently.
        let has_variations = game
            .tokens()
            .iter()
            .any(|t| t.kind == TokenKind::VariationStart);
        let whole = has_variations
            .then(|| candidates(&moves, others))
            .filter(|langs| langs.len() > 1)
            .and_then(|langs| self.whole_game_detection(&langs));
        match whole.unwrap_or_else(|| detect(start, &moves, others)) {
            Detection::Lang(lang) => lang,
            Detection::Ambiguous(langs) => {
                let names: Vec<&str> = langs.iter().map(|l| l.name()).collect();
                let first = game
                    .tokens()
                    .iter()
                    .find(|t| t.kind == TokenKind::San)
                    .map_or(0, |t| t.start);
                let message = format!(
                    "every move replays legally in {} notation with different moves: checked as {}; choose with --lang",
                    names.join(" and "),
                    langs[0].name()
                );
                self.game_note(Code::NotationLanguage, first as usize, message);
                self.lang_ambiguous = true;
                langs[0]
            }
        }
    }

    /// Among `langs`, the readings under which every move of the game, variations
    /// included, replays: the one (or, with different moves, the several) that do, or
    /// `None` when none does (the main line then decides, see [`detect`]).
    #[cold]
    fn whole_game_detection(&self, langs: &[Lang]) -> Option<Detection> {
        let mut complete: Vec<(Lang, Vec<Option<San>>)> = Vec::new();
        for &lang in langs {
            let mut out = Vec::new();
            let mut played = Vec::new();
            let config = Config {
                lang: Some(lang),
                ..self.config
            };
            check_game_recording(self.game, &config, &mut out, Some(&mut played));
            let failed = out
                .iter()
                .any(|f| matches!(f.code, Code::IllegalMove | Code::AmbiguousMove));
            let moves: Vec<Option<San>> = played.into_iter().map(|p| p.san).collect();
            if !failed && !complete.iter().any(|(_, m)| *m == moves) {
                complete.push((lang, moves));
            }
        }
        match complete.len() {
            0 => None,
            1 => Some(Detection::Lang(complete[0].0)),
            _ => Some(Detection::Ambiguous(
                complete.into_iter().map(|(l, _)| l).collect(),
            )),
        }
    }

    fn new_line(&self, pos: Position, ply: u32, path: Vec<u32>) -> Line {
        Line {
            pos,
            prev: None,
            ply,
            path,
            children: 0,
            state: State::Live,
            end: None,
            end_reported: false,
            skipped: false,
        }
    }

    /// Replays the game from `start`; returns the piece letters its moves use
    /// (see [`planilla_core::detect::letters_of`]).
    fn replay(&mut self, start: Position) -> (u32, bool) {
        let game = self.game;
        let tokens = game.tokens();
        let rules = self.config.rules;
        let mut lines: Vec<Line> = vec![self.new_line(start, 0, Vec::new())];
        // The repetition keys of each line of `lines`, kept apart so that a move can
        // count through its ancestors' keys while its own line is being changed. Room
        // for every main-line move of a numbered game (two moves to a move number,
        // and a few tags), so that pushing a key never grows the list.
        let room = tokens.len() * 3 / 4 + 2;
        let mut histories = vec![History::starting(rules.key(&start), room)];
        let max_depth = game.max_depth() as usize;
        // Variations open past `max_depth`.
        let mut beyond = 0usize;
        // A FEN may set up a position in which the game is already over.
        let start_end = if !start.has_legal_moves() {
            Some(if start.is_check() {
                End::Checkmate(start.turn().other())
            } else {
                End::Stalemate
            })
        } else if start.is_insufficient_material() {
            Some(End::DeadPosition)
        } else if rules.automatic_draws() && start.halfmove_clock() >= 150 {
            // Set up with 75 moves of each side already played without a pawn move
            // or capture: drawn before the first move.
            Some(End::SeventyFive)
        } else {
            None
        };
        if let Some(end) = start_end {
            lines[0].end = Some((end, 0, String::new(), start));
        }
        // The main line's end state and claims.
        let mut threefold: Option<Chance> = None;
        // A FEN may set up a position in which fifty moves are already complete: the
        // side to move could claim before its first move.
        let mut fifty: Option<Chance> = (start_end.is_none() && start.halfmove_clock() >= 100)
            .then(|| Chance {
                ply: 0,
                at: self.tag_position("FEN").unwrap_or(0),
                numbered: String::new(),
                san: String::new(),
                fen: start.fen(),
                mover: start.turn(),
                later: 0,
            });
        let mut result_marker: Option<(Token, &'static str)> = None;
        // The last main-line token that counts was a result (`result_marker`).
        let mut result_since_move = false;
        let mut last_main_ply = 0u32;
        self.letters = Letters::default();
        let bytes = game.bytes();
        // The lists of variations read to their end, for the next ones to reuse.
        let mut spare_paths: Vec<Vec<u32>> = Vec::new();
        let mut spare_keys: Vec<Vec<u64>> = Vec::new();

        let mut i = 0;
        while i < tokens.len() {
            let token = tokens[i];
            i += 1;
            // Moves first (most tokens), then move numbers, tags and comments, which
            // change nothing here: both before the dispatch, so that the common tokens
            // take plain branches.
            if token.kind == TokenKind::San {
                // An en-passant mark after the move belongs to it, and so does a
                // check or mate mark written apart (`Cf3 +`, `Dxf7 ++`): whitespace
                // is no token (see `Game::tokens`).
                // In either order (`exd6 e.p. +`, `exd6 + e.p.`), each at most once.
                let mut end = token.end;
                let (mut en_passant, mut check) = (false, false);
                while let Some(mark) = tokens.get(i) {
                    if !en_passant && mark.kind == TokenKind::EnPassantMark {
                        en_passant = true;
                    } else if !check && is_check_mark(game, mark) {
                        check = true;
                    } else {
                        break;
                    }
                    end = mark.end;
                    i += 1;
                }
                if lines.len() == 1
                    && result_since_move
                    && let Some((marker, _)) = result_marker
                {
                    result_since_move = false;
                    self.stray(
                        marker,
                        "a result in the middle of the moves: more moves follow it",
                        &[],
                    );
                }
                let main = lines.len() == 1;
                let depth = lines.len() - 1;
                let line = &mut lines[depth];
                // Every move's letters count for the language, played or not.
                if beyond > 0 || line.skipped {
                    self.letters.add(letters_of(&bytes[token.span()]));
                    continue;
                }
                if let State::Stopped { at_last_move } = &mut line.state {
                    *at_last_move = false;
                    self.letters.add(letters_of(&bytes[token.span()]));
                    continue;
                }
                let text = &bytes[token.start as usize..end as usize];
                let outcome = self.play_move(line, &mut histories, token, text);
                if main {
                    last_main_ply = line.ply;
                    if let Some(chances) = outcome
                        && (chances.0 || chances.1)
                    {
                        self.note_chances(line, token, chances, &mut threefold, &mut fifty);
                    }
                }
                continue;
            }
            if matches!(
                token.kind,
                TokenKind::MoveNumber | TokenKind::Tag | TokenKind::Comment
            ) {
                continue;
            }
            match token.kind {
                TokenKind::VariationStart => {
                    // Deeper than the reader allows (it reported a syntax error): only
                    // counted, so a long nest costs neither time nor memory per level.
                    if beyond > 0 || lines.len() > max_depth {
                        beyond += 1;
                        continue;
                    }
                    let parent = lines.last_mut().expect("the main line is never popped");
                    parent.children += 1;
                    let branch = match (parent.skipped, parent.state) {
                        (true, _) => None,
                        (false, State::Live) => Some(match parent.prev {
                            Some(prev) => (prev, parent.ply.saturating_sub(1), true),
                            None => (parent.pos, parent.ply, false),
                        }),
                        (false, State::Stopped { at_last_move: true }) => {
                            Some((parent.pos, parent.ply, false))
                        }
                        (
                            false,
                            State::Stopped {
                                at_last_move: false,
                            },
                        ) => None,
                    };
                    let (line, history) = match branch {
                        Some((pos, ply, before_last)) => {
                            let history = histories.last().expect("one history a line").branch(
                                before_last,
                                rules.key(&pos),
                                spare_keys.pop().unwrap_or_default(),
                            );
                            let mut path = spare_paths.pop().unwrap_or_default();
                            path.clear();
                            path.extend_from_slice(&parent.path);
                            path.push(parent.children);
                            let mut line = self.new_line(pos, ply, path);
                            // A game that had ended at or before the branch point stays
                            // ended in the variation: its first move is one after the end.
                            line.end = parent
                                .end
                                .as_ref()
                                .filter(|(_, end_ply, _, _)| *end_ply <= ply)
                                .cloned();
                            (line, history)
                        }
                        None => {
                            let mut l = self.new_line(start, 0, Vec::new());
                            l.skipped = true;
                            (l, History::default())
                        }
                    };
                    lines.push(line);
                    histories.push(history);
                }
                TokenKind::VariationEnd if beyond > 0 => beyond -= 1,
                TokenKind::VariationEnd if lines.len() > 1 => {
                    if let Some(line) = lines.pop() {
                        spare_paths.push(line.path);
                    }
                    if let Some(history) = histories.pop() {
                        spare_keys.push(history.keys);
                    }
                }
                TokenKind::Result if lines.len() == 1 => {
                    let text = game.decode(token.span());
                    if let Some(r) = normalise_result(&text) {
                        if result_since_move && let Some((first, _)) = result_marker {
                            self.stray(first, "a second result follows this one", &[]);
                        }
                        result_marker = Some((token, r));
                        result_since_move = true;
                    }
                }
                // Marks that follow no move (a move joins the marks after it).
                TokenKind::EnPassantMark => {
                    let path = lines.last().map_or(&[][..], |l| &l.path);
                    self.stray(token, "an en-passant mark that follows no move", path);
                }
                TokenKind::Glyph if is_check_mark(game, &token) => {
                    let path = lines.last().map_or(&[][..], |l| &l.path);
                    self.stray(token, "a check or mate mark that follows no move", path);
                }
                _ => {}
            }
        }

        let main = &lines[0];
        self.finish_main_line(main, last_main_ply, result_marker, threefold, fifty);
        (self.letters.used, self.letters.figurines)
    }

    /// Reports a token that PGN does not allow where it stands, as a syntax error (the
    /// replay goes on), in the line of play `path` (the main line: empty).
    #[cold]
    fn stray(&mut self, token: Token, what: &str, path: &[u32]) {
        let text = self.game.decode(token.span());
        let message = format!("'{}': {what}", text.escape_debug());
        let at = token.start as usize;
        self.push(Code::SyntaxError, at, None, None, message, None, path);
    }

    /// The move number and the move as written (`12... Nxe5`, `Nxe5`), built
    /// only when a finding is reported.
    fn describe(&self, site: &Site) -> (String, String) {
        // A mark after the move may stand past a line break (`exd6` / `a.p.+`): one
        // space for any run of them, so that a finding stays on one line.
        let written = self.game.decode(site.at..site.at + site.len);
        let written = written.split_whitespace().collect::<Vec<_>>().join(" ");
        let dots = if site.before.turn() == Color::White {
            "."
        } else {
            "..."
        };
        (
            format!("{}{dots} {written}", site.before.fullmoves()),
            written,
        )
    }

    /// Reports a finding about the move at `site`.
    fn push_at(&mut self, code: Code, site: &Site, message: String) {
        let (numbered, written) = self.describe(site);
        self.push(
            code,
            site.at,
            Some(site.ply),
            Some((&numbered, &written)),
            message,
            Some(site.before.fen()),
            site.path,
        );
    }

    /// Plays one written move on `line`, adding its piece letters to `self.letters`.
    /// Returns the draw-claim conditions after it
    /// (threefold, fifty) when the move was played.
    #[inline(never)]
    fn play_move(
        &mut self,
        line: &mut Line,
        histories: &mut [History],
        token: Token,
        text: &[u8],
    ) -> Option<(bool, bool)> {
        let depth = histories.len() - 1;
        // The position before the move, kept as the line's `prev` (variations branch
        // from it) without another copy; a move that fails stops the line, which then
        // never uses `prev` again.
        let before: &Position = line.prev.insert(line.pos);
        let ply = line.ply + 1;
        // Built only for a finding (most moves have none).
        let path = &line.path;
        let site = || Site {
            at: token.start as usize,
            len: text.len(),
            ply,
            before,
            path,
        };

        // ASCII, the shape of nearly every move, is read from the bytes as written; any
        // other shape from the decoded text (`O\x96O` in Windows-1252 is `O–O`).
        let ascii = text.is_ascii();
        let parsed = if ascii {
            San::parse(text, self.lang)
        } else {
            let decoded = self
                .game
                .decoded_bytes(token.start as usize..token.start as usize + text.len());
            San::parse(&decoded, self.lang)
        };
        let san = match parsed {
            Ok(san) if ascii => {
                self.letters.add_plain(text, &san);
                san
            }
            Ok(san) => {
                self.letters.add(letters_of(self.game.token_bytes(&token)));
                san
            }
            Err(e) => {
                self.letters.add(letters_of(self.game.token_bytes(&token)));
                self.report_unreadable(&site(), &e);
                line.state = State::Stopped { at_last_move: true };
                return None;
            }
        };

        if let Some((end, end_ply, end_move, _)) = &line.end {
            let end = *end;
            if !line.end_reported {
                line.end_reported = true;
                self.report_move_after_end(end, *end_ply, end_move, &site());
            }
            // After mate or stalemate no move exists. After a dead position,
            // fivefold repetition or 75 moves the recorded moves are still
            // chess: replay them (they are checked and converted), but the
            // game's end stays where it was.
            if matches!(end, End::Checkmate(_) | End::Stalemate) || !before.has_legal_moves() {
                line.state = State::Stopped { at_last_move: true };
                return None;
            }
        }
        let ended_before = line.end.is_some();

        if san.is_null() {
            if before.is_check() {
                self.push_at(
                    Code::IllegalMove,
                    &site(),
                    "a null move while in check".to_string(),
                );
                line.state = State::Stopped { at_last_move: true };
                return None;
            }
            // A pass is an analysis idiom in variations; in the game itself
            // it is not a move of chess.
            if path.is_empty() {
                let message =
                    "a null move (the side passes) is not a legal move in the game".to_string();
                self.push_at(Code::IllegalMove, &site(), message);
                line.state = State::Stopped { at_last_move: true };
                return None;
            }
            let message =
                "a null move (the side passes) in analysis: not a move of chess".to_string();
            self.push_at(Code::NonStandardSan, &site(), message);
            self.record(token.start, text.len(), before, None);
            line.pos.play_null();
            line.ply = ply;
            // The history restarts after a pass, so a variation replacing it
            // starts a history of its own.
            histories[depth].push(self.config.rules.key(&line.pos), Restart::Null);
            self.plies += 1;
            return None;
        }

        let m = match san.resolve(before) {
            Ok(m) => m,
            Err(e) => {
                let (code, message) = self.explain(&site(), &san, e);
                self.push_at(code, &site(), message);
                line.state = State::Stopped { at_last_move: true };
                return None;
            }
        };

        // The move is made in place: a copy of a freshly written position
        // stalls the processor (narrow stores read back by wide loads).
        line.pos.play_unchecked(&m);
        let after = &line.pos;
        let gives_check = after.is_check();
        let has_moves = after.has_legal_moves();
        let deserved = match (gives_check, has_moves) {
            (true, true) => Some(Suffix::Check),
            (true, false) => Some(Suffix::Mate),
            _ => None,
        };
        self.record(token.start, text.len(), before, Some((&m, deserved)));
        let notation = san.notation(before, &m, deserved);
        if !notation.is_canonical() {
            self.notation_findings(&san, &notation, &m, &site());
        }

        // Book-keeping for repetition: positions before an irreversible move never recur.
        let rules = self.config.rules;
        let after = &line.pos;
        let key = rules.key(after);
        let insufficient = after.is_insufficient_material();
        let clock = after.halfmove_clock();
        line.ply = ply;
        self.plies += 1;
        let restart = if m.is_zeroing() {
            Restart::Irreversible
        } else {
            Restart::No
        };
        // Repetitions count until the line's game has ended.
        let occurrences = if ended_before || restart == Restart::Irreversible {
            1
        } else {
            occurrences(histories, depth, key) + 1
        };
        histories[depth].push(key, restart);

        let end = if !has_moves {
            Some(if gives_check {
                End::Checkmate(before.turn())
            } else {
                End::Stalemate
            })
        } else if insufficient {
            Some(End::DeadPosition)
        } else if rules.automatic_draws() && occurrences >= 5 {
            Some(End::Fivefold)
        } else if rules.automatic_draws() && clock >= 150 {
            Some(End::SeventyFive)
        } else {
            None
        };
        if let Some(end) = end
            && !ended_before
        {
            let (numbered, _) = self.describe(&site());
            line.end = Some((end, ply, numbered, line.pos));
        }
        // A move that ends the game (mate, stalemate, a dead position, and under
        // automatic draws fivefold or 75 moves) ends it at once: nobody can claim a
        // draw after it.
        if end.is_some() || ended_before {
            return None;
        }
        Some((occurrences >= 3, clock >= 100))
    }

    /// Reports a written move that does not parse in the game's language (apart from
    /// [`GameChecker::play_move`], which runs for every move).
    #[cold]
    #[inline(never)]
    fn report_unreadable(&mut self, site: &Site, e: &SanParseError) {
        let (_, written) = self.describe(site);
        let message = format!(
            "'{written}' is not a move in {} notation: {e}",
            self.lang.name()
        );
        self.push_at(Code::IllegalMove, site, message);
    }

    /// Reports the first move written after the game ended (`end` after ply `end_ply`,
    /// the move `end_move`).
    #[cold]
    #[inline(never)]
    fn report_move_after_end(&mut self, end: End, end_ply: u32, end_move: &str, site: &Site) {
        let message = if end_ply == 0 {
            format!(
                "the game had already ended in its starting position by {}: no move may follow",
                end.describe()
            )
        } else {
            format!(
                "the game had already ended after {end_move} by {} (ply {end_ply}): no move may follow",
                end.describe()
            )
        };
        self.push_at(Code::MoveAfterGameEnd, site, message);
    }

    /// Records a move that replayed, when recording: `mv` played in `before`, with the
    /// check mark it deserved (`None` for a null move).
    #[inline]
    fn record(
        &mut self,
        start: u32,
        len: usize,
        before: &Position,
        mv: Option<(&Move, Option<Suffix>)>,
    ) {
        if let Some(played) = self.played.as_deref_mut() {
            let san = mv.map(|(m, suffix)| San::from_move(before, m).with_suffix(suffix));
            played.push(PlayedMove {
                span: (start, start + len as u32),
                san,
            });
        }
    }

    /// Records the draw-claim chances after a main-line move.
    fn note_chances(
        &mut self,
        line: &Line,
        token: Token,
        (threefold_now, fifty_now): (bool, bool),
        threefold: &mut Option<Chance>,
        fifty: &mut Option<Chance>,
    ) {
        for (now, slot) in [(threefold_now, threefold), (fifty_now, fifty)] {
            if !now {
                continue;
            }
            match slot {
                Some(chance) => chance.later += 1,
                None => {
                    let before = line.prev.unwrap_or(line.pos);
                    let written = self.game.decode(token.span()).trim_end().to_string();
                    *slot = Some(Chance {
                        ply: line.ply,
                        at: token.start as usize,
                        numbered: format!(
                            "{}{} {}",
                            before.fullmoves(),
                            if before.turn() == Color::White {
                                "."
                            } else {
                                "..."
                            },
                            written
                        ),
                        san: written,
                        fen: before.fen(),
                        mover: before.turn(),
                        later: 0,
                    });
                }
            }
        }
    }

    fn finish_main_line(
        &mut self,
        main: &Line,
        last_ply: u32,
        marker: Option<(Token, &'static str)>,
        threefold: Option<Chance>,
        fifty: Option<Chance>,
    ) {
        let game = self.game;
        let tag = game.tag("Result").and_then(|r| normalise_result(&r));
        let result = marker.map(|(_, r)| r).or(tag);
        let result_at = marker
            .map(|(t, _)| t.start as usize)
            .or_else(|| self.tag_position("Result"))
            .unwrap_or(0);

        if let (Some((t, m)), Some(tag)) = (marker, tag)
            && m != tag
        {
            self.push(
                Code::ResultMismatch,
                t.start as usize,
                None,
                None,
                format!("the Result tag says {tag} but the movetext ends with {m}"),
                None,
                &[],
            );
        }
        // A Result tag that is no result at all (`1-1`, `draw`, `?`) disagrees with the
        // movetext's result too: PGN allows only the four.
        if let Some((t, m)) = marker
            && tag.is_none()
            && let Some(written) = game.tag("Result")
        {
            self.push(
                Code::ResultMismatch,
                t.start as usize,
                None,
                None,
                format!(
                    "the Result tag '{written}' is no result (1-0, 0-1, 1/2-1/2 or *); the movetext ends with {m}"
                ),
                None,
                &[],
            );
        }

        let drawn = result == Some("1/2-1/2");
        let finished = result.is_some_and(|r| r != "*");
        for (chance, code) in [
            (threefold, Code::MissedThreefoldClaim),
            (fifty, Code::MissedFiftyMoveClaim),
        ] {
            let Some(c) = chance else { continue };
            // A chance at the last move is taken when the game was drawn
            // there; a chance the game went on from is missed.
            let went_on = c.ply < last_ply;
            if !(went_on || (finished && !drawn)) {
                continue;
            }
            let what = match code {
                Code::MissedThreefoldClaim => "the position appeared for the third time",
                _ => "fifty moves by each side without a pawn move or capture were completed",
            };
            let how = if went_on {
                "the game went on".to_string()
            } else {
                format!("the game ended {}", result.unwrap_or("*"))
            };
            let later = match c.later {
                0 => String::new(),
                1 => ", 1 later chance".to_string(),
                n => format!(", {n} later chances"),
            };
            if c.ply == 0 {
                // Set up that way: the side to move could claim before its first move.
                let message = format!(
                    "{what} in the starting position the FEN sets up (half-move clock {}): {} \
                     could claim a draw before moving; {how}{later}",
                    fen_clock(&c.fen),
                    c.mover.name(),
                );
                self.push(code, c.at, None, None, message, Some(c.fen), &[]);
                continue;
            }
            let message = format!(
                "{what} with {}: {} could claim a draw by writing it, {} on the next turn; {how}{later}",
                c.numbered,
                c.mover.name(),
                c.mover.other().name()
            );
            self.push(
                code,
                c.at,
                Some(c.ply),
                Some((&c.numbered, &c.san)),
                message,
                Some(c.fen),
                &[],
            );
        }

        if main.skipped || !finished {
            return;
        }
        let replayed_to_end = matches!(main.state, State::Live) || main.end_reported;
        if !replayed_to_end {
            return;
        }
        let Some(result) = result else { return };
        if let Some((end, ply, _, final_position)) = &main.end
            && end.result() != result
        {
            let message = format!(
                "the result {result} contradicts the final position: {} at ply {ply} means {}",
                end.describe(),
                end.result()
            );
            self.push(
                Code::ResultMismatch,
                result_at,
                None,
                None,
                message,
                Some(final_position.fen()),
                &[],
            );
        }
    }

    /// The finding for a move that does not resolve, with candidates and a
    /// likely intended move where one is obvious.
    #[cold]
    #[inline(never)]
    fn explain(&mut self, site: &Site, san: &San, error: SanError) -> (Code, String) {
        let pos = site.before;
        let lang = self.lang;
        let san_of = |m: &Move| {
            San::from_move(pos, m)
                .with_suffix(Suffix::deserved(&pos.play(m)))
                .to_string_in(lang)
        };
        match error {
            SanError::Ambiguous(candidates) => {
                let list: Vec<String> = candidates.iter().map(san_of).collect();
                let (_, written) = self.describe(site);
                (
                    Code::AmbiguousMove,
                    format!(
                        "{written} matches {} legal moves: {}",
                        list.len(),
                        list.join(", ")
                    ),
                )
            }
            SanError::Illegal(reason) => {
                let mut message = reason.to_string();
                if let SanKind::Normal { role, to, .. } = san.kind {
                    let mut all = MoveList::new();
                    pos.legal_moves_into(&mut all);
                    let onto: Vec<String> =
                        all.iter().filter(|m| m.to() == to).map(san_of).collect();
                    if onto.is_empty() {
                        message.push_str(&format!("; no legal move reaches {to}"));
                    } else {
                        let kind = if pos.board().occupied().contains(to) {
                            "captures on"
                        } else {
                            "moves to"
                        };
                        message.push_str(&format!("; legal {kind} {to}: {}", onto.join(", ")));
                    }
                    if let Some(hint) = likely_intended(role, to, &all) {
                        message.push_str(&format!("; perhaps {} was meant", san_of(&hint)));
                    } else if played_by_other_side(pos, san) {
                        message.push_str(&format!(
                            "; it would be legal for {}: moves may be out of order",
                            pos.turn().other().name()
                        ));
                    }
                }
                (Code::IllegalMove, message)
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn notation_findings(&mut self, san: &San, notation: &Notation, m: &Move, site: &Site) {
        let before = site.before;
        let spanish = self.lang == Lang::Es;
        let canonical_san =
            San::from_move(before, m).with_suffix(Suffix::deserved(&before.play(m)));
        let canonical = canonical_san.to_string_in(self.lang);
        let mut found: Vec<(Code, String)> = Vec::new();
        match notation.disambiguation {
            Disambiguation::Right => {}
            // Another piece reaches the square, but less than what is written tells
            // them apart (`Nb1d2` where the file is enough).
            Disambiguation::Redundant
                if matches!(
                    canonical_san.kind,
                    SanKind::Normal { file, rank, .. } if file.is_some() || rank.is_some()
                ) =>
            {
                found.push((
                    Code::RedundantDisambiguation,
                    format!(
                        "more of the departure square than the other piece that reaches {} needs: write {canonical}",
                        m.to()
                    ),
                ))
            }
            Disambiguation::Redundant => found.push((
                Code::RedundantDisambiguation,
                format!("no other piece can go to {}: write {canonical}", m.to()),
            )),
            Disambiguation::PinnedOnly => found.push((
                Code::PinnedDisambiguation,
                format!(
                    "the other piece that reaches {} is pinned: {canonical} is enough",
                    m.to()
                ),
            )),
            Disambiguation::NonPreferred => found.push((
                Code::NonPreferredDisambiguation,
                format!("the file tells the pieces apart: write {canonical}"),
            )),
        }
        match notation.capture {
            CaptureMark::Right => {}
            CaptureMark::Missing => found.push((
                Code::CaptureMark,
                format!("a capture written without 'x': {canonical}"),
            )),
            CaptureMark::Spurious => found.push((
                Code::CaptureMark,
                format!("'x' on a move that captures nothing: {canonical}"),
            )),
        }
        // `e.p.`/`a.p.` on a move that is no en-passant capture (on a scoresheet, often a
        // sign that the move before was copied wrong).
        let wrong_en_passant = notation.forms.contains(Forms::EN_PASSANT_MARK)
            && !matches!(m.kind(), MoveKind::EnPassant);
        if wrong_en_passant {
            found.push((
                Code::CaptureMark,
                format!("an en-passant mark on a move that is no en-passant capture: {canonical}"),
            ));
        }
        match notation.check {
            CheckMark::Right => {}
            CheckMark::DoublePlusForMate if spanish => {}
            CheckMark::DoublePlusForMate => found.push((
                Code::CheckMark,
                format!("'++' written for mate: {canonical}"),
            )),
            CheckMark::Missing => found.push((
                Code::CheckMark,
                format!(
                    "the move gives {} but no mark is written: {canonical}",
                    if canonical.ends_with('#') {
                        "mate"
                    } else {
                        "check"
                    }
                ),
            )),
            CheckMark::Wrong => {
                let said = match san.suffix {
                    Some(Suffix::Check) => "'+'",
                    Some(Suffix::Mate) => "'#'",
                    Some(Suffix::DoublePlus) => "'++'",
                    None => "no mark",
                };
                let is = if canonical.ends_with('#') {
                    "mate"
                } else if canonical.ends_with('+') {
                    "check"
                } else {
                    "no check"
                };
                found.push((
                    Code::CheckMark,
                    format!("{said} written but the move gives {is}: {canonical}"),
                ));
            }
        }
        let mut forms = notation.forms.without(Forms::NULL_MOVE);
        if wrong_en_passant {
            forms = forms.without(Forms::EN_PASSANT_MARK);
        }
        if spanish {
            forms = forms
                .without(Forms::CASTLE_ZEROS)
                .without(Forms::PROMOTION_BARE)
                .without(Forms::EN_PASSANT_MARK);
            if matches!(san.kind, SanKind::Castle(_)) {
                forms = forms.without(Forms::CASTLE_OTHER);
            }
        }
        if !forms.is_empty() {
            let what: Vec<&str> = forms.descriptions().collect();
            found.push((
                Code::NonStandardSan,
                format!("{}: PGN export writes {canonical}", what.join(", ")),
            ));
        }
        if found.is_empty() {
            return;
        }
        for (code, message) in found {
            self.push_at(code, site, message);
        }
    }
}

/// The only legal move of the written kind of piece to a square next to the
/// written one (a slip of one square), if there is exactly one.
fn likely_intended(role: planilla_core::Role, to: Square, all: &[Move]) -> Option<Move> {
    let near: Vec<&Move> = all
        .iter()
        .filter(|m| m.role() == role && m.to() != to && chebyshev(m.to(), to) == 1)
        .collect();
    match near.as_slice() {
        [only] => Some(**only),
        _ => None,
    }
}

fn chebyshev(a: Square, b: Square) -> u32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).unsigned_abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).unsigned_abs();
    df.max(dr)
}

/// Whether the written move would be legal with the other side to move.
fn played_by_other_side(pos: &Position, san: &San) -> bool {
    let fen = pos.fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    if fields.len() < 4 {
        return false;
    }
    fields[1] = if pos.turn() == Color::White { "b" } else { "w" };
    fields[3] = "-";
    let flipped = fields.join(" ");
    match Position::from_fen(&flipped, Validation::Relaxed) {
        Ok(other) => san.resolve(&other).is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use planilla_parser::Encoding;

    /// A game's findings, recorded moves and counts, after `before` was checked on
    /// the same thread (which leaves the language guess of the next game).
    fn checked_after(before: &str, game: &str) -> (Vec<Finding>, Vec<PlayedMove>, GameStats) {
        let config = Config::default();
        let mut out = Vec::new();
        check_game(&Game::from_bytes(before, Encoding::Auto), &config, &mut out);
        out.clear();
        let mut played = Vec::new();
        let game = Game::from_bytes(game, Encoding::Auto);
        let stats = check_game_recording(&game, &config, &mut out, Some(&mut played));
        (out, played, stats)
    }

    /// The replay starts in the language the previous game was read in and starts
    /// again when the letters decide otherwise: whatever came before, a game gets the
    /// same findings (the language note in its place among them) and the same moves.
    #[test]
    fn a_game_reads_the_same_whatever_came_before() {
        let games = [
            // English, with findings before and after the language would be noted.
            "[FEN \"bad\"]\n\n1. e4 e5 *\n",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Qe2 Qe7 6. Ke1 *\n",
            // Spanish, with an illegal move and a variation in English letters.
            "1. e4 e5 2. Cf3 Cc6 3. Ab5 (3. Bb5 Nf6) 3... a6 4. Axc6 dxc6 5. De2 De8 *\n",
            // Spanish with a missed check mark and a promotion letter.
            "[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8D *\n",
            // German.
            "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Lxc6 dxc6 *\n",
            // Letters that two languages read differently, both legally: detected by replay.
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. Rb1 *\n",
            // No moves at all.
            "[Event \"x\"]\n\n*\n",
            // Spanish letters only after an illegal move (the line stopped): they
            // still decide the language.
            "1. e4 e5 2. e5 Cc6 3. Cf3 *\n",
            // A promotion piece as the only piece letter.
            "[FEN \"8/P3k3/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8=D+ *\n",
            // Piece letters only in a variation: they decide the language too.
            "1. e4 (1. Cf3 Cf6 2. g3 g6 3. Ag2 Ag7) 1... e5 2. d4 exd4 *\n",
            // French `F` only in a variation, with letters French shares with others.
            "1. e4 e5 2. Cf3 (2. Fc4 Cf6 3. d3) 2... Cc6 *\n",
        ];
        use Lang::{De, En, Es, Fr};
        let langs = [
            None,
            Some(En),
            Some(Es),
            Some(Es),
            Some(De),
            Some(En),
            Some(En),
            Some(Es),
            Some(Es),
            Some(Es),
            Some(Fr),
        ];
        for (game, lang) in games.into_iter().zip(langs) {
            let alone = checked_after("", game);
            assert_eq!(alone.2.lang, lang, "{game:?}");
            if game.contains("(1. Cf3") || game.contains("(2. Fc4") {
                let codes: Vec<Code> = alone.0.iter().map(|f| f.code).collect();
                assert_eq!(codes, [Code::NotationLanguage], "{game:?}");
            }
            for before in games {
                assert_eq!(
                    checked_after(before, game),
                    alone,
                    "{game:?} after {before:?}"
                );
            }
        }
        // The language note stands before the replay's findings, as when detected first.
        let (spanish, _, stats) = checked_after(games[0], games[2]);
        assert_eq!(stats.lang, Some(Lang::Es));
        let codes: Vec<Code> = spanish.iter().map(|f| f.code).collect();
        assert_eq!(codes.first(), Some(&Code::NotationLanguage), "{codes:?}");
        assert!(codes.len() > 1, "{codes:?}");
    }

    /// A line of the model: the keys that may recur, copied at every step, and every
    /// key from the game's start.
    #[derive(Clone)]
    struct ModelLine {
        live: Vec<u64>,
        prev_live: Option<Vec<u64>>,
        all: Vec<u64>,
    }

    /// The histories of a stack of lines against a model that copies every key list:
    /// random moves (reversible, irreversible, null), variations branching before the
    /// last move or at the current position, long reversible runs (counted per key) and
    /// few distinct keys (many repetitions).
    #[test]
    fn history_counts_what_a_copying_model_counts() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..400 {
            // Every other round, restarts are rare: long runs, counted per key.
            let restarts = if round % 2 == 0 { 30 } else { 600 };
            // Keys spread over the filter's bits three ways (`History::seen`): all on
            // one bit (it proves nothing), each on its own, and several on one.
            let spread = |key: u64| match round % 3 {
                0 => key,
                1 => key.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                _ => (key % 3) << 58 | key,
            };
            let mut stack = vec![History::starting(0, 1)];
            let mut model = vec![ModelLine {
                live: vec![0],
                prev_live: None,
                all: vec![0],
            }];
            let mut moved = vec![false];
            let steps = 50 + next(800);
            for _ in 0..steps {
                let at = stack.len() - 1;
                match next(20) {
                    0 if stack.len() < 6 => {
                        let before_last = moved[at] && next(2) == 0;
                        let m = &model[at];
                        let start = m.all.len() - 1 - usize::from(before_last);
                        let start_key = m.all[start];
                        let all = m.all[..=start].to_vec();
                        let live = if before_last {
                            m.prev_live.clone().unwrap_or_else(|| vec![start_key])
                        } else {
                            m.live.clone()
                        };
                        // A reused list comes with keys of an earlier variation.
                        let reused = vec![start_key ^ 1; next(4) as usize];
                        stack.push(stack[at].branch(before_last, start_key, reused));
                        model.push(ModelLine {
                            live,
                            prev_live: None,
                            all,
                        });
                        moved.push(false);
                    }
                    1 if stack.len() > 1 => {
                        stack.pop();
                        model.pop();
                        moved.pop();
                    }
                    _ => {
                        // Keys as in chess: the side to move in the low bit, and never the
                        // key of two plies before (a piece that left cannot be back).
                        let all = &model[at].all;
                        let parity = all.len() as u64 % 2;
                        let key = loop {
                            let key = spread(next(5) * 2 + parity);
                            if all.len() < 2 || all[all.len() - 2] != key {
                                break key;
                            }
                        };
                        let restart = match next(restarts) {
                            0 => Restart::Null,
                            1..=2 => Restart::Irreversible,
                            _ => Restart::No,
                        };
                        let expected = model[at].live.iter().filter(|&&k| k == key).count();
                        let counted = occurrences(&stack, at, key);
                        if restart == Restart::No {
                            assert_eq!(counted as usize, expected);
                        }
                        stack[at].push(key, restart);
                        let m = &mut model[at];
                        m.prev_live = (restart != Restart::Null).then(|| m.live.clone());
                        if restart != Restart::No {
                            m.live.clear();
                        }
                        m.live.push(key);
                        m.all.push(key);
                        moved[at] = true;
                    }
                }
            }
        }
    }
}
