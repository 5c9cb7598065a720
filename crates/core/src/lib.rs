//! planilla-core: the legality core of planilla.
//!
//! No I/O, no PGN, no dependencies: the vocabulary of chess as small types
//! ([`Square`], [`Role`], [`Piece`], [`Bitboard`], [`Move`]), attack tables
//! computed by `const fn`, legal move generation with check and pin masks,
//! making moves, game-end tests, Zobrist keys for repetition, FEN with
//! validation, and SAN in every language planilla reads.
//!
//! ```
//! use planilla_core::{Position, san::{Lang, San}};
//!
//! let pos = Position::new();
//! // "Cf3" is the Spanish for Nf3.
//! let san = San::parse(b"Cf3", Lang::Es).unwrap();
//! let m = san.resolve(&pos).unwrap();
//! let after = pos.play(&m);
//! assert_eq!(after.fen(), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
//! assert_eq!(San::from_move(&pos, &m).to_string_in(Lang::En), "Nf3");
//! ```

#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
pub mod detect;
mod fen;
pub mod perft;
mod position;
pub mod san;
mod types;
pub mod unwinnable;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, PositionError, Validation};
pub use position::{Board, CastlingError, GameEnd, Move, MoveKind, MoveList, Position};
pub use types::{CastlingSide, Color, File, Piece, Rank, Role, Square};
