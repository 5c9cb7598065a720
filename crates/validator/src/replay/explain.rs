//! Explanations of moves that do not read or resolve: the language they do not read
//! in, the legal moves to the written square, a slip of one square that was likely
//! meant, or a move of the other side (moves copied out of order).

use crate::checker::GameChecker;
use crate::finding::Code;
use crate::replay::Site;
use planilla_core::san::{San, SanError, SanKind, SanParseError, Suffix};
use planilla_core::{Move, MoveList, Position, Role, Square};

impl GameChecker<'_> {
    /// Reports a written move that does not parse in the game's language (apart from
    /// [`GameChecker::play_move`], which runs for every move).
    #[cold]
    #[inline(never)]
    pub(super) fn report_unreadable(&mut self, site: &Site, e: &SanParseError) {
        let (_, written) = self.describe(site);
        let message = format!(
            "'{written}' is not a move in {} notation: {e}",
            self.lang.name()
        );
        self.push_at(Code::IllegalMove, site, message);
    }

    /// The finding for a move that does not resolve, with candidates and a
    /// likely intended move where one is obvious.
    #[cold]
    #[inline(never)]
    pub(super) fn explain(&mut self, site: &Site, san: &San, error: SanError) -> (Code, String) {
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
}

/// The only legal move of the written kind of piece to a square next to the
/// written one (a slip of one square), if there is exactly one.
fn likely_intended(role: Role, to: Square, all: &[Move]) -> Option<Move> {
    let near: Vec<&Move> = all
        .iter()
        .filter(|m| m.role() == role && m.to() != to && chebyshev(m.to(), to) == 1)
        .collect();
    match near.as_slice() {
        [only] => Some(**only),
        _ => None,
    }
}

/// The distance of two squares in king moves.
fn chebyshev(a: Square, b: Square) -> u32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).unsigned_abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).unsigned_abs();
    df.max(dr)
}

/// Whether the written move would be legal with the other side to move.
fn played_by_other_side(pos: &Position, san: &San) -> bool {
    pos.pass_turn()
        .is_some_and(|other| san.resolve(&other).is_ok())
}
