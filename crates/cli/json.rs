//! The JSON that `check` writes, as typed values: a JSON Lines finding and summary, and
//! the SARIF 2.1.0 log. Fields are written in the order they are declared.

use crate::output::Totals;
use planilla_converter::Change;
use planilla_engine::merge::{MergeCounts, MergeLine};
use planilla_validator::{Code, Finding, Severity};
use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};
use std::io;

/// Appends `value` to `out` as compact JSON.
///
/// Strings are escaped as planilla always has: `"` and `\` escaped, line feed, carriage
/// return and tab as `\n`, `\r`, `\t`, every other character below U+0020 as `\u00xx`
/// (backspace and form feed too, which serde_json would write `\b` and `\f`), and
/// everything else (U+007F, C1 controls, any non-ASCII character) as it is.
///
/// # Errors
///
/// Only what serde_json reports for a value it cannot write, which these types never
/// are.
pub fn write<T: Serialize>(out: &mut Vec<u8>, value: &T) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, Escapes);
    value.serialize(&mut serializer).map_err(io::Error::other)
}

/// serde_json's compact formatter, with backspace and form feed written as `\u0008`
/// and `\u000c` (see [`write`]).
struct Escapes;

impl Formatter for Escapes {
    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        match escape {
            CharEscape::Backspace => writer.write_all(b"\\u0008"),
            CharEscape::FormFeed => writer.write_all(b"\\u000c"),
            escape => CompactFormatter.write_char_escape(writer, escape),
        }
    }
}

/// One finding as a line of JSON Lines.
#[derive(Serialize)]
pub struct JsonFinding<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    file: &'a str,
    /// `null` for a finding about a file rather than a game (game 0).
    game: Option<u64>,
    ply: Option<u32>,
    line: u64,
    column: u64,
    severity: &'static str,
    code: &'static str,
    #[serde(rename = "move")]
    san: Option<&'a str>,
    message: &'a str,
    fen: Option<&'a str>,
    variation: &'a [u32],
}

impl<'a> JsonFinding<'a> {
    /// The finding `f` about `file`.
    pub fn new(file: &'a str, f: &'a Finding) -> JsonFinding<'a> {
        JsonFinding {
            kind: "finding",
            file,
            game: (f.game != 0).then_some(f.game),
            ply: f.ply,
            line: f.line,
            column: f.column,
            severity: f.severity().name(),
            code: f.code.as_str(),
            san: f.san.as_deref(),
            message: &f.message,
            fen: f.fen.as_deref(),
            variation: &f.variation,
        }
    }
}

/// One change `fix` made, as a line of JSON Lines.
#[derive(Serialize)]
pub struct JsonChange<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    file: &'a str,
    game: u64,
    ply: Option<u32>,
    code: &'static str,
    before: &'a str,
    after: &'a str,
}

impl<'a> JsonChange<'a> {
    /// The change `c` in `file`.
    pub fn new(file: &'a str, c: &'a Change) -> JsonChange<'a> {
        JsonChange {
            kind: "fix",
            file,
            game: c.game,
            ply: c.ply,
            code: c.code.as_str(),
            before: &c.before,
            after: &c.after,
        }
    }
}

/// One line of `merge`'s report: a game not written to the output, or a tag taken.
#[derive(Serialize)]
pub struct JsonMerge<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    action: &'static str,
    code: &'static str,
    severity: &'static str,
    file: &'a str,
    game: u64,
    kept_file: Option<&'a str>,
    kept_game: Option<u64>,
    ply: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    group_file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    group_game: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tag: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tag_line: Option<&'a str>,
    message: &'a str,
}

impl<'a> JsonMerge<'a> {
    /// The report line `line`.
    pub fn new(line: &'a MergeLine) -> JsonMerge<'a> {
        JsonMerge {
            kind: "merge",
            action: line.action.as_str(),
            code: line.code,
            severity: line.severity.name(),
            file: &line.file,
            game: line.game,
            kept_file: line.kept.as_ref().map(|(f, _)| f.as_str()),
            kept_game: line.kept.as_ref().map(|(_, g)| *g),
            ply: line.ply,
            group_file: line.group.as_ref().map(|(f, _)| f.as_str()),
            group_game: line.group.as_ref().map(|(_, g)| *g),
            tag: line.tag.as_ref().map(|(n, _)| n.as_str()),
            tag_line: line.tag.as_ref().map(|(_, l)| l.as_str()),
            message: &line.message,
        }
    }
}

/// The last line of `merge`'s JSON Lines: games in = written + dropped + set apart.
#[derive(Serialize)]
pub struct MergeSummary {
    #[serde(rename = "type")]
    kind: &'static str,
    files: u64,
    games: u64,
    written: u64,
    dropped: u64,
    set_apart: u64,
    tags_taken: u64,
    warnings: u64,
}

impl MergeSummary {
    /// The summary of a merge's counts, with the warnings reported.
    pub fn new(c: &MergeCounts, warnings: u64) -> MergeSummary {
        MergeSummary {
            kind: "summary",
            files: c.files,
            games: c.games,
            written: c.written,
            dropped: c.dropped,
            set_apart: c.set_apart,
            tags_taken: c.tags_taken,
            warnings,
        }
    }
}

/// The last line of JSON Lines: the totals (with `fix`'s counts after `check`'s).
#[derive(Serialize)]
pub struct Summary {
    #[serde(rename = "type")]
    kind: &'static str,
    files: u64,
    games: u64,
    plies: u64,
    errors: u64,
    warnings: u64,
    notes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    baselined: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    changes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rejected: Option<u64>,
}

impl Summary {
    /// The summary of `totals`.
    pub fn new(totals: &Totals) -> Summary {
        Summary {
            kind: "summary",
            files: totals.files,
            games: totals.games,
            plies: totals.plies,
            errors: totals.errors,
            warnings: totals.warnings,
            notes: totals.notes,
            baselined: totals.baselined,
            changes: totals.fix.map(|f| f.changes),
            rejected: totals.fix.map(|f| f.rejected),
        }
    }
}

/// A SARIF 2.1.0 log of one run. Its results are streamed (see [`Sarif::split`]), so
/// it holds none itself.
#[derive(Serialize)]
pub struct Sarif<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    column_kind: &'static str,
    results: [SarifResult<'a>; 0],
    invocations: [Invocation<'a>; 1],
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    short_description: Text<&'static str>,
    default_configuration: Level,
}

#[derive(Serialize)]
struct Text<S> {
    text: S,
}

#[derive(Serialize)]
struct Level {
    level: &'static str,
}

/// Whether every input was read, and the messages naming those that were not.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation<'a> {
    execution_successful: bool,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    tool_execution_notifications: Vec<Notification<'a>>,
}

#[derive(Serialize)]
struct Notification<'a> {
    level: &'static str,
    message: Text<&'a str>,
}

/// The text between the results array's brackets, where results are streamed.
const RESULTS: &[u8] = b"\"results\":[]";

impl<'a> Sarif<'a> {
    /// The log of a run in which the inputs named by `failures` could not be read.
    pub fn log(failures: &'a [String]) -> Sarif<'a> {
        let rules = Code::ALL
            .iter()
            .map(|code| Rule {
                id: code.as_str(),
                short_description: Text {
                    text: code.as_str(),
                },
                default_configuration: Level {
                    level: sarif_level(code.severity()),
                },
            })
            .collect();
        let notifications = failures
            .iter()
            .map(|message| Notification {
                level: "error",
                message: Text { text: message },
            })
            .collect();
        Sarif {
            schema: "https://json.schemastore.org/sarif-2.1.0.json",
            version: "2.1.0",
            runs: [Run {
                tool: Tool {
                    driver: Driver {
                        name: "planilla",
                        version: env!("CARGO_PKG_VERSION"),
                        information_uri: "https://crates.io/crates/planilla",
                        rules,
                    },
                },
                column_kind: "unicodeCodePoints",
                results: [],
                invocations: [Invocation {
                    execution_successful: failures.is_empty(),
                    tool_execution_notifications: notifications,
                }],
            }],
        }
    }

    /// The log written before the results (up to the results array's `[` and a line
    /// break) and after them (a line break, the array's `]`, the rest of the log and a
    /// line break): the results are written in between as they come, one a line,
    /// separated by commas, so memory stays bounded whatever their number.
    ///
    /// # Errors
    ///
    /// As [`write`].
    pub fn split(&self) -> io::Result<(Vec<u8>, Vec<u8>)> {
        let mut log = Vec::new();
        write(&mut log, self)?;
        let at = log
            .windows(RESULTS.len())
            .position(|w| w == RESULTS)
            .ok_or_else(|| io::Error::other("the SARIF log has no results array"))?;
        let open = at + RESULTS.len() - 1;
        let mut tail = b"\n".to_vec();
        tail.extend_from_slice(&log[open..]);
        tail.push(b'\n');
        log.truncate(open);
        log.push(b'\n');
        Ok((log, tail))
    }
}

/// One finding as a SARIF result.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult<'a> {
    rule_id: &'static str,
    level: &'static str,
    message: Text<&'a str>,
    locations: [Location<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    partial_fingerprints: Option<Fingerprints<'a>>,
    properties: Properties<'a>,
}

/// SARIF's `partialFingerprints`: the finding by its game's content, so code scanning
/// follows an alert whose game moves within its file.
#[derive(Serialize)]
struct Fingerprints<'a> {
    #[serde(rename = "planilla/v1")]
    planilla: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    physical_location: PhysicalLocation<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation<'a> {
    artifact_location: Uri<'a>,
    region: Region,
}

#[derive(Serialize)]
struct Uri<'a> {
    uri: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u64,
    start_column: u64,
}

#[derive(Serialize)]
struct Properties<'a> {
    /// Absent for a finding about a file rather than a game (game 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<u32>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    variation: &'a [u32],
}

impl<'a> SarifResult<'a> {
    /// The finding `f`, told as `text`, in the file at `uri`, with its `fingerprint`
    /// when known.
    pub fn new(
        f: &'a Finding,
        text: &'a str,
        uri: &'a str,
        fingerprint: Option<&'a str>,
    ) -> SarifResult<'a> {
        SarifResult {
            rule_id: f.code.as_str(),
            level: sarif_level(f.severity()),
            message: Text { text },
            locations: [Location {
                physical_location: PhysicalLocation {
                    artifact_location: Uri { uri },
                    region: Region {
                        start_line: f.line,
                        start_column: f.column,
                    },
                },
            }],
            partial_fingerprints: fingerprint.map(|planilla| Fingerprints { planilla }),
            properties: Properties {
                game: (f.game != 0).then_some(f.game),
                ply: f.ply,
                variation: &f.variation,
            },
        }
    }
}

/// SARIF's name for a severity.
fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The escaping planilla wrote by hand before serde_json, character by character.
    fn escaped_by_hand(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    fn json(value: &impl Serialize) -> String {
        let mut out = Vec::new();
        write(&mut out, value).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Strings are escaped byte for byte as before: every character below U+00A0, a
    /// lone C1 control, the line and paragraph separators, a figurine, an emoji.
    #[test]
    fn strings_are_escaped_as_before() {
        let mut all: String = (0u32..0xa0).filter_map(char::from_u32).collect();
        all.push_str("\u{85}\u{9b}x\u{2028}\u{2029}\u{265e}\u{1f600}\"\\/");
        for s in [all.as_str(), "\u{7f}", "\u{8}\u{c}", "plain", ""] {
            assert_eq!(json(&s), escaped_by_hand(s), "{s:?}");
        }
        assert_eq!(
            json(&"\u{8}\u{c}\u{1b}\u{7f}"),
            "\"\\u0008\\u000c\\u001b\u{7f}\""
        );
    }

    fn finding() -> Finding {
        Finding {
            code: Code::IllegalMove,
            game: 3,
            ply: Some(12),
            line: 7,
            column: 20,
            numbered_move: Some("6... Qxf2".to_string()),
            san: Some("Qxf2".to_string()),
            message: "say \"no\"\tto\u{1b}[31m".to_string(),
            fen: None,
            variation: vec![1, 2],
        }
    }

    /// A finding and the summary as JSON Lines, key order and numbers pinned.
    #[test]
    fn a_jsonl_finding_and_summary_are_pinned() {
        let f = finding();
        assert_eq!(
            json(&JsonFinding::new("a \"b\".pgn", &f)),
            r#"{"type":"finding","file":"a \"b\".pgn","game":3,"ply":12,"line":7,"column":20,"severity":"error","code":"illegal-move","move":"Qxf2","message":"say \"no\"\tto\u001b[31m","fen":null,"variation":[1,2]}"#
        );
        let no_place = Finding {
            ply: None,
            san: None,
            variation: Vec::new(),
            fen: Some("8/8/8/8/8/8/8/K1k5 w - - 0 1".to_string()),
            ..finding()
        };
        assert_eq!(
            json(&JsonFinding::new("f", &no_place)),
            r#"{"type":"finding","file":"f","game":3,"ply":null,"line":7,"column":20,"severity":"error","code":"illegal-move","move":null,"message":"say \"no\"\tto\u001b[31m","fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1","variation":[]}"#
        );
        let totals = Totals {
            files: 1,
            games: 2,
            plies: 3,
            errors: 4,
            warnings: 5,
            notes: 18446744073709551615,
            baselined: None,
            fix: None,
        };
        assert_eq!(
            json(&Summary::new(&totals)),
            r#"{"type":"summary","files":1,"games":2,"plies":3,"errors":4,"warnings":5,"notes":18446744073709551615}"#
        );
        let totals = Totals {
            baselined: Some(6),
            ..totals
        };
        assert_eq!(
            json(&Summary::new(&totals)),
            r#"{"type":"summary","files":1,"games":2,"plies":3,"errors":4,"warnings":5,"notes":18446744073709551615,"baselined":6}"#
        );
    }

    /// The SARIF log around its results, and one result, pinned.
    #[test]
    fn the_sarif_log_is_pinned() {
        let (head, tail) = Sarif::log(&[]).split().unwrap();
        let head = String::from_utf8(head).unwrap();
        assert!(
            head.starts_with(r#"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"planilla","version":""#),
            "{head}"
        );
        assert!(
            head.contains(r#"{"id":"illegal-move","shortDescription":{"text":"illegal-move"},"defaultConfiguration":{"level":"error"}}"#)
                && head.ends_with("]}},\"columnKind\":\"unicodeCodePoints\",\"results\":[\n"),
            "{head}"
        );
        assert_eq!(
            tail,
            b"\n],\"invocations\":[{\"executionSuccessful\":true}]}]}\n"
        );
        let failures = ["a.pgn: permission denied".to_string(), "b\"".to_string()];
        let (_, tail) = Sarif::log(&failures).split().unwrap();
        assert_eq!(
            String::from_utf8(tail).unwrap(),
            "\n],\"invocations\":[{\"executionSuccessful\":false,\"toolExecutionNotifications\":[{\"level\":\"error\",\"message\":{\"text\":\"a.pgn: permission denied\"}},{\"level\":\"error\",\"message\":{\"text\":\"b\\\"\"}}]}]}]}\n"
        );
        let f = finding();
        assert_eq!(
            json(&SarifResult::new(
                &f,
                "game 3: x",
                "a%20b.pgn",
                Some("k:c:12:1.2")
            )),
            r#"{"ruleId":"illegal-move","level":"error","message":{"text":"game 3: x"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a%20b.pgn"},"region":{"startLine":7,"startColumn":20}}}],"partialFingerprints":{"planilla/v1":"k:c:12:1.2"},"properties":{"game":3,"ply":12,"variation":[1,2]}}"#
        );
        let bare = Finding {
            ply: None,
            variation: Vec::new(),
            ..finding()
        };
        assert_eq!(
            json(&SarifResult::new(&bare, "t", "u", None)),
            r#"{"ruleId":"illegal-move","level":"error","message":{"text":"t"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"u"},"region":{"startLine":7,"startColumn":20}}}],"properties":{"game":3}}"#
        );
    }
}
