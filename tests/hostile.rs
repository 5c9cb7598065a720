//! Hostile and broken input, the small and fast cases (the full-size ones, with memory and
//! time measured, are `tests/hostile_full`, run by `.ci/run` with `--ignored`):
//!
//! - files cut in a tag, a comment or a move, on disk and on standard input;
//! - NUL bytes and invalid UTF-8, UTF-16 text, lone-CR line ends, floods of garbage,
//!   variations nested too deep, games over the size limit (a long comment, a long run of
//!   blank lines, a long line) with good games around them;
//! - a closed output pipe, a full disk, a directory with a symlink loop and a dangling
//!   link.
//!
//! The crash inputs the fuzzers found are replayed by `tests/fuzz_regressions.rs`.

mod util;

use planilla_parser::{FindingKind, Game, Reader, ReaderBuilder};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use util::hostile::{
    assert_clean, assert_finding, check_bytes, good, illegal_games, into_a_closed_pipe, place,
    read_all,
};
use util::{Dir, command, planilla};

#[test]
fn a_file_cut_in_a_tag_a_comment_or_a_move_is_reported_at_the_cut() {
    let head = format!("{}{}", good(1), good(2)).into_bytes();
    let third = b"[Event \"x\"]\n[Result \"*\"]\n\n1. e4 ";
    // The damage is at the last `mark` in what is left after the cut.
    let cuts: [(&[u8], &[u8], &str, &str); 4] = [
        (b"[Event \"cut", b"[", "syntax-error", "malformed tag pair"),
        (
            b"{the file ends her",
            b"{",
            "syntax-error",
            "unterminated comment",
        ),
        (b"e5 2. Nf", b"Nf", "syntax-error", "unexpected 'Nf'"),
        // Cut at a line end between two moves: every token is whole, only the
        // termination marker is missing, right after the last move.
        (
            b"e5 2. Nf3\n",
            b"\n",
            "syntax-error",
            "the game ends without a result",
        ),
    ];
    for (i, (rest, mark, code, text)) in cuts.into_iter().enumerate() {
        let mut data = head.clone();
        if i > 0 {
            data.extend_from_slice(third);
        }
        data.extend_from_slice(rest);
        let at =
            data.len() - rest.len() + rest.windows(mark.len()).rposition(|w| w == mark).unwrap();
        let (findings, summary) = check_bytes(&data, text);
        assert_eq!(summary["games"], 3, "{text}");
        assert_clean(&findings, &[1, 2]);
        assert_finding(&findings, 3, code, place(&data, at), text);
        assert!(findings.iter().all(|f| f["file"] == "<stdin>"));
    }
}

#[test]
fn nul_bytes_and_invalid_utf8_are_found_where_they_are() {
    let damaged = b"[Event \"d\"]\n[White \"a\x00b\"]\n[Result \"*\"]\n\n\
                    1. e4 \x00 e5 {a \xff comment} 2. Nf3 \xff Nc6 {nul \x00 here} *\n\n";
    let mut data = good(1).into_bytes();
    data.extend_from_slice(damaged);
    data.extend_from_slice(good(3).as_bytes());
    // The `nth` occurrence (1-based) of `needle` in the damaged game.
    let at = |needle: &[u8], nth: usize| {
        let mut from = good(1).len();
        for i in 0..nth {
            from += data[from..]
                .windows(needle.len())
                .position(|w| w == needle)
                .unwrap();
            if i + 1 < nth {
                from += 1;
            }
        }
        from
    };
    let (findings, summary) = check_bytes(&data, "damaged");
    assert_eq!(summary["games"], 3);
    assert_clean(&findings, &[1, 3]);
    assert_finding(
        &findings,
        2,
        "syntax-error",
        place(&data, at(b"\x00", 1)),
        "NUL byte in a tag pair",
    );
    assert_finding(
        &findings,
        2,
        "syntax-error",
        place(&data, at(b"\x00", 2)),
        "unexpected '\\0'",
    );
    assert_finding(
        &findings,
        2,
        "syntax-error",
        place(&data, at(b" \xff ", 2) + 1),
        "unexpected '\u{ff}'",
    );
    assert_finding(
        &findings,
        2,
        "encoding",
        place(&data, at(b"{a", 1)),
        "windows-1252",
    );
}

#[test]
fn utf16_text_is_read_and_lone_cr_line_ends_are_named() {
    let text = format!("{}{}", good(1), good(2));
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    // Read as its UTF-8 text: both games clean, the note naming UTF-16 at the start.
    let (findings, _) = check_bytes(&utf16, "utf-16");
    assert_finding(&findings, 1, "encoding", (1, 1), "UTF-16 (little-endian)");
    assert_eq!(findings.len(), 1, "{findings:?}");
    let cr = text.replace('\n', "\r");
    let (findings, _) = check_bytes(cr.as_bytes(), "lone CR");
    let first_cr = cr.find('\r').unwrap() as u64;
    assert_finding(&findings, 1, "syntax-error", (1, first_cr + 1), "lone CR");
    assert_eq!(
        findings[0]["message"]
            .as_str()
            .map(|m| m.contains("lone CR")),
        Some(true)
    );
}

#[test]
fn a_flood_of_garbage_is_counted_not_listed() {
    let mut data = good(1).into_bytes();
    data.extend_from_slice(b"[Event \"flood\"]\n\n1. e4 ");
    let first = data.len();
    data.extend_from_slice(&b") ".repeat(3000));
    data.extend_from_slice(b"*\n\n");
    data.extend_from_slice(good(3).as_bytes());
    let (findings, summary) = check_bytes(&data, "flood");
    assert_eq!(summary["games"], 3);
    assert_clean(&findings, &[1, 3]);
    let listed = findings
        .iter()
        .filter(|f| f["message"] == "unmatched ')'")
        .count();
    assert_eq!(listed, planilla_parser::MAX_SYNTAX_FINDINGS);
    let first_unlisted = first + 2 * planilla_parser::MAX_SYNTAX_FINDINGS;
    assert_finding(
        &findings,
        2,
        "syntax-error",
        place(&data, first_unlisted),
        "2000 more syntax errors",
    );
}

#[test]
fn variations_nested_too_deep_are_reported_at_the_limit() {
    let head = format!("{}[Event \"deep\"]\n[Result \"*\"]\n\n1. e4 ", good(1));
    let data = format!(
        "{head}{}{} e5 *\n\n{}",
        "(1. d4 ".repeat(300),
        ")".repeat(300),
        good(3)
    );
    let deepest =
        head.len() + "(1. d4 ".len() * planilla_parser::DEFAULT_MAX_VARIATION_DEPTH as usize;
    let (findings, summary) = check_bytes(data.as_bytes(), "deep");
    assert_eq!(summary["games"], 3);
    assert_clean(&findings, &[1, 3]);
    assert_finding(
        &findings,
        2,
        "syntax-error",
        place(data.as_bytes(), deepest),
        "nested deeper than 256",
    );
}

/// A game over the size limit, between good games, whatever makes it large: only its tag
/// section is kept, with a finding, and the games after it are read whole, at their line.
#[test]
fn an_oversized_game_is_skipped_and_the_next_one_read() {
    let fillers: [(&str, Vec<u8>); 4] = [
        (
            "comment",
            [b"{".as_slice(), &b"a comment line\n".repeat(20_000), b"}"].concat(),
        ),
        (
            "unclosed comment",
            [b"{".as_slice(), &b"never closed\n".repeat(20_000)].concat(),
        ),
        ("blank lines", b"\n".repeat(300_000)),
        ("one long line", b"Nf3 Nf6 ".repeat(40_000)),
    ];
    for (what, filler) in fillers {
        let mut data = good(1).into_bytes();
        data.extend_from_slice(b"[Event \"big\"]\n[Result \"*\"]\n\n1. e4 ");
        data.extend_from_slice(&filler);
        data.extend_from_slice(b" e5 *\n\n");
        let third = data.len();
        data.extend_from_slice(good(3).as_bytes());
        for buffer in [61, 4096] {
            let mut reader = ReaderBuilder::new()
                .buffer_size(buffer)
                .max_game_size(64 * 1024)
                .build(&data[..]);
            let mut game = Game::new();
            let mut games = Vec::new();
            while reader.read_game(&mut game).unwrap() {
                games.push(game.clone());
            }
            assert_eq!(games.len(), 3, "{what}");
            assert!(games[0].findings().is_empty(), "{what}");
            assert_eq!(
                games[1].findings()[0].kind,
                FindingKind::GameTooLarge,
                "{what}"
            );
            assert_eq!(games[1].tag("Event").as_deref(), Some("big"), "{what}");
            assert_eq!(games[2].offset() as usize, third, "{what}");
            assert_eq!(games[2].first_line(), place(&data, third).0, "{what}");
            assert!(games[2].findings().is_empty(), "{what}");
            assert_eq!(games[2].bytes(), good(3).as_bytes(), "{what}");
        }
    }
}

#[test]
fn megabytes_of_junk_after_a_result_leave_the_game_before_it_whole() {
    // A good game, then 2.2 MB of dotted lines (over the limit of 2^20 tokens a game),
    // then a good game: the first game's moves end with its result, so they are checked
    // (mate and all); the junk is a game of its own, skipped and reported where it
    // starts; the last game is read.
    let mut data = good(1).into_bytes();
    let junk_at = data.len();
    data.extend_from_slice(&b". . . . . . . . . .\n".repeat(110_000));
    assert!(data.len() > 2_000_000);
    data.extend_from_slice(b"\n");
    data.extend_from_slice(good(3).as_bytes());
    let (findings, summary) = check_bytes(&data, "junk after a result");
    assert_eq!(summary["games"], 3, "{summary}");
    assert_eq!(summary["plies"], 14, "{summary}");
    assert_clean(&findings, &[1, 3]);
    assert_finding(
        &findings,
        2,
        "syntax-error",
        place(&data, junk_at),
        "game with more than 1048576 tokens",
    );
    assert_eq!(findings.len(), 1, "{findings:#?}");
}

#[test]
fn standard_input_closed_early() {
    // The writer stops in the middle of the first move of the second game: `1. e`.
    let data = format!("{}{}", good(1), good(2));
    let cut = data[good(1).len()..].find("1. e4").unwrap() + good(1).len() + 4;
    let (findings, summary) = check_bytes(&data.as_bytes()[..cut], "cut stdin");
    assert_eq!(summary["games"], 2);
    assert_clean(&findings, &[1]);
    let at = place(data.as_bytes(), cut - 1);
    assert_finding(&findings, 2, "syntax-error", at, "unexpected 'e'");
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let dir = Dir::new("closed-pipe");
    let dir = dir.path();
    let illegal = dir.join("illegal.pgn");
    std::fs::write(&illegal, illegal_games(20_000)).unwrap();
    let legal = dir.join("legal.pgn");
    std::fs::write(&legal, (0..20_000).map(good).collect::<String>()).unwrap();
    for (args, path) in [
        (&["check", "--format", "jsonl"][..], &illegal),
        (&["convert"][..], &legal),
    ] {
        let (status, said) = into_a_closed_pipe(args, path, 64);
        assert_eq!(status.code(), Some(0), "{args:?}");
        assert_eq!(said, "", "{args:?}");
    }
}

#[test]
fn a_full_disk_is_exit_status_2_with_a_message() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let dir = Dir::new("disk-full");
    let dir = dir.path();
    let path = dir.join("illegal.pgn");
    std::fs::write(&path, illegal_games(2_000)).unwrap();
    for args in [&["check"][..], &["convert"][..]] {
        let out = command()
            .args(args)
            .arg(&path)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.to_lowercase().contains("space"),
            "{args:?}: {stderr}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_directory_with_a_symlink_loop_and_a_dangling_link() {
    let dir = Dir::new("tree");
    let dir = dir.path();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.pgn"), good(1)).unwrap();
    std::fs::write(dir.join("sub/b.pgn"), format!("{}{}", good(1), good(2))).unwrap();
    std::os::unix::fs::symlink("..", dir.join("sub/loop")).unwrap();
    std::os::unix::fs::symlink("missing.pgn", dir.join("dangling.pgn")).unwrap();
    let out = planilla(&["check", "--format", "jsonl", dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("dangling.pgn"), "{stderr}");
    let summary = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice::<Value>(l).unwrap())
        .find(|v| v["type"] == "summary")
        .unwrap();
    assert_eq!(summary["games"], 3);
}

#[test]
fn reading_a_slice_never_fails() {
    // Empty, whitespace only, a byte order mark only: no game, no error.
    for data in [&b""[..], b" \n\t\n", b"\xEF\xBB\xBF", b"\xEF\xBB"] {
        let games = read_all(data, ReaderBuilder::new());
        assert!(games <= 1, "{data:?}");
    }
    assert_eq!(read_all(b"*", ReaderBuilder::new()), 1);
    let _ = Reader::new(&b""[..]).games_read();
}

#[test]
fn a_read_error_comes_after_every_game_read_before_it() {
    struct Failing(Vec<u8>, usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.1 == self.0.len() {
                return Err(std::io::Error::other("incomplete deflate stream"));
            }
            let n = buf.len().min(self.0.len() - self.1);
            buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 += n;
            Ok(n)
        }
    }
    // Cut in the second game, and right after a complete game (the reader had not yet
    // seen the line that would start the next one).
    for (data, games) in [
        (format!("{}{}", good(1), &good(2)[..20]), 2),
        (format!("{}{}", good(1), good(2).trim_end()), 2),
    ] {
        let len = data.len();
        let mut reader = Reader::new(Failing(data.into_bytes(), 0));
        let mut game = Game::new();
        for _ in 0..games {
            assert!(reader.read_game(&mut game).unwrap());
        }
        let error = reader.read_game(&mut game).unwrap_err().to_string();
        assert_eq!(
            error,
            format!("after {len} bytes of text ({games} games read): incomplete deflate stream")
        );
    }
}

/// The summary line of a `--format jsonl` run.
fn summary_of(stdout: &[u8]) -> Value {
    stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice::<Value>(l).unwrap())
        .find(|v| v["type"] == "summary")
        .expect("a summary line")
}

/// A `.pgn.gz` cut short reads as its decoded text would (`zcat | planilla`): every game
/// read before the cut is checked and converted, the one cut too, then the file is named
/// with the text and games read, and the status is 2; `convert -o` leaves the old file
/// as it was.
#[test]
fn a_compressed_file_cut_short_reads_as_the_text_before_the_cut() {
    use flate2::{Compression, read::MultiGzDecoder, write::GzEncoder};
    let dir = Dir::new("compressed-cut");
    let dir = dir.path();
    let text: String = (1..=3000).map(good).collect();
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let packed = gz.finish().unwrap();
    let cut_packed = &packed[..packed.len() * 9 / 10];
    let path = dir.join("cut.pgn.gz");
    std::fs::write(&path, cut_packed).unwrap();
    let path = path.to_str().unwrap();
    // What `zcat` writes before it fails.
    let mut prefix = Vec::new();
    let mut decoder = MultiGzDecoder::new(cut_packed);
    let mut chunk = [0u8; 4096];
    while let Ok(n) = decoder.read(&mut chunk) {
        if n == 0 {
            break;
        }
        prefix.extend_from_slice(&chunk[..n]);
    }
    let games = prefix.windows(7).filter(|w| w == b"[Event ").count();
    assert!(games > 600 && games < 3000, "{games}");
    let text_path = dir.join("prefix.pgn");
    std::fs::write(&text_path, &prefix).unwrap();
    let text_path = text_path.to_str().unwrap();

    let out = planilla(&["check", "--format", "jsonl", path]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let said = format!(
        "cut.pgn.gz: cannot read: after {} bytes of text ({games} games read): ",
        prefix.len()
    );
    assert!(stderr.contains(&said), "{stderr}");
    let plain = planilla(&["check", "--format", "jsonl", text_path]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).replace(path, "F"),
        String::from_utf8_lossy(&plain.stdout).replace(text_path, "F"),
        "the findings of the text before the cut"
    );
    assert_eq!(summary_of(&out.stdout)["games"], games as u64);

    // To standard output: the games read, then status 2.
    let out = planilla(&["convert", path]);
    assert_eq!(out.status.code(), Some(2));
    let plain = planilla(&["convert", text_path]);
    assert!(out.stdout == plain.stdout, "the games before the cut");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read: after "));

    // To a file: the old one stays, and no temporary file is left.
    let dest = dir.join("out.pgn");
    std::fs::write(&dest, "old contents").unwrap();
    let out = planilla(&["convert", "-o", dest.to_str().unwrap(), path]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("out.pgn: not written"), "{stderr}");
    assert_eq!(std::fs::read(&dest).unwrap(), b"old contents");
    let mut left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["cut.pgn.gz", "out.pgn", "prefix.pgn"],
        "a temporary file was left"
    );
}

/// Waits at most `secs` for a child; kills it and fails when it is still running.
fn wait_for(child: &mut std::process::Child, secs: u64, what: &str) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed().as_secs() >= secs {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// A FIFO found while searching a directory is named and skipped (opening it would wait
/// for a writer forever); named on the command line, it is read.
#[cfg(unix)]
#[test]
fn a_fifo_in_a_directory_is_skipped_and_read_when_named() {
    let dir = Dir::new("fifo");
    let dir = dir.path();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.pgn"), good(1)).unwrap();
    let fifo = dir.join("sub/fifo.pgn");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo here
    }
    // At -j2 a regular file is read at offsets; a FIFO must be opened only once.
    let check = |path: &Path| {
        command()
            .args(["check", "-j2", "--format", "jsonl"])
            .arg(path)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut child = check(dir);
    let status = wait_for(&mut child, 30, "a directory with a FIFO");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("sub/fifo.pgn: skipped: a FIFO, not a regular file"),
        "{stderr}"
    );
    assert_eq!(summary_of(&out.stdout)["games"], 1);

    // Named on the command line (as `<(zcat x.pgn.gz)` is), the FIFO is read.
    let mut child = check(&fifo);
    let writer = std::thread::spawn(move || {
        let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        pipe.write_all(format!("{}{}", good(1), good(2)).as_bytes())
            .unwrap();
    });
    let status = wait_for(&mut child, 30, "a FIFO named on the command line");
    writer.join().unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(summary_of(&out.stdout)["games"], 2);
}

/// `convert -o` interrupted by SIGINT, SIGTERM or SIGHUP: the temporary file is removed,
/// the destination is untouched, and the process ends by that signal (a shell reports
/// 128 + its number).
#[cfg(unix)]
#[test]
fn an_interrupted_convert_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let dir = Dir::new("interrupted");
    let dir = dir.path();
    let dest = dir.join("out.pgn");
    for (name, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        std::fs::write(&dest, "old contents").unwrap();
        // Standard input stays open: the run is surely in the middle when the signal comes.
        let mut child = command()
            .args(["convert", "-o"])
            .arg(&dest)
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all((1..=2000).map(good).collect::<String>().as_bytes())
            .unwrap();
        let temp = dir.join(format!(".out.pgn.planilla-{}.tmp", child.id()));
        let start = std::time::Instant::now();
        while !temp.exists() {
            assert!(
                start.elapsed().as_secs() < 30,
                "SIG{name}: no temporary file"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let sent = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
        let status = wait_for(&mut child, 30, &format!("SIG{name}"));
        drop(stdin);
        assert_eq!(status.signal(), Some(number), "SIG{name}: {status:?}");
        assert!(!temp.exists(), "SIG{name}: the temporary file was left");
        assert_eq!(std::fs::read(&dest).unwrap(), b"old contents", "SIG{name}");
        let mut left: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["out.pgn"], "SIG{name}");
    }
}

/// A control byte stuck to a move (a NUL, a DOS end-of-file byte, ESC) is reported at the
/// byte, and the move before it is read: the game replays on with no false illegal move.
#[test]
fn a_control_byte_stuck_to_a_move_is_reported_alone() {
    for byte in [0u8, 0x1a, 0x1b, 0x07, 0x7f] {
        let mut data = b"[Event \"E1\"]\n[Result \"*\"]\n\n1. e4 e5".to_vec();
        data.push(byte);
        data.extend_from_slice(b" 2. Nf3 Nc6 *\n");
        let (findings, summary) = check_bytes(&data, "control byte");
        assert_eq!(findings.len(), 1, "{byte:#x}: {findings:#?}");
        assert_finding(&findings, 1, "syntax-error", (4, 9), "unexpected");
        assert_eq!(summary["plies"], 4, "{byte:#x}");
    }
}

/// A file cut in a tag and followed by the next game (`cat cut.pgn next.pgn`): the cut
/// is a malformed tag pair, and the next game's Event starts a game of its own, its
/// moves replayed from its own start (not from the cut game's FEN). Glued on the cut
/// line, the next game's first tag is in the cut value: reported there.
#[test]
fn a_file_cut_in_a_tag_keeps_the_next_game_apart() {
    let cut = "[Event \"E1\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\
               [White \"Trunc\n[Event \"E2\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n";
    let (findings, summary) = check_bytes(cut.as_bytes(), "cut in a tag");
    assert_eq!(summary["games"], 2);
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_finding(&findings, 1, "syntax-error", (4, 1), "malformed tag pair");

    let glued = "[Event \"E1\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Event \"E2\"]\n\
                 [White \"Tru[Event \"E3\"]\n[Result \"1-0\"]\n\n1. d4 d5 1-0\n";
    let (findings, _) = check_bytes(glued.as_bytes(), "glued");
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_finding(&findings, 2, "syntax-error", (7, 1), "malformed tag pair");
    // Quotes inside a value are still read leniently.
    let quotes = "[Event \"The \"Best\" game\"]\n[Result \"*\"]\n\n1. e4 *\n";
    let (findings, _) = check_bytes(quotes.as_bytes(), "quotes");
    assert!(findings.is_empty(), "{findings:#?}");
}

/// Compressed data in a file named like plain PGN (`games.pgn` that is gzip or zstd)
/// is found by its first bytes, as on standard input, and reads as its text.
#[test]
fn compressed_data_under_a_plain_name_is_decoded() {
    use flate2::{Compression, write::GzEncoder};
    let dir = Dir::new("compressed-plain-name");
    let dir = dir.path();
    let text: String = (1..=3).map(good).collect();
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let gz_path = dir.join("games.pgn");
    std::fs::write(&gz_path, gz.finish().unwrap()).unwrap();
    let zst_path = dir.join("other.pgn");
    std::fs::write(&zst_path, zstd::encode_all(text.as_bytes(), 3).unwrap()).unwrap();
    // At -j2 a regular file is first opened to be read at offsets: one whose bytes say
    // it is compressed is streamed and decoded instead, from its first byte.
    for threads in ["-j1", "-j2"] {
        for path in [&gz_path, &zst_path] {
            let what = format!("{} {threads}", path.display());
            let out = planilla(&[
                "check",
                threads,
                "--format",
                "jsonl",
                path.to_str().unwrap(),
            ]);
            assert_eq!(out.status.code(), Some(0), "{what}");
            let summary = summary_of(&out.stdout);
            assert_eq!(summary["games"], 3, "{what}");
            assert_eq!(summary["errors"], 0, "{what}");
        }
    }
}
