//! What the language server's documents promise under any sequence of edits: the games,
//! their places, numbers and findings, and the diagnostics (archive findings included),
//! are those of a fresh reading of the text, although each edit re-read only the games
//! it touched.

use lsp_types::Range;
use planilla_lsp::Settings;
use planilla_lsp::diagnostics;
use planilla_lsp::document::Document;
use planilla_lsp::lines::Units;

/// Pieces an edit types: moves, results, tag lines, brackets, line ends, accents.
pub const PIECES: &[&str] = &[
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

/// What a client sees of a document, and where its games are (its archive judged now).
pub fn seen(doc: &mut Document) -> (Vec<(u64, u64, u64, usize)>, String) {
    doc.judge_now();
    let games = doc
        .games
        .iter()
        .map(|g| (g.origin.offset, g.origin.line, g.origin.games, g.end))
        .collect();
    let diags = serde_json::to_string(&diagnostics::of(doc, Units::Utf16)).expect("json");
    (games, diags)
}

/// A document of `text` with the default settings.
pub fn open(text: &str) -> Document {
    Document::open(text.to_string(), 0, "t.pgn".into(), Settings::default())
}

/// Applies `edits` to a document of `text` one after another, each an edit at the
/// `at`/1000-th byte (moved back to a character boundary, and off the middle of a
/// `\r\n`) removing `removed` bytes and
/// typing piece `piece` of [`PIECES`] (modulo their number), in `units`; after each,
/// panics naming the edit unless the document is what a fresh reading gives.
pub fn edits_read_fresh(text: &str, edits: &[(usize, usize, usize)], units: Units) {
    let mut doc = open(text);
    for &(at, removed, piece) in edits {
        let piece = PIECES[piece % PIECES.len()];
        let len = doc.text.len();
        let mut a = (at % 1001) * len / 1000;
        while !doc.text.is_char_boundary(a) {
            a -= 1;
        }
        let mut b = (a + removed).min(len);
        while !doc.text.is_char_boundary(b) {
            b += 1;
        }
        // A client has no position between the \r and the \n of a line end.
        let inside_crlf =
            |at: usize| at > 0 && doc.text.as_bytes().get(at - 1..=at) == Some(b"\r\n");
        if inside_crlf(a) {
            a -= 1;
        }
        if inside_crlf(b) {
            b += 1;
        }
        let range = Range::new(
            doc.lines.position(&doc.text, a, units),
            doc.lines.position(&doc.text, b, units),
        );
        doc.change(Some(range), piece, units);
        assert_eq!(
            &doc.text[a..a + piece.len()],
            piece,
            "the edit lands where it was aimed"
        );
        let mut fresh = open(&doc.text);
        let (games, diags) = seen(&mut doc);
        let (fresh_games, fresh_diags) = seen(&mut fresh);
        assert_eq!(
            games, fresh_games,
            "games after replacing {a}..{b} by {piece:?}"
        );
        if diags != fresh_diags {
            let split = |d: &str| {
                d.split("},{\"range")
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            };
            let (d, f) = (split(&diags), split(&fresh_diags));
            let first = d.iter().zip(&f).position(|(x, y)| x != y);
            panic!(
                "diagnostics after replacing {a}..{b} by {piece:?}: {:?}\nfresh: {:?}",
                first.map(|i| &d[i]),
                first.map(|i| &f[i])
            );
        }
    }
}

/// The lsp fuzz target's input: the text, then after a 0 byte the edits, three bytes
/// each (where, how many bytes removed, which piece).
pub fn lsp_fuzz(data: &[u8]) {
    let (text, edits) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let text = String::from_utf8_lossy(text);
    let edits: Vec<(usize, usize, usize)> = edits
        .chunks_exact(3)
        .take(8)
        .map(|e| {
            (
                e[0] as usize * 1000 / 255,
                e[1] as usize % 40,
                e[2] as usize,
            )
        })
        .collect();
    let units = if data.len().is_multiple_of(2) {
        Units::Utf16
    } else {
        Units::Utf8
    };
    edits_read_fresh(&text, &edits, units);
}
