//! Every crash input the fuzzers found (`corpora/fuzz-regressions/TARGET/*`, kept there by
//! `scripts/fuzz`) replayed through the reader, SAN and FEN parsing, `planilla check` and
//! `planilla convert`, the splitter's property, the convert round trip, fix's promises and
//! the byte ranges' property the fuzz targets assert; then the convert problems the fuzzer
//! found, each checked as fixed.

mod util;

use planilla_converter::{Converter, FixOptions, Options};
use planilla_core::san::{Lang, San};
use planilla_core::{Position, Validation};
use planilla_parser::{Encoding, Game, ReaderBuilder};
use util::hostile::{assert_finding, check_bytes, read_all, report};
use util::{Dir, planilla, planilla_stdin, root};

/// Crash inputs the fuzzers found are kept here by target, and known to work now.
#[test]
fn fuzz_regressions_replay() {
    let dir = root().join("corpora/fuzz-regressions");
    let mut files = Vec::new();
    for target in std::fs::read_dir(&dir).unwrap() {
        let target = target.unwrap().path();
        if target.is_dir() {
            for file in std::fs::read_dir(&target).unwrap() {
                files.push(file.unwrap().path());
            }
        }
    }
    files.sort();
    let scratch = Dir::new("fuzz-regressions");
    let scratch = scratch.path();
    for path in &files {
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        let data = std::fs::read(path).unwrap();
        // The library: the reader with default and with tiny settings, every encoding.
        let games = read_all(&data, ReaderBuilder::new());
        let tiny = ReaderBuilder::new()
            .buffer_size(7)
            .max_game_size(256)
            .max_variation_depth(4);
        read_all(&data, tiny.clone());
        // As the reader target reads it: its first two bytes choose the read size.
        if let [a, _, input @ ..] = &data[..] {
            let builder = ReaderBuilder::new().buffer_size(1 + (*a as usize & 0x1f));
            planilla_testkit::read_stream(input, &builder);
        }
        // The splitter's property, as the reader target asserts it.
        for target in [1, 7, 64] {
            planilla_testkit::split_reads_as_stream(&data, &tiny, target);
        }
        for encoding in [
            Encoding::Auto,
            Encoding::Utf8,
            Encoding::Windows1252,
            Encoding::Latin1,
        ] {
            let _ = Game::from_bytes(&data[..], encoding);
        }
        for lang in Lang::ALL {
            let _ = San::parse(&data, lang);
        }
        let text = String::from_utf8_lossy(&data);
        let _ = Position::from_fen(&text, Validation::Strict);
        let _ = Position::from_fen(&text, Validation::Relaxed);
        // The binary: check and convert.
        let path = path.to_str().unwrap();
        report(&planilla(&["check", "--format", "jsonl", path]), &name);
        let out = scratch.join("out.pgn");
        let converted = planilla(&["convert", "-o", out.to_str().unwrap(), path]);
        let stderr = String::from_utf8_lossy(&converted.stderr);
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(
            matches!(converted.status.code(), Some(0..=2)),
            "{name}: {stderr}"
        );
        if converted.status.code() != Some(2) {
            let written = std::fs::read(&out).unwrap();
            let games_out = read_all(&written, ReaderBuilder::new());
            assert_eq!(games_out, games, "{name}: games in = games out");
        }
        if name.starts_with("convert/") {
            // What the convert fuzz target asserts, on one of its inputs.
            planilla_testkit::convert_round_trip(&data, &name);
        }
        // What fix promises, on every input: with the options the fix target's first
        // byte chooses on its inputs, with the defaults on the others.
        match &data[..] {
            [selector, input @ ..] if name.starts_with("fix/") => {
                let options = planilla_testkit::fix_options(*selector);
                planilla_testkit::fix_properties(input, options, &name);
            }
            _ => {
                planilla_testkit::fix_properties(&data, FixOptions::default(), &name);
            }
        }
        // The byte ranges' property, with the cuts and options the range target reads
        // from an input's first bytes, on every input.
        planilla_testkit::range_fuzz(&data, &name);
        // The language server's documents under the edits the lsp target reads from
        // the input, on every input.
        planilla_testkit::lsp::lsp_fuzz(&data);
    }
    assert!(files.len() >= 3, "the regression files are found");
}

/// The convert problems the fuzzer found, fixed: each input without its first byte (the
/// fuzz target's choice of language).
#[test]
fn convert_fuzz_findings_are_fixed() {
    let dir = root().join("corpora/fuzz-regressions/convert");
    let input = |name: &str| std::fs::read(dir.join(name)).unwrap()[1..].to_vec();
    let games = |text: &[u8]| read_all(text, ReaderBuilder::new());

    // Windows-1252 castling with an en dash is castling: the long game replays whole;
    // alone in the starting position it is refused as castling, not as an unreadable move.
    let long = input("single-byte-move-copied-raw-long");
    let (findings, summary) = check_bytes(&long, "single-byte-move-copied-raw-long");
    assert_eq!(summary["plies"], 44, "{findings:#?}");
    assert!(
        findings.iter().all(|f| f["code"] != "illegal-move"),
        "{findings:#?}"
    );
    let short = input("single-byte-move-copied-raw");
    let (findings, _) = check_bytes(&short, "single-byte-move-copied-raw");
    assert_finding(
        &findings,
        1,
        "illegal-move",
        (1, 1),
        "castling path is blocked",
    );
    // Every output encoding writes the game, or names the character it cannot hold.
    // Its NUL bytes in a tag are a syntax error, reported, so the status is 1.
    for encoding in ["utf-8", "windows-1252", "latin-1"] {
        let out = planilla_stdin(&["convert", "--output-encoding", encoding], &long);
        assert_eq!(out.status.code(), Some(1), "{encoding}");
        assert_eq!(games(&out.stdout), 1, "{encoding}");
        assert!(out.stdout.windows(3).any(|w| w == b"O-O"), "{encoding}");
    }
    let out = planilla_stdin(&["convert", "--output-encoding", "windows-1252"], &short);
    assert_eq!(
        (out.status.code(), &out.stdout[..]),
        (Some(1), &b"O\x96O"[..])
    );
    let out = planilla_stdin(&["convert", "--output-encoding", "latin-1"], &short);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(":1:2: latin-1 cannot hold the character '–' (U+2013)"),
        "{stderr}"
    );

    // A token mixing UTF-8 and Windows-1252 is written as the tokenizer read it.
    let out = planilla_stdin(&["convert"], &input("mixed-token-decoded-per-piece"));
    assert_eq!(out.stdout, "[]0±³\n[".as_bytes());
    assert_eq!(games(&out.stdout), 2);

    // A draw offer before the moves: as many games out as in, the mark kept.
    for name in [
        "draw-offer-before-tag-merges-games",
        "draw-offer-after-tag-line-merges-games",
        "draw-offer-after-tag-line-merges-games-long",
    ] {
        let data = input(name);
        let out = planilla_stdin(&["convert"], &data);
        assert_eq!(games(&out.stdout), games(&data), "{name}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("{(=)}") || text.contains("{«=»}"),
            "{name}: {text}"
        );
    }

    // After the mate: `e4` and `Qf7` read as written; `Df7` is no English move and is
    // kept as written, counted, so the round trip does not promise it.
    let after = Game::from_bytes(
        input("move-after-mate-translated-differently"),
        Encoding::Auto,
    );
    for to in Lang::ALL {
        let options = Options {
            to,
            ..Options::default()
        };
        let converted = Converter::new(options).convert(&after);
        assert!(converted.complete, "{to:?}");
        assert_eq!(converted.unread, 1, "{to:?}");
        assert!(
            converted.text.ends_with(" Df7"),
            "{to:?}: {}",
            converted.text
        );
    }
}
