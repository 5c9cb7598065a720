//! Reads the games of a PGN file and prints each finding of the checks, one a line,
//! location first: what `planilla check` does, in a few lines of the library.
//!
//! Usage: `cargo run -p planilla-validator --example findings -- FILE`
//! (try it on `corpora/check/illegal.pgn`).

use std::fs::File;

use planilla_parser::{Game, Reader};
use planilla_validator::{Checker, Config};

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: findings FILE");
        std::process::exit(2);
    };
    // The reader streams the file one game at a time; the caller owns the game, the
    // checker and the findings buffer, and all three are reused from game to game.
    let mut reader = Reader::new(File::open(&path)?);
    let mut game = Game::new();
    let mut findings = Vec::new();
    let mut checker = Checker::new(Config::default());
    while reader.read_game(&mut game)? {
        findings.clear();
        checker.check(&game, &mut findings);
        for f in &findings {
            println!(
                "{path}:{}:{}: {}[{}] game {}: {}",
                f.line,
                f.column,
                f.severity().name(),
                f.code.as_str(),
                f.game,
                f.message
            );
        }
    }
    println!("{} games", reader.games_read());
    Ok(())
}
