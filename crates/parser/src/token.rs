//! Tokens: a kind and a byte span into one game's bytes.

use std::ops::Range;

/// What a [`Token`] is. Every byte of a game belongs to exactly one token.
///
/// The tokenizer knows nothing of chess rules: a [`TokenKind::San`] is a span whose shape
/// looks like a move in some notation; `planilla-core` decides what it means.
// Four bytes, as wide as a token's offsets: a token is then 12 bytes without padding,
// which a copy would otherwise carry along byte by byte (measured: 0.8% of `check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum TokenKind {
    /// A run of separators: ASCII whitespace and line ends, NO-BREAK SPACE and other
    /// Unicode spaces (in UTF-8 or as Windows-1252 byte `0xA0`), a byte order mark, and
    /// commas (prose such as `1. e4, e5`). Not stored: [`crate::Game::tokens`] leaves these
    /// runs as the gaps between tokens and [`crate::Game::all_tokens`] yields them.
    Whitespace,
    /// A tag pair `[Name "value"]`; see [`crate::Game::tags`] for its name and value spans.
    Tag,
    /// A move number: `12.`, `12...`, `12…`, `12 .` or a bare `12`.
    MoveNumber,
    /// A move-shaped token: SAN in any piece-letter language or figurines, castling with
    /// `O` or `0` and `-` or an en or em dash, long algebraic (`Ng1-f3`, `e2xd3`), UCI-like
    /// (`e2e4`, `e7e8q`), Spanish promotion (`d8D`), the null moves `--` and `Z0`; ICCF
    /// numbers (`5254`, `57581`) and descriptive moves, English (`P-K4`, `QxN(KB2)`,
    /// `Castles`) or Spanish (`P4R`, `C3AR`).
    /// Trailing check marks (`+`, `#`, `++`, and `ch` glued) are part of the token; glued
    /// glyphs (`!?`) and en-passant marks (`a.p.`) are separate tokens.
    San,
    /// An en-passant mark (`e.p.`, `a.p.`, `a. p.`) written after a move, glued or
    /// spaced; it belongs to the nearest [`TokenKind::San`] before it.
    EnPassantMark,
    /// A numeric annotation glyph `$n`.
    Nag,
    /// A move or position glyph: `!`, `?`, `!!`, `??`, `!?`, `?!`, and evaluation marks
    /// such as `=`, `+=`, `±`, `∓`, `+-`, `∞`; a check or mate mark written apart (`+`,
    /// `#`, and the words `ch`, `mate`, `dis ch`, `dbl ch`).
    Glyph,
    /// A brace comment `{...}`, braces included (may span lines).
    Comment,
    /// A rest-of-line comment from `;` up to (not including) the line end.
    LineComment,
    /// A `%` escape line (the `%` in the first column), up to the line end.
    Escape,
    /// `(`: the start of a variation.
    VariationStart,
    /// `)`: the end of a variation.
    VariationEnd,
    /// A draw-offer mark `(=)` or `«=»` (not a variation).
    DrawOffer,
    /// A game-termination marker: `1-0`, `0-1`, `1/2-1/2`, `*`, and the results
    /// scoresheets write beside them with a half point (`½-½`, `½-0`, `0-1/2`,
    /// `0.5-0.5`) or as forfeits both ways (`-/-`, `+/+`).
    Result,
    /// Bytes that fit nothing above; each comes with a `syntax-error` finding.
    Unknown,
}

impl TokenKind {
    /// A short lowercase name, as used in golden files and debug output.
    pub fn name(self) -> &'static str {
        match self {
            TokenKind::Whitespace => "whitespace",
            TokenKind::Tag => "tag",
            TokenKind::MoveNumber => "move-number",
            TokenKind::San => "san",
            TokenKind::EnPassantMark => "en-passant",
            TokenKind::Nag => "nag",
            TokenKind::Glyph => "glyph",
            TokenKind::Comment => "comment",
            TokenKind::LineComment => "line-comment",
            TokenKind::Escape => "escape",
            TokenKind::VariationStart => "variation-start",
            TokenKind::VariationEnd => "variation-end",
            TokenKind::DrawOffer => "draw-offer",
            TokenKind::Result => "result",
            TokenKind::Unknown => "unknown",
        }
    }

    /// Whether the token carries no game content (whitespace, comments, escapes).
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            TokenKind::Whitespace | TokenKind::Comment | TokenKind::LineComment | TokenKind::Escape
        )
    }
}

const _: () = assert!(std::mem::size_of::<Token>() == 12);

/// One token: its kind and its byte span `start..end` in the game's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token {
    /// What the bytes are.
    pub kind: TokenKind,
    /// First byte, relative to the start of the game.
    pub start: u32,
    /// One past the last byte, relative to the start of the game.
    pub end: u32,
}

impl Token {
    /// The byte span in the game's bytes, ready for indexing.
    pub fn span(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether the token is empty (never true for tokens produced by the tokenizer).
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// The spans of one tag pair, relative to the start of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TagSpans {
    /// Index of the [`TokenKind::Tag`] token in [`crate::Game::tokens`].
    pub token: u32,
    /// The tag name, e.g. `White`.
    pub name: (u32, u32),
    /// The raw value between the quotes, escapes (`\"`, `\\`) not yet resolved.
    pub value: (u32, u32),
}

impl TagSpans {
    /// The name span, ready for indexing.
    pub fn name_span(&self) -> Range<usize> {
        self.name.0 as usize..self.name.1 as usize
    }

    /// The raw value span, ready for indexing.
    pub fn value_span(&self) -> Range<usize> {
        self.value.0 as usize..self.value.1 as usize
    }
}
