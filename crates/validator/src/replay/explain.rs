//! Explanations of moves that do not read or resolve: the language they do not read
//! in, the legal moves to the written square, a slip of one square that was likely
//! meant, or a move of the other side (moves copied out of order); and, for the main
//! line's first such move, the repair the one-edit search finds (see [`crate::repair`]),
//! named in its finding.

use crate::checker::GameChecker;
use crate::finding::Code;
use crate::repair::{self, Failure, Repair, RepairOutcome, Rest};
use crate::replay::Site;
use crate::replay::scoresheet::read_result;
use planilla_core::san::{San, SanError, SanKind, SanParseError, Suffix};
use planilla_core::{Color, Move, MoveList, Position, Role, Square, Validation};
use planilla_parser::TokenKind;

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
        self.note_failure(site, None);
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
                self.note_failure(site, None);
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
                let mut guess_at = None;
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
                        guess_at = Some(message.len());
                        message.push_str(&format!("; perhaps {} was meant", san_of(&hint)));
                    } else if played_by_other_side(pos, san) {
                        message.push_str(&format!(
                            "; it would be legal for {}: moves may be out of order",
                            pos.turn().other().name()
                        ));
                    }
                }
                self.note_failure(site, guess_at);
                (Code::IllegalMove, message)
            }
        }
    }

    /// Keeps a main-line move that did not read or resolve for the repair search: the
    /// main line stops there, so a replay keeps at most one.
    fn note_failure(&mut self, site: &Site, guess_at: Option<usize>) {
        if site.path.is_empty() {
            self.failure = Some(Failure {
                at: site.at as u32,
                len: site.len as u32,
                ply: site.ply,
                before: *site.before,
                guess_at,
            });
        }
    }

    /// Runs the repair search on the main line's failed move, if the last replay kept one
    /// and its finding still stands (a `0-0` read as the game's result, or the start of a
    /// DGT signal, takes it back), and names a unique repair in that finding.
    #[cold]
    #[inline(never)]
    pub(crate) fn repair_failed_move(&mut self) -> Option<Repair> {
        let failure = self.failure.take()?;
        let index = self.out.iter().rposition(|f| {
            f.ply == Some(failure.ply)
                && f.variation.is_empty()
                && matches!(f.code, Code::IllegalMove | Code::AmbiguousMove)
        })?;
        let game = self.game;
        let tokens = game.tokens();
        let first = tokens.partition_point(|t| t.start < failure.at);
        let written = game.decode(tokens.get(first)?.span()).into_owned();
        let rest = self.rest_of_main_line(first + 1);
        // The move searched: its ply, the position before it, its span and its text.
        let mut ply = failure.ply;
        let mut before = failure.before;
        let mut span = (failure.at, failure.at + failure.len);
        let mut searched = written;
        // A one-character slip often leaves text that is no move (`Rh9`, `Ke`, `N3f`: a
        // syntax error); the moves after it are then replayed by the wrong side until one
        // fails. With one such text in the main line before the failed move, its readings
        // are candidates too, each followed by every later main-line move. Right before
        // the failed move, the text may also be no move at all, and the failed move the
        // slip: both are searched. With moves played between them, those moves would not
        // have played on the wrong side had the failed move been the slip and the text a
        // move: only the text is searched. With two such texts, nothing is.
        let candidates = match self.unread_in_main_line(first) {
            Unread::None => repair::candidates(&before, &searched, self.lang, &rest),
            Unread::Several => None,
            Unread::One(at) => {
                let own = if self.unread_before(first) == Some(at) {
                    repair::candidates(&before, &searched, self.lang, &rest)
                } else {
                    Some(Vec::new())
                };
                let unread = tokens[at];
                let (unread_ply, unread_before) = self.main_line_before(at)?;
                let text = game.decode(unread.span()).into_owned();
                let rest = self.rest_of_main_line(at + 1);
                let theirs = repair::candidates(&unread_before, &text, self.lang, &rest);
                match (own, theirs) {
                    (Some(own), Some(theirs)) if own.is_empty() && !theirs.is_empty() => {
                        (ply, before, span, searched) =
                            (unread_ply, unread_before, (unread.start, unread.end), text);
                        Some(theirs)
                    }
                    (Some(mut own), Some(theirs)) => {
                        own.extend(theirs);
                        Some(own)
                    }
                    _ => None,
                }
            }
        };
        let outcome = RepairOutcome::of(candidates);
        if let RepairOutcome::Unique(candidate) = &outcome {
            let number = match before.turn() {
                Color::White => format!("{}.", before.fullmoves()),
                Color::Black => format!("{}...", before.fullmoves()),
            };
            let finding = &mut self.out[index];
            if let Some(at) = failure.guess_at {
                finding.message.truncate(at);
            }
            let as_written = match finding.san.as_deref() {
                Some(san) if span.0 == failure.at => san,
                _ => &searched,
            };
            let hint = format!(
                "; the game replays to its end if {number} {as_written} is read as {number} {}",
                candidate.san.to_string_in(self.lang)
            );
            finding.message.push_str(&hint);
        }
        Some(Repair {
            ply,
            span,
            written: searched,
            lang: self.lang,
            outcome,
        })
    }

    /// The index of the token the tokenizer could not read (`TokenKind::Unknown`) that
    /// stands right before the main-line move `tokens[at]`, with only move numbers,
    /// comments, annotations and variations between them.
    fn unread_before(&self, at: usize) -> Option<usize> {
        let mut depth = 0u32;
        for (i, token) in self.game.tokens().get(..at)?.iter().enumerate().rev() {
            match token.kind {
                TokenKind::VariationEnd => depth += 1,
                TokenKind::VariationStart if depth > 0 => depth -= 1,
                _ if depth > 0 => {}
                TokenKind::MoveNumber
                | TokenKind::Comment
                | TokenKind::LineComment
                | TokenKind::Nag
                | TokenKind::Glyph
                | TokenKind::Escape => {}
                TokenKind::Unknown => return Some(i),
                _ => return None,
            }
        }
        None
    }

    /// The tokens the tokenizer could not read in the main line before `tokens[at]`.
    fn unread_in_main_line(&self, at: usize) -> Unread {
        let mut depth = 0u32;
        let mut found = Unread::None;
        for (i, token) in self.game.tokens()[..at].iter().enumerate() {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::Unknown if depth == 0 => {
                    found = match found {
                        Unread::None => Unread::One(i),
                        _ => Unread::Several,
                    };
                }
                _ => {}
            }
        }
        found
    }

    /// The ply a move at `tokens[at]` of the main line would have and the position before
    /// it: the game's start with the main-line moves before it played (they all played,
    /// as the first move that did not comes after them).
    fn main_line_before(&self, at: usize) -> Option<(u32, Position)> {
        let game = self.game;
        let mut pos = match game.tag("FEN") {
            None => Position::new(),
            Some(fen) => Position::from_fen(&fen, Validation::Strict).ok()?,
        };
        let mut ply = 1;
        let mut depth = 0u32;
        for token in &game.tokens()[..at] {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::San if depth == 0 => {
                    let text = game.decoded_bytes(token.span());
                    let san = San::parse(&text, self.lang).ok()?;
                    // `play`, as in the search's replay (see `repair::candidates`).
                    pos = pos.play(&san.resolve(&pos).ok()?);
                    ply += 1;
                }
                _ => {}
            }
        }
        Some((ply, pos))
    }

    /// The main line's moves from token `from` on, read in the game's language, with
    /// where a result or signal written as moves may end them and the results the game
    /// states.
    fn rest_of_main_line(&self, from: usize) -> Rest {
        let game = self.game;
        let special_at = self.special_ending();
        let mut rest = Rest::default();
        let mut special = None;
        let mut marker = None;
        let mut depth = 0u32;
        for token in game.tokens().get(from..).unwrap_or_default() {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::San if depth == 0 => {
                    if special_at == Some(token.start) {
                        special = Some(rest.moves.len());
                    }
                    let text = game.decoded_bytes(token.span());
                    rest.moves.push(San::parse(&text, self.lang).ok());
                }
                TokenKind::Result if depth == 0 => marker = Some(*token),
                _ => {}
            }
        }
        rest.special = special.unwrap_or(rest.moves.len());
        let marker = marker.map(|token| game.decode(token.span()));
        let tag = game.tag("Result");
        rest.results = [marker, tag]
            .into_iter()
            .flatten()
            .filter_map(|text| read_result(&text))
            .map(|reading| reading.result)
            .collect();
        rest
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

/// The tokens the tokenizer could not read in a stretch of the main line.
enum Unread {
    /// None.
    None,
    /// One, at this index of the game's tokens.
    One(usize),
    /// Two or more.
    Several,
}
