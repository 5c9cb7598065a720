//! The repair property in `cargo test`, bounded: every clean game of the project's own
//! corpora and 350 random games (English, Spanish, German, French and figurines) get one
//! main-line move damaged by one character so that it no longer plays; the repair search
//! must give each back or give no repair, never another move. The full-size run over the
//! shared real files is `repair-corpus` (docs/testing.md).

use planilla_core::san::Lang;
use planilla_parser::{Game, Reader};
use planilla_testkit::{RepairTally, Seeded, random_game, repair_trial};
use planilla_validator::{Checker, Config, Edit};
use std::path::Path;

#[test]
fn a_damaged_move_is_given_back_or_left_never_repaired_into_another() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut games = Vec::new();
    for dir in ["corpora/check", "corpora/convert", "corpora/parser"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("the project's corpora")
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
            .collect();
        paths.sort();
        for path in paths {
            let mut reader = Reader::new(std::fs::File::open(&path).expect("a corpus file"));
            let mut game = Game::new();
            while reader.read_game(&mut game).expect("the file reads") {
                games.push(game.clone());
            }
        }
    }
    let mut rng = Seeded::new(21);
    let langs = [Lang::En, Lang::Es, Lang::De, Lang::Fr, Lang::Figurine];
    for i in 0..350 {
        let text = random_game(&mut rng, 40 + i % 80, langs[i % langs.len()]);
        games.push(Game::from_bytes(text, Default::default()));
    }

    let mut checker = Checker::new(Config::default());
    let mut tally = RepairTally::default();
    for (i, game) in games.iter().enumerate() {
        let edit = Edit::ALL[i % Edit::ALL.len()];
        repair_trial(&mut checker, game, edit, &mut rng, &mut tally);
    }
    println!("{}", tally.report());
    assert_eq!(tally.wrong, Vec::<String>::new());
    // The run damaged enough moves of each kind that can break one to mean something
    // (a capture mark removed leaves a move that resolves), and gave most of them back.
    let total = tally.total();
    assert!(total.tried >= 250, "{}", tally.report());
    assert!(
        total.recovered * 10 >= total.tried * 7,
        "{}",
        tally.report()
    );
    for (edit, counts) in Edit::ALL.iter().zip(&tally.by_edit) {
        if *edit != Edit::CaptureRemoved {
            assert!(counts.tried >= 20, "{edit}: {}", tally.report());
        }
    }
}
