//! Golden tests: every `corpora/parser/*.pgn` is read and dumped (games, tags, tokens
//! with their locations, findings); the dump must equal the `.golden` file beside it.
//! Run with `UPDATE_GOLDEN=1` to write the golden files after checking the change.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use planilla_parser::{Game, ReaderBuilder, write_lossless};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/parser")
}

/// A readable dump of everything the reader says about a file.
fn dump(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut reader = ReaderBuilder::new().build(bytes);
    let mut game = Game::new();
    let mut joined = Vec::new();
    while reader.read_game(&mut game).expect("reading from memory") {
        let first = game.location(0);
        writeln!(
            out,
            "game {} at byte {} line {} ({} bytes, encoding {:?})",
            game.index(),
            game.offset(),
            game.first_line(),
            game.bytes().len(),
            game.encoding()
        )
        .unwrap();
        assert_eq!(
            (first.byte, first.line, first.column),
            (game.offset(), game.first_line(), 1)
        );
        for (name, value) in game.tag_pairs() {
            writeln!(out, "  tag {name} = {value:?}").unwrap();
        }
        for token in game.all_tokens() {
            let at = game.location(token.start as usize);
            writeln!(
                out,
                "  {}:{} {} {:?}",
                at.line,
                at.column,
                token.kind.name(),
                game.decode(token.span())
            )
            .unwrap();
        }
        for finding in game.findings() {
            let at = game.location(finding.span.start as usize);
            writeln!(out, "  finding {}:{} {}", at.line, at.column, finding).unwrap();
        }
        let mut copy = Vec::new();
        write_lossless(&game, &mut copy, |_, _| None).unwrap();
        assert_eq!(copy, game.bytes(), "lossless writer");
        joined.extend_from_slice(game.bytes());
    }
    writeln!(
        out,
        "summary {:?} ({})",
        reader.encoding_summary(),
        reader.encoding_summary().verdict()
    )
    .unwrap();
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    assert_eq!(joined, body, "games put back together");
    out
}

#[test]
fn golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpora/parser exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 8, "golden inputs missing");
    let mut failures = Vec::new();
    for input in inputs {
        let actual = dump(&std::fs::read(&input).unwrap());
        let golden = input.with_extension("golden");
        if update {
            std::fs::write(&golden, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}:\n{}",
                golden.display(),
                first_difference(&expected, &actual)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "golden files differ (UPDATE_GOLDEN=1 to accept):\n{}",
        failures.join("\n")
    );
}

fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!("line {}:\n  expected: {e}\n  actual:   {a}", i + 1);
        }
    }
    format!(
        "lengths differ: expected {} lines, actual {}",
        expected.lines().count(),
        actual.lines().count()
    )
}

/// The raw-byte inputs must stay raw: an editor that re-encoded them would break the point.
#[test]
fn raw_byte_inputs_are_intact() {
    let latin1 = std::fs::read(corpus_dir().join("latin1.pgn")).unwrap();
    assert!(latin1.windows(4).any(|w| w == b"N\xfcss"));
    assert!(latin1.windows(3).any(|w| w == b"\xbd-\xbd"));
    assert!(std::str::from_utf8(&latin1).is_err());
    let mixed = std::fs::read(corpus_dir().join("mixed.pgn")).unwrap();
    assert!(mixed.starts_with(b"\xEF\xBB\xBF"));
    assert!(mixed.windows(6).any(|w| w == b"M\xfcller"));
    assert!(mixed.windows(3).any(|w| w == "\u{FFFD}".as_bytes()));
}
