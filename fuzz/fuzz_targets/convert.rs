//! The convert round trip on arbitrary input: the reader splits it into games, each is
//! checked and converted; convert never panics, writes UTF-8, never drops a game (reading
//! the output gives as many games), and converting to another language first and then
//! to English gives what converting straight to English gives.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planilla_converter::{Options, OutputEncoding, convert_game, encode};
use planilla_core::san::Lang;
use planilla_parser::{Encoding, Game, Reader, TokenKind};
use planilla_validator::{Code, Rules};

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

fn convert_all(games: &[Game], from: Option<Lang>, to: Lang, rules: Rules) -> (Vec<u8>, bool) {
    let options = Options { from, to, rules };
    let mut text = Vec::new();
    let mut complete = true;
    for game in games {
        let converted = convert_game(game, &options);
        if raw_single_byte_move(game) {
            // Known and reported: such a move is copied as its raw bytes (invalid UTF-8),
            // and the single-byte encoders then write the whole game as nothing.
            complete = false;
            text.extend_from_slice(&converted.text);
            continue;
        }
        assert!(
            std::str::from_utf8(&converted.text).is_ok(),
            "convert writes UTF-8"
        );
        for encoding in [
            OutputEncoding::Utf8,
            OutputEncoding::Windows1252,
            OutputEncoding::Latin1,
        ] {
            let mut out = Vec::new();
            if encode(&converted, game, encoding, &mut out).is_ok() {
                assert!(
                    converted.text.is_empty() || !out.is_empty(),
                    "{encoding:?}: a game encoded to nothing"
                );
            }
        }
        // Moves after the game ended are not replayed: they keep their text with letters
        // translated from the language read, which differs between the two ways (reported;
        // corpora/fuzz-regressions/convert/move-after-mate-translated-differently).
        let after_end = converted
            .findings
            .iter()
            .any(|f| f.code == Code::MoveAfterGameEnd);
        complete &= converted.complete && !after_end;
        text.extend_from_slice(&converted.text);
    }
    (text, complete)
}

/// A move token holding a Windows-1252 byte (`O\x96O`, castling with an en dash), in a
/// game that is not UTF-8: when it does not replay, convert copies its raw bytes (see
/// corpora/fuzz-regressions/convert/single-byte-move-copied-raw).
fn raw_single_byte_move(game: &Game) -> bool {
    game.tokens()
        .iter()
        .any(|t| t.kind == TokenKind::San && std::str::from_utf8(game.token_bytes(t)).is_err())
}

/// A game whose movetext opens with a draw-offer mark: convert writes the mark as a
/// comment, after which a tag line no longer starts a new game (reported: the converter
/// changes where games split; see corpora/fuzz-regressions/convert).
fn opens_with_draw_offer(game: &Game) -> bool {
    game.tokens()
        .iter()
        .find(|t| {
            matches!(
                t.kind,
                TokenKind::DrawOffer | TokenKind::San | TokenKind::MoveNumber | TokenKind::Result
            )
        })
        .is_some_and(|t| t.kind == TokenKind::DrawOffer)
}

/// A token that is not valid UTF-8 as a whole but holds a valid multi-byte UTF-8
/// character: the tokenizer read that character as UTF-8 (character by character) where
/// convert decodes the token as Windows-1252 (piece by piece, the contract's rule), so
/// the output may tokenize, and split into games, differently (reported; see
/// corpora/fuzz-regressions/convert/mixed-token-decoded-per-piece).
fn has_mixed_token(game: &Game) -> bool {
    game.tokens().iter().any(|t| {
        let bytes = game.token_bytes(t);
        std::str::from_utf8(bytes).is_err()
            && bytes.utf8_chunks().any(|chunk| !chunk.valid().is_ascii())
    })
}

fuzz_target!(|data: &[u8]| {
    let [selector, input @ ..] = data else { return };
    let to = Lang::ALL[*selector as usize % Lang::ALL.len()];
    // The draw rules change only the findings, never the text.
    let rules = Rules::ALL[(*selector as usize >> 3) % Rules::ALL.len()];
    let input_games = games(input);
    let (english, complete) = convert_all(&input_games, None, Lang::En, rules);
    let (target, _) = convert_all(&input_games, None, to, Rules::default());
    let output_games = games(&target);
    if input_games
        .iter()
        .any(|g| opens_with_draw_offer(g) || has_mixed_token(g))
    {
        return;
    }
    assert_eq!(
        output_games.len(),
        input_games.len(),
        "games in = games out ({to:?}): {:?}",
        String::from_utf8_lossy(&target)
    );
    if complete && input_games.iter().all(|g| g.encoding().utf8) {
        // Through another language and back: the same text as straight to English.
        let (back, _) = convert_all(&output_games, Some(to), Lang::En, rules);
        assert!(
            back == english,
            "{to:?} and back differs:\n{}\n---\n{}",
            String::from_utf8_lossy(&back),
            String::from_utf8_lossy(&english)
        );
    }
    let _ = Game::from_bytes(&target[..], Encoding::Utf8);
});
