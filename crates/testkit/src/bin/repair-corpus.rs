//! The repair property on real files: every game of each file that replays cleanly gets
//! one main-line move damaged by one character (seeded, the edit kinds in turn) so that
//! it no longer plays, and the repair search must give the move back or give no repair,
//! never another move. Prints the recovery rate by edit kind.
//!
//! Usage: `repair-corpus [--seed N] FILE...`. Exits 1 if any repair was wrong (each is
//! printed), 2 on a usage or read error.

use planilla_parser::{Game, Reader};
use planilla_testkit::{RepairTally, Seeded, repair_trial};
use planilla_validator::{Checker, Config, Edit};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut seed = 21;
    if let Some(at) = args.iter().position(|a| a == "--seed") {
        let Some(value) = args.get(at + 1).and_then(|v| v.parse().ok()) else {
            eprintln!("repair-corpus: --seed needs a number");
            std::process::exit(2);
        };
        seed = value;
        args.drain(at..at + 2);
    }
    if args.is_empty() {
        eprintln!("usage: repair-corpus [--seed N] FILE...");
        std::process::exit(2);
    }
    let mut rng = Seeded::new(seed);
    let mut checker = Checker::new(Config::default());
    let mut tally = RepairTally::default();
    let mut turn = 0usize;
    for path in &args {
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) => {
                eprintln!("repair-corpus: {path}: {e}");
                std::process::exit(2);
            }
        };
        let mut reader = Reader::new(file);
        let mut game = Game::new();
        loop {
            match reader.read_game(&mut game) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    eprintln!("repair-corpus: {path}: {e}");
                    std::process::exit(2);
                }
            }
            let edit = Edit::ALL[turn % Edit::ALL.len()];
            turn += 1;
            let wrong = tally.wrong.len();
            repair_trial(&mut checker, &game, edit, &mut rng, &mut tally);
            for message in &tally.wrong[wrong..] {
                println!("WRONG {path}: {message}");
            }
        }
    }
    print!("{}", tally.report());
    std::process::exit(i32::from(!tally.wrong.is_empty()));
}
