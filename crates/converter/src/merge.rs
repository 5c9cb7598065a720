//! What `planilla merge` writes of one game: its bytes as read, the same text in the
//! output's encoding, where tags taken from other copies go, and its place under
//! `--sort date`. The run that decides which copy is written (two passes over the
//! inputs, the archive judge's plan between them) is the engine's
//! (`planilla_engine::merge`); this is the per-game part, done in the workers.
//!
//! ```
//! use planilla_converter::merge::{Piece, PieceOptions};
//! use planilla_converter::OutputEncoding;
//! use planilla_parser::{Encoding, Game};
//!
//! // A Latin-1 game, written in UTF-8 with a tag taken from another copy.
//! let game = Game::from_bytes(&b"[White \"Nu\xf1ez\"]\n[Black \"B\"]\n\n1. e4 *\n"[..], Encoding::Auto);
//! let options = PieceOptions { encoding: OutputEncoding::Utf8, tags: true, sort: false };
//! let piece = Piece::new(&game, &options);
//! assert_eq!(piece.raw, game.bytes());
//! let taken = [(String::from("ECO"), String::from("[ECO \"B00\"]"))];
//! let text = piece.with_tags(&taken, OutputEncoding::Utf8).unwrap();
//! assert_eq!(&*text, "[White \"Nuñez\"]\n[Black \"B\"]\n[ECO \"B00\"]\n\n1. e4 *\n".as_bytes());
//! ```

use crate::{Converted, OutputEncoding, Unencodable, encode};
use planilla_parser::Game;
use std::borrow::Cow;

/// What the workers make of each game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceOptions {
    /// The output's encoding.
    pub encoding: OutputEncoding,
    /// Whether the game's tags are kept for `--tags merge`.
    pub tags: bool,
    /// Whether the game's `--sort date` key is made.
    pub sort: bool,
}

/// One game as `merge` may write it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Piece {
    /// The game's bytes exactly as read (what `--dropped` and `--conflicts` get).
    pub raw: Vec<u8>,
    /// The game's text in the output's encoding, when it differs from `raw`; the error
    /// names the first character the encoding cannot hold.
    pub text: Option<Result<Vec<u8>, Unencodable>>,
    /// Where tags taken from other copies go in the written text: after the line of the
    /// last tag (at the start of a game without tags).
    pub tags_at: usize,
    /// The game's line end (`\r\n` when its first line ends so).
    pub crlf: bool,
    /// Whether the game has no tag section (tags taken go before a blank line).
    pub no_tags: bool,
    /// With [`PieceOptions::tags`]: each tag's name, and its line as written (decoded,
    /// escapes as they are), the ones whose value is known only.
    pub tags: Vec<(String, String)>,
    /// The names of the tags the game has with a known value (with
    /// [`PieceOptions::tags`]).
    pub known: Vec<String>,
    /// The tags the game has with an unknown value only (`?`, `????.??.??`): each
    /// name and its tag's span in the written text, which a tag taken replaces (with
    /// [`PieceOptions::tags`]).
    pub unknown: Vec<(String, u32, u32)>,
    /// With [`PieceOptions::sort`]: Date, Event, Round and Board as they sort.
    pub sort: Option<SortKey>,
    /// The game's 1-based index in its file.
    pub index: u64,
    /// The game's bytes in its file (with what was skipped before it).
    pub len_in_file: u64,
    /// The game's offset in its file.
    pub offset: u64,
    /// Whether `raw` is the game's whole text (not a game over a reader limit, of which
    /// only a part is kept): then a game written right after the one before it in its
    /// file follows it as it did there ([`planilla_parser::Joiner::write_from`]).
    pub whole: bool,
}

/// Where a game goes under `--sort date`: Date, then Event, Round, board. A part not
/// known sorts after every known one (`2023.??.??` after every known day of 2023).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct SortKey {
    /// Year, month, day (`u16::MAX` where unknown).
    pub date: [u16; 3],
    /// The Event, as written (ranked by the engine).
    pub event: String,
    /// The Round's numbers (`5.2` is `[5, 2, MAX]`; `MAX` where unknown).
    pub round: [u32; 3],
    /// The Board tag (`MAX` where unknown).
    pub board: u32,
}

/// Tags never taken from another copy: they say what the moves are (the start
/// position, the result, the length), so only the copy's own movetext may set them.
pub const NEVER_TAKEN: [&str; 5] = ["Result", "FEN", "SetUp", "PlyCount", "Termination"];

impl Piece {
    /// What `merge` may write of `game`.
    pub fn new(game: &Game, options: &PieceOptions) -> Piece {
        let bytes = game.bytes();
        let crlf = bytes
            .iter()
            .position(|&b| b == b'\n')
            .is_some_and(|nl| nl > 0 && bytes[nl - 1] == b'\r');
        // The tags go after the last tag's line.
        let (tags_at, no_tags) = match game.tags().last() {
            Some(last) => {
                let end = game.tokens()[last.token as usize].end as usize;
                let line_end = bytes[end..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |nl| end + nl + 1);
                (line_end, false)
            }
            None => (0, true),
        };
        let as_is = is_output(game, options.encoding);
        // A byte offset of the game in the written text: itself, or the length of the
        // text before it once decoded and encoded (the same characters, encoded alike).
        let written_at = |at: usize| -> usize {
            match (as_is, options.encoding) {
                (true, _) => at,
                (false, OutputEncoding::Utf8) => game.decode(0..at).len(),
                (false, _) => game.decode(0..at).chars().count(),
            }
        };
        let (text, tags_at) = if as_is {
            (None, tags_at)
        } else {
            let (head, tail) = (game.decode(0..tags_at), game.decode(tags_at..bytes.len()));
            let converted = Converted {
                text: format!("{head}{tail}"),
                origins: vec![(0, 0)],
                ..Converted::default()
            };
            let mut out = Vec::with_capacity(bytes.len() + 16);
            let encoded = encode(&converted, game, options.encoding, &mut out);
            // The head's length in the output: the same characters, encoded alike.
            let head_len = match options.encoding {
                OutputEncoding::Utf8 => head.len(),
                _ => head.chars().count(),
            };
            (Some(encoded.map(|()| out)), head_len)
        };
        let (mut tags, mut known, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
        if options.tags {
            let pairs: Vec<_> = game.tag_pairs().collect();
            for (i, (name, value)) in pairs.iter().enumerate() {
                let token = game.tokens()[game.tags()[i].token as usize];
                if is_unknown(value) {
                    // Replaced only when the name has no known value elsewhere.
                    let known_elsewhere = pairs.iter().any(|(n, v)| n == name && !is_unknown(v));
                    if !known_elsewhere && !unknown.iter().any(|(n, _, _)| n == name) {
                        let span = token.span();
                        let (start, end) = (written_at(span.start), written_at(span.end));
                        unknown.push((name.to_string(), start as u32, end as u32));
                    }
                    continue;
                }
                if known.iter().any(|k| k == name) {
                    continue;
                }
                tags.push((name.to_string(), game.decode(token.span()).into_owned()));
                known.push(name.to_string());
            }
        }
        Piece {
            raw: bytes.to_vec(),
            text,
            tags_at,
            crlf,
            no_tags,
            tags,
            known,
            unknown,
            sort: options.sort.then(|| sort_key(game)),
            index: game.index(),
            len_in_file: game.len_in_file(),
            offset: game.offset(),
            whole: game.skipped_bytes() == 0,
        }
    }

    /// Where the game lay in its file: its offset and the offset after it.
    pub fn input(&self) -> std::ops::Range<u64> {
        self.offset..self.offset + self.len_in_file
    }

    /// The text written: `text`, or `raw` when that is already the output.
    ///
    /// # Errors
    ///
    /// The first character the output's encoding cannot hold.
    pub fn written(&self) -> Result<&[u8], &Unencodable> {
        match &self.text {
            None => Ok(&self.raw),
            Some(Ok(text)) => Ok(text),
            Some(Err(e)) => Err(e),
        }
    }

    /// The text written with the tag lines `taken` ((name, line) pairs): each in place
    /// of the game's tag of that name whose value is unknown, the others added after its
    /// last tag, one line each, in the game's line end (a game without tags gets them and
    /// a blank line before its moves).
    ///
    /// # Errors
    ///
    /// A character of the game or of a tag line the output's encoding cannot hold.
    pub fn with_tags(
        &self,
        taken: &[(String, String)],
        encoding: OutputEncoding,
    ) -> Result<Cow<'_, [u8]>, Unencodable> {
        let text = self.written().map_err(Clone::clone)?;
        if taken.is_empty() {
            return Ok(Cow::Borrowed(text));
        }
        let end = if self.crlf { "\r\n" } else { "\n" };
        let encoded = |line: String| -> Result<Vec<u8>, Unencodable> {
            let converted = Converted {
                text: line,
                ..Converted::default()
            };
            let mut out = Vec::new();
            encode(&converted, &Game::new(), encoding, &mut out)?;
            Ok(out)
        };
        // Edits: (start, end, bytes), applied in order of their start.
        let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
        let mut added = String::new();
        for (name, line) in taken {
            match self.unknown.iter().find(|(n, _, _)| n == name) {
                Some(&(_, start, stop)) => {
                    edits.push((start as usize, stop as usize, encoded(line.clone())?));
                }
                None => {
                    added.push_str(line);
                    added.push_str(end);
                }
            }
        }
        if !added.is_empty() {
            let at = self.tags_at.min(text.len());
            // A tag section ending without a line end gets one before the new lines.
            if !self.no_tags && at > 0 && text.get(at - 1) != Some(&b'\n') {
                added.insert_str(0, end);
            }
            if self.no_tags {
                added.push_str(end);
            }
            edits.push((at, at, encoded(added)?));
        }
        edits.sort_by_key(|&(start, _, _)| start);
        let mut out = Vec::with_capacity(text.len() + 64);
        let mut at = 0;
        for (start, stop, bytes) in edits {
            let start = start.clamp(at, text.len());
            out.extend_from_slice(&text[at..start]);
            out.extend_from_slice(&bytes);
            at = stop.clamp(start, text.len());
        }
        out.extend_from_slice(&text[at..]);
        Ok(Cow::Owned(out))
    }
}

/// Whether the game's bytes are already its text in `encoding`: ASCII, or UTF-8 read as
/// UTF-8 into a UTF-8 output.
fn is_output(game: &Game, encoding: OutputEncoding) -> bool {
    let e = game.encoding();
    e.ascii || (encoding == OutputEncoding::Utf8 && e.utf8 && !game.encoding_choice().single_byte())
}

/// Whether a tag's value says nothing: empty, or only `?`, `.`, `-` and `*` (as the
/// information score counts them).
pub fn is_unknown(value: &str) -> bool {
    value
        .trim()
        .bytes()
        .all(|b| matches!(b, b'?' | b'.' | b'-' | b'*'))
}

/// Date, Event, Round and Board of `game`, as they sort.
fn sort_key(game: &Game) -> SortKey {
    let date = game.tag("Date").unwrap_or_default();
    let mut parts = date.split('.').map(number);
    let date = [0; 3].map(|_| {
        parts
            .next()
            .flatten()
            .map_or(u16::MAX, |n| n.min(9999) as u16)
    });
    let round = game.tag("Round").unwrap_or_default();
    let mut parts = round.split('.').map(number);
    let round = [0; 3].map(|_| parts.next().flatten().unwrap_or(u32::MAX));
    let board = game
        .tag("Board")
        .and_then(|b| number(&b))
        .unwrap_or(u32::MAX);
    let event = game.tag("Event").unwrap_or_default();
    SortKey {
        date,
        event: if is_unknown(&event) {
            // Unknown events sort after every named one.
            "\u{10FFFF}".to_string()
        } else {
            event.trim().to_string()
        },
        round,
        board,
    }
}

/// A number written with digits only (`05` is 5); `None` for anything else.
fn number(s: &str) -> Option<u32> {
    let s = s.trim();
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().unwrap_or(u32::MAX - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use planilla_parser::Encoding;

    fn piece(pgn: &[u8], encoding: OutputEncoding) -> Piece {
        let game = Game::from_bytes(pgn, Encoding::Auto);
        Piece::new(
            &game,
            &PieceOptions {
                encoding,
                tags: true,
                sort: true,
            },
        )
    }

    #[test]
    fn tags_go_after_the_last_tag_line_in_the_games_line_end() {
        let taken = [("ECO".to_string(), "[ECO \"C60\"]".to_string())];
        let p = piece(
            b"[White \"A\"]\r\n[Black \"B\"]\r\n\r\n1. e4 *\r\n",
            OutputEncoding::Utf8,
        );
        let text = p.with_tags(&taken, OutputEncoding::Utf8).unwrap();
        assert_eq!(
            &*text,
            b"[White \"A\"]\r\n[Black \"B\"]\r\n[ECO \"C60\"]\r\n\r\n1. e4 *\r\n"
        );
        let p = piece(b"1. e4 *\n", OutputEncoding::Utf8);
        let text = p.with_tags(&taken, OutputEncoding::Utf8).unwrap();
        assert_eq!(&*text, b"[ECO \"C60\"]\n\n1. e4 *\n");
    }

    #[test]
    fn a_tag_taken_replaces_an_unknown_value_in_place() {
        let taken = [
            ("Site".to_string(), "[Site \"Le\u{f3}n\"]".to_string()),
            ("ECO".to_string(), "[ECO \"B90\"]".to_string()),
        ];
        let raw = b"[Event \"Open\"]\n[Site \"?\"]\n[White \"Nu\xf1ez\"]\n\n1. e4 *\n";
        for encoding in [OutputEncoding::Utf8, OutputEncoding::Latin1] {
            let p = piece(raw, encoding);
            let text = p.with_tags(&taken, encoding).unwrap();
            let text = match encoding {
                OutputEncoding::Utf8 => String::from_utf8(text.to_vec()).unwrap(),
                _ => text.iter().map(|&b| b as char).collect(),
            };
            assert_eq!(
                text,
                "[Event \"Open\"]\n[Site \"Le\u{f3}n\"]\n[White \"Nu\u{f1}ez\"]\n[ECO \"B90\"]\n\n1. e4 *\n",
                "{encoding}"
            );
        }
    }

    #[test]
    fn latin1_games_are_written_in_the_output_encoding() {
        let raw = b"[White \"Nu\xf1ez\"]\n[Black \"B\"]\n\n1. e4 *\n";
        let p = piece(raw, OutputEncoding::Utf8);
        assert_eq!(p.raw, raw);
        let taken = [("Site".to_string(), "[Site \"Bogot\u{e1}\"]".to_string())];
        let text = p.with_tags(&taken, OutputEncoding::Utf8).unwrap();
        assert_eq!(
            std::str::from_utf8(&text).unwrap(),
            "[White \"Nu\u{f1}ez\"]\n[Black \"B\"]\n[Site \"Bogot\u{e1}\"]\n\n1. e4 *\n"
        );
        // Into Latin-1 the game is its own bytes again.
        let p = piece(raw, OutputEncoding::Latin1);
        assert_eq!(p.written().unwrap(), raw);
        let text = p.with_tags(&taken, OutputEncoding::Latin1).unwrap();
        assert_eq!(
            &*text,
            b"[White \"Nu\xf1ez\"]\n[Black \"B\"]\n[Site \"Bogot\xe1\"]\n\n1. e4 *\n"
        );
        // A character Latin-1 cannot hold is an error, never a substitute.
        let p = piece(
            "[White \"\u{141}\"]\n\n1. e4 *\n".as_bytes(),
            OutputEncoding::Latin1,
        );
        assert!(p.written().is_err());
    }

    #[test]
    fn known_tags_and_sort_keys() {
        let p = piece(
            b"[Event \"Open\"]\n[Site \"?\"]\n[Date \"2023.??.05\"]\n[Round \"5.2\"]\n[ECO \"\"]\n\n1. e4 *\n",
            OutputEncoding::Utf8,
        );
        assert_eq!(p.known, ["Event", "Date", "Round"]);
        let unknown: Vec<&str> = p.unknown.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(unknown, ["Site", "ECO"]);
        let key = p.sort.unwrap();
        assert_eq!(key.date, [2023, u16::MAX, 5]);
        assert_eq!(key.round, [5, 2, u32::MAX]);
        assert_eq!(key.board, u32::MAX);
        assert_eq!(key.event, "Open");
    }
}
