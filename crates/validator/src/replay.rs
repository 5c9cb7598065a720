//! Replaying one game, every variation included, through `planilla-core`: the loop over
//! its tokens, each line's position and state, and the moves played. What is reported
//! about them lives beside it: repetition counts in [`repetition`], the language in
//! [`language`], draw claims in [`claims`], the game's end and result in [`result`],
//! results written as scoresheets write them in [`scoresheet`], DGT result signals in
//! [`dgt`],
//! moves that do not resolve in [`explain`], the notation of moves that do in
//! [`notation`], dead positions that only a search shows in [`dead`], and wins on time
//! where the winner cannot mate in [`timeout`].

mod claims;
mod clocks;
mod dead;
mod dgt;
mod explain;
mod language;
mod notation;
mod readers;
mod repetition;
mod result;
mod scoresheet;
mod timeout;

pub use scoresheet::result_meaning;

pub(crate) use language::Letters;
pub(crate) use readers::is_lan_game;
pub use readers::{MoveNotation, UnknownNotation};

use crate::checker::{GameChecker, PlayedMove, Recording};
use crate::finding::{Code, Finding};
use claims::Claims;
use clocks::Clocks;
use dead::dead_end;
use planilla_core::detect::letters_of;
use planilla_core::san::{San, Suffix};
use planilla_core::{Color, GameEnd, Move, Position};
use planilla_parser::commands::has_commands;
use planilla_parser::{Game, Token, TokenKind};
use repetition::{History, Restart, occurrences};
use result::{Ended, automatic_draw};
use scoresheet::{Reading, read_result, trailing_mark};

pub(crate) use scoresheet::missing_result_at;

/// The lists a replay fills, kept by a [`Checker`](crate::Checker) from one game to
/// the next so that its games allocate little once the first ones are checked.
#[derive(Default)]
pub(crate) struct Buffers {
    /// The line of play being read and the lines it branches from.
    lines: Vec<Line>,
    /// The repetition keys of each line of `lines`.
    histories: Vec<History>,
    /// The main line's key list.
    main_keys: Vec<u64>,
    /// The paths of variations read to their end, for the next ones to reuse.
    spare_paths: Vec<Vec<u32>>,
    /// The key lists of histories read to their end, for the next ones to reuse.
    spare_keys: Vec<Vec<u64>>,
}

impl std::fmt::Debug for Buffers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buffers")
            .field("lines", &self.lines.capacity())
            .field("histories", &self.histories.capacity())
            .finish_non_exhaustive()
    }
}

/// Whether a line is still replayed.
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
    /// The position the line starts from, its ply and its first token (after the
    /// variation's `(`): where [`dead`] reads the line again.
    start: Position,
    first_ply: u32,
    first_token: u32,
    /// The ply of the first dead position the search found in this line on the first
    /// pass (see [`dead`]), on the second.
    dead_at: Option<u32>,
    pos: Position,
    /// The position before the last move played (variations branch from it).
    prev: Option<Position>,
    /// Half-moves from the game's start to the current position.
    ply: u32,
    /// The line's variation path (see [`Finding::variation`](crate::Finding::variation)).
    path: Vec<u32>,
    /// Variations opened in this line so far.
    children: u32,
    state: State,
    /// How the game ended on the board in this line, if it did.
    end: Option<Ended>,
    /// Whether this line's end has been reported for a later move.
    end_reported: bool,
    /// A variation skipped because its start position is unknown.
    skipped: bool,
}

/// What a move that did not play turned out to be instead (see
/// `GameChecker::special_move`).
enum Special {
    /// `0-0` ending the movetext: a scoresheet result.
    Result(Reading),
    /// The first placement of a DGT result signal.
    Signal(dgt::Signal),
}

/// A written move, for findings about it.
struct Site<'p> {
    /// First byte of the move in the game.
    at: usize,
    /// Its length in bytes (an en-passant mark after it included).
    len: usize,
    /// The move's half-move index from the game's start.
    ply: u32,
    /// The position before the move.
    before: &'p Position,
    /// The variation path of its line.
    path: &'p [u32],
}

/// Whether `token` is a check or mate mark on its own (`+`, `++`, `#`, and the words
/// of English descriptive books: `ch`, `mate`, `dis ch`, `dbl ch`). Asked of the token
/// after every move: the kind decides nearly always, inline.
#[inline(always)]
fn is_check_mark(game: &Game, token: &Token) -> bool {
    token.kind == TokenKind::Glyph && is_check_mark_text(game.token_bytes(token))
}

/// Whether a glyph's text is a check or mate mark (see [`is_check_mark`]).
#[inline(never)]
fn is_check_mark_text(text: &[u8]) -> bool {
    matches!(
        text,
        b"+" | b"++" | b"#" | b"ch" | b"mate" | b"dis ch" | b"dbl ch"
    )
}

/// Where the move `token` ends with the marks written after it: an en-passant mark
/// belongs to it, and so does a check or mate mark written apart (`Cf3 +`, `Dxf7 ++`):
/// whitespace is no token (see `Game::tokens`). In either order (`exd6 e.p. +`,
/// `exd6 + e.p.`), each at most once. `next` is the index in `tokens` (the game's) of
/// the token after the move, moved past the marks.
#[inline(always)]
fn with_marks(game: &Game, tokens: &[Token], token: Token, next: &mut usize) -> u32 {
    let mut end = token.end;
    let (mut en_passant, mut check) = (false, false);
    while let Some(mark) = tokens.get(*next) {
        if !en_passant && mark.kind == TokenKind::EnPassantMark {
            en_passant = true;
        } else if !check && is_check_mark(game, mark) {
            check = true;
        } else {
            break;
        }
        end = mark.end;
        *next += 1;
    }
    end
}

impl Line {
    /// A line replayed from `pos`, `ply` half-moves into the game, at `path`, its moves
    /// from token `first_token` on.
    fn new(pos: Position, ply: u32, path: Vec<u32>, first_token: usize) -> Line {
        Line {
            start: pos,
            first_ply: ply,
            first_token: first_token as u32,
            dead_at: None,
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
}

impl GameChecker<'_> {
    /// Replays the game from `start`; returns the piece letters its moves use
    /// (see [`planilla_core::detect::letters_of`]). When a line turns out to have
    /// reached a dead position that only the search shows, the game is replayed again
    /// with the plies of those positions known (see [`dead`]): its findings are the
    /// second replay's.
    pub(crate) fn replay(&mut self, start: Position) -> (u32, bool) {
        let findings = self.out.len();
        let recorded = match &self.recording {
            Recording::Played(played) => played.len(),
            _ => 0,
        };
        let (plies, main_end) = (self.plies, self.main_end);
        self.dead_plies.clear();
        self.dead_known = false;
        let letters = self.replay_pass(start);
        if self.dead_plies.is_empty() {
            return letters;
        }
        self.out.truncate(findings);
        if let Recording::Played(played) = &mut self.recording {
            played.truncate(recorded);
        }
        self.plies = plies;
        self.main_end = main_end;
        self.dead_known = true;
        self.replay_pass(start)
    }

    /// One replay of the game from `start` (see [`GameChecker::replay`]).
    fn replay_pass(&mut self, start: Position) -> (u32, bool) {
        // A second replay (in another language) replaces the first one's main line.
        if let Recording::MainLine(main_line) = &mut self.recording {
            main_line.clear();
        }
        let game = self.game;
        let tokens = game.tokens();
        let rules = self.rules;
        // The checker's lists, taken for the replay (it calls methods of `self`) and
        // given back at its end with what the last game left in them.
        let Buffers {
            mut lines,
            mut histories,
            main_keys,
            mut spare_paths,
            mut spare_keys,
        } = std::mem::take(self.buffers);
        let mut main = Line::new(start, 0, Vec::new(), 0);
        if self.dead_known {
            main.dead_at = self.dead_at(&main.path);
        }
        lines.push(main);
        // The repetition keys of each line of `lines`, kept apart so that a move can
        // count through its ancestors' keys while its own line is being changed. Room
        // for every main-line move of a numbered game (two moves to a move number,
        // and a few tags), so that pushing a key never grows the list.
        let room = tokens.len() * 3 / 4 + 2;
        histories.push(History::starting(rules.key(&start), room, main_keys));
        self.max_clock = self.max_clock.max(start.halfmove_clock());
        let max_depth = game.max_depth() as usize;
        // Variations open past `max_depth`.
        let mut beyond = 0usize;
        // A FEN may set up a position in which the game is already over, or drawn
        // before the first move (75 moves of each side already played without a pawn
        // move or capture).
        let start_end = start
            .game_end()
            .or_else(|| dead_end(lines[0].dead_at, 0, &start))
            .or_else(|| automatic_draw(rules, &start, 1));
        if let Some(end) = start_end {
            lines[0].end = Some(Ended {
                end,
                ply: 0,
                after_move: String::new(),
                position: start,
                before: start,
            });
        }
        // The main line's claims: a FEN may set up a position in which fifty moves are
        // already complete, and the side to move could claim before its first move.
        let mut claims = if start_end.is_none() {
            Claims::starting(&start, || self.tag_position("FEN").unwrap_or(0))
        } else {
            Claims::default()
        };
        let mut result_marker: Option<(Token, &'static str)> = None;
        // The last main-line token that counts was a result (`result_marker`).
        let mut result_since_move = false;
        let mut signal = None;
        let result_tag = game.tag("Result");
        self.report_non_standard_tag(result_tag.as_deref());
        let mut last_main_ply = 0u32;
        // The main line's clocks (see `clocks`): touched only by comments that hold `[%`.
        let mut clocks = Clocks::default();
        self.letters = Letters::default();
        self.other_read = None;
        self.failure = None;
        let bytes = game.bytes();

        let mut i = 0;
        while i < tokens.len() {
            let token = tokens[i];
            i += 1;
            // Moves first (most tokens), then move numbers, tags and comments, which
            // change nothing here: both before the dispatch, so that the common tokens
            // take plain branches.
            if token.kind == TokenKind::San {
                let end = with_marks(game, tokens, token, &mut i);
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
                    if let Some(chances) = outcome {
                        if chances.0 || chances.1 {
                            self.note_chances(line, token, chances, &mut claims);
                        }
                    } else if line.state != State::Live {
                        // The main line's first move that did not play (there is one at
                        // most: the line stops there) may be no move at all.
                        match self.special_move(line, token) {
                            Some(Special::Result(reading)) => {
                                self.marker(result_marker, result_since_move, token, reading);
                                result_marker = Some((token, reading.result));
                                result_since_move = true;
                            }
                            Some(Special::Signal(found)) => signal = Some(found),
                            None => {}
                        }
                    }
                }
                continue;
            }
            if matches!(
                token.kind,
                TokenKind::MoveNumber | TokenKind::Tag | TokenKind::Comment
            ) {
                // Commands (`[%clk 0:04:58]`) are read only in the main line's comments
                // that hold one.
                if token.kind == TokenKind::Comment
                    && lines.len() == 1
                    && beyond == 0
                    && has_commands(&bytes[token.span()])
                {
                    self.clock_comment(&mut clocks, &lines[0], i - 1, &start);
                }
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
                            let mut line = Line::new(pos, ply, path, i);
                            if self.dead_known {
                                line.dead_at = self.dead_at(&line.path);
                            }
                            // A game that had ended at or before the branch point stays
                            // ended in the variation: its first move is one after the end.
                            line.end = parent
                                .end
                                .as_ref()
                                .filter(|ended| ended.ply <= ply)
                                .cloned();
                            (line, history)
                        }
                        None => {
                            let mut l = Line::new(start, 0, Vec::new(), i);
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
                        if !self.dead_known {
                            self.probe_line_end(&line);
                        }
                        spare_paths.push(line.path);
                    }
                    if let Some(history) = histories.pop() {
                        spare_keys.push(history.keys);
                    }
                }
                TokenKind::Result if lines.len() == 1 => {
                    let text = game.decode(token.span());
                    if let Some(reading) = read_result(&text) {
                        self.marker(result_marker, result_since_move, token, reading);
                        result_marker = Some((token, reading.result));
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

        // The lines read to the game's end: the main line, and variations left open.
        if !self.dead_known {
            for line in &lines {
                self.probe_line_end(line);
            }
        }

        // `+/-` or `-/+` as the game's last word is its result.
        let mark = trailing_mark(game).map(|i| tokens[i]);
        if let Some(mark) = mark
            && mark.kind == TokenKind::Glyph
            && lines.len() == 1
            && let Some(reading) = read_result(&game.decode(mark.span()))
        {
            self.marker(result_marker, result_since_move, mark, reading);
            result_marker = Some((mark, reading.result));
        }
        // A `0-0` that ended the movetext and was not read as its result: the parser's
        // word that the game has no result stands.
        if let Some(mark) = mark
            && mark.kind == TokenKind::San
            && result_marker.is_none_or(|(t, _)| t.start != mark.start)
        {
            self.report_held_missing_result(mark);
        }
        let main = &lines[0];
        if clocks.active() {
            self.clocks_at_end(&mut clocks, main, &start);
        }
        let judged = result::Ending {
            marker: result_marker,
            tag: result_tag.as_deref(),
            signal,
            clocks: &clocks,
        };
        self.finish_main_line(main, last_main_ply, judged, claims);
        // The lists go back to the checker, the paths and keys of variations still
        // open kept for the next game's variations (the main line's path is empty).
        for line in lines.drain(1..) {
            spare_paths.push(line.path);
        }
        lines.clear();
        let mut open = histories.drain(..);
        let main_keys = open.next().map(|main| main.keys).unwrap_or_default();
        spare_keys.extend(open.map(|history| history.keys));
        *self.buffers = Buffers {
            lines,
            histories,
            main_keys,
            spare_paths,
            spare_keys,
        };
        (self.letters.used, self.letters.figurines)
    }

    /// Where the game's text may end in a way the tokenizer cannot tell (a DGT signal,
    /// king moves onto the centre, or a scoresheet result read as a move, `0-0`): the
    /// start of the one move that may be no move (`0-0` as the last word, else the
    /// first move of a trailing run of king moves onto the centre), if any.
    fn special_ending(&self) -> Option<u32> {
        let game = self.game;
        let tokens = game.tokens();
        match trailing_mark(game).map(|i| tokens[i]) {
            Some(mark) if mark.kind == TokenKind::San => Some(mark.start),
            _ => dgt::trailing_run(game, self.lang)
                .first()
                .map(|first| tokens[first].start),
        }
    }

    /// The main line's move at `token` that did not play, if it is no move but the
    /// [`special_ending`](Self::special_ending): the first move of the trailing run of
    /// king moves onto the centre (a DGT signal), or `0-0` as the game's last word (a
    /// double forfeit). What the replay reported about it (`illegal-move`,
    /// `move-after-game-end`, `move-after-draw`) is taken back when it is one of those.
    /// The game's end is read here, for the one move of a game that does not play:
    /// games that replay cost nothing, and the replay's own path stays as it was.
    #[cold]
    #[inline(never)]
    fn special_move(&mut self, line: &mut Line, token: Token) -> Option<Special> {
        if self.special_ending() != Some(token.start) {
            return None;
        }
        let ply = line.ply + 1;
        let reported = self.out.last().is_some_and(|f| {
            f.ply == Some(ply)
                && f.variation.is_empty()
                && matches!(
                    f.code,
                    Code::IllegalMove | Code::MoveAfterGameEnd | Code::MoveAfterDraw
                )
        });
        let taken = if reported { self.out.pop() } else { None };
        let special = if self.game.token_bytes(&token) == b"0-0" {
            read_result("0-0").map(Special::Result)
        } else {
            let run = dgt::trailing_run(self.game, self.lang);
            self.dgt_signal(line, &run).map(Special::Signal)
        };
        if special.is_none() {
            self.out.extend(taken);
        }
        special
    }

    /// Reports what a new main-line result marker `token`, read as `reading`, says
    /// beside the marker before it (`marker`, `since_move`: no move between them): a
    /// second marker, and a form PGN does not define.
    #[inline]
    fn marker(
        &mut self,
        marker: Option<(Token, &'static str)>,
        since_move: bool,
        token: Token,
        reading: Reading,
    ) {
        if since_move && let Some((first, _)) = marker {
            self.stray(first, "a second result follows this one", &[]);
        }
        if !reading.is_standard() {
            self.report_non_standard_marker(token, reading);
        }
    }

    /// Reports a result marker written in a form PGN does not define, once for a form
    /// written in the tag and after the moves alike.
    #[cold]
    #[inline(never)]
    fn report_non_standard_marker(&mut self, token: Token, reading: Reading) {
        let written = self.game.decode(token.span());
        let tag = self.game.tag("Result");
        if tag.as_deref().map(str::trim) != Some(&*written) {
            self.report_non_standard(reading, &written, token.start as usize);
        }
    }

    /// Reports a token that PGN does not allow where it stands, as a syntax error (the
    /// replay goes on), in the line of play `path` (the main line: empty).
    #[cold]
    fn stray(&mut self, token: Token, what: &str, path: &[u32]) {
        let text = self.game.decode(token.span());
        let message = format!("'{}': {what}", text.escape_debug());
        let at = token.start as usize;
        let finding = Finding {
            variation: path.to_vec(),
            ..self.finding(Code::SyntaxError, at, message)
        };
        self.out.push(finding);
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
        self.push_about(code, site, site.at, message);
    }

    /// Reports a finding about the move at `site`, located at byte `at` of the game
    /// (the move itself, or something written about it, such as a clock command).
    fn push_about(&mut self, code: Code, site: &Site, at: usize, message: String) {
        let (numbered, written) = self.describe(site);
        let finding = Finding {
            ply: Some(site.ply),
            numbered_move: Some(numbered),
            san: Some(written),
            fen: Some(site.before.fen()),
            variation: site.path.to_vec(),
            ..self.finding(code, at, message)
        };
        self.out.push(finding);
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

        // The plain shapes of nearly every move are ASCII by their form: read first,
        // without a pass over the bytes to ask. Other ASCII is read from the bytes as
        // written; any other shape from the decoded text (`O\x96O` in Windows-1252 is
        // `O–O`).
        let san = if let Some(san) = San::parse_plain(text, self.lang) {
            self.letters.add_plain(text, &san);
            san
        } else {
            let ascii = text.is_ascii();
            let decoded;
            let source = if ascii {
                text
            } else {
                decoded = self
                    .game
                    .decoded_bytes(token.start as usize..token.start as usize + text.len());
                &decoded[..]
            };
            match San::parse(source, self.lang) {
                Ok(san) if ascii => {
                    self.letters.add_plain(text, &san);
                    san
                }
                Ok(san) => {
                    self.letters.add(letters_of(self.game.token_bytes(&token)));
                    san
                }
                // No SAN: a move in another notation (ICCF, descriptive), read as the
                // legal move it stands for and then played as its canonical SAN.
                Err(e) => match self.read_other(source) {
                    Some(other) => {
                        if let Some(ended) = &line.end
                            && self.after_end(ended, &mut line.end_reported, &site())
                        {
                            line.state = State::Stopped { at_last_move: true };
                            return None;
                        }
                        let Some(m) = self.resolve_other(&other, &site()) else {
                            line.state = State::Stopped { at_last_move: true };
                            return None;
                        };
                        self.foreign = true;
                        San::from_move(before, &m).with_suffix(other.suffix())
                    }
                    None => {
                        self.letters.add(letters_of(self.game.token_bytes(&token)));
                        self.report_unreadable(&site(), &e);
                        line.state = State::Stopped { at_last_move: true };
                        return None;
                    }
                },
            }
        };

        if let Some(ended) = &line.end
            && self.after_end(ended, &mut line.end_reported, &site())
        {
            line.state = State::Stopped { at_last_move: true };
            return None;
        }
        let ended_before = line.end.is_some();

        if san.is_null() {
            let Some(passed) = before.pass_turn() else {
                self.push_at(
                    Code::IllegalMove,
                    &site(),
                    "a null move while in check".to_string(),
                );
                line.state = State::Stopped { at_last_move: true };
                return None;
            };
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
            self.record(token.start, text.len(), ply, before, None, path);
            line.pos = passed;
            line.ply = ply;
            // The history restarts after a pass, so a variation replacing it
            // starts a history of its own.
            histories[depth].push(self.rules.key(&line.pos), Restart::Null);
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
        // The end on the board, if any; the automatic draws follow once the position's
        // repetitions are counted.
        let board_end = after.game_end();
        let deserved = match board_end {
            Some(GameEnd::Checkmate { .. }) => Some(Suffix::Mate),
            _ if after.is_check() => Some(Suffix::Check),
            _ => None,
        };
        self.record(
            token.start,
            text.len(),
            ply,
            before,
            Some((&m, deserved)),
            path,
        );
        // A move read in another notation is no SAN to judge.
        if self.foreign {
            self.foreign = false;
        } else {
            let notation = san.notation(before, &m, deserved);
            if !notation.is_canonical() {
                self.notation_findings(&san, &notation, &m, &site());
            }
        }

        // Book-keeping for repetition: positions before an irreversible move never recur.
        let rules = self.rules;
        let after = &line.pos;
        let key = rules.key(after);
        let clock = after.halfmove_clock();
        self.max_clock = self.max_clock.max(clock);
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

        let end = board_end
            .or_else(|| dead_end(line.dead_at, ply, &line.pos))
            .or_else(|| automatic_draw(rules, &line.pos, occurrences));
        if let Some(end) = end
            && !ended_before
        {
            let (numbered, _) = self.describe(&site());
            line.end = Some(Ended {
                end,
                ply,
                after_move: numbered,
                position: line.pos,
                before: *before,
            });
        }
        // A move that ends the game (mate, stalemate, a dead position, and under
        // automatic draws fivefold or 75 moves) ends it at once: nobody can claim a
        // draw after it.
        if end.is_some() || ended_before {
            return None;
        }
        Some((occurrences >= 3, clock >= 100))
    }

    /// Reports a move written after its line's game `ended` (once a line: `reported`),
    /// and whether the line stops there. After mate or stalemate no move exists. After a
    /// dead position, fivefold repetition or 75 moves the recorded moves are still
    /// chess: replayed (they are checked and converted), but the game's end stays where
    /// it was; if they reach mate or stalemate, a move after that is impossible.
    fn after_end(&mut self, ended: &Ended, reported: &mut bool, site: &Site) -> bool {
        if !*reported {
            *reported = true;
            self.report_move_after_end(ended, site);
        }
        if ended.end.leaves_no_move() {
            return true;
        }
        if !site.before.has_legal_moves() {
            self.report_move_after_no_move(ended, site);
            return true;
        }
        false
    }

    /// Records a move that replayed, when recording: `mv` played in `before`, with the
    /// check mark it deserved (`None` for a null move), on the line at `path`.
    #[inline]
    fn record(
        &mut self,
        start: u32,
        len: usize,
        ply: u32,
        before: &Position,
        mv: Option<(&Move, Option<Suffix>)>,
        path: &[u32],
    ) {
        match &mut self.recording {
            Recording::Off => {}
            Recording::Played(played) => {
                let san = mv.map(|(m, suffix)| San::from_move(before, m).with_suffix(suffix));
                played.push(PlayedMove {
                    span: (start, start + len as u32),
                    ply,
                    san,
                    mv: mv.map(|(m, _)| *m),
                });
            }
            Recording::MainLine(main_line) => {
                if let (true, Some((m, _))) = (path.is_empty(), mv) {
                    main_line.push(*m);
                }
            }
        }
    }
}
