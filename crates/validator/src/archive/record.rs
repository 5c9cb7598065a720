//! The per-game record: a few fixed-size keys the judge keeps in memory, and the
//! details (moves, tags, place) it reads back only for games whose keys repeat.
//!
//! The record is built in the worker that checked the game, so the work of hashing and
//! encoding is spread over the threads; the thread that hands results on in input order
//! only stores it.

use planilla_core::{Move, Position, Validation};
use planilla_parser::Game;
use std::borrow::Cow;

/// The slots of a record's keys, one per question the judge asks.
pub(crate) const SLOTS: usize = 7;
/// Same start position and main line: `duplicate-game`.
pub(crate) const LINE: usize = 0;
/// Same White and Black, start and first [`OPENING`] plies: `truncated-copy`.
pub(crate) const PAIR_OPENING: usize = 1;
/// Same Event, Round, White and Black: `conflicting-copies`, and `truncated-copy` of
/// games shorter than [`OPENING`] plies.
pub(crate) const PAIR_IN_ROUND: usize = 2;
/// Same Event, Round and White: `round-conflict`.
pub(crate) const WHITE_IN_ROUND: usize = 3;
/// Same Event, Round and Black: `round-conflict`.
pub(crate) const BLACK_IN_ROUND: usize = 4;
/// Same Event, Round and Board: `round-conflict`.
pub(crate) const BOARD_IN_ROUND: usize = 5;
/// Same White and Black: `truncated-copy` of games shorter than [`OPENING`] plies,
/// looked up only for the pairs of such games.
pub(crate) const PAIR: usize = 6;

/// The plies of the opening that a truncated copy shares with the longer game, when it
/// has that many: the same players meet again and again, and their games' first plies
/// tell most of them apart, so that few games are read back for nothing.
pub(crate) const OPENING: usize = 4;

/// What the judge needs of one game: computed from the game and its replayed main line
/// by whoever checked it, and fed to an [`Archive`](super::Archive) in input order.
///
/// ```
/// use planilla_parser::Game;
/// use planilla_validator::Checker;
/// use planilla_validator::archive::GameRecord;
///
/// let game = Game::from_bytes("[White \"Carlsen, M.\"]\n[Black \"Caruana,F\"]\n\n1. e4 e5 *", Default::default());
/// let (mut findings, mut main_line) = (Vec::new(), Vec::new());
/// Checker::default().check_main_line(&game, &mut findings, &mut main_line);
/// let record = GameRecord::new(&game, &main_line);
/// assert_eq!(record.plies(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The keys of each slot; 0 where the game has none (a name or round unknown).
    pub(crate) keys: [u64; SLOTS],
    /// Each player's FideId and normalised name, where both are known.
    pub(crate) identities: [Option<(u64, u64)>; 2],
    /// White and Black, for `--shard-by moves` (0: a name unknown).
    pair: u64,
    /// Event and Round, for `--shard-by moves` (0: unknown).
    round: u64,
    /// The key of the game's home shard under `--shard-by moves`.
    home: u64,
    /// The details, encoded (see [`Detail`]).
    pub(crate) detail: Vec<u8>,
    plies: u32,
}

impl GameRecord {
    /// The record of `game`, whose main line replayed as `main_line` (the moves
    /// [`Checker::check_main_line`](crate::Checker::check_main_line) leaves).
    pub fn new(game: &Game, main_line: &[Move]) -> GameRecord {
        let moves: Vec<u16> = main_line.iter().map(move_code).collect();
        let start = start_key(game);
        let first = game
            .tags()
            .first()
            .map_or(0, |t| game.tokens()[t.token as usize].start as usize);
        // One pass over the tags writes the details and keeps the values compared.
        let mut values: [Option<Cow<'_, str>>; FACT_TAGS.len()] = Default::default();
        // The details' size, from the tags' bytes as written (their text is no longer
        // unless escapes or another encoding make it so): the buffer grows once at most.
        let size = 48
            + 2 * moves.len()
            + game
                .tags()
                .iter()
                .map(|t| 8 + t.name_span().len() + t.value_span().len())
                .sum::<usize>();
        let detail = encode(
            [game.index(), 0, game.location(first).line, start],
            &moves,
            game.tag_pairs(),
            &mut values,
            size,
        );
        let facts = Facts::read(|name| {
            let i = FACT_TAGS.iter().position(|t| *t == name)?;
            values[i].clone()
        });
        let (keys, line) = keys(start, &moves, &facts);
        let pair = keys[PAIR];
        let identities = [
            facts.identity(&facts.white, facts.white_fide),
            facts.identity(&facts.black, facts.black_fide),
        ];
        let plies = moves.len() as u32;
        GameRecord {
            keys,
            pair,
            round: facts.in_round_key(5, "-", ""),
            home: if pair != 0 { pair } else { line },
            identities,
            detail,
            plies,
        }
    }

    /// Attaches a number of the caller's to the game (the binary's content key, for
    /// baselines), given back with the game's findings as [`ArchiveFinding::caller_key`](super::ArchiveFinding::caller_key).
    pub fn set_caller_key(&mut self, key: u64) {
        self.detail[8..16].copy_from_slice(&key.to_le_bytes());
    }

    /// Half-moves of the main line that replayed.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Keeps only what shard `k` of `n` judges under `--shard-by moves`, and says
    /// whether the game belongs to that shard at all, and whether it is the game's
    /// home shard (the one that reports its own findings).
    ///
    /// Every kind of copy lands in one shard: duplicates by their main line (the same
    /// in every copy), truncated and conflicting copies by their players, round
    /// conflicts by their Event and Round. A game is in up to three shards, one per
    /// question; its home is its players' shard (its main line's when a name is
    /// unknown). `player-identity` is judged by no shard: see [`Shard`].
    pub fn shard(&mut self, shard: Shard) -> ShardRole {
        let of = |key: u64| key != 0 && key % shard.n.max(1) == shard.k;
        let home = of(self.home);
        let keep = [
            of(self.keys[LINE]),
            of(self.pair),
            of(self.pair),
            of(self.round),
            of(self.round),
            of(self.round),
            of(self.pair),
        ];
        for (key, keep) in self.keys.iter_mut().zip(keep) {
            if !keep {
                *key = 0;
            }
        }
        self.identities = [None, None];
        ShardRole {
            judged: keep.iter().any(|&k| k),
            home,
        }
    }
}

/// One shard of `n` (`--shard K/N`, read by its `FromStr`): of the games by their index
/// in their file ([`Shard::keeps`]), or by the `--shard-by moves` keys
/// ([`GameRecord::shard`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, below `n`.
    pub k: u64,
    /// How many shards (0 counts as 1).
    pub n: u64,
}

impl Shard {
    /// Whether the game of 1-based index `game` in its file is this shard's: N runs
    /// with K = 0..N-1 split a file's games exactly.
    pub fn keeps(&self, game: u64) -> bool {
        game % self.n.max(1) == self.k
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Reads `K/N` with 0 <= K < N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard '{s}': write K/N with 0 <= K < N, e.g. 0/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

/// What a shard does with a game (see [`GameRecord::shard`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRole {
    /// Some archive question about the game is judged in this shard.
    pub judged: bool,
    /// This shard is the game's home: it reports the game's own findings.
    pub home: bool,
}

/// The keys of a game's slots, and the key of its start and main line (also for an
/// empty line, which has no [`LINE`] key): from the game when it is checked, and again
/// from its details when the judge confirms that a 32-bit key repeats not by chance.
pub(crate) fn keys(start: u64, moves: &[u16], facts: &Facts) -> ([u64; SLOTS], u64) {
    let pair = facts.pair_key();
    let mut line = Hasher::new(1);
    line.u64(start);
    let mut opening = Hasher::new(8);
    opening.u64(pair);
    opening.u64(start);
    for (i, &m) in moves.iter().enumerate() {
        line.u64(u64::from(m));
        if i < OPENING {
            opening.u64(u64::from(m));
        }
    }
    let line = line.finish();
    let keys = [
        // An empty main line (a game not played, a forfeit) copies nothing.
        if moves.is_empty() { 0 } else { line },
        if moves.len() < OPENING || pair == 0 {
            0
        } else {
            opening.finish()
        },
        if pair == 0 {
            0
        } else {
            facts.in_round_key(9, &facts.white, &facts.black)
        },
        facts.in_round_key(6, &facts.white, ""),
        facts.in_round_key(6, &facts.black, ""),
        facts.in_round_key(4, &facts.board, ""),
        pair,
    ];
    (keys, line)
}

/// A move as 16 bits: from, to (the king's destination for castling) and promotion,
/// which tell apart every legal move of a position.
fn move_code(m: &Move) -> u16 {
    let promotion = m.promotion().map_or(0, |r| r.index() as u16 + 1);
    (m.from().index() as u16) | (m.to().index() as u16) << 6 | promotion << 12
}

/// The key of the game's start: the standard position's, or its FEN's position (the
/// move counters left out); an unreadable FEN is keyed by its text.
fn start_key(game: &Game) -> u64 {
    match game.tag("FEN") {
        None => Position::new().zobrist(),
        Some(fen) => match Position::from_fen(&fen, Validation::Relaxed) {
            Ok(pos) => pos.zobrist(),
            Err(_) => {
                let mut h = Hasher::new(2);
                h.bytes(fen.trim().as_bytes());
                h.finish()
            }
        },
    }
}

/// What the judge reads back of a game: where it is, its start and main line, and its
/// tags as written (decoded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Detail {
    pub(crate) index: u64,
    /// See [`GameRecord::set_caller_key`]; encoded right after `index`.
    pub(crate) caller_key: u64,
    pub(crate) line: u64,
    pub(crate) start: u64,
    pub(crate) moves: Vec<u16>,
    pub(crate) tags: Vec<(String, String)>,
}

/// The bytes of a game's [`Detail`] (its caller key 0): fixed-width little-endian
/// numbers, strings as length and UTF-8. Written straight from the game, as every game
/// has them and few are read back.
///
/// The values of the tags named in [`FACT_TAGS`] are kept in `values` (the first of each).
fn encode<'g>(
    numbers: [u64; 4],
    moves: &[u16],
    tags: impl Iterator<Item = (Cow<'g, str>, Cow<'g, str>)>,
    values: &mut [Option<Cow<'g, str>>; FACT_TAGS.len()],
    size: usize,
) -> Vec<u8> {
    let mut b = Vec::with_capacity(size);
    for n in numbers {
        b.extend_from_slice(&n.to_le_bytes());
    }
    b.extend_from_slice(&(moves.len() as u32).to_le_bytes());
    for m in moves {
        b.extend_from_slice(&m.to_le_bytes());
    }
    let count = b.len();
    b.extend_from_slice(&0u32.to_le_bytes());
    let mut n = 0u32;
    for (name, value) in tags {
        for s in [&name, &value] {
            b.extend_from_slice(&(s.len() as u32).to_le_bytes());
            b.extend_from_slice(s.as_bytes());
        }
        if let Some(i) = FACT_TAGS.iter().position(|t| *t == name) {
            values[i].get_or_insert(value);
        }
        n += 1;
    }
    b[count..count + 4].copy_from_slice(&n.to_le_bytes());
    b
}

impl Detail {
    /// Reads what [`encode`] wrote; `None` for bytes it did not write.
    pub(crate) fn decode(mut b: &[u8]) -> Option<Detail> {
        let index = take_u64(&mut b)?;
        let caller_key = take_u64(&mut b)?;
        let line = take_u64(&mut b)?;
        let start = take_u64(&mut b)?;
        let n = take_u32(&mut b)? as usize;
        let moves = (0..n)
            .map(|_| take(&mut b, 2).map(|m| u16::from_le_bytes([m[0], m[1]])))
            .collect::<Option<Vec<u16>>>()?;
        let n = take_u32(&mut b)? as usize;
        let mut tags = Vec::with_capacity(n.min(64));
        for _ in 0..n {
            let mut text = || {
                let len = take_u32(&mut b)? as usize;
                String::from_utf8(take(&mut b, len)?.to_vec()).ok()
            };
            tags.push((text()?, text()?));
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

fn take_u32(b: &mut &[u8]) -> Option<u32> {
    take(b, 4).map(|s| u32::from_le_bytes(s.try_into().expect("4 bytes")))
}

fn take_u64(b: &mut &[u8]) -> Option<u64> {
    take(b, 8).map(|s| u64::from_le_bytes(s.try_into().expect("8 bytes")))
}

/// The tags whose values [`Facts`] reads.
const FACT_TAGS: [&str; 9] = [
    "White",
    "Black",
    "Event",
    "Round",
    "Board",
    "WhiteFideId",
    "BlackFideId",
    "EventDate",
    "Date",
];

/// The tags the judge compares, normalised: empty where unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) event: String,
    pub(crate) round: String,
    pub(crate) board: String,
    pub(crate) white_fide: Option<u64>,
    pub(crate) black_fide: Option<u64>,
}

impl Facts {
    /// The normalised tags of a game's details.
    pub(crate) fn of(d: &Detail) -> Facts {
        Facts::read(|name| d.tag(name).map(Cow::Borrowed))
    }

    /// The normalised tags of a game whose tag values `tag` gives.
    fn read<'t>(tag: impl Fn(&str) -> Option<Cow<'t, str>>) -> Facts {
        let fide = |name: &str| {
            tag(name)
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|&id| id != 0)
        };
        let text =
            |name: &str, how: fn(&str) -> String| tag(name).map(|v| how(&v)).unwrap_or_default();
        // An event recurs under one name year after year ("Dortmund", round 6 of
        // 1993 and of 1995): its year, from EventDate or else Date, is part of it.
        let year = |name: &str| {
            tag(name).and_then(|v| {
                let year = v.trim().get(..4)?;
                year.bytes()
                    .all(|b| b.is_ascii_digit())
                    .then(|| year.to_string())
            })
        };
        let mut event = text("Event", normalise);
        if !event.is_empty() {
            event.push('@');
            event.push_str(
                &year("EventDate")
                    .or_else(|| year("Date"))
                    .unwrap_or_default(),
            );
        }
        Facts {
            white: text("White", normalise),
            black: text("Black", normalise),
            event,
            round: text("Round", known_round),
            board: text("Board", known_round),
            white_fide: fide("WhiteFideId"),
            black_fide: fide("BlackFideId"),
        }
    }

    /// Whether Event and Round are both known: only then can two games be in one round.
    pub(crate) fn round_known(&self) -> bool {
        !self.event.is_empty() && !self.round.is_empty()
    }

    fn pair_key(&self) -> u64 {
        if self.white.is_empty() || self.black.is_empty() {
            return 0;
        }
        let mut h = Hasher::new(3);
        h.bytes(self.white.as_bytes());
        h.bytes(self.black.as_bytes());
        h.finish()
    }

    /// The key of `what` (and `more`) in this game's Event and Round; 0 when the round
    /// or `what` is unknown.
    fn in_round_key(&self, salt: u64, what: &str, more: &str) -> u64 {
        if !self.round_known() || what.is_empty() {
            return 0;
        }
        let mut h = Hasher::new(salt);
        h.bytes(self.event.as_bytes());
        h.bytes(self.round.as_bytes());
        h.bytes(what.as_bytes());
        h.bytes(more.as_bytes());
        h.finish()
    }

    fn identity(&self, name: &str, fide: Option<u64>) -> Option<(u64, u64)> {
        let fide = fide?;
        if name.is_empty() {
            return None;
        }
        let mut h = Hasher::new(7);
        h.bytes(name.as_bytes());
        Some((fide, h.finish()))
    }
}

/// A name, event or similar compared without case, spaces and punctuation: its letters
/// and digits, lower case ("Carlsen, M." and "carlsen m" are one). `?` becomes empty.
pub(crate) fn normalise(text: &str) -> String {
    // Nearly every name is ASCII: a byte at a time, without Unicode's tables.
    if text.is_ascii() {
        let mut out = text.to_ascii_lowercase();
        out.retain(|c| c.is_ascii_alphanumeric());
        return out;
    }
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A Round or Board value, trimmed; empty for the values that say it is unknown.
fn known_round(text: &str) -> String {
    match text.trim() {
        "" | "?" | "-" => String::new(),
        known => known.to_string(),
    }
}

/// FNV-1a over bytes with the length of each field mixed in, finished by a strong mix:
/// stable across builds and machines (shards of one archive may be run on several),
/// never 0 (0 means "no key").
pub(crate) struct Hasher(u64);

impl Hasher {
    pub(crate) fn new(salt: u64) -> Hasher {
        Hasher(0xcbf2_9ce4_8422_2325 ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.u64(bytes.len() as u64);
    }

    pub(crate) fn u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v).wrapping_mul(0x0000_0100_0000_01b3);
        self.0 = self.0.rotate_left(29);
    }

    pub(crate) fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        z.max(1)
    }
}
