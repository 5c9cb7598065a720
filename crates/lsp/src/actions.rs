//! What the server offers to change, each as `fix` or `convert` would write it and each
//! as the smallest edits (only the tokens that change), so that undo works as users
//! expect:
//!
//! - a quick fix on a diagnostic: the change `fix --repair` makes for it in its game
//!   (the unique repair of an illegal move, the canonical SAN of a non-standard one, the
//!   result that agrees with the board, a DGT result signal removed);
//! - "convert this game to English" (or Spanish) on the game at the cursor, and the same
//!   for the whole file, and "fix this file" (commands, computed when chosen);
//! - formatting: `fix`'s output for the document.

use crate::document::Document;
use crate::edits::{Replace, diff};
use crate::lines::Units;
use lsp_types::{Range, TextEdit};
use planilla_converter::{Converter, FixOptions, Fixer, MoveForm, Options};
use planilla_core::san::Lang;
use planilla_parser::TokenKind;
use planilla_validator::Code;

/// A change with what to call it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// The title the editor shows.
    pub title: String,
    /// The edits, in the order of the text.
    pub edits: Vec<Replace>,
}

/// How `fix` runs on the document's games: its settings, every repair searched.
fn fix_options(doc: &Document) -> FixOptions {
    let config = doc.settings.config;
    FixOptions {
        from: config.lang,
        to: None,
        rules: config.rules,
        notation: config.notation,
        repair: true,
    }
}

/// The quick fixes for a diagnostic of `code` over the bytes `span`: the changes `fix`
/// makes in that game that answer it and lie in it (for a result, every change of the
/// game's result: the tag and the marker agree).
pub fn quick_fixes(doc: &Document, code: Code, span: std::ops::Range<usize>) -> Vec<Fix> {
    let Some(n) = doc.game_at(span.start) else {
        return Vec::new();
    };
    let Some(game) = doc.read_game(n) else {
        return Vec::new();
    };
    let fixed = Fixer::new(fix_options(doc)).fix(&game);
    if fixed.rejected.is_some() {
        return Vec::new();
    }
    let answers = |c: Code| {
        c == code
            || (c == Code::RepairedMove && matches!(code, Code::IllegalMove | Code::AmbiguousMove))
            || (c == Code::NonStandardSan && writes_san(code))
    };
    let mut edits = Vec::new();
    let mut titles = Vec::new();
    for change in fixed.changes.iter().filter(|c| answers(c.code)) {
        let line = (change.line as usize).saturating_sub(1);
        let at = doc.lines.byte_of_column(&doc.text, line, change.column);
        let whole_game = code == Code::ResultMismatch;
        if !whole_game && !(span.start..=span.end).contains(&at) {
            continue;
        }
        let end = at + change.before.len();
        if doc.text.get(at..end) != Some(change.before.as_str()) {
            continue;
        }
        let (mut start, mut text) = (at, change.after.clone());
        if change.before.is_empty() {
            // An insertion (a missing result) after the game's last token, written where
            // `fix` writes it: after a space, or on a line of its own after a `;`
            // comment or a `%` line (which run to their line's end), after a blank line
            // after the tags of a game without moves.
            let line_end = if doc.text.contains("\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            let rel = at as u64 - game.offset();
            let last = game.tokens().iter().rev().find(|t| u64::from(t.end) == rel);
            text = match last.map(|t| t.kind) {
                Some(TokenKind::LineComment | TokenKind::Escape) => {
                    format!("{line_end}{}", change.after)
                }
                Some(TokenKind::Tag) => format!("{line_end}{line_end}{}", change.after),
                _ => format!(" {}", change.after),
            };
            // At the end of the text, a line end closes the game.
            if at == doc.text.len() {
                text.push_str(line_end);
            }
        }
        if change.after.is_empty() {
            // A removal (a DGT signal's placements) takes the spaces before it, as `fix`
            // removes it from the end of the token before; a token glued after it
            // keeps one space.
            let bytes = doc.text.as_bytes();
            let first = doc.games.get(n).map_or(0, |g| g.start());
            while start > first && bytes[start - 1].is_ascii_whitespace() {
                start -= 1;
            }
            if start < at && bytes.get(end).is_some_and(|b| !b.is_ascii_whitespace()) {
                text = " ".to_string();
            }
        }
        edits.push(Replace {
            range: start..end,
            text,
        });
        titles.push(if change.after.is_empty() {
            format!("remove '{}'", change.before)
        } else {
            format!("'{}' → '{}'", change.before, change.after)
        });
    }
    if edits.is_empty() {
        return Vec::new();
    }
    edits.sort_by_key(|e| e.range.start);
    edits.dedup_by(|a, b| a.range.start < b.range.end);
    vec![Fix {
        title: format!("planilla fix: {}", titles.join(", ")),
        edits,
    }]
}

/// Whether `fix` answers a finding of `code` by writing the move's canonical SAN, a
/// change it reports as `non-standard-san` (`Cg1f3`, a `redundant-disambiguation`,
/// becomes `Cf3`; `Dxf7`, a `check-mark`, becomes `Dxf7#`).
fn writes_san(code: Code) -> bool {
    matches!(
        code,
        Code::NonStandardSan
            | Code::RedundantDisambiguation
            | Code::PinnedDisambiguation
            | Code::NonPreferredDisambiguation
            | Code::CaptureMark
            | Code::CheckMark
    )
}

/// The edits that make games `games` of `doc` what `rewrite` writes of each (a game it
/// gives no text for is left as it is).
fn rewrite_games(
    doc: &Document,
    games: std::ops::Range<usize>,
    mut rewrite: impl FnMut(&planilla_parser::Game) -> Option<String>,
) -> Vec<Replace> {
    let mut out = Vec::new();
    for n in games {
        let Some(game) = doc.read_game(n) else {
            continue;
        };
        let start = game.offset() as usize;
        // A game over a reader limit is not all in the game's bytes: left alone.
        if game.skipped_bytes() > 0 {
            continue;
        }
        let Some(old) = doc.text.get(start..start + game.bytes().len()) else {
            continue;
        };
        let Some(new) = rewrite(&game) else {
            continue;
        };
        out.extend(diff(old, &new).into_iter().map(|r| Replace {
            range: r.range.start + start..r.range.end + start,
            text: r.text,
        }));
    }
    out
}

/// `fix`'s edits for the games in `games` (games `fix` rejects are left as they are).
pub fn fix_games(doc: &Document, games: std::ops::Range<usize>) -> Vec<Replace> {
    let mut fixer = Fixer::new(fix_options(doc));
    rewrite_games(doc, games, |game| {
        let fixed = fixer.fix(game);
        if fixed.rejected.is_some() {
            return None;
        }
        String::from_utf8(fixed.bytes).ok()
    })
}

/// `convert --to LANG`'s edits for the games in `games`.
pub fn convert_games(doc: &Document, games: std::ops::Range<usize>, to: Lang) -> Vec<Replace> {
    let config = doc.settings.config;
    let mut converter = Converter::new(Options {
        from: config.lang,
        to,
        form: MoveForm::San,
        notation: config.notation,
        rules: config.rules,
    });
    rewrite_games(doc, games, |game| Some(converter.convert(game).text))
}

/// The protocol's edits of `replaces`.
pub fn text_edits(doc: &Document, replaces: &[Replace], units: Units) -> Vec<TextEdit> {
    replaces
        .iter()
        .map(|r| TextEdit {
            range: Range::new(
                doc.lines.position(&doc.text, r.range.start, units),
                doc.lines.position(&doc.text, r.range.end, units),
            ),
            new_text: r.text.clone(),
        })
        .collect()
}

/// The language a command or an action names (`en`, `es`, ...), English by default.
pub fn language(name: Option<&str>) -> Result<Lang, String> {
    match name {
        None => Ok(Lang::En),
        Some(name) => name
            .parse::<Lang>()
            .map_err(|_| format!("unknown language '{name}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;

    fn doc(text: &str) -> Document {
        Document::open(text.to_string(), 1, "t.pgn".into(), Settings::default())
    }

    /// The quick fix for the first finding of `code` in `text`, applied.
    fn fixed(text: &str, code: Code) -> Option<(String, String)> {
        let d = doc(text);
        let (game, located) = d.games.iter().find_map(|g| {
            let l = g.findings.iter().find(|l| l.finding.code == code)?;
            Some((g, l))
        })?;
        let span =
            game.start() + located.span.start as usize..game.start() + located.span.end as usize;
        let fix = quick_fixes(&d, code, span).into_iter().next()?;
        Some((fix.title, crate::edits::apply(&d.text, &fix.edits)))
    }

    const TAGS: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"B\"]\n";

    #[test]
    fn a_san_finding_gets_the_canonical_san() {
        // check calls Cg1f3 a redundant disambiguation, fix's change is a non-standard SAN.
        let text = format!("{TAGS}[Result \"*\"]\n\n1. Cg1f3 d5 2. d4 Cf6 *\n");
        let (title, new) = fixed(&text, Code::RedundantDisambiguation).expect("a quick fix");
        assert_eq!(title, "planilla fix: 'Cg1f3' → 'Cf3'");
        assert_eq!(new, text.replace("Cg1f3", "Cf3"));
        // A mate written without its mark (check-mark).
        let text =
            format!("{TAGS}[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 1-0\n");
        let (_, new) = fixed(&text, Code::CheckMark).expect("a quick fix");
        assert_eq!(new, text.replace("Qxf7", "Qxf7#"));
    }

    #[test]
    fn a_dgt_signal_goes_with_the_space_before_it() {
        // 1. Rh2 Kd5 1-0: the black king's placement after White's last move.
        let text = "[Event \"DGT\"]\n[FEN \"k7/8/8/8/4K3/8/8/7R w - - 0 1\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n\n1. Rh2 Kd5 1-0\n";
        let (title, new) = fixed(text, Code::DgtResultSignal).expect("a quick fix");
        assert_eq!(title, "planilla fix: remove 'Kd5'");
        assert_eq!(new, text.replace("Rh2 Kd5 1-0", "Rh2 1-0"));
    }

    #[test]
    fn a_missing_result_is_written_apart() {
        for (moves, fixed) in [
            ("1. e4 e5 2. Nf3\n", "1. e4 e5 2. Nf3 *\n"),
            ("1. e4 e5 ;a comment\n", "1. e4 e5 ;a comment\n*\n"),
            // At the end of the text: a line end after it, as fix writes.
            ("1. e4 e5 2. Nf3", "1. e4 e5 2. Nf3 *\n"),
            ("1. e4 e5 ;a comment", "1. e4 e5 ;a comment\n*\n"),
        ] {
            let text = format!("{TAGS}[Result \"*\"]\n\n{moves}");
            let d = doc(&text);
            let game = &d.games[0];
            let located = game
                .findings
                .iter()
                .find(|l| l.finding.code == Code::SyntaxError)
                .expect("a syntax error");
            let span = game.start() + located.span.start as usize
                ..game.start() + located.span.end as usize;
            let fix = quick_fixes(&d, Code::SyntaxError, span).into_iter().next();
            let fix = fix.expect("a quick fix");
            assert_eq!(fix.title, "planilla fix: '' → '*'");
            assert_eq!(
                crate::edits::apply(&d.text, &fix.edits),
                text.replace(moves, fixed)
            );
        }
    }

    #[test]
    fn an_ambiguous_move_gets_its_unique_repair() {
        let text = format!(
            "{TAGS}[Result \"*\"]\n\n1. d4 d5 2. Nf3 Nf6 3. Nd2 e6 4. Nf3 c5 5. e3 Nc6 *\n"
        );
        let (title, new) = fixed(&text, Code::AmbiguousMove).expect("a quick fix");
        assert_eq!(title, "planilla fix: 'Nd2' → 'Nfd2'");
        assert_eq!(new, text.replace("3. Nd2", "3. Nfd2"));
    }
}
