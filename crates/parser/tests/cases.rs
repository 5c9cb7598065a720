//! Table-driven cases: token shapes, game boundaries, encodings, limits and writers.

use planilla_parser::{
    Encoding, ExportOptions, FindingKind, Game, Reader, ReaderBuilder, TokenKind, write_export,
    write_lossless,
};

/// The non-whitespace tokens of the first game, as `kind text`.
fn tokens(input: &[u8]) -> Vec<String> {
    let game = Game::from_bytes(input, Encoding::Auto);
    game.tokens()
        .iter()
        .filter(|t| t.kind != TokenKind::Whitespace)
        .map(|t| format!("{} {}", t.kind.name(), game.decode(t.span())))
        .collect()
}

fn read_all(input: &[u8], builder: ReaderBuilder) -> Vec<Game> {
    let mut reader = builder.build(input);
    let mut games = Vec::new();
    let mut game = Game::new();
    while reader.read_game(&mut game).unwrap() {
        games.push(game.clone());
    }
    games
}

macro_rules! token_cases {
    ($($name:ident: $input:expr => [$($expected:expr),* $(,)?];)*) => {
        $(
            #[test]
            fn $name() {
                let expected: Vec<&str> = vec![$($expected),*];
                assert_eq!(tokens($input), expected);
            }
        )*
    };
}

token_cases! {
    move_numbers: b"1.e4 1...c5 12. 12... 12\xe2\x80\xa6 12 . 7" => [
        "move-number 1.", "san e4", "move-number 1...", "san c5", "move-number 12.",
        "move-number 12...", "move-number 12…", "move-number 12 .", "move-number 7",
    ];
    move_numbers_with_a_dash: b"1.-e4 e5 2.- Cf3 2...-Cc6" => [
        "move-number 1.-", "san e4", "san e5", "move-number 2.-", "san Cf3", "move-number 2...-",
        "san Cc6",
    ];
    castling_forms: b"O-O O-O-O 0-0 0-0-0 0\xe2\x80\x930 O\xe2\x80\x94O O-O+ 0-0#" => [
        "san O-O", "san O-O-O", "san 0-0", "san 0-0-0", "san 0–0", "san O—O", "san O-O+",
        "san 0-0#",
    ];
    castling_windows_1252_dashes: b"0\x960 O\x97O\x97O O\x96O+" => [
        "san 0–0", "san O—O—O", "san O–O+",
    ];
    spanish_forms: b"d8D exd6a.p. exd6 a.p. exd6 a. p. e.p. Txd8++ Cgxf3" => [
        "san d8D", "san exd6", "en-passant a.p.", "san exd6", "en-passant a.p.", "san exd6",
        "en-passant a. p.", "en-passant e.p.", "san Txd8++", "san Cgxf3",
    ];
    en_passant_with_marks: b"dxe3 a.p.+ dxe3a.p.# exd6 a.\xc2\xa0p. exd6 e.p.++" => [
        "san dxe3", "en-passant a.p.+", "san dxe3", "en-passant a.p.#", "san exd6",
        "en-passant a.\u{a0}p.", "san exd6", "en-passant e.p.++",
    ];
    long_algebraic_and_uci: b"Ng1-f3 e2xd3 e2e4 e7e8q d7d8b Bb4xNc3 -- Z0" => [
        "san Ng1-f3", "san e2xd3", "san e2e4", "san e7e8q", "san d7d8b", "san Bb4xNc3",
        "san --", "san Z0",
    ];
    lower_case_piece_letters: b"nf3 nxc6 qh5+ kxe2 tc1 rd1 pe4 o-o time" => [
        "san nf3", "san nxc6", "san qh5+", "san kxe2", "san tc1", "san rd1", "san pe4", "san o-o",
        "unknown time",
    ];
    figurines: "♘f3 ♞xc6 e8=♕+ ♔h1 b8(♕) b8/♘+".as_bytes() => [
        "san ♘f3", "san ♞xc6", "san e8=♕+", "san ♔h1", "san b8(♕)", "san b8/♘+",
    ];
    glyphs_and_nags: "e4! e5? Nf3!! Nc6?? Bb5!? a6?! $1 $146 ± ∓ = += +- ∞".as_bytes() => [
        "san e4", "glyph !", "san e5", "glyph ?", "san Nf3", "glyph !!", "san Nc6", "glyph ??",
        "san Bb5", "glyph !?", "san a6", "glyph ?!", "nag $1", "nag $146", "glyph ±", "glyph ∓",
        "glyph =", "glyph +=", "glyph +-", "glyph ∞",
    ];
    draw_offers_are_not_variations: "e4 (=) e5 «=» (Nf3)".as_bytes() => [
        "san e4", "draw-offer (=)", "san e5", "draw-offer «=»", "variation-start (", "san Nf3",
        "variation-end )",
    ];
    results: b"1-0 0-1 1/2-1/2 * \xc2\xbd-\xc2\xbd \xbd-\xbd" => [
        "result 1-0", "result 0-1", "result 1/2-1/2", "result *", "result ½-½", "result ½-½",
    ];
    comments_and_escapes: b"%escape\n{multi\n[line} ; rest } here\ne4" => [
        "escape %escape", "comment {multi\n[line}", "line-comment ; rest } here", "san e4",
    ];
    separators: b"1. e4, e5\xc2\xa02.\xa0Nf3\xe2\x80\x83Nc6" => [
        "move-number 1.", "san e4", "san e5", "move-number 2.", "san Nf3", "san Nc6",
    ];
    garbage: b"<br> e4 $ x9" => [
        "unknown <br>", "san e4", "unknown $", "unknown x9",
    ];
}

#[test]
fn tag_escapes_and_lenient_quotes() {
    let game = Game::from_bytes(
        &b"[Event \"a \\\"b\\\" \\\\ c\"]\n[Site \"The \"Best\" club\"]\n"[..],
        Encoding::Auto,
    );
    assert_eq!(game.tag("Event").as_deref(), Some("a \"b\" \\ c"));
    assert_eq!(game.tag("Site").as_deref(), Some("The \"Best\" club"));
    assert_eq!(game.tag("Round"), None);
    assert!(game.findings().is_empty());
}

#[test]
fn tag_only_sections_are_games() {
    // The rule: each tag section is one game. Blank-line-separated sections split at an
    // Event tag or a repeated name; a lone blank line inside a section does not split.
    let input =
        b"[Event \"a\"]\n[Round \"1\"]\n\n[Event \"a\"]\n[Round \"2\"]\n\n[Round \"3\"]\n\n\
                  [Event \"ChessBase\"]\n\n[Date \"2017\"]\n\n1. e4 *\n";
    let games = read_all(input, ReaderBuilder::new());
    let rounds: Vec<_> = games
        .iter()
        .map(|g| g.tag("Round").map(|r| r.into_owned()))
        .collect();
    assert_eq!(
        rounds,
        [Some("1".into()), Some("2".into()), Some("3".into()), None]
    );
    assert_eq!(games[3].tag("Date").as_deref(), Some("2017"));
    assert!(games[3].has_movetext());
    assert!(!games[0].has_movetext());
    assert_eq!(
        games.iter().map(Game::index).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
}

#[test]
fn a_draw_offer_before_any_move_splits_games_as_a_comment_does() {
    // A draw-offer mark annotates a move: before the first move it is no more movetext
    // than the comment `{(=)}` that convert writes for it, so both split alike.
    for mark in ["(=)", "«=»", "{(=)}"] {
        let input = format!(
            "{mark}\n[Event \"a\"]\n\n1. e4 *\n[Event \"b\"]\n{mark}\n[Site \"c\"]\n\n\
             1. d4 {mark} *\n[Event \"d\"]\n\n{mark}\n[Event \"e\"]\n"
        );
        let games = read_all(input.as_bytes(), ReaderBuilder::new());
        let events: Vec<_> = games
            .iter()
            .map(|g| g.tag("Event").map(|e| e.into_owned()))
            .collect();
        assert_eq!(
            events,
            [
                Some("a".into()),
                Some("b".into()),
                Some("d".into()),
                Some("e".into())
            ],
            "{mark}"
        );
        assert_eq!(games[1].tag("Site").as_deref(), Some("c"), "{mark}");
        assert!(!games[2].has_movetext(), "{mark}");
    }
    let windows_1252 = read_all(b"\xab=\xbb\n[Event \"a\"]\n", ReaderBuilder::new());
    assert_eq!(windows_1252.len(), 1);
    assert_eq!(windows_1252[0].tokens()[0].kind, TokenKind::DrawOffer);
}

#[test]
fn games_without_tags_split_after_results() {
    let games = read_all(
        b"e4 e5 *\nd4 d5 1-0\n\n1. c4 0-1\nnot a move\n",
        ReaderBuilder::new(),
    );
    assert_eq!(games.len(), 3);
    assert_eq!(games[2].first_line(), 4);
    assert!(
        games[2]
            .findings()
            .iter()
            .any(|f| f.kind == FindingKind::Syntax)
    );
}

/// Prose separates moves with `;`, which starts a comment to the end of the line: when
/// the result stands in one, the missing-result finding says so.
#[test]
fn a_result_in_a_line_comment_is_pointed_out() {
    let games = read_all(b"1. e4, e5; 2. Cf3, Cc6 1-0\n", ReaderBuilder::new());
    let messages: Vec<&str> = games[0].findings().iter().map(|f| &*f.message).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("without a result") && m.contains("a ';' starts a comment")),
        "{messages:?}"
    );
    let games = read_all(b"1. e4 e5 ; a comment\n2. Nf3\n", ReaderBuilder::new());
    let messages: Vec<&str> = games[0].findings().iter().map(|f| &*f.message).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("without a result") && !m.contains("a ';'")),
        "{messages:?}"
    );
}

/// A result that ends a line inside a variation (an annotator's `30. Qh8# 1-0)`) ends
/// no game: the move on the next line goes on with the variation, unless that line
/// starts at move 1.
#[test]
fn a_result_inside_a_variation_ends_no_game() {
    let games = read_all(
        b"[Event \"a\"]\n\n1. e4 (1. d4 d5 2. c4 1-0\n2. Nc3) e5 *\n\n[Event \"b\"]\n\n1. d4 *\n",
        ReaderBuilder::new(),
    );
    assert_eq!(games.len(), 2);
    assert!(games[0].findings().is_empty(), "{:?}", games[0].findings());
    // But a variation left open, then a line that starts at move 1: a game without tags
    // begins there, as after a result outside variations.
    let games = read_all(b"1. e4 (1. d4 d5 1-0\n1. e4 e5 0-1\n", ReaderBuilder::new());
    assert_eq!(games.len(), 2);
}

#[test]
fn unterminated_comment_does_not_swallow_the_next_game() {
    let input = b"[Event \"a\"]\n\n1. e4 {oops\n\n[Event \"b\"]\n\n1. d4 *\n";
    let games = read_all(input, ReaderBuilder::new());
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].findings()[0].message, "unterminated comment");
    assert_eq!(games[1].tag("Event").as_deref(), Some("b"));
    assert!(games[1].findings().is_empty());
}

#[test]
fn bom_crlf_and_locations() {
    let input = "\u{FEFF}[Event \"é\"]\r\n\r\n1. e4 {ü} x9 *\r\n";
    let games = read_all(input.as_bytes(), ReaderBuilder::new());
    let game = &games[0];
    assert_eq!(game.offset(), 3);
    let finding = &game.findings()[0];
    let at = game.location(finding.span.start as usize);
    assert_eq!((at.line, at.column), (3, 11));
    assert_eq!(at.byte, 3 + finding.span.start as u64);
}

#[test]
fn encodings_per_piece_and_forced() {
    let input = b"[White \"M\xfcller\"]\n[Black \"Caf\xc3\xa9\"]\n\n1. e4 *\n";
    let auto = &read_all(input, ReaderBuilder::new())[0];
    assert_eq!(auto.tag("White").as_deref(), Some("Müller"));
    assert_eq!(auto.tag("Black").as_deref(), Some("Café"));
    assert_eq!(auto.encoding().single_byte_pieces, 1);
    assert_eq!(
        auto.findings()[0].message,
        "decoded as windows-1252: tag White"
    );

    let forced = ReaderBuilder::new().encoding(Encoding::Windows1252);
    let cp1252 = &read_all(input, forced)[0];
    assert_eq!(cp1252.tag("Black").as_deref(), Some("CafÃ©"));
    // Forced, every non-ASCII piece was decoded so, and the note says it was asked for.
    let messages: Vec<&str> = cp1252.findings().iter().map(|f| &*f.message).collect();
    assert_eq!(
        messages,
        ["decoded as windows-1252 (--encoding): tags White, Black"]
    );

    let latin1 = &read_all(
        b"[Annotator \"O\x92Kelly\"]\n",
        ReaderBuilder::new().encoding(Encoding::Latin1),
    )[0];
    assert_eq!(latin1.tag("Annotator").as_deref(), Some("O\u{92}Kelly"));
    let auto = Game::from_bytes(&b"[Annotator \"O\x92Kelly\"]\n"[..], Encoding::Auto);
    assert_eq!(auto.tag("Annotator").as_deref(), Some("O\u{2019}Kelly"));

    let utf8 = &read_all(input, ReaderBuilder::new().encoding(Encoding::Utf8))[0];
    assert_eq!(utf8.tag("White").as_deref(), Some("M\u{FFFD}ller"));
    assert_eq!(utf8.findings()[0].kind, FindingKind::Encoding);

    let damaged = Game::from_bytes("[White \"Jos\u{FFFD}\"]\n".as_bytes(), Encoding::Auto);
    assert!(damaged.encoding().replacement_chars);
    assert_eq!(
        damaged.findings()[0].message,
        "text holds U+FFFD replacement characters"
    );
    assert_eq!("Latin-1".parse::<Encoding>(), Ok(Encoding::Latin1));
}

#[test]
fn encodings_read_and_write_their_names() {
    for encoding in [
        Encoding::Auto,
        Encoding::Utf8,
        Encoding::Windows1252,
        Encoding::Latin1,
    ] {
        assert_eq!(encoding.to_string().parse::<Encoding>(), Ok(encoding));
    }
    // The binary prints this error as it is.
    assert_eq!(
        "ebcdic".parse::<Encoding>().unwrap_err().to_string(),
        "unknown encoding 'ebcdic' (auto, utf-8, windows-1252, latin-1)"
    );
}

#[test]
fn oversized_game_is_skipped_but_counted() {
    let mut input = b"[Event \"big\"]\n[Result \"*\"]\n\n".to_vec();
    for _ in 0..2000 {
        input.extend_from_slice(b"1. e4 e5 ");
    }
    input.extend_from_slice(b"*\n\n[Event \"small\"]\n\n1. d4 *\n");
    for buffer in [1, 7, 4096] {
        let builder = ReaderBuilder::new().max_game_size(1000).buffer_size(buffer);
        let games = read_all(&input, builder);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].bytes(), b"[Event \"big\"]\n[Result \"*\"]\n");
        assert_eq!(games[0].len_in_file(), input.len() as u64 - 25);
        assert_eq!(games[0].findings()[0].kind, FindingKind::GameTooLarge);
        assert_eq!(games[0].findings()[0].kind.code(), "syntax-error");
        assert_eq!(games[1].tag("Event").as_deref(), Some("small"));
        assert_eq!(games[1].offset(), input.len() as u64 - 25);
    }
}

#[test]
fn game_with_too_many_tokens_is_skipped_like_an_oversized_one() {
    // 2,000 move pairs: 6,000 tokens in 18,000 bytes, under the size limit.
    let mut input = b"[Event \"long\"]\n[Result \"*\"]\n\n".to_vec();
    for _ in 0..2000 {
        input.extend_from_slice(b"1. e4 e5 ");
    }
    input.extend_from_slice(b"*\n\n[Event \"small\"]\n\n1. d4 *\n");
    // Tags count too, but skipping begins only once the movetext has: a tag section
    // longer than the limit is kept whole whatever the buffer size.
    let mut tags = Vec::new();
    for i in 0..1500 {
        tags.extend_from_slice(format!("[T{i} \"v\"]\n").as_bytes());
    }
    tags.extend_from_slice(b"\n1. e4 *\n");
    for buffer in [1, 7, 4096, 1 << 20] {
        let builder = ReaderBuilder::new()
            .max_game_tokens(1000)
            .buffer_size(buffer);
        let games = read_all(&input, builder.clone());
        assert_eq!(games.len(), 2, "buffer {buffer}");
        assert_eq!(games[0].bytes(), b"[Event \"long\"]\n[Result \"*\"]\n");
        assert_eq!(games[0].len_in_file(), input.len() as u64 - 25);
        let finding = &games[0].findings()[0];
        assert_eq!(finding.kind, FindingKind::GameTooLarge);
        assert_eq!(
            finding.message,
            "game with more than 1000 tokens (moves, numbers, comments, marks): movetext skipped"
        );
        assert_eq!(games[1].tag("Event").as_deref(), Some("small"));
        assert!(games[1].findings().is_empty());

        let games = read_all(&tags, builder);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tags().len(), 1500, "buffer {buffer}");
        assert_eq!(games[0].bytes(), &tags[..tags.len() - 9], "buffer {buffer}");
        assert_eq!(games[0].findings()[0].kind, FindingKind::GameTooLarge);
    }
    // The game has 6,003 tokens (two tags, 6,000 in the moves, the result): at the
    // limit nothing changes, one under it the movetext is skipped.
    let games = read_all(&input, ReaderBuilder::new().max_game_tokens(6003));
    assert!(games[0].findings().is_empty());
    assert_eq!(games[0].bytes().len(), input.len() - 25);
    let games = read_all(&input, ReaderBuilder::new().max_game_tokens(6002));
    assert_eq!(games[0].findings()[0].kind, FindingKind::GameTooLarge);
}

#[test]
fn text_after_a_result_over_a_limit_is_read_apart_and_the_game_kept() {
    // A complete game, then lines of junk after its result (a dump with a page of
    // dots in it): the junk goes over the token limit or the size limit, the game does
    // not, and its moves are kept; the junk is read as the next game, and skipped.
    let head =
        b"[Event \"mate\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let mut input = head.to_vec();
    for _ in 0..400 {
        input.extend_from_slice(b". . . . . . . . . .\n");
    }
    input.extend_from_slice(b"\n[Event \"small\"]\n\n1. d4 *\n");
    let by_tokens = ReaderBuilder::new().max_game_tokens(1000);
    let by_size = ReaderBuilder::new().max_game_size(2000);
    for builder in [by_tokens.clone(), by_size] {
        for buffer in [1, 7, 4096, 1 << 20] {
            let games = read_all(&input, builder.clone().buffer_size(buffer));
            assert_eq!(games.len(), 3, "buffer {buffer}");
            assert_eq!(games[0].bytes(), head, "buffer {buffer}");
            assert!(games[0].findings().is_empty(), "buffer {buffer}");
            assert_eq!(games[1].offset(), head.len() as u64);
            assert_eq!(games[1].first_line(), 5);
            assert_eq!(games[1].findings()[0].kind, FindingKind::GameTooLarge);
            assert!(
                games[1].findings()[0].message.ends_with(
                    "; it is text without tags after the result of game 1, which ends there"
                ),
                "{}",
                games[1].findings()[0].message
            );
            assert_eq!(games[2].tag("Event").as_deref(), Some("small"));
            assert!(games[2].findings().is_empty());
        }
    }
    // Junk on the result's own line: the game's text goes on past the limit, and its
    // movetext is skipped as before.
    let mut same_line = head[..head.len() - 1].to_vec();
    same_line.extend(std::iter::repeat_n(b" .", 2000).flatten());
    same_line.extend_from_slice(b"\n");
    for buffer in [1, 4096] {
        let games = read_all(&same_line, by_tokens.clone().buffer_size(buffer));
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].findings()[0].kind, FindingKind::GameTooLarge);
    }
    // Only the text within the limit is looked at: a move after the junk, past the
    // limit, goes with the junk, and the game before it is kept.
    let mut moves_after = input[..input.len() - 26].to_vec();
    moves_after.extend_from_slice(b"5. Ke2 *\n");
    let games = read_all(&moves_after, by_tokens.clone());
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].bytes(), head);
    assert_eq!(games[1].findings()[0].kind, FindingKind::GameTooLarge);
    // A result inside a variation does not end the moves.
    let mut in_variation = b"1. e4 (1. d4 1-0)\n".to_vec();
    in_variation.extend(std::iter::repeat_n(b". . . . . . . . . .\n", 200).flatten());
    let games = read_all(&in_variation, by_tokens);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].findings()[0].kind, FindingKind::GameTooLarge);
}

#[test]
fn a_tag_given_twice_with_different_values_is_reported_at_the_second() {
    let input = b"[Event \"e\"]\n[Result \"1-0\"]\n[Site \"s\"]\n[Site \"s\"]\n[Result \"0-1\"]\n\n1. e4 1-0\n";
    for buffer in [1, 7, 4096] {
        let games = read_all(input, ReaderBuilder::new().buffer_size(buffer));
        assert_eq!(games.len(), 1);
        let game = &games[0];
        // The first value is the one read; the same value twice is no finding.
        assert_eq!(game.tag("Result").as_deref(), Some("1-0"));
        let findings = game.findings();
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0].kind, FindingKind::Syntax);
        assert_eq!(
            findings[0].message,
            "tag Result given twice with different values: \"1-0\" is read, \"0-1\" ignored \
             (PGN: a tag name should appear once in a tag section)"
        );
        let second = input.windows(8).rposition(|w| w == b"[Result ").unwrap() as u32;
        assert_eq!(findings[0].span, second..second + 14);
    }
    // After a blank line, a repeated name starts the next game (a game without moves
    // before it): no finding.
    let games = read_all(
        b"[Event \"a\"]\n[Result \"*\"]\n\n[Result \"1-0\"]\n\n1. e4 1-0\n",
        ReaderBuilder::new(),
    );
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.findings().is_empty()));
}

#[test]
fn deep_variations_give_a_finding_not_a_crash() {
    let mut input = b"1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'(', 100_000));
    input.extend_from_slice(b"e4");
    let game = &read_all(&input, ReaderBuilder::new())[0];
    let messages: Vec<_> = game
        .findings()
        .iter()
        .map(|f| f.message.to_string())
        .collect();
    assert_eq!(
        messages,
        [
            "variations nested deeper than 256",
            "unterminated variation",
            "the game ends without a result (1-0, 0-1, 1/2-1/2 or *): its end may be missing, \
             or the file cut short"
        ]
    );
}

#[test]
fn lossless_writer_replaces_chosen_tokens() {
    let game = Game::from_bytes(&b"1. Cf3 {c} Dxd8+ 1-0\n"[..], Encoding::Auto);
    let replacements = [&b"Nf3"[..], b"Qxd8+"];
    let mut next = replacements.iter();
    let mut out = Vec::new();
    write_lossless(&game, &mut out, |_, t| {
        (t.kind == TokenKind::San).then(|| *next.next().unwrap())
    })
    .unwrap();
    assert_eq!(out, b"1. Nf3 {c} Qxd8+ 1-0\n");
}

#[test]
fn export_writer_roster_nags_and_wrapping() {
    let input = "[White \"Núñez\"]\n[ECO \"C60\"]\n[Result \"1-0\"]\n\n1.e4 e5! 2.Nf3 ; line\n(2.f4 ±) 2...Nc6 exd6 e.p. (=) {a  long\n comment} \u{bd}-\u{bd}\n";
    let game = Game::from_bytes(input.as_bytes(), Encoding::Auto);
    let mut out = Vec::new();
    write_export(&game, &mut out, ExportOptions { line_width: 30 }, |_, _| {
        None
    })
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    let expected = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Núñez\"]\n\
                    [Black \"?\"]\n[Result \"1-0\"]\n[ECO \"C60\"]\n\n\
                    1. e4 e5 $1 2. Nf3 {line} (2.\nf4 $16) 2... Nc6 exd6 {(=)} {a\nlong comment} 1/2-1/2\n\n";
    assert_eq!(text, expected);
    assert!(text.lines().all(|l| l.chars().count() <= 30));
}

#[test]
fn reader_over_a_file_like_source() {
    let mut reader = Reader::new(std::io::Cursor::new(b"[Event \"x\"]\n\n1. e4 *\n".to_vec()));
    let mut game = Game::new();
    assert!(reader.read_game(&mut game).unwrap());
    assert!(!reader.read_game(&mut game).unwrap());
    assert_eq!(reader.games_read(), 1);
    assert_eq!(reader.encoding_summary().verdict(), "ascii");
}

#[test]
fn huge_line_in_an_oversized_game_is_skipped_in_pieces() {
    let mut input = b"[Event \"huge\"]\n\n1. e4 {".to_vec();
    input.extend(std::iter::repeat_n(b'x', 3 << 20));
    input.extend_from_slice(b"} e5 *\n\n[Event \"next\"]\n\n1. d4 *\n");
    let games = read_all(&input, ReaderBuilder::new().max_game_size(1000));
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].bytes(), b"[Event \"huge\"]\n");
    assert_eq!(games[0].findings()[0].kind, FindingKind::GameTooLarge);
    assert_eq!(games[1].tag("Event").as_deref(), Some("next"));
}

#[test]
fn moves_on_a_tag_line_begin_the_movetext() {
    // One-line games, as pgn-extract's tests write them: each line is a game.
    let input = b"[Result \"1-0\"] e4 *\n[Result \"0-1\"] d4 *\n[Result \"*\"] c4 *\n";
    let games = read_all(input, ReaderBuilder::new());
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].tag("Result").as_deref(), Some("0-1"));
}

#[test]
fn a_tag_inside_the_movetext_is_reported_and_not_a_tag() {
    let game = Game::from_bytes(
        &b"[Result \"*\"]\n\n1. e4 [Result \"1-0\"] e5 *\n"[..],
        Encoding::Auto,
    );
    assert_eq!(game.tag("Result").as_deref(), Some("*"));
    let f = &game.findings()[0];
    assert_eq!(f.kind, FindingKind::Syntax);
    assert_eq!(f.message, "tag pair inside the movetext");
    assert_eq!(game.location(f.span.start as usize).column, 7);
}

/// A game with moves and no termination marker outside variations gets one finding, right
/// after its last token (a comment left open ends before its trailing line ends); a game
/// without moves, or with a marker, gets none.
#[test]
fn a_game_without_a_result_is_found_at_its_end() {
    let cases: [(&str, Option<(u64, u64)>); 10] = [
        ("1. e4 e5 2. Nf3", Some((1, 16))),
        ("1. e4 e5 2. Nf3\n\n\n", Some((1, 16))),
        ("[Event \"x\"]\n\n1. e4 {a comment}\n", Some((3, 18))),
        ("1. e4 {never closed\n\n", Some((1, 20))),
        ("1. e4 (1. d4 *) e5", Some((1, 19))),
        ("1. e4 e5 ; cut here\n", Some((1, 20))),
        ("1. e4 e5 *", None),
        ("1. e4 (1. d4) e5 1/2-1/2\n", None),
        ("[Event \"tags only\"]\n[Site \"s\"]\n\n", None),
        ("[Event \"x\"]\n\n{only a comment}\n", None),
    ];
    for (input, expected) in cases {
        let game = Game::from_bytes(input.as_bytes(), Encoding::Auto);
        let found: Vec<_> = game
            .findings()
            .iter()
            .filter(|f| f.message.starts_with("the game ends without a result"))
            .map(|f| {
                let at = game.location(f.span.start as usize);
                (at.line, at.column)
            })
            .collect();
        assert_eq!(found, expected.into_iter().collect::<Vec<_>>(), "{input:?}");
        // The reader says the same, with any read size.
        for size in [1, 7, 4096] {
            let read = read_all(input.as_bytes(), ReaderBuilder::new().buffer_size(size));
            assert_eq!(
                read[0].findings(),
                game.findings(),
                "{input:?}, reads of {size}"
            );
        }
    }
}
