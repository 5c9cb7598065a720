//! The tokenizer on arbitrary bytes taken as one game, under every encoding rule:
//! tokens tile the bytes, spans stay inside, everything decodes and locates, the lossless
//! writer gives the bytes back and the export writer writes UTF-8.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planilla_parser::{Encoding, Game};

fuzz_target!(|data: &[u8]| {
    for encoding in [
        Encoding::Auto,
        Encoding::Utf8,
        Encoding::Windows1252,
        Encoding::Latin1,
    ] {
        let game = Game::from_bytes(data, encoding);
        planilla_testkit::check_game(&game);
        let _ = game.has_movetext();
        let _ = game.encoding();
        // Tokenizing again gives the same result.
        let tokens = game.tokens().to_vec();
        let findings = game.findings().to_vec();
        let game = Game::from_bytes(game.bytes(), encoding);
        assert_eq!(game.tokens(), &tokens[..]);
        assert_eq!(game.findings(), &findings[..]);
    }
});
