//! Descriptive notation, the notation of older books and scoresheets: English (`P-K4`,
//! `N-KB3`, `PxP`) and Spanish (`P4R`, `C3AR`, `PxP`).
//!
//! Files are named by the pieces that start on them (English QR QN QB Q K KB KN KR,
//! Spanish TD CD AD D R AR CR TR) and ranks are counted from the mover's side, so a
//! written move means something only in a position: it stands for the set of legal moves
//! that fit it ([`Descriptive::candidates`]). One is the move, none an illegal move,
//! several an ambiguous one.
//!
//! Qualifiers only narrow the set. On a rook or knight, a side (`KN`, Spanish `CR`) is the
//! half of the board the piece stands on now (king's side: files e-h); on a bishop it is
//! the colour of the owner's king's or queen's bishop (White's king's bishop runs on the
//! light squares, Black's on the dark ones); on a pawn a file name (`KBP`, `BP`, Spanish
//! `PAR`, `PA`) is the pawn's file or files. The same holds for the captured piece
//! (`NxRP`: a pawn on the a or h file). A departure or captured square, or a rank, may
//! follow in parentheses (`R(1)-Q1`, `N(QB3)xP`, `QxN(KB6)`, `C(4R)6D`) or, in English,
//! after a slash or as a bare digit (`R/1-Q1`, `R1-Q1`).

use super::parse::{parse_castling, trim_end_spaces};
use super::{Lang, Suffix};
use crate::position::{Move, MoveKind, MoveList, Position};
use crate::types::{CastlingSide, Color, File, Rank, Role, Square};
use std::fmt;

/// Why a token is not a descriptive move in the given language.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DescriptiveError {
    /// Nothing but marks and spaces.
    Empty,
    /// A language other than English and Spanish.
    UnsupportedLang,
    /// Characters descriptive notation does not use, such as the lower-case files of
    /// algebraic notation (`e4`, `Nf3`).
    NotDescriptive,
    /// No piece where the move begins.
    NoPiece,
    /// A square, file name or rank that is none in the language.
    BadSquare,
    /// A qualifier that does not fit its piece (`KQ`, a side on a king).
    BadQualifier,
    /// A promotion to a king or pawn, or on a piece's move.
    BadPromotion,
    /// Characters left where the move should end.
    UnexpectedCharacters,
}

impl fmt::Display for DescriptiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DescriptiveError::Empty => "empty move",
            DescriptiveError::UnsupportedLang => {
                "descriptive notation is read in English and Spanish only"
            }
            DescriptiveError::NotDescriptive => "not descriptive notation",
            DescriptiveError::NoPiece => "no piece at the start of the move",
            DescriptiveError::BadSquare => "bad square in descriptive notation",
            DescriptiveError::BadQualifier => "a qualifier that does not fit its piece",
            DescriptiveError::BadPromotion => "bad promotion",
            DescriptiveError::UnexpectedCharacters => "unexpected characters in move",
        })
    }
}

impl std::error::Error for DescriptiveError {}

/// A side of the board as a qualifier: the king's (`K`, Spanish `R`) or the queen's
/// (`Q`, Spanish `D`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Wing {
    King,
    Queen,
}

impl Wing {
    /// The half of the board a file belongs to.
    fn of_file(file: File) -> Wing {
        if file.index() >= 4 {
            Wing::King
        } else {
            Wing::Queen
        }
    }

    /// Which bishop of `owner` runs on the colour of `sq`.
    fn of_bishop(sq: Square, owner: Color) -> Wing {
        if is_light(sq) == (owner == Color::White) {
            Wing::King
        } else {
            Wing::Queen
        }
    }
}

fn is_light(sq: Square) -> bool {
    (sq.file().index() + sq.rank().index()) % 2 == 1
}

/// Where a piece may stand, as the written qualifiers narrow it: a bit per file (a..h),
/// a bit per rank counted from the mover's side (bit 0: the mover's first rank), and for
/// a bishop which of its owner's bishops it is (the colour of its squares).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Place {
    files: u8,
    ranks: u8,
    bishop: Option<Wing>,
}

impl Place {
    const ANY: Place = Place {
        files: 0xff,
        ranks: 0xff,
        bishop: None,
    };

    const fn files(files: u8) -> Place {
        Place {
            files,
            ..Place::ANY
        }
    }

    const fn rank(relative: u8) -> Place {
        Place {
            ranks: 1 << relative,
            ..Place::ANY
        }
    }

    /// Both narrowings at once.
    fn narrow(self, other: Place) -> Place {
        let mut files = self.files & other.files;
        if let (Some(a), Some(b)) = (self.bishop, other.bishop)
            && a != b
        {
            files = 0;
        }
        Place {
            files,
            ranks: self.ranks & other.ranks,
            bishop: self.bishop.or(other.bishop),
        }
    }

    fn is_any(self) -> bool {
        self == Place::ANY
    }

    /// Whether `sq` is in the place; ranks count from `mover`'s side, a bishop
    /// qualifier is of `owner`'s bishops.
    fn contains(self, sq: Square, mover: Color, owner: Color) -> bool {
        let rank = sq.rank().relative_to(mover).index();
        (self.files >> sq.file().index()) & 1 == 1
            && (self.ranks >> rank) & 1 == 1
            && self.bishop.is_none_or(|w| w == Wing::of_bishop(sq, owner))
    }

    fn squares(self, mover: Color, owner: Color) -> Vec<Square> {
        (0..64)
            .filter_map(Square::new)
            .filter(|&sq| self.contains(sq, mover, owner))
            .collect()
    }

    /// The place in algebraic words (`on f6`, `on the c or f file`, `on rank 1`,
    /// `on the light squares`), empty when anything goes.
    fn describe(self, mover: Color, owner: Color) -> String {
        if self.is_any() {
            return String::new();
        }
        if self.ranks != 0xff && (self.files != 0xff || self.bishop.is_some()) {
            let squares: Vec<String> = self
                .squares(mover, owner)
                .iter()
                .map(|s| s.to_string())
                .collect();
            return format!("on {}", or_list(&squares));
        }
        let mut parts = Vec::new();
        if self.ranks != 0xff {
            let ranks: Vec<String> = (0..8u32)
                .filter(|r| (self.ranks >> r) & 1 == 1)
                .filter_map(Rank::new)
                .map(|r| r.relative_to(mover).char().to_string())
                .collect();
            parts.push(format!("on rank {}", or_list(&ranks)));
        }
        if self.files != 0xff {
            let files: Vec<String> = File::ALL
                .iter()
                .filter(|f| (self.files >> f.index()) & 1 == 1)
                .map(|f| f.char().to_string())
                .collect();
            parts.push(format!("on the {} file", or_list(&files)));
        }
        if let Some(w) = self.bishop {
            let light = (w == Wing::King) == (owner == Color::White);
            parts.push(format!(
                "on the {} squares",
                if light { "light" } else { "dark" }
            ));
        }
        parts.join(" and ")
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => "no square".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// What a descriptive move names.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Castling on a side, or on either (`Castles`).
    Castle(Option<CastlingSide>),
    /// A piece or pawn move.
    Move {
        role: Role,
        /// Where the moving piece stands.
        from: Place,
        /// The captured piece, for a capture.
        captured: Option<Role>,
        /// The destination, or where the captured piece stands.
        to: Place,
        promotion: Option<Role>,
    },
}

/// A move written in descriptive notation, read without the position.
///
/// ```
/// use planilla_core::Position;
/// use planilla_core::MoveList;
/// use planilla_core::san::{Descriptive, Lang};
///
/// let pos = Position::new();
/// let mut moves = MoveList::new();
/// Descriptive::parse(b"N-B3", Lang::En).unwrap().candidates(&pos, &mut moves);
/// assert_eq!(moves.len(), 2); // Nc3 and Nf3
/// Descriptive::parse(b"C3AR", Lang::Es).unwrap().candidates(&pos, &mut moves);
/// assert_eq!(moves.len(), 1); // Nf3
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Descriptive {
    kind: Kind,
    /// A second reading of the same text, whose moves fit too: Spanish `P8TD` is a pawn
    /// to a8 (`8TD`) or to a8 or h8 promoting to a queen (`8T` `D`).
    or: Option<Kind>,
    suffix: Option<Suffix>,
    en_passant: bool,
}

/// The letters of a language's descriptive notation.
struct Letters {
    king: u8,
    queen: u8,
    rook: u8,
    bishop: u8,
    knight: u8,
    pawn: u8,
    /// Whether a side qualifier comes before the piece (English `KN`, `QBP`) or after it
    /// (Spanish `CR`, `PAD`).
    english: bool,
    /// File names, a to h, in full and short.
    files: [&'static str; 8],
    short_files: [&'static str; 8],
    lang: Lang,
}

static EN: Letters = Letters {
    king: b'K',
    queen: b'Q',
    rook: b'R',
    bishop: b'B',
    knight: b'N',
    pawn: b'P',
    english: true,
    files: ["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"],
    short_files: ["R", "N", "B", "Q", "K", "B", "N", "R"],
    lang: Lang::En,
};

static ES: Letters = Letters {
    king: b'R',
    queen: b'D',
    rook: b'T',
    bishop: b'A',
    knight: b'C',
    pawn: b'P',
    english: false,
    files: ["TD", "CD", "AD", "D", "R", "AR", "CR", "TR"],
    short_files: ["T", "C", "A", "D", "R", "A", "C", "T"],
    lang: Lang::Es,
};

fn letters(lang: Lang) -> Option<&'static Letters> {
    match lang {
        Lang::En => Some(&EN),
        Lang::Es => Some(&ES),
        _ => None,
    }
}

impl Letters {
    fn role(&self, unit: u8) -> Option<Role> {
        Some(match unit {
            u if u == self.king => Role::King,
            u if u == self.queen => Role::Queen,
            u if u == self.rook => Role::Rook,
            u if u == self.bishop => Role::Bishop,
            u if u == self.knight => Role::Knight,
            u if u == self.pawn => Role::Pawn,
            _ => return None,
        })
    }

    fn letter(&self, role: Role) -> char {
        (match role {
            Role::King => self.king,
            Role::Queen => self.queen,
            Role::Rook => self.rook,
            Role::Bishop => self.bishop,
            Role::Knight => self.knight,
            Role::Pawn => self.pawn,
        }) as char
    }

    fn wing(&self, unit: u8) -> Option<Wing> {
        match unit {
            u if u == self.king => Some(Wing::King),
            u if u == self.queen => Some(Wing::Queen),
            _ => None,
        }
    }

    fn wing_letter(&self, wing: Wing) -> char {
        (match wing {
            Wing::King => self.king,
            Wing::Queen => self.queen,
        }) as char
    }

    /// The files a file name (as units) stands for: a bit per file.
    fn files_of(&self, units: &[u8]) -> Option<u8> {
        let home = |u: u8| -> Option<(u8, u8)> {
            match u {
                u if u == self.rook => Some((0, 7)),
                u if u == self.knight => Some((1, 6)),
                u if u == self.bishop => Some((2, 5)),
                _ => None,
            }
        };
        match *units {
            [u] if u == self.king => Some(1 << 4),
            [u] if u == self.queen => Some(1 << 3),
            [u] => home(u).map(|(q, k)| (1 << q) | (1 << k)),
            [a, b] => {
                let (wing, piece) = if self.english { (a, b) } else { (b, a) };
                let (q, k) = home(piece)?;
                match self.wing(wing)? {
                    Wing::King => Some(1 << k),
                    Wing::Queen => Some(1 << q),
                }
            }
            _ => None,
        }
    }
}

/// Strips ASCII whitespace and NO-BREAK SPACE (UTF-8 and Latin-1) from the end.
fn strip_word<'a>(s: &'a [u8], words: &[&str]) -> Option<&'a [u8]> {
    words.iter().find_map(|w| {
        let w = w.as_bytes();
        (s.len() >= w.len() && s[s.len() - w.len()..].eq_ignore_ascii_case(w))
            .then(|| &s[..s.len() - w.len()])
    })
}

/// The move without its marks, the check mark and whether an en-passant mark is written.
fn strip_marks(text: &[u8]) -> (&[u8], Option<Suffix>, bool) {
    let mut s = trim_end_spaces(text);
    let mut suffix = None;
    let mut en_passant = false;
    loop {
        let before = s.len();
        while let [rest @ .., b'!' | b'?'] = s {
            s = rest;
        }
        if let [rest @ .., b'+', b'+'] = s {
            suffix = suffix.or(Some(Suffix::DoublePlus));
            s = rest;
        } else if let [rest @ .., b'+'] = s {
            suffix = suffix.or(Some(Suffix::Check));
            s = rest;
        } else if let [rest @ .., b'#'] = s {
            suffix = suffix.or(Some(Suffix::Mate));
            s = rest;
        } else if let Some(rest) = strip_word(s, &["mate.", "mate"]) {
            suffix = suffix.or(Some(Suffix::Mate));
            s = rest;
        } else if let Some(rest) = strip_word(s, &["check", "ch.", "ch", "jaque"]) {
            suffix = suffix.or(Some(Suffix::Check));
            s = rest;
        } else if suffix.is_some()
            && let Some(rest) = strip_word(
                s,
                &[
                    "discovered",
                    "double",
                    "doble",
                    "disc.",
                    "disc",
                    "dis.",
                    "dis",
                    "dbl.",
                    "dbl",
                ],
            )
        {
            s = rest;
        } else if let Some(rest) = strip_word(
            s,
            &[
                "e.p.",
                "a.p.",
                "e. p.",
                "a. p.",
                "e.\u{a0}p.",
                "a.\u{a0}p.",
                "e.p",
                "a.p",
                "ep",
            ],
        ) {
            en_passant = true;
            s = rest;
        }
        s = trim_end_spaces(s);
        if s.len() == before {
            return (s, suffix, en_passant);
        }
    }
}

/// En and em dashes as `-`, `×` as `x`.
fn normalise(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i..] {
            [0xe2, 0x80, 0x93 | 0x94, ..] => {
                out.push(b'-');
                i += 3;
            }
            [0xc3, 0x97, ..] => {
                out.push(b'x');
                i += 2;
            }
            [c, ..] => {
                out.push(c);
                i += 1;
            }
            [] => unreachable!(),
        }
    }
    out
}

/// `Castles`, `castles KR`, Spanish `enroque corto`: the side, if any side is named.
fn castling_words(s: &[u8]) -> Option<Option<CastlingSide>> {
    let lower = String::from_utf8_lossy(s).to_ascii_lowercase();
    let rest = lower
        .strip_prefix("castles")
        .or_else(|| lower.strip_prefix("castle"))
        .or_else(|| lower.strip_prefix("enroque"))?;
    let rest = rest.trim_matches(|c: char| c.is_ascii_whitespace() || "()-.".contains(c));
    match rest {
        "" => Some(None),
        "k" | "kr" | "ks" | "king" | "kingside" | "king-side" | "k-side" | "king's side"
        | "corto" => Some(Some(CastlingSide::KingSide)),
        "q" | "qr" | "qs" | "queen" | "queenside" | "queen-side" | "q-side" | "queen's side"
        | "largo" => Some(Some(CastlingSide::QueenSide)),
        _ => None,
    }
}

/// Reads the body of a descriptive move, marks stripped.
struct Reader<'a> {
    s: &'a [u8],
    i: usize,
    l: &'static Letters,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// A piece letter (English `Kt` read as `N`).
    fn unit(&mut self) -> Option<u8> {
        let c = self.peek()?;
        if self.l.english && c == b'K' && self.s.get(self.i + 1) == Some(&b't') {
            self.i += 2;
            return Some(b'N');
        }
        self.l.role(c)?;
        self.i += 1;
        Some(c)
    }

    fn digit(&mut self) -> Option<u8> {
        match self.peek()? {
            c @ b'1'..=b'8' => {
                self.i += 1;
                Some(c - b'1')
            }
            _ => None,
        }
    }

    /// A piece with its qualifiers: English `KN`, `QBP`, `Kt`; Spanish `CR`, `PAD`.
    fn designation(&mut self) -> Result<(Role, Place), DescriptiveError> {
        let mut units = [0u8; 3];
        let mut n = 0;
        let (role, prefix) = if self.l.english {
            while n < 3
                && let Some(u) = self.unit()
            {
                units[n] = u;
                n += 1;
            }
            if n == 0 {
                return Err(DescriptiveError::NoPiece);
            }
            (self.l.role(units[n - 1]), &units[..n - 1])
        } else {
            let role = self.unit().ok_or(DescriptiveError::NoPiece)?;
            while n < 2
                && let Some(u) = self.unit()
            {
                units[n] = u;
                n += 1;
            }
            (self.l.role(role), &units[..n])
        };
        let role = role.ok_or(DescriptiveError::NoPiece)?;
        Ok((role, self.qualify(role, prefix)?))
    }

    fn qualify(&self, role: Role, prefix: &[u8]) -> Result<Place, DescriptiveError> {
        if prefix.is_empty() {
            return Ok(Place::ANY);
        }
        let wing = || match *prefix {
            [u] => self.l.wing(u).ok_or(DescriptiveError::BadQualifier),
            _ => Err(DescriptiveError::BadQualifier),
        };
        match role {
            Role::Pawn => self
                .l
                .files_of(prefix)
                .map(Place::files)
                .ok_or(DescriptiveError::BadQualifier),
            Role::Rook | Role::Knight => Ok(Place::files(match wing()? {
                Wing::King => 0xf0,
                Wing::Queen => 0x0f,
            })),
            Role::Bishop => Ok(Place {
                bishop: Some(wing()?),
                ..Place::ANY
            }),
            Role::King | Role::Queen => Err(DescriptiveError::BadQualifier),
        }
    }

    /// A file name as units, the longest that is one.
    fn file_name(&mut self) -> Option<u8> {
        let start = self.i;
        for len in [2, 1] {
            self.i = start;
            let mut units = [0u8; 2];
            let mut n = 0;
            while n < len
                && let Some(u) = self.unit()
            {
                units[n] = u;
                n += 1;
            }
            if n == len
                && let Some(files) = self.l.files_of(&units[..n])
            {
                return Some(files);
            }
        }
        self.i = start;
        None
    }

    /// A square: English `KB3`, `B3`; Spanish `3AR`, `3A`.
    fn square(&mut self) -> Option<Place> {
        let start = self.i;
        let found = if self.l.english {
            self.file_name()
                .and_then(|files| Some((files, self.digit()?)))
        } else {
            self.digit()
                .and_then(|rank| Some((self.file_name()?, rank)))
        };
        match found {
            Some((files, rank)) => Some(Place::files(files).narrow(Place::rank(rank))),
            None => {
                self.i = start;
                None
            }
        }
    }

    /// A square or a rank in parentheses or after a slash: `(KB3)`, `(1)`, `/4`.
    fn qualifier(&mut self) -> Option<Place> {
        let start = self.i;
        let close = if self.eat(b'(') {
            Some(b')')
        } else if self.eat(b'/') {
            None
        } else {
            return None;
        };
        let place = self
            .square()
            .or_else(|| self.digit().map(Place::rank))
            .filter(|_| close.is_none_or(|c| self.eat(c)));
        if place.is_none() {
            self.i = start;
        }
        place
    }

    /// A promotion piece: `=Q`, `(Q)`, `/Q`, or bare when `bare` is allowed.
    fn promotion(&mut self, bare: bool) -> Result<Option<Role>, DescriptiveError> {
        let start = self.i;
        let close = if self.eat(b'=') || self.eat(b'/') {
            None
        } else if self.eat(b'(') {
            Some(b')')
        } else if bare {
            None
        } else {
            return Ok(None);
        };
        let Some(unit) = self.unit() else {
            self.i = start;
            return Ok(None);
        };
        if let Some(c) = close
            && !self.eat(c)
        {
            return Err(DescriptiveError::UnexpectedCharacters);
        }
        match self.l.role(unit) {
            Some(Role::Queen | Role::Rook | Role::Bishop | Role::Knight) => Ok(self.l.role(unit)),
            _ => Err(DescriptiveError::BadPromotion),
        }
    }

    fn body(&mut self) -> Result<Kind, DescriptiveError> {
        let (role, mut from) = self.designation()?;
        if let Some(place) = self.qualifier() {
            from = from.narrow(place);
        } else if self.l.english
            && let Some(rank) = self.digit()
        {
            // `R1-Q1`: the departure rank, bare.
            from = from.narrow(Place::rank(rank));
        }
        let capture = match self.peek() {
            Some(b'x' | b'X' | b':') => {
                self.i += 1;
                true
            }
            Some(b'-') => {
                self.i += 1;
                false
            }
            Some(b'1'..=b'8') if !self.l.english => false,
            _ => return Err(DescriptiveError::UnexpectedCharacters),
        };
        let (captured, to) = if capture {
            let (captured, mut at) = self.designation()?;
            if let Some(place) = self.qualifier() {
                at = at.narrow(place);
            }
            (Some(captured), at)
        } else {
            (None, self.square().ok_or(DescriptiveError::BadSquare)?)
        };
        let promotion = self.promotion(!capture)?;
        if self.i != self.s.len() {
            return Err(DescriptiveError::UnexpectedCharacters);
        }
        if promotion.is_some() && role != Role::Pawn {
            return Err(DescriptiveError::BadPromotion);
        }
        Ok(Kind::Move {
            role,
            from,
            captured,
            to,
            promotion,
        })
    }
}

impl Descriptive {
    /// Reads a move in descriptive notation: `lang` is [`Lang::En`] (English descriptive)
    /// or [`Lang::Es`] (Spanish descriptive). Spaces inside the move are dropped
    /// (`P x P`). Marks after the move, glued or after spaces, are accepted: check marks
    /// (`+`, `ch`, `check`, `dis ch`, `dbl ch`, Spanish `jaque`: [`Suffix::Check`]; `#`,
    /// `mate`: [`Suffix::Mate`]; `++`: [`Suffix::DoublePlus`], as
    /// [`San::parse`](super::San::parse) reads it), `e.p.`/`a.p.` (which then fits only an
    /// en-passant capture) and annotation glyphs (`!`, `?!`). Castling is `O-O`, `0-0`,
    /// `O-O-O`, `0-0-0`, `Castles` (either side), `Castles KR`/`QR`, Spanish
    /// `enroque corto`/`largo`.
    ///
    /// Spanish `P8TD` (also `CD`, `AD`; `PxTD`) is read both ways, the file or piece `TD`
    /// or `T` then a queen written bare: the moves of either reading fit.
    ///
    /// Algebraic notation (`e4`, `Nf3`, `exd5`) is refused, so a caller may try SAN
    /// first; only castling reads the same in both.
    ///
    /// # Errors
    ///
    /// A [`DescriptiveError`] when the bytes are not a descriptive move in that language.
    pub fn parse(text: &[u8], lang: Lang) -> Result<Descriptive, DescriptiveError> {
        let l = letters(lang).ok_or(DescriptiveError::UnsupportedLang)?;
        let (core, suffix, en_passant) = strip_marks(text);
        if core.is_empty() {
            return Err(DescriptiveError::Empty);
        }
        let mut core = normalise(core);
        let castle = |side| {
            Ok(Descriptive {
                kind: Kind::Castle(side),
                or: None,
                suffix,
                en_passant: false,
            })
        };
        if let Some((side, _)) = parse_castling(&core) {
            return castle(Some(side));
        }
        if let Some(side) = castling_words(&core) {
            return castle(side);
        }
        // Spaces inside the move (`P x P`, `P-K8 (Q)`) are dropped.
        core.retain(|&c| c != b' ');
        if !core.first().is_some_and(u8::is_ascii_uppercase) {
            return Err(DescriptiveError::NotDescriptive);
        }
        for (i, &c) in core.iter().enumerate() {
            let fine = c.is_ascii_uppercase()
                || c.is_ascii_digit()
                || matches!(c, b'-' | b'x' | b'(' | b')' | b'/' | b'=' | b':')
                || (c == b't' && l.english && i > 0 && core[i - 1] == b'K');
            if !fine {
                return Err(DescriptiveError::NotDescriptive);
            }
        }
        let kind = Reader { s: &core, i: 0, l }.body()?;
        // Spanish `P8TD`, `PxTD`: the file or piece `TD` (`CD`, `AD`), or `T` and a
        // queen promotion written bare.
        let or = match (&kind, &core[..]) {
            (
                Kind::Move {
                    role: Role::Pawn,
                    promotion: None,
                    ..
                },
                [.., b'T' | b'C' | b'A', b'D'],
            ) if !l.english => {
                let mut text = core[..core.len() - 1].to_vec();
                text.extend_from_slice(b"=D");
                Reader { s: &text, i: 0, l }.body().ok()
            }
            _ => None,
        };
        Ok(Descriptive {
            kind,
            or,
            suffix,
            en_passant,
        })
    }

    /// Whether the legal move `m` of `pos` fits the written move.
    pub fn fits(&self, pos: &Position, m: &Move) -> bool {
        self.kind_fits(&self.kind, pos, m)
            || self
                .or
                .as_ref()
                .is_some_and(|or| self.kind_fits(or, pos, m))
    }

    fn kind_fits(&self, kind: &Kind, pos: &Position, m: &Move) -> bool {
        let us = pos.turn();
        match *kind {
            Kind::Castle(side) => m
                .castling_side()
                .is_some_and(|s| side.is_none_or(|w| w == s)),
            Kind::Move {
                role,
                from,
                captured,
                to,
                promotion,
            } => {
                if m.castling_side().is_some()
                    || m.role() != role
                    || !from.contains(m.from(), us, us)
                    || (promotion.is_some() && m.promotion() != promotion)
                    || (self.en_passant && m.kind() != MoveKind::EnPassant)
                {
                    return false;
                }
                match captured {
                    None => !m.is_capture() && to.contains(m.to(), us, us),
                    Some(c) => {
                        m.capture() == Some(c)
                            && (to.contains(m.to(), us, !us)
                                || (m.kind() == MoveKind::EnPassant
                                    && to.contains(
                                        Square::from_coords(m.to().file(), m.from().rank()),
                                        us,
                                        !us,
                                    )))
                    }
                }
            }
        }
    }

    /// Every legal move of `pos` that fits the written move, into `out` (cleared first).
    /// A pawn move to the last rank written without a promotion piece fits all four
    /// promotions.
    pub fn candidates(&self, pos: &Position, out: &mut MoveList) {
        pos.legal_moves_into(out);
        out.retain(|m| self.fits(pos, m));
    }

    /// The check or mate mark as written (see [`Descriptive::parse`]).
    pub fn suffix(&self) -> Option<Suffix> {
        self.suffix
    }

    /// Whether the written form says capture.
    pub fn is_capture(&self) -> bool {
        matches!(
            self.kind,
            Kind::Move {
                captured: Some(_),
                ..
            }
        )
    }

    /// Whether the written form is castling.
    pub fn is_castling(&self) -> bool {
        matches!(self.kind, Kind::Castle(_))
    }

    /// What the move asks for in `pos`, in algebraic words, for a message when no legal
    /// move fits: `a knight move to c3 or f3`, `a pawn capturing a pawn`, `a bishop
    /// capturing a knight on f6`, `castling king-side`.
    pub fn describe(&self, pos: &Position) -> String {
        let mut s = self.describe_kind(&self.kind, pos);
        if let Some(or) = &self.or {
            s.push_str(", or ");
            s.push_str(&self.describe_kind(or, pos));
        }
        s
    }

    fn describe_kind(&self, kind: &Kind, pos: &Position) -> String {
        let us = pos.turn();
        match *kind {
            Kind::Castle(Some(CastlingSide::KingSide)) => "castling king-side".to_string(),
            Kind::Castle(Some(CastlingSide::QueenSide)) => "castling queen-side".to_string(),
            Kind::Castle(None) => "castling".to_string(),
            Kind::Move {
                role,
                from,
                captured,
                to,
                promotion,
            } => {
                let mut s = format!("a {}", role.name());
                let at = from.describe(us, us);
                if !at.is_empty() {
                    s.push(' ');
                    s.push_str(&at);
                }
                match captured {
                    None => {
                        let squares: Vec<String> =
                            to.squares(us, us).iter().map(|s| s.to_string()).collect();
                        s.push_str(" move to ");
                        s.push_str(&or_list(&squares));
                    }
                    Some(c) => {
                        s.push_str(" capturing a ");
                        s.push_str(c.name());
                        let at = to.describe(us, !us);
                        if !at.is_empty() {
                            s.push(' ');
                            s.push_str(&at);
                        }
                    }
                }
                if let Some(p) = promotion {
                    s.push_str(" promoting to a ");
                    s.push_str(p.name());
                }
                if self.en_passant {
                    s.push_str(" en passant");
                }
                s
            }
        }
    }
}

/// Writes squares, pieces and qualifiers in one language, from one side.
struct Writer {
    l: &'static Letters,
    us: Color,
}

impl Writer {
    fn square(&self, sq: Square, short: bool) -> String {
        let names = if short {
            &self.l.short_files
        } else {
            &self.l.files
        };
        let file = names[sq.file().index()];
        let rank = sq.rank().relative_to(self.us).char();
        if self.l.english {
            format!("{file}{rank}")
        } else {
            format!("{rank}{file}")
        }
    }

    fn pawn_on(&self, file: File, short: bool) -> String {
        let names = if short {
            &self.l.short_files
        } else {
            &self.l.files
        };
        let (name, p) = (names[file.index()], self.l.pawn as char);
        if self.l.english {
            format!("{name}{p}")
        } else {
            format!("{p}{name}")
        }
    }

    fn with_wing(&self, role: Role, wing: Wing) -> String {
        let (w, r) = (self.l.wing_letter(wing), self.l.letter(role));
        if self.l.english {
            format!("{w}{r}")
        } else {
            format!("{r}{w}")
        }
    }

    /// A piece standing on `sq`, owned by `owner`, written ever more narrowly.
    fn designations(&self, role: Role, sq: Square, owner: Color, mover: bool) -> Vec<String> {
        let letter = self.l.letter(role);
        let mut v = vec![letter.to_string()];
        match role {
            Role::Pawn => {
                v.push(self.pawn_on(sq.file(), true));
                v.push(self.pawn_on(sq.file(), false));
            }
            Role::Rook | Role::Knight => v.push(self.with_wing(role, Wing::of_file(sq.file()))),
            Role::Bishop => v.push(self.with_wing(role, Wing::of_bishop(sq, owner))),
            Role::Queen | Role::King => {}
        }
        if mover {
            v.push(format!(
                "{letter}({})",
                sq.rank().relative_to(self.us).char()
            ));
        }
        v.push(format!("{letter}({})", self.square(sq, true)));
        v.push(format!("{letter}({})", self.square(sq, false)));
        let mut seen = Vec::new();
        v.retain(|s| {
            let new = !seen.contains(s);
            seen.push(s.clone());
            new
        });
        v
    }
}

/// The shortest descriptive form (`lang` [`Lang::En`] or [`Lang::Es`]; any other writes
/// English) of the legal move `m` of `pos` that no other move of `among` fits (`among`
/// may include `m`), for messages: `KPxP` and `BPxP` for the two pawn captures that `PxP`
/// fits, `N-KB3` or `KN-B3` where `N-B3` fits two knight moves, `N(4)-N5` or
/// `R(QR1)-N1` by the departure square when nothing shorter does. Without check mark.
///
/// [`Descriptive::parse`] of the result fits `m`, and of `among` only `m`.
pub fn write_descriptive(pos: &Position, m: &Move, among: &[Move], lang: Lang) -> String {
    let l = letters(lang).unwrap_or(&EN);
    if let Some(side) = m.castling_side() {
        let o = if l.english { "O" } else { "0" };
        return match side {
            CastlingSide::KingSide => format!("{o}-{o}"),
            CastlingSide::QueenSide => format!("{o}-{o}-{o}"),
        };
    }
    let w = Writer { l, us: pos.turn() };
    let movers = w.designations(m.role(), m.from(), w.us, true);
    let promotion = m
        .promotion()
        .map(|p| format!("={}", l.letter(p)))
        .unwrap_or_default();
    let targets: Vec<String> = match m.capture() {
        None => {
            let dash = if l.english { "-" } else { "" };
            [true, false]
                .iter()
                .map(|&short| format!("{dash}{}{promotion}", w.square(m.to(), short)))
                .collect()
        }
        Some(c) => w
            .designations(c, m.to(), !w.us, false)
            .iter()
            .map(|d| format!("x{d}{promotion}"))
            .collect(),
    };
    let mut forms = Vec::new();
    for (i, a) in movers.iter().enumerate() {
        for b in &targets {
            forms.push((a.len() + b.len(), i, format!("{a}{b}")));
        }
    }
    // A stable sort: the shortest first, then the least qualified mover (`N-KB3`
    // before `KN-B3`).
    forms.sort_by_key(|(len, i, _)| (*len, *i));
    for (_, _, text) in &forms {
        if let Ok(d) = Descriptive::parse(text.as_bytes(), l.lang)
            && d.fits(pos, m)
            && among.iter().all(|o| o == m || !d.fits(pos, o))
        {
            return text.clone();
        }
    }
    // The departure square with the captured or destination square: only `m` fits.
    format!(
        "{}{}",
        movers.last().map_or("", |s| s.as_str()),
        targets.last().map_or("", |s| s.as_str())
    )
}

#[cfg(test)]
mod tests {
    use super::{Descriptive, DescriptiveError, write_descriptive};
    use crate::Validation;
    use crate::position::{MoveList, Position};
    use crate::san::tests::positions;
    use crate::san::{Lang, San, Suffix};

    fn fen(f: &str) -> Position {
        Position::from_fen(f, Validation::Relaxed).expect("a valid FEN")
    }

    /// The candidates of `text` in `pos`, as sorted UCI strings.
    fn candidates(pos: &Position, text: &str, lang: Lang) -> Vec<String> {
        let d = Descriptive::parse(text.as_bytes(), lang)
            .unwrap_or_else(|e| panic!("{text:?} in {lang:?}: {e}"));
        let mut list = MoveList::new();
        d.candidates(pos, &mut list);
        let mut ucis: Vec<String> = list.iter().map(|m| m.to_uci(false)).collect();
        ucis.sort();
        ucis
    }

    /// Plays a game in SAN and checks that each descriptive move fits exactly the move
    /// played.
    fn replay(san: &str, descriptive: &str, lang: Lang) {
        let mut pos = Position::new();
        let san: Vec<&str> = san
            .split_whitespace()
            .filter(|t| !t.ends_with('.'))
            .collect();
        let desc: Vec<&str> = descriptive
            .split_whitespace()
            .filter(|t| !t.ends_with('.'))
            .collect();
        assert_eq!(san.len(), desc.len());
        for (s, d) in san.iter().zip(&desc) {
            let m = San::parse(s.as_bytes(), Lang::En)
                .expect("SAN")
                .resolve(&pos)
                .expect("a legal move");
            assert_eq!(
                candidates(&pos, d, lang),
                vec![m.to_uci(false)],
                "{d} for {s} in {lang:?}"
            );
            pos = pos.play(&m);
        }
    }

    #[test]
    fn openings_in_descriptive_notation() {
        let ruy = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 \
                   7. Bb3 d6 8. c3 O-O";
        replay(
            ruy,
            "1. P-K4 P-K4 2. N-KB3 N-QB3 3. B-N5 P-QR3 4. B-R4 N-B3 5. O-O B-K2 \
             6. R-K1 P-QN4 7. B-N3 P-Q3 8. P-B3 O-O",
            Lang::En,
        );
        replay(
            ruy,
            "1. P4R P4R 2. C3AR C3AD 3. A5C P3TD 4. A4T C3A 5. 0-0 A2R 6. T1R P4CD \
             7. A3C P3D 8. P3A 0-0",
            Lang::Es,
        );
        let qgd = "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 Nbd7 6. Nf3 O-O \
                   7. Rc1 c6 8. Qc2 dxc4 9. Bxc4 Nd5";
        replay(
            qgd,
            "1. P-Q4 P-Q4 2. P-QB4 P-K3 3. Kt-QB3 Kt-KB3 4. B-N5 B-K2 5. P-K3 QN-Q2 \
             6. N-B3 Castles 7. R-B1 P-B3 8. Q-B2 PxP 9. BxP N-Q4",
            Lang::En,
        );
        replay(
            qgd,
            "1. P4D P4D 2. P4AD P3R 3. C3AD C3AR 4. A5C A2R 5. P3R CD2D 6. C3A 0-0 \
             7. T1A P3A 8. D2A PxP 9. AxP C4D",
            Lang::Es,
        );
    }

    /// (FEN, language, written move, the fitting moves in UCI).
    const TABLE: &[(&str, Lang, &str, &[&str])] = &[
        // The start: files named by both halves.
        (START, Lang::En, "N-B3", &["b1c3", "g1f3"]),
        (START, Lang::En, "N-KB3", &["g1f3"]),
        (START, Lang::En, "KN-B3", &["g1f3"]),
        (START, Lang::En, "QN-B3", &["b1c3"]),
        (START, Lang::En, "Kt-KB3", &["g1f3"]),
        (START, Lang::En, "KKt-B3", &["g1f3"]),
        (START, Lang::En, "QKt-B3", &["b1c3"]),
        (START, Lang::En, "P-K4", &["e2e4"]),
        (START, Lang::En, "P-B4", &["c2c4", "f2f4"]),
        (START, Lang::En, "KBP-B4", &["f2f4"]),
        (START, Lang::En, "P-R3", &["a2a3", "h2h3"]),
        (START, Lang::En, "P-K5", &[]),
        (START, Lang::En, "N-Q2", &[]),
        (START, Lang::Es, "C3A", &["b1c3", "g1f3"]),
        (START, Lang::Es, "C3AR", &["g1f3"]),
        (START, Lang::Es, "CR3A", &["g1f3"]),
        (START, Lang::Es, "P4R", &["e2e4"]),
        (START, Lang::Es, "P-4R", &["e2e4"]),
        (START, Lang::Es, "PAD4A", &["c2c4"]),
        (START, Lang::Es, "PA4A", &["c2c4", "f2f4"]),
        // One knight can go to B3.
        (
            "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq e6 0 2",
            Lang::En,
            "N-B3",
            &["b1c3"],
        ),
        // Two rooks to Q1: departure rank, square, side.
        (ROOKS, Lang::En, "R-Q1", &["a1d1", "d8d1"]),
        (ROOKS, Lang::En, "R(1)-Q1", &["a1d1"]),
        (ROOKS, Lang::En, "R1-Q1", &["a1d1"]),
        (ROOKS, Lang::En, "R/1-Q1", &["a1d1"]),
        (ROOKS, Lang::En, "R(QR1)-Q1", &["a1d1"]),
        (ROOKS, Lang::En, "R(8)-Q1", &["d8d1"]),
        (ROOKS, Lang::En, "R(Q8)-Q1", &["d8d1"]),
        (ROOKS, Lang::En, "QR-Q1", &["a1d1", "d8d1"]),
        (ROOKS, Lang::Es, "T1D", &["a1d1", "d8d1"]),
        (ROOKS, Lang::Es, "T(1)1D", &["a1d1"]),
        (ROOKS, Lang::Es, "T(8D)1D", &["d8d1"]),
        // Two knights to N5 and Q6.
        (KNIGHTS, Lang::En, "N-N5", &["e4g5", "e6g5"]),
        (KNIGHTS, Lang::En, "N(4)-N5", &["e4g5"]),
        (KNIGHTS, Lang::En, "N(K6)-N5", &["e6g5"]),
        (KNIGHTS, Lang::En, "N-Q4", &["e6d4"]),
        (KNIGHTS2, Lang::En, "N-Q6", &["c4d6", "e4d6"]),
        (KNIGHTS2, Lang::En, "KN-Q6", &["e4d6"]),
        (KNIGHTS2, Lang::En, "N(K4)-Q6", &["e4d6"]),
        (KNIGHTS2, Lang::Es, "C6D", &["c4d6", "e4d6"]),
        (KNIGHTS2, Lang::Es, "C(4R)6D", &["e4d6"]),
        (KNIGHTS2, Lang::Es, "C(4AD)6D", &["c4d6"]),
        (KNIGHTS2, Lang::Es, "CR6D", &["e4d6"]),
        (KNIGHTS2, Lang::Es, "CD6D", &["c4d6"]),
        (
            "k7/5N2/8/4p3/8/5N2/8/K7 w - - 0 1",
            Lang::En,
            "NxP",
            &["f3e5", "f7e5"],
        ),
        (
            "k7/5N2/8/4p3/8/5N2/8/K7 w - - 0 1",
            Lang::En,
            "N(3)xP",
            &["f3e5"],
        ),
        // Bishops by colour and the captured knight by its side or square.
        (BISHOPS, Lang::En, "BxN", &["b5c6", "g5f6"]),
        (BISHOPS, Lang::En, "BxN(KB6)", &["g5f6"]),
        (BISHOPS, Lang::En, "BxN(B6)", &["b5c6", "g5f6"]),
        (BISHOPS, Lang::En, "BxKN", &["g5f6"]),
        (BISHOPS, Lang::En, "BxQN", &["b5c6"]),
        (BISHOPS, Lang::En, "KBxN", &["b5c6"]),
        (BISHOPS, Lang::En, "QBxN", &["g5f6"]),
        (BISHOPS, Lang::En, "B-N5", &[]),
        (BISHOPS, Lang::Es, "AxC(6AR)", &["g5f6"]),
        (BISHOPS, Lang::Es, "ARxC", &["b5c6"]),
        (BISHOPS, Lang::Es, "AxCD", &["b5c6"]),
        // Black's bishops: Black's king's bishop is the dark-squared one, and Black counts
        // ranks from its side.
        (BLACK_BISHOPS, Lang::En, "BxN", &["b5e2", "g5e3"]),
        (BLACK_BISHOPS, Lang::En, "KBxN", &["g5e3"]),
        (BLACK_BISHOPS, Lang::En, "QBxN", &["b5e2"]),
        (BLACK_BISHOPS, Lang::En, "BxN(K7)", &["b5e2"]),
        (BLACK_BISHOPS, Lang::En, "BxN(K6)", &["g5e3"]),
        (BLACK_BISHOPS, Lang::En, "BxN/6", &["g5e3"]),
        (BLACK_BISHOPS, Lang::En, "B-Q6", &["b5d3"]),
        (BLACK_BISHOPS, Lang::En, "B-Q3", &[]),
        (BLACK_BISHOPS, Lang::Es, "AxC(7R)", &["b5e2"]),
        // Pawns and pawns captured, by file.
        (PAWNS, Lang::En, "PxP", &["b5a6", "b5c6", "g5h6"]),
        (PAWNS, Lang::En, "PxRP", &["b5a6", "g5h6"]),
        (PAWNS, Lang::En, "PxRP(R6)", &["b5a6", "g5h6"]),
        (PAWNS, Lang::En, "NPxRP", &["b5a6", "g5h6"]),
        (PAWNS, Lang::En, "QNPxP", &["b5a6", "b5c6"]),
        (PAWNS, Lang::En, "PxQRP", &["b5a6"]),
        (PAWNS, Lang::En, "PxBP", &["b5c6"]),
        (PAWNS, Lang::En, "KNPxP", &["g5h6"]),
        (PAWNS, Lang::En, "PxQKtP", &[]),
        (PAWNS, Lang::En, "P-N6", &["b5b6", "g5g6"]),
        (PAWNS, Lang::En, "PxN", &[]),
        (PAWNS, Lang::Es, "PxP(6TD)", &["b5a6"]),
        (PAWNS, Lang::Es, "PxPTD", &["b5a6"]),
        (PAWNS, Lang::Es, "PCDxP", &["b5a6", "b5c6"]),
        (PAWNS, Lang::Es, "PAxP", &[]),
        // En passant: by the captured pawn's square or the destination.
        (EP, Lang::En, "PxP", &["c5d6", "e5d6", "e5f6"]),
        (EP, Lang::En, "PxP e.p.", &["c5d6", "e5d6"]),
        (EP, Lang::En, "PxPep", &["c5d6", "e5d6"]),
        (EP, Lang::En, "KPxP e.p.", &["e5d6"]),
        (EP, Lang::En, "PxKBP", &["e5f6"]),
        (EP, Lang::En, "PxQP", &["c5d6", "e5d6"]),
        (EP, Lang::En, "PxP(Q6)", &["c5d6", "e5d6"]),
        (EP, Lang::En, "PxP(Q5)", &["c5d6", "e5d6"]),
        (EP, Lang::En, "PxP(B6)", &["e5f6"]),
        (EP, Lang::Es, "PxP a.p.", &["c5d6", "e5d6"]),
        (EP, Lang::Es, "PRxP a. p.", &["e5d6"]),
        (
            "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2",
            Lang::En,
            "PxP e.p.",
            &["e4d3"],
        ),
        (
            "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2",
            Lang::Es,
            "PxP",
            &["e4d3"],
        ),
        // Promotions.
        (PROMO, Lang::En, "P-K8=Q", &["e7e8q"]),
        (PROMO, Lang::En, "P-K8Q", &["e7e8q"]),
        (PROMO, Lang::En, "P-K8(Q)", &["e7e8q"]),
        (PROMO, Lang::En, "P-K8/Q", &["e7e8q"]),
        (PROMO, Lang::En, "P-K8 (Q) ch", &["e7e8q"]),
        (PROMO, Lang::En, "P x R = Q", &["e7d8q"]),
        (PROMO, Lang::En, "P-K8=Kt", &["e7e8n"]),
        (
            PROMO,
            Lang::En,
            "P-K8",
            &["e7e8b", "e7e8n", "e7e8q", "e7e8r"],
        ),
        (PROMO, Lang::En, "PxR=Q", &["e7d8q"]),
        (PROMO, Lang::En, "PxR(N)", &["e7d8n"]),
        (
            PROMO,
            Lang::En,
            "PxR",
            &["e7d8b", "e7d8n", "e7d8q", "e7d8r"],
        ),
        (PROMO, Lang::En, "P-Q8=Q", &[]),
        (PROMO, Lang::Es, "P8R=D", &["e7e8q"]),
        (PROMO, Lang::Es, "P8RD", &["e7e8q"]),
        (PROMO, Lang::Es, "P8R(D)", &["e7e8q"]),
        (PROMO, Lang::Es, "P8R=C", &["e7e8n"]),
        (PROMO, Lang::Es, "PxT=D", &["e7d8q"]),
        // Spanish `TD` is a file or a rook, or `T` with a queen written bare.
        ("k7/7P/8/8/8/8/8/K7 w - - 0 1", Lang::Es, "P8TD", &["h7h8q"]),
        (
            "7k/P7/8/8/8/8/8/7K w - - 0 1",
            Lang::Es,
            "P8TD",
            &["a7a8b", "a7a8n", "a7a8q", "a7a8r"],
        ),
        (
            "5r2/4P2k/8/8/8/8/8/4K3 w - - 0 1",
            Lang::Es,
            "PxTD",
            &["e7f8q"],
        ),
        (
            "3r4/4P2k/8/8/8/8/8/4K3 w - - 0 1",
            Lang::Es,
            "PxTD",
            &["e7d8b", "e7d8n", "e7d8q", "e7d8r"],
        ),
        (
            "4k3/8/8/8/8/8/3p4/7K b - - 0 1",
            Lang::En,
            "P-Q8=Q",
            &["d2d1q"],
        ),
        (
            "4k3/8/8/8/8/8/3p4/7K b - - 0 1",
            Lang::Es,
            "P8D=D",
            &["d2d1q"],
        ),
        // Castling.
        (CASTLING, Lang::En, "O-O", &["e1g1"]),
        (CASTLING, Lang::En, "0-0-0", &["e1c1"]),
        (CASTLING, Lang::En, "Castles", &["e1c1", "e1g1"]),
        (CASTLING, Lang::En, "castles KR", &["e1g1"]),
        (CASTLING, Lang::En, "Castles (QR)", &["e1c1"]),
        (CASTLING, Lang::Es, "0-0", &["e1g1"]),
        (CASTLING, Lang::Es, "enroque largo", &["e1c1"]),
        (CASTLING, Lang::En, "K-N1", &[]),
        (CASTLING, Lang::En, "K-B1", &["e1f1"]),
        (CASTLING_BLACK, Lang::En, "O-O", &["e8g8"]),
        (CASTLING_BLACK, Lang::En, "O-O-O ch", &["e8c8"]),
        (CASTLING_BLACK, Lang::Es, "0-0", &["e8g8"]),
        // Spanish R is the king, English R the rook.
        (CASTLING, Lang::En, "R-KB1", &["h1f1"]),
        (CASTLING, Lang::Es, "R1AR", &["e1f1"]),
        (CASTLING, Lang::Es, "T1AR", &["h1f1"]),
    ];

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const ROOKS: &str = "3R4/8/8/7k/8/8/6K1/R7 w - - 0 1";
    const KNIGHTS: &str = "7k/8/4N3/8/4N3/8/8/K7 w - - 0 1";
    const KNIGHTS2: &str = "7k/8/8/8/2N1N3/8/8/K7 w - - 0 1";
    const BISHOPS: &str = "4k3/8/2n2n2/1B4B1/8/8/8/4K3 w - - 0 1";
    const BLACK_BISHOPS: &str = "4k3/8/8/1b4b1/8/4N3/4N3/K7 b - - 0 1";
    const PAWNS: &str = "4k3/8/p1p4p/1P4P1/8/8/8/4K3 w - - 0 1";
    const EP: &str = "4k3/8/5p2/2PpP3/8/8/8/4K3 w - d6 0 2";
    const PROMO: &str = "3r4/4P2k/8/8/8/8/8/4K3 w - - 0 1";
    const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const CASTLING_BLACK: &str = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";

    #[test]
    fn written_moves_fit_the_moves_they_name() {
        for &(f, lang, text, expected) in TABLE {
            let pos = fen(f);
            assert_eq!(
                candidates(&pos, text, lang),
                expected.to_vec(),
                "{text:?} in {lang:?} at {f}"
            );
        }
    }

    /// A caller tries SAN first: SAN refuses every descriptive move but castling, and
    /// descriptive notation refuses the SAN of every move but castling.
    #[test]
    fn san_and_descriptive_do_not_overlap() {
        for &(_, lang, text, _) in TABLE {
            let d = Descriptive::parse(text.as_bytes(), lang).expect(text);
            if !d.is_castling() {
                assert!(San::parse(text.as_bytes(), lang).is_err(), "{text}");
            }
        }
        for pos in positions().into_iter().step_by(11) {
            for m in pos.legal_moves().iter() {
                for lang in [Lang::En, Lang::Es] {
                    let text = San::from_move(&pos, m).to_string_in(lang);
                    let d = Descriptive::parse(text.as_bytes(), lang);
                    assert_eq!(d.is_ok(), m.castling_side().is_some(), "{text}");
                }
            }
        }
    }

    /// Any text at all is read without panicking, and what reads lists its moves.
    #[test]
    fn any_text_reads_without_panic() {
        fn strings(alphabet: &[u8], s: &mut Vec<u8>, max: usize, each: &mut dyn FnMut(&[u8])) {
            each(s);
            if s.len() < max {
                for &c in alphabet {
                    s.push(c);
                    strings(alphabet, s, max, each);
                    s.pop();
                }
            }
        }
        let pos = fen(PROMO);
        let mut list = MoveList::new();
        let mut read = 0;
        for lang in [Lang::En, Lang::Es] {
            strings(b"PKRQDTAC8x-(/=1t ", &mut Vec::new(), 4, &mut |s| {
                if let Ok(d) = Descriptive::parse(s, lang) {
                    read += 1;
                    d.candidates(&pos, &mut list);
                    let _ = d.describe(&pos);
                }
            });
        }
        assert!(read > 500, "{read}");
    }

    #[test]
    fn marks_are_stripped_and_the_check_mark_kept() {
        let pos = Position::new();
        for (text, suffix) in [
            ("P-K4", None),
            ("P-K4 ch", Some(Suffix::Check)),
            ("P-K4ch", Some(Suffix::Check)),
            ("P-K4 ch.", Some(Suffix::Check)),
            ("P-K4+", Some(Suffix::Check)),
            ("P-K4 check", Some(Suffix::Check)),
            ("P-K4 dis ch", Some(Suffix::Check)),
            ("P-K4 dis. ch.", Some(Suffix::Check)),
            ("P-K4 dbl ch", Some(Suffix::Check)),
            ("P-K4 mate", Some(Suffix::Mate)),
            ("P-K4#", Some(Suffix::Mate)),
            ("P-K4++", Some(Suffix::DoublePlus)),
            ("P-K4!", None),
            ("P-K4?!", None),
            ("P-K4 ch!", Some(Suffix::Check)),
            ("P-K4! ch", Some(Suffix::Check)),
            ("P-K4\u{a0}+", Some(Suffix::Check)),
            ("P\u{2013}K4", None),
        ] {
            let d = Descriptive::parse(text.as_bytes(), Lang::En).expect(text);
            assert_eq!(d.suffix(), suffix, "{text}");
            assert_eq!(candidates(&pos, text, Lang::En), ["e2e4"], "{text}");
        }
        for (text, suffix) in [
            ("P4R jaque", Some(Suffix::Check)),
            ("P4R jaque mate", Some(Suffix::Mate)),
            ("P4R++", Some(Suffix::DoublePlus)),
            ("P4R+", Some(Suffix::Check)),
        ] {
            let d = Descriptive::parse(text.as_bytes(), Lang::Es).expect(text);
            assert_eq!(d.suffix(), suffix, "{text}");
        }
    }

    #[test]
    fn algebraic_notation_is_refused() {
        for (text, lang) in [
            ("e4", Lang::En),
            ("Nf3", Lang::En),
            ("exd5", Lang::En),
            ("Nbd7", Lang::En),
            ("Qxd1+", Lang::En),
            ("Rfe1", Lang::En),
            ("exd6 e.p.", Lang::En),
            ("e8=Q", Lang::En),
            ("Cf3", Lang::Es),
            ("Axc6", Lang::Es),
            ("5254", Lang::En),
            ("e2e4", Lang::En),
            ("Ng1-f3", Lang::En),
            ("--", Lang::En),
        ] {
            assert!(
                Descriptive::parse(text.as_bytes(), lang).is_err(),
                "{text} in {lang:?}"
            );
        }
        assert!(Descriptive::parse(b"O-O", Lang::En).is_ok());
        for (text, lang, error) in [
            ("", Lang::En, DescriptiveError::Empty),
            (" ch", Lang::En, DescriptiveError::Empty),
            ("P-K4", Lang::De, DescriptiveError::UnsupportedLang),
            ("P-K9", Lang::En, DescriptiveError::BadSquare),
            ("P-X4", Lang::En, DescriptiveError::BadSquare),
            ("KQ-K4", Lang::En, DescriptiveError::BadQualifier),
            ("P-K8=K", Lang::En, DescriptiveError::BadPromotion),
            ("N-K8=Q", Lang::En, DescriptiveError::BadPromotion),
            ("P-K4Z", Lang::En, DescriptiveError::UnexpectedCharacters),
            ("PK4", Lang::En, DescriptiveError::BadQualifier),
            ("C3X", Lang::Es, DescriptiveError::BadSquare),
        ] {
            assert_eq!(
                Descriptive::parse(text.as_bytes(), lang),
                Err(error),
                "{text:?}"
            );
        }
    }

    #[test]
    fn captures_and_descriptions() {
        for (f, text, lang, capture, description) in [
            (START, "N-B3", Lang::En, false, "a knight move to c3 or f3"),
            (START, "C3AR", Lang::Es, false, "a knight move to f3"),
            (PAWNS, "PxP", Lang::En, true, "a pawn capturing a pawn"),
            (
                BISHOPS,
                "BxN(KB6)",
                Lang::En,
                true,
                "a bishop capturing a knight on f6",
            ),
            (
                BLACK_BISHOPS,
                "KBxN",
                Lang::En,
                true,
                "a bishop on the dark squares capturing a knight",
            ),
            (
                PAWNS,
                "BPxRP",
                Lang::En,
                true,
                "a pawn on the c or f file capturing a pawn on the a or h file",
            ),
            (
                ROOKS,
                "R(1)-Q1",
                Lang::En,
                false,
                "a rook on rank 1 move to d1",
            ),
            (
                KNIGHTS2,
                "KN-Q6",
                Lang::En,
                false,
                "a knight on the e, f, g or h file move to d6",
            ),
            (
                PROMO,
                "PxR=Q",
                Lang::En,
                true,
                "a pawn capturing a rook promoting to a queen",
            ),
            (
                EP,
                "PxP e.p.",
                Lang::En,
                true,
                "a pawn capturing a pawn en passant",
            ),
            (CASTLING, "O-O", Lang::En, false, "castling king-side"),
            (CASTLING, "0-0-0", Lang::Es, false, "castling queen-side"),
            (CASTLING, "Castles", Lang::En, false, "castling"),
            (
                "k7/7P/8/8/8/8/8/K7 w - - 0 1",
                "P8TD",
                Lang::Es,
                false,
                "a pawn move to a8, or a pawn move to a8 or h8 promoting to a queen",
            ),
        ] {
            let d = Descriptive::parse(text.as_bytes(), lang).expect(text);
            assert_eq!(d.is_capture(), capture, "{text}");
            assert_eq!(d.describe(&fen(f)), description, "{text}");
        }
    }

    #[test]
    fn ambiguous_moves_are_written_apart() {
        for (f, lang, expected) in [
            (
                // 1. e4 d5 2. c4 e6: PxP is exd5 or cxd5.
                "rnbqkbnr/ppp2ppp/4p3/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq - 0 3",
                Lang::En,
                &[
                    ("exd5", "KPxP"),
                    ("cxd5", "BPxP"),
                    ("Nc3", "N-QB3"),
                    ("e5", "P-K5"),
                ][..],
            ),
            (
                "rnbqkbnr/ppp2ppp/4p3/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq - 0 3",
                Lang::Es,
                &[("exd5", "PRxP"), ("cxd5", "PAxP"), ("Nc3", "C3AD")][..],
            ),
            (
                START,
                Lang::En,
                &[("Nf3", "N-KB3"), ("Nc3", "N-QB3"), ("e4", "P-K4")][..],
            ),
            (
                ROOKS,
                Lang::En,
                &[("Rad1", "R(1)-Q1"), ("R8d1", "R(8)-Q1"), ("Rb1", "R-QN1")][..],
            ),
            (
                ROOKS,
                Lang::Es,
                &[("Rad1", "T(1)1D"), ("R8d1", "T(8)1D")][..],
            ),
            (
                PAWNS,
                Lang::En,
                &[("bxa6", "PxQRP"), ("bxc6", "PxBP"), ("gxh6", "PxKRP")][..],
            ),
            (
                BLACK_BISHOPS,
                Lang::En,
                &[("Bxe2", "QBxN"), ("Bxe3", "KBxN")][..],
            ),
            (
                PROMO,
                Lang::En,
                &[("e8=Q", "P-K8=Q"), ("exd8=N", "PxR=N")][..],
            ),
            (
                CASTLING,
                Lang::En,
                &[("O-O", "O-O"), ("O-O-O", "O-O-O")][..],
            ),
            (CASTLING, Lang::Es, &[("O-O", "0-0")][..]),
        ] {
            let pos = fen(f);
            let all = pos.legal_moves();
            for (san, written) in expected {
                let m = San::parse(san.as_bytes(), Lang::En)
                    .expect("SAN")
                    .resolve(&pos)
                    .expect("legal");
                assert_eq!(&write_descriptive(&pos, &m, &all, lang), written, "{san}");
            }
        }
        // Among fewer moves, less is needed.
        let pos = Position::new();
        let nf3 = San::parse(b"Nf3", Lang::En).unwrap().resolve(&pos).unwrap();
        assert_eq!(write_descriptive(&pos, &nf3, &[nf3], Lang::En), "N-B3");
        assert_eq!(write_descriptive(&pos, &nf3, &[], Lang::Es), "C3A");
    }

    /// Extra positions for the round trips: Black to move, en passant, promotions.
    const MORE: [&str; 6] = [
        EP,
        "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
        "4k3/8/2n2n2/1B4B1/1b4b1/2N2N2/8/4K3 w - - 0 1",
    ];

    #[test]
    fn written_moves_read_back_as_the_move_alone() {
        let mut list = MoveList::new();
        let mut checked = 0;
        let sample = positions().into_iter().step_by(7);
        for pos in sample.chain(MORE.iter().map(|f| fen(f))) {
            let all = pos.legal_moves();
            for m in all.iter() {
                for lang in [Lang::En, Lang::Es] {
                    let text = write_descriptive(&pos, m, &all, lang);
                    let d = Descriptive::parse(text.as_bytes(), lang)
                        .unwrap_or_else(|e| panic!("{text} in {lang:?}: {e}"));
                    d.candidates(&pos, &mut list);
                    assert_eq!(&list[..], &[*m], "{text} in {lang:?} at {}", pos.fen());
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
