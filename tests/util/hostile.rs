//! What the hostile-input tests share, the small ones (`tests/hostile.rs`) and the
//! full-size ones (`tests/hostile_full/`): a good game to put around the damage, the
//! place of a byte, and the promises every run keeps.

use planilla_parser::{Game, ReaderBuilder};
use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::process::{ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use super::{command, planilla_stdin};

/// A game with no finding at all (7 lines, the last one blank).
pub fn good(i: usize) -> String {
    format!(
        "[Event \"good {i}\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
    )
}

/// 1-based line and column of byte `at` (ASCII text).
pub fn place(data: &[u8], at: usize) -> (u64, u64) {
    let before = &data[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, (at - start) as u64 + 1)
}

/// The findings and the summary of a `--format jsonl` run, after the promises every run
/// keeps: no panic, exit status 0 or 1, every line JSON.
pub fn report(out: &Output, what: &str) -> (Vec<Value>, Value) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{what}: exit status {:?}: {stderr}",
        out.status
    );
    let mut findings = Vec::new();
    let mut summary = Value::Null;
    for line in out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let value: Value = serde_json::from_slice(line).unwrap_or_else(|e| {
            panic!("{what}: not JSON ({e}): {}", String::from_utf8_lossy(line))
        });
        match value["type"].as_str() {
            Some("finding") => findings.push(value),
            Some("summary") => summary = value,
            _ => panic!("{what}: unexpected line {value}"),
        }
    }
    (findings, summary)
}

/// `planilla check --format jsonl -` on `data`: its findings and summary ([`report`]).
pub fn check_bytes(data: &[u8], what: &str) -> (Vec<Value>, Value) {
    // The hostile games carry only the tags their damage needs: the Seven Tag Roster's
    // missing tags are no part of what these tests count.
    let out = planilla_stdin(
        &["check", "--format", "jsonl", "--ignore", "missing-tag", "-"],
        data,
    );
    report(&out, what)
}

/// Asserts a finding of `code` in `game` at `(line, column)` whose message holds `text`.
pub fn assert_finding(findings: &[Value], game: u64, code: &str, at: (u64, u64), text: &str) {
    let found = findings.iter().any(|f| {
        f["game"] == game
            && f["code"] == code
            && (f["line"].as_u64(), f["column"].as_u64()) == (Some(at.0), Some(at.1))
            && f["message"].as_str().is_some_and(|m| m.contains(text))
    });
    assert!(
        found,
        "no {code} '{text}' in game {game} at {}:{}; findings: {findings:#?}",
        at.0, at.1
    );
}

/// Asserts that none of `games` has a finding (the good games around the damage).
pub fn assert_clean(findings: &[Value], games: &[u64]) {
    for f in findings {
        assert!(
            !games.iter().any(|g| f["game"] == *g),
            "good game {} has a finding: {f}",
            f["game"]
        );
    }
}

/// `n` games whose third move is illegal (a king walking into check).
pub fn illegal_games(n: usize) -> String {
    (0..n)
        .map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Ke3 *\n\n"))
        .collect()
}

/// Reads every game, checking what the reader promises: games are contiguous, and each
/// game keeps the promises of `planilla_testkit::check_game` (tokens tile it, findings
/// lie inside it). Returns the number of games.
pub fn read_all(data: &[u8], builder: ReaderBuilder) -> u64 {
    let mut reader = builder.build(data);
    let mut game = Game::new();
    let mut at = if data.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    while reader.read_game(&mut game).expect("reading a slice") {
        assert_eq!(game.offset(), at, "games must be contiguous");
        let kept = game.bytes();
        assert_eq!(&data[at as usize..at as usize + kept.len()], kept);
        planilla_testkit::check_game(&game);
        at += game.len_in_file();
    }
    reader.games_read()
}

/// Runs `planilla ARGS... PATH` into a pipe whose reader goes away after the first `bytes`
/// bytes; returns the exit status and what the run said on standard error (read
/// meanwhile: a full pipe there would block the run).
///
/// # Panics
///
/// When the run goes on 30 seconds after the pipe closed.
pub fn into_a_closed_pipe(args: &[&str], path: &Path, bytes: usize) -> (ExitStatus, String) {
    let mut child = command()
        .args(args)
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let said = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut first = vec![0u8; bytes];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe's reader is gone now: the run stops at once.
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{args:?}: still running 30 s after the pipe closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status, said.join().unwrap())
}
