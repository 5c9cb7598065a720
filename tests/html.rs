//! End-to-end tests of `planilla check --format html`: the page holds every finding of
//! the JSON Lines report and its summary, loads nothing from the network, cannot be
//! broken out of by the text of a game, keeps each game's text bounded, and is the same
//! for every number of threads. What the page's script makes of it in a real browser is
//! tested by `scripts/test-html-report`.

mod util;

use serde_json::Value;
use std::process::Output;
use util::{Dir, planilla, planilla_stdin};

/// The shipped golden inputs, sorted.
fn corpus() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(util::root().join("corpora/check"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .map(|p| format!("corpora/check/{}", p.file_name().unwrap().to_str().unwrap()))
        .collect();
    files.sort();
    files
}

fn check(format: &str, extra: &[&str], files: &[String]) -> Output {
    let mut args = vec!["check", "--format", format];
    args.extend_from_slice(extra);
    args.extend(files.iter().map(String::as_str));
    planilla(&args)
}

/// The page as text, after the promises every page keeps: one HTML document whose only
/// scripts are the data block, the summary block and the page's own script.
fn page(out: &Output) -> String {
    let page = String::from_utf8(out.stdout.clone()).expect("the page is UTF-8");
    assert!(page.starts_with("<!DOCTYPE html>\n<html"), "{page:.200}");
    assert!(page.ends_with("</body>\n</html>\n"));
    assert_eq!(page.matches("<html").count(), 1);
    assert_eq!(page.matches("</html>").count(), 1);
    assert_eq!(
        page.matches("<script").count(),
        3,
        "a text from the input opened a script"
    );
    assert_eq!(page.matches("</script>").count(), 3);
    page
}

/// The text of the `<script type="application/json">` block `id`.
fn block<'a>(page: &'a str, id: &str) -> &'a str {
    let open = format!("<script type=\"application/json\" id=\"{id}\">");
    let start = page.find(&open).unwrap_or_else(|| panic!("no block {id}")) + open.len();
    let len = page[start..].find("</script>").unwrap();
    &page[start..start + len]
}

/// The data block's entries: games' texts and findings, in order.
fn entries(page: &str) -> Vec<Value> {
    serde_json::from_str(block(page, "planilla-data")).expect("the data block is JSON")
}

fn of_type<'a>(entries: &'a [Value], kind: &str) -> Vec<&'a Value> {
    entries.iter().filter(|e| e["type"] == kind).collect()
}

/// The findings and summary of a JSON Lines report.
fn jsonl(out: &Output) -> (Vec<Value>, Value) {
    let mut findings = Vec::new();
    let mut summary = Value::Null;
    for line in out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let value: Value = serde_json::from_slice(line).unwrap();
        match value["type"].as_str() {
            Some("finding") => findings.push(value),
            _ => summary = value,
        }
    }
    (findings, summary)
}

/// A game's text comes once before each run of its findings (a finding about a file, with
/// no game, none), and only for games with one.
fn texts_before_findings(entries: &[Value], expected: &[Value]) {
    let mut current = None;
    let mut texts = 0;
    for e in entries {
        let game = (e["file"].clone(), e["game"].clone());
        if e["type"] == "game" {
            assert_ne!(current.as_ref(), Some(&game), "a game's text twice: {e}");
            assert!(e["text"].as_str().unwrap().contains('['), "{e}");
            current = Some(game);
            texts += 1;
        } else if !e["game"].is_null() {
            assert_eq!(
                current.as_ref(),
                Some(&game),
                "a finding before its game: {e}"
            );
        }
    }
    let mut games: Vec<_> = expected
        .iter()
        .filter(|f| !f["game"].is_null())
        .map(|f| (&f["file"], &f["game"]))
        .collect();
    games.dedup();
    assert_eq!(texts, games.len());
}

/// The findings of a TRF check come after the games' own with their game's text, its
/// first finding filtered out or not, and the page holds the JSON Lines report's findings.
#[test]
fn trf_findings_come_with_their_games_text() {
    let files = ["corpora/trf/open.pgn", "corpora/trf/open-faults.pgn"].map(String::from);
    for extra in [
        &["--trf", "corpora/trf/open.trf"][..],
        &[
            "--trf",
            "corpora/trf/open.trf",
            "--ignore",
            "trf-result,trf-round",
        ],
    ] {
        let page = page(&check("html", extra, &files));
        let entries = entries(&page);
        let (expected, _) = jsonl(&check("jsonl", extra, &files));
        let found = of_type(&entries, "finding");
        assert_eq!(found.len(), expected.len(), "{extra:?}");
        assert!(
            expected.iter().any(|f| f["code"] == "trf-unplayed"),
            "{extra:?}"
        );
        texts_before_findings(&entries, &expected);
    }
}

/// Every JSON Lines finding is in the page, field for field and in the same order, each
/// after the text of its game; the summary's totals are the JSON Lines summary's and its
/// counts by code add up to them; the exit status is the same.
#[test]
fn the_page_holds_every_finding_of_the_jsonl_report() {
    let files = corpus();
    let html = check("html", &[], &files);
    let lines = check("jsonl", &[], &files);
    assert_eq!(html.status.code(), lines.status.code());
    assert_eq!(html.status.code(), Some(1));
    let page = page(&html);
    let entries = entries(&page);
    let (expected, expected_summary) = jsonl(&lines);
    let found = of_type(&entries, "finding");
    assert_eq!(found.len(), expected.len());
    assert!(
        expected.len() > 200,
        "the corpus has {} findings",
        expected.len()
    );
    for (f, want) in found.iter().zip(&expected) {
        for (key, value) in want.as_object().unwrap() {
            assert_eq!(&f[key], value, "{key} of {want}");
        }
    }
    texts_before_findings(&entries, &expected);

    let summary: Value = serde_json::from_str(block(&page, "planilla-summary")).unwrap();
    for (key, value) in expected_summary.as_object().unwrap() {
        assert_eq!(&summary[key], value, "{key}");
    }
    let by_code: u64 = summary["codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(by_code, expected.len() as u64);
    assert_eq!(summary["unread"], Value::Array(Vec::new()));
}

/// The boards mark squares from the findings: every played move its departure and
/// arrival, every illegal or ambiguous move of the corpus its candidates (a null move
/// none).
#[test]
fn findings_about_moves_carry_their_marks() {
    let page = page(&check("html", &[], &corpus()));
    let entries = entries(&page);
    let findings = of_type(&entries, "finding");
    for f in &findings {
        let marks = &f["marks"];
        match f["code"].as_str().unwrap() {
            "illegal-move" | "ambiguous-move" => {
                // A null move has no piece to point at, nor has text that reads as no
                // move in any language (`Nxxf3`: its repair is named in the message).
                let candidates = marks["candidates"].as_array();
                let null = f["move"] == "--";
                let unreadable = f["message"].as_str().unwrap().contains("is not a move in");
                // Text of another language's letters (`Ab5` in an English game) may be
                // marked as the move it reads as there.
                if !unreadable {
                    assert_eq!(candidates.is_some_and(|c| !c.is_empty()), !null, "{f}");
                    assert!(marks["from"].is_null(), "{f}");
                }
            }
            "check-mark" | "capture-mark" => {
                assert!(marks["from"].is_string() && marks["to"].is_string(), "{f}");
            }
            "move-after-game-end" | "move-after-draw" => {
                assert!(marks["to"].is_string(), "{f}")
            }
            _ => {}
        }
        if f["fen"].is_null() {
            assert!(marks.is_null(), "a mark without a board: {f}");
        }
    }
}

/// Nothing in the page loads from the network: no `src`, `href`, `url(`, `@import` or
/// `<link>`, and no address outside the data but the SVG namespace the script names.
#[test]
fn the_page_loads_nothing_from_the_network() {
    let page = page(&check("html", &[], &corpus()));
    let data = block(&page, "planilla-data");
    let frame = page.replacen(data, "", 1);
    for needle in [
        "src=", "href=", "url(", "@import", "<link", "<img", "<iframe",
    ] {
        assert!(!frame.contains(needle), "the page holds {needle}");
    }
    let namespace = "http://www.w3.org/2000/svg'";
    let addresses: Vec<usize> = frame.match_indices("http").map(|(i, _)| i).collect();
    assert_eq!(addresses.len(), 1, "{addresses:?}");
    assert!(frame[addresses[0]..].starts_with(namespace));
}

/// A tag value and a comment that try to close the data block and run a script stay
/// text: three scripts in the page, and the text comes back whole from the JSON.
#[test]
fn a_game_cannot_break_out_of_the_data_block() {
    let hostile = "</script><script>alert(1)</script><!--";
    let pgn = format!(
        "[Event \"{hostile}\"]\n[White \"A & B\"]\n[Black \"<b>B</b>\"]\n[Result \"*\"]\n\n\
         1. e4 {{ {hostile} }} e5 2. Nf3 Nf6 3. Qxf7 *\n"
    );
    let out = planilla_stdin(&["check", "--format", "html", "-"], pgn.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let page = page(&out);
    assert!(!page.contains("alert(1)</script>"));
    assert!(!page.contains("<!--"));
    let entries = entries(&page);
    let text = of_type(&entries, "game")[0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(text, pgn);
    assert!(
        of_type(&entries, "finding")
            .iter()
            .any(|f| f["code"] == "illegal-move")
    );
}

/// `-j1` and `-j2` write the same page, byte for byte (the corpus run in files both
/// small and large).
#[test]
fn one_thread_and_two_write_the_same_page() {
    let dir = Dir::new("threads");
    util::small_files_and_a_large_one(
        &util::root().join("corpora/check"),
        &util::root().join("corpora/check/illegal.pgn"),
        dir.path(),
    );
    let path = dir.path().to_str().unwrap().to_string();
    let one = check("html", &["-j1"], std::slice::from_ref(&path));
    let two = check("html", &["-j2"], std::slice::from_ref(&path));
    page(&one);
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.status.code(), two.status.code());
}

/// `--select` keeps the texts of the games it reports on only; a clean file exits 0
/// with an empty data block; an unreadable input exits 2 and is named in the summary.
#[test]
fn filters_clean_files_and_unreadable_inputs() {
    let files = corpus();
    let page_of = |out: &Output| page(out);
    let selected = check("html", &["--select", "illegal-move"], &files);
    let selected = entries(&page_of(&selected));
    let findings = of_type(&selected, "finding");
    assert!(!findings.is_empty() && findings.iter().all(|f| f["code"] == "illegal-move"));
    let mut games: Vec<_> = findings.iter().map(|f| (&f["file"], &f["game"])).collect();
    games.dedup();
    assert_eq!(of_type(&selected, "game").len(), games.len());

    let dir = Dir::new("clean");
    let clean = dir.create("clean.pgn", util::hostile::good(1));
    let out = check(
        "html",
        &["--ignore", "missing-tag"],
        &[clean.to_str().unwrap().to_string()],
    );
    assert_eq!(out.status.code(), Some(0));
    let page = page_of(&out);
    assert!(entries(&page).is_empty());

    let missing = dir.path().join("missing.pgn");
    let out = check(
        "html",
        &[],
        &[
            clean.to_str().unwrap().to_string(),
            missing.to_str().unwrap().to_string(),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let summary: Value = serde_json::from_str(block(&page_of(&out), "planilla-summary")).unwrap();
    assert!(
        summary["unread"][0]
            .as_str()
            .unwrap()
            .contains("missing.pgn"),
        "{summary}"
    );
}

/// A game longer than the page keeps is cut at a line break before 8 KiB and marked
/// cut; its findings are all there.
#[test]
fn a_long_game_is_cut_in_the_page_only() {
    let comment = "a long comment line\n".repeat(600);
    let pgn = format!("[Event \"long\"]\n[Result \"*\"]\n\n1. e4 {{ {comment} }} e5 2. Ke3 *\n");
    let out = planilla_stdin(&["check", "--format", "html", "-"], pgn.as_bytes());
    let entries = entries(&page(&out));
    let game = of_type(&entries, "game")[0];
    let text = game["text"].as_str().unwrap();
    assert!(
        text.len() <= 8 << 10 && text.len() > 7 << 10,
        "{}",
        text.len()
    );
    assert!(text.ends_with('\n') && pgn.starts_with(text));
    assert_eq!(game["truncated"], true);
    assert!(
        of_type(&entries, "finding")
            .iter()
            .any(|f| f["code"] == "illegal-move")
    );
}
