//! Property tests: on any bytes the reader never panics, every game's tokens tile its
//! bytes, the games put back together are the input (less separator lines), buffer sizes
//! 1, 7, 4096 and the default give identical games, tokens, findings and locations, the
//! input cut into pieces by the splitter gives the games of the whole, and any choice of
//! the games written one after another by a `Joiner` reads back as those games.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use planilla_parser::{DEFAULT_BUFFER_SIZE, Encoding, Game, Joiner, ReaderBuilder};
use planilla_testkit::{Chunked, belongs_to_no_game, check_game, split_reads_as_stream};
use proptest::prelude::*;

/// A game as read: its offset and bytes.
type Read = (u64, Vec<u8>);

/// Everything observable about reading `input`, as a digest plus the games read whole.
fn observe(input: &[u8], buffer: usize, max_game: usize, encoding: Encoding) -> (u64, Vec<Read>) {
    let mut reader = ReaderBuilder::new()
        .buffer_size(buffer)
        .max_game_size(max_game)
        .encoding(encoding)
        .max_variation_depth(3)
        .build(Chunked(input));
    let mut game = Game::new();
    let mut hasher = DefaultHasher::new();
    let mut games = Vec::new();
    while reader.read_game(&mut game).unwrap() {
        // Tokens tile the game, the lossless writer gives its bytes back, the export
        // writer writes UTF-8.
        check_game(&game);
        for token in game.all_tokens() {
            let location = game.location(token.start as usize);
            (token, location.line, location.column).hash(&mut hasher);
        }
        (
            game.index(),
            game.offset(),
            game.first_line(),
            game.bytes(),
            game.skipped_bytes(),
        )
            .hash(&mut hasher);
        game.findings().hash(&mut hasher);
        for (name, value) in game.tag_pairs() {
            (name, value).hash(&mut hasher);
        }
        if game.skipped_bytes() == 0 {
            games.push((game.offset(), game.bytes().to_vec()));
        }
    }
    (hasher.finish(), games)
}

/// The games chosen by `mask` (bit i % 64 for game i), written by a [`Joiner`] and read
/// back: the same games, each with its bytes.
fn joined_reads_back(games: &[Read], mask: u64) {
    let chosen: Vec<&[u8]> = games
        .iter()
        .enumerate()
        .filter(|(i, _)| mask >> (i % 64) & 1 == 1)
        .map(|(_, (_, bytes))| &bytes[..])
        .collect();
    let mut out = Vec::new();
    let mut joiner = Joiner::new();
    for game in &chosen {
        joiner.write(&mut out, game).unwrap();
    }
    let mut reader = ReaderBuilder::new().max_variation_depth(3).build(&out[..]);
    let mut game = Game::new();
    let mut read = Vec::new();
    while reader.read_game(&mut game).unwrap() {
        read.push(game.bytes().to_vec());
    }
    let text = String::from_utf8_lossy(&out);
    assert_eq!(read.len(), chosen.len(), "games joined: {text:?}");
    for (read, chosen) in read.iter().zip(&chosen) {
        assert_eq!(&read[..], *chosen, "games joined: {text:?}");
    }
}

fn check(input: &[u8]) {
    for encoding in [Encoding::Auto, Encoding::Windows1252] {
        for max_game in [usize::MAX, 40] {
            let (expected, games) = observe(input, DEFAULT_BUFFER_SIZE, max_game, encoding);
            for buffer in [1, 7, 4096] {
                let (digest, _) = observe(input, buffer, max_game, encoding);
                assert_eq!(
                    digest, expected,
                    "buffer size {buffer} differs (max game {max_game})"
                );
            }
            let builder = ReaderBuilder::new()
                .max_game_size(max_game)
                .encoding(encoding)
                .max_variation_depth(3);
            for target in [1, 7, 64] {
                split_reads_as_stream(input, &builder, target);
            }
            if max_game == usize::MAX {
                // UTF-16 input is read as its UTF-8 text.
                let text = planilla_parser::utf16_text(input);
                let input = text.as_deref().unwrap_or(input);
                // A byte order mark belongs to no game.
                let mut at = if text.is_none() && input.starts_with(b"\xEF\xBB\xBF") {
                    3
                } else {
                    0
                };
                for (offset, bytes) in &games {
                    let offset = *offset as usize;
                    assert!(
                        belongs_to_no_game(&input[at..offset], encoding),
                        "only blank lines and separators lie between games"
                    );
                    assert_eq!(&input[offset..offset + bytes.len()], &bytes[..]);
                    at = offset + bytes.len();
                }
                assert!(
                    belongs_to_no_game(&input[at..], encoding),
                    "only blank input is left out"
                );
                if encoding == Encoding::Auto {
                    for mask in [
                        u64::MAX,
                        0x5555_5555_5555_5555,
                        0xAAAA_AAAA_AAAA_AAAA,
                        0x9249_2492_4924_9249,
                    ] {
                        joined_reads_back(&games, mask);
                    }
                }
            }
        }
    }
}

/// Pieces that real files are made of, including the tricky ones.
const FRAGMENTS: &[&[u8]] = &[
    b"[Event \"x\"]\n",
    // What the splitter cuts at: a tag pair line that starts with `[Event "` after a
    // blank line.
    b"\n\n[Event \"y\"]\n",
    b"[Site \"y\"]\n",
    b"[Event \"a \\\"q\\\" b\"]",
    b"[White \"N\xfcss\"]\n",
    b"[Black \"Caf\xc3\xa9\"]\r\n",
    b"\n",
    b"\r\n",
    b"\n\n",
    b" ",
    b"\t",
    b"1. ",
    b"12...",
    b"12 .",
    b"e4 ",
    b"Nf3",
    b"exd6a.p. ",
    b"a. p.",
    b"0-0 ",
    b"0\xe2\x80\x930",
    b"d8D",
    b"\xe2\x99\x98f3 ",
    b"{comment}",
    b"{\n[Event \"inside\"]\n}",
    b"{open",
    b"}",
    b"(",
    b")",
    b"(=)",
    b"\xab=\xbb",
    b"; line comment\n",
    b"%escape\n",
    b"$12 ",
    b"!?",
    b"1-0",
    b"0-1 ",
    b"1/2-1/2\n",
    b"\xbd-\xbd",
    b"*",
    b"\xef\xbb\xbf",
    b"\xc2\xa0",
    b"\xa0",
    b"\xef\xbf\xbd",
    b"garbage<br>",
    b"[",
    b"\"",
    b"% planilla: end of game\n",
    b"\n% planilla: end of game",
];

fn pgn_like() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..60).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..300)) {
        check(&input);
    }

    #[test]
    fn pgn_like_bytes(input in pgn_like()) {
        check(&input);
    }
}

/// UTF-16 text (either byte order, with or without a byte order mark) reads as its UTF-8
/// text, whatever the read size: the same games, tokens and findings, but the note
/// that names UTF-16 at the start; characters outside the BMP (surrogate pairs) and
/// a last odd byte included.
#[test]
fn utf16_reads_as_its_utf8_text() {
    let text = "[Event \"Le\u{f3}n \u{1F600}\"]\n[Result \"*\"]\n\n1. e4 \u{2658}f6 2. Cf3 *\n\n\
                [Event \"2\"]\n\n1. d4 {caf\u{e9}} d5 *\n";
    let utf8 = text.as_bytes();
    let (plain, games) = observe(utf8, DEFAULT_BUFFER_SIZE, usize::MAX, Encoding::Auto);
    let joined: Vec<u8> = games.into_iter().flat_map(|(_, bytes)| bytes).collect();
    assert_eq!(joined, utf8);
    let units: Vec<u16> = text.encode_utf16().collect();
    let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
    let be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
    for (name, bytes) in [
        ("LE with BOM", [&[0xFF, 0xFE][..], &le].concat()),
        ("BE with BOM", [&[0xFE, 0xFF][..], &be].concat()),
        ("LE", le.clone()),
        ("BE", be.clone()),
    ] {
        assert_eq!(
            planilla_parser::utf16_text(&bytes).as_deref(),
            Some(utf8),
            "{name}"
        );
        for buffer in [1, 3, 7, 4096] {
            let mut reader = ReaderBuilder::new().buffer_size(buffer).build(&bytes[..]);
            let mut game = Game::new();
            let mut games = Vec::new();
            while reader.read_game(&mut game).unwrap() {
                let mut findings = game.findings().to_vec();
                if games.is_empty() {
                    assert!(findings[0].message.contains("UTF-16"), "{name}");
                    findings.remove(0);
                }
                games.push((game.bytes().to_vec(), game.tokens().to_vec(), findings));
            }
            let mut reader = ReaderBuilder::new().build(utf8);
            let mut expected = Vec::new();
            while reader.read_game(&mut game).unwrap() {
                expected.push((
                    game.bytes().to_vec(),
                    game.tokens().to_vec(),
                    game.findings().to_vec(),
                ));
            }
            assert_eq!(games, expected, "{name}, buffer {buffer}");
        }
    }
    // A last odd byte is a replacement character.
    let odd = [&le[..], &[b'x'][..]].concat();
    assert!(
        planilla_parser::utf16_text(&odd)
            .unwrap()
            .ends_with("\u{FFFD}".as_bytes())
    );
    let _ = plain;
}

#[test]
fn long_lines_and_many_games() {
    let mut input = Vec::new();
    for i in 0..50 {
        input.extend_from_slice(format!("[Event \"game {i}\"]\n[Result \"*\"]\n\n").as_bytes());
        for m in 1..=400 {
            input.extend_from_slice(format!("{m}. e4 {{{}}} e5 ", "x".repeat(m % 7)).as_bytes());
        }
        input.extend_from_slice(b"*\n\n");
    }
    let (expected, games) = observe(&input, DEFAULT_BUFFER_SIZE, usize::MAX, Encoding::Auto);
    let joined: Vec<u8> = games.into_iter().flat_map(|(_, bytes)| bytes).collect();
    assert_eq!(joined, input);
    for buffer in [1, 7, 4096] {
        assert_eq!(
            observe(&input, buffer, usize::MAX, Encoding::Auto).0,
            expected
        );
    }
}
