//! `planilla perft`: count leaf nodes, alone or over a suite file.

use anyhow::{Context, bail};
use clap::Args;
use planilla_core::perft::{parse_suite, perft, suite_position};
use planilla_core::{Position, Validation};
use rayon::prelude::*;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `planilla perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The position, as FEN (X-FEN and Shredder-FEN castling accepted).
    #[arg(required_unless_present = "suite")]
    fen: Option<String>,
    /// How many plies deep to count.
    #[arg(required_unless_present = "suite")]
    depth: Option<u32>,
    /// A suite file: `.perft` (`epd FEN` then `perft DEPTH NODES` lines) or
    /// `.epd` (`FEN ;D1 20 ;D2 400 ...`). Every count is checked.
    #[arg(long, conflicts_with_all = ["fen", "depth"])]
    suite: Option<std::path::PathBuf>,
    /// Skip suite counts above this many nodes.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Print the count below each root move (in UCI notation).
    #[arg(long, conflicts_with = "suite")]
    divide: bool,
    /// Print timing and nodes per second on standard error.
    #[arg(long)]
    stats: bool,
    /// Worker threads (default: all cores); root moves are split among them.
    #[arg(short = 'j', long, default_value_t = 0)]
    threads: usize,
}

/// Counts nodes, splitting the root moves across the pool's threads.
fn parallel_perft(pos: &Position, depth: u32) -> u64 {
    if depth <= 2 {
        return perft(pos, depth);
    }
    let moves = pos.legal_moves();
    moves
        .par_iter()
        .map(|m| perft(&pos.play(m), depth - 1))
        .sum()
}

/// Runs `planilla perft`: the exit status, or an error (status 2).
pub fn run(args: PerftArgs) -> anyhow::Result<ExitCode> {
    let pool = crate::thread_pool(args.threads)?;
    pool.install(|| match &args.suite {
        Some(path) => run_suite(path, &args),
        None => run_single(&args),
    })
}

fn run_single(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let (Some(fen), Some(depth)) = (&args.fen, args.depth) else {
        bail!("give a FEN and a depth, or --suite FILE");
    };
    let pos = Position::from_fen(fen, Validation::Relaxed)
        .with_context(|| format!("cannot use fen '{fen}'"))?;
    let start = Instant::now();
    let mut out = std::io::stdout().lock();
    let total = if args.divide && depth > 0 {
        let moves = pos.legal_moves();
        let counts: Vec<u64> = moves
            .par_iter()
            .map(|m| perft(&pos.play(m), depth - 1))
            .collect();
        let chess960 = !pos.has_standard_castling();
        for (m, n) in moves.iter().zip(&counts) {
            writeln!(out, "{}: {n}", m.to_uci(chess960))?;
        }
        counts.iter().sum()
    } else {
        parallel_perft(&pos, depth)
    };
    writeln!(out, "{total}")?;
    if args.stats {
        report_speed(total, start);
    }
    Ok(ExitCode::SUCCESS)
}

fn report_speed(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{nodes} nodes in {secs:.3} s ({:.1} Mnps)",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
}

/// The outcome of one suite line.
enum Outcome {
    Pass,
    Fail(String),
}

fn run_suite(path: &std::path::Path, args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read suite {}", path.display()))?;
    let entries =
        parse_suite(&text).with_context(|| format!("{}: malformed suite", path.display()))?;
    let max = args.max_nodes.unwrap_or(u64::MAX);
    let start = Instant::now();
    // Every (position, depth) pair is one check; they run in parallel and
    // are reported in file order.
    let results: Vec<(usize, Vec<(u64, Outcome)>)> = entries
        .par_iter()
        .enumerate()
        .map(|(i, entry)| {
            let pos = match suite_position(entry) {
                Ok(pos) => pos,
                Err(e) => {
                    let n = entry
                        .counts
                        .iter()
                        .filter(|(_, n)| *n <= max)
                        .count()
                        .max(1);
                    let msg = format!(
                        "{}:{}: cannot use fen '{}': {e}",
                        path.display(),
                        entry.line,
                        entry.fen
                    );
                    return (i, (0..n).map(|_| (0, Outcome::Fail(msg.clone()))).collect());
                }
            };
            let checks = entry
                .counts
                .iter()
                .zip(&entry.count_lines)
                .filter(|((_, n), _)| *n <= max)
                .map(|(&(depth, expected), line)| {
                    let got = parallel_perft(&pos, depth);
                    let outcome = if got == expected {
                        Outcome::Pass
                    } else {
                        Outcome::Fail(format!(
                            "{}:{line}: depth {depth}: expected {expected} nodes, counted {got} ({})",
                            path.display(),
                            entry.fen
                        ))
                    };
                    (got, outcome)
                })
                .collect();
            (i, checks)
        })
        .collect();

    let (mut passed, mut failed, mut nodes) = (0u64, 0u64, 0u64);
    let mut out = std::io::stdout().lock();
    let mut seen_fail = std::collections::HashSet::new();
    for (_, checks) in &results {
        for (n, outcome) in checks {
            nodes += n;
            match outcome {
                Outcome::Pass => passed += 1,
                Outcome::Fail(msg) => {
                    failed += 1;
                    if seen_fail.insert(msg.clone()) {
                        writeln!(out, "{msg}")?;
                    }
                }
            }
        }
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    if args.stats {
        report_speed(nodes, start);
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
