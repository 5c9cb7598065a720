//! End-to-end tests of byte ranges: `check --range` and `fix --range`, with and without
//! `--index` (written by `planilla index`), at `-j1` and `-j2`. The property: the ranges
//! of any partition of a file, their outputs put together in order, give the whole
//! file's output byte for byte, and their summaries add up to its summary.

mod util;

use std::path::{Path, PathBuf};
use util::{Dir, planilla, root};

/// A small deterministic generator of cut points.
struct Cuts(u64);

impl Cuts {
    fn next(&mut self, below: u64) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % below.max(1)
    }

    /// `n` cut points of a file of `size` bytes, sorted, from 0 to `size`.
    fn partition(&mut self, size: u64, n: usize) -> Vec<u64> {
        let mut cuts: Vec<u64> = (0..n).map(|_| self.next(size + 1)).collect();
        cuts.extend([0, size]);
        cuts.sort_unstable();
        cuts
    }
}

/// The finding lines and the summary of a JSON Lines report.
fn split_report(out: &[u8]) -> (Vec<String>, serde_json::Value) {
    let text = String::from_utf8_lossy(out);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let summary = serde_json::from_str(&lines.pop().expect("a summary")).unwrap();
    (lines, summary)
}

/// Checks that the ranges of `cuts` give `file`'s whole output, with the options `extra`
/// (and, for the ranges, `--index` when an index is given).
fn assert_ranges_tile(file: &Path, cuts: &[u64], extra: &[&str], index: Option<&Path>) {
    let path = file.to_str().unwrap();
    let mut args = vec!["check", "--format", "jsonl", "--fail-on", "never"];
    args.extend_from_slice(extra);
    let whole = planilla(&[&args[..], &[path]].concat());
    assert_eq!(
        whole.status.code(),
        Some(0),
        "{path}: {}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let (expected, summary) = split_report(&whole.stdout);
    let (mut lines, mut games, mut plies) = (Vec::new(), 0, 0);
    for pair in cuts.windows(2) {
        let range = format!("{}:{}", pair[0], pair[1]);
        let mut ranged = args.clone();
        if let Some(index) = index {
            ranged.extend(["--index", index.to_str().unwrap()]);
        }
        let out = planilla(&[&ranged[..], &["--range", &range, path]].concat());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{path} {range}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (found, part) = split_report(&out.stdout);
        lines.extend(found);
        games += part["games"].as_u64().unwrap();
        plies += part["plies"].as_u64().unwrap();
    }
    assert!(
        lines == expected,
        "{path}: the ranges {cuts:?} {extra:?} differ from the whole"
    );
    assert_eq!(
        (games, plies),
        (
            summary["games"].as_u64().unwrap(),
            summary["plies"].as_u64().unwrap()
        )
    );
}

/// The files of the golden corpora, and hostile ones written here: a comment left open, a
/// byte order mark, separator lines, Latin-1 text cut in the middle of nothing, games
/// without tags.
fn inputs(dir: &Dir) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["corpora/check", "corpora/fix", "corpora/fix/broken"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root().join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let separator = format!("\n{}\n", planilla_parser::SEPARATOR);
    files.push(
        dir.create(
            "hostile.pgn",
            [
                &b"\xEF\xBB\xBF[Event \"Caf\xc3\xa9\"]\n\n1. e4 {open\n[Event \"b\"]\n\n1. d4 *\n"
                    [..],
                b"1. e4 e5 *\n1. c4 {x} *\n",
                separator.as_bytes(),
                b"[White \"M\xfcller\"]\n1. Nf3 d5 2. g3\n",
                b"{cut",
                separator.as_bytes(),
                b"\n\n[Event \"last\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
            ]
            .concat(),
        ),
    );
    files
}

#[test]
fn any_partition_gives_the_whole_file() {
    let dir = Dir::new("ranges");
    let mut cuts = Cuts(0x9E37_79B9_7F4A_7C15);
    for file in inputs(&dir) {
        let size = std::fs::metadata(&file).unwrap().len();
        for n in [0, 1, 3, 9] {
            let partition = cuts.partition(size, n);
            for threads in ["-j1", "-j2"] {
                assert_ranges_tile(&file, &partition, &[threads], None);
            }
        }
        // Every single cut of a small file.
        if size < 600 {
            for cut in 0..=size {
                assert_ranges_tile(&file, &[0, cut, size], &["-j1"], None);
            }
        }
    }
}

/// A file of several mebibytes: its index has marks past the start, which `--index`
/// starts from; ranges with and without it, at -j1 and -j2, tile the file.
#[test]
fn the_index_gives_the_same_games_as_reading_from_the_start() {
    let dir = Dir::new("ranges-index");
    let one = std::fs::read(root().join("corpora/check/draws.pgn")).unwrap();
    let big = dir.create("big.pgn", one.repeat((3 << 20) / one.len() + 1));
    let index = dir.path().join("big.pgn.idx");
    let out = planilla(&["index", big.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&index).unwrap();
    assert!(text.lines().count() >= 5, "{text}");
    let size = std::fs::metadata(&big).unwrap().len();
    let mut cuts = Cuts(7);
    let partition = cuts.partition(size, 5);
    for threads in ["-j1", "-j2"] {
        assert_ranges_tile(&big, &partition, &[threads], None);
        assert_ranges_tile(&big, &partition, &[threads], Some(&index));
    }
    // `-o -` writes it to standard output, the same text.
    let out = planilla(&["index", "-o", "-", big.to_str().unwrap()]);
    assert_eq!(out.stdout, text.as_bytes());
}

#[test]
fn what_cannot_be_read_by_ranges_is_refused() {
    let dir = Dir::new("ranges-refused");
    let plain = root().join("corpora/check/draws.pgn");
    let gz = dir.create("a.pgn.gz", {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&std::fs::read(&plain).unwrap()).unwrap();
        e.finish().unwrap()
    });
    let out = planilla(&["check", "--range", "0:100", gz.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("gzip data cannot be read by byte ranges")
    );
    let out = planilla(&[
        "check",
        "--range",
        "0:100",
        plain.to_str().unwrap(),
        plain.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = planilla(&["check", "--range", "9:1", plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = planilla(&[
        "check",
        "--range",
        "0:9",
        "--archive",
        plain.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    // An index of another file.
    let index = dir.create("other.idx", "planilla index 1\nsize 5\n0 1 0 0\n");
    let out = planilla(&[
        "check",
        "--range",
        "0:9",
        "--index",
        index.to_str().unwrap(),
        plain.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("index it again"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `fix --range`: the ranges' fixed games, put together, are the whole file's.
#[test]
fn fix_by_ranges_writes_the_whole_files_games() {
    let dir = Dir::new("ranges-fix");
    for name in [
        "corpora/fix/results.pgn",
        "corpora/fix/spanish.pgn",
        "corpora/fix/rejects.pgn",
    ] {
        let file = root().join(name);
        let path = file.to_str().unwrap();
        let size = std::fs::metadata(&file).unwrap().len();
        let whole = planilla(&["fix", "-q", path]);
        let mut joined = Vec::new();
        for pair in Cuts(size).partition(size, 4).windows(2) {
            let out = dir.path().join("part.pgn");
            let range = format!("{}:{}", pair[0], pair[1]);
            planilla(&[
                "fix",
                "-q",
                "-o",
                out.to_str().unwrap(),
                "--range",
                &range,
                path,
            ]);
            joined.extend(std::fs::read(&out).unwrap_or_default());
        }
        assert!(joined == whole.stdout, "{name}");
    }
}
