//! Dead positions that the board alone does not show (Laws 5.2.2: no sequence of legal
//! moves ends in checkmate, though the material would allow one): walls of blocked
//! pawns, a capture that must be made, a king locked in. The core's
//! [`planilla_core::unwinnable`] decides them; this module decides when to ask.
//!
//! A position reachable from a dead position is dead (every line from it is a line from
//! the first), so the last position of a line of play settles the whole line: if it is
//! alive, no position before it was dead. The replay asks nothing while it plays the
//! moves; when a line ends (its variation closes, or the game's text ends), its last
//! position is screened ([`may_be_dead`]: bare or blocked material only; a game set up
//! from a FEN skips the screen) and, if it may be dead, decided
//! ([`planilla_core::unwinnable::Solver::deadness`]). A line that
//! ended on the board asks about the position before its end instead: a game drawn by
//! material or stalemate may have been dead a move earlier (the capture of the last
//! piece was forced), one drawn by fivefold repetition or 75 moves asks about the
//! position it ended in. Checkmate ends a game that was alive.
//!
//! When a line is dead, it is read again from its start, its positions are collected,
//! and the first dead one is found by bisection (deadness only ever begins). The game
//! is then replayed a second time with those plies known: the dead position ends the
//! line there, as any end on the board does, so the moves after it, the draw claims
//! past it, the variations branching after it and the result are judged as after any
//! other end, in the order of the text. Games without such a position, nearly all,
//! are replayed once and pay for one screen per line.

use super::{GameChecker, Line, with_marks};
use planilla_core::san::San;
use planilla_core::unwinnable::{Deadness, may_be_dead};
use planilla_core::{Color, GameEnd, Position, Role};
use planilla_parser::{Token, TokenKind};

/// Whether pawns stand blocked by enemy pawns (a dead position's wall).
pub(super) fn pawns_blocked(pos: &Position) -> bool {
    let board = pos.board();
    let pawns = board.by_role(Role::Pawn);
    let white = pawns & board.by_color(Color::White);
    let black = pawns & board.by_color(Color::Black);
    (white.shift_up() & black).any()
}

/// The end of a line whose first dead position is at `dead_at` (known on the second
/// replay), when `pos` at `ply` is that position.
#[inline]
pub(super) fn dead_end(dead_at: Option<u32>, ply: u32, pos: &Position) -> Option<GameEnd> {
    (dead_at == Some(ply)).then(|| GameEnd::DeadPosition {
        pawns_blocked: pawns_blocked(pos),
    })
}

impl GameChecker<'_> {
    /// The first pass's dead position in the line at `path`, if there is one.
    pub(super) fn dead_at(&self, path: &[u32]) -> Option<u32> {
        self.dead_plies
            .iter()
            .find(|(at, _)| at.as_slice() == path)
            .map(|&(_, ply)| ply)
    }

    /// Asks whether `line`, read to its end, reached a dead position the board did not
    /// show; notes its first one for the second replay (see the module).
    pub(super) fn probe_line_end(&mut self, line: &Line) {
        if line.skipped {
            return;
        }
        let (probe, ply) = match &line.end {
            None => (&line.pos, line.ply),
            // An end the line took over from the line it branches from: what came
            // before is that line's to ask.
            Some(ended) if ended.ply <= line.first_ply => return,
            Some(ended) => match ended.end {
                GameEnd::Checkmate { .. } | GameEnd::DeadPosition { .. } => return,
                GameEnd::FivefoldRepetition | GameEnd::SeventyFiveMoves => {
                    (&ended.position, ended.ply)
                }
                GameEnd::Stalemate | GameEnd::InsufficientMaterial => {
                    (&ended.before, ended.ply - 1)
                }
            },
        };
        // A game set up from a FEN may be a composed position, where the screen's
        // rule of thumb fails (a rook caged by its own pawns): those are asked whatever
        // their material.
        let screened = may_be_dead(probe.board()) || self.tag_position("FEN").is_some();
        if screened && self.solver.deadness(probe) == Deadness::Dead {
            self.find_first_dead(line, ply);
        }
    }

    /// Reads `line` again up to `ply`, whose position is dead, and notes the ply of
    /// its first dead position.
    #[cold]
    #[inline(never)]
    fn find_first_dead(&mut self, line: &Line, ply: u32) {
        let positions = self.positions_of(line, ply);
        // Every move up to `ply` replayed on the first pass: anything else is a bug.
        if positions.len() != (ply - line.first_ply) as usize + 1 {
            debug_assert!(false, "the line reads again to ply {ply}");
            return;
        }
        let (mut alive, mut dead) = (0usize, positions.len() - 1);
        if self.solver.deadness(&positions[0]) == Deadness::Dead {
            dead = 0;
        }
        // `alive` is a position not known to be dead, `dead` a dead one after it.
        while alive + 1 < dead {
            let mid = alive + (dead - alive) / 2;
            if self.solver.deadness(&positions[mid]) == Deadness::Dead {
                dead = mid;
            } else {
                alive = mid;
            }
        }
        self.dead_plies
            .push((line.path.clone(), line.first_ply + dead as u32));
    }

    /// The positions of `line` from its start to `ply`, its moves read again as the
    /// replay read them.
    fn positions_of(&self, line: &Line, ply: u32) -> Vec<Position> {
        let game = self.game;
        let tokens = game.tokens();
        let wanted = (ply - line.first_ply) as usize + 1;
        let mut positions = Vec::with_capacity(wanted);
        positions.push(line.start);
        let mut depth = 0u32;
        let mut i = line.first_token as usize;
        while i < tokens.len() && positions.len() < wanted {
            let token = tokens[i];
            i += 1;
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd if depth == 0 => break,
                TokenKind::VariationEnd => depth -= 1,
                TokenKind::San if depth == 0 => {
                    let end = with_marks(game, tokens, token, &mut i);
                    let before = positions[positions.len() - 1];
                    let Some(san) = self.read_move(token, end) else {
                        break;
                    };
                    let after = if san.is_null() {
                        match before.pass_turn() {
                            Some(passed) if !line.path.is_empty() => passed,
                            _ => break,
                        }
                    } else {
                        match san.resolve(&before) {
                            Ok(m) => before.play(&m),
                            Err(_) => break,
                        }
                    };
                    positions.push(after);
                }
                _ => {}
            }
        }
        positions
    }

    /// The move written at `token` (its marks up to byte `end`), read as the replay
    /// reads it.
    fn read_move(&self, token: Token, end: u32) -> Option<San> {
        let text = &self.game.bytes()[token.start as usize..end as usize];
        if let Some(san) = San::parse_plain(text, self.lang) {
            return Some(san);
        }
        if text.is_ascii() {
            San::parse(text, self.lang).ok()
        } else {
            let decoded = self.game.decoded_bytes(token.start as usize..end as usize);
            San::parse(&decoded, self.lang).ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Checker, Code, Config, Finding};
    use planilla_parser::Game;

    fn check(pgn: &str) -> Vec<Finding> {
        let mut out = Vec::new();
        Checker::new(Config::default()).check(&Game::from_bytes(pgn, Default::default()), &mut out);
        out
    }

    /// The findings of `pgn` about its end: (code, ply, variation path, message).
    fn ends(pgn: &str) -> Vec<(Code, Option<u32>, Vec<u32>, String)> {
        check(pgn)
            .into_iter()
            .filter(|f| {
                matches!(
                    f.code,
                    Code::MoveAfterGameEnd | Code::MoveAfterDraw | Code::ResultMismatch
                )
            })
            .map(|f| (f.code, f.ply, f.variation, f.message))
            .collect()
    }

    /// Dead positions the search finds end the line where they arise, in the main line
    /// and in variations, and the result is judged there. Every position's verdict was
    /// checked with chasolver 3.0.0 (`scripts/bench dead --labels`).
    #[test]
    fn a_dead_position_ends_the_line_where_it_arises() {
        // 40. g4 completes a wall no piece can cross (the position before it is alive).
        let wall = "[FEN \"8/4k3/1p1p1p1p/pPpPpPpP/P1P1P3/6P1/2B1K3/8 w - - 0 40\"]\n\n";
        let found = ends(&format!(
            "{wall}40. g4 Kd7 (40... Kf7 41. Kf3) 41. Kd2 1/2-1/2"
        ));
        let after = "the game had already ended after 40. g4 by a dead position (the pawns \
                     are blocked and no piece can cross them) (ply 1): drawn there; the moves \
                     recorded after it are not part of the game";
        assert_eq!(
            found,
            [
                (Code::MoveAfterDraw, Some(2), vec![], after.to_string()),
                (Code::MoveAfterDraw, Some(2), vec![1], after.to_string()),
            ]
        );
        // Scored as a win: the result contradicts the position.
        let found = ends(&format!("{wall}40. g4 1-0"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Code::ResultMismatch);
        assert!(found[0].3.ends_with(
            "the pawns are blocked and no piece can cross them) at ply 1 means 1/2-1/2"
        ));
        // The queen must be taken: the game ended with the check, not with the capture.
        let found =
            ends("[FEN \"1K6/3k4/8/8/8/8/8/q7 b - - 0 60\"]\n\n60... Qa8+ 61. Kxa8 1/2-1/2");
        assert_eq!(
            found,
            [(
                Code::MoveAfterDraw,
                Some(2),
                vec![],
                "the game had already ended after 60... Qa8+ by a dead position (no sequence \
                 of legal moves can end in checkmate) (ply 1): drawn there; the moves \
                 recorded after it are not part of the game"
                    .to_string()
            )]
        );
        // A knight against a pawn: the pawn can promote and block its own king in, so
        // White can mate (a helpmate), and a win stands.
        assert!(ends("[FEN \"7k/8/8/8/8/8/p7/K1N5 w - - 0 1\"]\n\n1-0").is_empty());
    }

    /// Moves after a draw by a rule were played: a warning. Where they reach a position
    /// with no legal move, a move written after it is an error, as after any mate or
    /// stalemate.
    #[test]
    fn moves_after_a_draw_are_a_warning_until_no_move_exists() {
        // Bare material from the start; 1. Kf7 stalemates Black; 1... Kh7 cannot be.
        let found = ends("[FEN \"7k/8/5K2/8/8/8/8/1B6 w - - 0 1\"]\n\n1. Kf7 Kh7 1/2-1/2");
        assert_eq!(
            found,
            [
                (
                    Code::MoveAfterDraw,
                    Some(1),
                    vec![],
                    "the game had already ended in its starting position by a dead position \
                     (neither side can mate): drawn there; the moves recorded after it are not \
                     part of the game"
                        .to_string()
                ),
                (
                    Code::MoveAfterGameEnd,
                    Some(2),
                    vec![],
                    "the moves recorded after the game's end (ply 0) reached stalemate at ply \
                     1: no move may follow"
                        .to_string()
                ),
            ]
        );
        // After checkmate no move exists: an error at once.
        let found = ends("1. f3 e5 2. g4 Qh4# 3. Kf2 0-1");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Code::MoveAfterGameEnd);
    }
}
