//! `planilla`: validate and convert chess game records.
//!
//! The command line is a contract (`docs/cli.md`): exit
//! status 0 when nothing at or above the failure threshold was found, 1 when
//! something was, 2 for usage errors and unreadable input.

mod archive;
mod baseline;
mod check;
mod config;
mod convert;
mod fix;
mod html;
mod input;
mod json;
mod lsp;
mod merge;
mod output;
mod perft;
mod range;
mod staged;
mod trf;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use output::ColorChoice;
use std::process::ExitCode;

/// Validate and convert chess game records (PGN) in any notation language.
#[derive(Parser, Debug)]
#[command(name = "planilla", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour the findings in the human format: auto (on a terminal, unless NO_COLOR is
    /// set), always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
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
    /// Merge many sources into one archive with each game once: exact and truncated
    /// copies dropped for the richest, longest copy, conflicting copies set apart.
    Merge(merge::MergeArgs),
    /// Serve the Language Server Protocol on standard input and output: check's
    /// findings, fix's repairs and conversions, boards on hover, in the editor.
    Lsp(lsp::LspArgs),
    /// Count the leaf nodes of the legal move tree (move generator check).
    Perft(perft::PerftArgs),
    /// Write an index of a PGN file (where games start, with their numbers and lines,
    /// at most a mebibyte apart) for `check --range` and `fix --range`.
    Index(range::IndexArgs),
    /// Print a completion script for a shell (bash, zsh, fish, powershell, elvish).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), e.g. `planilla man > planilla.1; man ./planilla.1`.
    Man,
}

fn main() -> ExitCode {
    // The matches are kept: they tell which options the command line gave, which win
    // over the configuration file.
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
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
        Command::Check(args) => {
            let given = matches
                .subcommand_matches("check")
                .expect("the check subcommand");
            check::run(args, given, cli.color)
        }
        Command::Convert(args) => convert::run(args, cli.color),
        Command::Fix(args) => {
            let given = matches
                .subcommand_matches("fix")
                .expect("the fix subcommand");
            fix::run(args, given, cli.color)
        }
        Command::Merge(args) => {
            let given = matches
                .subcommand_matches("merge")
                .expect("the merge subcommand");
            merge::run(args, given, cli.color)
        }
        Command::Lsp(args) => lsp::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Index(args) => range::run_index(args),
        Command::Completions { shell } => {
            let mut command = Cli::command();
            clap_complete::generate(shell, &mut command, "planilla", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => man(),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("planilla: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// `planilla man`: the manual page of the command and its subcommands, in one roff
/// document on standard output.
fn man() -> anyhow::Result<ExitCode> {
    use anyhow::Context;
    use std::io::Write;
    let command = Cli::command();
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    man.render_subcommands_section(&mut page)?;
    // One section per subcommand, with its options: what `planilla SUBCOMMAND --help`
    // says, where a reader of the page looks for it.
    for sub in command.get_subcommands() {
        let sub = sub.clone().bin_name(format!("planilla {}", sub.get_name()));
        let sub_man = clap_mangen::Man::new(sub.clone());
        writeln!(page, ".SH \"{}\"", sub.get_name().to_uppercase())?;
        sub_man.render_synopsis_section(&mut page)?;
        sub_man.render_description_section(&mut page)?;
        if sub.get_arguments().any(|a| !a.is_hide_set()) {
            sub_man.render_options_section(&mut page)?;
        }
    }
    man.render_version_section(&mut page)?;
    let mut out = std::io::stdout().lock();
    match out.write_all(&page).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write the manual page")
        }
        _ => Ok(ExitCode::SUCCESS),
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
