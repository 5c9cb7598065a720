//! Checks the property of byte ranges in-process on whole files (`planilla_testkit::
//! RangeCheck`): each file is checked whole once, then cut into partitions whose ranges
//! are read as `check --range` reads them, from the start, from `planilla index`'s marks
//! (a mebibyte apart) and from marks 4 KiB apart; their games, put together in order,
//! must be the whole file's, finding for finding, and their totals add up. Used by
//! `.ci/run` on the shared real files and the 200 MB benchmark file.
//!
//! The partitions: one cut at places found by scanning the file's bytes (inside tag
//! pairs, brace comments, variations and multi-byte characters, a few of each), at game
//! starts and a byte before and after them, with empty ranges at byte 0, at the end and
//! past it; and `--partitions` (default 3) of 1 to 24 random cuts. A seed chooses them
//! all: `--seed` replays a run (default: from the clock, printed).
//!
//! Usage: `range-corpus [--seed N] [--partitions N] [--threads N] FILE...`. Prints one
//! line per file, a `FAIL` line naming the file, the cuts and the first game and finding
//! that differ for each partition that breaks the property, then one summary line; exits
//! 1 if any failed.

use planilla_parser::ReaderBuilder;
use planilla_parser::split::ReadAt;
use planilla_testkit::{Place, Places, RangeCheck, Seeded, partition_cuts};
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::process::exit;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

/// The marks of a dense index, in bytes apart.
const DENSE: u64 = 4096;

/// Places of each kind cut at, and game starts.
const PER_KIND: usize = 3;

/// The command line.
struct Args {
    seed: u64,
    partitions: usize,
    threads: usize,
    files: Vec<String>,
}

fn usage() -> ! {
    eprintln!("usage: range-corpus [--seed N] [--partitions N] [--threads N] FILE...");
    exit(2)
}

fn args() -> Args {
    let mut args = Args {
        seed: SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
        partitions: 3,
        threads: std::thread::available_parallelism().map_or(1, usize::from),
        files: Vec::new(),
    };
    let mut given = std::env::args().skip(1);
    while let Some(arg) = given.next() {
        let mut number = || {
            given
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| usage())
        };
        match arg.as_str() {
            "--seed" => args.seed = number(),
            "--partitions" => args.partitions = number() as usize,
            "--threads" => args.threads = (number() as usize).max(1),
            flag if flag.starts_with("--") => usage(),
            _ => args.files.push(arg),
        }
    }
    if args.files.is_empty() {
        usage()
    }
    args
}

/// What happened to one file's partitions.
#[derive(Default)]
struct Tally {
    passed: u64,
    failed: u64,
}

fn main() {
    let args = args();
    let started = Instant::now();
    let mut tally = Tally::default();
    for (n, path) in args.files.iter().enumerate() {
        let seed = args.seed.wrapping_add(n as u64);
        if let Err(e) = check_file(path, seed, &args, &mut tally) {
            eprintln!("range-corpus: cannot read {path}: {e}");
            exit(2);
        }
    }
    println!(
        "range-corpus: seed {}: {} files, {} partitions passed, {} failed, {:.1} s",
        args.seed,
        args.files.len(),
        tally.passed,
        tally.failed,
        started.elapsed().as_secs_f64()
    );
    exit(i32::from(tally.failed > 0));
}

/// Checks every partition of one file, each read three ways.
fn check_file(path: &str, seed: u64, args: &Args, tally: &mut Tally) -> io::Result<()> {
    let started = Instant::now();
    let file = File::open(path)?;
    let size = file.metadata()?.len();
    let input: Arc<dyn ReadAt> = Arc::new(file);
    let check = RangeCheck::new(File::open(path)?, input, size, ReaderBuilder::new())?;
    let totals = check.totals();

    let mut places = Places::new(seed, PER_KIND);
    let mut text = BufReader::with_capacity(1 << 20, File::open(path)?);
    let mut chunk = vec![0; 1 << 20];
    loop {
        match text.read(&mut chunk)? {
            0 => break,
            n => places.scan(&chunk[..n]),
        }
    }
    let mut random = Seeded::new(seed);
    let mut placed: Vec<u64> = places.cuts().iter().map(|&(_, at)| at).collect();
    let games = check.games();
    for _ in 0..PER_KIND.min(games.len()) {
        let start = games[random.below(games.len())].offset;
        placed.extend([start.saturating_sub(1), start, start + 1]);
    }
    // Empty ranges at the start and at the end (partition_cuts adds one of each).
    placed.extend([0, size]);
    let mut partitions = vec![partition_cuts(&placed, size)];
    for _ in 0..args.partitions {
        let n = 1 + random.below(24);
        let cuts: Vec<u64> = (0..n)
            .map(|_| random.below(size as usize + 1) as u64)
            .collect();
        partitions.push(partition_cuts(&cuts, size));
    }

    let index = check.index(planilla_engine::range::Index::EVERY)?;
    let dense = check.index(DENSE)?;
    let ways = [
        ("from the start", None),
        ("with planilla index's marks", Some(&index)),
        ("with marks 4 KiB apart", Some(&dense)),
    ];
    let mut empty = 0;
    for cuts in &partitions {
        for (how, index) in ways {
            match check.partition(cuts, index, args.threads) {
                Ok(t)
                    if (t.games, t.plies, t.findings)
                        == (totals.games, totals.plies, totals.findings) =>
                {
                    tally.passed += 1;
                    empty += t.empty;
                }
                Ok(t) => {
                    tally.failed += 1;
                    println!(
                        "FAIL {path}: the ranges {cuts:?} {how}: totals {t:?}, the whole file's {totals:?}"
                    );
                }
                Err(e) => {
                    tally.failed += 1;
                    println!("FAIL {path}: the ranges {cuts:?} {how}: {e}");
                }
            }
        }
    }
    let kept = places.cuts();
    let inside: Vec<String> = Place::ALL
        .iter()
        .map(|&kind| {
            let cut = kept.iter().filter(|(k, _)| *k == kind).count();
            format!("{} {cut} of {}", kind.name(), places.seen(kind))
        })
        .collect();
    println!(
        "{path}: {} games, {} plies, {} findings; {} partitions x {} ways, {empty} empty \
         ranges; cut inside {}; {:.1} s",
        totals.games,
        totals.plies,
        totals.findings,
        partitions.len(),
        ways.len(),
        inside.join(", "),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
