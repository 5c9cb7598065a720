//! The outline: one symbol per game (`White – Black`, with Event, Round and Result), so
//! the editor's outline and "go to symbol" jump between games; folding ranges per game,
//! tag section, variation and comment.

use crate::document::{Document, Fold};
use crate::lines::Units;
use lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, Range, SymbolKind};

/// One symbol per game.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written, as `None`.
pub fn symbols(doc: &Document, units: Units) -> Vec<DocumentSymbol> {
    doc.games
        .iter()
        .filter(|g| !g.outline.body.is_empty())
        .map(|g| {
            let o = &g.outline;
            let at = |r: &std::ops::Range<u32>| {
                Range::new(
                    doc.lines
                        .position(&doc.text, g.start() + r.start as usize, units),
                    doc.lines
                        .position(&doc.text, g.start() + r.end as usize, units),
                )
            };
            let range = at(&o.body);
            let mut selection = at(&o.head);
            // The selection must lie inside the range.
            if selection.start < range.start || selection.end > range.end {
                selection = range;
            }
            DocumentSymbol {
                name: format!("{} – {}", o.white, o.black),
                detail: Some(format!("{}, {}, {}", o.event, o.round, o.result)),
                kind: SymbolKind::EVENT,
                tags: None,
                deprecated: None,
                range,
                selection_range: selection,
                children: None,
            }
        })
        .collect()
}

/// The folding ranges: each game, its tag section, its variations and comments that
/// span lines.
pub fn folding(doc: &Document) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    for g in &doc.games {
        let line = |byte: u32| doc.lines.line_of(g.start() + byte as usize) as u32;
        let mut push = |r: &std::ops::Range<u32>, kind: Option<FoldingRangeKind>| {
            let (start, end) = (line(r.start), line(r.end.saturating_sub(1).max(r.start)));
            if end > start {
                out.push(FoldingRange {
                    start_line: start,
                    end_line: end,
                    kind,
                    ..FoldingRange::default()
                });
            }
        };
        push(&g.outline.body, Some(FoldingRangeKind::Region));
        for (r, fold) in &g.outline.folds {
            let kind = match fold {
                Fold::Tags => FoldingRangeKind::Region,
                Fold::Variation => FoldingRangeKind::Region,
                Fold::Comment => FoldingRangeKind::Comment,
            };
            push(r, Some(kind));
        }
    }
    out
}
