//! End-to-end tests of `planilla merge`: the golden corpus `corpora/merge/in/` (a relay cut
//! short at several plies and its whole games, an exact copy with other tags, two
//! transcriptions that part at one ply, a Latin-1 Spanish copy of an English game;
//! expected outputs in `corpora/merge/expected/`, rewritten with `PLANILLA_BLESS=1`), and
//! generated archives with planted copies for what goldens cannot show: every planted
//! copy acted on, nothing lost, the same output for every number of threads and way of
//! reading, a second merge changing nothing, `check --archive` finding no copy in it.

mod util;

use planilla_testkit::ArchiveGen;
use std::path::{Path, PathBuf};
use util::{Dir, planilla, planilla_stdin, run};

fn text(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The JSON Lines of a report.
fn json_lines(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// The summary line of a JSON Lines report, checked: games = written + dropped + set apart.
fn summary(lines: &[serde_json::Value]) -> serde_json::Value {
    let last = lines.last().expect("a summary").clone();
    assert_eq!(last["type"], "summary");
    let n = |k: &str| last[k].as_u64().unwrap();
    assert_eq!(
        n("games"),
        n("written") + n("dropped") + n("set_apart"),
        "{last}"
    );
    last
}

/// Games in a file, as `check` counts them.
fn games_in(path: &Path) -> u64 {
    let out = run(
        &[
            "check",
            "-q",
            "--format",
            "jsonl",
            "--fail-on",
            "never",
            s(path),
        ],
        0,
    );
    summary_games(&out.stdout)
}

fn summary_games(report: &[u8]) -> u64 {
    let lines = json_lines(report);
    lines.last().unwrap()["games"].as_u64().unwrap()
}

/// The golden runs: the default (conflicts kept with a warning), everything set apart
/// and taken (`--conflicts`, `--dropped`, `--tags merge`, JSON Lines), by date, into
/// Latin-1; each with one thread and two, byte for byte the same.
#[test]
fn golden_corpus() {
    let dir = Dir::new("golden");
    let cases: [(&str, &[&str], i32); 4] = [
        ("default", &[], 0),
        (
            "full",
            &[
                "--tags",
                "merge",
                "--format",
                "jsonl",
                "--conflicts",
                "CONFLICTS",
                "--dropped",
                "DROPPED",
            ],
            1,
        ),
        ("sorted", &["--sort", "date"], 0),
        (
            "latin1",
            &["--output-encoding", "latin-1", "--tags", "merge"],
            0,
        ),
    ];
    for (name, options, exit) in cases {
        let mut seen: Option<Vec<Vec<u8>>> = None;
        for threads in ["-j1", "-j2"] {
            let out = dir.path().join(format!("{name}{threads}.pgn"));
            let conflicts = dir.path().join(format!("{name}{threads}.conflicts.pgn"));
            let dropped = dir.path().join(format!("{name}{threads}.dropped.pgn"));
            let mut args = vec!["merge", "-q", threads, "corpora/merge/in", "-o", s(&out)];
            for &o in options {
                args.push(match o {
                    "CONFLICTS" => s(&conflicts),
                    "DROPPED" => s(&dropped),
                    o => o,
                });
            }
            let report = run(&args, exit).stdout;
            let mut outputs = vec![report, text(&out)];
            for extra in [&conflicts, &dropped] {
                if extra.exists() {
                    outputs.push(text(extra));
                }
            }
            match &seen {
                Some(first) => assert_eq!(first, &outputs, "{name}: -j1 and -j2 differ"),
                None => seen = Some(outputs),
            }
        }
        let outputs = seen.unwrap();
        let report_name = match options.contains(&"jsonl") {
            true => format!("{name}.jsonl"),
            false => format!("{name}.human"),
        };
        util::golden("merge", &report_name, &outputs[0]);
        util::golden("merge", &format!("{name}.pgn"), &outputs[1]);
        if outputs.len() > 2 {
            util::golden("merge", &format!("{name}.conflicts.pgn"), &outputs[2]);
            util::golden("merge", &format!("{name}.dropped.pgn"), &outputs[3]);
        }
    }
}

/// Nothing lost: the games of the inputs are the games written, dropped and set apart,
/// each file's count as `check` reads it; the dropped and conflicting copies are the
/// inputs' own bytes.
#[test]
fn games_in_are_games_out() {
    let dir = Dir::new("conservation");
    let (out, conflicts, dropped) = (
        dir.path().join("out.pgn"),
        dir.path().join("conflicts.pgn"),
        dir.path().join("dropped.pgn"),
    );
    let report = run(
        &[
            "merge",
            "-q",
            "--format",
            "jsonl",
            "corpora/merge/in",
            "-o",
            s(&out),
            "--conflicts",
            s(&conflicts),
            "--dropped",
            s(&dropped),
        ],
        1,
    );
    let lines = json_lines(&report.stdout);
    let sum = summary(&lines);
    let input: u64 = std::fs::read_dir(util::root().join("corpora/merge/in"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .map(|p| games_in(&p))
        .sum();
    assert_eq!(sum["games"].as_u64(), Some(input));
    assert_eq!(sum["written"].as_u64(), Some(games_in(&out)));
    assert_eq!(sum["dropped"].as_u64(), Some(games_in(&dropped)));
    assert_eq!(sum["set_apart"].as_u64(), Some(games_in(&conflicts)));
    // Byte for byte: every dropped and set-apart copy is found whole in its input.
    for line in lines.iter().filter(|l| l["type"] == "merge") {
        let action = line["action"].as_str().unwrap();
        if action == "tag-taken" {
            continue;
        }
        let file = util::root().join(line["file"].as_str().unwrap());
        let input = text(&file);
        let written = text(if action == "dropped" {
            &dropped
        } else {
            &conflicts
        });
        let game = line["game"].as_u64().unwrap() as usize;
        let raw = nth_game(&input, game);
        assert!(
            written.windows(raw.len()).any(|w| w == raw),
            "{line}: not written byte for byte"
        );
    }
}

/// The bytes of the `n`th (1-based) game of a file: from its first tag to the next
/// game's (the golden files have no text between games).
fn nth_game(input: &[u8], n: usize) -> &[u8] {
    let starts: Vec<usize> = (0..input.len())
        .filter(|&i| input[i..].starts_with(b"[Event ") && (i == 0 || input[i - 1] == b'\n'))
        .collect();
    let end = starts.get(n).copied().unwrap_or(input.len());
    &input[starts[n - 1]..end]
}

/// A merged archive merges to itself, and `check --archive` finds no copy in it.
#[test]
fn idempotent_and_clean() {
    let dir = Dir::new("idempotent");
    for options in [
        &[][..],
        &["--tags", "merge", "--conflicts", "CONFLICTS"][..],
    ] {
        let (once, twice) = (dir.path().join("once.pgn"), dir.path().join("twice.pgn"));
        let conflicts = dir.path().join("conflicts.pgn");
        let mut args = vec!["merge", "-q", "corpora/merge/in", "-o", s(&once)];
        args.extend(
            options
                .iter()
                .map(|&o| if o == "CONFLICTS" { s(&conflicts) } else { o }),
        );
        let exit = if options.is_empty() { 0 } else { 1 };
        run(&args, exit);
        let report = run(
            &[
                "merge",
                "-q",
                "--format",
                "jsonl",
                s(&once),
                "-o",
                s(&twice),
            ],
            0,
        );
        let lines = json_lines(&report.stdout);
        let sum = summary(&lines);
        assert_eq!(sum["dropped"], 0, "{options:?}");
        assert_eq!(sum["set_apart"], 0, "{options:?}");
        assert_eq!(
            text(&once),
            text(&twice),
            "{options:?}: a second merge changed it"
        );
        let check = run(
            &[
                "check",
                "--archive",
                "-q",
                "--format",
                "jsonl",
                "--fail-on",
                "never",
                s(&once),
            ],
            0,
        );
        for line in json_lines(&check.stdout) {
            let code = line["code"].as_str().unwrap_or_default();
            assert!(
                !matches!(
                    code,
                    "duplicate-game" | "truncated-copy" | "conflicting-copies"
                ),
                "{options:?}: {line}"
            );
        }
    }
}

/// Standard input is read twice through a spool: the same output as the file, named
/// `<stdin>` in the report.
#[test]
fn standard_input() {
    let dir = Dir::new("stdin");
    let (from_files, from_stdin) = (dir.path().join("files.pgn"), dir.path().join("stdin.pgn"));
    run(
        &[
            "merge",
            "-q",
            "corpora/merge/in/a-relay.pgn",
            "corpora/merge/in/b-final.pgn",
            "-o",
            s(&from_files),
        ],
        0,
    );
    let final_games = text(&util::root().join("corpora/merge/in/b-final.pgn"));
    let out = planilla_stdin(
        &[
            "merge",
            "-q",
            "corpora/merge/in/a-relay.pgn",
            "-",
            "-o",
            s(&from_stdin),
        ],
        &final_games,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text(&from_files), text(&from_stdin));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("kept <stdin> game 2"), "{report}");
    // The games to standard output, the report to standard error.
    let out = planilla(&[
        "merge",
        "-q",
        "corpora/merge/in/a-relay.pgn",
        "corpora/merge/in/b-final.pgn",
    ]);
    assert_eq!(out.stdout, text(&from_files));
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 dropped"));
}

/// Errors: status 2, and no output file replaced or left behind.
#[test]
fn errors_replace_nothing() {
    let dir = Dir::new("errors");
    let out = dir.create("out.pgn", "old contents\n");
    let missing = dir.path().join("missing.pgn");
    let result = run(
        &[
            "merge",
            "-q",
            "corpora/merge/in",
            s(&missing),
            "-o",
            s(&out),
        ],
        2,
    );
    assert!(String::from_utf8_lossy(&result.stderr).contains("missing.pgn"));
    assert_eq!(text(&out), b"old contents\n");
    // A character Latin-1 cannot hold, in a kept game.
    let polish = dir.create(
        "polish.pgn",
        "[White \"Wojtaszek, Rados\u{142}aw\"]\n[Black \"B\"]\n\n1. e4 *\n",
    );
    let result = run(
        &[
            "merge",
            "-q",
            s(&polish),
            "-o",
            s(&out),
            "--output-encoding",
            "latin-1",
        ],
        2,
    );
    assert!(
        String::from_utf8_lossy(&result.stderr).contains("cannot hold"),
        "{result:?}"
    );
    assert_eq!(text(&out), b"old contents\n");
    // The output may not be an input, nor two outputs one file.
    let input = dir.create("in.pgn", "1. e4 *\n");
    run(&["merge", "-q", s(&input), "-o", s(&input)], 2);
    run(
        &[
            "merge",
            "-q",
            s(&input),
            "-o",
            s(&out),
            "--dropped",
            s(&out),
        ],
        2,
    );
    assert_eq!(text(&input), b"1. e4 *\n");
    let left: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// A generated archive with planted copies across four files: every planted duplicate
/// and truncated copy dropped, every conflicting pair set apart (or one copy dropped
/// with a warning), the same for -j1 and -j2 and from standard input; the output merges
/// to itself.
#[test]
fn planted_copies() {
    let dir = Dir::new("planted");
    let mut generator = ArchiveGen::new(36, 9);
    let mut files = Vec::new();
    for part in 0..4 {
        let mut text = String::new();
        while generator.games() < 400 * (part + 1) {
            generator.next_games(&mut text);
        }
        files.push(dir.create(format!("part{part}.pgn"), text));
    }
    let planted = generator.planted;
    assert!(planted.duplicates > 0 && planted.truncated > 0 && planted.conflicting > 0);
    let names: Vec<&str> = files.iter().map(|p| s(p)).collect();
    let mut outputs = Vec::new();
    for threads in ["-j1", "-j2"] {
        let out = dir.path().join(format!("out{threads}.pgn"));
        let conflicts = dir.path().join(format!("conflicts{threads}.pgn"));
        let mut args = vec!["merge", "-q", threads, "--format", "jsonl", "-o", s(&out)];
        args.extend(["--conflicts", s(&conflicts)]);
        args.extend(&names);
        let report = run(&args, 1);
        let sum = summary(&json_lines(&report.stdout));
        assert_eq!(
            sum["dropped"].as_u64(),
            Some(planted.duplicates + planted.truncated)
        );
        assert_eq!(sum["set_apart"].as_u64(), Some(2 * planted.conflicting));
        outputs.push((report.stdout, text(&out), text(&conflicts)));
    }
    assert!(outputs[0] == outputs[1], "-j1 and -j2 differ");
    // Without --conflicts, one copy of each conflicting pair is dropped with a warning.
    let out = dir.path().join("kept.pgn");
    let mut args = vec!["merge", "-q", "--format", "jsonl", "-o", s(&out)];
    args.extend(&names);
    let sum = summary(&json_lines(&run(&args, 0).stdout));
    assert_eq!(
        sum["dropped"].as_u64(),
        Some(planted.duplicates + planted.truncated + planted.conflicting)
    );
    // Standard input: one stream of all four files.
    let all: Vec<u8> = files.iter().flat_map(|f| text(f)).collect();
    let piped = dir.path().join("piped.pgn");
    let conflicts = dir.path().join("piped-conflicts.pgn");
    let out = planilla_stdin(
        &[
            "merge",
            "-q",
            "-o",
            s(&piped),
            "--conflicts",
            s(&conflicts),
            "-",
        ],
        &all,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&piped), outputs[0].1);
    // The output merges to itself.
    let again = dir.path().join("again.pgn");
    run(
        &[
            "merge",
            "-q",
            s(&dir.path().join("out-j1.pgn")),
            "-o",
            s(&again),
        ],
        0,
    );
    assert_eq!(text(&again), outputs[0].1);
}

/// `merge -` interrupted while it copies standard input: the copy in `TMPDIR` is removed,
/// the destination is untouched, and the process ends by the signal.
#[cfg(unix)]
#[test]
fn an_interrupted_merge_leaves_no_temporary_file() {
    use std::io::Write;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let dir = Dir::new("interrupted");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let dest = dir.create("out.pgn", "old contents");
    for (name, number) in [("INT", 2), ("TERM", 15)] {
        // Standard input stays open: the copy is surely under way when the signal comes.
        let mut child = util::command()
            .args(["merge", "-q", "-o", s(&dest), "-"])
            .env("TMPDIR", &tmp)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n\n")
            .unwrap();
        let start = std::time::Instant::now();
        while std::fs::read_dir(&tmp).unwrap().next().is_none() {
            assert!(
                start.elapsed().as_secs() < 30,
                "SIG{name}: no copy of standard input"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let sent = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.signal(), Some(number), "SIG{name}: {status:?}");
        let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
        assert!(left.is_empty(), "SIG{name}: {left:?} left in TMPDIR");
        assert_eq!(text(&dest), b"old contents", "SIG{name}");
    }
}

/// `planilla.toml` applies as for `check`: its `format` when merge writes that format (a
/// `sarif` meant for `check` is left to `check`).
#[test]
fn configuration_file() {
    let dir = Dir::new("configured");
    let input = util::root().join("corpora/merge/in");
    dir.create("planilla.toml", "format = \"jsonl\"\n");
    let out = dir.path().join("out.pgn");
    let report = util::planilla_in(dir.path(), &["merge", "-q", s(&input), "-o", s(&out)]);
    assert_eq!(report.status.code(), Some(0));
    summary(&json_lines(&report.stdout));
    dir.create("planilla.toml", "format = \"sarif\"\n");
    let report = util::planilla_in(dir.path(), &["merge", "-q", s(&input), "-o", s(&out)]);
    assert_eq!(report.status.code(), Some(0));
    let text = String::from_utf8(report.stdout).unwrap();
    assert!(
        text.ends_with("set apart; 0 tags taken, 1 warning\n"),
        "{text}"
    );
}
