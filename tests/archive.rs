//! End-to-end tests of `planilla check --archive`: the golden corpus of planted copies in
//! `corpora/archive/` (expected outputs in `corpora/archive/expected/`, rewritten with
//! `PLANILLA_BLESS=1`), and generated archives for what goldens cannot show: every
//! planted case found once, the same findings for every number of threads and way of
//! reading, and the union of `--shard-by moves` shards equal to the unsharded run.

mod util;

use planilla_testkit::{ArchiveGen, Planted};
use std::collections::BTreeSet;
use std::process::Output;
use util::{Dir, planilla_in, planilla_stdin, run};

/// The archive codes, as `--select` takes them.
const ARCHIVE_CODES: &str =
    "duplicate-game,truncated-copy,conflicting-copies,round-conflict,player-identity";

/// The lines of a report.
fn lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The golden corpus in JSON Lines and in the human format, with one thread and two:
/// byte for byte the same.
#[test]
fn golden_corpus() {
    for (format, expected) in [("jsonl", "archive.jsonl"), ("human", "archive.human")] {
        let outputs: Vec<Vec<u8>> = ["-j1", "-j2"]
            .iter()
            .map(|threads| {
                let args = ["check", "--archive", "--format", format, threads];
                let args = [&args[..], &["corpora/archive"]].concat();
                run(&args, 0).stdout
            })
            .collect();
        assert_eq!(outputs[0], outputs[1], "{format}: -j1 and -j2 differ");
        util::golden("archive", expected, &outputs[0]);
    }
}

/// Without `--archive`, none of its findings; `archive = true` in planilla.toml turns it
/// on, as the option does.
#[test]
fn off_by_default_and_on_by_configuration() {
    let corpus = util::root().join("corpora/archive");
    let corpus = corpus.to_str().unwrap();
    let plain = lines(&run(&["check", "--format", "jsonl", corpus], 0));
    for code in ARCHIVE_CODES.split(',') {
        assert!(
            !plain.iter().any(|l| l.contains(code)),
            "{code} without --archive"
        );
    }
    let by_option = run(&["check", "--archive", "--format", "jsonl", corpus], 0);
    let dir = Dir::new("configured");
    dir.create("planilla.toml", "archive = true\n");
    let by_file = planilla_in(dir.path(), &["check", "--format", "jsonl", corpus]);
    assert_eq!(by_option.stdout, by_file.stdout);
}

/// `--select`, `--ignore` and `--fail-on` treat archive findings as any other: they
/// count in the summary and the exit status.
#[test]
fn filters_and_exit_status() {
    let args = [
        "check",
        "--archive",
        "--format",
        "jsonl",
        "--fail-on",
        "warning",
    ];
    let only_notes = [
        &args[..],
        &["--select", "player-identity", "corpora/archive"],
    ]
    .concat();
    let out = lines(&run(&only_notes, 0));
    assert_eq!(
        out.len(),
        3,
        "two player-identity notes and the summary: {out:?}"
    );
    assert!(out[2].contains(r#""warnings":0,"notes":2"#), "{}", out[2]);
    let copies = [
        &args[..],
        &["--select", "truncated-copy", "corpora/archive"],
    ]
    .concat();
    let out = lines(&run(&copies, 1));
    assert_eq!(
        out.len(),
        5,
        "four truncated copies and the summary: {out:?}"
    );
    let none = [
        &args[..],
        &["--ignore", ARCHIVE_CODES, "corpora/archive/copies.pgn"],
    ]
    .concat();
    run(&none, 0);
    let usage = run(
        &[
            "check",
            "--shard",
            "0/2",
            "--shard-by",
            "moves",
            "corpora/archive",
        ],
        2,
    );
    assert!(String::from_utf8_lossy(&usage.stderr).contains("--shard-by moves needs --archive"));
}

/// A generated archive of `games` games with a planted case after every `every`.
fn generated(games: u64, every: u64) -> (String, Planted) {
    let mut generator = ArchiveGen::new(23, every);
    let mut text = String::new();
    while generator.games() < games {
        generator.next_games(&mut text);
    }
    (text, generator.planted)
}

/// Counts the archive findings of a JSON Lines report by code, in the order of
/// [`Planted`]'s fields (round conflicts of both kinds together).
fn counted(report: &[String]) -> Planted {
    let count = |code: &str| {
        report
            .iter()
            .filter(|l| l.contains(&format!(r#""code":"{code}""#)))
            .count() as u64
    };
    Planted {
        duplicates: count("duplicate-game"),
        truncated: count("truncated-copy"),
        conflicting: count("conflicting-copies"),
        round_conflicts: count("round-conflict"),
        identities: count("player-identity"),
    }
}

/// Every planted case is found once and nothing else is, on standard input (streamed in
/// batches) and from a file, with one thread and two: the same report every way.
#[test]
fn planted_cases_found_every_way() {
    let (text, planted) = generated(3000, 25);
    assert!(
        planted.duplicates >= 15 && planted.identities >= 15,
        "{planted:?}"
    );
    let dir = Dir::new("planted");
    let path = dir.create("archive.pgn", &text);
    let path = path.to_str().unwrap();
    let select = [
        "check",
        "--archive",
        "--format",
        "jsonl",
        "--select",
        ARCHIVE_CODES,
    ];
    let mut reports = Vec::new();
    for threads in ["-j1", "-j2"] {
        let args = [&select[..], &[threads, path]].concat();
        reports.push(lines(&run(&args, 0)));
        let args = [&select[..], &[threads, "-"]].concat();
        let out = planilla_stdin(&args, text.as_bytes());
        assert_eq!(out.status.code(), Some(0));
        // Standard input is named `<stdin>`: the same findings under another name.
        let named = lines(&out)
            .iter()
            .map(|l| l.replace("<stdin>", path))
            .collect();
        reports.push(named);
    }
    for other in &reports[1..] {
        assert_eq!(&reports[0], other);
    }
    assert_eq!(counted(&reports[0]), planted);
}

/// The union of the shards' reports under `--shard-by moves` is the unsharded run's:
/// every game's own findings in exactly one shard, and every archive finding but
/// `player-identity` (which no shard judges) from exactly one shard.
#[test]
fn shards_union_is_the_whole() {
    let (text, planted) = generated(1500, 10);
    let dir = Dir::new("shards");
    let path = dir.create("archive.pgn", &text);
    let path = path.to_str().unwrap();
    let base = [
        "check",
        "--archive",
        "--format",
        "jsonl",
        "--fail-on",
        "never",
    ];
    let whole = lines(&run(&[&base[..], &[path]].concat(), 0));
    assert_eq!(counted(&whole), planted);
    let findings = |report: &[String]| -> Vec<String> {
        report
            .iter()
            .filter(|l| l.starts_with(r#"{"type":"finding""#))
            .filter(|l| !l.contains(r#""code":"player-identity""#))
            .cloned()
            .collect()
    };
    let mut union = BTreeSet::new();
    let (mut own, mut judged) = (0, 0);
    let mut games = 0;
    for k in 0..4 {
        let shard = format!("{k}/4");
        let args = [&base[..], &["--shard", &shard, "--shard-by", "moves", path]].concat();
        let report = lines(&run(&args, 0));
        assert!(!report.iter().any(|l| l.contains("player-identity")));
        let summary: serde_json::Value = serde_json::from_str(report.last().unwrap()).unwrap();
        games += summary["games"].as_u64().unwrap();
        for line in findings(&report) {
            let archive = ARCHIVE_CODES
                .split(',')
                .any(|c| line.contains(&format!(r#""code":"{c}""#)));
            own += u64::from(!archive);
            judged += u64::from(archive);
            union.insert(line);
        }
    }
    let whole_findings = findings(&whole);
    let whole_own = whole_findings
        .iter()
        .filter(|l| {
            !ARCHIVE_CODES
                .split(',')
                .any(|c| l.contains(&format!(r#""code":"{c}""#)))
        })
        .count() as u64;
    assert_eq!(
        own, whole_own,
        "each game's own findings in exactly one shard"
    );
    let whole_judged = whole_findings.len() as u64 - whole_own;
    assert_eq!(
        judged, whole_judged,
        "each archive finding from exactly one shard"
    );
    let whole_set: BTreeSet<String> = whole_findings.into_iter().collect();
    assert_eq!(union, whole_set);
    let summary: serde_json::Value = serde_json::from_str(whole.last().unwrap()).unwrap();
    assert_eq!(
        games,
        summary["games"].as_u64().unwrap(),
        "each game counted once"
    );
}
