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
    let mut f = finding.clone();
    f.game = n as u64 + 1;
    Diagnostic {
        range,
        severity: Some(match finding.severity() {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(finding.code.as_str().to_string())),
        source: Some("planilla".to_string()),
        message: f.text(),
        ..Diagnostic::default()
    }
}
