//! Deciding which notation language a game is written in.
//!
//! Letters outside a language's set rule it out (a `C` is no English piece,
//! an `N` no Spanish one). Where letters overlap — Spanish `R` is a king,
//! English `R` a rook — every remaining reading is replayed, and the one that
//! replays legally wins. When two readings both replay the whole line legally
//! and name different moves, the game is ambiguous and the caller reports it
//! instead of guessing. Readings that name the same moves (a game of pawn
//! moves only, say) are no ambiguity: the earliest language in [`Lang::ALL`]
//! order (English first) is chosen.

use crate::position::{Move, MoveList, Position};
use crate::san::{Lang, San};

/// The outcome of language detection for one line of moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detection {
    /// One reading fits best: the only one the letters allow, the one that
    /// replays every move legally, or (when none does) the one that replays
    /// furthest.
    Lang(Lang),
    /// Two or more languages replay every move legally with different moves.
    Ambiguous(Vec<Lang>),
}

/// The language when the letters alone decide it (one distinct reading),
/// without replaying anything or collecting the moves; `None` when
/// [`detect`] must replay.
pub fn by_letters<'a>(moves: impl Iterator<Item = &'a [u8]>) -> Option<Lang> {
    let (mut used, mut figurines) = (0u32, false);
    for m in moves {
        let (u, f) = letters_of(m);
        used |= u;
        figurines |= f;
    }
    letters_verdict(used, figurines)
}

/// [`by_letters`] from the letters the moves use, as [`letters_of`] gives them: the
/// only reading of [`candidates_for`], found without collecting them (it runs once a
/// game when the letters change from game to game).
fn letters_verdict(used: u32, figurines: bool) -> Option<Lang> {
    let mut order = Lang::ALL;
    if figurines {
        order.rotate_right(1);
    }
    let mut only = None;
    for lang in order {
        if used & !letter_mask(lang) != 0 {
            continue;
        }
        match only {
            None => only = Some(lang),
            // A second reading: the letters do not decide.
            Some(first) if !reads_alike(lang, first, used) => return None,
            Some(_) => {}
        }
    }
    only
}

/// The last verdict of the letters, kept by a caller that checks one game after
/// another. Games of one file nearly always use the same letters: the last verdict is
/// a good guess of the next game's language, and the same letters are decided without
/// another look at the languages' tables.
#[derive(Clone, Copy, Debug, Default)]
pub struct LastVerdict {
    /// The letters decided last (as [`letters_of`] gives them) and their verdict.
    last: Option<(u32, bool, Option<Lang>)>,
}

impl LastVerdict {
    /// No verdict yet.
    pub const fn new() -> LastVerdict {
        LastVerdict { last: None }
    }

    /// The language the letters decided last, if they did.
    pub fn guess(&self) -> Option<Lang> {
        self.last.and_then(|(_, _, verdict)| verdict)
    }

    /// [`by_letters`] from the letters the moves use, as [`letters_of`] gives them
    /// (or'ed together); the verdict is kept for [`LastVerdict::guess`].
    pub fn by_letters_used(&mut self, used: u32, figurines: bool) -> Option<Lang> {
        if let Some((u, f, verdict)) = self.last
            && (u, f) == (used, figurines)
        {
            return verdict;
        }
        let verdict = letters_verdict(used, figurines);
        self.last = Some((used, figurines, verdict));
        verdict
    }
}

/// The letters one move uses as piece letters (bit `c - b'A'`) and
/// whether a figurine is used.
#[inline]
pub fn letters_of(m: &[u8]) -> (u32, bool) {
    let Some((&first, rest)) = m.split_first() else {
        return (0, false);
    };
    let mut used = first_letter(first);
    let mut figurines = first == 0xe2;
    // Past the first byte, only after a rank digit, `=`, `(` or `/` is it a promotion piece.
    let mut prev = first;
    for &c in rest {
        if (c.is_ascii_uppercase() || c == 0xe2) && matches!(prev, b'1'..=b'8' | b'=' | b'(' | b'/')
        {
            if c == 0xe2 {
                figurines = true;
            } else {
                used |= 1 << (c - b'A');
            }
        }
        prev = c;
    }
    (used, figurines)
}

/// The piece letter a move's first byte names, as a bit of [`letters_of`]'s mask (`O`
/// starts castling and `Z` the null move `Z0`: no piece letters). A lower-case piece
/// letter that is no file (`nf3`, German `sf3`) counts as its capital.
#[inline]
pub fn first_letter(b: u8) -> u32 {
    // One load a move (the replay calls this for every move).
    static TABLE: [u32; 256] = {
        let mut table = [0; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = first_letter_of(b as u8);
            b += 1;
        }
        table
    };
    TABLE[b as usize]
}

const fn first_letter_of(b: u8) -> u32 {
    match b {
        b'A'..=b'Z' if b != b'O' && b != b'Z' => 1 << (b - b'A'),
        b'k' | b'l' | b'n' | b'p' | b'q' | b'r' | b's' | b't' => 1 << (b - b'a'),
        _ => 0,
    }
}

/// The capital letters used as piece letters (bit `c - b'A'`), and whether
/// figurines are used. Only two places can hold a piece letter: the first
/// byte, and a promotion letter after the rank digit, `=`, `(` or `/`.
/// Castling (`O-O`) and the null move `Z0` use no piece letter.
fn letters_used(moves: &[&[u8]]) -> (u32, bool) {
    moves.iter().fold((0, false), |(used, figurines), m| {
        let (u, f) = letters_of(m);
        (used | u, figurines | f)
    })
}

/// The letters a language names pieces with, as a mask like [`letters_used`].
fn letter_mask(lang: Lang) -> u32 {
    static MASKS: std::sync::LazyLock<[u32; 8]> = std::sync::LazyLock::new(|| {
        Lang::ALL.map(|lang| {
            (b'A'..=b'Z')
                .filter(|&c| lang.has_letter(c))
                .fold(0, |m, c| m | 1 << (c - b'A'))
        })
    });
    MASKS[lang as usize]
}

/// Languages whose letters can spell every move, one per distinct reading:
/// two languages that give every used letter the same piece read the game
/// identically, so only the first (in [`Lang::ALL`] order) is kept.
/// Figurines read the same in every language; a game that uses them is a
/// figurine game, so that language comes first.
///
/// `others` are the letters of the game's other moves (its variations): they rule
/// languages out too, unless together with the line's own letters they rule out every
/// language (an annotator who wrote a variation in another language), when the line's
/// letters decide alone.
/// The languages [`detect`] chooses among for a line of moves and the game's other
/// letters: those whose piece letters write them (in the order it prefers).
pub fn candidates(moves: &[&[u8]], others: (u32, bool)) -> Vec<Lang> {
    let (used, figurines) = letters_used(moves);
    let out = candidates_for(used | others.0, figurines | others.1);
    if !out.is_empty() {
        return out;
    }
    let out = candidates_for(used, figurines);
    if !out.is_empty() {
        return out;
    }
    // A letter no language knows (a typo, garbage): let the replay decide
    // among the languages that read every other token.
    let mut order = Lang::ALL;
    if figurines {
        order.rotate_right(1);
    }
    let readers: Vec<Lang> = order
        .into_iter()
        .filter(|&lang| {
            moves.iter().all(|m| {
                San::parse(m, lang).is_ok() || Lang::ALL.iter().all(|&l| San::parse(m, l).is_err())
            })
        })
        .collect();
    if readers.is_empty() {
        // Letters of two languages (a Spanish game with one English `B`): the
        // languages that read the most moves are replayed, and the one that goes
        // furthest is chosen (one Spanish `C` in an English game leaves English).
        let read = order.map(|lang| moves.iter().filter(|m| San::parse(m, lang).is_ok()).count());
        let most = read.iter().copied().max().unwrap_or(0);
        return order
            .into_iter()
            .zip(read)
            .filter(|&(_, n)| n == most)
            .map(|(lang, _)| lang)
            .collect();
    }
    readers
}

/// The languages whose letters include every used one, one per distinct
/// reading (see [`candidates`]).
fn candidates_for(used: u32, figurines: bool) -> Vec<Lang> {
    let mut order = Lang::ALL;
    if figurines {
        order.rotate_right(1);
    }
    let mut out: Vec<Lang> = Vec::new();
    for lang in order {
        if used & !letter_mask(lang) != 0 {
            continue;
        }
        if !out.iter().any(|&other| reads_alike(lang, other, used)) {
            out.push(lang);
        }
    }
    out
}

/// The other languages that read the piece letters `used` (as [`letters_of`] gives
/// them) exactly as `lang` does: Italian beside Spanish for `R D T A C`, Dutch beside
/// German for `K D T L`. Empty when no letter is used.
pub fn same_reading(lang: Lang, used: u32) -> Vec<Lang> {
    if used == 0 {
        return Vec::new();
    }
    Lang::ALL
        .into_iter()
        .filter(|&other| {
            other != lang && used & !letter_mask(other) == 0 && reads_alike(lang, other, used)
        })
        .collect()
}

/// Whether `a` and `b` give every letter of `used` the same piece.
fn reads_alike(a: Lang, b: Lang, used: u32) -> bool {
    let mut rest = used;
    while rest != 0 {
        let c = b'A' + rest.trailing_zeros() as u8;
        if a.role_of_letter(c) != b.role_of_letter(c) {
            return false;
        }
        rest &= rest - 1;
    }
    true
}

/// Replays `moves` in `lang` from `start`; returns the moves played and
/// whether the whole line replayed.
fn replay(start: &Position, moves: &[&[u8]], lang: Lang, out: &mut Vec<Move>) -> bool {
    out.clear();
    let mut pos = *start;
    let mut list = MoveList::new();
    for text in moves {
        let Ok(san) = San::parse(text, lang) else {
            return false;
        };
        if san.is_null() {
            let Some(passed) = pos.pass_turn() else {
                return false;
            };
            pos = passed;
            continue;
        }
        match san.resolve_with(&pos, &mut list) {
            Ok(m) => {
                out.push(m);
                pos.play_unchecked(&m);
            }
            Err(_) => return false,
        }
    }
    true
}

/// Decides the language of a line of SAN tokens played from `start`, the letters of
/// the game's other moves (`others`, as [`letters_of`] gives them, or'ed together)
/// ruling languages out too, unless with the line's own letters they rule out every
/// language (a variation written in another language). Only when the letters allow
/// two different readings are the moves replayed.
pub fn detect(start: &Position, moves: &[&[u8]], others: (u32, bool)) -> Detection {
    let langs = candidates(moves, others);
    match langs.as_slice() {
        [] => Detection::Lang(Lang::En),
        [only] => Detection::Lang(*only),
        _ => {
            let mut best: Option<(Lang, usize)> = None;
            let mut complete: Vec<(Lang, Vec<Move>)> = Vec::new();
            let mut played = Vec::new();
            for &lang in &langs {
                if replay(start, moves, lang, &mut played) {
                    if !complete.iter().any(|(_, m)| *m == played) {
                        complete.push((lang, played.clone()));
                    }
                } else if best.is_none_or(|(_, n)| played.len() > n) {
                    best = Some((lang, played.len()));
                }
            }
            match complete.len() {
                0 => Detection::Lang(best.map_or(langs[0], |(l, _)| l)),
                1 => Detection::Lang(complete[0].0),
                _ => Detection::Ambiguous(complete.into_iter().map(|(l, _)| l).collect()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect_str(text: &str) -> Detection {
        let moves: Vec<&[u8]> = text.split_whitespace().map(str::as_bytes).collect();
        detect(&Position::new(), &moves, (0, false))
    }

    #[test]
    fn decides_by_letters_and_by_replay() {
        assert_eq!(detect_str("e4 e5 Nf3 Nc6 Bb5"), Detection::Lang(Lang::En));
        assert_eq!(detect_str("e4 e5 Cf3 Cc6 Ab5"), Detection::Lang(Lang::Es));
        assert_eq!(detect_str("e4 e5 Sf3 Sc6 Lb5"), Detection::Lang(Lang::De));
        assert_eq!(detect_str("e4 e5 Cf3 Cc6 Fb5"), Detection::Lang(Lang::Fr));
        // Pawn moves only: every reading names the same moves.
        assert_eq!(detect_str("e4 e5 d4"), Detection::Lang(Lang::En));
        // "Re2" is a king move in Spanish, illegal as an English rook move.
        assert_eq!(detect_str("e4 e5 Re2"), Detection::Lang(Lang::Es));
        // Spanish and Italian share every letter: the same moves, Spanish first.
        assert_eq!(detect_str("d4 d5 Dd3"), Detection::Lang(Lang::Es));
        assert_eq!(detect_str("♘f3 ♘f6"), Detection::Lang(Lang::Figurine));
        // A Spanish game with one English letter: Spanish reads the most moves.
        assert_eq!(
            detect_str("e4 e5 Cf3 Cc6 Ab5 a6 Ba4 Cf6"),
            Detection::Lang(Lang::Es)
        );
        // Lower-case piece letters count as their capitals.
        assert_eq!(
            detect_str("e4 e5 sf3 sc6 lb5 a6"),
            Detection::Lang(Lang::De)
        );
        // An English game with one Spanish letter early: English reads the most moves,
        // though Spanish would replay one ply further.
        assert_eq!(
            detect_str("e4 e5 Cf3 Nc6 Bc4 Bc5 O-O Nf6 Re1 O-O Qe2 d6"),
            Detection::Lang(Lang::En)
        );
    }

    /// The last verdict guesses the next game's language and decides the same letters
    /// as [`by_letters`] does, whatever was decided before.
    #[test]
    fn the_last_verdict_is_the_verdict_of_the_last_letters() {
        let mut last = LastVerdict::new();
        assert_eq!(last.guess(), None);
        let games: [&[&[u8]]; 4] = [
            &[b"Nf3", b"Bb5"],
            &[b"Cf3", b"Ab5"],
            &[b"Cf3", b"Ab5"],
            &[b"Rd1"],
        ];
        for moves in games {
            let (used, figurines) = letters_used(moves);
            let verdict = last.by_letters_used(used, figurines);
            let readings = candidates_for(used, figurines);
            assert_eq!(
                verdict,
                (readings.len() == 1).then(|| readings[0]),
                "{moves:?}"
            );
            assert_eq!(verdict, by_letters(moves.iter().copied()), "{moves:?}");
            assert_eq!(last.guess(), verdict);
        }
        // `R` alone reads in several languages: no verdict, and no guess.
        assert_eq!(last.guess(), None);
    }

    /// The verdict found without a list is the only reading [`candidates_for`] lists,
    /// for sets of the letters languages use (and a few no language uses).
    #[test]
    fn the_verdict_is_the_only_reading() {
        let known = Lang::ALL.iter().fold(0, |m, &l| m | letter_mask(l));
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let used = (seed as u32) & if round % 4 == 0 { 0x3ff_ffff } else { known };
            // Few letters too: most games use a handful.
            let used = if round % 2 == 0 {
                used & (seed >> 32) as u32
            } else {
                used
            };
            for figurines in [false, true] {
                let readings = candidates_for(used, figurines);
                let expected = (readings.len() == 1).then(|| readings[0]);
                assert_eq!(letters_verdict(used, figurines), expected, "{used:026b}");
            }
        }
    }

    #[test]
    fn languages_that_read_the_same_letters() {
        let used = |letters: &str| letters.bytes().fold(0u32, |m, c| m | 1 << (c - b'A'));
        assert_eq!(same_reading(Lang::Es, used("RDTAC")), vec![Lang::It]);
        assert_eq!(same_reading(Lang::De, used("KDTL")), vec![Lang::Nl]);
        assert_eq!(same_reading(Lang::De, used("KDTLS")), vec![]);
        assert_eq!(same_reading(Lang::Es, 0), vec![]);
    }

    #[test]
    fn reports_two_legal_readings() {
        // "Rd1": the rook from a1 in English, the king from e1 in Spanish.
        let start = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", crate::Validation::Strict)
            .unwrap();
        let moves: Vec<&[u8]> = vec![b"Rd1"];
        assert_eq!(
            detect(&start, &moves, (0, false)),
            Detection::Ambiguous(vec![Lang::En, Lang::Es])
        );
    }
}
