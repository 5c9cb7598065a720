//! The convert round trip on arbitrary input: the reader splits it into games, each is
//! checked and converted; convert never panics, writes every game in every output
//! encoding (or names the character the encoding cannot hold), never drops a game
//! (reading the output gives as many games), and converting to another language first
//! and then to English gives what converting straight to English gives.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planilla_converter::{Options, OutputEncoding, convert_game, encode};
use planilla_core::san::Lang;
use planilla_parser::{Encoding, Game, Reader, encoding::decode};
use planilla_validator::Rules;

fn games(input: &[u8]) -> Vec<Game> {
    let mut reader = Reader::new(input);
    let mut out = Vec::new();
    let mut game = Game::new();
    while reader
        .read_game(&mut game)
        .expect("reading from a slice cannot fail")
    {
        out.push(game.clone());
    }
    out
}

/// Converts every game; also whether every move was rewritten canonically (replayed,
/// or read as written after the game's end), which the round trip needs: a move kept
/// as written means what its letters mean in the language it is read in.
fn convert_all(games: &[Game], from: Option<Lang>, to: Lang, rules: Rules) -> (String, bool) {
    let options = Options { from, to, rules };
    let mut text = String::new();
    let mut complete = true;
    for game in games {
        let converted = convert_game(game, &options);
        for encoding in [
            OutputEncoding::Utf8,
            OutputEncoding::Windows1252,
            OutputEncoding::Latin1,
        ] {
            let mut out = Vec::new();
            match encode(&converted, game, encoding, &mut out) {
                // Nothing lost: the bytes decode to the text.
                Ok(()) => {
                    let back = match encoding {
                        OutputEncoding::Utf8 => decode(&out, Encoding::Utf8),
                        OutputEncoding::Windows1252 => decode(&out, Encoding::Windows1252),
                        OutputEncoding::Latin1 => decode(&out, Encoding::Latin1),
                    };
                    assert!(back == converted.text, "{encoding:?} lost text");
                }
                // A character the encoding really cannot hold, found in the text.
                Err(e) => {
                    assert_ne!(encoding, OutputEncoding::Utf8);
                    assert!(converted.text.contains(e.character), "{e}");
                    let held = match encoding {
                        OutputEncoding::Latin1 => (e.character as u32) < 0x100,
                        _ => (0..=255u8).any(|b| {
                            decode(&[b], Encoding::Windows1252).starts_with(e.character)
                        }),
                    };
                    assert!(!held, "{encoding:?} can hold {e}");
                }
            }
        }
        complete &= converted.complete && converted.unread == 0;
        text.push_str(&converted.text);
    }
    (text, complete)
}

fuzz_target!(|data: &[u8]| {
    let [selector, input @ ..] = data else { return };
    let to = Lang::ALL[*selector as usize % Lang::ALL.len()];
    // The draw rules change only the findings, never the text.
    let rules = Rules::ALL[(*selector as usize >> 3) % Rules::ALL.len()];
    let input_games = games(input);
    let (english, complete) = convert_all(&input_games, None, Lang::En, rules);
    let (target, _) = convert_all(&input_games, None, to, Rules::default());
    let output_games = games(target.as_bytes());
    assert_eq!(
        output_games.len(),
        input_games.len(),
        "games in = games out ({to:?}): {target:?}"
    );
    if complete {
        // Through another language and back: the same text as straight to English,
        // whatever the input's encoding (the output is its decoded text).
        let (back, _) = convert_all(&output_games, Some(to), Lang::En, rules);
        assert!(
            back == english,
            "{to:?} and back differs:\n{back}\n---\n{english}"
        );
    }
    let _ = Game::from_bytes(target.as_bytes(), Encoding::Utf8);
});
