//! Benchmark: the serial step of `check -jN`, the splitter alone: the input cut into
//! pieces of 256 KiB (the pipeline's size) at likely game starts, nothing tokenized. For
//! a regular file the splitter reads only a window past each piece's size to find its
//! cut (`Splitter::positional`: the threads read the pieces); for a stream (standard
//! input, a compressed file) it reads every byte (`Splitter::new`). Both are timed.
//!
//! Usage: `cargo bench -p planilla-parser --bench split -- FILE [ROUNDS]` (`scripts/bench
//! scale` runs it on target/bench/real-200mb.pgn). Prints MB/s per round (wall-clock time
//! of the one thread, the file in the page cache after the first round), then the
//! medians as `median: N MB/s` (the file) and `stream median: N MB/s` for the script to
//! read.

use std::fs::File;
use std::io::{self, Read};
use std::sync::Arc;
use std::time::Instant;

use planilla_parser::split::{Next, Splitter};

/// The piece size of the binary's pipeline (`BatchConfig::DEFAULT_MAX_BYTES`).
const PIECE: usize = 256 << 10;

fn main() -> io::Result<()> {
    // cargo passes `--bench` to a benchmark without the test harness.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(path) = args.first() else {
        eprintln!("usage: split FILE [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(5);
    let size = std::fs::metadata(path)?.len();
    for positional in [true, false] {
        let mut speeds = Vec::new();
        for round in 1..=rounds {
            let start = Instant::now();
            let pieces = if positional {
                cut(
                    Splitter::positional(Arc::new(File::open(path)?), PIECE),
                    size,
                    path,
                )?
            } else {
                cut(Splitter::new(File::open(path)?, PIECE), size, path)?
            };
            let speed = size as f64 / 1e6 / start.elapsed().as_secs_f64();
            let how = if positional { "file" } else { "stream" };
            println!("round {round}, {how}: {speed:.0} MB/s ({pieces} pieces)");
            speeds.push(speed);
        }
        speeds.sort_by(f64::total_cmp);
        let name = if positional {
            "median"
        } else {
            "stream median"
        };
        println!("{name}: {:.0} MB/s", speeds[speeds.len() / 2]);
    }
    Ok(())
}

/// Cuts the whole input with `splitter`: how many pieces. The pieces of a positional
/// splitter are not read (the threads that take them read them).
fn cut<R: Read>(mut splitter: Splitter<R>, size: u64, path: &str) -> io::Result<u64> {
    let (mut pieces, mut end) = (0u64, 0u64);
    loop {
        match splitter.next_piece() {
            Next::Piece(piece) => {
                pieces += 1;
                assert_eq!(piece.start, end, "the pieces follow each other");
                if let Some(e) = piece.error {
                    return Err(e);
                }
                match piece.cut {
                    Some(cut) => end = piece.start + cut as u64,
                    None => end = size,
                }
                // The pipeline gives each piece's buffer back once it is worked on.
                splitter.recycle(piece.bytes);
            }
            Next::End => break,
            Next::Unsplittable => {
                eprintln!("{path}: the splitter does not cut this file");
                std::process::exit(1);
            }
        }
    }
    assert_eq!(end, size, "every byte is in one piece");
    Ok(pieces)
}
