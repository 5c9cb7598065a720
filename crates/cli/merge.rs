//! `planilla merge`: many sources in, one archive out, each game once.
//!
//! The run is the engine's ([`planilla_engine::merge`]): the inputs are read twice,
//! once to judge every game as `check --archive` does and plan which copy of each game
//! is written, once to write. This module reads the arguments, spools standard input to
//! a temporary file so that it can be read twice, drives both passes, stages the output
//! files (renamed into place only when the run succeeded) and writes the report: on
//! standard error when the games go to standard output, else on standard output.

use crate::config::{ConfigArgs, Given};
use crate::convert::{broken_pipe, output_error};
use crate::input::{
    BarProgress, InputArgs, LangChoice, NotationChoice, Source, collect_sources, progress_bar,
};
use crate::json::{self, JsonMerge, MergeSummary};
use crate::output::{ColorChoice, Format, Writer};
use crate::staged::{Scratch, Staged};
use anyhow::{Context, bail};
use clap::{ArgMatches, Args, ValueEnum};
use planilla_converter::OutputEncoding;
use planilla_engine::drive::{Event, Plan, for_each_source};
use planilla_engine::merge::{
    JudgeJob, Judged, Merge, MergeCounts, MergeLine, MergeOptions, Sinks, WriteJob,
};
use planilla_parser::Encoding;
use planilla_validator::{Config, RulesChoice, Severity};
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;

/// `--tags`: what the kept copy does with the tags of the copies dropped for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Tags {
    /// Keep its own tags only.
    #[default]
    Keep,
    /// Take the tags with a known value that only dropped copies have (a FideId, an
    /// ECO, a TimeControl), never changing one it has; each is a report line.
    Merge,
}

/// `--sort`: the order of the games written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Sort {
    /// Input order of each game's first copy.
    #[default]
    Input,
    /// Date, then Event, Round and Board (unknown parts last), then input order.
    Date,
}

/// `--format`: the formats of merge's report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MergeFormat {
    /// One line per game not written and per tag taken, then the summary.
    #[default]
    Human,
    /// One JSON object per line (`"type":"merge"`), then a summary object.
    Jsonl,
}

impl From<MergeFormat> for Format {
    fn from(format: MergeFormat) -> Format {
        match format {
            MergeFormat::Human => Format::Human,
            MergeFormat::Jsonl => Format::Jsonl,
        }
    }
}

/// Arguments of `planilla merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
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
    /// Edition of the FIDE Laws: by-date (each game by its Date), fide-2023, fide-2009
    /// or fide-2005.
    #[arg(long, default_value = "by-date")]
    pub rules: RulesChoice,
    /// Format of the report.
    #[arg(long, value_enum, default_value_t = MergeFormat::Human)]
    pub format: MergeFormat,
    /// Write the merged games to this file (through a temporary file renamed into place)
    /// instead of standard output (`-`: standard output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Set apart every copy of a group of conflicting copies in this file, byte for
    /// byte, none in the output (without it: the first copy is kept, with a warning).
    #[arg(long)]
    pub conflicts: Option<PathBuf>,
    /// Write the dropped copies to this file, byte for byte as read.
    #[arg(long)]
    pub dropped: Option<PathBuf>,
    /// Whether the kept copy takes the tags only dropped copies have.
    #[arg(long, value_enum, default_value_t = Tags::Keep)]
    pub tags: Tags,
    /// Order of the games written: input (of each game's first copy) or date.
    #[arg(long, value_enum, default_value_t = Sort::Input)]
    pub sort: Sort,
    /// Encoding of the output: utf-8, windows-1252 or latin-1 (never substituted: a
    /// kept game with a character it cannot hold ends the run, status 2).
    #[arg(long, default_value = "utf-8")]
    pub output_encoding: OutputEncoding,
    /// Where options come from besides the command line.
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// Runs `planilla merge`: the exit status, or an error (status 2).
pub fn run(
    mut args: MergeArgs,
    matches: &ArgMatches,
    color: ColorChoice,
) -> anyhow::Result<ExitCode> {
    let file = crate::config::Config::load(&args.config)?;
    let given = Given(matches);
    // The file's format applies when it is one merge writes.
    let mut format = Format::from(args.format);
    file.apply_run_options(&given, &mut format, &mut args.input);
    if !matches!(format, Format::Human | Format::Jsonl) {
        format = args.format.into();
    }
    let pool = crate::thread_pool(args.input.threads)?;
    let inputs = collect_sources(&args.input);
    if inputs.report() {
        eprintln!("planilla: nothing written: an input cannot be read");
        return Ok(ExitCode::from(2));
    }
    let mut sources = inputs.sources;
    if sources.is_empty() {
        bail!("nothing to merge");
    }
    let out_path = args.output.clone().filter(|p| p.as_os_str() != "-");
    let named: Vec<(&str, &PathBuf)> = [
        ("-o", out_path.as_ref()),
        ("--conflicts", args.conflicts.as_ref()),
        ("--dropped", args.dropped.as_ref()),
    ]
    .into_iter()
    .filter_map(|(flag, p)| p.map(|p| (flag, p)))
    .collect();
    for (i, (flag, path)) in named.iter().enumerate() {
        if let Some((other, _)) = named[..i].iter().find(|(_, p)| p == path) {
            bail!("{other} and {flag} name the same file {}", path.display());
        }
        let clean = crate::input::clean_absolute(path);
        if sources
            .iter()
            .any(|s| matches!(s, Source::File(p) if crate::input::clean_absolute(p) == clean))
        {
            bail!(
                "{flag} {} is also an input: write the merge to another file",
                path.display()
            );
        }
    }

    // Standard input is read twice: spooled to a temporary file first.
    let mut stdin_spool: Option<Scratch> = None;
    for source in &mut sources {
        if *source == Source::Stdin {
            let spool = tempfile::NamedTempFile::new()
                .context("cannot create a temporary file for standard input")?;
            let (mut file, path) = spool.into_parts();
            let scratch = Scratch::new(path)?;
            io::copy(&mut io::stdin().lock(), &mut file).context("cannot read standard input")?;
            *source = Source::File(scratch.path().to_path_buf());
            stdin_spool = Some(scratch);
        }
    }
    let is_spool = |p: &PathBuf| stdin_spool.as_ref().is_some_and(|s| s.path() == p);
    let display = |source: &Source| match source {
        Source::File(p) if is_spool(p) => "<stdin>".to_string(),
        _ => source.display_name(),
    };

    // Runs of sources read alike (the file's overrides), in input order.
    let mut groups: Vec<(Config, Encoding, Range<usize>)> = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        let path = match source {
            Source::File(p) if is_spool(p) => None,
            Source::File(p) => Some(p.as_path()),
            Source::Stdin => None,
        };
        let settings = file.settings_for(path);
        let config = Config {
            rules: given.pick("rules", args.rules, settings.rules),
            lang: given.pick("lang", args.lang, settings.lang).0,
            notation: given.pick("notation", args.notation, settings.notation).0,
        };
        let encoding = given.pick("encoding", args.input.encoding, settings.encoding);
        match groups.last_mut() {
            Some((c, e, range)) if (*c, *e) == (config, encoding) => range.end = i + 1,
            _ => groups.push((config, encoding, i..i + 1)),
        }
    }

    let games_on_stdout = out_path.is_none();
    let (report_to, terminal): (Box<dyn Write>, bool) = if games_on_stdout {
        (Box::new(io::stderr().lock()), io::stderr().is_terminal())
    } else {
        (Box::new(io::stdout().lock()), io::stdout().is_terminal())
    };
    let color = color.enabled(terminal);
    let mut report = Report {
        writer: Writer::new(BufWriter::new(report_to), format).with_color(color),
        format,
        color,
        warnings: 0,
        json: Vec::new(),
    };
    let options = MergeOptions {
        set_apart_conflicts: args.conflicts.is_some(),
        take_tags: args.tags == Tags::Merge,
        sort_by_date: args.sort == Sort::Date,
        encoding: args.output_encoding,
    };
    let (plans, total) = Plan::all(&sources);
    let mut merge = Merge::new(options);
    let mut failures: Vec<String> = Vec::new();

    // Pass 1: judge.
    let bar = progress_bar(total, args.input.quiet);
    let mut input_failed = false;
    for (config, encoding, range) in &groups {
        let job = JudgeJob { config: *config };
        let unread = for_each_source(
            &sources[range.clone()],
            &plans[range.clone()],
            *encoding,
            &pool,
            &BarProgress(&bar),
            &job,
            |event: Event<'_, Judged>| {
                match event {
                    Event::Opened(source) => merge.open(&display(source)),
                    Event::Results(batch) => merge.judged(batch)?,
                    Event::Failed(message) => failures.push(message.to_string()),
                    Event::Closed => {}
                }
                Ok(())
            },
        )
        .context("cannot judge the games")?;
        input_failed |= unread;
    }
    bar.finish_and_clear();
    if input_failed {
        eprintln!("planilla: nothing written: an input could not be read");
        return Ok(ExitCode::from(2));
    }
    let findings = merge.plan().context("cannot judge the games")?;

    // Pass 2: write.
    let mut out = Output::open(out_path.as_ref())?;
    let mut dropped = args
        .dropped
        .as_ref()
        .map(|p| Output::open(Some(p)))
        .transpose()?;
    let mut conflicts = args
        .conflicts
        .as_ref()
        .map(|p| Output::open(Some(p)))
        .transpose()?;
    let bar = progress_bar(total, args.input.quiet);
    let result: anyhow::Result<MergeCounts> = (|| {
        report.writer.begin()?;
        let job = WriteJob {
            options: merge.piece_options(),
        };
        // What ends the run inside the loop, with its own message.
        let mut failure: Option<anyhow::Error> = None;
        for (_, encoding, range) in &groups {
            let mut sinks = Sinks {
                out: &mut out.writer,
                dropped: dropped.as_mut().map(|d| &mut d.writer as &mut dyn Write),
                conflicts: conflicts.as_mut().map(|c| &mut c.writer as &mut dyn Write),
            };
            let unread = for_each_source(
                &sources[range.clone()],
                &plans[range.clone()],
                *encoding,
                &pool,
                &BarProgress(&bar),
                &job,
                |event: Event<'_, planilla_converter::merge::Piece>| {
                    let done = match event {
                        Event::Opened(_) => merge.reopen(),
                        Event::Results(batch) => {
                            let mut on = |line: &MergeLine| bar.suspend(|| report.line(line));
                            merge.write(batch, &mut sinks, &mut on)
                        }
                        Event::Failed(message) => {
                            failures.push(message.to_string());
                            Ok(())
                        }
                        Event::Closed => Ok(()),
                    };
                    done.map_err(|e| {
                        failure = Some(anyhow::Error::new(e));
                        io::Error::other("stopped")
                    })
                },
            );
            if let Some(e) = failure.take() {
                return Err(e);
            }
            if unread? {
                bail!("an input could not be read the second time: nothing is written");
            }
        }
        let mut sinks = Sinks {
            out: &mut out.writer,
            dropped: dropped.as_mut().map(|d| &mut d.writer as &mut dyn Write),
            conflicts: conflicts.as_mut().map(|c| &mut c.writer as &mut dyn Write),
        };
        let counts = merge.finish(&mut sinks, &mut |line| report.line(line))?;
        for found in &findings {
            if found.finding.severity() == Severity::Warning {
                report.warnings += 1;
            }
            report.writer.finding(&found.file, &found.finding)?;
        }
        Ok(counts)
    })();
    bar.finish_and_clear();
    let counts = match result {
        Ok(counts) => counts,
        Err(e) => {
            drop((out, dropped, conflicts));
            if broken_pipe(&e) {
                return Ok(ExitCode::SUCCESS);
            }
            return Err(e);
        }
    };
    for output in [dropped, conflicts, Some(out)].into_iter().flatten() {
        output.commit()?;
    }
    report.summary(&counts).context("cannot write the report")?;
    drop(stdin_spool);
    Ok(if counts.set_apart > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// An output file staged beside its destination, or standard output.
struct Output {
    staged: Option<Staged>,
    writer: BufWriter<Box<dyn Write>>,
}

impl Output {
    fn open(path: Option<&PathBuf>) -> anyhow::Result<Output> {
        let (staged, out): (Option<Staged>, Box<dyn Write>) = match path {
            Some(path) if path.as_os_str() != "-" => {
                let (staged, file): (Staged, File) = Staged::create(path)?;
                (Some(staged), Box::new(file))
            }
            _ => (None, Box::new(io::stdout().lock())),
        };
        Ok(Output {
            staged,
            writer: BufWriter::with_capacity(1 << 16, out),
        })
    }

    /// Flushes and renames the file into place.
    fn commit(mut self) -> anyhow::Result<()> {
        self.writer.flush().map_err(output_error)?;
        drop(self.writer);
        if let Some(staged) = self.staged {
            staged.commit()?;
        }
        Ok(())
    }
}

/// The merge's report.
struct Report<W: Write> {
    writer: Writer<W>,
    format: Format,
    color: bool,
    warnings: u64,
    json: Vec<u8>,
}

impl<W: Write> Report<W> {
    /// One line: `merge[duplicate-game] b.pgn game 4: dropped; kept a.pgn game 28`.
    fn line(&mut self, line: &MergeLine) -> io::Result<()> {
        if line.severity == Severity::Warning {
            self.warnings += 1;
        }
        let out = self.writer.get_mut();
        match self.format {
            Format::Jsonl => {
                self.json.clear();
                json::write(&mut self.json, &JsonMerge::new(line))?;
                self.json.push(b'\n');
                out.write_all(&self.json)
            }
            _ => {
                let warning = match (line.severity, self.color) {
                    (Severity::Warning, true) => "\x1b[1;33mwarning\x1b[0m: ",
                    (Severity::Warning, false) => "warning: ",
                    _ => "",
                };
                let text = format!(
                    "{warning}merge[{}] {} game {}: {}",
                    line.code, line.file, line.game, line.message
                );
                let text: String = text
                    .chars()
                    .flat_map(|c| {
                        let shown: Vec<char> = if c.is_control() && c != '\x1b' {
                            c.escape_debug().collect()
                        } else {
                            vec![c]
                        };
                        shown
                    })
                    .collect();
                writeln!(out, "{text}")
            }
        }
    }

    /// The closing count: games in = written + dropped + set apart.
    fn summary(&mut self, c: &MergeCounts) -> io::Result<()> {
        let out = self.writer.get_mut();
        match self.format {
            Format::Jsonl => {
                self.json.clear();
                json::write(&mut self.json, &MergeSummary::new(c, self.warnings))?;
                self.json.push(b'\n');
                out.write_all(&self.json)?;
            }
            _ => {
                let plural = |n: u64, one: &str, many: &str| {
                    format!("{n} {}", if n == 1 { one } else { many })
                };
                writeln!(
                    out,
                    "{}, {}: {} written, {} dropped, {} set apart; {}, {}",
                    plural(c.files, "file", "files"),
                    plural(c.games, "game", "games"),
                    c.written,
                    c.dropped,
                    c.set_apart,
                    plural(c.tags_taken, "tag taken", "tags taken"),
                    plural(self.warnings, "warning", "warnings"),
                )?;
            }
        }
        out.flush()
    }
}
