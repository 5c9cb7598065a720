//! The `convert` round trip on any input.

use planilla_converter::{Converter, Options, OutputEncoding, encode};
use planilla_core::san::Lang;
use planilla_parser::{Encoding, Game, Joiner, Reader, encoding::decode};
use planilla_validator::Rules;

/// Asserts what `convert` promises on `data`, whose first byte chooses the target
/// language and the draw rules (the convert fuzz target's input; an empty input is
/// nothing to check): convert never panics; every game is written in every output
/// encoding, the bytes decoding back to the text, or the encoding really cannot hold the
/// character it names; reading the output gives as many games as the input; and when
/// every move was rewritten canonically, converting to the target language and then to
/// English gives what converting straight to English gives. `what` names the input in
/// the messages.
///
/// # Panics
///
/// On the first broken promise.
pub fn convert_round_trip(data: &[u8], what: &str) {
    let [selector, input @ ..] = data else { return };
    let to = Lang::ALL[*selector as usize % Lang::ALL.len()];
    // The draw rules change only the findings, never the text.
    let rules = Rules::ALL[(*selector as usize >> 3) % Rules::ALL.len()];
    let input_games = games(input);
    let (english, complete) = convert_all(&input_games, None, Lang::En, rules, what);
    let (target, _) = convert_all(&input_games, None, to, Rules::default(), what);
    let output_games = games(target.as_bytes());
    assert_eq!(
        output_games.len(),
        input_games.len(),
        "{what}: games in = games out ({to:?}): {target:?}"
    );
    if complete {
        // Through another language and back: the same text as straight to English,
        // whatever the input's encoding (the output is its decoded text).
        let (back, _) = convert_all(&output_games, Some(to), Lang::En, rules, what);
        assert!(
            back == english,
            "{what}: {to:?} and back differs:\n{back}\n---\n{english}"
        );
    }
    let _ = Game::from_bytes(target.as_bytes(), Encoding::Utf8);
}

/// The games of `input`, as the default reader reads them.
pub(crate) fn games(input: &[u8]) -> Vec<Game> {
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

/// Converts every game and checks each output encoding; also whether every move was
/// rewritten canonically (replayed, or read as written after the game's end), which the
/// round trip needs: a move kept as written means what its letters mean in the language
/// it is read in.
fn convert_all(
    games: &[Game],
    from: Option<Lang>,
    to: Lang,
    rules: Rules,
    what: &str,
) -> (String, bool) {
    let mut converter = Converter::new(Options {
        from,
        to,
        rules: rules.into(),
        ..Options::default()
    });
    let mut text = Vec::new();
    let mut joiner = Joiner::new();
    let mut complete = true;
    for game in games {
        let converted = converter.convert(game);
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
                    assert!(back == converted.text, "{what}: {encoding:?} lost text");
                }
                // A character the encoding really cannot hold, found in the text.
                Err(e) => {
                    assert_ne!(encoding, OutputEncoding::Utf8, "{what}: {e}");
                    assert!(converted.text.contains(e.character), "{what}: {e}");
                    let held = match encoding {
                        OutputEncoding::Latin1 => (e.character as u32) < 0x100,
                        _ => (0..=255u8)
                            .any(|b| decode(&[b], Encoding::Windows1252).starts_with(e.character)),
                    };
                    assert!(!held, "{what}: {encoding:?} can hold {e}");
                }
            }
        }
        complete &= converted.complete && converted.unread == 0;
        // As `planilla convert` writes the games one after another.
        let input = game.offset()..game.offset() + game.len_in_file();
        let whole = game.skipped_bytes() == 0;
        joiner
            .write_from(&mut text, converted.text.as_bytes(), input, whole)
            .unwrap();
    }
    let text = String::from_utf8(text).expect("the converter writes UTF-8");
    (text, complete)
}
