//! Directories are walked as ripgrep and ruff walk a repository: hidden files,
//! `.gitignore` (inside a git repository), `.ignore` and git's exclude file are
//! respected, `--no-ignore` reads everything, and a file named on the command line is
//! always read.

mod util;

use std::path::Path;
use std::process::{Command, Output};
use util::{Dir, planilla_in};

const GAME: &str = "[Event \"e\"]\n[Site \"?\"]\n[Date \"2024.01.05\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 *\n";

/// The files a JSON Lines run read: those with a game (each has one finding-free game,
/// so they are told by the summary's count and the `-` progress is off).
fn files_read(out: &Output) -> u64 {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    summary["files"].as_u64().unwrap()
}

/// An archive in a git repository with a file of each kind the walk may leave out.
fn archive(name: &str, git: bool) -> Dir {
    let dir = Dir::new(name);
    fill(dir.path(), git);
    dir
}

/// Writes the archive's files into `root`, a git repository when `git`.
fn fill(root: &Path, git: bool) {
    for (path, contents) in [
        ("games/a.pgn", GAME),
        ("games/sub/e.pgn", GAME),
        ("games/.draft.pgn", GAME),
        ("games/.scratch/b.pgn", GAME),
        ("games/build/c.pgn", GAME),
        ("games/old/d.pgn", GAME),
        ("games/local.pgn", GAME),
        ("games/.gitignore", "build/\n"),
        ("games/.ignore", "old/\n"),
    ] {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    if git {
        let status = Command::new("git")
            .args(["init", "--quiet"])
            .current_dir(root)
            .status()
            .expect("git runs");
        assert!(status.success());
        // git's own exclude file of this clone.
        std::fs::write(root.join(".git/info/exclude"), "local.pgn\n").unwrap();
    }
}

fn check(dir: &Dir, args: &[&str]) -> Output {
    let mut all = vec!["check", "-q", "--no-config", "--format", "jsonl"];
    all.extend(args);
    planilla_in(dir.path(), &all)
}

#[test]
fn a_repository_is_walked_as_git_sees_it() {
    let dir = archive("git", true);
    // a.pgn and sub/e.pgn; not the hidden ones, build/ (.gitignore), old/ (.ignore),
    // local.pgn (.git/info/exclude).
    let out = check(&dir, &["games"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(files_read(&out), 2);
    // --no-ignore: all seven.
    assert_eq!(files_read(&check(&dir, &["--no-ignore", "games"])), 7);
    // Files named on the command line are read, ignored or hidden.
    let out = check(
        &dir,
        &["games/build/c.pgn", "games/.draft.pgn", "games/old/d.pgn"],
    );
    assert_eq!(files_read(&out), 3);
    // convert walks alike: two games out.
    let out = planilla_in(dir.path(), &["convert", "-q", "games"]);
    assert_eq!(
        String::from_utf8(out.stdout)
            .unwrap()
            .matches("[Event")
            .count(),
        2
    );
}

#[test]
fn outside_git_only_ignore_files_and_hidden_files_count() {
    // The tests' own directories are inside this repository: this one is made in the
    // system's temporary directory, outside any.
    let outside = std::env::temp_dir().join(format!("planilla-walk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).unwrap();
    fill(&outside, false);
    let out = planilla_in(
        &outside,
        &["check", "-q", "--no-config", "--format", "jsonl", "games"],
    );
    std::fs::remove_dir_all(&outside).unwrap();
    // Without a repository .gitignore means nothing (as for ripgrep): build/c.pgn and
    // local.pgn are read; .ignore still leaves old/ out, hidden files stay out.
    assert_eq!(files_read(&out), 4);
}

#[test]
fn a_directory_of_ignored_files_says_how_to_read_them() {
    let dir = archive("only-ignored", true);
    let out = check(&dir, &["games/build"]);
    assert_eq!(
        files_read(&out),
        1,
        "a directory named on the command line is walked"
    );
    let out = check(&dir, &["games/.scratch"]);
    assert_eq!(
        files_read(&out),
        1,
        "hidden directories named are walked too"
    );
    std::fs::write(dir.path().join("games/old/.ignore"), "*.pgn\n").unwrap();
    let out = check(&dir, &["games/old"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("games/old: directory holds no .pgn file (nor .pgn.zst, .pgn.gz, .pgn.bz2) that is not hidden or ignored (--no-ignore reads them)"),
        "{err}"
    );
    assert_eq!(files_read(&check(&dir, &["--no-ignore", "games/old"])), 1);
}
