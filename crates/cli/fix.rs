//! `planilla fix`: write the games made whole, set apart those that cannot be, and
//! report every change.
//!
//! The fixed games go to standard output, to `-o FILE`, or back into each input file
//! (`--in-place`); every file written is staged beside its destination and renamed over
//! it at the end, only when the run succeeded (for `--in-place`, when that file was read
//! whole), the rejects first, so that a game taken out of a file is never lost. The
//! report goes where the games do not: on standard error when the games go to standard
//! output, else on standard output.

use crate::config::{ConfigArgs, Given};
use crate::convert::{broken_pipe, output_error};
use crate::input::{
    BarProgress, Compression, InputArgs, LangChoice, NotationChoice, Source, collect_sources,
    progress_bar, show_games,
};
use crate::output::{ColorChoice, FixTotals, Format, Totals, Writer};
use crate::range::RangeArgs;
use crate::staged::Staged;
use anyhow::bail;
use clap::{ArgMatches, Args};
use planilla_converter::{FixOptions, Fixed};
use planilla_core::san::Lang;
use planilla_engine::drive::{Event, Plan, for_each_source};
use planilla_engine::jobs::FixJob;
use planilla_parser::{Encoding, Joiner};
use planilla_validator::RulesChoice;
use planilla_validator::trf::TrfCheck;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `planilla fix`.
#[derive(Args, Debug)]
pub struct FixArgs {
    /// What to read, and how.
    #[command(flatten)]
    pub input: InputArgs,
    /// Notation language of the moves: auto (decided per game), en, es, it, pt, fr,
    /// de, nl or figurine.
    #[arg(long, default_value = "auto")]
    pub lang: LangChoice,
    /// Notation of the moves: auto (each move read in the notation its form is, the
    /// game's named in a note), san, lan (long algebraic), iccf (ICCF numeric) or
    /// descriptive (English or Spanish, by --lang or by the moves).
    #[arg(long, default_value = "auto")]
    pub notation: NotationChoice,
    /// Language to write: en, es, it, pt, fr, de, nl or figurine (default: each game's
    /// own).
    #[arg(long)]
    pub to: Option<Lang>,
    /// Edition of the FIDE Laws for draw rules: by-date (each game by the edition in
    /// force on its Date), or fide-2023, fide-2009, fide-2005 for every game.
    #[arg(long, default_value = "by-date")]
    pub rules: RulesChoice,
    /// Format of the report of changes and findings.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Write the games to this file (through a temporary file renamed into place)
    /// instead of standard output (`-`: standard output).
    #[arg(short, long, conflicts_with = "in_place")]
    pub output: Option<PathBuf>,
    /// Rewrite each input file with its games (each through a temporary file renamed
    /// into place).
    #[arg(long)]
    pub in_place: bool,
    /// Write the games that cannot be made whole to this file, byte for byte as they
    /// came, instead of writing them unchanged with the others.
    #[arg(long)]
    pub rejects: Option<PathBuf>,
    /// Repair a game's first illegal or ambiguous move when exactly one reading within
    /// one edit of it (a character replaced, deleted, inserted or swapped, a piece letter
    /// of another language, a capture mark) lets the game replay to its end.
    #[arg(long)]
    pub repair: bool,
    /// Write the result of this FIDE tournament report file (TRF) where a game's
    /// result differs from it and the record does not decide another (the end on the
    /// board, a win on time that cannot be one, an electronic board's signal).
    #[arg(long, value_name = "FILE")]
    pub trf: Option<PathBuf>,
    /// One byte range of one file.
    #[command(flatten)]
    pub range: RangeArgs,
    /// Where options come from besides the command line.
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// A file being written, staged beside its destination (or standard output).
struct Sink {
    staged: Option<Staged>,
    out: BufWriter<Box<dyn Write>>,
    /// The games go one after another, a separator line between two of them where they
    /// would otherwise run together, so that the file reads back as these games.
    joiner: Joiner,
}

impl Sink {
    /// Standard output for `None` or `-`, else a staged file.
    fn open(path: Option<&PathBuf>) -> anyhow::Result<Sink> {
        let (staged, out): (Option<Staged>, Box<dyn Write>) = match path {
            Some(path) if path.as_os_str() != "-" => {
                let (staged, file): (Staged, File) = Staged::create(path)?;
                (Some(staged), Box::new(file))
            }
            _ => (None, Box::new(io::stdout().lock())),
        };
        Ok(Sink {
            staged,
            out: BufWriter::with_capacity(1 << 16, out),
            joiner: Joiner::new(),
        })
    }

    /// Writes one game's bytes after the games written before.
    fn write_game(&mut self, game: &[u8]) -> io::Result<()> {
        self.joiner.write(&mut self.out, game)
    }

    /// Flushes and closes the file, leaving it staged (`None` for standard output).
    fn finish(mut self) -> anyhow::Result<Option<Staged>> {
        self.out.flush().map_err(output_error)?;
        drop(self.out);
        Ok(self.staged)
    }
}

/// Runs `planilla fix`: the exit status, or an error (status 2).
pub fn run(
    mut args: FixArgs,
    matches: &ArgMatches,
    color: ColorChoice,
) -> anyhow::Result<ExitCode> {
    // planilla.toml: the options fix shares with check (command-line options win).
    let file = crate::config::Config::load(&args.config)?;
    let given = Given(matches);
    file.apply_run_options(&given, &mut args.format, &mut args.input);
    let pool = crate::thread_pool(args.input.threads)?;
    let inputs = collect_sources(&args.input);
    let mut input_failed = inputs.report();
    let sources = inputs.sources;
    if sources.is_empty() {
        bail!("nothing to fix");
    }
    // Runs of sources fixed alike (the file's overrides), in input order, each with its
    // TRF (read once).
    let mut groups: Vec<(
        FixOptions,
        Encoding,
        Option<PathBuf>,
        std::ops::Range<usize>,
    )> = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        let path = match source {
            Source::File(path) => Some(path.as_path()),
            Source::Stdin => None,
        };
        let settings = file.settings_for(path);
        let options = FixOptions {
            from: given.pick("lang", args.lang, settings.lang).0,
            to: args.to,
            rules: given.pick("rules", args.rules, settings.rules),
            notation: given.pick("notation", args.notation, settings.notation).0,
            repair: args.repair,
        };
        let encoding = given.pick("encoding", args.input.encoding, settings.encoding);
        let trf = given.pick("trf", args.trf.clone(), settings.trf.map(Some));
        match groups.last_mut() {
            Some((o, e, t, range)) if (*o, *e, &*t) == (options, encoding, &trf) => {
                range.end = i + 1
            }
            _ => groups.push((options, encoding, trf, i..i + 1)),
        }
    }
    if args.range.range.is_some() && groups.iter().any(|(_, _, trf, _)| trf.is_some()) {
        bail!("--range cannot be used with --trf");
    }
    let mut trfs: HashMap<PathBuf, Arc<TrfCheck>> = HashMap::new();
    for (_, _, trf, _) in &groups {
        if let Some(path) = trf
            && !trfs.contains_key(path)
        {
            let check = crate::trf::read_trf(path, &path.display().to_string())?;
            trfs.insert(path.clone(), Arc::new(check));
        }
    }
    if args.in_place {
        for source in &sources {
            match source {
                Source::Stdin => bail!(
                    "--in-place cannot rewrite standard input: name the files, or write with -o"
                ),
                Source::File(path) if Compression::from_path(path) != Compression::None => bail!(
                    "--in-place cannot rewrite the compressed file {}: write with -o",
                    path.display()
                ),
                Source::File(_) => {}
            }
        }
    }
    if let (Some(out), Some(rejects)) = (&args.output, &args.rejects)
        && out == rejects
    {
        bail!("-o and --rejects name the same file {}", out.display());
    }

    let games_on_stdout = !args.in_place && args.output.as_ref().is_none_or(|p| p == "-");
    let (report_to, terminal): (Box<dyn Write>, bool) = if games_on_stdout {
        (Box::new(io::stderr().lock()), io::stderr().is_terminal())
    } else {
        (Box::new(io::stdout().lock()), io::stdout().is_terminal())
    };
    let mut report =
        Writer::new(BufWriter::new(report_to), args.format).with_color(color.enabled(terminal));
    let mut output = if args.in_place {
        None
    } else {
        Some(Sink::open(args.output.as_ref())?)
    };
    let mut rejects = args
        .rejects
        .as_ref()
        .map(|p| Sink::open(Some(p)))
        .transpose()?;
    let (mut plans, _) = Plan::all(&sources);
    args.range.apply(&sources, &mut plans)?;
    // A range's bar counts the range's bytes.
    let bar = progress_bar(Plan::total(&plans), args.input.quiet);
    let mut totals = Totals {
        fix: Some(FixTotals::default()),
        ..Totals::default()
    };
    let mut failures: Vec<String> = inputs.problems.clone();
    // The files rewritten in place, staged until the rejects taken out of them are safe.
    let mut rewritten: Vec<Staged> = Vec::new();

    let result: anyhow::Result<()> = (|| {
        // What ends the whole run (an output error), kept apart from a read error,
        // which ends only its input.
        let mut failure: Option<anyhow::Error> = None;
        let mut name = String::new();
        // The file being rewritten in place, and whether its reading failed.
        let mut in_place: Option<Sink> = None;
        let mut source_failed = false;
        report.begin()?;
        let mut on = |event: Event<'_, Fixed>| {
            let stop = |failure: &mut Option<anyhow::Error>, e: anyhow::Error| {
                *failure = Some(e);
                io::Error::other("stopped")
            };
            match event {
                Event::Opened(source) => {
                    name = source.display_name();
                    totals.files += 1;
                    source_failed = false;
                    if let Source::File(path) = source
                        && args.in_place
                    {
                        in_place = Some(Sink::open(Some(path)).map_err(|e| stop(&mut failure, e))?);
                    }
                }
                Event::Results(batch) => {
                    for fixed in batch {
                        let fix = totals.fix.get_or_insert_default();
                        totals.games += 1;
                        totals.plies += fixed.plies;
                        fix.changes += fixed.changes.len() as u64;
                        let to_rejects = match (&fixed.rejected, rejects.as_mut()) {
                            (Some(raw), Some(sink)) => Some((raw, sink)),
                            _ => None,
                        };
                        fix.rejected += u64::from(fixed.rejected.is_some());
                        let written = match to_rejects {
                            Some((raw, sink)) => sink.write_game(raw),
                            None => {
                                let sink = in_place.as_mut().or(output.as_mut());
                                sink.map_or(Ok(()), |s| s.write_game(&fixed.bytes))
                            }
                        };
                        written.map_err(|e| stop(&mut failure, output_error(e)))?;
                        for f in &fixed.reported {
                            totals.count(f.severity());
                        }
                        // The bar is cleared and drawn again around a game's report,
                        // and only when it has one; the report is flushed inside, as
                        // it may share standard error with the bar.
                        if fixed.reported.is_empty() && fixed.changes.is_empty() {
                            continue;
                        }
                        let reported = bar.suspend(|| -> io::Result<()> {
                            for f in &fixed.reported {
                                report.finding(&name, f)?;
                            }
                            for c in &fixed.changes {
                                report.change(&name, c)?;
                            }
                            report.flush()
                        });
                        reported.map_err(|e| stop(&mut failure, report_error(e)))?;
                    }
                    show_games(&bar, totals.games);
                }
                Event::Failed(message) => {
                    source_failed = true;
                    failures.push(message.to_string());
                }
                Event::Closed => {
                    report
                        .flush()
                        .map_err(|e| stop(&mut failure, report_error(e)))?;
                    if let Some(sink) = in_place.take() {
                        // A file not read to its end is never replaced by part of it.
                        if source_failed {
                            drop(sink);
                        } else {
                            let staged = sink.finish().map_err(|e| stop(&mut failure, e))?;
                            rewritten.extend(staged);
                        }
                    }
                }
            }
            Ok(())
        };
        let mut driven: io::Result<bool> = Ok(false);
        for (options, encoding, trf, range) in &groups {
            let job = FixJob {
                options: *options,
                trf: trf.as_ref().map(|path| Arc::clone(&trfs[path])),
            };
            match for_each_source(
                &sources[range.clone()],
                &plans[range.clone()],
                *encoding,
                &pool,
                &BarProgress(&bar),
                &job,
                &mut on,
            ) {
                Ok(unread) => driven = driven.map(|any| any | unread),
                Err(e) => {
                    driven = Err(e);
                    break;
                }
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
        input_failed |= driven?;
        Ok(())
    })();
    bar.finish_and_clear();

    if let Err(e) = result {
        // Staged files are dropped here: their temporary files go, the destinations
        // stay as they were.
        drop((output, rejects, rewritten));
        if broken_pipe(&e) {
            return Ok(ExitCode::SUCCESS);
        }
        return Err(e);
    }
    report.end(&totals, &failures).map_err(report_error)?;
    // Output that misses an input never replaces a destination (each file rewritten in
    // place was read whole).
    if input_failed && (args.output.is_some() || args.rejects.is_some()) && !args.in_place {
        eprintln!(
            "planilla: not written, an input could not be read (existing files are left as they were)"
        );
        return Ok(ExitCode::from(2));
    }
    // The rejects first: a file rewritten in place no longer holds its rejected games.
    for sink in [rejects, output].into_iter().flatten() {
        if let Some(staged) = sink.finish()? {
            staged.commit()?;
        }
    }
    for staged in rewritten {
        staged.commit()?;
    }
    let rejected = totals.fix.is_some_and(|f| f.rejected > 0);
    Ok(if input_failed {
        ExitCode::from(2)
    } else if rejected {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The report failed: the run ends.
fn report_error(e: io::Error) -> anyhow::Error {
    anyhow::Error::new(e).context("cannot write the report")
}
