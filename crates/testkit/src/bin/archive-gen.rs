//! Writes an archive of distinct random games with planted copies to standard output,
//! for the archive checks' scale proof (`scripts/check-archive`): streamed, so that ten
//! million games (about 8 GB) go through a pipe and never onto a disk.
//!
//! Usage: `archive-gen GAMES [SEED [PLANT_EVERY]]` (defaults: seed 1, a planted case
//! after every 500 games). At the end, standard error gets one line with the planted
//! cases by code, the findings `check --archive` should give:
//! `planted duplicate-game=N truncated-copy=N conflicting-copies=N round-conflict=N player-identity=N`.

use planilla_testkit::ArchiveGen;
use std::io::{self, Write};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!("usage: archive-gen GAMES [SEED [PLANT_EVERY]]");
                std::process::exit(2)
            })
        })
        .collect();
    let Some(&games) = args.first() else {
        eprintln!("usage: archive-gen GAMES [SEED [PLANT_EVERY]]");
        std::process::exit(2)
    };
    let mut generator = ArchiveGen::new(
        args.get(1).copied().unwrap_or(1),
        args.get(2).copied().unwrap_or(500),
    );
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 20, stdout.lock());
    let mut text = String::new();
    while generator.games() < games {
        text.clear();
        generator.next_games(&mut text);
        if out.write_all(text.as_bytes()).is_err() {
            // The reader went away: nothing more to do.
            std::process::exit(0);
        }
    }
    let _ = out.flush();
    let p = generator.planted;
    eprintln!(
        "planted duplicate-game={} truncated-copy={} conflicting-copies={} round-conflict={} player-identity={}",
        p.duplicates, p.truncated, p.conflicting, p.round_conflicts, p.identities
    );
}
