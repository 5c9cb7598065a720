//! Terminal habits: `--color` (and `NO_COLOR`) in the human format, on a real terminal
//! (`script` gives the binary a pseudo-terminal) and in pipes; shell completions run by
//! bash; the manual page rendered by `man`.

mod util;

use std::process::Command;
use util::{TestCommand, planilla};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// `text` without its ANSI colour sequences.
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // ESC [ ... m
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

const ILLEGAL: &str = "corpora/check/illegal.pgn";

/// `--color always` colours severity, code and place, and nothing else changes.
#[test]
fn color_always_colours_the_human_format_only() {
    let plain = planilla(&["check", "--no-config", ILLEGAL]);
    let colored = planilla(&["check", "--no-config", "--color", "always", ILLEGAL]);
    let colored_text = text(&colored.stdout);
    assert!(
        colored_text.contains(
            "\x1b[1mcorpora/check/illegal.pgn:6:34:\x1b[0m \x1b[1;31merror\x1b[0m[\x1b[1millegal-move\x1b[0m] game 1, ply 7 (4. Nxd5)"
        ),
        "{colored_text}"
    );
    assert!(colored_text.contains("\x1b[1;36mnote\x1b[0m[\x1b[1mmissing-tag\x1b[0m]"));
    assert_eq!(strip_ansi(&colored_text), text(&plain.stdout));
    assert_eq!(colored.status.code(), plain.status.code());
    // The option may come before the subcommand too.
    let before = planilla(&["--color", "always", "check", "--no-config", ILLEGAL]);
    assert_eq!(before.stdout, colored.stdout);
    // Machine formats are never coloured.
    for format in ["jsonl", "github", "sarif"] {
        let a = planilla(&["check", "--no-config", "--format", format, ILLEGAL]);
        let b = planilla(&[
            "check",
            "--no-config",
            "--format",
            format,
            "--color",
            "always",
            ILLEGAL,
        ]);
        assert_eq!(a.stdout, b.stdout, "{format}");
    }
    // Into a pipe, auto and never write no colour.
    for choice in ["auto", "never"] {
        let out = planilla(&["check", "--no-config", "--color", choice, ILLEGAL]);
        assert_eq!(out.stdout, plain.stdout, "{choice}");
    }
    // convert's report on standard error.
    let out = TestCommand::new(&["convert", "--color", "always", ILLEGAL]).output();
    assert!(
        text(&out.stderr).contains("\x1b[1;31merror\x1b[0m"),
        "{}",
        text(&out.stderr)
    );
    let out = planilla(&["check", "--color", "sometimes", ILLEGAL]);
    assert_eq!(out.status.code(), Some(2));
}

/// On a terminal, auto colours unless NO_COLOR is set (or TERM is dumb); never wins.
#[test]
fn auto_colours_a_terminal_unless_no_color() {
    let on_terminal = |env: &[(&str, &str)], extra: &str| {
        let line = format!(
            "{} check --no-config {extra} {ILLEGAL}",
            env!("CARGO_BIN_EXE_planilla")
        );
        let mut command = Command::new("script");
        command
            .args(["-qec", &line, "/dev/null"])
            .current_dir(util::root())
            .env_remove("NO_COLOR")
            .env("TERM", "xterm");
        for (k, v) in env {
            command.env(k, v);
        }
        let out = command.output().expect("script (util-linux) runs");
        text(&out.stdout)
    };
    assert!(on_terminal(&[], "").contains("\x1b[1;31merror"));
    assert!(!on_terminal(&[("NO_COLOR", "1")], "").contains('\x1b'));
    assert!(
        on_terminal(&[("NO_COLOR", "")], "").contains('\x1b'),
        "empty NO_COLOR is unset"
    );
    assert!(!on_terminal(&[("TERM", "dumb")], "").contains('\x1b'));
    assert!(!on_terminal(&[], "--color never").contains('\x1b'));
    assert!(on_terminal(&[("NO_COLOR", "1")], "--color always").contains('\x1b'));
}

/// The bash completion script loads in bash and completes subcommands and values.
#[test]
fn bash_completes_subcommands_and_values() {
    let out = planilla(&["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0));
    let dir = util::Dir::new("completions");
    let script = dir.create("planilla.bash", &out.stdout);
    let complete = |words: &str, cword: usize| {
        let program = format!(
            "source '{}'; COMP_WORDS=({words}); COMP_CWORD={cword}; _planilla planilla \"${{COMP_WORDS[$COMP_CWORD]}}\" \"${{COMP_WORDS[$COMP_CWORD-1]}}\"; echo \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let out = Command::new("bash")
            .args(["-c", &program])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout).trim().to_string()
    };
    assert_eq!(complete("planilla ch", 1), "check");
    assert_eq!(
        complete("planilla check --format ''", 3),
        "human jsonl github sarif html"
    );
    assert_eq!(complete("planilla --color ''", 2), "auto always never");
    assert!(complete("planilla check --ru", 2).contains("--rules"));
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let out = planilla(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        assert!(
            script.contains("check") && script.contains("rules"),
            "{shell}"
        );
    }
    assert_eq!(planilla(&["completions", "tcsh"]).status.code(), Some(2));
}

/// `planilla man` is a roff page that man renders, with every subcommand's options.
#[test]
fn the_manual_page_renders() {
    let out = planilla(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let roff = text(&out.stdout);
    assert!(roff.contains(".TH planilla 1"), "{roff}");
    let dir = util::Dir::new("man");
    let page = dir.create("planilla.1", &out.stdout);
    let rendered = Command::new("man")
        .args(["-l", page.to_str().unwrap()])
        .env("MANWIDTH", "100")
        .env("MAN_KEEP_FORMATTING", "0")
        .output()
        .expect("man runs");
    assert!(rendered.status.success(), "{}", text(&rendered.stderr));
    // man justifies its lines with extra spaces: compare words.
    let shown: Vec<String> = strip_backspaces(&text(&rendered.stdout))
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let shown = shown.join("\n");
    for expected in [
        "planilla - Validate and convert chess game records",
        "CHECK",
        "planilla check [--encoding]",
        "--rules <RULES>",
        "by-date",
        "CONVERT",
        "--to <TO>",
        "PERFT",
        "COMPLETIONS",
        "--color <COLOR>",
    ] {
        assert!(shown.contains(expected), "{expected}:\n{shown}");
    }
}

/// Text as man prints it to a pipe may still hold overstrikes (`c\x08c` for bold).
fn strip_backspaces(text: &str) -> String {
    let mut out: Vec<char> = Vec::new();
    for c in text.chars() {
        if c == '\x08' {
            out.pop();
        } else {
            out.push(c);
        }
    }
    out.into_iter().collect()
}
