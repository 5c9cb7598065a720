//! The splitter's property on chosen inputs: cut into pieces of several sizes, each
//! tokenized on its own and settled, an input gives the games, tokens and findings of one
//! reader over the whole (`planilla_testkit::split_reads_as_stream`). The property on
//! random inputs is in `buffers.rs`, on the shared real files in `split-corpus`.

use planilla_parser::ReaderBuilder;
use planilla_testkit::split_reads_as_stream;

/// Inputs that put a likely game start (`[Event "` after a blank line) where no game
/// starts, or a game start where the splitter does not look.
const CASES: &[(&str, &[u8])] = &[
    (
        "games with tags",
        b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n\n[Event \"c\"]\n\n1. c4 *\n",
    ),
    (
        "a comment that spans lines and holds a tag section",
        b"[Event \"a\"]\n\n1. e4 {a comment\n\n[Event \"inside\"] and more\n} e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n",
    ),
    (
        "an unclosed comment ended by a tag line",
        b"[Event \"a\"]\n\n1. e4 {open\n\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. c4 *\n",
    ),
    (
        "a blank line in a tag section, then Event",
        b"[Site \"x\"]\n\n[Event \"a\"]\n[Result \"*\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n",
    ),
    (
        "tag sections without movetext",
        b"[Event \"a\"]\n[Round \"1\"]\n\n[Event \"a\"]\n[Round \"2\"]\n\n[Event \"a\"]\n[Round \"3\"]\n",
    ),
    (
        "escape lines and comments between games",
        b"[Event \"a\"]\n\n1. e4 1-0\n\n%escape\n{between}\n\n[Event \"b\"]\n\n1. d4 *\n%end\n\n[Event \"c\"]\n1. c4 *\n",
    ),
    (
        "games without tags",
        b"1. e4 e5 1-0\n\n1. d4 d5 0-1\n\n1. c4 c5 *\n\n1. Nf3 1/2-1/2\n",
    ),
    (
        "text between games",
        b"[Event \"a\"]\n\n1. e4 1-0\ngarbage here\n\n[Event \"b\"]\n\n1. d4 *\n\nmore garbage\n\n[Event \"c\"]\n\n1. c4 *\n",
    ),
    (
        "CRLF line ends and a byte order mark",
        b"\xEF\xBB\xBF[Event \"a\"]\r\n\r\n1. e4 1-0\r\n\r\n[Event \"b\"]\r\n\r\n1. d4 *\r\n\r\n[Event \"c\"]\r\n\r\n1. c4 *\r\n",
    ),
    (
        "a move on a tag's line and a tag in movetext",
        b"[Event \"a\"] 1. e4 *\n\n[Event \"b\"]\n1. d4 [Event \"c\"] d5 *\n\n[Event \"d\"]\n\n1. c4 *\n",
    ),
    (
        "windows-1252 names",
        b"[Event \"M\xfcnchen\"]\n\n1. e4 1-0\n\n[Event \"K\xf6ln\"]\n\n1. d4 *\n\n[Event \"caf\xc3\xa9\"]\n\n1. c4 *\n",
    ),
    (
        "UTF-16 (not cut)",
        b"[\0E\0v\0e\0n\0t\0 \0\"\0a\0\"\0]\0\n\0\n\x001\0.\0 \0e\x004\0 \0*\0\n\0",
    ),
    ("only whitespace", b"\n\n  \r\n\n"),
    ("nothing", b""),
];

#[test]
fn chosen_inputs_read_as_the_whole() {
    for (name, input) in CASES {
        for max_game in [usize::MAX, 30] {
            let builder = ReaderBuilder::new().max_game_size(max_game);
            for target in [1, 2, 7, 16, 64, 4096] {
                let result =
                    std::panic::catch_unwind(|| split_reads_as_stream(input, &builder, target));
                assert!(
                    result.is_ok(),
                    "{name}: pieces of {target} bytes, max game {max_game}"
                );
            }
        }
    }
}

/// Every committed PGN file of the project's corpora, cut into small pieces.
#[test]
fn committed_corpora_read_as_the_whole() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpora");
    let mut files = 0;
    for dir in ["parser", "check", "convert"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "pgn") {
                let input = std::fs::read(&path).unwrap();
                for target in [1, 100, 1000] {
                    split_reads_as_stream(&input, &ReaderBuilder::new(), target);
                }
                files += 1;
            }
        }
    }
    assert!(files > 20, "{files} files");
}

/// Likely game starts are cut at and hold: on games with tags after blank lines, no
/// piece is read again.
#[test]
fn likely_game_starts_are_game_starts() {
    let input: Vec<u8> = (0..2000)
        .flat_map(|i| {
            format!("[Event \"{i}\"]\n[Result \"*\"]\n\n1. e4 {{x}} e5 *\n\n").into_bytes()
        })
        .collect();
    let (pieces, again) = split_reads_as_stream(&input, &ReaderBuilder::new(), 4096);
    assert!(pieces > 10, "{pieces} pieces");
    assert_eq!(again, 0);
}

/// Past `MAX_PIECE` bytes without a likely game start (games without tags, a comment over
/// several MiB), the rest is read by one reader: the same games, from where the pieces
/// before end.
#[test]
fn the_rest_of_an_input_without_likely_game_starts_reads_as_the_whole() {
    let tagged: Vec<u8> = (0..3000)
        .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 *\n\n").into_bytes())
        .collect();
    let tagless = b"1. d4 d5 2. c4 {a comment\n\nover lines} e6 1-0\n\n"
        .repeat(planilla_parser::split::MAX_PIECE / 40);
    let input = [&tagged[..], &tagless[..], &tagged[..]].concat();
    for max_game in [usize::MAX, 1000] {
        let builder = ReaderBuilder::new().max_game_size(max_game);
        let (pieces, again) = split_reads_as_stream(&input, &builder, 4096);
        assert!(pieces > 10, "{pieces} pieces");
        assert_eq!(again, 0);
    }
}
