//! SAN cases as tables: what real records write, in several languages, and
//! what the core makes of it.

use planilla_core::san::{
    CaptureMark, CheckMark, Disambiguation, Forms, IllegalReason, Lang, San, SanError, Suffix,
};
use planilla_core::{Position, Role, Square, Validation};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, Validation::Strict).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn resolve(fen: &str, lang: Lang, text: &str) -> Result<String, SanError> {
    let p = pos(fen);
    let san = San::parse(text.as_bytes(), lang).unwrap_or_else(|e| panic!("{text}: {e}"));
    san.resolve(&p)
        .map(|m| m.to_uci(!p.has_standard_castling()))
}

/// Moves that resolve: (FEN, language, as written, UCI of the move).
macro_rules! legal {
    ($($name:ident: $fen:expr, $lang:ident, $san:expr => $uci:expr;)*) => {$(
        #[test]
        fn $name() {
            assert_eq!(resolve($fen, Lang::$lang, $san).unwrap(), $uci);
        }
    )*};
}

const EP: &str = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
const PROMO: &str = "3qk3/2P5/8/8/8/8/8/4K3 w - - 0 1";
const CASTLE: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
const CASTLE_B: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1";

legal! {
    en_knight: START, En, "Nf3" => "g1f3";
    en_pawn: START, En, "e4" => "e2e4";
    en_glyphs: START, En, "e4!?" => "e2e4";
    es_knight: START, Es, "Cf3" => "g1f3";
    it_knight: START, It, "Cc3" => "b1c3";
    de_knight: START, De, "Sf3" => "g1f3";
    nl_knight: START, Nl, "Pf3" => "g1f3";
    fr_knight: START, Fr, "Cf3" => "g1f3";
    figurine_knight: START, Figurine, "♘f3" => "g1f3";
    figurine_emoji_style: START, Figurine, "♘\u{fe0f}f3" => "g1f3";
    figurine_text_style: START, Figurine, "♘\u{fe0e}f3+" => "g1f3";
    figurine_black_glyph: START, Figurine, "♞f3" => "g1f3";
    en_long: START, En, "Ng1-f3" => "g1f3";
    en_uci: START, En, "g1f3" => "g1f3";
    en_pawn_long: START, En, "e2-e4" => "e2e4";
    en_pawn_letter: START, En, "Pe4" => "e2e4";
    // A pawn letter and a capture mark without the departure file: the one pawn that
    // captures there (only a pawn move with neither file nor capture is a push).
    en_pawn_letter_capture: "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", En, "Pxd5" => "e4d5";
    de_pawn_letter_capture: "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", De, "Bxd5" => "e4d5";
    de_pawn_letter: START, De, "Be4" => "e2e4";
    lowercase_knight: START, En, "nf3" => "g1f3";
    ep_plain: EP, En, "exf6" => "e5f6";
    ep_mark: EP, En, "exf6 e.p." => "e5f6";
    ep_glued_es: EP, Es, "exf6a.p." => "e5f6";
    ep_spaced_es: EP, Es, "exf6 a. p." => "e5f6";
    ep_nbsp_es: EP, Es, "exf6\u{a0}a.p." => "e5f6";
    ep_nbsp_inner_es: EP, Es, "exf6 a.\u{a0}p." => "e5f6";
    ep_mark_then_check_es: EP, Es, "exf6 a.p.+" => "e5f6";
    ep_glued_then_check_es: EP, Es, "exf6a.p.+" => "e5f6";
    promo_eq: PROMO, En, "cxd8=Q+" => "c7d8q";
    promo_bare_es: PROMO, Es, "cxd8D+" => "c7d8q";
    promo_parens: PROMO, En, "cxd8(N)" => "c7d8n";
    promo_slash: PROMO, En, "cxd8/R" => "c7d8r";
    promo_figurine_parens: PROMO, Figurine, "cxd8(♕)" => "c7d8q";
    promo_figurine_slash: PROMO, Figurine, "cxd8/♘" => "c7d8n";
    promo_figurine_emoji: PROMO, Figurine, "cxd8=♕\u{fe0f}" => "c7d8q";
    promo_es_eq: PROMO, Es, "cxd8=C" => "c7d8n";
    promo_push_under: PROMO, En, "c8=N" => "c7c8n";
    promo_uci: PROMO, En, "c7d8q" => "c7d8q";
    castle_short: CASTLE, En, "O-O" => "e1g1";
    castle_zeros: CASTLE, Es, "0-0" => "e1g1";
    castle_long_zeros: CASTLE, Es, "0-0-0" => "e1c1";
    castle_en_dash: CASTLE, Es, "0–0" => "e1g1";
    castle_em_dash: CASTLE, Es, "O—O—O" => "e1c1";
    castle_black: CASTLE_B, En, "O-O-O" => "e8c8";
    castle_uci: CASTLE, En, "e1g1" => "e1g1";
    es_king_is_r: "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", Es, "Rd1" => "e1d1";
    en_rook_is_r: "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", En, "Rd1" => "a1d1";
    es_rook_is_t: "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", Es, "Td1" => "a1d1";
    mate_double_plus: "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Es, "Ta8++" => "a1a8";
    disambiguated_file: "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", En, "Nbd2" => "b1d2";
    disambiguated_rank: "4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1", En, "N1d2" => "b1d2";
    disambiguated_square: "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", En, "Qh4e1" => "h4e1";
    chess960_castle: "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BN1KR w Hhf - 2 9", En, "O-O" => "g1h1";
}

/// Moves that do not resolve, with the reason.
macro_rules! illegal {
    ($($name:ident: $fen:expr, $lang:ident, $san:expr => $reason:pat,)*) => {$(
        #[test]
        fn $name() {
            match resolve($fen, Lang::$lang, $san) {
                Err(SanError::Illegal(r)) => assert!(matches!(r, $reason), "{r:?}"),
                other => panic!("expected illegal, got {other:?}"),
            }
        }
    )*};
}

illegal! {
    no_knight_reaches: START, En, "Nf4" => IllegalReason::NoPieceReaches(Role::Knight, _),
    own_piece: START, En, "Ke2" => IllegalReason::OwnPieceOnTarget(_),
    no_queen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", En, "Qd2" => IllegalReason::NoPiece(Role::Queen),
    english_reading_of_spanish_king: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", En, "Rd1" => IllegalReason::NoPiece(Role::Rook),
    pinned: "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", En, "Nc3" => IllegalReason::LeavesKingInCheck,
    into_check: "4k3/3r4/8/8/8/8/8/4K3 w - - 0 1", En, "Kd1" => IllegalReason::KingIntoCheck(_),
    ignores_check: "4k3/4r3/8/8/8/8/8/N3K3 w - - 0 1", En, "Nb3" => IllegalReason::DoesNotAnswerCheck,
    pawn_reaches_nothing: START, En, "exd5" => IllegalReason::NoPieceReaches(Role::Pawn, _),
    pawn_captures_empty: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", En, "exd3" => IllegalReason::NothingToCapture(_),
    castle_through_check: "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", En, "O-O" => IllegalReason::Castling(_),
    castle_no_right: "4k3/8/8/8/8/8/8/4K2R w - - 0 1", En, "O-O" => IllegalReason::Castling(_),
    missing_promotion: PROMO, En, "cxd8" => IllegalReason::MissingPromotion,
    not_a_promotion: START, En, "e4=Q" => IllegalReason::NotAPromotion,
    // A pawn move with no file written is a push: `d5` never names `exd5`, `e6` never
    // the en-passant capture `dxe6`, and a pawn beside the square is no reason to
    // blame a check.
    pawn_push_onto_a_piece: "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", En, "d5" => IllegalReason::NoPieceReaches(Role::Pawn, _),
    pawn_push_for_en_passant: "rnbqkbnr/ppp2ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", En, "d6" => IllegalReason::NoPieceReaches(Role::Pawn, _),
    pawn_push_beside_a_pawn: "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2", En, "e5" => IllegalReason::NoPieceReaches(Role::Pawn, _),
}

#[test]
fn ambiguous_lists_candidates() {
    let Err(SanError::Ambiguous(c)) = resolve("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", Lang::En, "Nd2")
    else {
        panic!("expected ambiguity");
    };
    assert_eq!(c.len(), 2);
}

#[test]
fn not_a_move() {
    for (text, lang) in [
        ("Xe4", Lang::En),
        ("Ne9", Lang::En),
        ("", Lang::En),
        ("Nf", Lang::En),
        ("Ce4", Lang::En),
        ("Sf3", Lang::Es),
        ("e4=K", Lang::En),
    ] {
        assert!(
            San::parse(text.as_bytes(), lang).is_err(),
            "{text:?} in {lang}"
        );
    }
}

/// How the written form compares with canonical SAN.
fn notation(fen: &str, lang: Lang, text: &str) -> planilla_core::san::Notation {
    let p = pos(fen);
    let san = San::parse(text.as_bytes(), lang).unwrap();
    let m = san.resolve(&p).unwrap();
    san.notation(&p, &m, Suffix::deserved(&p.play(&m)))
}

#[test]
fn disambiguation_verdicts() {
    let two_knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    assert_eq!(
        notation(two_knights, Lang::En, "Nbd2").disambiguation,
        Disambiguation::Right
    );
    assert_eq!(
        notation(two_knights, Lang::En, "Nbc3").disambiguation,
        Disambiguation::Redundant
    );
    assert_eq!(
        notation(two_knights, Lang::En, "N1d2").disambiguation,
        Disambiguation::NonPreferred
    );
    assert_eq!(
        notation(two_knights, Lang::En, "Nb1d2").disambiguation,
        Disambiguation::Redundant
    );
    // Knights on c3 and g1, king on e1, black bishop on a5 pins c3 (a5-b4-c3-d2-e1).
    let pinned_c3 = "4k3/8/8/b7/8/2N5/8/4K1N1 w - - 0 1";
    assert_eq!(
        notation(pinned_c3, Lang::En, "Nge2").disambiguation,
        Disambiguation::PinnedOnly
    );
    assert_eq!(
        notation(pinned_c3, Lang::En, "Ne2").disambiguation,
        Disambiguation::Right
    );
}

#[test]
fn marks() {
    let n = notation(START, Lang::En, "Nxf3");
    assert_eq!(n.capture, CaptureMark::Spurious);
    let n = notation("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", Lang::En, "Kd2");
    assert_eq!(n.capture, CaptureMark::Missing);
    let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    assert_eq!(notation(mate, Lang::En, "Ra8").check, CheckMark::Missing);
    assert_eq!(notation(mate, Lang::En, "Ra8+").check, CheckMark::Wrong);
    assert_eq!(notation(mate, Lang::En, "Ra8#").check, CheckMark::Right);
    assert_eq!(
        notation(mate, Lang::Es, "Ta8++").check,
        CheckMark::DoublePlusForMate
    );
    assert_eq!(notation(START, Lang::En, "e4+").check, CheckMark::Wrong);
    assert!(notation(START, Lang::En, "Nf3").is_canonical());
    assert!(
        notation(CASTLE, Lang::Es, "0-0")
            .forms
            .contains(Forms::CASTLE_ZEROS)
    );
    assert!(
        notation(PROMO, Lang::Es, "cxd8D+")
            .forms
            .contains(Forms::PROMOTION_BARE)
    );
    assert!(
        notation(EP, Lang::Es, "exf6 a.p.")
            .forms
            .contains(Forms::EN_PASSANT_MARK)
    );
    assert!(
        notation(START, Lang::En, "Ng1-f3")
            .forms
            .contains(Forms::LONG_ALGEBRAIC)
    );
}

#[test]
fn canonical_output_in_every_language() {
    let p = pos(PROMO);
    let m = San::parse(b"cxd8=Q", Lang::En)
        .unwrap()
        .resolve(&p)
        .unwrap();
    let out: Vec<String> = Lang::ALL
        .iter()
        .map(|&l| {
            San::from_move(&p, &m)
                .with_suffix(Suffix::deserved(&p.play(&m)))
                .to_string_in(l)
        })
        .collect();
    assert_eq!(
        out,
        [
            "cxd8=Q+",
            "cxd8=D+",
            "cxd8=D+",
            "cxd8=D+",
            "cxd8=D+",
            "cxd8=D+",
            "cxd8=D+",
            "cxd8=♕+"
        ]
    );
    let p = pos(CASTLE);
    let m = p
        .castle_if_legal(planilla_core::CastlingSide::QueenSide)
        .unwrap();
    assert_eq!(
        San::from_move(&p, &m)
            .with_suffix(Suffix::deserved(&p.play(&m)))
            .to_string_in(Lang::Es),
        "O-O-O"
    );
    assert_eq!(m.to(), Square::C1);
}

#[test]
fn languages_read_and_write_their_codes() {
    for lang in Lang::ALL {
        assert_eq!(lang.to_string().parse::<Lang>(), Ok(lang));
    }
    // The binary prints this error as it is; `auto` is the binary's choice, no language.
    for code in ["xx", "auto", "EN"] {
        assert_eq!(
            code.parse::<Lang>().unwrap_err().to_string(),
            format!("unknown language '{code}' (en, es, it, pt, fr, de, nl, figurine)")
        );
    }
}
