//! Writing findings: human, JSON Lines, GitHub workflow commands, SARIF 2.1.0, HTML.

use crate::baseline::fingerprint;
use crate::html::{self, GameText};
use crate::json::{self, JsonChange, JsonFinding, Sarif, SarifResult, Summary};
use planilla_converter::Change;
use planilla_validator::{Finding, Severity};
use std::io::{self, Write};

/// An output format of `check` (and of `convert`'s reports).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per finding, location first.
    Human,
    /// One JSON object per line, then a summary object.
    Jsonl,
    /// GitHub Actions workflow commands.
    Github,
    /// One SARIF 2.1.0 log for code-scanning upload.
    Sarif,
    /// One self-contained HTML page: boards, the games' text, filters.
    Html,
}

/// `--color`: whether the human format is coloured.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal, unless `NO_COLOR` is set (to anything but the empty string)
    /// or `TERM` is `dumb`.
    #[default]
    Auto,
    /// Always colour, even into a pipe or a file.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (`terminal`) or is not a terminal.
    pub fn enabled(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

/// The ANSI style of a severity's name: bold red errors, bold yellow warnings, bold cyan
/// notes, as compilers and linters colour them.
fn severity_style(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "\x1b[1;31m",
        Severity::Warning => "\x1b[1;33m",
        Severity::Note => "\x1b[1;36m",
    }
}

const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

/// Totals for the summary line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    /// Inputs read.
    pub files: u64,
    /// Games checked.
    pub games: u64,
    /// Plies replayed.
    pub plies: u64,
    /// Errors reported.
    pub errors: u64,
    /// Warnings reported.
    pub warnings: u64,
    /// Notes reported.
    pub notes: u64,
    /// Findings a baseline absorbed (`None`: no baseline was given).
    pub baselined: Option<u64>,
    /// `fix`'s counts, for its summary.
    pub fix: Option<FixTotals>,
}

/// What `fix` counts beside the findings.
#[derive(Clone, Copy, Debug, Default)]
pub struct FixTotals {
    /// Changes made.
    pub changes: u64,
    /// Games rejected (or written unchanged, without `--rejects`).
    pub rejected: u64,
}

impl Totals {
    /// Counts one finding of `severity`.
    pub fn count(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Note => self.notes += 1,
        }
    }
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Writes findings in one format; SARIF is streamed between a header and a
/// footer so memory stays bounded.
pub struct Writer<W: Write> {
    out: W,
    format: Format,
    sarif_results: u64,
    /// The content key of the game whose findings follow (SARIF's fingerprints).
    game_key: Option<u64>,
    /// Whether the human format is coloured.
    color: bool,
    /// One finding in a text format, reused.
    buf: String,
    /// One finding in a JSON format, reused.
    json: Vec<u8>,
    /// The HTML report's state.
    html: html::Report,
}

impl<W: Write> Writer<W> {
    /// A writer of `format` to `out`.
    pub fn new(out: W, format: Format) -> Writer<W> {
        Writer {
            out,
            format,
            sarif_results: 0,
            game_key: None,
            color: false,
            buf: String::with_capacity(1 << 16),
            json: Vec::with_capacity(1 << 12),
            html: html::Report::default(),
        }
    }

    /// Colours the human format when `color` is true (see [`ColorChoice::enabled`]).
    pub fn with_color(mut self, color: bool) -> Writer<W> {
        self.color = color;
        self
    }

    /// The findings that follow are of the game with content key `key` (when the run
    /// computes it), and of a game whose text is given anew ([`Writer::game_text`]): a
    /// text no finding of its own game took (every one filtered or in the baseline) is
    /// never shown with another game's.
    pub fn game(&mut self, key: Option<u64>) {
        self.game_key = key;
        self.html.forget_text();
    }

    /// Starts the report: SARIF's log up to its results, the HTML page up to its data.
    pub fn begin(&mut self) -> io::Result<()> {
        match self.format {
            Format::Sarif => {
                let (head, _) = Sarif::log(&[]).split()?;
                self.out.write_all(&head)?;
            }
            Format::Html => self.html.begin(&mut self.out)?,
            _ => {}
        }
        Ok(())
    }

    /// Hands over the text of the game whose findings come next, for the formats that
    /// show it (HTML).
    pub fn game_text(&mut self, text: &GameText) {
        if self.format == Format::Html {
            self.html.game_text(text);
        }
    }

    /// Writes one finding about `file`.
    pub fn finding(&mut self, file: &str, f: &Finding) -> io::Result<()> {
        let b = &mut self.buf;
        b.clear();
        let severity = f.severity().name();
        match self.format {
            Format::Human if self.color => {
                b.push_str(&format!(
                    "{BOLD}{file}:{}:{}:{RESET} {}{severity}{RESET}[{BOLD}{}{RESET}] ",
                    f.line,
                    f.column,
                    severity_style(f.severity()),
                    f.code
                ));
                push_escaped(b, &f.text());
                b.push('\n');
            }
            Format::Human => {
                b.push_str(&format!(
                    "{file}:{}:{}: {severity}[{}] ",
                    f.line, f.column, f.code
                ));
                push_escaped(b, &f.text());
                b.push('\n');
            }

            Format::Jsonl => {
                self.json.clear();
                json::write(&mut self.json, &JsonFinding::new(file, f))?;
                self.json.push(b'\n');
                return self.out.write_all(&self.json);
            }
            Format::Github => {
                let level = match f.severity() {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Note => "notice",
                };
                let text = f.text();
                b.push_str(&format!(
                    "::{level} file={},line={},col={},title={}::{}\n",
                    github_property(file),
                    f.line,
                    f.column,
                    f.code,
                    github_data(&text)
                ));
            }
            Format::Sarif => {
                self.json.clear();
                if self.sarif_results > 0 {
                    self.json.extend_from_slice(b",\n");
                }
                self.sarif_results += 1;
                let text = f.text();
                let uri = sarif_uri(file);
                let fingerprint = self.game_key.map(|key| fingerprint(key, f));
                json::write(
                    &mut self.json,
                    &SarifResult::new(f, &text, &uri, fingerprint.as_deref()),
                )?;
                return self.out.write_all(&self.json);
            }
            Format::Html => return self.html.finding(&mut self.out, file, f),
        }
        self.out.write_all(self.buf.as_bytes())
    }

    /// Writes one change `fix` made in `file`: in the human format a line of its own;
    /// in JSON Lines a `"type":"fix"` object; in the formats made for findings, a finding
    /// of the change's code that tells it.
    pub fn change(&mut self, file: &str, c: &Change) -> io::Result<()> {
        let told = change_text(c);
        match self.format {
            Format::Human => {
                let b = &mut self.buf;
                b.clear();
                b.push_str(&format!("{file}:{}:{}: fix[{}] ", c.line, c.column, c.code));
                let mut text = format!("game {}", c.game);
                if let Some(ply) = c.ply {
                    text.push_str(&format!(", ply {ply}"));
                }
                text.push_str(": ");
                text.push_str(&told);
                push_escaped(b, &text);
                b.push('\n');
                self.out.write_all(self.buf.as_bytes())
            }
            Format::Jsonl => {
                self.json.clear();
                json::write(&mut self.json, &JsonChange::new(file, c))?;
                self.json.push(b'\n');
                self.out.write_all(&self.json)
            }
            Format::Github | Format::Sarif | Format::Html => {
                let finding = Finding {
                    code: c.code,
                    game: c.game,
                    ply: c.ply,
                    line: c.line,
                    column: c.column,
                    numbered_move: None,
                    san: None,
                    message: format!("fixed: {told}"),
                    fen: None,
                    variation: Vec::new(),
                };
                self.finding(file, &finding)
            }
        }
    }

    /// Closes the report; `failures` name the inputs that could not be read.
    pub fn end(&mut self, totals: &Totals, failures: &[String]) -> io::Result<()> {
        match self.format {
            Format::Human => writeln!(self.out, "{}", summary_sentence(totals))?,
            Format::Jsonl => {
                self.json.clear();
                json::write(&mut self.json, &Summary::new(totals))?;
                self.json.push(b'\n');
                self.out.write_all(&self.json)?;
            }
            Format::Github => {
                for message in failures {
                    writeln!(self.out, "::error title=planilla::{}", github_data(message))?;
                }
                writeln!(self.out, "planilla: {}", summary_sentence(totals))?
            }
            Format::Sarif => {
                // The invocation says whether every input was read, and names those
                // that were not.
                let (_, tail) = Sarif::log(failures).split()?;
                self.out.write_all(&tail)?;
            }
            Format::Html => self.html.end(&mut self.out, totals, failures)?,
        }
        self.out.flush()
    }

    /// The stream written to (for reports of other kinds of lines, such as `merge`'s).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Flushes what was written so far.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The closing count: `2 files, 10 games, 100 plies: 8 errors, 0 warnings, 8 notes`,
/// and after `fix`'s run `; 5 changes, 1 game rejected`.
fn summary_sentence(totals: &Totals) -> String {
    let mut sentence = format!(
        "{}, {}, {}: {}, {}, {}",
        plural(totals.files, "file"),
        plural(totals.games, "game"),
        plural(totals.plies, "ply").replace("plys", "plies"),
        plural(totals.errors, "error"),
        plural(totals.warnings, "warning"),
        plural(totals.notes, "note")
    );
    if let Some(n) = totals.baselined {
        sentence.push_str(&format!(" ({n} baselined)"));
    }
    if let Some(fix) = totals.fix {
        sentence.push_str(&format!(
            "; {}, {} rejected",
            plural(fix.changes, "change"),
            plural(fix.rejected, "game")
        ));
    }
    sentence
}

/// Appends `text` with every control character from the input (an ESC in a tag value)
/// shown escaped, never sent to the terminal.
fn push_escaped(b: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_control() {
            b.extend(c.escape_debug());
        } else {
            b.push(c);
        }
    }
}

/// What a change did: `'Nge2' -> 'Ne2'`, `'4. Ke4 Kd5' removed` or `'*' added`.
fn change_text(c: &Change) -> String {
    if c.after.is_empty() {
        format!("'{}' removed", c.before)
    } else if c.before.is_empty() {
        format!("'{}' added", c.after)
    } else {
        format!("'{}' -> '{}'", c.before, c.after)
    }
}

/// A path as a URI reference (RFC 3986): every byte outside the characters a path may
/// hold is percent-encoded (a space, `#`, `?`, `%`, a backslash, control characters,
/// UTF-8 bytes), and a relative path whose first segment holds a `:` is written after
/// `./` (else it would read as a scheme). On Windows a backslash separates directories.
fn sarif_uri(file: &str) -> String {
    let file = if cfg!(windows) {
        file.replace('\\', "/")
    } else {
        file.to_string()
    };
    let mut out = String::with_capacity(file.len());
    let first_segment = file.split('/').next().unwrap_or("");
    if !file.starts_with('/') && first_segment.contains(':') {
        out.push_str("./");
    }
    for &b in file.as_bytes() {
        let allowed = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b);
        if allowed {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn github_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sarif_uris_are_uri_references() {
        for (file, uri) in [
            ("games/open.pgn", "games/open.pgn"),
            ("sp ace#1?.pgn", "sp%20ace%231%3F.pgn"),
            ("100%.pgn", "100%25.pgn"),
            ("a:b.pgn", "./a:b.pgn"),
            ("dir/a:b.pgn", "dir/a:b.pgn"),
            ("/abs/a:b.pgn", "/abs/a:b.pgn"),
            ("<stdin>", "%3Cstdin%3E"),
            ("peña.pgn", "pe%C3%B1a.pgn"),
            ("nl\nx\t{|}^`\".pgn", "nl%0Ax%09%7B%7C%7D%5E%60%22.pgn"),
        ] {
            assert_eq!(sarif_uri(file), uri, "{file:?}");
        }
        // A backslash is a name's own character on Unix, a separator on Windows.
        let expected = if cfg!(windows) {
            "back/slash.pgn"
        } else {
            "back%5Cslash.pgn"
        };
        assert_eq!(sarif_uri("back\\slash.pgn"), expected);
    }
}
