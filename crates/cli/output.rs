//! Writing findings: human, JSON Lines, GitHub workflow commands, SARIF 2.1.0.

use planilla_validator::{Code, Finding, Severity};
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
}

/// Totals for the summary line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    pub files: u64,
    pub games: u64,
    pub plies: u64,
    pub errors: u64,
    pub warnings: u64,
    pub notes: u64,
}

impl Totals {
    pub fn count(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Note => self.notes += 1,
        }
    }
}

/// Appends `s` to `out` as the body of a JSON string.
pub fn json_escape(out: &mut String, s: &str) {
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
}

fn json_str(out: &mut String, s: &str) {
    out.push('"');
    json_escape(out, s);
    out.push('"');
}

fn json_opt_str(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => json_str(out, s),
        None => out.push_str("null"),
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
    buf: String,
}

impl<W: Write> Writer<W> {
    pub fn new(out: W, format: Format) -> Writer<W> {
        Writer {
            out,
            format,
            sarif_results: 0,
            buf: String::with_capacity(1 << 16),
        }
    }

    pub fn begin(&mut self) -> io::Result<()> {
        if self.format == Format::Sarif {
            let mut s = String::new();
            s.push_str("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"planilla\",\"version\":");
            json_str(&mut s, env!("CARGO_PKG_VERSION"));
            s.push_str(",\"informationUri\":\"https://crates.io/crates/planilla\",\"rules\":[");
            for (i, code) in Code::ALL.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str("{\"id\":");
                json_str(&mut s, code.as_str());
                s.push_str(",\"shortDescription\":{\"text\":");
                json_str(&mut s, code.as_str());
                s.push_str("},\"defaultConfiguration\":{\"level\":");
                json_str(&mut s, sarif_level(code.severity()));
                s.push_str("}}");
            }
            s.push_str("]}},\"columnKind\":\"unicodeCodePoints\",\"results\":[\n");
            self.out.write_all(s.as_bytes())?;
        }
        Ok(())
    }

    pub fn finding(&mut self, file: &str, f: &Finding) -> io::Result<()> {
        let b = &mut self.buf;
        b.clear();
        let severity = f.severity().name();
        match self.format {
            Format::Human => {
                b.push_str(&format!(
                    "{file}:{}:{}: {severity}[{}] ",
                    f.line, f.column, f.code
                ));
                // A control character from the input (an ESC in a tag value) is shown
                // escaped, never sent to the terminal.
                for c in plain_text(f).chars() {
                    if c.is_control() {
                        b.extend(c.escape_debug());
                    } else {
                        b.push(c);
                    }
                }
                b.push('\n');
            }
            Format::Jsonl => {
                b.push_str("{\"type\":\"finding\",\"file\":");
                json_str(b, file);
                b.push_str(&format!(",\"game\":{},\"ply\":", f.game));
                match f.ply {
                    Some(p) => b.push_str(&p.to_string()),
                    None => b.push_str("null"),
                }
                b.push_str(&format!(",\"line\":{},\"column\":{},\"severity\":\"{severity}\",\"code\":\"{}\",\"move\":", f.line, f.column, f.code));
                json_opt_str(b, f.san.as_deref());
                b.push_str(",\"message\":");
                json_str(b, &f.message);
                b.push_str(",\"fen\":");
                json_opt_str(b, f.fen.as_deref());
                b.push_str(",\"variation\":[");
                let path: Vec<String> = f.variation.iter().map(u32::to_string).collect();
                b.push_str(&path.join(","));
                b.push_str("]}\n");
            }
            Format::Github => {
                let level = match f.severity() {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Note => "notice",
                };
                let text = plain_text(f);
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
                if self.sarif_results > 0 {
                    b.push_str(",\n");
                }
                self.sarif_results += 1;
                b.push_str("{\"ruleId\":");
                json_str(b, f.code.as_str());
                b.push_str(",\"level\":");
                json_str(b, sarif_level(f.severity()));
                b.push_str(",\"message\":{\"text\":");
                json_str(b, &plain_text(f));
                b.push_str(
                    "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":",
                );
                json_str(b, &sarif_uri(file));
                b.push_str(&format!(
                    "}},\"region\":{{\"startLine\":{},\"startColumn\":{}}}}}}}]",
                    f.line, f.column
                ));
                b.push_str(&format!(",\"properties\":{{\"game\":{}", f.game));
                if let Some(p) = f.ply {
                    b.push_str(&format!(",\"ply\":{p}"));
                }
                if !f.variation.is_empty() {
                    let path: Vec<String> = f.variation.iter().map(u32::to_string).collect();
                    b.push_str(&format!(",\"variation\":[{}]", path.join(",")));
                }
                b.push_str("}}");
            }
        }
        self.out.write_all(self.buf.as_bytes())
    }

    /// Closes the report; `failures` name the inputs that could not be read.
    pub fn end(&mut self, totals: &Totals, failures: &[String]) -> io::Result<()> {
        match self.format {
            Format::Human => writeln!(self.out, "{}", summary_sentence(totals))?,
            Format::Jsonl => writeln!(
                self.out,
                "{{\"type\":\"summary\",\"files\":{},\"games\":{},\"plies\":{},\"errors\":{},\"warnings\":{},\"notes\":{}}}",
                totals.files,
                totals.games,
                totals.plies,
                totals.errors,
                totals.warnings,
                totals.notes
            )?,
            Format::Github => {
                for message in failures {
                    writeln!(self.out, "::error title=planilla::{}", github_data(message))?;
                }
                writeln!(self.out, "planilla: {}", summary_sentence(totals))?
            }
            Format::Sarif => {
                // The invocation says whether every input was read, and names those
                // that were not.
                let mut s = String::from("\n],\"invocations\":[{\"executionSuccessful\":");
                s.push_str(if failures.is_empty() { "true" } else { "false" });
                if !failures.is_empty() {
                    s.push_str(",\"toolExecutionNotifications\":[");
                    for (i, message) in failures.iter().enumerate() {
                        if i > 0 {
                            s.push(',');
                        }
                        s.push_str("{\"level\":\"error\",\"message\":{\"text\":");
                        json_str(&mut s, message);
                        s.push_str("}}");
                    }
                    s.push(']');
                }
                s.push_str("}]}]}\n");
                self.out.write_all(s.as_bytes())?;
            }
        }
        self.out.flush()
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The closing count: `2 files, 10 games, 100 plies: 8 errors, 0 warnings, 8 notes`.
fn summary_sentence(totals: &Totals) -> String {
    format!(
        "{}, {}, {}: {}, {}, {}",
        plural(totals.files, "file"),
        plural(totals.games, "game"),
        plural(totals.plies, "ply").replace("plys", "plies"),
        plural(totals.errors, "error"),
        plural(totals.warnings, "warning"),
        plural(totals.notes, "note")
    )
}

/// A finding as one sentence without its place in the file (for formats that carry it
/// separately): `game 3, ply 12, variation 1.2 (6... Qxf2#): message`.
fn plain_text(f: &Finding) -> String {
    let mut text = format!("game {}", f.game);
    if let Some(ply) = f.ply {
        text.push_str(&format!(", ply {ply}"));
    }
    if !f.variation.is_empty() {
        let path: Vec<String> = f.variation.iter().map(u32::to_string).collect();
        text.push_str(&format!(", variation {}", path.join(".")));
    }
    if let Some(m) = &f.numbered_move {
        text.push_str(&format!(" ({m})"));
    }
    text.push_str(": ");
    text.push_str(&f.message);
    text
}

fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
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
