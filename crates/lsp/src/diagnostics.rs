//! A document's findings as the protocol's diagnostics: every game's own, then the
//! archive findings across the document's games, filtered by the document's settings.

use crate::document::Document;
use crate::lines::Units;
use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Range};
use planilla_validator::{Finding, Severity};
use std::collections::HashMap;

/// The diagnostics of `doc`, in the order of the text (a game's own findings in
/// `check`'s order), then the archive findings.
pub fn of(doc: &Document, units: Units) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (n, game) in doc.games.iter().enumerate() {
        for located in &game.findings {
            if !doc.settings.keeps(located.finding.code) {
                continue;
            }
            let start = game.start() + located.span.start as usize;
            let end = game.start() + located.span.end as usize;
            out.push(diagnostic(doc, start..end, n, &located.finding, units));
        }
    }
    out.extend(archive(doc, units));
    out
}

/// The archive findings judged last (see [`Document::archive`]), each underlining its
/// game's first line; those of games read again since are left out until the next
/// judgement.
fn archive(doc: &Document, units: Units) -> Vec<Diagnostic> {
    if doc.archive.is_empty() {
        return Vec::new();
    }
    let by_id: HashMap<u64, usize> = doc
        .games
        .iter()
        .enumerate()
        .map(|(n, g)| (g.id, n))
        .collect();
    doc.archive
        .iter()
        .filter(|(_, f)| doc.settings.keeps(f.code))
        .filter_map(|(id, finding)| {
            let n = *by_id.get(id)?;
            let game = &doc.games[n];
            let head = &game.outline.head;
            let span = game.start() + head.start as usize..game.start() + head.end as usize;
            Some(diagnostic(doc, span, n, finding, units))
        })
        .collect()
}

/// The bytes a game's own diagnostic published for `doc` underlines, found again by its
/// code, its first line and its message, not its columns: Neovim 0.7 sends diagnostics
/// back with byte columns where the protocol has UTF-16 units, so on a line with
/// non-ASCII text before the token its columns point elsewhere. `None` when no finding of
/// the document is that diagnostic (it is stale, or not the server's).
pub fn span_of(doc: &Document, d: &Diagnostic) -> Option<std::ops::Range<usize>> {
    let Some(NumberOrString::String(code)) = &d.code else {
        return None;
    };
    let line = d.range.start.line;
    for (n, game) in doc.games.iter().enumerate() {
        for located in &game.findings {
            if located.finding.code.as_str() != code.as_str() {
                continue;
            }
            let start = game.start() + located.span.start as usize;
            // The line alone: any units will do.
            if doc.lines.position(&doc.text, start, Units::Utf8).line != line
                || located.finding.text_as_game(n as u64 + 1) != d.message
            {
                continue;
            }
            return Some(start..game.start() + located.span.end as usize);
        }
    }
    None
}

/// One finding of game `n` (0-based) as a diagnostic over the bytes `span`; the message
/// is `check`'s, with the game's number as it is now.
fn diagnostic(
    doc: &Document,
    span: std::ops::Range<usize>,
    n: usize,
    finding: &Finding,
    units: Units,
) -> Diagnostic {
    let range = Range::new(
        doc.lines.position(&doc.text, span.start, units),
        doc.lines.position(&doc.text, span.end, units),
    );
    Diagnostic {
        range,
        severity: Some(match finding.severity() {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(finding.code.as_str().to_string())),
        source: Some("planilla".to_string()),
        message: finding.text_as_game(n as u64 + 1),
        ..Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;
    use lsp_types::Position;

    fn messages(doc: &mut Document) -> Vec<String> {
        doc.judge_now();
        of(doc, Units::Utf16)
            .into_iter()
            .filter(|d| matches!(&d.code, Some(NumberOrString::String(c)) if c == "duplicate-game"))
            .map(|d| d.message)
            .collect()
    }

    /// After an edit that removes a game, an archive finding names the other game by its
    /// index in the text as it is now, as `check --archive` on that text does.
    #[test]
    fn archive_findings_name_the_games_as_they_are_now() {
        let game = |event: &str| {
            format!(
                "[Event \"{event}\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 *\n\n"
            )
        };
        let other = |white: &str| {
            format!(
                "[Event \"x\"]\n[White \"{white}\"]\n[Black \"Y\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
            )
        };
        // The copies after two other games: the edit re-reads the game after the one it
        // removes, and keeps the copies.
        let text = format!("{}{}{}{}", other("X"), other("Z"), game("a"), game("b"));
        let mut doc = Document::open(text.clone(), 1, "t.pgn".into(), Settings::default());
        assert_eq!(messages(&mut doc).len(), 1);
        assert!(
            messages(&mut doc)[0].starts_with("game 4:"),
            "{:?}",
            messages(&mut doc)
        );
        assert!(
            messages(&mut doc)[0].contains("as game 3 of t.pgn"),
            "{:?}",
            messages(&mut doc)
        );
        // Delete the first game (its 7 lines): the copies are games 2 and 3.
        doc.change(
            Some(lsp_types::Range::new(
                Position::new(0, 0),
                Position::new(7, 0),
            )),
            "",
            Units::Utf16,
        );
        let mut fresh = Document::open(doc.text.clone(), 2, "t.pgn".into(), Settings::default());
        assert_eq!(messages(&mut fresh).len(), 1);
        assert!(
            messages(&mut fresh)[0].contains("as game 2 of t.pgn"),
            "{:?}",
            messages(&mut fresh)
        );
        assert_eq!(messages(&mut doc), messages(&mut fresh));
    }
}
