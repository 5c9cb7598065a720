//! SAN in every language: `San::parse` on arbitrary bytes never panics; a parsed move is
//! resolved in a few positions, and a move that resolves is legal, and its canonical SAN in
//! every language reads back as the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planilla_core::san::{Lang, San, Suffix};
use planilla_core::{Position, Validation};
use std::sync::OnceLock;

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete: castling both ways, pins, many captures.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    // Promotions and under-promotions, with captures.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // En passant.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Chess960 castling (X-FEN rights).
    "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
    // Several knights and rooks: disambiguation, pinned pieces.
    "3k4/8/1N3N2/8/1N3N2/8/R3K2R/8 w - - 0 1",
];

fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        FENS.iter()
            .map(|f| Position::from_fen(f, Validation::Relaxed).expect("a known FEN"))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    for lang in Lang::ALL {
        let Ok(san) = San::parse(data, lang) else {
            continue;
        };
        let _ = san.is_null();
        for pos in positions() {
            let resolved = san.resolve(pos);
            let Ok(m) = resolved else { continue };
            assert!(pos.is_legal(&m), "{m:?} resolved but is not legal");
            let after = pos.play(&m);
            let deserved = Suffix::deserved(&after);
            let _ = san.notation(pos, &m, deserved);
            for to in Lang::ALL {
                let written = San::from_move(pos, &m).with_suffix(deserved).to_string_in(to);
                let back = San::parse(written.as_bytes(), to)
                    .unwrap_or_else(|e| panic!("{written:?} ({to:?}) does not parse: {e}"));
                let m2 = back
                    .resolve(pos)
                    .unwrap_or_else(|e| panic!("{written:?} ({to:?}) does not resolve: {e:?}"));
                assert_eq!(m, m2, "{written:?} ({to:?}) names another move");
                let canonical = back.notation(pos, &m2, deserved);
                assert!(
                    canonical.is_canonical(),
                    "{written:?} ({to:?}): {canonical:?}"
                );
            }
        }
    }
});
