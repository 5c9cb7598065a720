//! Inputs that grow: one game made huge in one way (nesting, a comment, tags, a line,
//! tokens, plies) between good games, damaged and cut files, random bytes.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::run::{Input, MAX_MB, MAX_SECS, OK, Run, linear, measured};
use crate::util::hostile::{assert_clean, assert_finding, good, place};
use crate::util::{Dir, command};

/// The reader's default limit on one game's bytes.
const LIMIT_GAME: usize = 16 * 1024 * 1024;
/// And on the tokens of one game.
const LIMIT_TOKENS: usize = 1 << 20;

/// Writes a file piece by piece (some are too large to build in memory first).
pub fn write_with(path: &Path, fill: impl FnOnce(&mut BufWriter<File>)) -> PathBuf {
    let mut out = BufWriter::new(File::create(path).unwrap());
    fill(&mut out);
    out.flush().unwrap();
    path.to_path_buf()
}

/// The check every full-size case runs: JSON Lines, quiet, and without the roster note
/// (the generated games carry only the tags their damage needs, as in the small tests).
pub const CHECK_JSONL: [&str; 6] = [
    "check",
    "--format",
    "jsonl",
    "-q",
    "--ignore",
    "missing-tag",
];

/// `planilla CHECK_JSONL... EXTRA... PATH`, measured.
pub fn check(dir: &Dir, path: &Path, extra: &[&str]) -> Run {
    let mut command = command();
    command.args(CHECK_JSONL).args(extra).arg(path);
    measured(command, dir, Input::Null, 60)
}

fn nested(n: usize, closed: bool) -> (Vec<u8>, (u64, u64), (u64, u64)) {
    let head = format!("{}[Event \"nested\"]\n[Result \"*\"]\n\n1. e4 ", good(1));
    let mut data = head.clone().into_bytes();
    data.extend("(1. d4 ".repeat(n).bytes());
    if closed {
        data.extend(")".repeat(n).bytes());
    }
    data.extend(format!(" e5 *\n\n{}", good(3)).bytes());
    let deep = head.len() + "(1. d4 ".len() * 256; // the 257th "("
    let (deep, first) = (place(&data, deep), place(&data, head.len()));
    (data, deep, first)
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn nested_variations() {
    let dir = Dir::new("nested");
    let mut runs = Vec::new();
    for n in [100_000, 25_000] {
        let (data, deep, _) = nested(n, true);
        let path = dir.create(format!("nested-{n}.pgn"), &data);
        let r = check(&dir, &path, &[]);
        let what = format!("{n} nested");
        r.sane(&what, 256.0, 30.0, OK).games(&what, 3);
        assert_clean(&r.findings(), &[1, 3]);
        assert_finding(
            &r.findings(),
            2,
            "syntax-error",
            deep,
            "nested deeper than 256",
        );
        runs.push(r);
    }
    linear("nested variations", &runs[1], &runs[0], 4.0);
    let (data, _, first) = nested(100_000, false);
    let path = dir.create("nested-unclosed.pgn", &data);
    let r = check(&dir, &path, &[]);
    r.sane("unclosed", 256.0, 30.0, OK).games("unclosed", 3);
    assert_clean(&r.findings(), &[1, 3]);
    assert_finding(
        &r.findings(),
        2,
        "syntax-error",
        first,
        "unterminated variation",
    );
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn a_200_mb_comment_and_one_never_closed() {
    let dir = Dir::new("comment");
    let head = format!("{}[Event \"comment\"]\n[Result \"*\"]\n\n", good(1));
    let line = format!("{}\n", "x".repeat(99));
    let block = line.repeat(10_000);
    let path = write_with(&dir.path().join("comment-200mb.pgn"), |w| {
        w.write_all(head.as_bytes()).unwrap();
        w.write_all(b"1. e4 {").unwrap();
        for _ in 0..(200 << 20) / line.len() / 10_000 {
            w.write_all(block.as_bytes()).unwrap();
        }
        write!(w, "}} e5 *\n\n{}", good(3)).unwrap();
    });
    // The movetext is skipped from the blank line after the tags.
    let skipped = place(head.as_bytes(), head.len() - 1);
    let r = check(&dir, &path, &[]);
    r.sane("200 MB comment", 160.0, MAX_SECS, OK)
        .games("200 MB comment", 3);
    assert_clean(&r.findings(), &[1, 3]);
    assert_finding(
        &r.findings(),
        2,
        "syntax-error",
        skipped,
        "game larger than",
    );
    // Never closed: the next tag section ends it.
    let mut data = format!("{head}1. e4 {{").into_bytes();
    let at = data.len() - 1;
    data.extend(line.repeat((5 << 20) / line.len()).bytes());
    data.extend(format!("{}{}", good(3), good(4)).bytes());
    let path = dir.create("comment-unclosed.pgn", &data);
    let r = check(&dir, &path, &[]);
    r.sane("unclosed comment", MAX_MB, MAX_SECS, OK)
        .games("unclosed comment", 4);
    assert_clean(&r.findings(), &[1, 3, 4]);
    assert_finding(
        &r.findings(),
        2,
        "syntax-error",
        place(&data, at),
        "unterminated",
    );
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn a_million_tags_in_one_game() {
    let dir = Dir::new("tags");
    // Tags one a line: one game; a blank line between tags with new names: one tag
    // section too, past the size limit (tags kept, a finding).
    for (blank, clean) in [(false, &[1, 2, 3][..]), (true, &[1, 3][..])] {
        let mut runs = Vec::new();
        for n in [1_000_000, 250_000] {
            let name = format!("tags-{}{n}.pgn", if blank { "blank-" } else { "" });
            let path = write_with(&dir.path().join(name), |w| {
                writeln!(w, "{}[Event \"tags\"]", good(1)).unwrap();
                for i in 0..n {
                    if blank {
                        writeln!(w, "\n[Tag{i} \"v\"]").unwrap();
                    } else {
                        writeln!(w, "[T{i} \"v\"]").unwrap();
                    }
                }
                write!(w, "\n1. e4 *\n\n{}", good(3)).unwrap();
            });
            let r = check(&dir, &path, &[]);
            let what = format!("{n} tags, blank lines: {blank}");
            r.sane(&what, MAX_MB, MAX_SECS, OK).games(&what, 3);
            assert_clean(&r.findings(), clean);
            runs.push(r);
        }
        linear("tags", &runs[1], &runs[0], 4.0);
    }
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn a_50_mb_line() {
    let dir = Dir::new("line");
    let head = format!("{}[Event \"line\"]\n[Result \"*\"]\n\n", good(1));
    let mut runs = Vec::new();
    for mb in [50, 12] {
        let size = mb << 20;
        // The fifth move is illegal (the line stops there): the cost is reading the line.
        let path = write_with(&dir.path().join(format!("line-{mb}mb.pgn")), |w| {
            w.write_all(head.as_bytes()).unwrap();
            for _ in 0..size / 14 {
                w.write_all(b"e4 e5 Nf3 Nc6 ").unwrap();
            }
            write!(w, "*\n\n{}", good(3)).unwrap();
        });
        let r = check(&dir, &path, &[]);
        let what = format!("{mb} MB line");
        r.sane(&what, 160.0, MAX_SECS, OK).games(&what, 3);
        assert_clean(&r.findings(), &[1, 3]);
        let tags_end = place(head.as_bytes(), head.len() - 1);
        if size > LIMIT_GAME {
            assert_finding(
                &r.findings(),
                2,
                "syntax-error",
                tags_end,
                "game larger than",
            );
        } else if size / 14 * 4 > LIMIT_TOKENS {
            assert_finding(
                &r.findings(),
                2,
                "syntax-error",
                tags_end,
                "game with more than",
            );
        } else {
            let fifth = format!("{head}e4 e5 Nf3 Nc6 ");
            let at = place(fifth.as_bytes(), fifth.len());
            assert_finding(&r.findings(), 2, "illegal-move", at, "");
        }
        runs.push(r);
    }
    linear("long line", &runs[1], &runs[0], 4.0);
    // A last line over the limit without a line end. Game 2's moves end with its result
    // within the limit: it is kept whole, and the line after it is read as a game of its
    // own and skipped.
    let head = format!("{}{}", good(1), good(2));
    let path = write_with(&dir.path().join("line-last.pgn"), |w| {
        w.write_all(head.as_bytes()).unwrap();
        let garbage = "garbage ".repeat(1 << 10);
        for _ in 0..(50 << 20) / garbage.len() {
            w.write_all(garbage.as_bytes()).unwrap();
        }
    });
    let r = check(&dir, &path, &[]);
    r.sane("50 MB last line", 160.0, MAX_SECS, OK)
        .games("50 MB last line", 3);
    assert_clean(&r.findings(), &[1, 2]);
    let at = place(head.as_bytes(), head.len());
    assert_finding(&r.findings(), 3, "syntax-error", at, "game larger than");
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn over_a_million_tokens_under_the_size_limit() {
    // Memory stays bounded by the token limit (12 bytes a token), not a token a byte.
    let dir = Dir::new("tokens");
    let head = format!("{}[Event \"tokens\"]\n[Result \"*\"]\n\n", good(1));
    let at = place(head.as_bytes(), head.len() - 1);
    for (name, start, unit, n) in [
        ("parens", "1. e4 ", "(", (16 << 20) - 1000),
        ("comments", "1. e4 ", "{}", (8 << 20) - 1000),
        ("moves", "1. ", "a4 ", 5 << 20),
    ] {
        let path = write_with(&dir.path().join(format!("tokens-{name}.pgn")), |w| {
            write!(w, "{head}{start}").unwrap();
            let block = unit.repeat(1000);
            for _ in 0..n / 1000 {
                w.write_all(block.as_bytes()).unwrap();
            }
            w.write_all(unit.repeat(n % 1000).as_bytes()).unwrap();
            write!(w, " *\n\n{}", good(3)).unwrap();
        });
        let r = check(&dir, &path, &[]);
        r.sane(name, 64.0, MAX_SECS, OK).games(name, 3);
        assert_clean(&r.findings(), &[1, 3]);
        let message = "game with more than 1048576 tokens";
        assert_finding(&r.findings(), 2, "syntax-error", at, message);
    }
}

/// Knight moves out and back: `plies` plies without a capture or a pawn move.
fn shuffle(plies: usize) -> Vec<&'static str> {
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    (0..plies).map(|p| cycle[p % 4]).collect()
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn a_game_of_20000_plies() {
    let dir = Dir::new("long-game");
    let make = |plies: usize| {
        let mut words = Vec::new();
        for (p, san) in shuffle(plies).into_iter().enumerate() {
            if p % 2 == 0 {
                words.push(format!("{}.", p / 2 + 1));
            }
            words.push(san.to_string());
        }
        let lines: Vec<String> = words.chunks(12).map(|c| c.join(" ")).collect();
        let head = format!("{}[Event \"long\"]\n[Result \"*\"]\n\n", good(1));
        format!("{head}{} *\n\n{}", lines.join("\n"), good(3))
    };
    let mut runs = Vec::new();
    for plies in [20_000u64, 5_000] {
        let path = dir.create(format!("long-{plies}.pgn"), make(plies as usize));
        let r = check(&dir, &path, &["--rules", "fide-2009"]);
        let what = format!("{plies} plies (fide-2009)");
        r.sane(&what, MAX_MB, MAX_SECS, OK).games(&what, 3);
        assert_clean(&r.findings(), &[1, 3]);
        assert_eq!(r.summary()["plies"], plies + 14, "{what}: plies replayed");
        let mut codes: Vec<String> = r
            .findings()
            .iter()
            .filter(|f| f["game"] == 2)
            .map(|f| f["code"].as_str().unwrap().to_string())
            .collect();
        codes.sort();
        assert_eq!(
            codes,
            ["missed-fifty-move-claim", "missed-threefold-claim"],
            "{what}"
        );
        runs.push(r);
    }
    linear("long game", &runs[1], &runs[0], 4.0);
    // Under the 2023 rules the game ends at the fivefold repetition, a draw: the moves
    // after it are a warning.
    let r = check(&dir, &dir.path().join("long-20000.pgn"), &[]);
    r.sane("fide-2023", MAX_MB, MAX_SECS, OK);
    assert!(
        r.findings()
            .iter()
            .any(|f| f["game"] == 2 && f["code"] == "move-after-draw"),
        "fide-2023: {:?}",
        r.findings()
    );
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn a_game_of_200000_reversible_plies() {
    let dir = Dir::new("reversible");
    let make = |plies: usize| {
        // Lines cut only between moves.
        let mut text = Vec::new();
        let mut line = String::new();
        for san in shuffle(plies) {
            if line.len() + san.len() > 79 {
                text.push(std::mem::take(&mut line));
            }
            line.push_str(san);
            line.push(' ');
        }
        text.push(line);
        let head = format!("{}[Event \"shuffle\"]\n[Result \"*\"]\n\n", good(1));
        format!("{head}{}*\n\n{}", text.join("\n"), good(3))
    };
    let mut runs = Vec::new();
    for plies in [200_000, 50_000] {
        let path = dir.create(format!("reversible-{plies}.pgn"), make(plies));
        let r = check(&dir, &path, &["--rules", "fide-2009"]);
        let what = format!("{plies} plies");
        r.sane(&what, MAX_MB, 30.0, OK).games(&what, 3);
        assert_clean(&r.findings(), &[1, 3]);
        runs.push(r);
    }
    linear("reversible plies", &runs[1], &runs[0], 4.0);
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn ten_thousand_empty_games_and_tag_only_sections() {
    let dir = Dir::new("empty");
    let mut runs = Vec::new();
    for n in [10_000u64, 40_000] {
        let text: String = (0..n)
            .map(|i| format!("[Event \"e{i}\"]\n[Result \"*\"]\n\n*\n\n"))
            .collect();
        let path = dir.create(format!("empty-{n}.pgn"), text);
        let r = check(&dir, &path, &[]);
        let what = format!("{n} empty games");
        r.sane(&what, MAX_MB, MAX_SECS, OK).games(&what, n);
        assert!(r.findings().is_empty(), "{what}: {:?}", r.findings());
        runs.push(r);
    }
    linear("empty games", &runs[0], &runs[1], 4.0);
    let text: String = (0..10_000)
        .map(|i| format!("[Event \"e{i}\"]\n[Site \"s\"]\n\n"))
        .collect();
    let path = dir.create("tag-only.pgn", text);
    let r = check(&dir, &path, &[]);
    r.sane("tag-only sections", MAX_MB, MAX_SECS, OK)
        .games("tag-only sections", 10_000);
}
