//! The clocks a game records in its main line's comments (`{ [%clk 0:04:58] }`):
//! commands that are malformed, a side's clock that rises by more than the time control
//! gives, and moves without a clock in a game that records clocks on others. All
//! reported as `clock-annotation`.
//!
//! Only comments that hold `[%` are read (the replay looks for it with one byte search
//! in a main-line comment), and nothing is done per move. A clock costs its parse and a
//! few comparisons: the move it follows is found from the comment's token (usually the
//! one before it), and the first move without a clock (reported once a game) by reading
//! the main line again from the start, so that no position is kept per clock.
//!
//! Rules, decided here:
//! - A `[%clk]` after a move is the mover's clock after that move; `[%emt]` (the time a
//!   move took) is only checked for its form.
//! - A rise is judged only against a TimeControl tag that gives the time: without one
//!   (absent, `?`, `-`, unreadable) or with a sandclock (`*180`, where a clock rises by
//!   design) a rise is not reported, since some time control would explain any rise.
//!   Nor in a game played on lichess.org (its Site tag `https://lichess.org/<id>`): the
//!   opponent may give time there, 15 s a click (`lichess_db_1000k.pgn` has four such
//!   rises, up to 307 s).
//!   With one, a side's clock may rise from its previous value (at the first clock:
//!   from the first period's time) by the increment of each move in between (the
//!   largest increment of the tag: broadcasts write `40/5400:1800+30` for an increment
//!   from move 1), plus 1 second, plus the time a period adds when its move count is
//!   reached (at the move that reaches it or the next, as clocks add it either way; a
//!   last period with a move count repeats, as `40/7200` means).
//! - A move without a clock is reported once, at the first such move, when the main
//!   line has clocks on other moves; the last move alone without one is not reported
//!   (a clock is often not pressed after the game's final move, mate or resignation).
//! - Clocks are followed while the main line replays: after a move that fails, the
//!   clocks of moves that were not played are not judged.

use crate::checker::GameChecker;
use crate::finding::Code;
use crate::replay::{Line, Site, State, is_check_mark};
use planilla_core::san::San;
use planilla_core::{Color, Position};
use planilla_parser::commands::{ClockCommand, ClockError, ClockKind, clock_commands, lone_clock};
use planilla_parser::tag_values::{Period, TimeControl, parse_time_control};
use planilla_parser::{Game, TokenKind};

/// The clock state of a game's main line.
#[derive(Default)]
pub(super) struct Clocks {
    /// Whether a main-line comment has held a `[%clk]` yet.
    active: bool,
    /// The time control, once active; `None` when it cannot judge a rise.
    control: Option<Vec<Period>>,
    /// Each side's last clock: the side's move number and the time in milliseconds
    /// (white first).
    last: [Option<(u32, u64)>; 2],
    /// The last main-line ply whose comment held a `[%clk]` (0: none yet).
    clocked_ply: u32,
    /// A move without a clock has been reported.
    missing_reported: bool,
}

/// A side's clock that rose by more than the time control allows.
struct Rise {
    /// The side whose clock rose.
    side: Color,
    /// The clock it rose from, in milliseconds.
    from: u64,
    /// Whether that is the time control's start (the side's first clock).
    from_start: bool,
    /// The clock after the rise, in milliseconds.
    to: u64,
    /// The most it could rise, in milliseconds.
    allowed: u64,
}

impl Clocks {
    /// Whether the check has woken (a `[%clk]` was seen).
    #[inline]
    pub(super) fn active(&self) -> bool {
        self.active
    }

    /// `side`'s last clock in the main line, in milliseconds.
    pub(super) fn last_of(&self, side: Color) -> Option<u64> {
        self.last[(side == Color::Black) as usize].map(|(_, ms)| ms)
    }
}

/// Nothing per move: the replay calls the methods below only for a main-line comment
/// that holds `[%` and, in a game with clocks, at its end. The move a comment follows
/// is found from the comment's token then.
impl GameChecker<'_> {
    /// Reads the clock commands of the comment `tokens[index]` in the main line `main`
    /// (the game started from `start`).
    #[cold]
    #[inline(never)]
    pub(super) fn clock_comment(
        &mut self,
        clocks: &mut Clocks,
        main: &Line,
        index: usize,
        start: &Position,
    ) {
        // Clocks belong to moves: none before the first move, and none after a move that
        // did not replay.
        let (Some(before), State::Live) = (main.prev.as_ref(), main.state) else {
            return;
        };
        let game = self.game;
        // The move the comment follows: usually the token before it.
        let Some((at, end)) = main_move_before(game, index) else {
            return;
        };
        let site = Site {
            at,
            len: end - at,
            ply: main.ply,
            before,
            path: &[],
        };
        let comment = game.tokens()[index];
        // The text inside the braces, from byte `offset` of the game.
        let mut text = game.token_bytes(&comment);
        let mut offset = comment.start as usize;
        if let Some(inner) = text.strip_prefix(b"{") {
            text = inner.strip_suffix(b"}").unwrap_or(inner);
            offset += 1;
        }
        // A comment that holds one clock alone (`{ [%clk 0:04:58] }` after every move of
        // an online export) is read at fixed places, without the search.
        if let Some(ClockCommand {
            span,
            value: Ok(value),
            ..
        }) = lone_clock(text)
        {
            if self.clock_of_move(clocks, main, start) {
                self.judge_clock(clocks, &site, offset + span.start, value);
            }
            return;
        }
        for command in clock_commands(text) {
            let at = offset + command.span.start;
            if command.kind == ClockKind::Clock
                && !self.clock_of_move(clocks, main, start)
                && command.value.is_ok()
            {
                // A second clock for the same move: its form only.
                continue;
            }
            let value = match command.value {
                Ok(value) => value,
                Err(e) => {
                    self.report_malformed(&site, at..offset + command.span.end, e);
                    continue;
                }
            };
            if command.kind == ClockKind::Clock {
                self.judge_clock(clocks, &site, at, value);
            }
        }
    }

    /// A `[%clk]` after the main line's move `main.ply`: wakes the check at the game's
    /// first clock, reports the moves skipped since the last clock, and returns whether
    /// it is the move's first clock (a second one is read for its form only).
    #[inline(always)]
    fn clock_of_move(&mut self, clocks: &mut Clocks, main: &Line, start: &Position) -> bool {
        if !clocks.active {
            clocks.active = true;
            clocks.control = self.time_control();
        }
        if clocks.clocked_ply == main.ply {
            return false;
        }
        // Moves skipped since the last clock (or since the start) have none.
        if clocks.clocked_ply + 1 < main.ply {
            self.report_move_without_clock(clocks, start);
        }
        clocks.clocked_ply = main.ply;
        true
    }

    /// Judges the clock `value` (in milliseconds), written at byte `at`, of the move at
    /// `site`, against the side's last clock and the time control.
    #[inline(always)]
    fn judge_clock(&mut self, clocks: &mut Clocks, site: &Site, at: usize, value: u64) {
        let side = site.before.turn();
        let number = site.before.fullmoves();
        let slot = &mut clocks.last[(side == Color::Black) as usize];
        let previous = slot.replace((number, value));
        let Some(control) = &clocks.control else {
            return;
        };
        let (from_move, from) = previous.unwrap_or((0, u64::from(control[0].seconds) * 1000));
        if from_move >= number {
            return;
        }
        let allowed = allowance(control, from_move, number);
        if value > from + allowed {
            let rise = Rise {
                side,
                from,
                from_start: previous.is_none(),
                to: value,
                allowed,
            };
            self.report_rise(site, at, rise);
        }
    }

    /// Reports the malformed clock command at `span` of the game, of the move at `site`.
    #[cold]
    #[inline(never)]
    fn report_malformed(&mut self, site: &Site, span: std::ops::Range<usize>, e: ClockError) {
        let at = span.start;
        let written = self.game.decode(span);
        let message = format!("'{}': {e}", written.escape_debug());
        self.push_clock(site, at, message);
    }

    /// Reports a clock that rose by more than the time control allows, written at byte
    /// `at`, of the move at `site`.
    #[cold]
    #[inline(never)]
    fn report_rise(&mut self, site: &Site, at: usize, rise: Rise) {
        let side = if rise.side == Color::White {
            "white"
        } else {
            "black"
        };
        let start = if rise.from_start {
            " (the time control's start)"
        } else {
            ""
        };
        let tc = self
            .game
            .tag("TimeControl")
            .unwrap_or_default()
            .into_owned();
        let message = format!(
            "{side}'s clock rises from {}{start} to {}, by {}: the time control '{}' \
             allows a rise of {} at most (1 s of tolerance included)",
            hms(rise.from),
            hms(rise.to),
            seconds(rise.to - rise.from),
            tc.escape_debug(),
            seconds(rise.allowed),
        );
        self.push_clock(site, at, message);
    }

    /// At the end of a game with clocks: two or more moves at the end without one (the
    /// last move alone is not reported) are reported at the first.
    #[cold]
    #[inline(never)]
    pub(super) fn clocks_at_end(&mut self, clocks: &mut Clocks, main: &Line, start: &Position) {
        if clocks.clocked_ply + 1 < main.ply {
            self.report_move_without_clock(clocks, start);
        }
    }

    /// Reports the main line's move after the last one with a clock (the first move of
    /// the game, from `start`, when none had one), once a game. That move and every one
    /// before it replayed, so the main line is read again up to it for its position.
    fn report_move_without_clock(&mut self, clocks: &mut Clocks, start: &Position) {
        if clocks.missing_reported {
            return;
        }
        let ply = clocks.clocked_ply + 1;
        let Some((index, before)) = self.main_line_move(start, ply) else {
            return;
        };
        clocks.missing_reported = true;
        let (at, end) = with_marks(self.game, index);
        let site = Site {
            at,
            len: end - at,
            ply,
            before: &before,
            path: &[],
        };
        self.push_clock(&site, at, missing_message());
    }

    /// The token index of the main line's move `ply` (counted from 1) and the position
    /// before it, read again from `start`: the moves before it replayed, and they replay
    /// the same way here (the replay's language, the moves' decoded text when not ASCII).
    fn main_line_move(&self, start: &Position, ply: u32) -> Option<(usize, Position)> {
        let game = self.game;
        let mut pos = *start;
        let mut played = 0u32;
        let mut depth = 0usize;
        for (i, token) in game.tokens().iter().enumerate() {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.checked_sub(1)?,
                TokenKind::San if depth == 0 => {
                    if played + 1 == ply {
                        return Some((i, pos));
                    }
                    let text = game.decoded_bytes(token.span());
                    let m = San::parse(&text, self.lang).ok()?.resolve(&pos).ok()?;
                    pos = pos.play(&m);
                    played += 1;
                }
                _ => {}
            }
        }
        None
    }

    /// Reports a `clock-annotation` at byte `at` about the move at `site`.
    fn push_clock(&mut self, site: &Site, at: usize, message: String) {
        self.push_about(Code::ClockAnnotation, site, at, message);
    }

    /// The game's TimeControl when it can judge a rise.
    fn time_control(&self) -> Option<Vec<Period>> {
        if self
            .game
            .tag("Site")
            .is_some_and(|site| played_on_lichess(&site))
        {
            return None;
        }
        let tag = self.game.tag("TimeControl")?;
        match parse_time_control(&tag).ok()? {
            TimeControl::Periods(periods) if !periods.iter().any(|p| p.sandclock) => Some(periods),
            _ => None,
        }
    }
}

/// Whether `site` names a game played on lichess.org (`https://lichess.org/ENPo6ReH`),
/// where the opponent may give time (15 s a click, any number of clicks): a rise there
/// is no fault of the record.
fn played_on_lichess(site: &str) -> bool {
    let id = site
        .trim()
        .strip_prefix("https://")
        .or_else(|| site.trim().strip_prefix("http://"))
        .and_then(|rest| rest.strip_prefix("lichess.org/"));
    id.is_some_and(|id| {
        (8..=12).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

fn missing_message() -> String {
    "no [%clk] clock after this move, though the game records clocks after other moves".to_string()
}

/// The bytes of the main-line move that `tokens[index]` follows (with the marks
/// written after it), looking back over variations.
fn main_move_before(game: &Game, index: usize) -> Option<(usize, usize)> {
    let tokens = game.tokens();
    // Nearly always the token just before the comment, with no mark between them.
    if let Some(token) = index.checked_sub(1).map(|i| tokens[i])
        && token.kind == TokenKind::San
    {
        return Some((token.start as usize, token.end as usize));
    }
    let mut depth = 0usize;
    for (i, token) in tokens[..index].iter().enumerate().rev() {
        match token.kind {
            TokenKind::VariationEnd => depth += 1,
            TokenKind::VariationStart => depth = depth.checked_sub(1)?,
            TokenKind::San if depth == 0 => return Some(with_marks(game, i)),
            _ => {}
        }
    }
    None
}

/// The move `tokens[i]` and the en-passant and check marks written apart after it.
fn with_marks(game: &Game, i: usize) -> (usize, usize) {
    let tokens = game.tokens();
    let mut end = tokens[i].end;
    for mark in &tokens[i + 1..] {
        if mark.kind != TokenKind::EnPassantMark && !is_check_mark(game, mark) {
            break;
        }
        end = mark.end;
    }
    (tokens[i].start as usize, end as usize)
}

/// The most a side's clock may rise from its value after its move `from_move` (0: the
/// start) to its value after move `to_move`, in milliseconds.
fn allowance(control: &[Period], from_move: u32, to_move: u32) -> u64 {
    let increment = control.iter().map(|p| p.increment).max().unwrap_or(0);
    let mut allowed = u64::from(to_move - from_move) * u64::from(increment) * 1000 + 1000;
    // Period k ends after its move count; the next period's time (a last period with a
    // count: its own again) is added then. Counted when the boundary falls in
    // [from_move, to_move], so that a clock adding it one move late passes too.
    let mut boundary = 0u32;
    for (k, period) in control.iter().enumerate() {
        let Some(moves) = period.moves else {
            break;
        };
        let added = control.get(k + 1).unwrap_or(period).seconds;
        let last = k + 1 == control.len();
        loop {
            boundary = boundary.saturating_add(moves);
            if boundary > to_move {
                return allowed;
            }
            if boundary >= from_move {
                allowed += u64::from(added) * 1000;
            }
            if !last {
                break;
            }
        }
    }
    allowed
}

/// Milliseconds as `H:MM:SS` (with tenths and hundredths when they are not zero).
fn hms(ms: u64) -> String {
    let (s, rest) = (ms / 1000, ms % 1000);
    let base = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if rest == 0 {
        base
    } else {
        format!("{base}.{}", format!("{rest:03}").trim_end_matches('0'))
    }
}

/// Milliseconds as seconds (`40 s`, `0.5 s`).
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!(
            "{}.{} s",
            ms / 1000,
            format!("{:03}", ms % 1000).trim_end_matches('0')
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(text: &str) -> Vec<Period> {
        match parse_time_control(text) {
            Ok(TimeControl::Periods(p)) => p,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn allowances() {
        let cases: &[(&str, u32, u32, u64)] = &[
            ("300+3", 0, 1, 4_000),
            ("300+3", 5, 6, 4_000),
            ("300+3", 5, 8, 10_000),
            ("180", 5, 6, 1_000),
            ("40/7200:3600", 38, 39, 1_000),
            ("40/7200:3600", 39, 40, 3_601_000),
            ("40/7200:3600", 40, 41, 3_601_000),
            ("40/7200:3600", 41, 42, 1_000),
            ("40/7200:3600", 80, 81, 1_000),
            ("40/5400+30:1800+30", 39, 40, 1_831_000),
            ("40/7200:20/3600:900", 59, 60, 901_000),
            ("40/7200:20/3600:900", 39, 40, 3_601_000),
            ("40/7200", 79, 80, 7_201_000),
            ("40/7200", 0, 1, 1_000),
        ];
        for &(tc, from, to, expected) in cases {
            assert_eq!(
                allowance(&control(tc), from, to),
                expected,
                "{tc} {from}..{to}"
            );
        }
    }

    #[test]
    fn lichess_games() {
        assert!(played_on_lichess("https://lichess.org/ENPo6ReH"));
        assert!(played_on_lichess("http://lichess.org/ENPo6ReHab12"));
        assert!(!played_on_lichess(
            "https://lichess.org/broadcast/round/abc"
        ));
        assert!(!played_on_lichess("https://lichess.org/"));
        assert!(!played_on_lichess("Wijk aan Zee NED"));
    }

    #[test]
    fn times_as_written() {
        assert_eq!(hms(300_000), "0:05:00");
        assert_eq!(hms(179_900), "0:02:59.9");
        assert_eq!(hms(36_000_050), "10:00:00.05");
        assert_eq!(seconds(40_000), "40 s");
        assert_eq!(seconds(500), "0.5 s");
    }
}
