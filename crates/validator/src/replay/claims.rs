//! Draw claims: the first chance to claim a threefold repetition or fifty moves on the
//! main line, and whether the game went on past it (a missed claim).

use crate::checker::GameChecker;
use crate::finding::{Code, Finding};
use crate::replay::Line;
use planilla_core::{Color, Position};
use planilla_parser::Token;

/// The first chance of each claim on the main line.
#[derive(Default)]
pub(super) struct Claims {
    threefold: Option<Chance>,
    fifty: Option<Chance>,
}

impl Claims {
    /// The claims of a game starting from `start`, set up by the FEN tag at the byte
    /// `fen_at` gives (looked for only when needed): a half-move clock of 100 or more
    /// completes fifty moves before the first move, and the side to move could claim
    /// at once.
    pub(super) fn starting(start: &Position, fen_at: impl FnOnce() -> usize) -> Claims {
        let fifty = (start.halfmove_clock() >= 100).then(|| Chance {
            ply: 0,
            at: fen_at(),
            numbered: String::new(),
            san: String::new(),
            fen: start.fen(),
            mover: start.turn(),
            later: 0,
        });
        Claims {
            threefold: None,
            fifty,
        }
    }
}

/// The first draw-claim chance of a rule on the main line.
struct Chance {
    /// 0: the position the game starts from (set up by a FEN whose half-move clock is
    /// 100 or more).
    ply: u32,
    /// Byte of the completing move (or of the FEN tag).
    at: usize,
    /// The completing move with its number (`12... Nxe5`), and alone.
    numbered: String,
    san: String,
    /// The position before the completing move.
    fen: String,
    /// Who made the completing move (at the start: the side to move).
    mover: Color,
    /// Chances of the same claim after this one.
    later: u32,
}

/// The half-move clock field of a FEN this program wrote.
fn fen_clock(fen: &str) -> &str {
    fen.split(' ').nth(4).unwrap_or("?")
}

impl GameChecker<'_> {
    /// Records the draw-claim chances after a main-line move (the move `token`,
    /// `line` after it): whether threefold repetition and fifty moves can be claimed.
    pub(super) fn note_chances(
        &mut self,
        line: &Line,
        token: Token,
        (threefold_now, fifty_now): (bool, bool),
        claims: &mut Claims,
    ) {
        let slots = [
            (threefold_now, &mut claims.threefold),
            (fifty_now, &mut claims.fifty),
        ];
        for (now, slot) in slots {
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

    /// Reports the claims the main line missed: a chance the game went on from, or one
    /// at its last move when it did not end drawn (`result`, `*` or none included).
    pub(super) fn report_missed_claims(
        &mut self,
        result: Option<&str>,
        last_ply: u32,
        claims: Claims,
    ) {
        let drawn = result == Some("1/2-1/2");
        let finished = result.is_some_and(|r| r != "*");
        for (chance, code) in [
            (claims.threefold, Code::MissedThreefoldClaim),
            (claims.fifty, Code::MissedFiftyMoveClaim),
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
                let finding = Finding {
                    fen: Some(c.fen),
                    ..self.finding(code, c.at, message)
                };
                self.out.push(finding);
                continue;
            }
            let message = format!(
                "{what} with {}: {} could claim a draw by writing it, {} on the next turn; {how}{later}",
                c.numbered,
                c.mover.name(),
                c.mover.other().name()
            );
            let finding = Finding {
                ply: Some(c.ply),
                numbered_move: Some(c.numbered),
                san: Some(c.san),
                fen: Some(c.fen),
                ..self.finding(code, c.at, message)
            };
            self.out.push(finding);
        }
    }
}
