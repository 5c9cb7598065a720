//! The reader's and the tokenizer's promises about one game.

use std::io::{self, Read};

use planilla_parser::{
    Encoding, ExportOptions, Game, SEPARATOR, TokenKind, write_export, write_lossless,
};

/// Whether the game's tokens tile its bytes: each starts where the one before it ended,
/// none is empty, and the last ends at the game's end.
///
/// # Errors
///
/// The first token that breaks the tiling, or where the tokens stop short of the end,
/// as a message for a report (the corpus checker prints it beside the file's name).
pub fn tokens_tile(game: &Game) -> Result<(), String> {
    let mut at = 0u32;
    for token in game.all_tokens() {
        if token.start != at || token.end <= token.start {
            return Err(format!(
                "token {} at {}..{} does not follow {at}",
                token.kind.name(),
                token.start,
                token.end
            ));
        }
        at = token.end;
    }
    if at as usize != game.bytes().len() {
        return Err(format!("tokens end at {at} of {}", game.bytes().len()));
    }
    Ok(())
}

/// Asserts everything a reader or tokenizer promises about one game: its tokens tile its
/// bytes ([`tokens_tile`]), every token decodes and locates, whitespace stays implicit,
/// tag and finding spans lie inside the game, the lossless writer gives the bytes back
/// and the export writer writes UTF-8.
///
/// # Panics
///
/// On the first broken promise, with what broke it.
pub fn check_game(game: &Game) {
    if let Err(message) = tokens_tile(game) {
        panic!("tokens must tile the game's bytes: {message}");
    }
    let bytes = game.bytes();
    let len = bytes.len() as u32;
    for token in game.all_tokens() {
        let _ = game.decode(token.span());
        let _ = game.location(token.start as usize);
    }
    for token in game.tokens() {
        assert_ne!(token.kind, TokenKind::Whitespace, "whitespace is implicit");
    }
    for tag in game.tags() {
        let token = game.tokens()[tag.token as usize];
        assert_eq!(token.kind, TokenKind::Tag);
        assert!(token.start <= tag.name.0 && tag.name.0 < tag.name.1 && tag.name.1 <= token.end);
        assert!(tag.value.0 <= tag.value.1 && tag.value.1 <= token.end);
    }
    for (name, value) in game.tag_pairs() {
        let _ = (name.len(), value.len());
    }
    for finding in game.findings() {
        assert!(finding.span.start <= finding.span.end, "{finding:?}");
        assert!(finding.span.end <= len, "finding past the end: {finding:?}");
        let _ = game.location(finding.span.start as usize);
    }
    let mut out = Vec::with_capacity(bytes.len());
    write_lossless(game, &mut out, |_, _| None).unwrap();
    assert!(out == bytes, "write_lossless must give the bytes back");
    out.clear();
    write_export(game, &mut out, ExportOptions::default(), |_, _| None).unwrap();
    assert!(std::str::from_utf8(&out).is_ok(), "export output is UTF-8");
}

/// Whether `gap`, bytes a reader left between two games or after the last one, holds only
/// what belongs to no game: blank text (as `encoding` decodes it) and separator lines
/// ([`SEPARATOR`]).
pub fn belongs_to_no_game(gap: &[u8], encoding: Encoding) -> bool {
    gap.split(|&b| b == b'\n').all(|line| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        line == SEPARATOR.as_bytes() || Game::from_bytes(line, encoding).tokens().is_empty()
    })
}

/// A reader over bytes in memory that hands out at most as many bytes as asked, so that
/// a small buffer size really means small reads.
pub struct Chunked<'a>(pub &'a [u8]);

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}
