//! Tables of cases for the judge, run without the binary: each case a run of games in
//! one file and the findings it must give (game, code, ply), in the judge's order.

use super::detail::Detail;
use super::facts::{Facts, normalise};
use super::names;
use super::record::move_code;
use super::{Archive, ArchiveFinding, GameRecord};
use crate::{Checker, Code};
use planilla_core::Move;
use planilla_parser::{Game, Reader};

/// Tags of a game of the "T" open: round, board, White and Black.
fn tags(round: &str, board: &str, white: &str, black: &str) -> String {
    format!(
        "[Event \"T\"]\n[Round \"{round}\"]\n[Board \"{board}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\n"
    )
}

/// The archive findings of `pgn` (one file, `t.pgn`), its games pushed in input order;
/// `each` sees every game and its replayed main line as it is pushed.
pub(super) fn judge_file(pgn: &str, mut each: impl FnMut(&Game, &[Move])) -> Vec<ArchiveFinding> {
    let mut reader = Reader::new(pgn.as_bytes());
    let mut game = Game::new();
    let mut checker = Checker::default();
    let mut archive = Archive::new();
    let (mut findings, mut main_line) = (Vec::new(), Vec::new());
    while reader.read_game(&mut game).expect("read from memory") {
        checker.check_main_line(&game, &mut findings, &mut main_line);
        each(&game, &main_line);
        archive
            .push("t.pgn", &GameRecord::new(&game, &main_line))
            .expect("a temporary file");
    }
    archive.finish().expect("read back")
}

/// The archive findings of `pgn` (one file), as (game, code, ply), pushed in input order.
fn judged(pgn: &str) -> Vec<(u64, Code, Option<u32>)> {
    judge_file(pgn, |_, _| {})
        .into_iter()
        .map(|f| (f.finding.game, f.finding.code, f.finding.ply))
        .collect()
}

macro_rules! cases {
    ($($name:ident: [$($game:expr),* $(,)?] => [$($found:expr),* $(,)?];)*) => {$(
        #[test]
        fn $name() {
            let pgn: String = [$($game),*].concat();
            let want: Vec<(u64, Code, Option<u32>)> = vec![$($found),*];
            assert_eq!(judged(&pgn), want);
        }
    )*};
}

use Code::{ConflictingCopies, DuplicateGame, PlayerIdentity, RoundConflict, TruncatedCopy};

cases! {
    exact_copy_with_other_tags: [
        tags("1", "1", "A, B", "C, D") + "1. e4 e5 2. Nf3 Nc6 *\n\n",
        tags("1", "1", "a b", "C,D") + "[Site \"X\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n",
    ] => [(2, DuplicateGame, None)];
    same_moves_in_another_language: [
        tags("1", "1", "A", "B") + "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 *\n\n",
        tags("2", "1", "X", "Y") + "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Aa4 Cf6 5. O-O Ae7 6. Te1 b5 *\n\n",
    ] => [(2, DuplicateGame, None)];
    a_short_line_of_other_players_is_no_copy: [
        tags("1", "1", "A", "B") + "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 1-0\n\n",
        tags("1", "2", "C", "D") + "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 1-0\n\n",
    ] => [];
    the_same_opening_is_no_copy: [
        tags("1", "1", "A", "B") + "1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n",
        tags("1", "2", "C", "D") + "1. e4 e5 2. Nf3 *\n\n",
    ] => [];
    truncated_first_or_last: [
        tags("1", "1", "A", "B") + "1. d4 d5 2. c4 *\n\n",
        tags("1", "1", "A", "B") + "1. d4 d5 2. c4 e6 3. Nc3 Nf6 *\n\n",
        tags("1", "1", "A", "B") + "1. d4 d5 2. c4 e6 3. Nc3 *\n\n",
    ] => [(1, TruncatedCopy, None), (3, TruncatedCopy, None)];
    truncated_short_copies_within_their_round: [
        tags("1", "1", "A", "B") + "1. d4 *\n\n",
        tags("1", "1", "A", "B") + "*\n\n",
        tags("1", "1", "A", "B") + "1. d4 d5 2. c4 e6 3. Nc3 Nf6 *\n\n",
    ] => [(1, TruncatedCopy, None), (2, TruncatedCopy, None)];
    short_truncated_copies_anywhere: [
        tags("?", "", "A", "B") + "1. d4 d5 2. c4 e6 3. Nc3 Nf6 *\n\n",
        String::from("[Event \"U\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. d4 d5 *\n\n"),
    ] => [(2, TruncatedCopy, None)];
    a_match_is_no_copy: [
        tags("1", "1", "A", "B") + "1. d4 d5 2. c4 e6 3. Nc3 Nf6 *\n\n",
        tags("3", "1", "A", "B") + "1. d4 d5 2. c4 e6 *\n\n",
        tags("5", "1", "A", "B") + "1. e4 c5 *\n\n",
    ] => [];
    conflicting_from_ply_three: [
        tags("1", "1", "A", "B") + "1. e4 e5 2. Nf3 Nc6 *\n\n",
        tags("1", "1", "A", "B") + "1. e4 e5 2. Nc3 Nf6 *\n\n",
    ] => [(2, ConflictingCopies, Some(3))];
    unknown_round_never_conflicts: [
        tags("?", "1", "A", "B") + "1. e4 e5 *\n\n",
        tags("?", "1", "A", "B") + "1. d4 d5 *\n\n",
        tags("-", "2", "A", "C") + "1. c4 c5 *\n\n",
        tags("-", "2", "A", "D") + "1. b3 b6 *\n\n",
    ] => [];
    a_player_twice_in_a_round: [
        tags("2", "1", "A", "B") + "1. e4 e5 *\n\n",
        tags("2", "2", "C", "a.") + "1. d4 d5 *\n\n",
    ] => [(2, RoundConflict, None)];
    two_games_on_one_board: [
        tags("2", "1", "A", "B") + "1. e4 e5 *\n\n",
        tags("2", "1", "C", "D") + "1. d4 d5 *\n\n",
    ] => [(2, RoundConflict, None)];
    fide_ids_and_names: [
        tags("1", "1", "A, B", "C") + "[WhiteFideId \"7\"]\n\n1. e4 e5 *\n\n",
        tags("2", "1", "a b", "D") + "[WhiteFideId \"7\"]\n\n1. d4 d5 *\n\n",
        tags("3", "1", "A, Bee", "E") + "[WhiteFideId \"7\"]\n\n1. c4 c5 *\n\n",
        tags("4", "1", "C", "F") + "[WhiteFideId \"8\"]\n\n1. b3 b6 *\n\n",
        tags("5", "1", "G", "C") + "[BlackFideId \"9\"]\n\n1. g3 g6 *\n\n",
    ] => [(3, PlayerIdentity, None), (5, PlayerIdentity, None)];
}

/// Names are compared by their letters and digits, without case, in any script.
#[test]
fn names_compare_without_case_spaces_and_punctuation() {
    for (a, b) in [
        ("Carlsen, M.", "carlsen m"),
        ("Carlsen,M", "CARLSEN M"),
        ("Müller, Jörg", "MÜLLER JÖRG"),
    ] {
        assert_eq!(normalise(a), normalise(b), "{a} / {b}");
    }
    assert_ne!(normalise("Carlsen, M."), normalise("Carlsen, Magnus"));
    assert_eq!(normalise("?"), "");
}

/// One player written in Latin-1 in one game and UTF-8 in the other: one pair of
/// players, so the shorter game is a truncated copy.
#[test]
fn latin1_and_utf8_spellings_are_one_name() {
    let latin1 = b"[Event \"T\"]\n[Round \"1\"]\n[White \"M\xfcller\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";
    let utf8 = "[Event \"T\"]\n[Round \"1\"]\n[White \"Müller\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n";
    let mut archive = Archive::new();
    let mut checker = Checker::default();
    let (mut findings, mut main_line) = (Vec::new(), Vec::new());
    for (file, bytes) in [("a.pgn", &latin1[..]), ("b.pgn", utf8.as_bytes())] {
        let game = Game::from_bytes(bytes, Default::default());
        checker.check_main_line(&game, &mut findings, &mut main_line);
        archive
            .push(file, &GameRecord::new(&game, &main_line))
            .unwrap();
    }
    let found = archive.finish().unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].file.as_str(), found[0].finding.code),
        ("a.pgn", TruncatedCopy)
    );
    assert!(found[0].finding.message.contains("game 1 of b.pgn"));
}

/// The details read back are the ones written.
#[test]
fn details_read_back() {
    let game = Game::from_bytes(tags("1", "2", "A", "Bé") + "1. e4 e5 *", Default::default());
    let mut main_line = Vec::new();
    Checker::default().check_main_line(&game, &mut Vec::new(), &mut main_line);
    let mut record = GameRecord::new(&game, &main_line);
    record.set_caller_key(42);
    assert_eq!(record.caller_key, 42);
    let detail = Detail::decode(&record.detail, 42).expect("decodes");
    assert_eq!((detail.index, detail.caller_key, detail.line), (1, 42, 1));
    assert_eq!(detail.moves.len(), main_line.len());
    assert_eq!(detail.tag("Black"), Some("Bé"));
    assert_eq!(detail.tags.len(), 5);
    assert!(Detail::decode(&record.detail[..record.detail.len() - 1], 0).is_none());
    // A new index (one varint byte more) and line leave the rest as it was.
    record.relocate(300, 200);
    let moved = Detail::decode(&record.detail, 42).expect("decodes");
    assert_eq!((moved.index, moved.line), (300, 201));
    assert_eq!((moved.moves, moved.tags), (detail.moves, detail.tags));
    record.relocate(300, -200);
    assert_eq!(Detail::decode(&record.detail, 42).expect("decodes").line, 1);
    let mut unjudged = GameRecord::unjudged();
    unjudged.relocate(3, 1);
    assert!(unjudged.detail.is_empty());
}

/// The keys made in the worker, from the game's tags, are the ones the judge makes
/// again from the details it reads back: else a copy would go unconfirmed. Each case
/// is a tag section: ASCII, escapes, Latin-1 and UTF-8 names, unknown values, years
/// from EventDate or Date, FideIds with spaces, a FEN.
#[test]
fn worker_and_judge_make_the_same_keys() {
    let latin1: &[u8] =
        b"[Event \"Open \xc9t\xe9\"]\n[Round \"2\"]\n[White \"M\xfcller, J.\"]\n[Black \"B\"]\n";
    let cases: Vec<Vec<u8>> = vec![
        tags("1", "2", "A, B", "C, D").into_bytes(),
        tags(" 3.1 ", "?", "Carlsen, M.", "?").into_bytes(),
        tags("-", "", "", "Z").into_bytes(),
        "[Event \"T \\\"x\\\"\"]\n[Round \"1\"]\n[White \"O\\\\Neil\"]\n[Black \"Bé\"]\n".into(),
        "[Event \"T\"]\n[EventDate \"????\"]\n[Date \"1993.05.01\"]\n[Round \"6\"]\n".into(),
        "[Event \"?\"]\n[EventDate \"2001.??.??\"]\n[WhiteFideId \" 7 \"]\n[White \"A\"]\n[BlackFideId \"0\"]\n[Black \"B\"]\n".into(),
        "[White \"X\"]\n[White \"Y\"]\n[Black \"Ünal\"]\n[BlackFideId \"12\"]\n".into(),
        "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[SetUp \"1\"]\n".into(),
        "[FEN \"not a position\"]\n".into(),
        latin1.to_vec(),
        "[Event \"E\"]\n[Date \"\u{b}1999.01.01\t\"]\n[Round \"\u{b}-\u{c}\"]\n[Board \"\u{a0}4\"]\n[White \"+7\"]\n[WhiteFideId \"+7\"]\n".into(),
        "[Event \"Événement\"]\n[EventDate \"２０２０\"]\n[Round \"\u{a0}?\"]\n[Site \"a\\\\b\"]\n[Black \"ΣΑΣ σας\"]\n".into(),
        b"[Event \"T\"]\n[Site \"\xe9\"]\n[Round \"1\"]\n[White \"A-b C\"]\n".to_vec(),
    ];
    let mut checker = Checker::default();
    let mut main_line = Vec::new();
    for case in cases {
        let mut pgn = case.clone();
        pgn.extend_from_slice(b"\n1. Kb2 *\n");
        let game = Game::from_bytes(pgn, Default::default());
        checker.check_main_line(&game, &mut Vec::new(), &mut main_line);
        let record = GameRecord::new(&game, &main_line);
        let detail = Detail::decode(&record.detail, 0).expect("decodes");
        let decoded: Vec<(String, String)> = game
            .tag_pairs()
            .map(|(n, v)| (n.into_owned(), v.into_owned()))
            .collect();
        assert_eq!(detail.tags, decoded, "{}", String::from_utf8_lossy(&case));
        let fields = Facts::of(&detail).fields();
        assert_eq!(
            record.keys,
            detail.keys(&fields),
            "{}",
            String::from_utf8_lossy(&case)
        );
        assert_eq!(record.identities, fields.identities());
    }
}

/// The moves read back are the codes of the moves that replayed, for every length of
/// line (the last four moves or fewer are packed apart) and with underpromotions (kept
/// apart from the 12-bit codes): each case is a start and moves, every prefix tried.
#[test]
fn moves_read_back_at_every_length() {
    let cases = [
        (
            "",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1",
        ),
        (
            "[FEN \"4k3/P6P/8/8/8/8/p6p/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n",
            "1. a8=N a1=B 2. h8=B h1=R+ 3. Kd2 Kd7 4. Nb6+ Kc6",
        ),
        (
            "[FEN \"4k3/P6P/8/8/8/8/p6p/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n",
            "1. a8=Q+ Kf7 2. h8=R a1=N 3. Qb7+ Kg6",
        ),
    ];
    let mut checker = Checker::default();
    let mut main_line = Vec::new();
    for (tags, moves) in cases {
        let words: Vec<&str> = moves.split(' ').collect();
        for end in 0..=words.len() {
            let pgn = format!("{tags}\n{} *\n", words[..end].join(" "));
            let game = Game::from_bytes(pgn.clone(), Default::default());
            checker.check_main_line(&game, &mut Vec::new(), &mut main_line);
            let plies = words[..end].iter().filter(|w| !w.ends_with('.')).count();
            assert_eq!(main_line.len(), plies, "every move replays: {pgn}");
            let codes: Vec<u16> = main_line.iter().map(move_code).collect();
            let detail = Detail::decode(&GameRecord::new(&game, &main_line).detail, 0);
            assert_eq!(detail.map(|d| d.moves), Some(codes), "{pgn}");
        }
    }
}

/// The usual tag names have a code that gives the name back; others, and names that
/// differ from one only in case or a letter, have none.
#[test]
fn tag_name_codes() {
    for name in names::NAMES {
        assert_eq!(names::name(names::code(name.as_bytes())), Some(name));
    }
    for other in [
        "",
        "W",
        "Wh",
        "white",
        "Whitey",
        "WhiteFideID",
        "Fen",
        "Sit",
        "Roun",
    ] {
        assert_eq!(names::code(other.as_bytes()), 0, "{other}");
    }
    assert_eq!(names::name(0), None);
    assert_eq!(names::name(names::NAMES.len() as u8 + 1), None);
}

/// Each finding names its game and the other by their numbers in the run, counted
/// across files (what a merge plan is keyed by), beside their index in their file.
#[test]
fn findings_carry_run_wide_numbers() {
    let mut archive = Archive::new();
    let mut checker = Checker::default();
    let (mut findings, mut main_line) = (Vec::new(), Vec::new());
    let text = tags("1", "1", "A", "B") + "1. e4 e5 2. Nf3 Nc6 *";
    for file in ["a.pgn", "b.pgn", "b.pgn"] {
        let game = Game::from_bytes(text.as_str(), Default::default());
        checker.check_main_line(&game, &mut findings, &mut main_line);
        archive
            .push(file, &GameRecord::new(&game, &main_line))
            .expect("a temporary file");
    }
    let found = archive.finish().expect("read back");
    let numbers: Vec<(&str, u64, u32, u32)> = found
        .iter()
        .map(|f| {
            (
                f.file.as_str(),
                f.finding.game,
                f.game_in_run,
                f.other_in_run,
            )
        })
        .collect();
    assert_eq!(numbers, [("b.pgn", 1, 1, 0), ("b.pgn", 1, 2, 0)]);
}
