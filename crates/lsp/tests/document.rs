//! The document's promise: after any sequence of edits, the games, their places and
//! their findings (and so the diagnostics) are those of a fresh reading of the text,
//! although each edit re-read only the games it touched.

use lsp_types::Range;
use planilla_lsp::Settings;
use planilla_lsp::diagnostics;
use planilla_lsp::document::Document;
use planilla_lsp::lines::Units;
use proptest::prelude::*;

/// The golden inputs of `check`: every kind of game, finding and damage.
fn corpus() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpora/check");
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

fn open(text: &str) -> Document {
    Document::open(text.to_string(), 0, "t.pgn".into(), Settings::default())
}

/// What a client sees of a document, and where its games are.
fn seen(doc: &mut Document) -> (Vec<(u64, u64, u64, usize)>, String) {
    doc.judge_now();
    let games = doc
        .games
        .iter()
        .map(|g| (g.origin.offset, g.origin.line, g.origin.games, g.end))
        .collect();
    let diags = serde_json::to_string(&diagnostics::of(doc, Units::Utf16)).expect("json");
    (games, diags)
}

/// Pieces typed into a record: moves, results, tag lines, brackets, line ends, accents.
const PIECES: &[&str] = &[
    "",
    "\n",
    "\n\n",
    " ",
    "e4 ",
    "Nf3",
    "Cf3 ",
    "x",
    "+",
    "#",
    "1-0",
    " *\n",
    "1/2-1/2",
    "[Event \"x\"]\n",
    "[White \"Ñandú\"]\n",
    "{",
    "}",
    "(",
    ")",
    "12. ",
    "…",
    "é",
    ";c\n",
    "\r\n",
    "%\n",
    "O-O",
    "0-0",
    "]",
    "\"",
];

fn edit_strategy(len: usize) -> impl Strategy<Value = (usize, usize, usize)> {
    (0..=len, 0usize..30, 0..PIECES.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn edits_give_what_a_fresh_reading_gives(
        start in 0usize..28_000,
        edits in proptest::collection::vec(edit_strategy(1_000), 1..6),
    ) {
        let text = corpus();
        // A window of the corpus keeps each case quick.
        let mut from = start.min(text.len());
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (from + 3_000).min(text.len());
        while !text.is_char_boundary(to) {
            to -= 1;
        }
        let mut doc = open(&text[from..to]);
        for (at, removed, piece) in edits {
            let len = doc.text.len();
            let mut a = at * len / 1_000;
            while !doc.text.is_char_boundary(a) {
                a -= 1;
            }
            let mut b = (a + removed).min(len);
            while !doc.text.is_char_boundary(b) {
                b += 1;
            }
            let range = Range::new(
                doc.lines.position(&doc.text, a, Units::Utf16),
                doc.lines.position(&doc.text, b, Units::Utf16),
            );
            doc.change(Some(range), PIECES[piece], Units::Utf16);
            let mut fresh = open(&doc.text);
            let (games, diags) = seen(&mut doc);
            let (fresh_games, fresh_diags) = seen(&mut fresh);
            prop_assert_eq!(games, fresh_games, "after replacing {}..{} by {:?}", a, b, PIECES[piece]);
            let lines = |d: &str| d.split("},{\"range").map(str::to_string).collect::<Vec<_>>();
            let (d, f) = (lines(&diags), lines(&fresh_diags));
            let first = d.iter().zip(&f).position(|(x, y)| x != y);
            prop_assert!(d == f, "after replacing {}..{} by {:?}: {:?}\nfresh {:?}", a, b, PIECES[piece],
                first.map(|i| &d[i]), first.map(|i| &f[i]));
        }
    }
}

/// A change with no range replaces the whole text.
#[test]
fn a_whole_text_change_reads_everything_again() {
    let text = corpus();
    let mut doc = open("1. e4 e5 *\n");
    doc.change(None, &text, Units::Utf16);
    assert_eq!(seen(&mut doc), seen(&mut open(&text)));
}
