//! The splitter's property: an input cut into pieces, each tokenized on its own and
//! then settled, gives the games one reader gives over the whole input.

use planilla_parser::split::{Link, Next, Splitter, TextReader, read_ahead, read_from, settle};
use planilla_parser::{Finding, Game, ReaderBuilder, Token};
use std::io::Read;
use std::sync::Arc;

/// What a reader made of one game, to compare two ways of reading an input.
#[derive(Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's number.
    pub index: u64,
    /// Its byte offset in the input.
    pub offset: u64,
    /// The line of its first byte.
    pub first_line: u64,
    /// The bytes kept.
    pub bytes: Vec<u8>,
    /// The bytes skipped (a game over a limit).
    pub skipped: u64,
    /// Its tokens.
    pub tokens: Vec<Token>,
    /// The reader's and the tokenizer's findings.
    pub findings: Vec<Finding>,
}

impl GameSummary {
    /// The summary of `game`.
    pub fn of(game: &Game) -> GameSummary {
        GameSummary {
            index: game.index(),
            offset: game.offset(),
            first_line: game.first_line(),
            bytes: game.bytes().to_vec(),
            skipped: game.skipped_bytes(),
            tokens: game.tokens().to_vec(),
            findings: game.findings().to_vec(),
        }
    }
}

/// The games one reader built by `builder` gives over `input`.
pub fn read_stream(input: &[u8], builder: &ReaderBuilder) -> Vec<GameSummary> {
    let mut reader = builder.clone().build(input);
    let mut game = Game::new();
    let mut games = Vec::new();
    while reader.read_game(&mut game).expect("a slice reads") {
        games.push(GameSummary::of(&game));
    }
    games
}

/// The games of `input` cut by a [`Splitter`] into pieces of about `target` bytes, read
/// as the binary's pipeline does on many threads: every other piece read ahead on its own
/// and settled in turn, the others read from where the games before them end a game at a
/// time; the rest read by one reader where the splitter stops cutting. With `positional`,
/// the splitter reads `input` at offsets ([`Splitter::positional`], as a regular file is
/// read) and each piece is loaded by its reader; otherwise it reads `input` as a stream.
/// Also returns how many pieces were cut and how many of them were read again (a cut
/// that was not a game start).
pub fn read_split(
    input: &[u8],
    builder: &ReaderBuilder,
    target: usize,
    positional: bool,
) -> (Vec<GameSummary>, usize, usize) {
    if positional {
        let at = Arc::new(input.to_vec());
        read_pieces(Splitter::positional(at, target), builder)
    } else {
        read_pieces(Splitter::new(input, target), builder)
    }
}

/// [`read_split`] with its splitter.
fn read_pieces<R: Read>(
    mut splitter: Splitter<R>,
    builder: &ReaderBuilder,
) -> (Vec<GameSummary>, usize, usize) {
    let mut link = Link::default();
    let mut games = Vec::new();
    let mut list = Vec::new();
    let (mut pieces, mut again) = (0, 0);
    let read = |reader: &mut TextReader, game: &mut Game| reader.read_game(game);
    loop {
        match splitter.next_piece() {
            Next::Piece(mut piece) => {
                piece.load();
                pieces += 1;
                again += usize::from(link.origin.offset != piece.start || link.origin.after_result);
                let settled = if pieces % 2 == 0 {
                    // Read from where the games before end, each game handed on as soon
                    // as the next is read, as a thread that guessed right reads.
                    let hand_on = |own: &[Game]| games.extend(own.iter().map(GameSummary::of));
                    read_from(builder, &mut piece, &link, 1, &mut list, read, hand_on).1
                } else {
                    let ahead = read_ahead(builder, &mut piece, &mut list, read);
                    let (count, settled) =
                        settle(builder, &mut piece, ahead, &link, &mut list, read);
                    games.extend(list[..count].iter().map(GameSummary::of));
                    settled
                };
                link = settled.expect("a slice reads");
                if piece.cut.is_none() {
                    return (games, pieces, again);
                }
                splitter.recycle(piece.bytes);
            }
            Next::End => return (games, pieces, again),
            Next::Unsplittable => {
                let mut reader = splitter.into_reader(link, builder);
                let mut game = Game::new();
                while reader.read_game(&mut game).expect("a slice reads") {
                    games.push(GameSummary::of(&game));
                }
                return (games, pieces, again);
            }
        }
    }
}

/// Asserts the property on `input`: cut into pieces of about `target` bytes, it gives the
/// games, tokens and findings that one reader over the whole gives, read as a stream and
/// read at offsets alike. Returns the number of pieces and of pieces read again (as a
/// stream).
pub fn split_reads_as_stream(
    input: &[u8],
    builder: &ReaderBuilder,
    target: usize,
) -> (usize, usize) {
    let stream = read_stream(input, builder);
    let mut counts = (0, 0);
    for positional in [false, true] {
        let (split, pieces, again) = read_split(input, builder, target, positional);
        let how = if positional {
            "read at offsets"
        } else {
            "read as a stream"
        };
        assert_eq!(
            stream.len(),
            split.len(),
            "the number of games differs (pieces of {target} bytes, {how})"
        );
        for (whole, cut) in stream.iter().zip(&split) {
            assert_eq!(
                whole, cut,
                "game {} differs (pieces of {target} bytes, {how})",
                whole.index
            );
        }
        if !positional {
            counts = (pieces, again);
        }
    }
    counts
}
