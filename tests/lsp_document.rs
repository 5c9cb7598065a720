//! The language server's document promise: after any sequence of edits, the games,
//! their places and their findings (and so the diagnostics, archive findings included)
//! are those of a fresh reading of the text, although each edit re-read only the games
//! it touched (`planilla_testkit::lsp`, which the lsp fuzz target asserts too).

use planilla_lsp::lines::Units;
use planilla_testkit::lsp::{PIECES, edits_read_fresh, open, seen};
use proptest::prelude::*;

/// The golden inputs of `check`: every kind of game, finding and damage.
fn corpus() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/check");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("corpora/check")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).expect("a golden file")).into_owned())
        .collect()
}

/// A window of the corpus, cut on character boundaries.
fn window(text: &str, start: usize, len: usize) -> &str {
    let mut from = start.min(text.len());
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (from + len).min(text.len());
    while !text.is_char_boundary(to) {
        to -= 1;
    }
    &text[from..to]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn edits_give_what_a_fresh_reading_gives(
        start in 0usize..28_000,
        edits in proptest::collection::vec((0usize..=1000, 0usize..30, 0..PIECES.len()), 1..6),
        utf8 in any::<bool>(),
    ) {
        let text = corpus();
        let units = if utf8 { Units::Utf8 } else { Units::Utf16 };
        edits_read_fresh(window(&text, start, 3_000), &edits, units);
    }
}

/// A change with no range replaces the whole text; a paste of many games is read on
/// every core; both give a fresh reading's games and diagnostics.
#[test]
fn whole_texts_and_long_pastes_read_as_fresh() {
    let text = corpus();
    let mut doc = open("1. e4 e5 *\n");
    doc.change(None, &text, Units::Utf16);
    assert_eq!(seen(&mut doc), seen(&mut open(&text)));
    // The whole corpus (hundreds of games) pasted into the middle of its copy.
    let at = doc.lines.position(&doc.text, text.len() / 2, Units::Utf16);
    doc.change(Some(lsp_types::Range::new(at, at)), &text, Units::Utf16);
    let pasted = doc.text.clone();
    assert!(doc.games.len() > 200);
    assert_eq!(seen(&mut doc), seen(&mut open(&pasted)));
}
