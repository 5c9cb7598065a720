//! Differential test of planilla-core against shakmaty 0.30.1.
//!
//! Deterministic random playouts start from the standard position and from
//! a set of tricky FENs (Kiwipete, en-passant pins and checks, promotions,
//! castling rights, Chess960 starts in Shredder-FEN and X-FEN, endgames at
//! the edge of insufficient material). At every distinct position visited,
//! both libraries must agree on:
//!
//! - the set of legal moves (with moved role, captured role, promotion and
//!   kind; castling compared as king square and rook square),
//! - the English SAN with check or mate mark of every legal move,
//! - check, checkmate, stalemate and insufficient material,
//! - the FEN (en-passant square after every double push, X-FEN castling),
//! - the en-passant square that counts for repetition, and which positions
//!   share a repetition key (ours is not Polyglot, so keys are compared as a
//!   one-to-one correspondence rather than as numbers),
//! - perft to depth 2 (depth 3 on a sample).
//!
//! Without the oracle, every legal move's SAN in every [`Lang`] must parse
//! and resolve back to the same move and be judged canonical, and a FEN we
//! write must read back to the same position (under strict validation when
//! the playout started from a position a game can reach).
//!
//! shakmaty (GPL-3.0) is only a test oracle here: none of its code is copied.
//!
//! Insufficient material: shakmaty calls a position insufficient when
//! neither side can ever mate, judged per side; ours implements FIDE's
//! material-only dead positions (K v K, K+B v K, K+N v K, bishops all on one
//! colour). Worked through case by case, both rules name the same material
//! sets in standard chess (shakmaty's knight case requires a lone king
//! opposite; its bishop case requires no knights or pawns and all bishops on
//! one colour), so the two are compared for equality everywhere.

use std::collections::HashMap;
use std::collections::HashSet;

use planilla_core::perft::perft;
use planilla_core::san::{Lang, San, Suffix};
use planilla_core::{Move, MoveKind, Position, Role, Validation};
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

/// Distinct positions to check; bounded so `cargo test` stays within seconds.
/// `PLANILLA_DIFF_POSITIONS` raises it for a deeper run by hand, and
/// `PLANILLA_DIFF_SEED` changes the playouts.
const POSITION_BUDGET: usize = 20_000;
const RNG_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a number")),
        Err(_) => default,
    }
}
/// The longest playout, in plies.
const MAX_PLIES: usize = 160;
/// Every how many positions the quick attack test is compared with the attackers.
const QUICK_EVERY: usize = 8;
/// Every how many positions perft is compared at depth 2 and 3.
const PERFT2_EVERY: usize = 16;
const PERFT3_EVERY: usize = 400;

/// A starting point for playouts.
struct Seed {
    name: &'static str,
    fen: &'static str,
    /// Parse with shakmaty's Chess960 castling mode.
    chess960: bool,
    /// A game can reach this position, so every position after it must pass
    /// strict validation.
    reachable: bool,
}

const fn seed(name: &'static str, fen: &'static str) -> Seed {
    Seed {
        name,
        fen,
        chess960: false,
        reachable: false,
    }
}

const fn game(name: &'static str, fen: &'static str) -> Seed {
    Seed {
        name,
        fen,
        chess960: false,
        reachable: true,
    }
}

const fn c960(name: &'static str, fen: &'static str) -> Seed {
    Seed {
        name,
        fen,
        chess960: true,
        reachable: true,
    }
}

const SEEDS: &[Seed] = &[
    game(
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    seed(
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    seed("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    seed(
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    seed(
        "position 4 mirrored",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    ),
    seed(
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    seed(
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    // En passant: the capturing and captured pawns both leave the rank of
    // the king and an enemy rook (illegal).
    seed("ep rank pin", "8/8/8/K1pP3r/8/8/8/7k w - c6 0 1"),
    // The capturing pawn is pinned on a diagonal and captures along it (legal).
    seed("ep along pin", "8/2b5/8/3pP3/8/6K1/8/k7 w - d6 0 1"),
    // Removing the captured pawn opens a diagonal onto the king (illegal).
    seed("ep discovers", "b6k/8/8/3pP3/8/8/8/7K w - d6 0 1"),
    // The pawn that just moved gives check; en passant answers it.
    seed("ep answers check", "8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1"),
    // Pawns face each other on both sides: double pushes that allow en
    // passant for either side, several captures onto one square.
    seed(
        "en passant field",
        "4k3/p1p1p1p1/8/1P1P1P1P/p1p1p1p1/8/1P1P1P1P/4K3 w - - 0 1",
    ),
    seed("promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
    seed(
        "promotion captures",
        "r1bq1b1r/1P1P1P2/8/2k5/8/5K2/1p1p1p2/R1BQ1B1R w - - 0 1",
    ),
    seed("castling rights", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    seed(
        "castling attacked",
        "r3k2r/8/8/8/8/1q5b/8/R3K2R w KQkq - 0 1",
    ),
    seed(
        "castling one side",
        "r3k2r/p6p/8/8/8/8/P6P/R3K2R b Kq - 0 1",
    ),
    c960(
        "chess960 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ),
    c960(
        "chess960 2",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    ),
    // King on g1 next to its h1 rook: O-O leaves the king where it is.
    c960(
        "chess960 king g",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    ),
    // King on c1: O-O-O leaves it there and takes the b1 rook to d1, which
    // the other rook blocks until it moves.
    c960(
        "chess960 king c",
        "qrkrbbnn/pppppppp/8/8/8/8/PPPPPPPP/QRKRBBNN w DBdb - 0 1",
    ),
    // King on b1 with the a1 rook: O-O-O moves the king right, the rook to d1.
    c960(
        "chess960 king b",
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
    ),
    // X-FEN castling letters for a Chess960 start.
    c960(
        "chess960 x-fen",
        "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1",
    ),
    // SAN disambiguation: the e3 knight is pinned, so Nd5 needs no file;
    // three queens reach b3, one needs its full square.
    seed("pinned rival", "4k3/4r3/8/8/8/2N1N3/8/4K3 w - - 0 1"),
    seed("three queens", "7k/8/8/8/Q1Q5/8/Q7/7K w - - 0 1"),
    seed("k+b v k", "8/8/4k3/8/8/2B5/4K3/8 w - - 0 1"),
    seed("k+n v k", "8/8/4k3/8/8/2N5/4K3/8 b - - 0 1"),
    seed("same-colour bishops", "8/2b5/4k3/8/8/2B5/4K3/6B1 w - - 0 1"),
    seed("opposite bishops", "8/3b4/4k3/8/8/2B5/4K3/8 w - - 0 1"),
    seed("k+n v k+n", "8/3n4/4k3/8/8/2N5/4K3/8 w - - 0 1"),
    seed("k+b+n v k", "8/8/4k3/8/8/2N5/4K3/5B2 w - - 0 1"),
    seed("k+p v k", "8/8/4k3/8/8/8/3PK3/8 w - - 0 1"),
    seed("mate nearby", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"),
    seed("stalemate nearby", "7k/8/6K1/5Q2/8/8/8/8 w - - 0 1"),
];

/// xorshift64*: small, deterministic, good enough to pick moves.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A move in a form both libraries can produce: castling as king square and
/// rook square, en passant and castling marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Norm {
    from: u8,
    /// The destination, or the rook's square for castling.
    to: u8,
    role: char,
    capture: Option<char>,
    promotion: Option<char>,
    /// 0 normal, 1 en passant, 2 castling.
    kind: u8,
}

impl std::fmt::Display for Norm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sq = |i: u8| format!("{}{}", (b'a' + i % 8) as char, i / 8 + 1);
        write!(f, "{}{}", sq(self.from), sq(self.to))?;
        if let Some(p) = self.promotion {
            write!(f, "{p}")?;
        }
        match self.kind {
            1 => f.write_str(" (e.p.)"),
            2 => f.write_str(" (castling, king to rook)"),
            _ => Ok(()),
        }
    }
}

fn norm_ours(m: &Move) -> Norm {
    Norm {
        from: m.from().index() as u8,
        to: m.castling_rook().unwrap_or(m.to()).index() as u8,
        role: m.role().fen_char(),
        capture: m.capture().map(|r| r.fen_char()),
        promotion: m.promotion().map(|r| r.fen_char()),
        kind: match m.kind() {
            MoveKind::Normal => 0,
            MoveKind::EnPassant => 1,
            MoveKind::Castle(_) => 2,
        },
    }
}

fn norm_theirs(m: &shakmaty::Move) -> Norm {
    let from = m.from().expect("no drops in standard chess");
    Norm {
        from: from.to_u32() as u8,
        to: m.to().to_u32() as u8,
        role: m.role().char(),
        capture: m.capture().map(|r| r.char()),
        promotion: m.promotion().map(|r| r.char()),
        kind: if m.is_en_passant() {
            1
        } else if m.is_castle() {
            2
        } else {
            0
        },
    }
}

fn parse_theirs(fen: &str, chess960: bool) -> Chess {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    Fen::from_ascii(fen.as_bytes())
        .unwrap_or_else(|e| panic!("{fen}: shakmaty cannot read the fen: {e}"))
        .into_position(mode)
        .unwrap_or_else(|e| panic!("{fen}: shakmaty rejects the position: {e}"))
}

/// What the whole run found, for the summary and for the cross-position
/// repetition-key check.
#[derive(Default)]
struct Tally {
    positions: usize,
    moves: usize,
    checkmates: usize,
    stalemates: usize,
    insufficient: usize,
    en_passant: usize,
    castling: usize,
    promotions: usize,
    /// shakmaty's key (legal en passant) -> ours, and back.
    key_theirs_to_ours: HashMap<u64, (u64, String)>,
    key_ours_to_theirs: HashMap<u64, (u64, String)>,
}

/// Compares everything about one position; returns both libraries' legal
/// moves sorted by [`Norm`], so index `i` names the same move in each.
fn check_position(
    ours: &Position,
    theirs: &Chess,
    reachable: bool,
    reached: &str,
    tally: &mut Tally,
) -> (Vec<Move>, Vec<shakmaty::Move>) {
    let fen = ours.fen();

    // FEN, including the en-passant square after every double push.
    let their_fen = Fen::from_position(theirs, EnPassantMode::Always).to_string();
    assert_eq!(
        fen, their_fen,
        "fen differs (ours left, shakmaty right) after {reached}"
    );

    // A FEN we write reads back to the same position.
    let validation = if reachable {
        Validation::Strict
    } else {
        Validation::Relaxed
    };
    let reread = Position::from_fen(&fen, validation)
        .unwrap_or_else(|e| panic!("{fen}: our own fen does not read back ({validation:?}): {e}"));
    assert_eq!(&reread, ours, "{fen}: fen round trip changes the position");

    // Legal moves.
    let mut our_moves: Vec<Move> = ours.legal_moves().to_vec();
    our_moves.sort_by_key(norm_ours);
    let mut their_moves: Vec<shakmaty::Move> = theirs.legal_moves().to_vec();
    their_moves.sort_by_key(norm_theirs);
    let our_norms: Vec<Norm> = our_moves.iter().map(norm_ours).collect();
    let their_norms: Vec<Norm> = their_moves.iter().map(norm_theirs).collect();
    if our_norms != their_norms {
        let a: HashSet<_> = our_norms.iter().collect();
        let b: HashSet<_> = their_norms.iter().collect();
        let only_ours: Vec<String> = a.difference(&b).map(|n| n.to_string()).collect();
        let only_theirs: Vec<String> = b.difference(&a).map(|n| n.to_string()).collect();
        panic!(
            "{fen}: legal moves differ\n  only ours: {only_ours:?}\n  only shakmaty: {only_theirs:?}\n  \
             (or the same move with another role, capture or kind)"
        );
    }
    assert_eq!(
        ours.count_legal(),
        our_moves.len() as u64,
        "{fen}: count_legal differs from legal_moves().len()"
    );

    // Status.
    assert_eq!(ours.is_check(), theirs.is_check(), "{fen}: is_check");
    assert_eq!(
        ours.checkers().0,
        theirs.checkers().0,
        "{fen}: checkers differ"
    );
    assert_eq!(
        ours.is_checkmate(),
        theirs.is_checkmate(),
        "{fen}: is_checkmate"
    );
    assert_eq!(
        ours.is_stalemate(),
        theirs.is_stalemate(),
        "{fen}: is_stalemate"
    );
    assert_eq!(
        ours.is_insufficient_material(),
        theirs.is_insufficient_material(),
        "{fen}: is_insufficient_material (ours left, shakmaty right)"
    );
    let expected_end = if ours.is_checkmate() {
        Some(planilla_core::GameEnd::Checkmate {
            winner: ours.turn().other(),
        })
    } else if ours.is_stalemate() {
        Some(planilla_core::GameEnd::Stalemate)
    } else if ours.is_insufficient_material() {
        Some(planilla_core::GameEnd::InsufficientMaterial)
    } else {
        None
    };
    assert_eq!(ours.game_end(), expected_end, "{fen}: game_end");

    // En passant that counts for repetition, and the repetition keys.
    assert_eq!(
        ours.legal_ep_square().map(|s| s.index() as u32),
        theirs.legal_ep_square().map(|s| s.to_u32()),
        "{fen}: legal en-passant square"
    );
    let our_key = ours.zobrist();
    let their_key = theirs.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    let (k, f) = tally
        .key_theirs_to_ours
        .entry(their_key)
        .or_insert_with(|| (our_key, fen.clone()));
    assert_eq!(
        *k, our_key,
        "shakmaty calls these positions the same for repetition, our keys differ:\n  {f}\n  {fen}"
    );
    let (k, f) = tally
        .key_ours_to_theirs
        .entry(our_key)
        .or_insert_with(|| (their_key, fen.clone()));
    assert_eq!(
        *k, their_key,
        "our repetition keys collide where shakmaty's differ:\n  {f}\n  {fen}"
    );

    // SAN of every move against shakmaty, and back through every language.
    for (m, tm) in our_moves.iter().zip(&their_moves) {
        let uci = m.to_uci(true);
        let after = ours.play(m);
        let san_plus = San::from_move(ours, m).with_suffix(Suffix::deserved(&after));
        let ours_en = san_plus.to_string_in(Lang::En);
        let theirs_en = shakmaty::san::SanPlus::from_move(theirs.clone(), *tm).to_string();
        assert_eq!(ours_en, theirs_en, "{fen}: SAN of {uci} (ours left)");

        for lang in Lang::ALL {
            let text = san_plus.to_string_in(lang);
            let parsed = San::parse(text.as_bytes(), lang).unwrap_or_else(|e| {
                panic!("{fen}: {uci} written {text:?} in {lang} does not parse: {e}")
            });
            let resolved = parsed.resolve(ours).unwrap_or_else(|e| {
                panic!("{fen}: {uci} written {text:?} in {lang} does not resolve: {e}")
            });
            assert_eq!(
                resolved, *m,
                "{fen}: {uci} written {text:?} in {lang} resolves to another move"
            );
            let notation = parsed.notation(ours, m, Suffix::deserved(&after));
            assert!(
                notation.is_canonical(),
                "{fen}: {uci} written {text:?} in {lang} is judged non-canonical: {notation:?}"
            );
        }

        match m.kind() {
            MoveKind::EnPassant => tally.en_passant += 1,
            MoveKind::Castle(_) => tally.castling += 1,
            MoveKind::Normal if m.promotion().is_some() => tally.promotions += 1,
            MoveKind::Normal => {}
        }
    }

    // Whether a square is attacked, asked quickly, matches the full list of attackers:
    // every square, both colours, as occupied and with the king lifted off (as the
    // king-move checks ask), on the same sample.
    if tally.positions.is_multiple_of(QUICK_EVERY) {
        let board = ours.board();
        let king = board.king_of(ours.turn()).expect("a king");
        for occupied in [board.occupied(), board.occupied().with_toggled(king)] {
            for sq in 0..64u32 {
                let sq = planilla_core::Square::new(sq).expect("a square");
                for color in [planilla_core::Color::White, planilla_core::Color::Black] {
                    assert_eq!(
                        board.is_attacked(sq, color, occupied),
                        board.attackers(sq, color, occupied).any(),
                        "{fen}: {sq} attacked by {color:?}"
                    );
                }
            }
        }
    }

    // Perft on a sample.
    if tally.positions.is_multiple_of(PERFT2_EVERY) {
        let depth = if tally.positions.is_multiple_of(PERFT3_EVERY) {
            3
        } else {
            2
        };
        assert_eq!(
            perft(ours, depth),
            shakmaty::perft(theirs, depth),
            "{fen}: perft {depth} (ours left)"
        );
    }

    tally.positions += 1;
    tally.moves += our_moves.len();
    tally.checkmates += usize::from(ours.is_checkmate());
    tally.stalemates += usize::from(ours.is_stalemate());
    tally.insufficient += usize::from(ours.is_insufficient_material());
    (our_moves, their_moves)
}

#[test]
fn agrees_with_shakmaty_on_random_playouts() {
    let budget = env_or("PLANILLA_DIFF_POSITIONS", POSITION_BUDGET);
    // xorshift must not start from zero.
    let mut rng = XorShift(env_or("PLANILLA_DIFF_SEED", RNG_SEED) | 1);
    let mut tally = Tally::default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut playouts = 0usize;

    let starts: Vec<(&Seed, Position, Chess)> = SEEDS
        .iter()
        .map(|s| {
            let ours = Position::from_fen(s.fen, Validation::Relaxed)
                .unwrap_or_else(|e| panic!("{} ({}): {e}", s.name, s.fen));
            (s, ours, parse_theirs(s.fen, s.chess960))
        })
        .collect();

    'outer: loop {
        for (seed, start_ours, start_theirs) in &starts {
            let mut ours = *start_ours;
            let mut theirs = start_theirs.clone();
            // A third of the playouts pick uniformly; a third prefer
            // captures and promotions, to reach sparse endgames (insufficient
            // material, lone kings) sooner; a third prefer the special moves
            // and what sets them up (double pushes, en passant, castling,
            // promotions).
            let style = rng.below(3);
            playouts += 1;
            // How the current position was reached, for failure messages.
            let mut reached = format!("seed {:?}", seed.name);
            for _ in 0..MAX_PLIES {
                if tally.positions >= budget {
                    break 'outer;
                }
                let (our_moves, their_moves) = if seen.insert(ours.fen()) {
                    check_position(&ours, &theirs, seed.reachable, &reached, &mut tally)
                } else {
                    let mut a = ours.legal_moves().to_vec();
                    a.sort_by_key(norm_ours);
                    let mut b = theirs.legal_moves().to_vec();
                    b.sort_by_key(norm_theirs);
                    (a, b)
                };
                if our_moves.is_empty() || ours.is_insufficient_material() {
                    break;
                }
                let preferred = |m: &Move| match style {
                    1 => m.is_capture() || m.promotion().is_some(),
                    2 => {
                        m.kind() != MoveKind::Normal
                            || m.promotion().is_some()
                            || (m.role() == Role::Pawn
                                && m.from().index().abs_diff(m.to().index()) == 16)
                    }
                    _ => false,
                };
                let mut i = rng.below(our_moves.len());
                if style != 0 && rng.below(4) != 0 {
                    let forcing: Vec<usize> = (0..our_moves.len())
                        .filter(|&j| preferred(&our_moves[j]))
                        .collect();
                    if !forcing.is_empty() {
                        i = forcing[rng.below(forcing.len())];
                    }
                }
                reached = format!("{} played from {}", our_moves[i].to_uci(true), ours.fen());
                ours = ours.play(&our_moves[i]);
                theirs.play_unchecked(their_moves[i]);
            }
        }
    }

    eprintln!(
        "differential: {} positions from {playouts} playouts, {} legal moves \
         ({} en passant, {} castling, {} promotions), {} checkmates, {} stalemates, \
         {} insufficient material",
        tally.positions,
        tally.moves,
        tally.en_passant,
        tally.castling,
        tally.promotions,
        tally.checkmates,
        tally.stalemates,
        tally.insufficient,
    );
    // Guard against the playouts silently missing what they are meant to
    // exercise.
    assert!(tally.en_passant > 0, "no en passant move was checked");
    assert!(tally.castling > 0, "no castling move was checked");
    assert!(tally.promotions > 0, "no promotion was checked");
    assert!(tally.checkmates > 0, "no checkmate was visited");
    assert!(tally.stalemates > 0, "no stalemate was visited");
    assert!(tally.insufficient > 0, "no dead position was visited");
}

/// The seeds themselves, each checked even if the budget ran out first.
#[test]
fn agrees_with_shakmaty_on_seeds() {
    let mut tally = Tally::default();
    for s in SEEDS {
        let ours = Position::from_fen(s.fen, Validation::Relaxed)
            .unwrap_or_else(|e| panic!("{} ({}): {e}", s.name, s.fen));
        let theirs = parse_theirs(s.fen, s.chess960);
        check_position(&ours, &theirs, s.reachable, "seed", &mut tally);
    }
}
