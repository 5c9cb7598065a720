//! FEN on arbitrary text, strict and relaxed: never a panic; a position read is written
//! back identically and reads back to the same position; every legal move plays, gives
//! a position whose FEN reads back with the same Zobrist keys, and writes a SAN that
//! resolves to it; perft suites parse without panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planilla_core::san::{Lang, San, Suffix};
use planilla_core::{Position, Validation};

fn read_back(pos: &Position, validation: Validation) {
    let fen = pos.fen();
    let again = Position::from_fen(&fen, validation)
        .unwrap_or_else(|e| panic!("{fen:?} written by fen() does not read back: {e}"));
    assert_eq!(again.fen(), fen, "fen() is not stable");
    assert_eq!(
        again.zobrist(),
        pos.zobrist(),
        "{fen}: zobrist differs on reading back"
    );
    assert_eq!(
        again.zobrist_2005(),
        pos.zobrist_2005(),
        "{fen}: zobrist_2005 differs"
    );
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = planilla_core::perft::parse_suite(&text);
    let strict = Position::from_fen(&text, Validation::Strict);
    let relaxed = Position::from_fen(&text, Validation::Relaxed);
    if let Ok(pos) = &strict {
        let relaxed = relaxed.as_ref().expect("strict implies relaxed");
        assert_eq!(pos.fen(), relaxed.fen());
        read_back(pos, Validation::Strict);
    }
    let Ok(pos) = relaxed else { return };
    read_back(&pos, Validation::Relaxed);
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal());
    assert_eq!(moves.len() > 0, pos.has_legal_moves());
    let _ = (
        pos.game_end(),
        pos.is_insufficient_material(),
        pos.legal_ep_square(),
    );
    for m in moves.iter() {
        assert!(pos.is_legal(m));
        let after = pos.play(m);
        read_back(&after, Validation::Relaxed);
        let written = San::from_move(&pos, m)
            .with_suffix(Suffix::deserved(&after))
            .to_string_in(Lang::En);
        let back = San::parse(written.as_bytes(), Lang::En)
            .unwrap_or_else(|e| panic!("{written:?} does not parse: {e}"));
        assert_eq!(
            back.resolve(&pos).as_ref(),
            Ok(m),
            "{written:?} in {}",
            pos.fen()
        );
        let _ = m.to_uci(true);
        let _ = after.count_legal();
    }
});
