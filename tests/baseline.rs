//! `--write-baseline` and `--baseline`: findings matched by file, game content, code, ply
//! and variation, so that an archive that grows or is reordered keeps its baseline; and
//! SARIF's `partialFingerprints`, the same key.

mod util;

use std::process::Output;
use util::{Dir, planilla_in};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The games of a file, as the tests here write them: separated by blank lines.
fn games_of(pgn: &str) -> Vec<String> {
    pgn.split("\n\n[")
        .enumerate()
        .map(|(i, g)| {
            let g = g.trim_end();
            if i == 0 {
                g.to_string()
            } else {
                format!("[{g}")
            }
        })
        .collect()
}

fn join(games: &[String]) -> String {
    games.join("\n\n") + "\n"
}

/// `(code, ply, variation, message without "game N")` of every finding of a JSON Lines
/// report: what stays the same when a game moves.
fn findings(out: &Output) -> Vec<(String, String, String, String)> {
    text(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"type\":\"finding\""))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["code"].as_str().unwrap().to_string(),
                v["ply"].to_string(),
                v["variation"].to_string(),
                v["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn summary(out: &Output) -> serde_json::Value {
    let last = text(&out.stdout).lines().last().unwrap().to_string();
    serde_json::from_str(&last).unwrap()
}

const NEW_GAME: &str = "[Event \"new\"]\n[Site \"?\"]\n[Date \"2025.01.01\"]\n[Round \"1\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nxe5 1-0";

/// A baseline absorbs every finding it recorded, wherever the games move, and only
/// those: new games, a changed move and a second copy of a game are reported.
#[test]
fn a_baseline_survives_an_archive_that_grows_and_moves() {
    let dir = Dir::new("grows-and-moves");
    let original = std::fs::read_to_string(util::root().join("corpora/check/by-date.pgn")).unwrap();
    let games = games_of(&original);
    assert_eq!(games.len(), 12);
    std::fs::create_dir_all(dir.path().join("archive")).unwrap();
    dir.create("archive/games.pgn", join(&games));
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "-q", "--no-config", "--format", "jsonl"];
        args.extend(extra);
        args.push("archive");
        planilla_in(dir.path(), &args)
    };

    let plain = check(&[]);
    let written = check(&["--write-baseline", "baseline.json"]);
    assert_eq!(written.status.code(), Some(0), "{}", text(&written.stderr));
    assert_eq!(written.stdout, plain.stdout, "the run reports as usual");
    let recorded = findings(&plain).len();
    let baseline = std::fs::read_to_string(dir.path().join("baseline.json")).unwrap();
    assert_eq!(baseline.lines().count(), recorded + 2, "one finding a line");
    assert!(
        baseline.contains("\"file\":\"archive/games.pgn\""),
        "{baseline}"
    );

    // Nothing new: nothing reported, status 0, the summary counts the baselined ones.
    let same = check(&["--baseline", "baseline.json"]);
    assert_eq!(same.status.code(), Some(0));
    assert_eq!(findings(&same), []);
    assert_eq!(summary(&same)["baselined"], recorded);
    assert_eq!(summary(&same)["games"], 12);

    // Games inserted before, and the old ones reversed: only the new game's findings.
    let mut grown = vec![NEW_GAME.to_string()];
    grown.extend(games.iter().rev().cloned());
    dir.create("archive/games.pgn", join(&grown));
    let out = check(&["--baseline", "baseline.json"]);
    dir.create("alone.pgn", NEW_GAME);
    let alone = planilla_in(
        dir.path(),
        &[
            "check",
            "-q",
            "--no-config",
            "--format",
            "jsonl",
            "alone.pgn",
        ],
    );
    assert!(!findings(&alone).is_empty());
    assert_eq!(findings(&out), findings(&alone));
    assert_eq!(
        out.status.code(),
        Some(1),
        "the new game's error fails the run"
    );
    assert_eq!(summary(&out)["baselined"], recorded);

    // A move changed in a recorded game (game 3: 9. e4 becomes 9. d4): its findings
    // are new; a second copy of game 1: its findings are reported once more.
    let mut edited = games.clone();
    edited[2] = edited[2].replace("9. e4 e5", "9. d4 d5");
    edited.push(games[0].clone());
    dir.create("archive/games.pgn", join(&edited));
    let out = check(&["--baseline", "baseline.json"]);
    let changed = text(&out.stdout);
    let games_reported: std::collections::BTreeSet<u64> = changed
        .lines()
        .filter(|l| l.contains("\"type\":\"finding\""))
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(games_reported, [3, 13].into(), "{changed}");

    // The same from another directory: files are named from the baseline's directory.
    dir.create("archive/games.pgn", join(&grown));
    let inside = planilla_in(
        &dir.path().join("archive"),
        &[
            "check",
            "-q",
            "--no-config",
            "--format",
            "jsonl",
            "--baseline",
            "../baseline.json",
            "games.pgn",
        ],
    );
    assert_eq!(findings(&inside), findings(&alone));
    // One thread or two: the same.
    let one = check(&["--baseline", "baseline.json", "-j1"]);
    let two = check(&["--baseline", "baseline.json", "-j2"]);
    assert_eq!(one.stdout, two.stdout);
    // The human summary says it too.
    let human = planilla_in(
        dir.path(),
        &[
            "check",
            "-q",
            "--no-config",
            "--baseline",
            "baseline.json",
            "archive",
        ],
    );
    assert!(
        text(&human.stdout).ends_with(&format!(" ({recorded} baselined)\n")),
        "{}",
        text(&human.stdout)
    );
}

/// SARIF results carry the game-content key: a game that moves keeps its fingerprints.
#[test]
fn sarif_fingerprints_follow_the_game() {
    let dir = Dir::new("sarif");
    let original = std::fs::read_to_string(util::root().join("corpora/check/illegal.pgn")).unwrap();
    let games = games_of(&original);
    let fingerprints = |pgn: &str| {
        dir.create("games.pgn", pgn);
        let out = planilla_in(
            dir.path(),
            &[
                "check",
                "-q",
                "--no-config",
                "--format",
                "sarif",
                "games.pgn",
            ],
        );
        let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut prints: Vec<String> = log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["partialFingerprints"]["planilla/v1"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        prints.sort();
        prints
    };
    let before = fingerprints(&join(&games));
    let mut moved = vec![NEW_GAME.replace("Nxe5", "Nf3")];
    moved.extend(games.iter().rev().cloned());
    assert_eq!(fingerprints(&join(&moved)), before);
    assert!(before.len() > 10);
    assert!(
        before.iter().any(|p| p.contains(":illegal-move:7:")),
        "{before:?}"
    );
}

/// A file that is not a baseline, and the two options together, are usage errors.
#[test]
fn a_bad_baseline_is_a_usage_error() {
    let dir = Dir::new("bad");
    dir.create("games.pgn", NEW_GAME);
    for (contents, message) in [
        ("not json", "not a planilla baseline"),
        ("{\"version\":2,\"findings\":[]}", "a baseline of version 2"),
        (
            "{\"version\":1,\"findings\":[{\"file\":\"a\"}]}",
            "not a planilla baseline",
        ),
    ] {
        dir.create("baseline.json", contents);
        let out = planilla_in(
            dir.path(),
            &[
                "check",
                "--no-config",
                "--baseline",
                "baseline.json",
                "games.pgn",
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{contents}");
        assert!(text(&out.stderr).contains(message), "{}", text(&out.stderr));
    }
    let out = planilla_in(
        dir.path(),
        &[
            "check",
            "--no-config",
            "--baseline",
            "missing.json",
            "games.pgn",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.json: cannot read the baseline"));
    let out = planilla_in(
        dir.path(),
        &[
            "check",
            "--no-config",
            "--baseline",
            "a.json",
            "--write-baseline",
            "b.json",
            "games.pgn",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
}
