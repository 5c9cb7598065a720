//! End-to-end tests of `planilla convert`: the real binary on files in
//! `corpora/`, compared with expected outputs in `corpora/convert/expected/`
//! (`PLANILLA_BLESS=1` rewrites them after a deliberate change).

mod util;

use std::path::PathBuf;
use std::process::Output;
use util::{Dir, planilla, planilla_stdin, root};

fn golden(expected: &str, actual: &[u8]) {
    util::golden("convert", expected, actual);
}

/// Converts with one thread and with four; both must agree byte for byte.
fn convert(args: &[&str]) -> Output {
    let mut outs = Vec::new();
    for j in ["-j1", "-j4"] {
        let mut all = vec!["convert", j];
        all.extend_from_slice(args);
        outs.push(planilla(&all));
    }
    assert_eq!(
        outs[0].stdout, outs[1].stdout,
        "-j1 and -j4 differ for {args:?}"
    );
    assert_eq!(outs[0].status.code(), outs[1].status.code());
    outs.swap_remove(0)
}

fn count_games(text: &[u8]) -> usize {
    String::from_utf8_lossy(text).matches("[Event ").count()
}

#[test]
fn spanish_windows_1252_to_english() {
    let out = convert(&["corpora/check/spanish-1252.pgn"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    golden("spanish-1252.en.pgn", &out.stdout);
    // Everything that is not a move is unchanged: the tags and comments
    // decode to the same text, line structure (CRLF) included.
    let input = std::fs::read(root().join("corpora/check/spanish-1252.pgn")).unwrap();
    let (decoded, _, _) = encoding_rs::WINDOWS_1252.decode(&input);
    let output = String::from_utf8(out.stdout).unwrap();
    for line in decoded.lines().filter(|l| l.starts_with('[')) {
        assert!(output.contains(line), "tag line lost: {line}");
    }
    assert_eq!(
        decoded.matches("\r\n").count(),
        output.matches("\r\n").count()
    );
}

#[test]
fn english_to_spanish_and_back_is_identity_on_canonical_input() {
    let en = convert(&["corpora/check/spanish-1252.pgn"]).stdout;
    let es = planilla_stdin(&["convert", "--to", "es"], &en);
    assert_eq!(es.status.code(), Some(0));
    golden("spanish-1252.es.pgn", &es.stdout);
    let back = planilla_stdin(&["convert", "--to", "en"], &es.stdout);
    assert_eq!(back.stdout, en);
}

#[test]
fn every_target_language() {
    for lang in ["en", "es", "it", "pt", "fr", "de", "nl", "figurine"] {
        let out = convert(&["--to", lang, "corpora/check/notation.pgn"]);
        assert_eq!(out.status.code(), Some(0), "{lang}");
        golden(&format!("notation.{lang}.pgn"), &out.stdout);
        // And back to English gives the English conversion.
        let back = planilla_stdin(&["convert", "--from", lang, "--to", "en"], &out.stdout);
        let english = convert(&["corpora/check/notation.pgn"]).stdout;
        assert_eq!(
            String::from_utf8_lossy(&back.stdout),
            String::from_utf8_lossy(&english),
            "{lang} back to en"
        );
    }
}

#[test]
fn broken_games_are_written_and_reported() {
    let out = convert(&["corpora/convert/broken-es.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    golden("broken-es.en.pgn", &out.stdout);
    let input = std::fs::read(root().join("corpora/convert/broken-es.pgn")).unwrap();
    assert_eq!(
        count_games(&out.stdout),
        count_games(&input),
        "games in = games out"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("corpora/convert/broken-es.pgn:4:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error[illegal-move] game 1, ply 7 (4. Dxf7+)"),
        "{stderr}"
    );
    assert!(stderr.contains("error[ambiguous-move] game 3"), "{stderr}");
    assert!(stderr.contains("2 could not be fully replayed"), "{stderr}");
}

/// Converts `path` to Latin-1, which must fail (exit status 2) with `message` on
/// standard error.
fn assert_latin1_fails(path: &str, message: &str) {
    let out = planilla(&["convert", "--output-encoding", "latin-1", path]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(message), "{stderr}");
}

#[test]
fn unencodable_character_is_an_error_with_its_place() {
    assert_latin1_fails(
        "corpora/check/mixed-encoding.pgn",
        "mixed-encoding.pgn:2:12: latin-1 cannot hold the character 'ř' (U+0159)",
    );
    // Windows-1252 holds every character of the Spanish file: a byte-exact
    // round trip of everything but the moves.
    let out = convert(&[
        "--output-encoding",
        "windows-1252",
        "--to",
        "es",
        "corpora/check/spanish-1252.pgn",
    ]);
    assert_eq!(out.status.code(), Some(0));
    golden("spanish-1252.es.cp1252.pgn", &out.stdout);
}

#[test]
fn output_file_is_replaced_atomically() {
    let dir = Dir::new("atomic");
    let dir = dir.path();
    let target = dir.join("out.pgn");
    std::fs::write(&target, b"old contents").unwrap();

    // A failing run leaves the old file as it was and no temporary file.
    let out = planilla(&[
        "convert",
        "--output-encoding",
        "latin-1",
        "-o",
        target.to_str().unwrap(),
        "corpora/check/mixed-encoding.pgn",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&target).unwrap(), b"old contents");
    assert_eq!(
        std::fs::read_dir(dir).unwrap().count(),
        1,
        "a temporary file was left behind"
    );

    // -o naming the input converts it in place, on purpose.
    let input = dir.join("game.pgn");
    std::fs::copy(root().join("corpora/check/spanish-1252.pgn"), &input).unwrap();
    let out = planilla(&[
        "convert",
        "-o",
        input.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    golden("spanish-1252.en.pgn", &std::fs::read(&input).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}

/// The number of games `planilla check` reads in `text`.
fn games_in(text: &[u8]) -> u64 {
    let out = planilla_stdin(
        &[
            "check",
            "-q",
            "--format",
            "jsonl",
            "--select",
            "syntax-error",
        ],
        text,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    summary["games"].as_u64().unwrap()
}

#[test]
fn windows_1252_castling_with_a_dash_is_castling_and_nothing_is_copied_raw() {
    let input = std::fs::read(root().join("corpora/convert/windows-1252.pgn")).unwrap();
    // `O\x96O` and `0\x970` (en and em dash) replay as castling: the only error is the
    // illegal move of game 2.
    let check = planilla(&["check", "corpora/convert/windows-1252.pgn"]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert_eq!(report.matches("error[").count(), 1, "{report}");
    assert!(
        report.contains("error[illegal-move] game 2, ply 7 (4. Dh7)"),
        "{report}"
    );

    let out = convert(&["corpora/convert/windows-1252.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    golden("windows-1252.en.pgn", &out.stdout);
    // Everything is decoded, also what is kept as written after the illegal move
    // (`O–O`) and a comment mixing UTF-8 and Windows-1252 bytes.
    let text = String::from_utf8(out.stdout.clone()).expect("convert writes UTF-8");
    assert!(text.contains("4. O-O Nf6 5. d3 O-O 6. Bg5"), "{text}");
    assert!(text.contains("5. e3 O-O 6. Nf3"), "{text}");
    assert!(text.contains("5. O–O d6 *"), "{text}");
    assert!(text.contains("{Café y café:"), "{text}");
    assert_eq!(games_in(&out.stdout), 3);
    assert_eq!(games_in(&input), 3);

    // Windows-1252 holds every character: all three games, none written as nothing.
    let cp1252 = convert(&[
        "--output-encoding",
        "windows-1252",
        "corpora/convert/windows-1252.pgn",
    ]);
    assert_eq!(cp1252.status.code(), Some(1));
    golden("windows-1252.en.cp1252.pgn", &cp1252.stdout);
    let (decoded, _, _) = encoding_rs::WINDOWS_1252.decode(&cp1252.stdout);
    assert_eq!(decoded, text);

    // Latin-1 has no en dash: the dash kept in game 2 is an error at its place, not a
    // game written as nothing.
    assert_latin1_fails(
        "corpora/convert/windows-1252.pgn",
        "windows-1252.pgn:14:47: latin-1 cannot hold the character '–' (U+2013)",
    );
}

#[test]
fn moves_after_the_end_read_the_same_through_every_language() {
    let out = convert(&["corpora/convert/after-the-end.pgn"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    golden("after-the-end.en.pgn", &out.stdout);
    let text = String::from_utf8_lossy(&out.stdout);
    // After the mate nothing is replayed; each move is read as written in Spanish and
    // written canonically: `Rxf7` is the king, `0-0` castling, `d8D` a promotion,
    // `Pe4` a pawn move, also in a variation.
    assert!(
        text.contains("4. Qxf7# Kxf7 5. Bb5 O-O (5... Nxe4 6. e4) 6. d8=Q exd6 a.p. 7. Ngxf3 Rb1"),
        "{text}"
    );
    for lang in ["es", "it", "pt", "fr", "de", "nl", "figurine"] {
        let there = convert(&["--to", lang, "corpora/convert/after-the-end.pgn"]);
        assert_eq!(there.status.code(), Some(0), "{lang}");
        let back = planilla_stdin(&["convert", "--from", lang, "--to", "en"], &there.stdout);
        assert_eq!(
            String::from_utf8_lossy(&back.stdout),
            text,
            "{lang} and back to en"
        );
    }
}

#[test]
fn a_draw_offer_before_the_moves_keeps_games_in_equal_to_games_out() {
    let input = std::fs::read(root().join("corpora/convert/draw-offers.pgn")).unwrap();
    let out = convert(&["corpora/convert/draw-offers.pgn"]);
    assert_eq!(out.status.code(), Some(0));
    golden("draw-offers.en.pgn", &out.stdout);
    assert_eq!(games_in(&input), 4);
    assert_eq!(games_in(&out.stdout), 4, "games in = games out");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("{(=)}").count(), 4, "{text}");
    assert_eq!(text.matches("{«=»}").count(), 2, "{text}");
}

#[test]
fn a_move_after_the_end_that_is_no_move_in_the_language_read_is_reported() {
    // After the mate, `e4` reads as a move; `Nb8` is no Spanish move (no piece `N`): its
    // text is kept, so the game is not wholly converted: reported, exit status 1.
    let input =
        b"[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ac4 Cc6 3. Dh5 Cf6 4. Dxf7# e4 Nb8 1-0\n";
    let out = planilla_stdin(&["convert", "--from", "es"], input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("4. Qxf7# e4 Nb8 1-0"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr.contains("<stdin>:4:41: error[move-after-game-end]"),
        "{stderr}"
    );
    // Every move after the end readable: converted, exit status 0.
    let input =
        b"[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ac4 Cc6 3. Dh5 Cf6 4. Dxf7# e4 Cb8 1-0\n";
    let out = planilla_stdin(&["convert", "--from", "es"], input);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("4. Qxf7# e4 Nb8 1-0"));
}

#[test]
fn a_game_over_a_reader_limit_keeps_games_in_equal_to_games_out() {
    // Over the token limit (a million and more tokens of `(`, 1.1 MB), and over the
    // size limit (17 MiB of comment): each keeps its tag section and is reported; the
    // games after them are converted, and the output reads as the same number of games.
    let mut input = b"[Event \"parens\"]\n\n1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'(', 1_100_000));
    input
        .extend_from_slice(b" *\n\n[Event \"next\"]\n\n1. Cf3 *\n\n[Event \"comment\"]\n\n1. e4 {");
    input.extend(std::iter::repeat_n(b'x', 17 << 20));
    input.extend_from_slice(b"} *\n\n[Event \"last\"]\n\n1. Cf3 *\n");
    let out = planilla_stdin(&["convert", "--from", "es", "--to", "en", "-"], &input);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("game with more than 1048576 tokens")
            && stderr.contains("game larger than"),
        "{stderr}"
    );
    assert!(
        stderr.contains("4 games converted; 2 over a reader limit keep only their tags"),
        "{stderr}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[Event \"parens\"]\n\n[Event \"next\"]\n\n1. Nf3 *\n\n[Event \"comment\"]\n\n[Event \"last\"]\n\n1. Nf3 *\n"
    );
    assert_eq!(games_in(&input), 4);
    assert_eq!(games_in(&out.stdout), 4, "games in = games out");
}

/// A directory of small files (read whole, several files at a time) with a large file
/// among them (streamed in batches) converts, with one thread and with four, to what
/// each file gives on its own, in order, findings on standard error included, with a
/// separator line between two files only where their games would run together.
#[test]
fn many_small_files_convert_like_each_on_its_own() {
    let dir = Dir::new("many");
    let dir = dir.path();
    util::small_files_and_a_large_one(
        &root().join("corpora/convert"),
        &root().join("corpora/convert/broken-es.pgn"),
        dir,
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();

    let findings = |out: &Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| !l.starts_with("planilla:"))
            .map(str::to_string)
            .collect()
    };
    let (mut text, mut reported) = (Vec::new(), Vec::new());
    for file in &files {
        let out = planilla(&["convert", "-j1", file.to_str().unwrap()]);
        text.extend_from_slice(&out.stdout);
        reported.extend(findings(&out));
    }
    assert!(reported.len() > 1000, "{} findings", reported.len());
    let out = convert(&[dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let separator = format!("\n{}\n", planilla_parser::SEPARATOR);
    let joined = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(
        joined.replace(&separator, "").as_bytes() == text,
        "the converted text differs"
    );
    assert_eq!(
        games_in(&out.stdout),
        games_in(&text),
        "games in = games out"
    );
    assert!(findings(&out) == reported, "the findings differ");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A game that is not replayed (an invalid FEN, an unsupported variant) is translated
/// letter by letter in the language its letters name; a game two languages read
/// legally is converted from the first and the note naming both is reported.
#[test]
fn unreplayed_and_ambiguous_games_are_translated_and_reported() {
    let out = convert(&["corpora/convert/unreplayed.pgn"]);
    golden("unreplayed.en.pgn", &out.stdout);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1. Rh7 Kd8 2. Be4 Nc6 3. Qd5 Bd7"), "{text}");
    assert!(text.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5"), "{text}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    for expected in [
        "unreplayed.pgn:17:4: note[notation-language] game 3: every move replays legally in Spanish and Dutch notation",
        "unreplayed.pgn:24:4: note[notation-language] game 4: every move replays legally in English and Spanish notation",
        "2 read legally in two languages were converted from the first (choose with --from)",
    ] {
        assert!(stderr.contains(expected), "{expected}\n{stderr}");
    }
    // Back from Spanish, the games not replayed come back as they were in English.
    let spanish = convert(&["--to", "es", "corpora/convert/expected/unreplayed.en.pgn"]);
    let back = planilla_stdin(&["convert", "--from", "es", "-"], &spanish.stdout);
    assert!(
        back.stdout == out.stdout[..back.stdout.len()],
        "{}",
        String::from_utf8_lossy(&back.stdout)
    );
}

/// An en-passant mark at the start of a line goes without taking the line break with
/// it, a check mark after the en-passant mark is the move's, and a check or mate mark written apart from its move (`Axf7 +`, `Dxe6 ++`) is
/// part of the move: the canonical move carries the right mark, nothing is doubled.
#[test]
fn marks_written_apart_from_their_moves() {
    let out = convert(&["corpora/convert/marks-apart.pgn"]);
    assert_eq!(out.status.code(), Some(0));
    golden("marks-apart.en.pgn", &out.stdout);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("3. exd6\nexd6 4. Bc4"), "{text}");
    assert!(text.contains("5. Bxf7+ Kxf7"), "{text}");
    assert!(text.contains("8. Qxe6+ 1-0"), "{text}");
    // A mark after `a.p.` is the move's: `dxe3 a.p.+` is `dxe3+`.
    assert!(text.contains("1... dxe3+ 2. Kxe3 Kd7 *"), "{text}");
    // With CRLF line ends, the CRLF stays.
    let crlf = std::fs::read_to_string(root().join("corpora/convert/marks-apart.pgn"))
        .unwrap()
        .replace('\n', "\r\n");
    let out = planilla_stdin(&["convert", "-"], crlf.as_bytes());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        text.replace('\n', "\r\n")
    );
}

/// A game converted in full but with a syntax error in its text (a stray token) keeps
/// the text as read, and the error reported on standard error sets the status to 1, as
/// `check` does.
#[test]
fn a_syntax_error_is_reported_and_sets_the_status() {
    let input = b"[Event \"x\"]\n\n1. e4 @@ e5 2. Cf3 *\n";
    let out = planilla_stdin(&["convert", "-"], input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[Event \"x\"]\n\n1. e4 @@ e5 2. Nf3 *\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("<stdin>:3:7: error[syntax-error] game 1: unexpected '@@'"),
        "{stderr}"
    );
    assert!(stderr.contains("1 have errors in their text"), "{stderr}");
}

/// `--lang`, which the contract lists for every command that reads games, is `--from`;
/// `-o -` is standard output.
#[test]
fn lang_is_from_and_dash_is_standard_output() {
    let from = planilla(&["convert", "--from", "es", "corpora/check/spanish-1252.pgn"]);
    let lang = planilla(&["convert", "--lang", "es", "corpora/check/spanish-1252.pgn"]);
    assert_eq!(lang.status.code(), Some(0));
    assert_eq!(from.stdout, lang.stdout);
    let dash = planilla(&["convert", "-o", "-", "corpora/check/spanish-1252.pgn"]);
    assert_eq!(dash.status.code(), Some(0));
    assert_eq!(from.stdout, dash.stdout);
    assert!(!root().join("-").exists());
}

/// The variations count in language detection: a reading must replay them too. A game
/// whose main line reads in two languages is told apart by its variation; one whose
/// variation alone reads differently in two is reported, never converted silently.
#[test]
fn variations_decide_the_language_or_make_it_ambiguous() {
    let out = convert(&["corpora/convert/variation-languages.pgn"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    golden("variation-languages.en.pgn", &out.stdout);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1. e4 e5 2. Nf3 (2. Ne2) 2... d6 *"),
        "{text}"
    );
    assert!(
        text.contains("1. a4 e5 2. Ra3 (2. f3 d6) 2... d6 *"),
        "{text}"
    );
    assert!(
        stderr.contains("game 2: every move replays legally in Spanish and Dutch notation"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 read legally in two languages"),
        "{stderr}"
    );
    let check = planilla(&["check", "corpora/convert/variation-languages.pgn"]);
    assert_eq!(check.status.code(), Some(0));
}

/// A game that cannot be replayed keeps its moves with the piece letters translated one
/// by one; a pawn letter into Dutch, which has none, is dropped: German `Bd4` (a pawn)
/// must not come back from Dutch as the English bishop `Bd4`.
#[test]
fn letter_by_letter_pawns_stay_pawns_through_dutch() {
    let german = "[Event \"x\"]\n[Result \"*\"]\n\n1. Be4 Be5 2. Sf3 Sc6 3. Ld5 Sf6 4. Bd4 Bd6 *\n";
    let there = planilla_stdin(
        &["convert", "--from", "de", "--to", "nl"],
        german.as_bytes(),
    );
    let dutch = String::from_utf8_lossy(&there.stdout).to_string();
    assert!(dutch.contains("4. d4 d6 *"), "{dutch}");
    let back = planilla_stdin(&["convert", "--from", "nl", "--to", "en"], dutch.as_bytes());
    let english = String::from_utf8_lossy(&back.stdout);
    assert!(english.contains("4. d4 d6 *"), "{english}");
    let direct = planilla_stdin(
        &["convert", "--from", "de", "--to", "en"],
        german.as_bytes(),
    );
    assert!(
        String::from_utf8_lossy(&direct.stdout).contains("4. Pd4 Pd6 *"),
        "{}",
        String::from_utf8_lossy(&direct.stdout)
    );
}

/// Broadcast records: a DGT signal's placements are kept (letters translated, as moves
/// written after the game's end are) and every scoresheet result is kept as written: a
/// `0-0` that ends the movetext and is no legal castling stays a double forfeit, never
/// `O-O`; castling written `0-0` as the last move is still castling.
#[test]
fn broadcast_results_and_signals_are_kept() {
    for (input, expected) in [
        ("corpora/check/dgt-signal.pgn", "dgt-signal.en.pgn"),
        (
            "corpora/check/non-standard-result.pgn",
            "non-standard-result.en.pgn",
        ),
    ] {
        let out = convert(&[input]);
        golden(expected, &out.stdout);
        let read = std::fs::read(root().join(input)).unwrap();
        assert_eq!(count_games(&out.stdout), count_games(&read), "{input}");
    }
    let out = convert(&["--to", "en", "corpora/check/non-standard-result.pgn"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\n0-0\n") && text.contains("1. e4 e5 0-0\n"),
        "{text}"
    );
    assert!(text.contains("4. O-O\n"), "{text}");
}
