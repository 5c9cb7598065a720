//! Benchmark: the serial step of `check -jN`, the splitter alone: the file read and cut
//! into pieces of 256 KiB (the pipeline's size) at likely game starts, nothing
//! tokenized.
//!
//! Usage: `cargo bench -p planilla-parser --bench split -- FILE [ROUNDS]` (`scripts/bench
//! scale` runs it on target/bench/real-200mb.pgn). Prints MB/s per round (wall-clock time
//! of the one thread, the file in the page cache after the first round), then the median
//! as `median: N MB/s` for the script to read.

use std::fs::File;
use std::io;
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
    let size = std::fs::metadata(path)?.len() as f64 / 1e6;
    let mut speeds = Vec::new();
    for round in 1..=rounds {
        let start = Instant::now();
        let mut splitter = Splitter::new(File::open(path)?, PIECE);
        let (mut pieces, mut bytes) = (0u64, 0u64);
        loop {
            match splitter.next_piece() {
                Next::Piece(piece) => {
                    pieces += 1;
                    bytes += piece.cut.unwrap_or(piece.bytes.len()) as u64;
                    if let Some(e) = piece.error {
                        return Err(e);
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
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(bytes as f64 / 1e6, size, "every byte is in one piece");
        println!(
            "round {round}: {:.0} MB/s ({pieces} pieces)",
            size / seconds
        );
        speeds.push(size / seconds);
    }
    speeds.sort_by(f64::total_cmp);
    println!("median: {:.0} MB/s", speeds[speeds.len() / 2]);
    Ok(())
}
