//! The per-game record: a few fixed-size keys the judge keeps in memory, and the
//! details (moves, tags, place) it reads back only for games whose keys repeat.
//!
//! The record is built in the worker that checked the game, so the work of hashing and
//! encoding is spread over the threads; the thread that hands results on in input order
//! only stores it.

use super::detail::{Detail, MoveWriter, put_start, put_text, put_varint, take_varint};
use super::facts::{FACT_TAGS, FEN, Fields, Hasher};
use super::names;
use planilla_core::{Move, Position, Validation};
use planilla_parser::Game;
use std::borrow::Cow;
use std::sync::OnceLock;

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
// The opening's moves are one word of codes (see `LineHasher`).
const _: () = assert!(OPENING <= 4);

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
    /// Each player's FideId and normalised name's key, where both are known.
    pub(crate) identities: [Option<(u64, u64)>; 2],
    /// White and Black, for `--shard-by moves` (0: a name unknown).
    pair: u64,
    /// Event and Round, for `--shard-by moves` (0: unknown).
    round: u64,
    /// The key of the game's home shard under `--shard-by moves`.
    home: u64,
    /// See [`GameRecord::set_caller_key`].
    pub(crate) caller_key: u64,
    /// The details, encoded (see [`Detail`](super::detail::Detail)).
    pub(crate) detail: Vec<u8>,
    plies: u32,
}

impl GameRecord {
    /// The record of `game`, whose main line replayed as `main_line` (the moves
    /// [`Checker::check_main_line`](crate::Checker::check_main_line) leaves).
    pub fn new(game: &Game, main_line: &[Move]) -> GameRecord {
        let bytes = game.bytes();
        let tags = game.tags();
        let first = tags
            .first()
            .map_or(0, |t| game.tokens()[t.token as usize].start as usize);
        // The details' size, from the tags' bytes as written (their text is no longer
        // unless escapes or another encoding make it so): the buffer grows once at most.
        let size = 32
            + 2 * main_line.len()
            + tags
                .iter()
                .map(|t| 4 + t.name_span().len() + t.value_span().len())
                .sum::<usize>();
        let mut detail = Vec::with_capacity(size);
        put_varint(&mut detail, game.index());
        // The line of the first tag, counted only when the game does not start with it.
        let line = match first {
            0 => game.first_line(),
            _ => game.location(first).line,
        };
        put_varint(&mut detail, line);
        put_varint(&mut detail, tags.len() as u64);
        let mut values: [Option<Cow<'_, [u8]>>; FACT_TAGS.len()] = Default::default();
        // A tag that is ASCII without an escape is its own decoded text, as
        // `Game::tag_pairs` gives it: one look over all the tags says whether every tag
        // is, and the others are decoded as `tag_pairs` does, only in a game that has one.
        let end = tags.last().map_or(first, |t| t.value_span().end);
        let plain = game.encoding().ascii
            && bytes
                .get(first..end)
                // Every byte looked at, without stopping at the first: a loop the
                // compiler makes wide, faster than a search on a text with no `\\`.
                .is_some_and(|tags| !tags.iter().fold(false, |found, &b| found | (b == b'\\')));
        let mut decoded: Option<Vec<(String, String)>> = None;
        for (i, t) in tags.iter().enumerate() {
            let (name, value) = (&bytes[t.name_span()], &bytes[t.value_span()]);
            let as_is = plain || (name.is_ascii() && value.is_ascii() && !value.contains(&b'\\'));
            let (name, value) = if as_is {
                (name, Cow::Borrowed(value))
            } else {
                let pairs = decoded.get_or_insert_with(|| {
                    game.tag_pairs()
                        .map(|(n, v)| (n.into_owned(), v.into_owned()))
                        .collect()
                });
                let (n, v) = &pairs[i];
                (n.as_bytes(), Cow::Owned(v.clone().into_bytes()))
            };
            let code = names::code(name);
            detail.push(code);
            if code == 0 {
                put_text(&mut detail, name);
            }
            put_text(&mut detail, &value);
            // The first names' codes are the fact tags' places plus 1 (0 wraps past
            // them all).
            if let Some(slot) = values.get_mut(usize::from(code).wrapping_sub(1)) {
                slot.get_or_insert(value);
            }
        }
        let fen = values[FEN].as_deref().map(String::from_utf8_lossy);
        let start = start_key(fen.as_deref());
        put_start(&mut detail, start);
        let plies = main_line.len();
        put_varint(&mut detail, plies as u64);
        // One pass over the main line, four moves at a time, writes the moves and
        // hashes them.
        let mut line = LineHasher::new(start);
        let mut moves = MoveWriter::default();
        let mut fours = main_line.chunks_exact(4);
        for four in &mut fours {
            let word = u64::from(move_code(&four[0]))
                | u64::from(move_code(&four[1])) << 16
                | u64::from(move_code(&four[2])) << 32
                | u64::from(move_code(&four[3])) << 48;
            line.push4(word);
            moves.push4(&mut detail, word, 4);
        }
        let rest = fours.remainder();
        if !rest.is_empty() {
            let word = word_of_moves(rest);
            line.push4(word);
            moves.push4(&mut detail, word, rest.len());
        }
        moves.finish(&mut detail);
        let line = line.finish(plies);
        let fields = Fields::of_values(&values);
        let opening = word_of_moves(&main_line[..plies.min(OPENING)]);
        let keys = keys(start, line, opening, plies, &fields);
        let pair = keys[PAIR];
        GameRecord {
            keys,
            pair,
            round: fields.in_round_key(5, 1, 0),
            home: if pair != 0 { pair } else { line },
            identities: fields.identities(),
            caller_key: 0,
            detail,
            plies: plies as u32,
        }
    }

    /// The record of a game that could not be judged (planilla failed on it): it keeps
    /// the game's place in the run and is a copy of no other game.
    pub fn unjudged() -> GameRecord {
        GameRecord {
            keys: [0; SLOTS],
            identities: [None, None],
            pair: 0,
            round: 0,
            home: 0,
            caller_key: 0,
            detail: Vec::new(),
            plies: 0,
        }
    }

    /// Attaches a number of the caller's to the game (the binary's content key, for
    /// baselines), given back with the game's findings as [`ArchiveFinding::caller_key`](super::ArchiveFinding::caller_key).
    pub fn set_caller_key(&mut self, key: u64) {
        self.caller_key = key;
    }

    /// Makes the record that of game `index` (1-based) of its file: a game kept while
    /// the games before it change (a language server's document, edited), which the
    /// messages of the other games' findings name by its index.
    pub fn set_index(&mut self, index: u64) {
        let mut rest = self.detail.as_slice();
        if take_varint(&mut rest).is_none() {
            return; // an unjudged game: no details
        }
        let mut detail = Vec::with_capacity(self.detail.len() + 2);
        put_varint(&mut detail, index);
        detail.extend_from_slice(rest);
        self.detail = detail;
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

/// The key of a game's start and main line, fed four move codes at a time (one
/// word: the first in the low 16 bits, the lanes past the line's end 0), then its
/// length: a multiply for four moves, not one for each.
struct LineHasher(Hasher);

impl LineHasher {
    fn new(start: u64) -> LineHasher {
        let mut h = Hasher::new(1);
        h.u64(start);
        LineHasher(h)
    }

    fn push4(&mut self, word: u64) {
        self.0.u64(word);
    }

    fn finish(mut self, plies: usize) -> u64 {
        self.0.u64(plies as u64);
        self.0.finish()
    }
}

/// The keys of a game's slots, from its start, its main line's key ([`LineHasher`]),
/// first [`OPENING`] moves (a word of codes as [`LineHasher`] takes them) and plies,
/// and its tags: from the game when it is checked, and again from its details when the
/// judge confirms that a 32-bit key repeats not by chance.
fn keys(start: u64, line: u64, opening: u64, plies: usize, fields: &Fields) -> [u64; SLOTS] {
    let pair = fields.pair_key();
    let opening = if plies < OPENING || pair == 0 {
        0
    } else {
        let mut h = Hasher::new(8);
        h.u64(pair);
        h.u64(start);
        h.u64(opening);
        h.finish()
    };
    [
        // An empty main line (a game not played, a forfeit) copies nothing.
        if plies == 0 { 0 } else { line },
        opening,
        if pair == 0 {
            0
        } else {
            fields.in_round_key(9, fields.white, fields.black)
        },
        fields.in_round_key(6, fields.white, 0),
        fields.in_round_key(6, fields.black, 0),
        fields.in_round_key(4, fields.board, 0),
        pair,
    ]
}

impl Detail {
    /// The keys of the game these details are of, as [`GameRecord::new`] made them;
    /// `fields` are the keys of its tags.
    pub(crate) fn keys(&self, fields: &Fields) -> [u64; SLOTS] {
        let mut line = LineHasher::new(self.start);
        self.moves.chunks(4).for_each(|four| line.push4(word(four)));
        let opening = word(&self.moves[..self.moves.len().min(OPENING)]);
        let line = line.finish(self.moves.len());
        keys(self.start, line, opening, self.moves.len(), fields)
    }
}

/// A move as 16 bits: from and to squares, and an underpromotion's piece above them (1
/// knight, 2 bishop, 3 rook; a queen's is 0). Castling goes to the rook's square, where
/// no other king move can go: in Chess960 the king's own destination may also be a
/// plain king move's. Within one position the codes tell every legal move apart (only a
/// pawn's promotions share their squares, and those differ in their piece), and lines
/// are compared only from one position, their start.
pub(crate) fn move_code(m: &Move) -> u16 {
    // Knight, bishop and rook are 1, 2 and 3, and the queen's 4 drops to 0.
    let promotion = m.promotion().map_or(0, |r| r.index() as u16 & 3);
    let to = m.castling_rook().unwrap_or_else(|| m.to());
    (m.from().index() as u16) | (to.index() as u16) << 6 | promotion << 12
}

/// The codes of up to four moves as a word (see [`word`]).
fn word_of_moves(moves: &[Move]) -> u64 {
    moves
        .iter()
        .rev()
        .fold(0, |word, m| word << 16 | u64::from(move_code(m)))
}

/// Up to four move codes as a word, the first in the low 16 bits, as
/// [`LineHasher`] takes them.
fn word(codes: &[u16]) -> u64 {
    codes
        .iter()
        .rev()
        .fold(0, |word, &code| word << 16 | u64::from(code))
}

/// The key of the standard start, nearly every game's: computed once.
pub(crate) fn standard_start() -> u64 {
    static STANDARD: OnceLock<u64> = OnceLock::new();
    *STANDARD.get_or_init(|| Position::new().zobrist())
}

/// The key of the game's start from its FEN tag: the standard position's without one,
/// else the FEN's position (the move counters left out); an unreadable FEN is keyed by
/// its text.
fn start_key(fen: Option<&str>) -> u64 {
    match fen {
        None => standard_start(),
        Some(fen) => match Position::from_fen(fen, Validation::Relaxed) {
            Ok(pos) => pos.zobrist(),
            Err(_) => {
                let mut h = Hasher::new(2);
                h.bytes(fen.trim().as_bytes());
                h.finish()
            }
        },
    }
}
