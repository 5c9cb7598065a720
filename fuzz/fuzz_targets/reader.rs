//! The streaming reader on arbitrary bytes, with tiny reads and small size and depth
//! limits so that game boundaries, refills, skipped oversized games and long lines are
//! all reached. Asserts: no byte lost or duplicated (game offsets are contiguous but for
//! separator lines, and the kept bytes are the input's), the same games whatever the read size, the per-game
//! invariants of `planilla_testkit::check_game`, and the splitter's property (the input
//! cut into pieces and read piece by piece gives the same games).
#![no_main]

use libfuzzer_sys::fuzz_target;
use planilla_parser::{DEFAULT_MAX_VARIATION_DEPTH, Encoding, Game, ReaderBuilder};
// What the reader made of one game, to compare runs with different read sizes.
use planilla_testkit::GameSummary as Summary;

fn read_all(
    input: &[u8],
    buffer: usize,
    max_game: usize,
    depth: u32,
    encoding: Encoding,
) -> Vec<Summary> {
    let mut reader = ReaderBuilder::new()
        .buffer_size(buffer)
        .max_game_size(max_game)
        .max_variation_depth(depth)
        .encoding(encoding)
        .build(input);
    let mut game = Game::new();
    let mut out = Vec::new();
    while reader
        .read_game(&mut game)
        .expect("reading from a slice cannot fail")
    {
        planilla_testkit::check_game(&game);
        assert_eq!(game.index(), out.len() as u64 + 1);
        out.push(Summary::of(&game));
    }
    assert_eq!(reader.games_read(), out.len() as u64);
    out
}

fuzz_target!(|data: &[u8]| {
    let [a, b, input @ ..] = data else { return };
    let buffer = 1 + (*a as usize & 0x1f);
    let max_game = 16 + (*b as usize) * 4;
    let encoding = [
        Encoding::Auto,
        Encoding::Utf8,
        Encoding::Windows1252,
        Encoding::Latin1,
    ][(*a as usize >> 5) & 3];

    let small = read_all(input, buffer, max_game, 4, encoding);
    let large = read_all(input, 1 << 16, max_game, 4, encoding);
    assert_eq!(small, large, "results must not depend on read sizes");

    // Cut into pieces of 1 to 64 bytes (every guess of the splitter's is tried), read
    // piece by piece and settled: the games of the whole.
    let builder = ReaderBuilder::new()
        .max_game_size(max_game)
        .max_variation_depth(4)
        .encoding(encoding);
    planilla_testkit::split_reads_as_stream(input, &builder, 1 + (*b as usize & 0x3f));

    // Every byte belongs to exactly one game (a leading byte order mark to none), and the
    // bytes kept are the input's (UTF-16 input: its UTF-8 text's, whose byte order mark
    // was dropped before decoding: a U+FEFF after it is text of the first game).
    let text = planilla_parser::utf16_text(input);
    let bom = if text.is_none() && input.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let input = text.as_deref().unwrap_or(input);
    let mut at = bom as u64;
    let mut line = 1;
    let newlines = |bytes: &[u8]| bytes.iter().filter(|&&c| c == b'\n').count() as u64;
    for game in &small {
        // Between games, only separator lines and the blank text before them.
        let gap = &input[at as usize..game.offset as usize];
        assert!(
            planilla_testkit::belongs_to_no_game(gap, encoding),
            "games must be contiguous but for separator lines: {:?}",
            String::from_utf8_lossy(gap)
        );
        line += newlines(gap);
        assert_eq!(game.first_line, line, "line numbers must follow the bytes");
        let start = game.offset as usize;
        assert_eq!(&input[start..start + game.bytes.len()], &game.bytes[..]);
        at = game.offset + game.bytes.len() as u64 + game.skipped;
        line += newlines(&input[start..at as usize]);
    }
    // Only whitespace and separator lines may be left after the last game.
    let rest = &input[at as usize..];
    assert!(
        planilla_testkit::belongs_to_no_game(rest, encoding),
        "bytes lost at the end: {:?}",
        String::from_utf8_lossy(rest)
    );

    // Without a size limit in reach, a game read from the stream tokenizes as the same
    // game on its own.
    let whole = read_all(
        input,
        7,
        usize::MAX / 2,
        DEFAULT_MAX_VARIATION_DEPTH,
        encoding,
    );
    for game in &whole {
        let alone = Game::from_bytes(game.bytes.clone(), encoding);
        assert_eq!(
            alone.tokens(),
            &game.tokens[..],
            "tokens differ when read alone"
        );
        // The UTF-16 note is about the file, given with its first game by the reader.
        let from_tokens = |findings: &[planilla_parser::Finding]| -> Vec<planilla_parser::Finding> {
            findings
                .iter()
                .filter(|f| !f.message.starts_with("the file is UTF-16"))
                .cloned()
                .collect()
        };
        assert_eq!(
            from_tokens(alone.findings()),
            from_tokens(&game.findings),
            "findings differ when read alone"
        );
    }
});
