//! `planilla convert`: rewrite move notation in another language.

use crate::input::{
    BarProgress, InputArgs, LangChoice, NotationChoice, collect_sources, progress_bar, show_games,
};
use crate::output::{ColorChoice, Format, Writer};
use crate::staged::Staged;
use anyhow::bail;
use clap::Args;
use planilla_converter::{Conversion, Options, Outcome, OutputEncoding, Target};
use planilla_engine::drive::{Event, Plan, for_each_source};
use planilla_engine::jobs::ConvertJob;
use planilla_parser::Joiner;
use planilla_validator::RulesChoice;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `planilla convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// What to read, and how.
    #[command(flatten)]
    pub input: InputArgs,
    /// Language the moves are written in: auto (decided per game), en, es, it, pt,
    /// fr, de, nl or figurine (`--lang` too, as for every command that reads games).
    #[arg(long, visible_alias = "lang", default_value = "auto")]
    pub from: LangChoice,
    /// What to write: canonical SAN in a language (en, es, it, pt, fr, de, nl or
    /// figurine), long algebraic (lan, or lan-LANG in that language's letters: lan-es),
    /// or ICCF numeric (iccf).
    #[arg(long, default_value = "en")]
    pub to: Target,
    /// Notation of the moves: auto (each move read in the notation its form is, the
    /// game's named in a note), san, lan (long algebraic), iccf (ICCF numeric) or
    /// descriptive (English or Spanish, by --lang or by the moves).
    #[arg(long, default_value = "auto")]
    pub notation: NotationChoice,
    /// Write to this file (through a temporary file renamed into place) instead of
    /// standard output (`-`: standard output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Output encoding: utf-8, windows-1252 or latin-1. A character it cannot hold is
    /// an error, never a substitute.
    #[arg(long, default_value = "utf-8")]
    pub output_encoding: OutputEncoding,
}

/// Runs `planilla convert`: the exit status, or an error (status 2).
pub fn run(args: ConvertArgs, color: ColorChoice) -> anyhow::Result<ExitCode> {
    let options = Options {
        from: args.from.0,
        to: args.to.lang,
        form: args.to.form,
        notation: args.notation.0,
        rules: RulesChoice::default(),
    };
    let pool = crate::thread_pool(args.input.threads)?;
    let inputs = collect_sources(&args.input);
    let mut input_failed = inputs.report();
    let sources = inputs.sources;
    if sources.is_empty() {
        bail!("nothing to convert");
    }

    // `-o -` is standard output, as `-` is standard input.
    let (staged, sink): (Option<Staged>, Box<dyn Write>) = match &args.output {
        Some(path) if path.as_os_str() != "-" => {
            let (staged, file) = Staged::create(path)?;
            (Some(staged), Box::new(file))
        }
        _ => (None, Box::new(io::stdout().lock())),
    };
    let mut out = BufWriter::with_capacity(1 << 16, sink);
    // The games go one after another, a separator line between two of them only where
    // they would otherwise run together (across inputs, or where the input had one).
    let mut joiner = Joiner::new();
    let stderr = io::stderr();
    let color = color.enabled(stderr.is_terminal());
    let mut report = Writer::new(stderr.lock(), Format::Human).with_color(color);
    let (plans, total_size) = Plan::all(&sources);
    let bar = progress_bar(total_size, args.input.quiet);
    let mut counts = Counts::default();

    let result: anyhow::Result<()> = (|| {
        // What ends the whole run (an output error, an unencodable character), kept
        // apart from a read error, which ends only its input.
        let mut failure: Option<anyhow::Error> = None;
        let mut name = String::new();
        let job = ConvertJob {
            options,
            encoding: args.output_encoding,
        };
        let driven = for_each_source(
            &sources,
            &plans,
            args.input.encoding,
            &pool,
            &BarProgress(&bar),
            &job,
            |event: Event<'_, Conversion>| {
                let batch = match event {
                    Event::Opened(source) => {
                        name = source.display_name();
                        joiner.next_input();
                        return Ok(());
                    }
                    Event::Results(batch) => batch,
                    Event::Closed | Event::Failed(_) => return Ok(()),
                };
                for done in batch {
                    counts.games += 1;
                    let bytes = match &done.bytes {
                        Ok(bytes) => bytes,
                        Err(e) => {
                            failure = Some(anyhow::anyhow!("{name}:{e}"));
                            return Err(io::Error::other("unencodable"));
                        }
                    };
                    let whole = done.outcome != Outcome::Skipped;
                    let written = joiner.write_from(&mut out, bytes, done.input.clone(), whole);
                    if let Err(e) = written {
                        failure = Some(output_error(e));
                        return Err(io::Error::other("output failed"));
                    }
                    counts.incomplete += u64::from(done.outcome == Outcome::Incomplete);
                    counts.failed += u64::from(done.outcome == Outcome::Failed);
                    counts.skipped += u64::from(done.outcome == Outcome::Skipped);
                    // Only an ambiguous game's language note is reported.
                    counts.ambiguous += u64::from(done.lang_ambiguous());
                    counts.flawed += u64::from(done.has_text_errors());
                    // The bar is cleared and drawn again around a report: only when
                    // there is one (once a game, it flooded the terminal).
                    if done.reported.is_empty() {
                        continue;
                    }
                    let reported = bar.suspend(|| -> io::Result<()> {
                        for f in &done.reported {
                            report.finding(&name, f)?;
                        }
                        Ok(())
                    });
                    if let Err(e) = reported {
                        failure = Some(anyhow::Error::new(e).context("cannot write the report"));
                        return Err(io::Error::other("report failed"));
                    }
                }
                show_games(&bar, counts.games);
                Ok(())
            },
        );
        if let Some(e) = failure {
            return Err(e);
        }
        input_failed |= driven?;
        out.flush().map_err(output_error)?;
        Ok(())
    })();
    bar.finish_and_clear();
    drop(out);

    if let Err(e) = result {
        // A staged output is dropped here: its temporary file goes, the
        // destination stays as it was.
        drop(staged);
        if broken_pipe(&e) {
            // `planilla convert big.pgn | head`: the reader went away.
            return Ok(ExitCode::SUCCESS);
        }
        return Err(e);
    }
    match staged {
        // Output that misses an input never replaces the destination.
        Some(staged) if input_failed => {
            eprintln!(
                "planilla: {}: not written, an input could not be read (an existing file is left as it was)",
                staged.dest().display()
            );
            return Ok(ExitCode::from(2));
        }
        Some(staged) => staged.commit()?,
        None => {}
    }
    counts.summarize();
    Ok(if input_failed {
        ExitCode::from(2)
    } else if counts.incomplete + counts.failed + counts.skipped + counts.flawed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The output failed: the run ends.
pub fn output_error(e: io::Error) -> anyhow::Error {
    anyhow::Error::new(e).context("cannot write the output")
}

/// Whether the run ended because the reader of standard output went away
/// (`planilla convert big.pgn | head`): a quiet end, status 0.
pub fn broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// Games written, and those not converted in full.
#[derive(Default)]
struct Counts {
    games: u64,
    incomplete: u64,
    failed: u64,
    skipped: u64,
    ambiguous: u64,
    flawed: u64,
}

impl Counts {
    fn summarize(&self) {
        let mut parts = Vec::new();
        if self.incomplete > 0 {
            parts.push(format!(
                "{} could not be fully replayed and keep moves as written (letters translated)",
                self.incomplete
            ));
        }
        if self.skipped > 0 {
            parts.push(format!(
                "{} over a reader limit keep only their tags (movetext skipped)",
                self.skipped
            ));
        }
        if self.flawed > 0 {
            parts.push(format!(
                "{} have errors in their text, reported above and kept as read",
                self.flawed
            ));
        }
        if self.ambiguous > 0 {
            parts.push(format!(
                "{} read legally in two languages were converted from the first (choose with --from)",
                self.ambiguous
            ));
        }
        if self.failed > 0 {
            parts.push(format!(
                "{} failed (internal error) and are written unchanged",
                self.failed
            ));
        }
        if !parts.is_empty() {
            eprintln!(
                "planilla: {} converted; {}",
                match self.games {
                    1 => "1 game".to_string(),
                    n => format!("{n} games"),
                },
                parts.join("; ")
            );
        }
    }
}
