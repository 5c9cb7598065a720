//! End-to-end tests of `planilla check`: the real binary on the golden files
//! in `corpora/check/`, compared with the expected outputs in
//! `corpora/check/expected/`. Run with `PLANILLA_BLESS=1` to rewrite the
//! expected files after a deliberate change (then read the diff).

mod util;

use std::path::PathBuf;
use std::process::Output;
use util::{Dir, planilla, planilla_stdin, root};

/// `planilla check --format jsonl -` with `input` on standard input.
fn check_stdin(input: &[u8]) -> Output {
    check_stdin_as("jsonl", input)
}

/// `planilla check --format FORMAT -` with `input` on standard input.
fn check_stdin_as(format: &str, input: &[u8]) -> Output {
    planilla_stdin(&["check", "--format", format, "-"], input)
}

fn golden(expected: &str, actual: &[u8]) {
    util::golden("check", expected, actual);
}

/// Every golden case runs with one thread and with four: the output must be
/// byte for byte the same.
fn check_case(input: &str, extra: &[&str], expected: &str, exit: i32) {
    let path = format!("corpora/check/{input}");
    let mut outputs = Vec::new();
    for threads in ["-j1", "-j4"] {
        let mut args = vec!["check", "--format", "jsonl", threads];
        args.extend_from_slice(extra);
        args.push(&path);
        let out = planilla(&args);
        assert_eq!(
            out.status.code(),
            Some(exit),
            "{input} {extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for line in out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            serde_json::from_slice::<serde_json::Value>(line)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(line)));
        }
        outputs.push(out.stdout);
    }
    assert_eq!(outputs[0], outputs[1], "{input}: -j1 and -j4 differ");
    golden(expected, &outputs[0]);
}

macro_rules! golden_cases {
    ($($name:ident: $input:expr, [$($arg:expr),*] => $expected:expr, exit $exit:expr;)*) => {$(
        #[test]
        fn $name() { check_case($input, &[$($arg),*], $expected, $exit); }
    )*};
}

golden_cases! {
    illegal: "illegal.pgn", [] => "illegal.jsonl", exit 1;
    illegal_lang_en: "illegal.pgn", ["--lang", "en"] => "illegal.lang-en.jsonl", exit 1;
    notation: "notation.pgn", [] => "notation.jsonl", exit 0;
    draws_2023: "draws.pgn", ["--rules", "fide-2023"] => "draws.fide-2023.jsonl", exit 1;
    draws_2009: "draws.pgn", ["--rules", "fide-2009"] => "draws.fide-2009.jsonl", exit 0;
    draws_2005: "draws.pgn", ["--rules", "fide-2005"] => "draws.fide-2005.jsonl", exit 0;
    game_end: "game-end.pgn", [] => "game-end.jsonl", exit 1;
    dead: "dead.pgn", [] => "dead.jsonl", exit 1;
    // Dead positions and Law 6.9 are the same in every edition.
    dead_2009: "dead.pgn", ["--rules", "fide-2009"] => "dead.jsonl", exit 1;
    dead_2005: "dead.pgn", ["--rules", "fide-2005"] => "dead.jsonl", exit 1;
    fen: "fen.pgn", [] => "fen.jsonl", exit 1;
    variants: "variants.pgn", [] => "variants.jsonl", exit 0;
    spanish_1252: "spanish-1252.pgn", [] => "spanish-1252.jsonl", exit 0;
    mixed_encoding: "mixed-encoding.pgn", [] => "mixed-encoding.jsonl", exit 0;
    syntax: "syntax.pgn", [] => "syntax.jsonl", exit 1;
    select: "notation.pgn", ["--select", "check-mark,capture-mark"] => "notation.select.jsonl", exit 0;
    tags: "tags.pgn", [] => "tags.jsonl", exit 0;
    tags_select: "tags.pgn", ["--select", "tag-value"] => "tags.select.jsonl", exit 0;
    tags_ignore_fail_on: "tags.pgn", ["--ignore", "missing-tag", "--fail-on", "warning"] => "tags.ignore.jsonl", exit 1;
    tags_select_missing_fail_on_note: "tags.pgn", ["--select", "missing-tag", "--fail-on", "note"] => "tags.missing.jsonl", exit 1;
    clocks: "clocks.pgn", [] => "clocks.jsonl", exit 0;
    clocks_select: "clocks.pgn", ["--select", "clock-annotation"] => "clocks.select.jsonl", exit 0;
    clocks_ignore: "clocks.pgn", ["--ignore", "clock-annotation"] => "clocks.ignore.jsonl", exit 0;
    clocks_fail_on: "clocks.pgn", ["--select", "clock-annotation", "--fail-on", "warning"] => "clocks.select.jsonl", exit 1;
    repair: "repair.pgn", [] => "repair.jsonl", exit 1;
    dgt_signal: "dgt-signal.pgn", [] => "dgt-signal.jsonl", exit 1;
    dgt_signal_select: "dgt-signal.pgn", ["--select", "dgt-result-signal"] => "dgt-signal.select.jsonl", exit 0;
    non_standard_result: "non-standard-result.pgn", [] => "non-standard-result.jsonl", exit 1;
    non_standard_result_ignore: "non-standard-result.pgn", ["--ignore", "non-standard-result,result-mismatch,syntax-error"] => "non-standard-result.ignore.jsonl", exit 0;
    by_date: "by-date.pgn", ["--rules", "by-date"] => "by-date.jsonl", exit 1;
    by_date_fide_2023: "by-date.pgn", ["--rules", "fide-2023"] => "by-date.fide-2023.jsonl", exit 1;
    // by-date is the default.
    by_date_default: "by-date.pgn", [] => "by-date.jsonl", exit 1;
    by_date_select: "by-date.pgn", ["--rules", "by-date", "--select", "rules-by-date"] => "by-date.select.jsonl", exit 0;
    by_date_ignore: "by-date.pgn", ["--rules", "by-date", "--ignore", "rules-by-date", "--fail-on", "note"] => "by-date.ignore.jsonl", exit 1;
    ignore_fail_on: "draws.pgn", ["--ignore", "move-after-game-end,result-mismatch", "--fail-on", "warning"] => "draws.ignore.jsonl", exit 1;
}

/// `--rules by-date` in the human format: the notes beside the findings they explain.
#[test]
fn by_date_human_format() {
    let out = planilla(&["check", "--rules", "by-date", "corpora/check/by-date.pgn"]);
    golden("by-date.txt", &out.stdout);
}

/// Dead positions and wins on time in the human format: the reasons in a few words.
#[test]
fn dead_positions_human_format() {
    let out = planilla(&["check", "corpora/check/dead.pgn"]);
    golden("dead.txt", &out.stdout);
}

#[test]
fn human_format() {
    let out = planilla(&["check", "corpora/check/illegal.pgn"]);
    golden("illegal.txt", &out.stdout);
}

/// The tag findings in the human and GitHub formats, and in SARIF with their rules and
/// levels (no SARIF golden: its rule list grows with every code).
#[test]
fn tags_in_every_format() {
    let out = planilla(&["check", "corpora/check/tags.pgn"]);
    golden("tags.txt", &out.stdout);
    let out = planilla(&["check", "--format", "github", "corpora/check/tags.pgn"]);
    golden("tags.github.txt", &out.stdout);
    let out = planilla(&["check", "--format", "sarif", "corpora/check/tags.pgn"]);
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let results = log["runs"][0]["results"].as_array().unwrap();
    let level = |rule: &str| {
        let levels: Vec<&str> = results
            .iter()
            .filter(|r| r["ruleId"] == rule)
            .map(|r| r["level"].as_str().unwrap())
            .collect();
        assert!(!levels.is_empty(), "no {rule} result");
        assert!(levels.iter().all(|l| *l == levels[0]), "{rule}: {levels:?}");
        levels[0].to_string()
    };
    assert_eq!(level("tag-value"), "warning");
    assert_eq!(level("missing-tag"), "note");
    assert!(results.iter().any(|r| {
        r["message"]["text"]
            .as_str()
            .unwrap()
            .contains("tag Date \"2024.13.01\": no such month (01-12)")
    }));
}

/// The broadcast results in the human, GitHub and SARIF formats (JSON Lines above).
#[test]
fn broadcast_results_in_every_format() {
    for (format, expected) in [
        ("human", "dgt-signal.txt"),
        ("github", "dgt-signal.github.txt"),
        ("sarif", "dgt-signal.sarif"),
    ] {
        let out = planilla(&["check", "--format", format, "corpora/check/dgt-signal.pgn"]);
        golden(expected, &out.stdout);
    }
}

#[test]
fn github_format() {
    let out = planilla(&["check", "--format", "github", "corpora/check/game-end.pgn"]);
    golden("game-end.github.txt", &out.stdout);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .any(|l| l.starts_with("::error file=corpora/check/game-end.pgn,line="))
    );
}

/// The clock findings in the human, GitHub and SARIF formats (JSON Lines: the golden
/// cases above).
#[test]
fn clock_findings_in_every_format() {
    let out = planilla(&["check", "corpora/check/clocks.pgn"]);
    golden("clocks.txt", &out.stdout);
    let out = planilla(&["check", "--format", "github", "corpora/check/clocks.pgn"]);
    golden("clocks.github.txt", &out.stdout);
    let out = planilla(&["check", "--format", "sarif", "corpora/check/clocks.pgn"]);
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON log");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let clocks: Vec<_> = results
        .iter()
        .filter(|r| r["ruleId"] == "clock-annotation")
        .collect();
    assert_eq!(clocks.len(), 11, "{results:?}");
    assert!(clocks.iter().all(|r| r["level"] == "warning"));
}

#[test]
fn sarif_is_one_valid_log() {
    let out = planilla(&[
        "check",
        "--format",
        "sarif",
        "corpora/check/notation.pgn",
        "corpora/check/illegal.pgn",
    ]);
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "planilla");
    let results = run["results"].as_array().unwrap();
    let jsonl = planilla(&[
        "check",
        "--format",
        "jsonl",
        "corpora/check/notation.pgn",
        "corpora/check/illegal.pgn",
    ]);
    let findings = String::from_utf8_lossy(&jsonl.stdout)
        .matches("\"type\":\"finding\"")
        .count();
    assert_eq!(results.len(), findings);
    for r in results {
        let rule = r["ruleId"].as_str().unwrap();
        assert!(
            run["tool"]["driver"]["rules"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["id"] == rule)
        );
        assert!(
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap()
                >= 1
        );
    }
    // A finding in a variation says so, in the text and as a property.
    let in_variation = results
        .iter()
        .find(|r| {
            r["message"]["text"]
                .as_str()
                .unwrap()
                .contains("(3... Kd7)")
        })
        .expect("the variation's illegal move");
    assert!(
        in_variation["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with("game 3, ply 6, variation 1 (3... Kd7)")
    );
    assert_eq!(
        in_variation["properties"]["variation"],
        serde_json::json!([1])
    );
}

/// Every format names a finding's variation; the human format shows a control character
/// from the input (an ESC in a tag) escaped, never raw.
#[test]
fn variations_in_every_format_and_no_raw_control_characters() {
    let out = planilla(&["check", "--format", "github", "corpora/check/illegal.pgn"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("::game 3, ply 6, variation 1 (3... Kd7)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = check_stdin_as(
        "human",
        b"[SetUp \"1\"]\n[FEN \"\x1b[31mRED w\"]\n\n1. e4 *\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains('\x1b'), "{text}");
    assert!(text.contains("\\u{1b}[31mRED"), "{text}");
}

#[test]
fn directories_and_stdin() {
    // A directory is searched recursively; the same games read from standard
    // input give the same findings under the name <stdin>.
    let dir = planilla(&["check", "--format", "jsonl", "corpora/check"]);
    let summary = String::from_utf8_lossy(&dir.stdout)
        .lines()
        .last()
        .unwrap()
        .to_string();
    // Every .pgn file of the directory, none read twice.
    let files = std::fs::read_dir(root().join("corpora/check"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some(std::ffi::OsStr::new("pgn")))
        .count();
    assert!(
        summary.contains(&format!("\"files\":{files}")),
        "{files} files: {summary}"
    );
    let file = std::fs::read(root().join("corpora/check/illegal.pgn")).unwrap();
    let out = check_stdin(&file);
    let from_file = planilla(&["check", "--format", "jsonl", "corpora/check/illegal.pgn"]);
    let renamed =
        String::from_utf8_lossy(&from_file.stdout).replace("corpora/check/illegal.pgn", "<stdin>");
    assert_eq!(String::from_utf8_lossy(&out.stdout), renamed);
}

#[test]
fn an_unreadable_input_is_named_in_sarif_and_github_reports() {
    // A missing file, and a gzip file cut in its middle (read up to the cut, then an
    // error): both named in the SARIF invocation and as GitHub annotations, beside the
    // findings of the file that was read; exit status 2 as before.
    let dir = tempdir("unreadable-report");
    let plain = std::fs::read("corpora/check/illegal.pgn").unwrap();
    let [gz, _, _] = compress_all(&dir, "cut", &plain);
    let bytes = std::fs::read(&gz).unwrap();
    std::fs::write(&gz, &bytes[..bytes.len() / 2]).unwrap();
    let gz = gz.to_str().unwrap();
    let args = |format| {
        [
            "check",
            "--format",
            format,
            "corpora/check/no-such-file.pgn",
            gz,
            "corpora/check/fen.pgn",
        ]
    };
    let out = planilla(&args("sarif"));
    assert_eq!(out.status.code(), Some(2));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notes: Vec<&str> = invocation["toolExecutionNotifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            assert_eq!(n["level"], "error");
            n["message"]["text"].as_str().unwrap()
        })
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].contains("no-such-file.pgn: no such file or directory"));
    assert!(notes[1].contains("cut.pgn.gz: cannot read"), "{notes:?}");
    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());

    let out = planilla(&args("github"));
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let annotations: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("::error title=planilla::"))
        .collect();
    assert_eq!(annotations.len(), 2, "{stdout}");
    assert!(annotations[1].contains("cut.pgn.gz: cannot read"));

    // Every input read: the invocation says so, and nothing more.
    let out = planilla(&["check", "--format", "sarif", "corpora/check/fen.pgn"]);
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    assert_eq!(
        log["runs"][0]["invocations"],
        serde_json::json!([{"executionSuccessful": true}])
    );
}

#[test]
fn usage_and_input_errors_exit_2() {
    let missing = planilla(&[
        "check",
        "corpora/check/no-such-file.pgn",
        "corpora/check/fen.pgn",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("no-such-file.pgn: no such file or directory"),
        "{stderr}"
    );
    // The other file was still checked.
    assert!(String::from_utf8_lossy(&missing.stdout).contains("5 games"));

    let empty_dir = tempdir("no-pgn");
    let out = planilla(&["check", empty_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no .pgn file"));

    for bad in [
        vec!["check", "--rules", "fide-1999", "x.pgn"],
        vec!["check", "--select", "no-such-code", "x.pgn"],
        vec!["check", "--format", "xml", "x.pgn"],
        vec!["check", "--lang", "xx", "x.pgn"],
        vec!["frobnicate"],
    ] {
        let out = planilla(&bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn fail_on_thresholds() {
    let notes_only = "corpora/check/spanish-1252.pgn";
    assert_eq!(planilla(&["check", notes_only]).status.code(), Some(0));
    assert_eq!(
        planilla(&["check", "--fail-on", "note", notes_only])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        planilla(&["check", "--fail-on", "never", "corpora/check/illegal.pgn"])
            .status
            .code(),
        Some(0)
    );
}

/// A fresh directory for one test, holding a file that is not a game (which a directory
/// search must pass over).
fn tempdir(name: &str) -> PathBuf {
    let dir = Dir::new(name);
    dir.create("notes.txt", "not a game");
    dir.path().to_path_buf()
}

/// Every finding line of a jsonl run, without the summary.
fn finding_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"type\":\"finding\""))
        .map(str::to_string)
        .collect()
}

/// Writes `plain` compressed as `STEM.pgn.gz`, `STEM.pgn.bz2` and `STEM.pgn.zst` in `dir`.
fn compress_all(dir: &std::path::Path, stem: &str, plain: &[u8]) -> [std::path::PathBuf; 3] {
    use std::io::Write;
    let gz = dir.join(format!("{stem}.pgn.gz"));
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(plain).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let bz = dir.join(format!("{stem}.pgn.bz2"));
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    enc.write_all(plain).unwrap();
    std::fs::write(&bz, enc.finish().unwrap()).unwrap();
    let zst = dir.join(format!("{stem}.pgn.zst"));
    std::fs::write(&zst, zstd::encode_all(plain, 3).unwrap()).unwrap();
    [gz, bz, zst]
}

#[test]
fn compressed_inputs_read_like_plain_ones() {
    let dir = tempdir("compressed");
    let plain = std::fs::read(root().join("corpora/check/draws.pgn")).unwrap();
    let [gz, bz, zst] = compress_all(&dir, "draws", &plain);

    let expected = finding_lines(&planilla(&[
        "check",
        "--format",
        "jsonl",
        "corpora/check/draws.pgn",
    ]));
    for file in [&gz, &bz, &zst] {
        let out = planilla(&["check", "--format", "jsonl", file.to_str().unwrap()]);
        let renamed: Vec<String> = finding_lines(&out)
            .iter()
            .map(|l| l.replace(file.to_str().unwrap(), "corpora/check/draws.pgn"))
            .collect();
        assert_eq!(renamed, expected, "{}", file.display());
    }
    // A directory walk finds the compressed files; standard input is
    // recognised by its magic bytes.
    let out = planilla(&["check", "--format", "jsonl", dir.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"files\":3"));
    let out = check_stdin(&std::fs::read(&zst).unwrap());
    let renamed: Vec<String> = finding_lines(&out)
        .iter()
        .map(|l| l.replace("<stdin>", "corpora/check/draws.pgn"))
        .collect();
    assert_eq!(renamed, expected);
    // The data decides, never the name: plain text called `.gz` is read as text, at -j1
    // and at -j2 (where a plain file is read at offsets).
    let fake = dir.join("plain-text.pgn.gz");
    std::fs::write(&fake, &plain).unwrap();
    for threads in ["-j1", "-j2"] {
        let out = planilla(&[
            "check",
            threads,
            "--format",
            "jsonl",
            fake.to_str().unwrap(),
        ]);
        let renamed: Vec<String> = finding_lines(&out)
            .iter()
            .map(|l| l.replace(fake.to_str().unwrap(), "corpora/check/draws.pgn"))
            .collect();
        assert_eq!(renamed, expected, "{threads}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A compressed file many times the decoder thread's read-ahead (4 chunks of 256 KiB)
/// gives the same findings as its plain text, with one checking thread and with two.
#[test]
fn a_large_compressed_file_reads_like_its_plain_text() {
    let dir = tempdir("compressed-large");
    let one = std::fs::read(root().join("corpora/check/draws.pgn")).unwrap();
    let plain: Vec<u8> = one.repeat((3 << 20) / one.len() + 1);
    let plain_path = dir.join("plain.txt");
    std::fs::write(&plain_path, &plain).unwrap();
    let [gz, bz, zst] = compress_all(&dir, "big", &plain);

    let path = plain_path.to_str().unwrap();
    let expected = finding_lines(&planilla(&["check", "--format", "jsonl", "-j1", path]));
    assert!(expected.len() > 1000, "{} findings", expected.len());
    for file in [&gz, &zst, &bz] {
        let name = file.to_str().unwrap();
        for threads in ["-j1", "-j2"] {
            let out = planilla(&["check", "--format", "jsonl", threads, name]);
            let renamed: Vec<String> = finding_lines(&out)
                .iter()
                .map(|l| l.replace(name, path))
                .collect();
            assert!(renamed == expected, "{name} {threads}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_split_the_input_exactly() {
    let files = [
        "corpora/check/illegal.pgn",
        "corpora/check/draws.pgn",
        "corpora/check/game-end.pgn",
    ];
    let mut all = vec!["check", "--format", "jsonl"];
    all.extend(files);
    let whole = planilla(&all);
    let mut expected = finding_lines(&whole);
    expected.sort();
    let mut union = Vec::new();
    let mut games = 0;
    for k in 0..3 {
        let shard = format!("{k}/3");
        let mut args = vec!["check", "--format", "jsonl", "--shard", &shard];
        args.extend(files);
        let out = planilla(&args);
        union.extend(finding_lines(&out));
        games += summary_games(&out);
    }
    union.sort();
    assert_eq!(union, expected);
    assert!(summary_games(&whole) > 20);
    assert_eq!(
        games,
        summary_games(&whole),
        "every game in exactly one shard"
    );
}

/// The `games` count of a JSON Lines run's summary (its last line).
fn summary_games(out: &Output) -> u64 {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary = stdout.lines().last().unwrap();
    summary
        .split("\"games\":")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// A directory of small files (read whole, several files at a time) with a large file
/// among them (streamed in batches) gives, with one thread and with two, the findings
/// of each file checked on its own, in order. A compressed file cut short is named on
/// standard error (status 2) and the games before the cut are still reported.
#[test]
fn many_small_files_read_like_each_on_its_own() {
    use std::io::Write;
    let dir = tempdir("many");
    // The large file is larger than a batch: streamed, between runs of small files.
    util::small_files_and_a_large_one(
        &root().join("corpora/check"),
        &root().join("corpora/check/draws.pgn"),
        &dir,
    );
    // Cut short in its third copy of the games.
    let illegal = std::fs::read(root().join("corpora/check/illegal.pgn")).unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&illegal.repeat(3)).unwrap();
    let gz = enc.finish().unwrap();
    std::fs::write(dir.join("2zz-cut.pgn.gz"), &gz[..gz.len() * 2 / 3]).unwrap();

    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().unwrap().contains(".pgn"))
        .collect();
    files.sort();
    let mut expected = Vec::new();
    for file in &files {
        let out = planilla(&["check", "--format", "jsonl", "-j1", file.to_str().unwrap()]);
        expected.extend(finding_lines(&out));
    }
    assert!(expected.len() > 1000, "{} findings", expected.len());
    for threads in ["-j1", "-j2"] {
        let out = planilla(&["check", "--format", "jsonl", threads, dir.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{threads}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("2zz-cut.pgn.gz: cannot read"),
            "{threads}: {stderr}"
        );
        assert!(finding_lines(&out) == expected, "{threads}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let summary = stdout.lines().last().unwrap();
        assert!(
            summary.contains(&format!("\"files\":{}", files.len())),
            "{summary}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A directory search finds files whose names are not UTF-8 (Latin-1 names from old
/// Windows archives); they are named with U+FFFD in reports.
#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_found_in_a_directory() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempdir("latin1-names");
    let game = std::fs::read(root().join("corpora/check/illegal.pgn")).unwrap();
    std::fs::write(dir.join("ok.pgn"), &game).unwrap();
    std::fs::write(dir.join(OsStr::from_bytes(b"pe\xf1a.pgn")), &game).unwrap();
    std::fs::write(dir.join(OsStr::from_bytes(b"ib\xe1\xf1ez.pgn.gz")), {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(&game).unwrap();
        enc.finish().unwrap()
    })
    .unwrap();
    let out = planilla(&["check", "--format", "jsonl", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.lines().last().unwrap().contains("\"files\":3"),
        "{stdout}"
    );
    assert!(stdout.contains("pe\u{fffd}a.pgn"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Any number of threads gives the same output, and an absurd one does not stall the
/// run (at most 256 threads are started).
#[test]
fn an_absurd_number_of_threads_is_capped() {
    let one = planilla(&[
        "check",
        "--format",
        "jsonl",
        "-j1",
        "corpora/check/draws.pgn",
    ]);
    let many = planilla(&[
        "check",
        "--format",
        "jsonl",
        "-j",
        "100000",
        "corpora/check/draws.pgn",
    ]);
    assert_eq!(one.stdout, many.stdout);
    assert_eq!(one.status.code(), many.status.code());
}
