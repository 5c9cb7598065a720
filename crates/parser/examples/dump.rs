//! Prints the games, tokens and findings of a PGN file (a debugging aid).
//!
//! Usage: `cargo run -p planilla-parser --example dump -- FILE [--encoding NAME]`

use std::fs::File;
use std::io::{self, BufWriter, Write};

use planilla_parser::{Encoding, Game, ReaderBuilder};

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: dump FILE [--encoding NAME]");
        std::process::exit(2);
    };
    let encoding = match args.iter().position(|a| a == "--encoding") {
        Some(i) => args
            .get(i + 1)
            .and_then(|n| n.parse::<Encoding>().ok())
            .unwrap_or_default(),
        None => Encoding::Auto,
    };
    let mut reader = ReaderBuilder::new()
        .encoding(encoding)
        .build(File::open(path)?);
    let mut game = Game::new();
    let out = io::stdout();
    let mut out = BufWriter::new(out.lock());
    while reader.read_game(&mut game)? {
        writeln!(
            out,
            "game {} offset {} line {} bytes {}",
            game.index(),
            game.offset(),
            game.first_line(),
            game.bytes().len()
        )?;
        for token in game.all_tokens() {
            writeln!(
                out,
                "  {:>6} {:<15} {:?}",
                token.start,
                token.kind.name(),
                game.decode(token.span())
            )?;
        }
        for finding in game.findings() {
            let at = game.location(finding.span.start as usize);
            writeln!(out, "  finding {}:{} {}", at.line, at.column, finding)?;
        }
    }
    Ok(())
}
