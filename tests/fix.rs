//! End-to-end tests of `planilla fix`: the real binary on the inputs in `corpora/fix/`
//! (and the DGT signals of `corpora/check/`), compared with the fixed games, the
//! rejects and the reports in `corpora/fix/expected/` (`PLANILLA_BLESS=1` rewrites them
//! after a deliberate change: read the diff).

mod util;

use std::path::{Path, PathBuf};
use util::{Dir, planilla, planilla_stdin, root};

fn golden(expected: &str, actual: &[u8]) {
    util::golden("fix", expected, actual);
}

/// What one run of `fix -o OUT --rejects REJ` gave.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    status: Option<i32>,
    fixed: Vec<u8>,
    rejects: Vec<u8>,
    report: Vec<u8>,
    stderr: Vec<u8>,
}

/// Fixes `input` into files of `dir` with one thread and with two, and with `--format`
/// `format`; both runs must give the same files, report and status.
fn fix_into(dir: &Dir, input: &str, format: &str, extra: &[&str]) -> Run {
    let mut runs = Vec::new();
    for j in ["-j1", "-j2"] {
        let out = dir.path().join(format!("out{j}.pgn"));
        let rejects = dir.path().join(format!("rejects{j}.pgn"));
        let mut args = vec!["fix", j, "--format", format, "-o"];
        args.push(out.to_str().unwrap());
        args.extend(["--rejects", rejects.to_str().unwrap()]);
        args.extend_from_slice(extra);
        args.push(input);
        let done = planilla(&args);
        runs.push(Run {
            status: done.status.code(),
            fixed: std::fs::read(&out).unwrap_or_default(),
            rejects: std::fs::read(&rejects).unwrap_or_default(),
            report: done.stdout,
            stderr: done.stderr,
        });
    }
    let second = runs.pop().unwrap();
    let first = runs.pop().unwrap();
    assert_eq!(first, second, "-j1 and -j2 differ for {input}");
    first
}

/// The number of games in a PGN text, and the errors in them, as `check` counts them.
fn check_counts(text: &[u8]) -> (u64, u64) {
    let out = planilla_stdin(&["check", "-q", "--format", "jsonl"], text);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or("{}")).unwrap();
    let count = |key: &str| summary[key].as_u64().unwrap_or_else(|| panic!("{stdout}"));
    (count("games"), count("errors"))
}

/// The number of games in a PGN text, as `check` reads them.
fn games(text: &[u8]) -> u64 {
    check_counts(text).0
}

/// Fixes `input` (a path from the repository's root) and compares everything with the
/// goldens named after `name`; returns the run.
fn check_golden(input: &str, name: &str, extra: &[&str]) -> Run {
    let dir = Dir::new(&format!("golden-{name}"));
    let run = fix_into(&dir, input, "jsonl", extra);
    golden(&format!("{name}.pgn"), &run.fixed);
    golden(&format!("{name}.rejects.pgn"), &run.rejects);
    golden(&format!("{name}.jsonl"), &run.report);
    let human = fix_into(&dir, input, "human", extra);
    golden(&format!("{name}.txt"), &human.report);
    assert_eq!(
        (human.fixed, human.rejects),
        (run.fixed.clone(), run.rejects.clone())
    );
    let original = std::fs::read(root().join(input)).unwrap();
    // Games in = games out + rejects, each file read back; the fixed games check clean.
    let (fixed, errors) = check_counts(&run.fixed);
    assert_eq!(errors, 0, "{input}: check finds errors in the fixed games");
    assert_eq!(
        games(&original),
        fixed + games(&run.rejects),
        "{input}: games in = games out + rejects"
    );
    let report = String::from_utf8_lossy(&run.report);
    let summary: serde_json::Value = serde_json::from_str(report.lines().last().unwrap()).unwrap();
    assert_eq!(
        summary["rejected"],
        games(&run.rejects),
        "{input}: {report}"
    );
    let expected_status = if run.rejects.is_empty() { 0 } else { 1 };
    assert_eq!(
        run.status,
        Some(expected_status),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_idempotent(&dir, &run.fixed);
    run
}

/// Fixing a fixed text changes nothing, with `--repair` too: no change reported, the
/// same text, status 0.
fn assert_idempotent(dir: &Dir, fixed: &[u8]) {
    let path = dir.create("fixed-once.pgn", fixed);
    for repair in [&[][..], &["--repair"]] {
        let mut args = vec!["fix", "--format", "jsonl"];
        args.extend_from_slice(repair);
        args.push(path.to_str().unwrap());
        let again = planilla(&args);
        let report = String::from_utf8_lossy(&again.stderr);
        assert!(!report.contains("\"type\":\"fix\""), "{report}");
        assert!(report.contains("\"changes\":0,\"rejected\":0"), "{report}");
        assert_eq!(again.stdout, fixed);
        assert_eq!(again.status.code(), Some(0));
    }
}

/// Dead positions the search finds, a queen that must be taken, wins on time the winner
/// cannot or can turn into a mate, in English and in Spanish: the result drawn, the
/// moves after the draw in a comment, Spanish kept Spanish.
#[test]
fn dead_positions_and_wins_on_time_are_drawn() {
    check_golden("corpora/fix/dead.pgn", "dead", &[]);
}

#[test]
fn moves_become_canonical() {
    check_golden("corpora/fix/moves.pgn", "moves", &[]);
}

#[test]
fn results_follow_the_position_and_the_movetext() {
    check_golden("corpora/fix/results.pgn", "results", &[]);
}

/// Under the 2005 Laws no draw is automatic: the fivefold repetition the 2023 Laws end
/// the game with changes nothing.
#[test]
fn automatic_draws_only_under_the_rules_that_have_them() {
    let dir = Dir::new("rules");
    let run = fix_into(
        &dir,
        "corpora/fix/results.pgn",
        "jsonl",
        &["--rules", "fide-2005"],
    );
    let report = String::from_utf8_lossy(&run.report);
    assert!(!report.contains("\"game\":5,"), "{report}");
    assert!(
        report.contains("\"game\":3,"),
        "stalemate still decides: {report}"
    );
}

#[test]
fn dgt_signals_are_removed_and_their_result_applied() {
    check_golden("corpora/check/dgt-signal.pgn", "dgt-signal", &[]);
}

#[test]
fn broken_games_are_rejects() {
    let run = check_golden("corpora/fix/rejects.pgn", "rejects", &[]);
    assert_eq!(games(&run.rejects), 3);
}

#[test]
fn spanish_stays_spanish_unless_asked() {
    check_golden("corpora/fix/spanish.pgn", "spanish", &[]);
    check_golden("corpora/fix/spanish.pgn", "spanish.en", &["--to", "en"]);
}

/// Input broken as a mutation test found it (issue 34): a result added after a `;`
/// comment, after a `%` line, to a game of tags only; rejected games that would run
/// together in the rejects file. The goldens, and what `fix` promises about any input
/// (`planilla_testkit::fix_properties`: each rejected game reads back alone with its
/// bytes), with each set of options the fix fuzz target tries.
#[test]
fn broken_input_keeps_fixs_promises() {
    for name in [
        "line-comment",
        "escape-line",
        "tags-only",
        "rejects-run-together",
        "rejects-mixed",
    ] {
        let input = format!("corpora/fix/broken/{name}.pgn");
        check_golden(&input, &format!("broken-{name}"), &[]);
        let data = std::fs::read(root().join(&input)).unwrap();
        for selector in 0..=255u8 {
            let options = planilla_testkit::fix_options(selector);
            planilla_testkit::fix_properties(&data, options, &format!("{input} ({options:?})"));
        }
    }
    // The rejects of the input: two games that one file would read as one.
    let run = fix_into(
        &Dir::new("run-together"),
        "corpora/fix/broken/rejects-run-together.pgn",
        "jsonl",
        &[],
    );
    assert_eq!(games(&run.rejects), 2);
    let separator = format!("\n{}\n", planilla_parser::SEPARATOR);
    assert_eq!(run.rejects, format!("{{\n{separator}[").as_bytes());
}

/// A Latin-1 file: the fixed games are written in UTF-8, the rejected one byte for
/// byte as it came.
#[test]
fn a_latin_1_reject_is_kept_byte_for_byte() {
    let run = check_golden("corpora/fix/latin1.pgn", "latin1", &[]);
    let original = std::fs::read(root().join("corpora/fix/latin1.pgn")).unwrap();
    assert!(
        run.rejects.contains(&0xf1),
        "the reject keeps its Latin-1 ñ"
    );
    assert!(original.ends_with(&run.rejects));
    assert!(String::from_utf8(run.fixed).unwrap().contains("Müller"));
}

/// Without `-o`, the games go to standard output and the report to standard error;
/// standard input reads as a file does; a broken game is written unchanged.
#[test]
fn games_on_standard_output_report_on_standard_error() {
    let input = std::fs::read(root().join("corpora/fix/rejects.pgn")).unwrap();
    let from_file = planilla(&["fix", "corpora/fix/rejects.pgn"]);
    let from_stdin = planilla_stdin(&["fix", "-"], &input);
    assert_eq!(from_file.status.code(), Some(1));
    assert_eq!(from_file.stdout, from_stdin.stdout);
    assert_eq!(games(&from_file.stdout), games(&input));
    assert_eq!(
        String::from_utf8_lossy(&from_file.stderr).replace("corpora/fix/rejects.pgn", "<stdin>"),
        String::from_utf8_lossy(&from_stdin.stderr)
    );
    golden("rejects.kept.pgn", &from_file.stdout);
}

/// `--in-place` rewrites each file with its own games, reports on standard output,
/// and refuses standard input.
#[test]
fn in_place_rewrites_each_file() {
    let dir = Dir::new("in-place");
    let moves = dir.create(
        "moves.pgn",
        std::fs::read(root().join("corpora/fix/moves.pgn")).unwrap(),
    );
    let spanish = dir.create(
        "spanish.pgn",
        std::fs::read(root().join("corpora/fix/spanish.pgn")).unwrap(),
    );
    let out = planilla(&[
        "fix",
        "-j2",
        "--in-place",
        "--format",
        "jsonl",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected =
        |name: &str| std::fs::read(root().join("corpora/fix/expected").join(name)).unwrap();
    assert_eq!(std::fs::read(&moves).unwrap(), expected("moves.pgn"));
    assert_eq!(std::fs::read(&spanish).unwrap(), expected("spanish.pgn"));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("\"changes\":"), "{report}");
    assert_eq!(
        only_pgn_files(dir.path()).len(),
        2,
        "no temporary file is left"
    );

    let refused = planilla_stdin(&["fix", "--in-place", "-"], b"1. e4 *\n");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("--in-place cannot rewrite standard input")
    );
}

fn only_pgn_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect()
}

/// `-o` replaces its file only when the run succeeded: an input that cannot be read
/// leaves it as it was, and no temporary file behind.
#[test]
fn output_is_replaced_atomically() {
    let dir = Dir::new("atomic");
    let out = dir.create("out.pgn", "old\n");
    let rejects = dir.create("rejects.pgn", "old rejects\n");
    let missing = dir.path().join("missing.pgn");
    let run = planilla(&[
        "fix",
        "-o",
        out.to_str().unwrap(),
        "--rejects",
        rejects.to_str().unwrap(),
        "corpora/fix/rejects.pgn",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(std::fs::read(&out).unwrap(), b"old\n");
    assert_eq!(std::fs::read(&rejects).unwrap(), b"old rejects\n");
    assert_eq!(
        only_pgn_files(dir.path()).len(),
        2,
        "no temporary file is left"
    );

    let run = planilla(&["fix", "-o", out.to_str().unwrap(), "corpora/fix/moves.pgn"]);
    assert_eq!(run.status.code(), Some(0));
    let expected = root().join("corpora/fix/expected/moves.pgn");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(expected).unwrap()
    );
}

/// `--in-place` with `--rejects`: the rejected games leave their file for the rejects
/// file, byte for byte, and none is lost.
#[test]
fn in_place_sends_rejects_apart() {
    let dir = Dir::new("in-place-rejects");
    let original = std::fs::read(root().join("corpora/fix/rejects.pgn")).unwrap();
    let file = dir.create("games.pgn", &original);
    let rejects = dir.path().join("rejects.out");
    let out = planilla(&[
        "fix",
        "--in-place",
        "--rejects",
        rejects.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let kept = std::fs::read(&file).unwrap();
    let rejected = std::fs::read(&rejects).unwrap();
    assert_eq!(games(&kept), 2);
    assert_eq!(
        rejected,
        std::fs::read(root().join("corpora/fix/expected/rejects.rejects.pgn")).unwrap()
    );
    assert_eq!(games(&original), games(&kept) + games(&rejected));
}

/// `--repair`: each unique repair of the repair corpus applied (a `repaired-move` change
/// first, then the game fixed as any other), the games with several readings or none
/// rejected, the readings named; the repaired games check clean.
#[test]
fn repair_applies_only_a_unique_repair() {
    let run = check_golden("corpora/check/repair.pgn", "repair", &["--repair"]);
    let report = String::from_utf8(run.report).unwrap();
    assert_eq!(report.matches("\"code\":\"repaired-move\"").count(), 19);
    assert!(report.contains("2 readings of 'Bb6' replay the game to its end (Ba6, Bb5)"));
    let dir = Dir::new("repair-checked");
    let fixed = dir.create("fixed.pgn", &run.fixed);
    let check = planilla(&[
        "check",
        "--no-config",
        "--select",
        "illegal-move,ambiguous-move,syntax-error",
        fixed.to_str().unwrap(),
    ]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    // Without --repair every one of those games is a reject.
    let plain = fix_into(
        &Dir::new("repair-without"),
        "corpora/check/repair.pgn",
        "jsonl",
        &[],
    );
    assert_eq!(games(&plain.rejects), 24);
}

/// The property of `fix --repair` through the binary: a game whose one move was damaged by
/// one character comes out as the undamaged game fixes, or rejected; never another game.
/// Random legal games in English and Spanish, each damaged at a random main-line move
/// (every edit kind in turn); a trial counts when the damaged move is the game's first
/// that fails (the search is about that move).
#[test]
fn repair_gives_back_the_game_or_rejects_it() {
    use planilla_core::san::Lang;
    use planilla_testkit::{Seeded, damage, random_game};
    use planilla_validator::{Checker, Config, Edit};

    let dir = Dir::new("repair-property");
    let mut rng = Seeded::new(27);
    let (mut tried, mut given_back) = (0, 0);
    for n in 0..120 {
        let lang = if n % 2 == 0 { Lang::En } else { Lang::Es };
        let plies = 30 + rng.below(40);
        let clean = random_game(&mut rng, plies, lang);
        let words: Vec<&str> = clean.split(' ').collect();
        let moves: Vec<usize> = (0..words.len())
            .filter(|&i| {
                let w = words[i];
                // Not a move number, a tag, nor the result that ends the text.
                !w.is_empty() && !w.contains(['.', '\n', '[', '"'])
            })
            .collect();
        let at = moves[rng.below(moves.len())];
        let edit = Edit::ALL[n % Edit::ALL.len()];
        let Some(broken) = damage(words[at], lang, edit, &mut rng) else {
            continue;
        };
        if broken.is_empty() || broken.contains(char::is_whitespace) {
            continue;
        }
        let mut damaged_words = words.clone();
        damaged_words[at] = &broken;
        let damaged = damaged_words.join(" ");
        // The damaged move must be the one the search is about.
        let game = planilla_parser::Game::from_bytes(damaged.as_bytes(), Default::default());
        let mut checker = Checker::new(Config::default());
        let (_, repair) = checker.check_repairing(&game, &mut Vec::new(), &mut Vec::new());
        let ply = moves.iter().position(|&m| m == at).unwrap() as u32 + 1;
        if repair.is_none_or(|r| r.ply != ply) {
            continue;
        }
        tried += 1;
        let original = dir.create("original.pgn", &clean);
        let damaged_path = dir.create("damaged.pgn", &damaged);
        let want = planilla(&["fix", "-q", original.to_str().unwrap()]);
        let got = planilla(&["fix", "-q", "--repair", damaged_path.to_str().unwrap()]);
        match got.status.code() {
            Some(0) => {
                assert_eq!(
                    String::from_utf8_lossy(&got.stdout),
                    String::from_utf8_lossy(&want.stdout),
                    "{damaged}"
                );
                given_back += 1;
            }
            Some(1) => assert_eq!(
                got.stdout,
                damaged.as_bytes(),
                "a reject is written as it came"
            ),
            other => panic!("{other:?}: {}", String::from_utf8_lossy(&got.stderr)),
        }
    }
    eprintln!("fix --repair property: {given_back} of {tried} damaged games given back");
    assert!(tried >= 40, "{tried} trials");
    assert!(given_back * 2 > tried, "{given_back} of {tried} given back");
}
