//! Writing games back: losslessly with chosen tokens replaced, or in the PGN export format.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::game::Game;
use crate::token::{Token, TokenKind};

/// Writes the game's bytes back exactly, except that each token for which `replace`
/// returns `Some(bytes)` is written as those bytes instead. `replace` gets the token's
/// index in [`Game::tokens`] and the token. With `|_, _| None` the output equals
/// [`Game::bytes`].
///
/// # Errors
///
/// Errors of `out`.
pub fn write_lossless<'r, W, F>(game: &Game, out: &mut W, mut replace: F) -> io::Result<()>
where
    W: Write + ?Sized,
    F: FnMut(usize, &Token) -> Option<&'r [u8]>,
{
    let bytes = game.bytes();
    let mut copied = 0;
    for (index, token) in game.tokens().iter().enumerate() {
        if let Some(replacement) = replace(index, token) {
            out.write_all(&bytes[copied..token.start as usize])?;
            out.write_all(replacement)?;
            copied = token.end as usize;
        }
    }
    out.write_all(&bytes[copied.min(bytes.len())..])
}

/// Settings of the export writer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// The longest movetext line, in characters (80 by default).
    pub line_width: usize,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions { line_width: 80 }
    }
}

/// The seven-tag roster, in export order, with the value written when a tag is missing.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Writes the game in the PGN export format, as UTF-8: the seven-tag roster first (with
/// the standard placeholders for missing tags), the other tags in their order, a blank
/// line, then the movetext with single spaces, wrapped to the line width, ending with a
/// result and a blank line.
///
/// Movetext is normalised token by token, without chess knowledge: `;` comments become
/// brace comments, glyphs become NAGs (`!` is `$1`, `±` is `$16`), move numbers become
/// `12.` or `12...`, `½-½` becomes `1/2-1/2`, en-passant marks are dropped, a draw-offer
/// mark becomes the comment `{(=)}`, whitespace and `%` escapes are dropped. Move numbers
/// are not added where the input had none. `replace` works as in [`write_lossless`] for
/// any token (the converter uses it for SAN tokens).
///
/// # Errors
///
/// Errors of `out`.
pub fn write_export<'r, W, F>(
    game: &Game,
    out: &mut W,
    options: ExportOptions,
    mut replace: F,
) -> io::Result<()>
where
    W: Write + ?Sized,
    F: FnMut(usize, &Token) -> Option<&'r [u8]>,
{
    let mut head = String::new();
    for (name, default) in ROSTER {
        let value = game.tag(name).unwrap_or(Cow::Borrowed(default));
        push_tag(&mut head, name, &value);
    }
    for (name, value) in game.tag_pairs() {
        if !ROSTER.iter().any(|(roster, _)| *roster == name) {
            push_tag(&mut head, &name, &value);
        }
    }
    head.push('\n');
    out.write_all(head.as_bytes())?;

    let mut lines = LineWrapper::new(options.line_width.max(1));
    let mut depth = 0u32;
    let mut ended = false;
    for (index, token) in game.tokens().iter().enumerate() {
        if let Some(replacement) = replace(index, token) {
            lines.word(&String::from_utf8_lossy(replacement), false);
            continue;
        }
        let text = game.decode(token.span());
        match token.kind {
            TokenKind::Whitespace
            | TokenKind::Escape
            | TokenKind::Tag
            | TokenKind::EnPassantMark => {}
            TokenKind::Comment => {
                let inner = text.strip_prefix('{').unwrap_or(&text);
                let inner = inner.strip_suffix('}').unwrap_or(inner);
                lines.comment(inner);
            }
            TokenKind::LineComment => lines.comment(text.strip_prefix(';').unwrap_or(&text)),
            TokenKind::DrawOffer => lines.word("{(=)}", false),
            TokenKind::Glyph => match glyph_nag(&text) {
                Some(nag) => lines.word(nag, false),
                None => lines.comment(&text),
            },
            TokenKind::MoveNumber => {
                let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
                let black = text.contains("..") || text.contains('…');
                lines.word(
                    &format!("{digits}{}", if black { "..." } else { "." }),
                    false,
                );
            }
            TokenKind::VariationStart => {
                depth += 1;
                lines.word("(", false);
            }
            TokenKind::VariationEnd => {
                depth = depth.saturating_sub(1);
                lines.word(")", true);
            }
            TokenKind::Result => {
                // A half point in ASCII (`½-½` and `0.5-0.5` are `1/2-1/2`); the
                // scoresheet results PGN has no form for (`½-0`) keep their meaning.
                let result = text.replace('½', "1/2").replace("0.5", "1/2");
                lines.word(&result, false);
                ended |= depth == 0;
            }
            TokenKind::San | TokenKind::Nag | TokenKind::Unknown => lines.word(&text, false),
        }
    }
    if !ended {
        let result = game.tag("Result").unwrap_or(Cow::Borrowed("*"));
        lines.word(&result, false);
    }
    let mut text = lines.finish();
    text.push_str("\n\n");
    out.write_all(text.as_bytes())
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push_str("\"]\n");
}

/// The NAG of a glyph (PGN standard numbering).
fn glyph_nag(glyph: &str) -> Option<&'static str> {
    Some(match glyph {
        "!" => "$1",
        "?" => "$2",
        "!!" | "‼" => "$3",
        "??" | "⁇" => "$4",
        "!?" | "⁉" => "$5",
        "?!" | "⁈" => "$6",
        "□" => "$7",
        "=" => "$10",
        "∞" => "$13",
        "+=" | "+/=" | "⩲" => "$14",
        "=+" | "=/+" | "⩱" => "$15",
        "±" | "+/-" => "$16",
        "∓" | "-/+" => "$17",
        "+-" => "$18",
        "-+" => "$19",
        _ => return None,
    })
}

/// Fills lines up to a width with words separated by single spaces.
struct LineWrapper {
    width: usize,
    text: String,
    line_chars: usize,
    after_open: bool,
}

impl LineWrapper {
    fn new(width: usize) -> Self {
        LineWrapper {
            width,
            text: String::new(),
            line_chars: 0,
            after_open: false,
        }
    }

    /// Adds a word; `glue` attaches it to the previous word (a closing parenthesis).
    fn word(&mut self, word: &str, glue: bool) {
        let chars = word.chars().count();
        let joined = glue || self.after_open;
        if self.line_chars == 0 {
            // Start of the text or of a line.
        } else if !joined && self.line_chars + 1 + chars > self.width {
            self.text.push('\n');
            self.line_chars = 0;
        } else if !joined {
            self.text.push(' ');
            self.line_chars += 1;
        }
        self.text.push_str(word);
        self.line_chars += chars;
        self.after_open = word == "(";
    }

    /// Adds a brace comment whose words may wrap; `}` inside becomes `)`.
    fn comment(&mut self, inner: &str) {
        let cleaned = inner.replace('}', ")");
        let words: Vec<&str> = cleaned.split_whitespace().collect();
        match words.len() {
            0 => self.word("{}", false),
            1 => self.word(&format!("{{{}}}", words[0]), false),
            n => {
                for (i, w) in words.iter().enumerate() {
                    let piece = match i {
                        0 => format!("{{{w}"),
                        _ if i == n - 1 => format!("{w}}}"),
                        _ => (*w).to_string(),
                    };
                    self.word(&piece, false);
                }
            }
        }
    }

    fn finish(self) -> String {
        self.text
    }
}
