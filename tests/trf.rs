//! End-to-end tests of `planilla check --trf`: the tournaments of `corpora/trf/` (TRF
//! files laid out to the published columns, with the PGN archives of their games, clean
//! and with planted faults; expected outputs in `corpora/trf/expected/`, rewritten with
//! `PLANILLA_BLESS=1`), at one thread and two, in every output format, through
//! `planilla.toml` and its overrides, with the filters and `--shard`.

mod util;

use std::collections::BTreeSet;
use std::process::Output;
use util::{Dir, planilla, planilla_in, planilla_stdin, run};

/// The TRF codes.
const TRF_CODES: [&str; 7] = [
    "trf-result",
    "trf-colours",
    "trf-round",
    "trf-unplayed",
    "trf-missing-game",
    "trf-unknown-game",
    "trf-file",
];

/// `check --format jsonl` of the faulty open against its TRF.
const OPEN_FAULTS: [&str; 6] = [
    "check",
    "--format",
    "jsonl",
    "--trf",
    "corpora/trf/open.trf",
    "corpora/trf/open-faults.pgn",
];

/// Each golden run: its name, the TRF, the PGN and the exit status.
const CASES: [(&str, &str, &str, i32); 5] = [
    ("open", "open.trf", "open.pgn", 0),
    ("open-faults", "open.trf", "open-faults.pgn", 1),
    ("lichess-swiss", "lichess-swiss.trf", "lichess-swiss.pgn", 1),
    ("rr2026", "rr2026.trf", "rr2026.pgn", 1),
    ("malformed", "malformed.trf", "malformed.pgn", 1),
];

fn text(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// The codes of a JSON Lines report's findings.
fn codes(out: &Output) -> Vec<String> {
    codes_of(&out.stdout)
}

/// The codes of the findings of a JSON Lines report's bytes.
fn codes_of(report: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(report)
        .lines()
        .filter(|l| l.contains("\"type\":\"finding\""))
        .map(|l| {
            let at = l.find("\"code\":\"").expect("a code") + 8;
            l[at..l[at..].find('"').unwrap() + at].to_string()
        })
        .collect()
}

/// Every golden run in JSON Lines and in the human format, with one thread and two:
/// byte for byte the same, and the expected file's.
#[test]
fn golden_corpus() {
    for (name, trf, pgn, exit) in CASES {
        let trf = format!("corpora/trf/{trf}");
        let pgn = format!("corpora/trf/{pgn}");
        for (format, ext) in [("jsonl", "jsonl"), ("human", "human")] {
            let outputs: Vec<Vec<u8>> = ["-j1", "-j2"]
                .iter()
                .map(|threads| {
                    let args = ["check", "--trf", &trf, "--format", format, threads, &pgn];
                    run(&args, exit).stdout
                })
                .collect();
            assert_eq!(
                outputs[0], outputs[1],
                "{name} {format}: -j1 and -j2 differ"
            );
            util::golden("trf", &format!("{name}.{ext}"), &outputs[0]);
        }
    }
}

/// The archive as the TRF has it gives no TRF finding; each planted fault gives its
/// code, and every code of the contract is shown by some golden run.
#[test]
fn clean_archives_are_clean_and_every_code_is_planted() {
    let clean = run(
        &[
            "check",
            "--format",
            "jsonl",
            "--trf",
            "corpora/trf/open.trf",
            "corpora/trf/open.pgn",
        ],
        0,
    );
    assert_eq!(codes(&clean), Vec::<String>::new());
    let mut seen = BTreeSet::new();
    for (_, trf, pgn, exit) in CASES {
        let out = run(
            &[
                "check",
                "--format",
                "jsonl",
                "--trf",
                &format!("corpora/trf/{trf}"),
                &format!("corpora/trf/{pgn}"),
            ],
            exit,
        );
        seen.extend(codes(&out));
    }
    for code in TRF_CODES {
        assert!(seen.contains(code), "no golden run shows {code}");
    }
    let planted = run(&OPEN_FAULTS, 1);
    assert_eq!(
        codes(&planted),
        [
            "trf-result",
            "trf-colours",
            "trf-unplayed",
            "trf-round",
            "trf-unplayed",
            "trf-unknown-game",
            "trf-unknown-game",
            "trf-missing-game"
        ]
    );
}

/// Without `--trf`, no TRF finding, and the TRF checks cost the games nothing else:
/// the games' own findings are the same with and without it.
#[test]
fn off_without_a_trf() {
    let plain = run(
        &["check", "--format", "jsonl", "corpora/trf/open-faults.pgn"],
        0,
    );
    assert_eq!(codes(&plain), Vec::<String>::new());
}

/// Many games read by two threads in pieces, and by one: the same report. The file
/// repeats the faulty archive until it is read in several batches.
#[test]
fn threads_do_not_change_the_report() {
    let dir = Dir::new("threads");
    let games = std::fs::read(util::root().join("corpora/trf/open-faults.pgn")).unwrap();
    let mut big = Vec::new();
    while big.len() < 600_000 {
        big.extend_from_slice(&games);
        big.push(b'\n');
    }
    let copies = big.len() / (games.len() + 1);
    let path = dir.create("big.pgn", &big);
    let big = path.to_str().unwrap();
    let outputs: Vec<Vec<u8>> = ["-j1", "-j2"]
        .iter()
        .map(|j| {
            run(
                &[
                    "check",
                    "--format",
                    "jsonl",
                    "--trf",
                    "corpora/trf/open.trf",
                    j,
                    big,
                ],
                1,
            )
            .stdout
        })
        .collect();
    assert_eq!(outputs[0], outputs[1]);
    // Every copy's faults are reported, the TRF's own once.
    let found = codes_of(&outputs[0]);
    let count = |code: &str| found.iter().filter(|c| *c == code).count();
    assert_eq!(count("trf-result"), copies);
    assert_eq!(count("trf-unplayed"), 2 * copies);
    assert_eq!(count("trf-missing-game"), 1);
}

/// Every output format carries the findings; those about the TRF itself name no game.
#[test]
fn every_format() {
    let args = |format: &'static str| {
        [
            "check",
            "--format",
            format,
            "--trf",
            "corpora/trf/malformed.trf",
            "corpora/trf/malformed.pgn",
        ]
    };
    let github = text(&run(&args("github"), 1));
    assert!(github.contains(
        "::error file=corpora/trf/malformed.trf,line=4,col=109,title=trf-file::player 2, round 2"
    ));
    assert!(github.contains("title=trf-colours::game 4: Round 2: Alpha, Anna - Gamma, Gus"));
    let sarif = text(&run(&args("sarif"), 1));
    assert!(sarif.contains(r#""ruleId":"trf-file""#));
    assert!(sarif.contains(r#""id":"trf-missing-game""#));
    assert!(sarif.contains(r#""uri":"corpora/trf/malformed.trf""#));
    let jsonl = text(&run(&args("jsonl"), 1));
    assert!(jsonl.contains(
        r#"{"type":"finding","file":"corpora/trf/malformed.trf","game":null,"ply":null,"line":7,"column":1,"severity":"error","code":"trf-file""#
    ));
    // The page's data holds the JSON Lines findings (its script shows a finding without
    // a game under "The file itself").
    let html = text(&run(&args("html"), 1));
    for line in jsonl.lines().filter(|l| l.contains("\"finding\"")) {
        let entry = line.trim_end_matches('}');
        assert!(html.contains(entry), "{entry}");
    }
}

/// `--select`, `--ignore` and `--fail-on` apply to TRF findings as to any other.
#[test]
fn filters_and_exit_status() {
    let base = OPEN_FAULTS;
    let only = run(
        &[&base[..], &["--select", "trf-round,trf-missing-game"]].concat(),
        0,
    );
    assert_eq!(codes(&only), ["trf-round", "trf-missing-game"]);
    let ignored = run(
        &[
            &base[..],
            &[
                "--ignore",
                "trf-result,trf-colours,trf-unplayed",
                "--fail-on",
                "warning",
            ],
        ]
        .concat(),
        1,
    );
    assert!(!codes(&ignored).iter().any(|c| c == "trf-result"));
    let notes = run(
        &[
            &base[..],
            &["--select", "trf-missing-game", "--fail-on", "note"],
        ]
        .concat(),
        1,
    );
    assert!(text(&notes).contains(r#""errors":0,"warnings":0,"notes":1"#));
}

/// `trf = "..."` in planilla.toml, from its directory, as the option does; an override
/// gives a directory its own tournament, and the command line wins over both.
#[test]
fn configuration_file_and_overrides() {
    let dir = Dir::new("configured");
    let corpus = util::root().join("corpora/trf");
    for name in ["open.trf", "open-faults.pgn", "rr2026.trf", "rr2026.pgn"] {
        let sub = if name.starts_with("rr") { "rr" } else { "open" };
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        std::fs::copy(corpus.join(name), dir.path().join(sub).join(name)).unwrap();
    }
    dir.create(
        "planilla.toml",
        "trf = \"open/open.trf\"\n\n[[overrides]]\npaths = [\"rr/**\"]\ntrf = \"rr/rr2026.trf\"\n",
    );
    let configured = planilla_in(dir.path(), &["check", "--format", "jsonl", "open", "rr"]);
    assert_eq!(configured.status.code(), Some(1));
    let found = text(&configured);
    // The open archive against open.trf, the round robin against its own.
    assert_eq!(found.matches("\"code\":\"trf-unknown-game\"").count(), 2);
    assert!(found.contains(r#""file":"rr/rr2026.pgn","game":4"#));
    assert!(found.contains(r#""file":"open/open.trf","game":null"#));
    assert!(!found.contains("\"file\":\"rr/rr2026.trf\""));
    // The same as the options give, file by file.
    let by_option = planilla_in(
        dir.path(),
        &[
            "check",
            "--no-config",
            "--format",
            "jsonl",
            "--trf",
            "rr/rr2026.trf",
            "rr",
        ],
    );
    for line in text(&by_option).lines().filter(|l| l.contains("finding")) {
        assert!(found.contains(line), "{line}");
    }
    // The command line's TRF is every file's: the round robin's games are unknown to
    // the open's.
    let given = planilla_in(
        dir.path(),
        &["check", "--format", "jsonl", "--trf", "open/open.trf", "rr"],
    );
    assert_eq!(text(&given).matches("trf-unknown-game").count(), 6);
}

/// The shards' findings together are the unsharded run's: each game's once, the TRF's
/// own from the first shard.
#[test]
fn shards_add_up_to_the_whole() {
    let base = OPEN_FAULTS;
    let whole: BTreeSet<String> = text(&run(&base, 1))
        .lines()
        .filter(|l| l.contains("\"finding\""))
        .map(str::to_string)
        .collect();
    let mut union = BTreeSet::new();
    let mut count = 0;
    for k in 0..3 {
        let shard = format!("{k}/3");
        let out = planilla(&[&base[..], &["--shard", &shard]].concat());
        for line in text(&out).lines().filter(|l| l.contains("\"finding\"")) {
            union.insert(line.to_string());
            count += 1;
        }
    }
    assert_eq!(union, whole);
    assert_eq!(count, whole.len(), "a finding reported by two shards");
}

/// Standard input is matched as a file is; a TRF that cannot be read stops the run
/// before any game (status 2); `--range` is refused with `--trf`.
#[test]
fn stdin_unreadable_trf_and_range() {
    let games = std::fs::read(util::root().join("corpora/trf/open-faults.pgn")).unwrap();
    let out = planilla_stdin(
        &[
            "check",
            "--format",
            "jsonl",
            "--trf",
            "corpora/trf/open.trf",
            "-",
        ],
        &games,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        codes(&out),
        codes(&run(
            &[
                "check",
                "--format",
                "jsonl",
                "--trf",
                "corpora/trf/open.trf",
                "corpora/trf/open-faults.pgn"
            ],
            1
        ))
    );
    let missing = planilla(&["check", "--trf", "nothere.trf", "corpora/trf/open.pgn"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("nothere.trf: cannot read the TRF file")
    );
    assert!(missing.stdout.is_empty());
    let ranged = planilla(&[
        "check",
        "--trf",
        "corpora/trf/open.trf",
        "--range",
        "0:100",
        "corpora/trf/open.pgn",
    ]);
    assert_eq!(ranged.status.code(), Some(2));
}

/// `fix --trf` writes the TRF's result where a game's differs and the record does not
/// decide another (a mate on the board keeps its result, colours the other way round
/// are not the fix's to change), a change line each; the fixed games checked against
/// the TRF again show only what the fix left; `-j1` = `-j2`.
#[test]
fn fix_writes_the_trf_results() {
    let dir = Dir::new("fix");
    let mut outputs = Vec::new();
    for threads in ["-j1", "-j2"] {
        let fixed = dir.path().join(format!("fixed{threads}.pgn"));
        let report = run(
            &[
                "fix",
                threads,
                "--trf",
                "corpora/trf/open.trf",
                "corpora/trf/fix.pgn",
                "-o",
                fixed.to_str().unwrap(),
            ],
            0,
        );
        outputs.push((report.stdout, std::fs::read(&fixed).unwrap()));
    }
    assert_eq!(outputs[0], outputs[1], "-j1 and -j2 differ");
    util::golden("trf", "fix.human", &outputs[0].0);
    util::golden("trf", "fix.pgn", &outputs[0].1);
    let fixed = dir.path().join("fixed-j1.pgn");
    let again = run(
        &[
            "check",
            "--format",
            "jsonl",
            "--trf",
            "corpora/trf/open.trf",
            fixed.to_str().unwrap(),
        ],
        1,
    );
    // The mate kept against the TRF, the colours, and the rounds' other games.
    assert_eq!(
        codes(&again),
        [
            "trf-result",
            "trf-colours",
            "trf-missing-game",
            "trf-missing-game",
            "trf-missing-game",
            "trf-missing-game"
        ]
    );
    // A second fix changes nothing.
    let twice = run(
        &[
            "fix",
            "--trf",
            "corpora/trf/open.trf",
            fixed.to_str().unwrap(),
            "-o",
            "-",
        ],
        0,
    );
    assert_eq!(twice.stdout, outputs[0].1);
}

/// A baseline records TRF findings (the TRF's own by the TRF's path) and absorbs them.
#[test]
fn baselines_absorb_trf_findings() {
    let dir = Dir::new("baseline");
    let baseline = dir.path().join("baseline.json");
    let baseline = baseline.to_str().unwrap();
    let args = [
        "check",
        "--format",
        "jsonl",
        "--trf",
        "corpora/trf/open.trf",
        "corpora/trf/open-faults.pgn",
    ];
    run(&[&args[..], &["--write-baseline", baseline]].concat(), 0);
    let written = std::fs::read_to_string(baseline).unwrap();
    assert!(written.contains("trf-missing-game") && written.contains("trf-result"));
    let absorbed = run(&[&args[..], &["--baseline", baseline]].concat(), 0);
    assert_eq!(codes(&absorbed), Vec::<String>::new());
    assert!(text(&absorbed).contains(r#""baselined":8"#));
}
