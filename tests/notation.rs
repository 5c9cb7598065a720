//! End-to-end tests of the notations older than SAN (docs/notation.md): the real binary
//! on the golden files of `corpora/notation/`, each game typed in one notation (long
//! algebraic, ICCF numeric, English and Spanish descriptive). `convert` of each file is
//! compared with `corpora/notation/expected/NAME.en.pgn`, written from the games' own
//! SAN by an independent writer (`scripts/notation_oracle.py`), and `check` of the files
//! with faults (`*-bad.pgn`) with `expected/NAME.check.jsonl` (`PLANILLA_BLESS=1`
//! rewrites both after a deliberate change).

mod util;

use std::path::Path;
use std::process::Output;
use util::{planilla, root};

/// Runs `planilla ARGS` with one thread and with two; both must agree byte for byte.
fn run(args: &[&str]) -> Output {
    let mut outs = Vec::new();
    for j in ["-j1", "-j2"] {
        let mut all = vec![args[0], j];
        all.extend_from_slice(&args[1..]);
        outs.push(planilla(&all));
    }
    assert_eq!(
        outs[0].stdout, outs[1].stdout,
        "-j1 and -j2 differ for {args:?}"
    );
    assert_eq!(outs[0].status.code(), outs[1].status.code(), "{args:?}");
    outs.swap_remove(0)
}

/// The golden inputs: every `.pgn` file of `corpora/notation/`, by name.
fn inputs() -> Vec<String> {
    let dir = root().join("corpora/notation");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".pgn"))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "too few golden files: {names:?}");
    names
}

fn codes(jsonl: &[u8]) -> Vec<(String, String)> {
    String::from_utf8_lossy(jsonl)
        .lines()
        .filter(|l| l.contains("\"type\":\"finding\""))
        .map(|l| {
            let field = |name: &str| {
                let key = format!("\"{name}\":\"");
                let start = l.find(&key).map_or(0, |i| i + key.len());
                l[start..].split('"').next().unwrap_or("").to_string()
            };
            (field("severity"), field("code"))
        })
        .collect()
}

/// Every golden file converts to its expected English SAN, the same at one thread and
/// two; the output checks with no error, and converts to the same text again.
#[test]
fn each_notation_converts_to_the_expected_san() {
    for name in inputs() {
        let path = format!("corpora/notation/{name}");
        let stem = name.trim_end_matches(".pgn");
        let out = run(&["convert", &path]);
        util::golden("notation", &format!("{stem}.en.pgn"), &out.stdout);
        if stem.ends_with("-bad") {
            continue;
        }
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let converted = root().join("target/tmp-notation").join(&name);
        std::fs::create_dir_all(converted.parent().unwrap()).unwrap();
        std::fs::write(&converted, &out.stdout).unwrap();
        let checked = planilla(&["check", "--format", "jsonl", converted.to_str().unwrap()]);
        let errors: Vec<_> = codes(&checked.stdout)
            .into_iter()
            .filter(|(severity, _)| severity == "error")
            .collect();
        assert!(errors.is_empty(), "{name}: converted output: {errors:?}");
        let again = planilla(&["convert", converted.to_str().unwrap()]);
        assert_eq!(
            again.stdout, out.stdout,
            "{name}: a second convert changed it"
        );
    }
}

/// `check` of each golden file: the clean ones give no error and one
/// `notation-language` note a game; the faulty ones exactly their expected findings.
#[test]
fn check_reports_each_notation_and_each_fault() {
    for name in inputs() {
        let path = format!("corpora/notation/{name}");
        let stem = name.trim_end_matches(".pgn");
        let out = run(&["check", "--format", "jsonl", &path]);
        if stem.ends_with("-bad") {
            util::golden("notation", &format!("{stem}.check.jsonl"), &out.stdout);
            continue;
        }
        let found = codes(&out.stdout);
        let errors: Vec<_> = found.iter().filter(|(s, _)| s == "error").collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let text = std::fs::read_to_string(root().join(&path)).unwrap();
        let games = text.matches("[Event ").count();
        let notes = found
            .iter()
            .filter(|(_, c)| c == "notation-language")
            .count();
        // Long algebraic in English letters is named too: every file is in a notation.
        assert_eq!(notes, games, "{name}: one notation note a game");
    }
}

/// The long-algebraic and ICCF writers: every golden game's English SAN written as each
/// form and read back gives the same SAN.
#[test]
fn written_forms_read_back() {
    let dir = root().join("target/tmp-notation/forms");
    std::fs::create_dir_all(&dir).unwrap();
    for name in inputs().iter().filter(|n| !n.contains("-bad")) {
        let expected = root()
            .join("corpora/notation/expected")
            .join(format!("{}.en.pgn", name.trim_end_matches(".pgn")));
        let san = std::fs::read(&expected).unwrap();
        for to in ["lan", "lan-es", "lan-de", "iccf"] {
            let out = run(&["convert", "--to", to, expected.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(0), "{name} --to {to}");
            let written = dir.join(format!("{to}-{name}"));
            std::fs::write(&written, &out.stdout).unwrap();
            let back = run(&["convert", written.to_str().unwrap()]);
            assert_eq!(
                String::from_utf8_lossy(&back.stdout),
                String::from_utf8_lossy(&san),
                "{name} --to {to} and back"
            );
        }
    }
}

/// A game that mixes forms is read move by move in the form each move is; a descriptive
/// move that reads two ways (`RxP`: the rook's capture in English, the king's in Spanish)
/// takes the game's descriptive language, decided by the moves only one language reads.
#[test]
fn mixed_forms_and_the_game_s_descriptive_language() {
    let dir = root().join("target/tmp-notation");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mixed.pgn");
    let fen = "[FEN \"4k3/8/8/8/8/8/3p4/3RK3 w - - 0 1\"]";
    let games = format!(
        "1. e4 P-K4 2. 7163 N-QB3 3. Bf1-b5 a7a6 *\n\n{fen}\n\n1. RxP K-B2 *\n\n{fen}\n\n1. RxP R2AR *\n"
    );
    std::fs::write(&file, games).unwrap();
    let path = file.to_str().unwrap();
    let out = run(&["convert", path]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n{fen}\n\n1. Rxd2 Kf7 *\n\n{fen}\n\n1. Kxd2 Kf7 *\n"
        )
    );
    let checked = run(&["check", path]);
    let text = String::from_utf8_lossy(&checked.stdout);
    assert!(
        text.contains("game 2: the game is written in English descriptive notation"),
        "{text}"
    );
    assert!(
        text.contains("game 3: the game is written in Spanish descriptive notation"),
        "{text}"
    );
}

/// `--notation` forces one reader: a descriptive game read as SAN is illegal at its
/// first move, and ICCF numbers under `--notation descriptive` are no moves.
#[test]
fn a_forced_notation_reads_only_its_own_moves() {
    let dir = root().join("target/tmp-notation");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("forced.pgn");
    std::fs::write(&file, "1. P-K4 P-K4 2. N-KB3 *\n\n1. 5254 5755 2. 7163 *\n").unwrap();
    let path = file.to_str().unwrap();
    let auto = run(&["check", "--format", "jsonl", path]);
    assert!(
        codes(&auto.stdout).iter().all(|(s, _)| s != "error"),
        "{}",
        String::from_utf8_lossy(&auto.stdout)
    );
    for (notation, bad_games) in [("san", 2), ("descriptive", 1), ("iccf", 1)] {
        let out = run(&["check", "--notation", notation, "--format", "jsonl", path]);
        let illegal = codes(&out.stdout)
            .iter()
            .filter(|(_, c)| c == "illegal-move")
            .count();
        assert_eq!(illegal, bad_games, "--notation {notation}");
    }
    let bad = planilla(&["check", "--notation", "numeric", path]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown notation 'numeric'"));
    assert!(Path::new(path).exists());
}
