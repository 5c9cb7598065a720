//! The judge on small tournaments written to the TRF's columns.

use super::*;
use planilla_parser::trf;

/// A `001` line to the published columns: rank, name, FIDE number, and each round as
/// (opponent, colour, result).
fn player(rank: u32, name: &str, fide: Option<u64>, rounds: &[(u32, char, char)]) -> String {
    let mut line = format!(
        "001 {rank:>4}    {:<1} {name:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
        "",
        "",
        "",
        fide.map(|f| f.to_string()).unwrap_or_default(),
        "",
        "",
        ""
    );
    for &(o, c, r) in rounds {
        line.push_str(&format!("  {o:>4} {c} {r}"));
    }
    line
}

/// Four players, three rounds: a draw and a win in round 1, a forfeit (colour `-`)
/// and a game under one move (`W`/`L`) in round 2, a half-point bye and a withdrawal
/// in round 3.
fn tournament() -> TrfCheck {
    let lines = [
        "012 Test Open".to_string(),
        player(
            1,
            "Carlsen, Magnus",
            Some(1503014),
            &[(2, 'w', '='), (3, '-', '+'), (0, '-', 'H')],
        ),
        player(
            2,
            "Caruana, Fabiano",
            Some(2020009),
            &[(1, 'b', '='), (4, 'b', 'L'), (3, 'w', '1')],
        ),
        player(
            3,
            "Nakamura,Hikaru",
            None,
            &[(4, 'w', '1'), (1, '-', '-'), (2, 'b', '0')],
        ),
        player(4, "So Wesley", None, &[(3, 'b', '0'), (2, 'w', 'W')]),
    ];
    let read = trf::read(lines.join("\r\n").as_bytes());
    assert_eq!(read.errors, []);
    let check = TrfCheck::new("t.trf", &read);
    assert_eq!(check.file_findings(), []);
    check
}

fn game(tags: &[(&str, &str)], moves: &str) -> Game {
    let mut pgn = String::new();
    for (name, value) in tags {
        pgn.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    pgn.push('\n');
    pgn.push_str(moves);
    Game::from_bytes(pgn, Default::default())
}

fn codes(j: &Judged) -> Vec<Code> {
    j.findings.iter().map(|f| f.code).collect()
}

#[test]
fn a_game_as_the_trf_has_it_is_no_finding() {
    let check = tournament();
    let g = game(
        &[
            ("Round", "1.1"),
            ("White", "Magnus Carlsen"),
            ("Black", "Caruana, Fabiano"),
            ("Result", "1/2-1/2"),
        ],
        "1. e4 e5 1/2-1/2",
    );
    let j = check.judge(&g);
    assert_eq!(codes(&j), []);
    assert_eq!(j.pairings.len(), 1);
}

#[test]
fn a_wrong_result_is_located_at_the_result_tag() {
    let check = tournament();
    let g = game(
        &[
            ("Round", "1"),
            ("White", "Nakamura, Hikaru"),
            ("Black", "So, Wesley"),
            ("Result", "1/2-1/2"),
        ],
        "1. e4 e5 1/2-1/2",
    );
    let j = check.judge(&g);
    assert_eq!(codes(&j), [Code::TrfResult]);
    assert_eq!(
        j.findings[0].message,
        "Round 1: Nakamura, Hikaru - So, Wesley is 1/2-1/2 in the PGN, 1-0 in the TRF"
    );
    assert_eq!((j.findings[0].line, j.findings[0].column), (4, 1));
    assert_eq!(j.trf_result, Some("1-0"));
}

#[test]
fn swapped_colours_wrong_round_and_strangers() {
    let check = tournament();
    let swapped = game(
        &[
            ("Round", "3"),
            ("White", "Nakamura, Hikaru"),
            ("Black", "Caruana, Fabiano"),
            ("Result", "0-1"),
        ],
        "1. d4 d5 0-1",
    );
    let j = check.judge(&swapped);
    assert_eq!(codes(&j), [Code::TrfColours]);
    assert_eq!(j.trf_result, None);
    let moved = game(
        &[
            ("Round", "2"),
            ("White", "Nakamura, Hikaru"),
            ("Black", "So, Wesley"),
            ("Result", "1-0"),
        ],
        "1. d4 d5 1-0",
    );
    let j = check.judge(&moved);
    assert_eq!(codes(&j), [Code::TrfRound]);
    assert!(
        j.findings[0]
            .message
            .ends_with("pairs these players in round 1, not in round 2")
    );
    let stranger = game(
        &[
            ("Round", "1"),
            ("White", "Nakamura, Hikaru"),
            ("Black", "Firouzja, Alireza"),
            ("Result", "1-0"),
        ],
        "1. d4 d5 1-0",
    );
    let j = check.judge(&stranger);
    assert_eq!(codes(&j), [Code::TrfUnknownGame]);
    assert!(
        j.findings[0]
            .message
            .ends_with("'Firouzja, Alireza' is not a player of the TRF")
    );
    assert_eq!(j.pairings, []);
}

#[test]
fn fide_ids_decide_when_both_have_them() {
    let check = tournament();
    // A wrong id excludes the name that would match.
    let g = game(
        &[
            ("Round", "1"),
            ("White", "Carlsen, Magnus"),
            ("WhiteFideId", "99"),
            ("Black", "Caruana, Fabiano"),
            ("Result", "1/2-1/2"),
        ],
        "1. e4 1/2-1/2",
    );
    assert_eq!(codes(&check.judge(&g)), [Code::TrfUnknownGame]);
    // The id finds the player whatever the name.
    let g = game(
        &[
            ("Round", "1"),
            ("White", "Mags"),
            ("WhiteFideId", "1503014"),
            ("Black", "Caruana, Fabiano"),
            ("Result", "1/2-1/2"),
        ],
        "1. e4 1/2-1/2",
    );
    assert_eq!(codes(&check.judge(&g)), []);
}

#[test]
fn forfeits_and_games_under_one_move_with_moves() {
    let check = tournament();
    // The forfeit has no colours: either order is its game; moves make it unplayed.
    let g = game(
        &[
            ("Round", "2"),
            ("White", "Nakamura, Hikaru"),
            ("Black", "Carlsen, Magnus"),
            ("Result", "0-1"),
        ],
        "1. e4 e5 0-1",
    );
    let j = check.judge(&g);
    assert_eq!(codes(&j), [Code::TrfUnplayed]);
    assert_eq!((j.findings[0].line, j.findings[0].column), (6, 4));
    // Without moves it is the forfeit as the TRF has it.
    let g = game(
        &[
            ("Round", "2"),
            ("White", "Carlsen, Magnus"),
            ("Black", "Nakamura, Hikaru"),
            ("Result", "1-0"),
        ],
        "1-0",
    );
    assert_eq!(codes(&check.judge(&g)), []);
    // One ply is less than one move; two are not.
    let tags = [
        ("Round", "2"),
        ("White", "So, Wesley"),
        ("Black", "Caruana, Fabiano"),
        ("Result", "1-0"),
    ];
    assert_eq!(codes(&check.judge(&game(&tags, "1. e4 1-0"))), []);
    let j = check.judge(&game(&tags, "1. e4 e5 1-0"));
    assert_eq!(codes(&j), [Code::TrfUnplayed], "{:?}", j.findings);
}

#[test]
fn missing_games_one_note_a_round() {
    let check = tournament();
    let mut marked = vec![false; check.pairings()];
    let g = game(
        &[
            ("Round", "1"),
            ("White", "Carlsen, Magnus"),
            ("Black", "Caruana, Fabiano"),
            ("Result", "1/2-1/2"),
        ],
        "1. e4 1/2-1/2",
    );
    for id in check.judge(&g).pairings {
        marked[id as usize] = true;
    }
    let missing = check.missing(&marked);
    let messages: Vec<(u64, u64, &str)> = missing
        .iter()
        .map(|f| (f.line, f.column, f.message.as_str()))
        .collect();
    // Round 2's games are a forfeit and a game under one move: none is missing.
    assert_eq!(
        messages,
        [
            (
                4,
                92,
                "Round 1: 1 game played has no game in the PGN: Nakamura,Hikaru - So Wesley (1-0)"
            ),
            (
                3,
                112,
                "Round 3: 1 game played has no game in the PGN: Caruana, Fabiano - Nakamura,Hikaru (1-0)"
            ),
        ]
    );
}

#[test]
fn fields_that_disagree_are_file_faults() {
    let lines = [
        player(1, "A", None, &[(2, 'w', '1'), (3, 'w', '1')]),
        player(2, "B", None, &[(1, 'w', '0'), (9, 'b', '0')]),
        player(3, "C", None, &[(0, '-', 'Z'), (1, 'b', '1')]),
    ];
    let check = TrfCheck::new("t.trf", &trf::read(lines.join("\n").as_bytes()));
    let faults: Vec<(u64, u64)> = check
        .file_findings()
        .iter()
        .map(|f| (f.line, f.column))
        .collect();
    // Round 1: 2 has White too; round 2: 2 names 9, 3 answers 1's win with a win.
    assert_eq!(faults, [(2, 97), (2, 102), (3, 109)]);
}

#[test]
fn a_field_cut_short_keeps_the_other_sides_pairing() {
    let lines = [
        player(1, "A", None, &[(2, 'w', '1'), (3, 'b', '=')]),
        player(2, "B", None, &[]),
        player(3, "C", None, &[(0, '-', 'H'), (1, 'w', '=')]),
    ];
    let check = TrfCheck::new("t.trf", &trf::read(lines.join("\n").as_bytes()));
    let faults: Vec<(u64, u64, String)> = check
        .file_findings()
        .into_iter()
        .map(|f| (f.line, f.column, f.message))
        .collect();
    assert_eq!(
        faults,
        [(
            2,
            92,
            "player 2, round 1: no opponent, but player 1 (line 1) has 2 as opponent".to_string()
        )]
    );
    let g = game(
        &[
            ("Round", "1"),
            ("White", "A"),
            ("Black", "B"),
            ("Result", "1-0"),
        ],
        "1. e4 e5 1-0",
    );
    assert_eq!(codes(&check.judge(&g)), []);
}

#[test]
fn a_forfeits_result_is_compared_player_by_player() {
    // A forfeit with colours: 1 had White and won by forfeit.
    let lines = [
        player(1, "A", None, &[(2, 'w', '+')]),
        player(2, "B", None, &[(1, 'b', '-')]),
    ];
    let check = TrfCheck::new("t.trf", &trf::read(lines.join("\n").as_bytes()));
    let judged = |white: &str, black: &str, result: &str| {
        let g = game(
            &[
                ("Round", "1"),
                ("White", white),
                ("Black", black),
                ("Result", result),
            ],
            result,
        );
        codes(&check.judge(&g))
    };
    assert_eq!(judged("A", "B", "1-0"), []);
    // The colours of a game never played are no fault; its winner is.
    assert_eq!(judged("B", "A", "0-1"), []);
    assert_eq!(judged("B", "A", "1-0"), [Code::TrfResult]);
    assert_eq!(judged("A", "B", "0-1"), [Code::TrfResult]);
}

#[test]
fn a_file_without_players_says_so() {
    let check = TrfCheck::new("t.trf", &trf::read(b"[Event \"x\"]\n\n1. e4 e5 *\n"));
    let faults = check.file_findings();
    assert_eq!(faults.len(), 1);
    assert_eq!((faults[0].line, faults[0].column), (1, 1));
    assert!(faults[0].message.starts_with("no player record"));
}
