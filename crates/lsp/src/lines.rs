//! Where a byte of a document is for the client: the line starts of the text, and the
//! conversion between byte offsets and the protocol's positions, whose columns count
//! UTF-16 code units unless the client agreed to UTF-8 or UTF-32 (LSP 3.17
//! `positionEncoding`).

use lsp_types::Position;

/// What a position's `character` counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Units {
    /// UTF-16 code units: the protocol's default, and what most clients count.
    #[default]
    Utf16,
    /// Bytes of UTF-8.
    Utf8,
    /// Characters (Unicode scalar values), as planilla's own columns count.
    Utf32,
}

impl Units {
    /// The name the protocol gives the encoding.
    pub fn name(self) -> &'static str {
        match self {
            Units::Utf16 => "utf-16",
            Units::Utf8 => "utf-8",
            Units::Utf32 => "utf-32",
        }
    }

    fn of(self, c: char) -> u32 {
        match self {
            Units::Utf16 => c.len_utf16() as u32,
            Units::Utf8 => c.len_utf8() as u32,
            Units::Utf32 => 1,
        }
    }
}

/// The byte offsets at which the lines of a text start (the first is 0). Lines end as
/// the protocol says: at `\n`, `\r\n` or a `\r` alone.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The line starts of `text`.
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = Vec::with_capacity(text.len() / 40 + 1);
        starts.push(0);
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                continue;
            }
            starts.push(i + 1);
        }
        LineIndex { starts }
    }

    /// Number of lines (a text ending in a line end has an empty last line).
    pub fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line of byte `at`.
    pub fn line_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at) - 1
    }

    /// The byte range of 0-based line `line`, its line end excluded.
    pub fn line_span(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let bytes = text.as_bytes();
        let start = self.starts[line.min(self.starts.len() - 1)];
        let Some(&next) = self.starts.get(line + 1) else {
            return start..text.len();
        };
        let mut end = next - 1;
        if bytes[end] == b'\n' && end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        start..end
    }

    /// The byte of 0-based `line` and 1-based `column` in characters (planilla's
    /// findings), clamped to the line.
    pub fn byte_of_column(&self, text: &str, line: usize, column: u64) -> usize {
        let span = self.line_span(text, line);
        let chars = column.saturating_sub(1) as usize;
        text[span.clone()]
            .char_indices()
            .nth(chars)
            .map_or(span.end, |(i, _)| span.start + i)
    }

    /// The protocol's position of byte `at` (clamped to the text, moved back to a
    /// character boundary).
    pub fn position(&self, text: &str, at: usize, units: Units) -> Position {
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let line = self.line_of(at);
        let start = self.starts[line];
        let character = match units {
            Units::Utf8 => (at - start) as u32,
            Units::Utf32 => text[start..at].chars().count() as u32,
            Units::Utf16 => text[start..at].chars().map(char::len_utf16).sum::<usize>() as u32,
        };
        Position::new(line as u32, character)
    }

    /// The byte of a protocol position: a line past the end is the text's end, a column
    /// past the line's end is the line's end, a column inside a character its start.
    pub fn offset(&self, text: &str, position: Position, units: Units) -> usize {
        let line = position.line as usize;
        if line >= self.starts.len() {
            return text.len();
        }
        let span = self.line_span(text, line);
        let mut counted = 0;
        for (i, c) in text[span.clone()].char_indices() {
            let next = counted + units.of(c);
            if next > position.character {
                return span.start + i;
            }
            counted = next;
        }
        span.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_the_units_the_client_agreed_to() {
        let text = "a€b\r\nx𝄞y\n";
        let index = LineIndex::new(text);
        assert_eq!(index.lines(), 3);
        // 'b' is after 'a' (1 byte) and '€' (3 bytes, 1 UTF-16 unit).
        let b = text.find('b').unwrap();
        assert_eq!(index.position(text, b, Units::Utf16), Position::new(0, 2));
        assert_eq!(index.position(text, b, Units::Utf8), Position::new(0, 4));
        assert_eq!(index.position(text, b, Units::Utf32), Position::new(0, 2));
        // 'y' is after a character outside the BMP: two UTF-16 units.
        let y = text.find('y').unwrap();
        assert_eq!(index.position(text, y, Units::Utf16), Position::new(1, 3));
        assert_eq!(index.position(text, y, Units::Utf32), Position::new(1, 2));
        for units in [Units::Utf8, Units::Utf16, Units::Utf32] {
            for at in [0, b, y, text.len()] {
                let p = index.position(text, at, units);
                assert_eq!(index.offset(text, p, units), at, "{units:?} {at}");
            }
        }
        // Past the line's end: the line's end, before its \r\n.
        assert_eq!(index.offset(text, Position::new(0, 99), Units::Utf16), 5);
        assert_eq!(
            index.offset(text, Position::new(9, 0), Units::Utf16),
            text.len()
        );
        assert_eq!(index.byte_of_column(text, 0, 3), b);
        assert_eq!(index.line_span(text, 0), 0..5);
        // A \r alone ends a line too.
        let cr = "a\rb\r\n\rc";
        let cr_index = LineIndex::new(cr);
        assert_eq!(cr_index.lines(), 4);
        assert_eq!(cr_index.line_span(cr, 0), 0..1);
        assert_eq!(cr_index.line_span(cr, 1), 2..3);
        assert_eq!(cr_index.line_span(cr, 2), 5..5);
        assert_eq!(cr_index.position(cr, 6, Units::Utf16), Position::new(3, 0));
        assert_eq!(cr_index.offset(cr, Position::new(3, 1), Units::Utf16), 7);
    }
}
