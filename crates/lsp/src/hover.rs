//! Hover over a move: the position before it as a board (a Unicode diagram in a code
//! block, and an SVG image for clients that render Markdown images), the side to move,
//! the move in English SAN and UCI; for a move that does not replay, the legal moves to
//! the square it names.
//!
//! The positions are the replay's: the game is checked again with its moves recorded,
//! and the tokens are walked with a stack of positions for the variations (a variation
//! starts from the position before the move it replaces).

use crate::document::Document;
use planilla_core::san::{Lang, San, SanKind};
use planilla_core::{Color, Move, Position, Role, Square, Validation};
use planilla_parser::{Game, TokenKind};
use planilla_validator::{Checker, PlayedMove};

/// What a hover shows of the move at byte `at` of `doc`, as Markdown, with the move's
/// bytes in the text; `None` where `at` is not on a move.
pub fn at(doc: &Document, at: usize) -> Option<(String, std::ops::Range<usize>)> {
    let n = doc.game_at(at)?;
    let game = doc.read_game(n)?;
    let rel = at.checked_sub(game.offset() as usize)?;
    let tokens = game.tokens();
    let target = tokens.iter().position(|t| {
        t.kind == TokenKind::San && (t.start as usize) <= rel && rel < t.end as usize
    })?;
    let mut checker = Checker::new(doc.settings.config);
    let mut findings = Vec::new();
    let mut played = Vec::new();
    let stats = checker.check_recording(&game, &mut findings, &mut played);
    let lang = stats.lang.or(doc.settings.config.lang).unwrap_or(Lang::En);
    let (before, mv) = walk(&game, &played, target)?;
    let t = tokens[target];
    let written = game.decode(t.span());
    let chess960 = game
        .tag("Variant")
        .is_some_and(|v| v.to_ascii_lowercase().contains("960"));
    let mut md = String::new();
    let side = match before.turn() {
        Color::White => "White",
        Color::Black => "Black",
    };
    match mv {
        Some(Replayed::Move(m, san)) => {
            md.push_str(&format!(
                "**{written}** · {side} to move · SAN `{}` · UCI `{}`\n\n",
                san.to_string_in(Lang::En),
                m.to_uci(chess960)
            ));
        }
        Some(Replayed::Null) => {
            md.push_str(&format!("**{written}** · {side} to move · a null move\n\n"))
        }
        None => {
            md.push_str(&format!(
                "**{written}** · {side} to move · this move does not replay here\n\n"
            ));
            let to = San::parse(game.token_bytes(&t), lang)
                .ok()
                .and_then(|san| match san.kind {
                    SanKind::Normal { to, .. } => Some(to),
                    _ => None,
                });
            if let Some(to) = to {
                let moves: Vec<String> = before
                    .legal_moves()
                    .iter()
                    .filter(|m| m.to() == to)
                    .map(|m| San::from_move(&before, m).to_string_in(Lang::En))
                    .collect();
                if moves.is_empty() {
                    md.push_str(&format!("No legal move goes to {to}.\n\n"));
                } else {
                    md.push_str(&format!("Legal moves to {to}: {}\n\n", moves.join(", ")));
                }
            }
        }
    }
    md.push_str("```text\n");
    md.push_str(&diagram(&before));
    md.push_str("```\n\n");
    md.push_str(&format!(
        "![position](data:image/svg+xml;base64,{})\n",
        base64(svg(&before).as_bytes())
    ));
    let start = game.offset() as usize + t.start as usize;
    Some((md, start..game.offset() as usize + t.end as usize))
}

/// What the replay did with a move token.
enum Replayed {
    Move(Move, San),
    Null,
}

/// The position before token `target` of `game` (a move), and what the replay played
/// there (`None`: the move did not replay).
fn walk(game: &Game, played: &[PlayedMove], target: usize) -> Option<(Position, Option<Replayed>)> {
    let start = match game.tag("FEN") {
        Some(fen) => Position::from_fen(fen.trim(), Validation::Relaxed).ok()?,
        None => Position::new(),
    };
    // The current line's position, the one before its last move, and whether the line
    // stopped replaying (a move after an unplayed one has no position).
    let mut pos = start;
    let mut prev = start;
    let mut broken = false;
    let mut stack = Vec::new();
    let mut p = 0;
    for (i, t) in game.tokens().iter().enumerate() {
        match t.kind {
            TokenKind::VariationStart => {
                stack.push((pos, prev, broken));
                pos = prev;
            }
            TokenKind::VariationEnd => {
                if let Some((a, b, c)) = stack.pop() {
                    (pos, prev, broken) = (a, b, c);
                }
            }
            TokenKind::San => {
                while p < played.len() && played[p].span.0 < t.start {
                    p += 1;
                }
                let here = played.get(p).filter(|m| m.span.0 == t.start);
                let replayed = match here {
                    Some(PlayedMove {
                        mv: Some(m),
                        san: Some(san),
                        ..
                    }) => Some(Replayed::Move(*m, *san)),
                    Some(_) => Some(Replayed::Null),
                    None => None,
                };
                if i == target {
                    return (!broken || replayed.is_some()).then_some((pos, replayed));
                }
                match replayed {
                    Some(Replayed::Move(m, _)) => {
                        prev = pos;
                        pos = pos.play(&m);
                    }
                    Some(Replayed::Null) => {
                        prev = pos;
                        pos = pos.pass_turn()?;
                    }
                    None => broken = true,
                }
            }
            _ => {}
        }
    }
    None
}

/// The figurine of a piece.
fn figurine(color: Color, role: Role) -> char {
    let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
    let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
    match color {
        Color::White => white[role.index()],
        Color::Black => black[role.index()],
    }
}

/// The board from White's side, ranks 8 to 1, files a to h; `·` an empty square.
pub fn diagram(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let sq = Square::new(rank * 8 + file).expect("a square");
            let c = pos
                .board()
                .piece_at(sq)
                .map_or('·', |p| figurine(p.color, p.role));
            out.push(c);
            out.push(' ');
        }
        out.pop();
        out.push('\n');
    }
    out.push_str("  a b c d e f g h\n");
    out
}

/// The board as an SVG image (40-pixel squares, the pieces as figurines).
pub fn svg(pos: &Position) -> String {
    let mut out = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"320\" viewBox=\"0 0 320 320\">",
    );
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let (x, y) = (file * 40, (7 - rank) * 40);
            let fill = if (rank + file) % 2 == 0 {
                "#b58863"
            } else {
                "#f0d9b5"
            };
            out.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"40\" height=\"40\" fill=\"{fill}\"/>"
            ));
            let sq = Square::new(rank * 8 + file).expect("a square");
            if let Some(p) = pos.board().piece_at(sq) {
                out.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"34\" text-anchor=\"middle\">{}</text>",
                    x + 20,
                    y + 33,
                    figurine(p.color, p.role)
                ));
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_the_standard_one() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn the_diagram_shows_the_start() {
        let d = diagram(&Position::new());
        assert!(d.starts_with("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n"), "{d}");
        assert!(d.contains("\n1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖\n"));
    }
}
