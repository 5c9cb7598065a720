//! Published perft figures of well-known positions (chessprogramming.org
//! "Perft Results" and "Chess960 Perft Results"), bounded so the suite stays
//! fast. The full shared suites run from `.ci/run` through `planilla perft`.

use planilla_core::perft::perft;
use planilla_core::{Position, Validation};

fn check(fen: &str, counts: &[u64]) {
    let pos = Position::from_fen(fen, Validation::Relaxed).unwrap();
    for (i, &expected) in counts.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
    }
}

macro_rules! perft_cases {
    ($($name:ident: $fen:expr => [$($n:expr),*];)*) => {$(
        #[test]
        fn $name() { check($fen, &[$($n),*]); }
    )*};
}

perft_cases! {
    start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" => [20, 400, 8902, 197281, 4865609];
    kiwipete: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" => [48, 2039, 97862, 4085603];
    position3: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" => [14, 191, 2812, 43238, 674624];
    position4: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1" => [6, 264, 9467, 422333];
    position4_mirrored: "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1" => [6, 264, 9467, 422333];
    position5: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8" => [44, 1486, 62379, 2103487];
    position6: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10" => [46, 2079, 89890, 3894594];
    // Chess960 positions 1 and 2 of the published table.
    chess960_1: "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9" => [21, 528, 12189, 326672];
    chess960_2: "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9" => [21, 807, 18002, 667366];
    // Castling through check and into check; promotion with check.
    castle_attacked: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" => [26, 568, 13744, 314346];
    promotions: "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1" => [24, 496, 9483, 182838];
}
