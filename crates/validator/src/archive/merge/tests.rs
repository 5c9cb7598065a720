//! The merge plan on runs of games judged by the archive, and the information score.

use super::{Action, MergeConfig, MergePlan, Merits, information};
use crate::Code::{ConflictingCopies, DuplicateGame, TruncatedCopy};
use crate::archive::ArchiveFinding;
use crate::archive::tests::judge_file;
use crate::finding::Finding;
use planilla_parser::Game;

/// Tags of a game of the "T" open, round 1: White and Black, and any more tag lines.
fn tags(white: &str, black: &str, more: &str) -> String {
    format!("[Event \"T\"]\n[Round \"1\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n{more}\n")
}

/// The moves of a Ruy Lopez, cut after `plies` plies.
fn lopez(plies: usize) -> String {
    const MOVES: [&str; 20] = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
    ];
    let mut text = String::new();
    for (i, san) in MOVES[..plies].iter().enumerate() {
        if i % 2 == 0 {
            text += &format!("{}. ", i / 2 + 1);
        }
        text += san;
        text += " ";
    }
    text + "*\n\n"
}

/// The plan of a run of `games` (one file), with the run's games in order.
fn planned(games: &[String], config: MergeConfig) -> MergePlan {
    let mut merits = Merits::new();
    let found = judge_file(&games.concat(), |game, line| {
        merits.push(information(game), line.len());
    });
    assert_eq!(merits.len(), games.len());
    MergePlan::new(&found, &merits, &config)
}

/// Plans `games` with conflicts kept (the default) and checks the actions, then checks
/// that a plan over the kept games keeps them all.
fn check(games: &[String], want: &[(u32, Action)]) {
    let plan = planned(games, MergeConfig::default());
    assert_eq!(plan.changes(), want);
    let (kept, dropped, set_apart) = plan.counts();
    assert_eq!(kept + dropped + set_apart, games.len() as u64);
    let kept: Vec<String> = (0..games.len() as u32)
        .filter(|&g| plan.action(g) == Action::Keep)
        .map(|g| games[g as usize].clone())
        .collect();
    assert_eq!(planned(&kept, MergeConfig::default()).changes(), &[]);
}

/// Dropped as a duplicate of `kept`.
fn dup(kept: u32) -> Action {
    Action::Drop {
        kept,
        code: DuplicateGame,
        ply: None,
    }
}

/// Dropped as the start of `kept`, stopping at `ply`.
fn cut(kept: u32, ply: u32) -> Action {
    Action::Drop {
        kept,
        code: TruncatedCopy,
        ply: Some(ply),
    }
}

/// Dropped for a conflict with `kept`, parting at `ply`.
fn parted(kept: u32, ply: u32) -> Action {
    Action::Drop {
        kept,
        code: ConflictingCopies,
        ply: Some(ply),
    }
}

/// Tables of runs (one file) and the changes of their plans, conflicts kept; each
/// case checks too that a plan over its kept games keeps them all.
macro_rules! plans {
    ($($name:ident: [$($game:expr),* $(,)?] => [$($change:expr),* $(,)?];)*) => {$(
        #[test]
        fn $name() {
            check(&[$($game),*], &[$($change),*]);
        }
    )*};
}

const RICH: &str = "[Site \"X\"]\n[Date \"2024.01.01\"]\n";

plans! {
    the_richer_duplicate_is_kept_even_when_later: [
        tags("A", "B", "") + &lopez(20),
        tags("A", "B", "[Site \"X\"]\n[WhiteFideId \"1\"]\n") + &lopez(20),
        tags("A", "B", "[Site \"?\"]\n") + &lopez(20),
    ] => [(0, dup(1)), (2, dup(1))];
    equally_rich_duplicates_keep_the_first: [
        tags("A", "B", "[Site \"X\"]\n") + &lopez(20),
        tags("A", "B", "[Site \"Y\"]\n") + &lopez(20),
    ] => [(1, dup(0))];
    a_relay_cut_short_gives_way_to_its_longest_copy: [
        tags("A", "B", "") + &lopez(4),
        tags("A", "B", "") + &lopez(12),
        tags("A", "B", "") + &lopez(20),
        tags("A", "B", "") + &lopez(7),
    ] => [(0, cut(2, 4)), (1, cut(2, 12)), (3, cut(2, 7))];
    // Game 5 is another pairing with game 3's line: its duplicate, so the start of 4.
    chains_of_duplicates_and_truncations_keep_the_richest_longest_copy: [
        tags("A", "B", RICH) + &lopez(6),
        tags("A", "B", "") + &lopez(6),
        tags("A", "B", "") + &lopez(20),
        tags("A", "B", "") + &lopez(14),
        tags("A", "B", "[Site \"X\"]\n") + &lopez(20),
        tags("C", "D", "") + &lopez(14),
    ] => [(0, cut(4, 6)), (1, cut(4, 6)), (2, dup(4)), (3, cut(4, 14)), (5, cut(4, 14))];
    games_without_copies_are_kept: [
        tags("A", "B", "") + &lopez(20),
        tags("C", "D", "") + "1. d4 d5 *\n\n",
        tags("E", "F", "") + "1. c4 *\n\n",
    ] => [];
    conflicting_copies_keep_the_first_unless_set_apart: [
        tags("A", "B", "") + &lopez(20),
        tags("A", "B", "") + &lopez(20).replace("Be7", "Bc5"),
        tags("A", "B", "[Site \"X\"]\n") + &lopez(20).replace("Be7", "Bc5"),
    ] => [(1, parted(0, 10)), (2, parted(0, 10))];
    a_truncated_copy_of_conflicting_copies_is_dropped_for_the_first: [
        tags("A", "B", "") + &lopez(20),
        tags("A", "B", "") + &lopez(8),
        tags("A", "B", "") + &lopez(20).replace("Be7", "Bc5"),
    ] => [(1, cut(0, 8)), (2, parted(0, 10))];
}

/// The plan of a run with conflicts set apart.
fn set_apart(games: &[String]) -> MergePlan {
    let config = MergeConfig {
        set_apart_conflicts: true,
    };
    planned(games, config)
}

/// Two transcriptions of one game that part at ply 10 (`Bc5` for `Be7`), and a
/// duplicate of the second.
#[test]
fn conflicting_copies_are_set_apart_with_their_ply() {
    let other = lopez(20).replace("Be7", "Bc5");
    let games = [
        tags("A", "B", "") + &lopez(20),
        tags("A", "B", "") + &other,
        tags("A", "B", "[Site \"X\"]\n") + &other,
    ];
    let apart = Action::SetApart { group: 0, ply: 10 };
    let want = [(0, apart), (1, apart), (2, apart)];
    assert_eq!(set_apart(&games).changes(), want);
}

/// The information of one game's text.
fn info(text: &str) -> u32 {
    information(&Game::from_bytes(text, Default::default()))
}

#[test]
fn information_counts_known_tags_comments_variations_and_commands() {
    let unknown =
        "[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n[Result \"*\"]\n[ECO \"\"]\n";
    assert_eq!(info(&format!("{unknown}\n1. e4 *")), 0);
    assert_eq!(
        info("[Site \"X\"]\n[Date \"2024.??.??\"]\n\n1. e4 *"),
        2 << 24
    );
    // A tag written twice counts once.
    assert_eq!(info("[Site \"X\"]\n[Site \"X\"]\n\n1. e4 *"), 1 << 24);
    assert_eq!(info("1. e4 { good } e5 ; fine\n *"), 2 << 16);
    assert_eq!(info("1. e4 (1. d4 (1. c4)) e5 *"), 2 << 8);
    assert_eq!(
        info("1. e4 { [%clk 0:03:00] } e5 { [%eval 0.2] [%emt 0:00:02] } *"),
        3
    );
    // A comment with words beside its commands is a comment too; other commands count
    // for nothing.
    assert_eq!(
        info("1. e4 { [%clk 0:03:00] best [%csl Ge4] } *"),
        1 << 16 | 1
    );
}

#[test]
fn information_weighs_tags_before_everything_else() {
    let annotated = format!(
        "1. e4 {} *",
        "{ a } (1. d4) { [%clk 0:01:00] } ".repeat(300)
    );
    assert_eq!(info(&annotated), 255 << 16 | 255 << 8 | 255);
    assert!(info("[Site \"X\"]\n\n1. e4 *") > info(&annotated));
}

/// A copy cut short before two transcriptions part is set apart with them.
#[test]
fn a_truncated_copy_of_conflicting_copies_goes_with_them() {
    let games = [
        tags("A", "B", "") + &lopez(20),
        tags("A", "B", "") + &lopez(8),
        tags("A", "B", "") + &lopez(20).replace("Be7", "Bc5"),
    ];
    let apart = Action::SetApart { group: 0, ply: 10 };
    let want = [(0, apart), (1, apart), (2, apart)];
    assert_eq!(set_apart(&games).changes(), want);
}

/// A finding of `code` about run-wide game `game`, naming `other`.
fn finding(game: u32, other: u32, code: crate::Code) -> ArchiveFinding {
    ArchiveFinding {
        file: "t.pgn".to_string(),
        finding: Finding {
            code,
            game: u64::from(game) + 1,
            ply: None,
            line: 1,
            column: 1,
            numbered_move: None,
            san: None,
            message: String::new(),
            fen: None,
            variation: Vec::new(),
        },
        caller_key: 0,
        game_in_run: game,
        other_in_run: other,
    }
}

#[test]
fn findings_that_loop_end() {
    let mut merits = Merits::new();
    for _ in 0..3 {
        merits.push(0, 20);
    }
    let found = [
        finding(0, 1, DuplicateGame),
        finding(1, 2, DuplicateGame),
        finding(2, 0, DuplicateGame),
    ];
    let plan = MergePlan::new(&found, &merits, &MergeConfig::default());
    let (kept, dropped, set_apart) = plan.counts();
    assert_eq!((kept + dropped, set_apart), (3, 0));
}
