//! How a line of play ends and what result the game records: the end on the board
//! (mate, stalemate, a dead position, the automatic draws), a move written after it,
//! and the result checks (tag against marker, result against the final position).

use crate::checker::GameChecker;
use crate::finding::{Code, Finding};
use crate::replay::claims::Claims;
use crate::replay::clocks::Clocks;
use crate::replay::dgt::Signal;
use crate::replay::scoresheet::read_result;
use crate::replay::{Line, Site, State};
use crate::rules::Rules;
use planilla_core::{Color, GameEnd, Position};
use planilla_parser::Token;

/// How, at which ply, after which move and in which position a line's game ended.
#[derive(Clone)]
pub(super) struct Ended {
    pub(super) end: GameEnd,
    /// 0: the game started ended (a FEN set it up that way).
    pub(super) ply: u32,
    /// The ending move with its number (`40. Qh7#`); empty at the start.
    pub(super) after_move: String,
    /// The position the game ended in.
    pub(super) position: Position,
    /// The position before the move that ended it (the one it ended in, for a game
    /// that started ended): where a dead position may have come first.
    pub(super) before: Position,
}

/// How the main line's text ends: what [`GameChecker::finish_main_line`] judges.
pub(super) struct Ending<'t> {
    /// The result marker after the moves, read for what it means.
    pub(super) marker: Option<(Token, &'static str)>,
    /// The Result tag as written.
    pub(super) tag: Option<&'t str>,
    /// A DGT result signal that ends the moves.
    pub(super) signal: Option<Signal>,
    /// The main line's clocks (for a win on time: the loser's last one).
    pub(super) clocks: &'t Clocks,
}

/// The automatic draw under `rules` of a position that occurred `occurrences` times
/// (this time included) and has no end of its own (see [`Position::game_end`]).
#[inline]
pub(super) fn automatic_draw(rules: Rules, pos: &Position, occurrences: u32) -> Option<GameEnd> {
    if !rules.automatic_draws() {
        None
    } else if occurrences >= 5 {
        Some(GameEnd::FivefoldRepetition)
    } else if pos.halfmove_clock() >= 150 {
        Some(GameEnd::SeventyFiveMoves)
    } else {
        None
    }
}

/// How a finding names a game end.
fn describe(end: GameEnd) -> &'static str {
    match end {
        GameEnd::Checkmate { .. } => "checkmate",
        GameEnd::Stalemate => "stalemate",
        GameEnd::InsufficientMaterial => "a dead position (neither side can mate)",
        GameEnd::DeadPosition {
            pawns_blocked: true,
        } => "a dead position (the pawns are blocked and no piece can cross them)",
        GameEnd::DeadPosition {
            pawns_blocked: false,
        } => "a dead position (no sequence of legal moves can end in checkmate)",
        GameEnd::FivefoldRepetition => "fivefold repetition (an automatic draw)",
        GameEnd::SeventyFiveMoves => "the 75-move rule (an automatic draw)",
    }
}

/// The only result a game end allows, as PGN writes it.
fn result_of(end: GameEnd) -> &'static str {
    match end.winner() {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

impl GameChecker<'_> {
    /// Reports the first move written after the game ended: `move-after-game-end`
    /// after checkmate or stalemate (no legal move existed), `move-after-draw` after a
    /// draw by a rule that left legal moves (the moves were played, they are only no
    /// part of the game).
    #[cold]
    #[inline(never)]
    pub(super) fn report_move_after_end(&mut self, ended: &Ended, site: &Site) {
        let (code, after) = if ended.end.leaves_no_move() {
            (Code::MoveAfterGameEnd, "no move may follow")
        } else {
            (
                Code::MoveAfterDraw,
                "drawn there; the moves recorded after it are not part of the game",
            )
        };
        let message = if ended.ply == 0 {
            format!(
                "the game had already ended in its starting position by {}: {after}",
                describe(ended.end)
            )
        } else {
            format!(
                "the game had already ended after {} by {} (ply {}): {after}",
                ended.after_move,
                describe(ended.end),
                ended.ply
            )
        };
        self.push_at(code, site, message);
    }

    /// Reports a move written where no legal move exists, in the moves recorded after
    /// the game ended in a draw (`ended`): they reached checkmate or stalemate in the
    /// position the move at `site` is written in.
    #[cold]
    #[inline(never)]
    pub(super) fn report_move_after_no_move(&mut self, ended: &Ended, site: &Site) {
        let what = if site.before.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        let message = format!(
            "the moves recorded after the game's end (ply {}) reached {what} at ply {}: no \
             move may follow",
            ended.ply,
            site.ply - 1
        );
        self.push_at(Code::MoveAfterGameEnd, site, message);
    }

    /// Checks the main line's result once it is read: the Result tag against the
    /// result written after the moves, the claims missed, and the result against the
    /// position the game ended in (`main` after its last move, at `last_ply`), against
    /// the result a DGT `signal` after it gave, and a win on time against the final
    /// position (Law 6.9, [`super::timeout`]).
    pub(super) fn finish_main_line(
        &mut self,
        main: &Line,
        last_ply: u32,
        ending: Ending,
        claims: Claims,
    ) {
        let Ending {
            marker,
            tag: written_tag,
            signal,
            clocks,
        } = ending;
        let tag = written_tag.and_then(read_result).map(|r| r.result);
        let result = marker.map(|(_, r)| r).or(tag);
        let result_at = marker
            .map(|(t, _)| t.start as usize)
            .or_else(|| self.tag_position("Result"))
            .unwrap_or(0);

        if let (Some((t, m)), Some(tag)) = (marker, tag)
            && m != tag
        {
            let message = format!(
                "the Result tag says {tag} but the movetext ends with {}",
                self.as_written(t, m)
            );
            self.game_note(Code::ResultMismatch, t.start as usize, message);
        }
        // A Result tag that is no result at all (`1-1`, `draw`, `?`) disagrees with the
        // movetext's result too: PGN allows only the four.
        if let Some((t, m)) = marker
            && tag.is_none()
            && let Some(written) = written_tag
        {
            let message = format!(
                "the Result tag '{written}' is no result (1-0, 0-1, 1/2-1/2 or *); the movetext ends with {m}"
            );
            self.game_note(Code::ResultMismatch, t.start as usize, message);
        }

        if let Some(signal) = signal {
            self.main_end.signal = Some((signal.ply, signal.result));
            self.compare_with_signal(signal, marker, tag);
        }

        self.report_missed_claims(result, last_ply, claims);

        let replayed_to_end = matches!(main.state, State::Live) || main.end_reported;
        if !main.skipped && replayed_to_end {
            self.main_end.board = main.end.as_ref().map(|e| (e.ply, result_of(e.end)));
        }
        let finished = result.is_some_and(|r| r != "*");
        if main.skipped || !finished || !replayed_to_end {
            return;
        }
        let Some(result) = result else { return };
        if let Some(ended) = &main.end
            && result_of(ended.end) != result
        {
            let message = format!(
                "the result {result} contradicts the final position: {} at ply {} means {}",
                describe(ended.end),
                ended.ply,
                result_of(ended.end)
            );
            let finding = Finding {
                fen: Some(ended.position.fen()),
                ..self.finding(Code::ResultMismatch, result_at, message)
            };
            self.out.push(finding);
        }
        // Law 6.9: a win on time where the winner cannot mate. (A game that ended on the
        // board was judged there; one whose moves did not all replay has no final
        // position to ask about.)
        if main.end.is_none()
            && main.state == State::Live
            && self.judge_win_on_time(main, result, result_at, clocks)
        {
            self.main_end.drawn_on_time = true;
        }
    }

    /// The result marker `token` that reads as `result`, with its written form when
    /// that is another (`+/- (1-0)`).
    fn as_written(&self, token: Token, result: &str) -> String {
        let written = self.game.decode(token.span());
        if written == result {
            written.into_owned()
        } else {
            format!("{written} ({result})")
        }
    }

    /// A result written after a DGT signal (the marker, else the Result tag) that is
    /// not the signal's: `*` says nothing and disagrees with no signal.
    fn compare_with_signal(
        &mut self,
        signal: Signal,
        marker: Option<(Token, &'static str)>,
        tag: Option<&'static str>,
    ) {
        let written = match (marker, tag) {
            (Some((t, m)), _) => Some((m, t.start as usize, "the movetext ends with")),
            (None, Some(r)) => Some((
                r,
                self.tag_position("Result").unwrap_or(0),
                "the Result tag says",
            )),
            (None, None) => None,
        };
        if let Some((result, at, what)) = written
            && result != "*"
            && result != signal.result
        {
            let message = format!(
                "{what} {result} but the DGT result signal at ply {} means {}",
                signal.ply, signal.result
            );
            self.game_note(Code::ResultMismatch, at, message);
        }
    }
}
