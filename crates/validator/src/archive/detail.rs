//! A game's details as the temporary file holds them: where the game is, its start and
//! main line, and its tags as written (decoded). Every game's are written and few are
//! read back, so the writing is the part made cheap: numbers as LEB128 varints (most
//! take one byte), moves as 16 bits, strings as length and UTF-8.

/// What the judge reads back of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Detail {
    pub(crate) index: u64,
    /// See [`GameRecord::set_caller_key`](super::GameRecord::set_caller_key): kept
    /// beside the details in the temporary file, not in them.
    pub(crate) caller_key: u64,
    pub(crate) line: u64,
    pub(crate) start: u64,
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

impl Detail {
    /// Reads the details as [`GameRecord::new`](super::GameRecord::new) writes them:
    /// the game's index and line, the tags' number and each name and value
    /// ([`put_text`]), the start's key (8 bytes), the moves' number and each move
    /// (16 bits); `None` for bytes it did not write.
    pub(crate) fn decode(mut b: &[u8], caller_key: u64) -> Option<Detail> {
        let index = take_varint(&mut b)?;
        let line = take_varint(&mut b)?;
        let n = take_varint(&mut b)?;
        let mut tags = Vec::with_capacity(n.min(64) as usize);
        for _ in 0..n {
            let mut text = || {
                let len = usize::try_from(take_varint(&mut b)?).ok()?;
                String::from_utf8(take(&mut b, len)?.to_vec()).ok()
            };
            tags.push((text()?, text()?));
        }
        let start = u64::from_le_bytes(take(&mut b, 8)?.try_into().ok()?);
        let n = take_varint(&mut b)?;
        let moves = (0..n)
            .map(|_| take(&mut b, 2).map(|m| u16::from_le_bytes([m[0], m[1]])))
            .collect::<Option<Vec<u16>>>()?;
        if !b.is_empty() {
            return None;
        }
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
