//! Invariants shared by the fuzz targets.
//!
//! Every target feeds arbitrary bytes to one layer of planilla and asserts, beyond "no
//! panic", the properties that layer promises: the tokenizer tiles every byte, the reader
//! loses no byte and does not depend on read sizes, SAN and FEN read back what they write,
//! and convert keeps every game.

use planilla_parser::{Game, TokenKind, write_lossless};

/// What a reader or tokenizer promises about one game: token spans tile its bytes, tag
/// and finding spans lie inside them, every token can be decoded and located, and the
/// lossless writer gives the bytes back.
pub fn check_game(game: &Game) {
    let bytes = game.bytes();
    let len = bytes.len() as u32;
    let mut at = 0u32;
    for token in game.all_tokens() {
        assert_eq!(token.start, at, "tokens must tile the game's bytes");
        assert!(token.end > token.start, "empty token {token:?}");
        at = token.end;
        let _ = game.decode(token.span());
        let _ = game.location(token.start as usize);
    }
    assert_eq!(at, len, "tokens must cover the game's bytes");
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
    planilla_parser::write_export(game, &mut out, Default::default(), |_, _| None).unwrap();
    assert!(std::str::from_utf8(&out).is_ok(), "export output is UTF-8");
}
