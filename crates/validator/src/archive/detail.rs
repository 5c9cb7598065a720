//! A game's details as the temporary file holds them: where the game is, its tags as
//! written (decoded), its start and main line. Every game's are written and few are
//! read back, so the writing is the part made cheap, and the file small (the system's
//! work for it grows with its bytes): numbers as LEB128 varints (most take one byte),
//! the usual tag names as a byte ([`names`]), the standard start as a
//! byte, moves as 12 bits ([`MoveWriter`]).

use super::names;
use super::record::standard_start;

/// What the judge reads back of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Detail {
    pub(crate) index: u64,
    /// See [`GameRecord::set_caller_key`](super::GameRecord::set_caller_key): kept
    /// beside the details in the temporary file, not in them.
    pub(crate) caller_key: u64,
    pub(crate) line: u64,
    pub(crate) start: u64,
    /// The main line's moves as [`move codes`](super::record::move_code).
    pub(crate) moves: Vec<u16>,
    pub(crate) tags: Vec<(String, String)>,
}

/// Appends `n` as a LEB128 varint: seven bits a byte, the high bit set on all but the
/// last.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends a string: its length, then its bytes.
pub(crate) fn put_text(out: &mut Vec<u8>, text: &[u8]) {
    put_varint(out, text.len() as u64);
    out.extend_from_slice(text);
}

/// Appends the key of the game's start: 0 for the standard position's, else 1 and the
/// key (8 bytes).
pub(crate) fn put_start(out: &mut Vec<u8>, start: u64) {
    if start == standard_start() {
        out.push(0);
    } else {
        out.push(1);
        out.extend_from_slice(&start.to_le_bytes());
    }
}

/// The bits of a word of four move codes that hold an underpromotion's piece.
const PROMOTIONS: u64 = 0xf000_f000_f000_f000;

/// Writes a main line's move codes: each code's low 12 bits (its from and to squares),
/// two codes to three bytes, the first in the low bits; then the underpromotions,
/// rare, apart: their number, and each one's ply (0-based) and piece.
#[derive(Default)]
pub(crate) struct MoveWriter {
    plies: u64,
    promotions: Vec<(u64, u8)>,
}

impl MoveWriter {
    /// Appends the `n` (1 to 4; below 4 only for the line's last moves) codes packed in
    /// `word`: four 16-bit lanes, the first in the low bits, the lanes past `n` 0.
    #[inline]
    pub(crate) fn push4(&mut self, out: &mut Vec<u8>, word: u64, n: usize) {
        let packed = (word & 0xfff)
            | (word >> 4 & 0xfff_000)
            | (word >> 8 & 0xfff_000_000)
            | (word >> 12 & 0xfff_000_000_000);
        if n == 4 {
            out.extend_from_slice(&packed.to_le_bytes()[..6]);
        } else {
            out.extend_from_slice(&packed.to_le_bytes()[..(12 * n).div_ceil(8)]);
        }
        if word & PROMOTIONS != 0 {
            self.note_promotions(word);
        }
        self.plies += n as u64;
    }

    #[cold]
    fn note_promotions(&mut self, word: u64) {
        for lane in 0..4 {
            let piece = (word >> (16 * lane + 12)) as u8 & 0xf;
            if piece != 0 {
                self.promotions.push((self.plies + lane, piece));
            }
        }
    }

    /// Appends the underpromotions.
    pub(crate) fn finish(self, out: &mut Vec<u8>) {
        put_varint(out, self.promotions.len() as u64);
        for (ply, piece) in self.promotions {
            put_varint(out, ply);
            out.push(piece);
        }
    }
}

/// Reads `n` move codes written by a [`MoveWriter`], which must fill the rest of `b`.
fn take_moves(b: &mut &[u8], n: u64) -> Option<Vec<u16>> {
    let n = usize::try_from(n).ok()?;
    let packed = take(b, n.checked_mul(12)?.div_ceil(8))?;
    let mut moves = Vec::with_capacity(n);
    for three in packed.chunks(3) {
        let word = three
            .iter()
            .rev()
            .fold(0u32, |word, &byte| word << 8 | u32::from(byte));
        moves.push((word & 0xfff) as u16);
        if three.len() == 3 && moves.len() < n {
            moves.push((word >> 12) as u16);
        }
    }
    for _ in 0..take_varint(b)? {
        let ply = usize::try_from(take_varint(b)?).ok()?;
        let piece = take(b, 1)?[0];
        if !(1..=3).contains(&piece) {
            return None;
        }
        *moves.get_mut(ply)? |= u16::from(piece) << 12;
    }
    b.is_empty().then_some(moves)
}

impl Detail {
    /// Reads the details as [`GameRecord::new`](super::GameRecord::new) writes them:
    /// the game's index and line, the tags' number and each name (its code in
    /// [`names`], and after a 0 its text) and value ([`put_text`]), the start
    /// ([`put_start`]), the moves' number and the moves ([`MoveWriter`]); `None` for
    /// bytes it did not write.
    pub(crate) fn decode(mut b: &[u8], caller_key: u64) -> Option<Detail> {
        let index = take_varint(&mut b)?;
        let line = take_varint(&mut b)?;
        let n = take_varint(&mut b)?;
        let mut tags = Vec::with_capacity(n.min(64) as usize);
        for _ in 0..n {
            let text = |b: &mut &[u8]| {
                let len = usize::try_from(take_varint(b)?).ok()?;
                String::from_utf8(take(b, len)?.to_vec()).ok()
            };
            let name = match take(&mut b, 1)?[0] {
                0 => text(&mut b)?,
                code => names::name(code)?.to_string(),
            };
            tags.push((name, text(&mut b)?));
        }
        let start = match take(&mut b, 1)?[0] {
            0 => standard_start(),
            1 => u64::from_le_bytes(take(&mut b, 8)?.try_into().ok()?),
            _ => return None,
        };
        let n = take_varint(&mut b)?;
        let moves = take_moves(&mut b, n)?;
        Some(Detail {
            index,
            caller_key,
            line,
            start,
            moves,
            tags,
        })
    }

    /// The value of the first tag of this name.
    pub(crate) fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn take<'b>(b: &mut &'b [u8], n: usize) -> Option<&'b [u8]> {
    if b.len() < n {
        return None;
    }
    let (head, rest) = b.split_at(n);
    *b = rest;
    Some(head)
}

/// Reads what [`put_varint`] wrote, from the front of `b`.
pub(crate) fn take_varint(b: &mut &[u8]) -> Option<u64> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = b.split_first()?;
        *b = rest;
        n |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Some(n);
        }
    }
    None
}
