//! DGT result signals: on an electronic board the arbiter or the players signal the
//! result by placing both kings on the centre squares (both on light squares, d5 and e4:
//! 1-0; both on dark, d4 and e5: 0-1; one on each: a draw), and relays often record the
//! placements as moves. The main line's trailing run of king moves onto d4, d5, e4 or e5
//! is such a signal when its first move is no legal move and the kings end on two
//! centre squares; a legal last king move is a move.

use crate::checker::GameChecker;
use crate::finding::Code;
use crate::replay::{Line, Site};
use planilla_core::san::{Lang, San, SanKind};
use planilla_core::{Color, Role, Square};
use planilla_parser::{Game, Token, TokenKind};

/// The most placements a signal is read from (two kings, placed again at most once
/// each); a longer run of centre king moves is play, or no signal we know.
const MAX_RUN: usize = 4;

/// The king moves written at the end of the main line onto a centre square.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Run {
    /// Token indexes of the moves, in text order (`len` of them).
    moves: [u32; MAX_RUN],
    len: usize,
}

impl Run {
    /// The token index of the run's first move, if the game ends with one.
    pub(super) fn first(&self) -> Option<usize> {
        (self.len > 0).then(|| self.moves[0] as usize)
    }
}

/// What a signal says.
#[derive(Clone, Copy, Debug)]
pub(super) struct Signal {
    /// The ply of its first placement.
    pub(super) ply: u32,
    /// The result it signals, as PGN writes it.
    pub(super) result: &'static str,
}

/// A centre square (d4, d5, e4, e5).
fn is_centre(sq: Square) -> bool {
    matches!(sq, Square::D4 | Square::D5 | Square::E4 | Square::E5)
}

/// Whether a centre square is light (d5, e4).
fn is_light(sq: Square) -> bool {
    matches!(sq, Square::D5 | Square::E4)
}

/// The destination of a written king move onto a centre square, in `lang`.
fn king_to_centre(game: &Game, token: &Token, lang: Lang) -> Option<Square> {
    let bytes = game.token_bytes(token);
    // Nearly every last move names no centre square: those cost no parse.
    let names_centre = bytes
        .windows(2)
        .any(|w| matches!(w[0], b'd' | b'e') && matches!(w[1], b'4' | b'5'));
    if !names_centre {
        return None;
    }
    match parse_apart(game, token, lang)?.kind {
        SanKind::Normal {
            role: Role::King,
            to,
            promotion: None,
            ..
        } if is_centre(to) => Some(to),
        _ => None,
    }
}

/// Reads a written move away from the replay: one call of its own, so that the replay's
/// hot path is compiled as it was without this module.
#[inline(never)]
fn parse_apart(game: &Game, token: &Token, lang: Lang) -> Option<San> {
    let bytes = game.token_bytes(token);
    let san = if bytes.is_ascii() {
        San::parse(bytes, lang)
    } else {
        San::parse(&game.decoded_bytes(token.span()), lang)
    };
    san.ok()
}

/// The main line's trailing run of king moves onto centre squares, read in `lang`:
/// comments, glyphs, move numbers and results after and between them do not end it.
pub(super) fn trailing_run(game: &Game, lang: Lang) -> Run {
    let mut found = [0u32; MAX_RUN];
    let mut len = 0;
    for (i, token) in game.tokens().iter().enumerate().rev() {
        match token.kind {
            TokenKind::San => {
                if len == MAX_RUN || king_to_centre(game, token, lang).is_none() {
                    break;
                }
                found[len] = i as u32;
                len += 1;
            }
            TokenKind::Comment
            | TokenKind::LineComment
            | TokenKind::Escape
            | TokenKind::Glyph
            | TokenKind::Nag
            | TokenKind::MoveNumber
            | TokenKind::Result => {}
            _ => break,
        }
    }
    let mut run = Run::default();
    for (slot, &index) in run.moves.iter_mut().zip(found[..len].iter().rev()) {
        *slot = index;
    }
    run.len = len;
    run
}

impl GameChecker<'_> {
    /// Reads the main line's trailing `run` as a result signal, at its first move, which
    /// did not play (the line `main` stands before it). Reports it and returns what it
    /// signals when the kings end on two centre squares; otherwise the moves are moves.
    #[cold]
    #[inline(never)]
    pub(super) fn dgt_signal(&mut self, main: &Line, run: &Run) -> Option<Signal> {
        let game = self.game;
        let tokens = game.tokens();
        let first = tokens[run.first()?];
        let pos = &main.pos;
        // Each placement moves the king of the side whose turn it is.
        let board = pos.board();
        let mut kings = [board.king_of(Color::White)?, board.king_of(Color::Black)?];
        let mut mover = pos.turn();
        for &index in &run.moves[..run.len] {
            let to = king_to_centre(game, &tokens[index as usize], self.lang)?;
            kings[mover as usize] = to;
            mover = !mover;
        }
        let [white, black] = kings;
        if !is_centre(white) || !is_centre(black) || white == black {
            return None;
        }
        let (result, why) = match (is_light(white), is_light(black)) {
            (true, true) => ("1-0", "both on light squares"),
            (false, false) => ("0-1", "both on dark squares"),
            _ => ("1/2-1/2", "one on a light and one on a dark square"),
        };
        let site = Site {
            at: first.start as usize,
            len: first.len(),
            ply: main.ply + 1,
            before: pos,
            path: &[],
        };
        let message = format!(
            "the kings placed on {white} (White) and {black} (Black), {why}, are an electronic board's result signal, not moves: {result}"
        );
        self.push_at(Code::DgtResultSignal, &site, message);
        Some(Signal {
            ply: main.ply + 1,
            result,
        })
    }
}
