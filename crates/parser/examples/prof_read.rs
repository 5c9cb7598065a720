//! Profiling aid: reads one file with default settings and prints tokens and MB/s.
//!
//! Usage: `prof_read FILE`
use planilla_parser::{Game, Reader};

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: prof_read FILE");
        std::process::exit(2);
    };
    let start = std::time::Instant::now();
    let mut reader = Reader::new(std::fs::File::open(&path)?);
    let mut game = Game::new();
    let mut tokens = 0;
    while reader.read_game(&mut game)? {
        tokens += game.tokens().len();
    }
    let seconds = start.elapsed().as_secs_f64();
    let megabytes = std::fs::metadata(&path)?.len() as f64 / 1e6;
    println!(
        "{} games, {tokens} tokens, {:.1} MB/s",
        reader.games_read(),
        megabytes / seconds
    );
    Ok(())
}
