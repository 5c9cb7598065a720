//! The repair search on whole games, as a table: each game's first bad move, and what
//! the search must conclude about it.

use super::*;
use crate::{Checker, Config};
use planilla_parser::{Encoding, Game};

/// What a case expects: the ply searched and the verdict (a unique move with its edit,
/// the moves of an ambiguous verdict, or none).
enum Expect {
    Unique(u32, Edit, &'static str),
    Ambiguous(u32, &'static [&'static str]),
    Nothing(u32),
    NoSearch,
}

/// The search's verdict on `pgn`, checked in `lang` (or the language its letters decide).
fn verdict(pgn: &str, lang: Option<Lang>) -> Option<Repair> {
    let game = Game::from_bytes(pgn, Encoding::Auto);
    let mut checker = Checker::new(Config {
        lang,
        ..Config::default()
    });
    let (mut out, mut played) = (Vec::new(), Vec::new());
    checker.check_repairing(&game, &mut out, &mut played).1
}

#[test]
fn the_search_finds_the_move_meant_or_says_why_not() {
    use Expect::*;
    let cases: &[(&str, Option<Lang>, Expect)] = &[
        // One character replaced: a piece letter (N for B), a file, a rank.
        (
            "1. e4 e5 2. Nf3 Nc6 3. Nb5 a6 4. Ba4 Nf6 *",
            None,
            Unique(5, Edit::Replaced, "Bb5"),
        ),
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba5 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 *",
            None,
            Unique(7, Edit::Replaced, "Ba4"),
        ),
        (
            "1. d4 d5 2. c4 e6 3. Nc8 Nf6 4. Bg5 *",
            None,
            Unique(5, Edit::Replaced, "Nc3"),
        ),
        // Deleted: a piece letter inserted by mistake is removed; inserted: a missing one
        // put back.
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bd4 exd4 4. Nxd4 *",
            None,
            Unique(5, Edit::Deleted, "d4"),
        ),
        (
            "1. e4 e5 2. Nf3 Nc6 3. b5 a6 4. Ba4 *",
            None,
            Unique(5, Edit::Inserted, "Bb5"),
        ),
        // Swapped neighbours.
        (
            "1. d4 d5 2. Nf3 Nf6 3. Ndb2 e6 4. e3 *",
            None,
            Unique(5, Edit::Swapped, "Nbd2"),
        ),
        // A Spanish letter in an English game.
        (
            "1. e4 e5 2. Nf3 Nc6 3. Ab5 a6 4. Ba4 Nf6 *",
            Some(Lang::En),
            Unique(5, Edit::OtherLanguage, "Bb5"),
        ),
        // An English letter in a Spanish game.
        (
            "1. e4 e5 2. Cf3 Cc6 3. Bb5 a6 4. Aa4 Cf6 *",
            Some(Lang::Es),
            Unique(5, Edit::OtherLanguage, "Ab5"),
        ),
        // A capture mark too many. (One missing or on a move that captures nothing is a
        // `capture-mark` note, not an error: such moves resolve as written.)
        (
            "1. e4 e5 2. Nxxf3 Nc6 3. Bb5 *",
            None,
            Unique(3, Edit::CaptureRemoved, "Nf3"),
        ),
        // Ambiguous as written: the rest of the game tells which knight moved (the one
        // that goes back to f3).
        (
            "1. d4 d5 2. Nf3 Nf6 3. Nd2 e6 4. Nf3 c5 5. e3 Nc6 6. Bd3 *",
            None,
            Unique(5, Edit::Inserted, "Nfd2"),
        ),
        // The last move: every legal reading replays, so none is chosen.
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bb6 *",
            None,
            Ambiguous(5, &["Ba6", "Bb5"]),
        ),
        // The result rules a reading out where the position decides: Qh4 would mate,
        // which a draw denies. A result the position does not decide rules nothing out
        // (the written mate mark is no proof: scoresheets get marks wrong).
        (
            "1. f3 e5 2. g4 Qg4 1/2-1/2",
            None,
            Unique(4, Edit::Replaced, "Qg5"),
        ),
        (
            "1. f3 e5 2. g4 Qg4 0-1",
            None,
            Ambiguous(4, &["Qg5", "Qh4#"]),
        ),
        (
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf8# 1-0",
            None,
            Ambiguous(7, &["Qf3", "Qf5", "Qxf7#"]),
        ),
        // No reading within one edit replays: a second error follows the first.
        (
            "1. e4 e5 2. Nf3 Nc6 3. Nb5 a6 4. Ke7 Nf6 *",
            None,
            Nothing(5),
        ),
        // No reading within one edit is a legal move at all.
        ("1. e4 e5 2. Qa8 Nc6 *", None, Nothing(3)),
        // A slip that leaves no move shape (`B4a` is a syntax error): the next move then
        // fails, played by the wrong side, and the slip is read back.
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. B4a Nf6 5. O-O Be7 *",
            None,
            Unique(7, Edit::Swapped, "Ba4"),
        ),
        // Such text earlier, with moves played after it on the wrong side (`Nd4` is legal
        // for White too) until one fails: the text is read back, every later move on its
        // side again.
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. B4a Nd4 5. Nxd4 exd4 6. Kf1 *",
            None,
            Unique(7, Edit::Swapped, "Ba4"),
        ),
        // Two such texts: which one was a move cannot be told, nothing is searched.
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 <br> 4. B4a Nf6 5. O-O *",
            None,
            Nothing(7),
        ),
        // A clean game, and a bad move only in a variation: no search.
        ("1. e4 e5 2. Nf3 *", None, NoSearch),
        ("1. e4 e5 (1... Nb5 2. d4) 2. Nf3 *", None, NoSearch),
    ];
    for (pgn, lang, expect) in cases {
        let repair = verdict(pgn, *lang);
        match (expect, &repair) {
            (NoSearch, None) => {}
            (Unique(ply, edit, san), Some(r)) => {
                let found = r.unique().map(|c| (c.edit, c.san.to_string_in(r.lang)));
                assert_eq!(
                    (r.ply, found),
                    (*ply, Some((*edit, san.to_string()))),
                    "{pgn}: {r:?}"
                );
            }
            (Ambiguous(ply, sans), Some(r)) => {
                let RepairOutcome::Ambiguous(candidates) = &r.outcome else {
                    panic!("{pgn}: {r:?}");
                };
                let mut found: Vec<String> = candidates
                    .iter()
                    .map(|c| c.san.to_string_in(r.lang))
                    .collect();
                found.sort();
                assert_eq!(
                    (r.ply, found),
                    (*ply, sans.iter().map(|s| s.to_string()).collect())
                );
            }
            (Nothing(ply), Some(r)) => {
                assert_eq!((r.ply, &r.outcome), (*ply, &RepairOutcome::None), "{pgn}");
            }
            _ => panic!("{pgn}: {repair:?}"),
        }
    }
}

/// Some of the readings of one written move, with their edits.
type Readings = &'static [(Edit, &'static str)];

/// Every edit kind gives its readings, none of them the written text, in a number that
/// stays near the alphabet's size times the length.
#[test]
fn readings_are_every_text_one_edit_away() {
    let cases: &[(&str, Lang, Readings)] = &[
        (
            "Cxf3",
            Lang::En,
            &[
                (Edit::CaptureRemoved, "Cf3"),
                (Edit::OtherLanguage, "Nxf3"),
                (Edit::Deleted, "xf3"),
                (Edit::Swapped, "xCf3"),
                (Edit::Replaced, "Cxf4"),
                (Edit::Inserted, "Cxf3="),
            ],
        ),
        ("Nf3", Lang::En, &[(Edit::CaptureAdded, "Nxf3")]),
        // Equal neighbours: deleting either, or inserting beside either, reads the same.
        (
            "Rxxe1",
            Lang::En,
            &[(Edit::CaptureRemoved, "Rxe1"), (Edit::Inserted, "Rxxee1")],
        ),
        ("Raa1", Lang::En, &[(Edit::Deleted, "Ra1")]),
        (
            "Bb5",
            Lang::Es,
            &[
                (Edit::OtherLanguage, "Ab5"),
                (Edit::Replaced, "Cb5"),
                (Edit::Inserted, "Bbd5"),
            ],
        ),
        (
            "Kd2",
            Lang::De,
            &[(Edit::Replaced, "Sd2"), (Edit::Inserted, "Kd2=")],
        ),
        ("♘f3", Lang::Figurine, &[(Edit::Replaced, "♗f3")]),
        ("Sf3", Lang::Figurine, &[(Edit::OtherLanguage, "♘f3")]),
    ];
    for (written, lang, expected) in cases {
        let mut found = Vec::new();
        readings(written, *lang, |edit, text| {
            found.push((edit, text.to_string()))
        });
        for (edit, text) in *expected {
            assert!(
                found.iter().any(|(e, t)| e == edit && t == text),
                "{written} in {lang}: no {edit} reading {text}"
            );
        }
        assert!(found.iter().all(|(_, t)| t != written), "{written}");
        let mut texts: Vec<&String> = found.iter().map(|(_, t)| t).collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), found.len(), "{written}: a reading comes twice");
        let n = written.chars().count();
        assert!(
            found.len() <= (2 * n + 1) * 32,
            "{written}: {}",
            found.len()
        );
    }
}
