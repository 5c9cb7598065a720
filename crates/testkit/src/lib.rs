//! The checks that planilla's tests, fuzz targets and corpus checkers share, each defined
//! once here so that they cannot drift apart.
//!
//! - [`tokens_tile`] and [`check_game`]: what the reader and the tokenizer promise about
//!   one game (every byte belongs to exactly one token, spans stay inside, the lossless
//!   writer gives the bytes back); [`belongs_to_no_game`]: what may lie between games.
//! - [`convert_round_trip`]: what `convert` promises about any input (every game written
//!   in every output encoding or the character it cannot hold named, games in = games
//!   out, through another language and back equals straight to English).
//! - [`fix_properties`]: what `fix` promises about any input (its output checks clean and
//!   a second fix changes nothing; the output and the rejects read back as the games
//!   written and rejected, each with its bytes), with [`fix_options`] choosing the options
//!   from a byte as the fix fuzz target does.
//! - [`repair_trial`]: the repair property (a move damaged by one character is given back
//!   or not repaired, never repaired into another move), with [`RepairTally`] counting the
//!   recovery rate by edit kind and [`random_game`] making games to damage.
//! - [`ArchiveGen`]: archives of distinct random games with planted copies of every
//!   kind the archive checks find, and [`Planted`], what it planted.
//! - [`split_reads_as_stream`]: the splitter's property (an input cut into pieces, each
//!   tokenized alone and settled, gives the games, tokens and findings of one reader over
//!   the whole).
//! - [`RangeCheck`]: the property of byte ranges (the ranges of any partition of a file,
//!   each read as `check --range` reads it, give the whole file's findings and totals),
//!   with [`Places`] finding places to cut at inside tag pairs, comments, variations and
//!   multi-byte characters, and [`range_fuzz`] reading a range fuzz target's input.
//! - [`lsp::edits_read_fresh`]: the language server's documents under any edits are
//!   what a fresh reading of their text gives ([`lsp::lsp_fuzz`]: the lsp fuzz target's
//!   input read as a text and its edits).
//! - [`Chunked`]: a reader that hands out as few bytes as asked, to reach every refill
//!   path of the streaming reader.
//!
//! The corpus checkers that CI runs over `../shared/corpora` are this crate's binaries
//! (`check-file`, `san-corpus`, `fen-corpus`, `round-trip`, `repair-corpus`, `fix-corpus`, `range-corpus`, and
//! `archive-gen` for the archive checks' scale proof): tools, not examples of the
//! library.
//!
//! ```
//! let game = planilla_parser::Game::from_bytes(&b"1. e4 e5 *"[..], Default::default());
//! planilla_testkit::check_game(&game);
//! ```

#![warn(missing_docs)]

mod archive;
mod convert;
mod cuts;
mod fix;
pub mod lsp;
mod range;
mod repair;
mod split;
mod tokens;

pub use archive::{ArchiveGen, Planted};
pub use convert::convert_round_trip;
pub use cuts::{Place, Places};
pub use fix::{FixTally, fix_options, fix_properties};
pub use range::{GameDigest, RangeCheck, RangeTally, partition_cuts, range_fuzz};
pub use repair::{Counts, RepairTally, Seeded, damage, random_game, repair_trial};
pub use split::{GameSummary, read_split, read_stream, split_reads_as_stream};
pub use tokens::{Chunked, belongs_to_no_game, check_game, tokens_tile};
