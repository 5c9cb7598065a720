//! Profiling aid: reads a file N times with our reader. `prof_read FILE [split]`
use planilla_parser::{Game, ReaderBuilder};
fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tokenize = args.get(1).map(|a| a != "split").unwrap_or(true);
    let start = std::time::Instant::now();
    let mut reader = ReaderBuilder::new()
        .tokenize(tokenize)
        .build(std::fs::File::open(&args[0])?);
    let mut game = Game::new();
    let mut n = 0;
    while reader.read_game(&mut game)? {
        n += game.tokens().len();
    }
    let secs = start.elapsed().as_secs_f64();
    let mb = std::fs::metadata(&args[0])?.len() as f64 / 1e6;
    println!("{n} tokens, {:.1} MB/s", mb / secs);
    Ok(())
}
