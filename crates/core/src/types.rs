//! The vocabulary of chess: colours, roles, pieces, files, ranks and squares.

use std::fmt;

/// A side: White or Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `0` for White, `1` for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank on which this side's pieces start (1 for White, 8 for Black).
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// The rank a pawn of this side reaches with a double push (4 for White).
    #[inline]
    pub const fn fourth_rank(self) -> Rank {
        match self {
            Color::White => Rank::Fourth,
            Color::Black => Rank::Fifth,
        }
    }

    /// `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

/// The kind of a piece, without its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// Index 0..6.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// English name in lower case (`"knight"`).
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// The FEN letter in lower case (`'n'`).
    pub const fn fen_char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }
}

/// A piece: a role and a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White.
    pub fn fen_char(self) -> char {
        let c = self.role.fen_char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Reads a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        };
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

/// A file (column), `a` to `h`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// All files, a to h.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index 0..8, if in range.
    #[inline]
    pub const fn new(i: u32) -> Option<File> {
        if i < 8 {
            Some(File::ALL[i as usize])
        } else {
            None
        }
    }

    /// Index 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Reads `a`..`h`.
    #[inline]
    pub const fn from_char(c: u8) -> Option<File> {
        if c >= b'a' && c <= b'h' {
            Some(File::ALL[(c - b'a') as usize])
        } else {
            None
        }
    }

    /// The letter `a`..`h`.
    #[inline]
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }
}

/// A rank (row), 1 to 8.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// All ranks, 1 to 8.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index 0..8, if in range.
    #[inline]
    pub const fn new(i: u32) -> Option<Rank> {
        if i < 8 {
            Some(Rank::ALL[i as usize])
        } else {
            None
        }
    }

    /// Index 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Reads `1`..`8`.
    #[inline]
    pub const fn from_char(c: u8) -> Option<Rank> {
        if c >= b'1' && c <= b'8' {
            Some(Rank::ALL[(c - b'1') as usize])
        } else {
            None
        }
    }

    /// The digit `1`..`8`.
    #[inline]
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The same rank seen from Black's side when `color` is Black.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }
}

/// One of the 64 squares; a1 = 0, b1 = 1, …, h8 = 63.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Writes the named square constants, each with its index (a1 = 0, …, h8 = 63).
macro_rules! square_constants {
    ($($name:ident = $index:literal),* $(,)?) => {
        /// The 64 squares by name, rank by rank from White's side: `Square::A1` is a1
        /// (index 0), `Square::H8` is h8 (index 63).
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), " (index ", stringify!($index), ").")]
                pub const $name: Square = Square($index);
            )*
        }
    };
}

square_constants! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with index 0..64, if in range.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square at `index`, which must be below 64.
    #[inline]
    pub(crate) const fn new_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8 & 63)
    }

    /// The square on the same file and the mirrored rank (a1 and a8 swap).
    #[inline]
    pub(crate) const fn mirrored(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }

    /// The square `delta` steps further in index order, if on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Reads a square name such as `e4`.
    pub fn from_ascii(s: &[u8]) -> Option<Square> {
        match s {
            [f, r] => Some(Square::from_coords(
                File::from_char(*f)?,
                Rank::from_char(*r)?,
            )),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The side on which a king castles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Castling short, `O-O`: the king ends on the g-file.
    KingSide = 0,
    /// Castling long, `O-O-O`: the king ends on the c-file.
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// Index 0..2.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file the king ends on (g or c).
    #[inline]
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook ends on (f or d).
    #[inline]
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The square the king ends on for `color`.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), color.back_rank())
    }

    /// The square the rook ends on for `color`.
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), color.back_rank())
    }
}

#[cfg(test)]
mod tests {
    use super::Square;

    #[test]
    fn square_constants_name_their_squares() {
        let named = [
            Square::A1,
            Square::H1,
            Square::E4,
            Square::D5,
            Square::A8,
            Square::H8,
        ];
        let names: Vec<String> = named.iter().map(Square::to_string).collect();
        assert_eq!(names, ["a1", "h1", "e4", "d5", "a8", "h8"]);
        assert_eq!(Square::new(63), Some(Square::H8));
    }
}
