//! Benchmark: each decoder's single-core ceiling, the decoders `planilla` reads
//! compressed input with (the engine's `decode.rs`: zstd, flate2's `MultiGzDecoder`,
//! bzip2's `MultiBzDecoder`), each over a buffered file as the binary reads it, on one
//! thread, nothing done with the text.
//!
//! Usage: `cargo bench --bench decode -- FILE... [--rounds N]` (`scripts/bench scale`
//! runs it on the 200 MB file's `.zst`, `.gz` and `.bz2` copies). Prints, per file, the
//! MB/s of decoded text in each round by the CPU time of the decoding thread (from
//! `/proc/thread-self/schedstat`: steadier than wall time on a shared machine; wall time
//! where it is missing), the file in the page cache, and the median.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::time::Instant;

fn main() -> io::Result<()> {
    // cargo passes `--bench` to a benchmark without the test harness.
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut rounds = 3;
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        rounds = args
            .get(i + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(rounds);
        args.drain(i..(i + 2).min(args.len()));
    }
    if args.is_empty() {
        eprintln!("usage: decode FILE... [--rounds N]");
        std::process::exit(2);
    }
    for path in &args {
        let mut speeds = Vec::new();
        let mut bytes = 0;
        for _ in 0..rounds {
            let (start, cpu) = (Instant::now(), thread_cpu());
            bytes = drain(decoder(path)?)?;
            let seconds = match (cpu, thread_cpu()) {
                (Some(before), Some(after)) => after - before,
                _ => start.elapsed().as_secs_f64(),
            };
            speeds.push(bytes as f64 / 1e6 / seconds);
        }
        speeds.sort_by(f64::total_cmp);
        let rounds: Vec<String> = speeds.iter().map(|s| format!("{s:.0}")).collect();
        println!(
            "{path}: {:.1} MB decoded, median {:.0} MB/s (rounds {})",
            bytes as f64 / 1e6,
            speeds[speeds.len() / 2],
            rounds.join(", ")
        );
    }
    Ok(())
}

/// The decoder the binary uses for the file's extension.
fn decoder(path: &str) -> io::Result<Box<dyn Read>> {
    let input = BufReader::new(File::open(path)?);
    Ok(match path.rsplit('.').next() {
        Some("zst") => Box::new(zstd::stream::read::Decoder::with_buffer(input)?),
        Some("gz") => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
        Some("bz2") => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
        _ => return Err(io::Error::other(format!("{path}: not .zst, .gz or .bz2"))),
    })
}

/// Reads everything, in reads of 256 KiB (the binary's read-ahead chunk); the bytes read.
fn drain(mut reader: Box<dyn Read>) -> io::Result<u64> {
    let mut buf = vec![0; 256 << 10];
    let mut total = 0;
    loop {
        match reader.read(&mut buf)? {
            0 => return Ok(total),
            n => total += n as u64,
        }
    }
}

/// The CPU time of this thread so far, in seconds, where Linux tells it.
fn thread_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(stat.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}
