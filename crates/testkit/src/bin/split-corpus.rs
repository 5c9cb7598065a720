//! Checks the splitter's property on real files: each file cut into pieces of several
//! sizes, each piece tokenized on its own and settled, gives the games, tokens and
//! findings of one reader over the whole file (`planilla_testkit::split_reads_as_stream`),
//! under the default limits and under a small game-size limit. Run by `.ci/run` on the
//! shared corpora.
//!
//! Usage: `split-corpus FILE...`. Prints one line per file and size,
//! `FILE<TAB>TARGET<TAB>PIECES<TAB>READ AGAIN`, and panics (exit 101) at the first file
//! whose games differ.

use planilla_parser::ReaderBuilder;
use planilla_testkit::split_reads_as_stream;

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: split-corpus FILE...");
        std::process::exit(2);
    }
    for path in paths {
        let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for target in [97, 4096, 256 << 10] {
            for builder in [
                ReaderBuilder::new(),
                ReaderBuilder::new().max_game_size(2000),
            ] {
                let (pieces, again) = split_reads_as_stream(&input, &builder, target);
                println!("{path}\t{target}\t{pieces}\t{again}");
            }
        }
    }
}
