//! `planilla.toml`: found from the current directory up, `--config`, `--no-config`,
//! `[[overrides]]` for parts of an archive, the command line winning, and the errors.
//!
//! The oracle of each case is planilla itself without a configuration file: a run
//! configured by the file must report exactly what runs with the same options written
//! on the command line report, file by file.

mod util;

use std::process::Output;
use util::{Dir, planilla_in};

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// Fails, showing `text`, unless it holds `part`.
fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "no {part:?} in:\n{text}");
}

/// The finding lines of a JSON Lines report (the summary left out).
fn findings(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .filter(|l| !l.contains("\"type\":\"summary\""))
        .map(str::to_string)
        .collect()
}

/// An archive of three parts: games of the 1980s, recent ones, and an old Spanish file
/// whose name marks it, with one configuration file at its root.
fn archive(name: &str, config: &str) -> Dir {
    let dir = Dir::new(name);
    let games = std::fs::read(util::root().join("corpora/check/by-date.pgn")).unwrap();
    let spanish = std::fs::read(util::root().join("corpora/check/spanish-1252.pgn")).unwrap();
    std::fs::create_dir_all(dir.path().join("games/1980s")).unwrap();
    std::fs::create_dir_all(dir.path().join("games/recent")).unwrap();
    dir.create("games/1980s/a.pgn", &games);
    dir.create("games/recent/b.pgn", &games);
    dir.create("games/recent/c-old.pgn", &spanish);
    dir.create("planilla.toml", config);
    dir
}

const CONFIG: &str = r#"# An archive's options.
ignore = ["missing-tag"]
format = "jsonl"

[[overrides]]
paths = ["games/1980s/**"]
rules = "fide-2005"

[[overrides]]
# A name without a slash matches in any directory.
paths = ["*-old.pgn"]
encoding = "windows-1252"
lang = "es"
ignore = ["notation-language", "missing-tag"]
"#;

/// Each file of the archive checked by the file's options equals the same file checked
/// with those options on the command line; the summary counts all three.
#[test]
fn overrides_give_each_part_its_options() {
    let dir = archive("overrides", CONFIG);
    let configured = planilla_in(&dir.path().join("games"), &["check", "-q", "."]);
    assert_eq!(configured.status.code(), Some(1), "{}", stderr(&configured));
    let by_hand: Vec<String> = [
        vec![
            "1980s/a.pgn",
            "--rules",
            "fide-2005",
            "--ignore",
            "missing-tag",
        ],
        vec!["recent/b.pgn", "--ignore", "missing-tag"],
        vec![
            "recent/c-old.pgn",
            "--encoding",
            "windows-1252",
            "--lang",
            "es",
            "--ignore",
            "notation-language,missing-tag",
        ],
    ]
    .iter()
    .flat_map(|args| {
        let mut all = vec!["check", "-q", "--no-config", "--format", "jsonl"];
        all.extend(args);
        findings(&planilla_in(&dir.path().join("games"), &all))
    })
    .collect();
    // The directory walk names the files `./1980s/a.pgn`; the runs by hand `1980s/a.pgn`.
    let walked: Vec<String> = findings(&configured)
        .iter()
        .map(|l| l.replacen("\"file\":\"./", "\"file\":\"", 1))
        .collect();
    assert!(walked == by_hand, "{walked:#?}\n{by_hand:#?}");
    assert!(!by_hand.is_empty());
    assert!(
        stdout(&configured).ends_with(
            "{\"type\":\"summary\",\"files\":3,\"games\":26,\"plies\":422,\"errors\":4,\"warnings\":30,\"notes\":7}\n"
        ),
        "{}",
        stdout(&configured)
    );
    // The same on one thread: the parts are checked in input order either way.
    let one = planilla_in(&dir.path().join("games"), &["check", "-q", "-j1", "."]);
    assert_eq!(one.stdout, configured.stdout);
}

/// Options given on the command line win over the file and its overrides; `--no-config`
/// reads no file; `--config` names one anywhere.
#[test]
fn the_command_line_wins() {
    let dir = archive("command-line", CONFIG);
    let games = dir.path().join("games");
    let run = |args: &[&str]| findings(&planilla_in(&games, args));
    let cli = run(&[
        "check",
        "-q",
        "--rules",
        "fide-2023",
        "--format",
        "jsonl",
        "--ignore",
        "missing-tag",
        "1980s",
    ]);
    let plain = run(&[
        "check",
        "-q",
        "--no-config",
        "--rules",
        "fide-2023",
        "--format",
        "jsonl",
        "--ignore",
        "missing-tag",
        "1980s",
    ]);
    assert_eq!(cli, plain);
    let old = run(&[
        "check",
        "-q",
        "--no-config",
        "--format",
        "jsonl",
        "--rules",
        "fide-2005",
        "--ignore",
        "missing-tag",
        "1980s",
    ]);
    assert_ne!(cli, old, "the override's edition would change the findings");
    // `--no-config`: human format, missing-tag reported.
    let none = planilla_in(&games, &["check", "-q", "--no-config", "recent/b.pgn"]);
    assert_contains(&stdout(&none), "note[missing-tag]");
    // `--config` from another directory: the globs are relative to the file's directory.
    let elsewhere = planilla_in(
        &util::root(),
        &[
            "check",
            "-q",
            "--config",
            dir.path().join("planilla.toml").to_str().unwrap(),
            dir.path().join("games/1980s").to_str().unwrap(),
        ],
    );
    let expected = planilla_in(
        &util::root(),
        &[
            "check",
            "-q",
            "--no-config",
            "--format",
            "jsonl",
            "--rules",
            "fide-2005",
            "--ignore",
            "missing-tag",
            dir.path().join("games/1980s").to_str().unwrap(),
        ],
    );
    assert_eq!(findings(&elsewhere), findings(&expected));
}

/// `fail-on`, `threads` and `quiet` from the file.
#[test]
fn run_options_come_from_the_file() {
    let dir = archive(
        "run-options",
        "fail-on = \"never\"\nthreads = 1\nquiet = true\n",
    );
    let out = planilla_in(&dir.path().join("games"), &["check", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with("3 files, 26 games, 422 plies: 8 errors, 34 warnings, 15 notes\n"),
        "{}",
        stdout(&out)
    );
    let out = planilla_in(
        &dir.path().join("games"),
        &["check", "--fail-on", "error", "."],
    );
    assert_eq!(out.status.code(), Some(1));
}

/// A bad file is a usage error (status 2) naming the file and the line, whatever is wrong.
#[test]
fn a_bad_file_names_its_line() {
    let cases = [
        (
            "ignore = [\"missing-tag\"]\nfoo = 1\n",
            "TOML parse error at line 2, column 1",
            "unknown field `foo`",
        ),
        (
            "rules = \"fide-2000\"\n",
            "planilla.toml:1: unknown rules 'fide-2000'",
            "by-date",
        ),
        (
            "\n\nselect = [\"illegal-move\", \"nope\"]\n",
            "planilla.toml:3: unknown finding code 'nope'",
            "",
        ),
        (
            "format = \"xml\"\n",
            "planilla.toml:1: unknown format 'xml' (human, jsonl, github, sarif",
            "",
        ),
        (
            "fail-on = \"fatal\"\n",
            "planilla.toml:1: unknown severity 'fatal'",
            "",
        ),
        (
            "[[overrides]]\npaths = [\"a/[b\"]\n",
            "planilla.toml:2: bad glob 'a/[b'",
            "",
        ),
        (
            "[[overrides]]\npaths = [\"a/**\"]\nformat = \"jsonl\"\n",
            "unknown field `format`",
            "",
        ),
        (
            "[[overrides]]\nrules = \"fide-2005\"\n",
            "missing field `paths`",
            "",
        ),
        ("rules = [\n", "TOML parse error", ""),
    ];
    for (i, (config, message, also)) in cases.iter().enumerate() {
        let dir = archive(&format!("bad-{i}"), config);
        let out = planilla_in(&dir.path().join("games"), &["check", "-q", "."]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{config}: {err}");
        assert!(
            err.contains(message) && err.contains(also),
            "{config}: {err}"
        );
        assert!(out.stdout.is_empty(), "{config}: nothing is checked");
        // --no-config leaves the bad file alone.
        let out = planilla_in(
            &dir.path().join("games"),
            &["check", "-q", "--no-config", "."],
        );
        assert_eq!(out.status.code(), Some(1), "{config}");
    }
    let out = planilla_in(
        &util::root(),
        &[
            "check",
            "--config",
            "no/such/planilla.toml",
            "corpora/check/illegal.pgn",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&stderr(&out), "no/such/planilla.toml: cannot read");
    let out = planilla_in(
        &util::root(),
        &[
            "check",
            "--config",
            "x.toml",
            "--no-config",
            "corpora/check/illegal.pgn",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "--config and --no-config conflict"
    );
}

/// `fix` reads the same file: an override's edition decides which automatic draws end
/// the 1980s games, and the report takes the file's format.
#[test]
fn fix_reads_the_file_too() {
    let dir = archive("fix", CONFIG);
    let games = dir.path().join("games");
    let configured = planilla_in(&games, &["fix", "-q", "1980s/a.pgn"]);
    let by_hand = planilla_in(
        &games,
        &[
            "fix",
            "-q",
            "--no-config",
            "--format",
            "jsonl",
            "--rules",
            "fide-2005",
            "1980s/a.pgn",
        ],
    );
    let plain = planilla_in(&games, &["fix", "-q", "--no-config", "1980s/a.pgn"]);
    assert_eq!(configured.stdout, by_hand.stdout);
    assert_eq!(configured.stderr, by_hand.stderr);
    assert_ne!(
        configured.stdout, plain.stdout,
        "fide-2023 would draw the fivefold games"
    );
    // Under the 2005 Laws nothing in them needs fixing; the report is JSON Lines.
    assert_contains(&stderr(&configured), "\"changes\":0,\"rejected\":0");
}
