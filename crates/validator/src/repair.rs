//! The one-edit repair search: for a game's first illegal or ambiguous main-line move,
//! every reading of the written text within one edit (a character replaced, deleted or
//! inserted, two neighbours swapped, a piece letter of another language, a capture mark
//! added or removed) that names exactly one legal move, and among those the moves with
//! which the rest of the main line replays to its end.
//!
//! A typed or OCR'd scoresheet fails on one character (`c` for `e`, `3` for `8`, a Spanish
//! `A` for a bishop in an English file); the replay of the moves after it tells which
//! reading was meant. The search is safe by construction: when the written text is one
//! edit away from the move that was played, that move is among the candidates and replays
//! the game, so any other candidate that also replays makes the verdict ambiguous rather
//! than wrong. A slip that leaves text the tokenizer cannot read (`Ke`, `N3f`) makes the
//! moves after it play on the wrong side until one fails: that text is searched then, each
//! reading followed by every later move (see [`Repair`]).
//!
//! The search runs only after the replay found a bad move (see
//! [`Checker::check_repairing`](crate::Checker::check_repairing)); games without one pay
//! nothing for it.

use planilla_core::san::{Lang, San, Suffix};
use planilla_core::{Color, Move, Position, Role};
use std::fmt;

/// Written moves longer than this (in characters) are not searched: no move of chess
/// needs more (`Ng1xf3+!?` is nine), and the readings grow with the length.
pub const MAX_WRITTEN_CHARS: usize = 16;

/// At most this many distinct legal moves are replayed. A written move has never come
/// near it (a one-edit neighbourhood holds a few dozen readings that resolve at most);
/// past it the search gives no repair rather than choose among a part of them.
pub const MAX_CANDIDATES: usize = 32;

/// How a reading differs from the written text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edit {
    /// One character replaced by another that can stand in a move of the game's language.
    Replaced,
    /// One character deleted.
    Deleted,
    /// One character inserted.
    Inserted,
    /// Two neighbouring characters swapped.
    Swapped,
    /// A piece letter of another language read as the game language's letter for the same
    /// piece (`A` as `B` in English, `N` as `C` in Spanish).
    OtherLanguage,
    /// A capture mark `x` added.
    CaptureAdded,
    /// A capture mark (`x`, `:`, `×`) removed.
    CaptureRemoved,
}

impl Edit {
    /// Every edit kind, in the order [`readings`] tries them.
    pub const ALL: [Edit; 7] = [
        Edit::CaptureRemoved,
        Edit::CaptureAdded,
        Edit::OtherLanguage,
        Edit::Deleted,
        Edit::Swapped,
        Edit::Replaced,
        Edit::Inserted,
    ];

    /// The edit's name in reports: `replaced`, `deleted`, `inserted`, `swapped`,
    /// `other-language`, `capture-added`, `capture-removed`.
    pub const fn name(self) -> &'static str {
        match self {
            Edit::Replaced => "replaced",
            Edit::Deleted => "deleted",
            Edit::Inserted => "inserted",
            Edit::Swapped => "swapped",
            Edit::OtherLanguage => "other-language",
            Edit::CaptureAdded => "capture-added",
            Edit::CaptureRemoved => "capture-removed",
        }
    }
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One legal move within one edit of the written text that replays the game to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The first reading found that names the move.
    pub reading: String,
    /// How that reading differs from the written text.
    pub edit: Edit,
    /// The move's canonical SAN, with the check or mate mark it deserves: what a repair
    /// writes in place of the written move (`san.to_string_in(lang)`).
    pub san: San,
}

/// What the search concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RepairOutcome {
    /// Exactly one move replays the game to its end: the repair.
    Unique(Candidate),
    /// Two or more moves do, in the order their first readings were found.
    Ambiguous(Vec<Candidate>),
    /// None does (or the written text is longer than [`MAX_WRITTEN_CHARS`], or more than
    /// [`MAX_CANDIDATES`] moves are one edit away).
    None,
}

/// The repair search's verdict on a game's first illegal or ambiguous main-line move.
///
/// The move searched is that move, or text before it the tokenizer could not read (a
/// `syntax-error`: `Ke`, `N3f`), after which the moves played on the wrong side until
/// that one failed; `span` and `written` say which. A repair replaces the bytes of
/// `span` with the candidate's SAN; the game then replays its main line to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The half-move index from the game's start of the move searched (as
    /// [`Finding::ply`](crate::Finding::ply); for unreadable text, the ply it stands at).
    pub ply: u32,
    /// Byte span of the move searched in the game: a move's token with a check or
    /// en-passant mark written apart (as [`PlayedMove::span`](crate::PlayedMove::span)),
    /// or the unreadable token.
    pub span: (u32, u32),
    /// The text searched, as written (decoded; a mark written apart not included).
    pub written: String,
    /// The language the game was read in, in which the readings were parsed.
    pub lang: Lang,
    /// What the search found.
    pub outcome: RepairOutcome,
}

impl Repair {
    /// The unique repair, if there is one.
    pub fn unique(&self) -> Option<&Candidate> {
        match &self.outcome {
            RepairOutcome::Unique(candidate) => Some(candidate),
            _ => None,
        }
    }
}

/// Whether `c` is a capture mark.
fn is_capture(c: char) -> bool {
    matches!(c, 'x' | ':' | '×')
}

/// The characters a reading may put into a move of `lang` (by [`Edit::Replaced`] and
/// [`Edit::Inserted`]): files, ranks, the capture and promotion marks, castling's letters
/// and dash, and the language's piece letters (figurines in figurine notation).
pub fn move_characters(lang: Lang) -> Vec<char> {
    let mut chars: Vec<char> = "abcdefgh12345678x=-O0".chars().collect();
    chars.extend(piece_letters(lang).map(|(_, c)| c));
    chars
}

/// The letters (or figurines) `lang` gives the pieces other than the pawn.
pub fn piece_letters(lang: Lang) -> impl Iterator<Item = (Role, char)> {
    Role::ALL[1..]
        .iter()
        .filter_map(move |&role| Some((role, lang.letter(role)?.chars().next()?)))
}

/// Calls `visit` with every reading of `written` within one edit, each once, in the order
/// of [`Edit::ALL`], with its edit. Readings that would come twice are made once: of two
/// equal neighbours only the first is deleted, a character is inserted only before an
/// equal one, and a letter another language reads is replaced by this language's letter
/// only as [`Edit::OtherLanguage`].
pub fn readings(written: &str, lang: Lang, mut visit: impl FnMut(Edit, &str)) {
    let chars: Vec<char> = written.chars().collect();
    let n = chars.len();
    let mut buf = String::with_capacity(written.len() + 4);
    // The reading with `chars[at..at + removed]` replaced by `put`.
    let mut emit = |edit: Edit, at: usize, removed: usize, put: &[char]| {
        buf.clear();
        buf.extend(&chars[..at]);
        buf.extend(put);
        buf.extend(&chars[at + removed..]);
        visit(edit, &buf);
    };
    let repeats = |i: usize| i > 0 && chars[i - 1] == chars[i];
    for (i, &c) in chars.iter().enumerate() {
        if is_capture(c) && !repeats(i) {
            emit(Edit::CaptureRemoved, i, 1, &[]);
        }
    }
    if !chars.iter().copied().any(is_capture) {
        for i in 0..=n {
            emit(Edit::CaptureAdded, i, 0, &['x']);
        }
    }
    let ours: Vec<(Role, char)> = piece_letters(lang).collect();
    // The (position, letter) of each reading as another language's letter.
    let mut read_as: Vec<(usize, char)> = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        let mut mine: Vec<char> = Lang::ALL
            .into_iter()
            .filter(|&other| other != lang)
            .filter_map(|other| piece_letters(other).find(|&(_, letter)| letter == c))
            .filter_map(|(role, _)| ours.iter().find(|(r, _)| *r == role))
            .map(|&(_, letter)| letter)
            .filter(|&letter| letter != c)
            .collect();
        mine.sort_unstable();
        mine.dedup();
        for letter in mine {
            read_as.push((i, letter));
            emit(Edit::OtherLanguage, i, 1, &[letter]);
        }
    }
    for (i, &c) in chars.iter().enumerate() {
        if !is_capture(c) && !repeats(i) {
            emit(Edit::Deleted, i, 1, &[]);
        }
    }
    for i in 1..n {
        if chars[i - 1] != chars[i] {
            emit(Edit::Swapped, i - 1, 2, &[chars[i], chars[i - 1]]);
        }
    }
    let alphabet = move_characters(lang);
    for (i, &c) in chars.iter().enumerate() {
        for &a in alphabet.iter().filter(|&&a| a != c) {
            if !read_as.contains(&(i, a)) {
                emit(Edit::Replaced, i, 1, &[a]);
            }
        }
    }
    for i in 0..=n {
        for &a in alphabet.iter().filter(|&&a| a != 'x') {
            if i == 0 || chars[i - 1] != a {
                emit(Edit::Inserted, i, 0, &[a]);
            }
        }
    }
}

/// The main line's first move that did not read or resolve, kept by the replay for the
/// search that runs once the game's language is settled (a replay in a language that was
/// then dropped leaves none).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Failure {
    /// First byte of the move in the game.
    pub(crate) at: u32,
    /// Its length in bytes, a mark written apart included.
    pub(crate) len: u32,
    /// Its half-move index from the game's start.
    pub(crate) ply: u32,
    /// The position before it.
    pub(crate) before: Position,
    /// Where its finding's guess of the move meant begins (`; perhaps Kxe4 was meant`):
    /// a unique repair takes its place, as the replay proved what the guess supposed.
    pub(crate) guess_at: Option<usize>,
}

/// The main line after the failed move, as the search replays it.
#[derive(Debug, Default)]
pub(crate) struct Rest {
    /// Each later main-line move read in the game's language; `None` where it does not
    /// read as a move.
    pub(crate) moves: Vec<Option<San>>,
    /// The index in `moves` from which a move that does not play ends the main line
    /// instead of failing it: a `0-0` that is the game's result, or a DGT result signal
    /// (`moves.len()` when there is none).
    pub(crate) special: usize,
    /// The results the game states (its result marker, its Result tag), as PGN writes
    /// them; those other than `1-0`, `0-1` and `1/2-1/2` decide nothing.
    pub(crate) results: Vec<&'static str>,
}

impl RepairOutcome {
    /// The verdict on the candidates of one or more searches (`None`: a search gave up).
    pub(crate) fn of(candidates: Option<Vec<Candidate>>) -> RepairOutcome {
        match candidates {
            Some(mut kept) if kept.len() == 1 => RepairOutcome::Unique(kept.remove(0)),
            Some(kept) if kept.len() > 1 => RepairOutcome::Ambiguous(kept),
            _ => RepairOutcome::None,
        }
    }
}

/// The legal moves within one edit of `written` (a move that did not play in `before`)
/// with which `rest` replays to its end, in the order their first readings were found;
/// `None` when the search gives up (a text longer than [`MAX_WRITTEN_CHARS`], more than
/// [`MAX_CANDIDATES`] legal moves one edit away).
#[cold]
#[inline(never)]
pub(crate) fn candidates(
    before: &Position,
    written: &str,
    lang: Lang,
    rest: &Rest,
) -> Option<Vec<Candidate>> {
    if written.chars().count() > MAX_WRITTEN_CHARS {
        return None;
    }
    let mut moves: Vec<(Move, Edit, String)> = Vec::new();
    let mut too_many = false;
    readings(written, lang, |edit, text| {
        let Ok(san) = San::parse(text.as_bytes(), lang) else {
            return;
        };
        if san.is_null() {
            return;
        }
        if let Ok(m) = san.resolve(before)
            && !moves.iter().any(|(found, _, _)| *found == m)
        {
            too_many |= moves.len() == MAX_CANDIDATES;
            moves.push((m, edit, text.to_string()));
        }
    });
    if too_many {
        return None;
    }
    let kept = moves
        .into_iter()
        .filter(|(m, _, _)| replays(before.play(m), rest))
        .map(|(m, edit, reading)| Candidate {
            reading,
            edit,
            san: San::from_move(before, &m).with_suffix(Suffix::deserved(&before.play(&m))),
        })
        .collect();
    Some(kept)
}

/// Whether every move of `rest` plays from `pos` and, where the final position decides
/// the result (mate, stalemate, a dead position), no result the game states disagrees.
fn replays(mut pos: Position, rest: &Rest) -> bool {
    for (i, san) in rest.moves.iter().enumerate() {
        match san
            .filter(|san| !san.is_null())
            .map(|san| san.resolve(&pos))
        {
            // `play`, not `play_unchecked` in place: a second caller of the latter makes
            // the compiler stop inlining it into the checker's replay loop, which costs
            // every game ~1.6% of its instructions (callgrind); the copy costs only here.
            Some(Ok(m)) => pos = pos.play(&m),
            // The main line ends with a result or a signal written as moves: what they
            // say is the game's business, not the repair's.
            _ => return i >= rest.special,
        }
    }
    let Some(end) = pos.game_end() else {
        return true;
    };
    let decided = match end.winner() {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    rest.results
        .iter()
        .all(|&stated| stated == decided || !matches!(stated, "1-0" | "0-1" | "1/2-1/2"))
}

#[cfg(test)]
mod tests;
