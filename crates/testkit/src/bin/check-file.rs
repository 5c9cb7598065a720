//! Reads PGN files and checks the reader's invariants on each; used by
//! `scripts/check-corpora`.
//!
//! Usage: `check-file FILE...`. Prints one line per file, `FILE<TAB>GAMES<TAB>ok` or
//! `FILE<TAB>GAMES<TAB>error: ...`, and exits 1 if any file failed. Checks: the games'
//! bytes put back together (after a byte order mark) equal the file; every game's tokens
//! tile its bytes; reading through buffer sizes 1 (small files only), 7 and 4096 gives the
//! same games, tokens and findings as the default.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::{self, Read};

use planilla_parser::{Game, Reader, ReaderBuilder};
use planilla_testkit::{Chunked, tokens_tile};

fn main() {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        match check(&path) {
            Ok(games) => println!("{path}\t{games}\tok"),
            Err((games, message)) => {
                failed = true;
                println!("{path}\t{games}\terror: {message}");
            }
        }
    }
    std::process::exit(i32::from(failed));
}

/// Reads the file through the default buffer, then again from memory through other
/// buffer sizes, and returns the number of games.
fn check(path: &str) -> Result<u64, (u64, String)> {
    let data = std::fs::read(path).map_err(|e| (0, format!("cannot read: {e}")))?;
    let file = std::fs::File::open(path).map_err(|e| (0, format!("cannot open: {e}")))?;
    let (games, digest, joined) = read_all(Reader::new(file)).map_err(|e| (0, e.to_string()))?;
    let body = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&data);
    let trailing_blank =
        body.len() >= joined.len() && body[joined.len()..].iter().all(u8::is_ascii_whitespace);
    if !body.starts_with(&joined) || !trailing_blank {
        return Err((games, "games put back together differ from the file".into()));
    }
    let mut sizes = vec![7, 4096];
    if data.len() < 256 * 1024 {
        sizes.push(1);
    }
    for size in sizes {
        let reader = ReaderBuilder::new().buffer_size(size).build(Chunked(&data));
        let (other_games, other_digest, _) =
            read_all(reader).map_err(|e| (games, e.to_string()))?;
        if (other_games, other_digest) != (games, digest) {
            return Err((games, format!("buffer size {size} gives different games")));
        }
    }
    Ok(games)
}

/// Reads every game; returns the count, a digest of all games, tokens, findings and
/// locations, and the games' bytes joined.
fn read_all<R: Read>(mut reader: Reader<R>) -> io::Result<(u64, u64, Vec<u8>)> {
    let mut game = Game::new();
    let mut hasher = DefaultHasher::new();
    let mut joined = Vec::new();
    while reader.read_game(&mut game)? {
        tokens_tile(&game)
            .map_err(|message| io::Error::other(format!("game {}: {message}", game.index())))?;
        (
            game.index(),
            game.offset(),
            game.first_line(),
            game.bytes(),
            game.all_tokens().collect::<Vec<_>>(),
        )
            .hash(&mut hasher);
        for finding in game.findings() {
            (finding, game.location(finding.span.start as usize)).hash(&mut hasher);
        }
        joined.extend_from_slice(game.bytes());
    }
    Ok((reader.games_read(), hasher.finish(), joined))
}
