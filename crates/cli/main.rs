//! `planilla`: validate and convert chess game records.
//!
//! The command line is a contract (`docs/cli.md`): exit
//! status 0 when nothing at or above the failure threshold was found, 1 when
//! something was, 2 for usage errors and unreadable input.

mod check;
mod convert;
mod drive;
mod fix;
mod input;
mod json;
mod output;
mod perft;
mod pipeline;
mod staged;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Validate and convert chess game records (PGN) in any notation language.
#[derive(Parser, Debug)]
#[command(name = "planilla", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate games: replay every move and variation and report findings.
    Check(check::CheckArgs),
    /// Rewrite move notation in another language (Spanish to English by default).
    Convert(convert::ConvertArgs),
    /// Write the games made whole (canonical moves, consistent results) and set apart
    /// those that cannot be; report every change.
    Fix(fix::FixArgs),
    /// Count the leaf nodes of the legal move tree (move generator check).
    Perft(perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to standard output with status 0; every
            // other parse failure is a usage error, status 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let result = match cli.command {
        Command::Check(args) => check::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Fix(args) => fix::run(args),
        Command::Perft(args) => perft::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("planilla: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The most threads `-j` starts: thousands of threads taking turns at one reader spent
/// minutes passing it around (`-j 10000` never finished), and no machine reads faster
/// with more than this. The output is the same for any number.
const MAX_THREADS: usize = 256;

/// Builds the rayon pool for `-j N` (0 = all cores; at most [`MAX_THREADS`]).
fn thread_pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.min(MAX_THREADS))
        .build()
        .context("cannot start worker threads")
}
