//! Perft throughput of planilla-core against shakmaty 0.30.1, in one run on
//! the same positions, single-threaded.
//!
//! Each position is timed for several rounds; within a round the variants
//! run back to back, and the order rotates from round to round so none
//! always runs on a warmer (or hotter) machine. A sample repeats the perft
//! until it lasts at least 150 ms. The table shows
//! the median nodes per second of each and the ratio ours / shakmaty.
//!
//! Both sides count the last ply without making its moves: ours with
//! `count_legal` (no move list at all), `shakmaty::perft` with the length of
//! its move list. A third column runs our perft listing the last ply's moves
//! too, so the comparison without that shortcut is visible as well.
//!
//! Run with `scripts/bench perft [ROUNDS] [FILTER...]` or
//! `cargo bench -p planilla-core --bench perft -- [--rounds N] [FILTER...]`.
//!
//! shakmaty (GPL-3.0) is only a reference here: none of its code is copied.

use std::hint::black_box;
use std::time::{Duration, Instant};

use planilla_core::{MoveList, Position, Validation};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// One benchmark position with its published perft count.
struct Case {
    name: &'static str,
    fen: &'static str,
    chess960: bool,
    depth: u32,
    nodes: u64,
}

const CASES: &[Case] = &[
    Case {
        name: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        chess960: false,
        depth: 5,
        nodes: 4_865_609,
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        chess960: false,
        depth: 4,
        nodes: 4_085_603,
    },
    Case {
        name: "position 3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        chess960: false,
        depth: 5,
        nodes: 674_624,
    },
    Case {
        name: "position 4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        chess960: false,
        depth: 4,
        nodes: 422_333,
    },
    Case {
        name: "chess960 2",
        fen: "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        chess960: true,
        depth: 4,
        nodes: 667_366,
    },
];

const DEFAULT_ROUNDS: usize = 7;

/// What the command line asked for (cargo passes `--bench` as well, which is
/// ignored).
struct Args {
    rounds: usize,
    filters: Vec<String>,
}

fn parse_args() -> Args {
    let mut args = Args {
        rounds: DEFAULT_ROUNDS,
        filters: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        if arg == "--rounds" {
            let n = it.next().and_then(|s| s.parse().ok());
            match n {
                Some(n) if n > 0 => args.rounds = n,
                _ => {
                    eprintln!("bench perft: --rounds needs a positive number");
                    std::process::exit(2);
                }
            }
        } else if !arg.starts_with('-') {
            args.filters.push(arg);
        }
    }
    args
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    }
}

fn mnps(nodes: u64, t: Duration) -> f64 {
    nodes as f64 / t.as_secs_f64() / 1e6
}

/// Runs `f` `reps` times and checks every count; returns the elapsed time.
fn time(mut f: impl FnMut() -> u64, reps: u32, who: &str, case: &Case) -> Duration {
    let start = Instant::now();
    for _ in 0..reps {
        let n = black_box(f());
        assert_eq!(
            n, case.nodes,
            "{who}: perft({}) of {} ({})",
            case.depth, case.name, case.fen
        );
    }
    start.elapsed()
}

/// Perft that lists the moves at the last ply too (as `shakmaty::perft`
/// does), to separate the leaf-counting shortcut from the rest.
fn perft_listing(pos: &Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    let Some((list, deeper)) = lists.split_first_mut() else {
        return 1;
    };
    pos.legal_moves_into(list);
    if depth <= 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for m in list.iter() {
        nodes += perft_listing(&pos.play(m), depth - 1, deeper);
    }
    nodes
}

/// Samples shorter than this are repeated, so timer and scheduler noise
/// stay small against the measurement.
const MIN_SAMPLE: Duration = Duration::from_millis(150);

fn main() {
    let args = parse_args();
    let cases: Vec<&Case> = CASES
        .iter()
        .filter(|c| args.filters.is_empty() || args.filters.iter().any(|f| c.name.contains(f)))
        .collect();

    println!(
        "perft, single thread, median of {} alternating rounds (Mnps = million leaf nodes per second)",
        args.rounds
    );
    println!(
        "\"listing\" = planilla perft that also lists the last ply's moves, as shakmaty::perft does"
    );
    println!();
    println!(
        "| {:<12} | {:>5} | {:>10} | {:>13} | {:>13} | {:>13} | {:>11} | {:>15} |",
        "position",
        "depth",
        "nodes",
        "planilla Mnps",
        "listing Mnps",
        "shakmaty Mnps",
        "ours/shak",
        "listing/shak"
    );
    println!(
        "|{:-<14}|{:->7}|{:->12}|{:->15}|{:->15}|{:->15}|{:->13}|{:->17}|",
        "", "", "", "", "", "", "", ""
    );

    let mut log_ratio_sum = 0.0;
    let mut totals = [0.0f64; 3];
    let mut total_nodes = 0u64;
    for case in &cases {
        let ours = Position::from_fen(case.fen, Validation::Relaxed)
            .unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        let mode = if case.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let theirs: Chess = Fen::from_ascii(case.fen.as_bytes())
            .unwrap_or_else(|e| panic!("{}: {e}", case.fen))
            .into_position(mode)
            .unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        let mut lists = vec![MoveList::new(); case.depth as usize];

        let ours_once = || planilla_core::perft::perft(black_box(&ours), case.depth);
        let listing_once =
            |lists: &mut [MoveList]| perft_listing(black_box(&ours), case.depth, lists);
        let theirs_once = || shakmaty::perft(black_box(&theirs), case.depth);

        // Warm up each once and size the samples from the slowest.
        let warm = [
            time(ours_once, 1, "planilla", case),
            time(|| listing_once(&mut lists), 1, "planilla listing", case),
            time(theirs_once, 1, "shakmaty", case),
        ];
        let slowest = warm.into_iter().max().unwrap_or(MIN_SAMPLE);
        let reps = (MIN_SAMPLE.as_secs_f64() / slowest.as_secs_f64().max(1e-9)).ceil() as u32;
        let reps = reps.max(1);

        let mut samples: [Vec<Duration>; 3] = Default::default();
        for round in 0..args.rounds {
            // Rotate the order so each runs first, second and third in turn.
            for k in 0..3 {
                let which = (round + k) % 3;
                let t = match which {
                    0 => time(ours_once, reps, "planilla", case),
                    1 => time(|| listing_once(&mut lists), reps, "planilla listing", case),
                    _ => time(theirs_once, reps, "shakmaty", case),
                };
                samples[which].push(t);
            }
        }
        let nodes = case.nodes * u64::from(reps);
        let med: Vec<Duration> = samples.iter_mut().map(|s| median(s)).collect();
        let ratio = med[2].as_secs_f64() / med[0].as_secs_f64();
        let ratio_listing = med[2].as_secs_f64() / med[1].as_secs_f64();
        log_ratio_sum += ratio.ln();
        for (total, m) in totals.iter_mut().zip(&med) {
            *total += m.as_secs_f64() / f64::from(reps);
        }
        total_nodes += case.nodes;
        println!(
            "| {:<12} | {:>5} | {:>10} | {:>13.1} | {:>13.1} | {:>13.1} | {:>10.2}x | {:>14.2}x |",
            case.name,
            case.depth,
            case.nodes,
            mnps(nodes, med[0]),
            mnps(nodes, med[1]),
            mnps(nodes, med[2]),
            ratio,
            ratio_listing,
        );
    }
    if !cases.is_empty() {
        let per_sec = |t: f64| total_nodes as f64 / t / 1e6;
        println!(
            "| {:<12} | {:>5} | {:>10} | {:>13.1} | {:>13.1} | {:>13.1} | {:>10.2}x | {:>14.2}x |",
            "all",
            "",
            total_nodes,
            per_sec(totals[0]),
            per_sec(totals[1]),
            per_sec(totals[2]),
            totals[2] / totals[0],
            totals[2] / totals[1],
        );
        println!();
        println!(
            "geometric mean of ours/shak: {:.2}x",
            (log_ratio_sum / cases.len() as f64).exp()
        );
    }
}
