//! `planilla check`: validate games and report findings.

use crate::archive::{ArchiveRun, ShardBy};
use crate::baseline::{Baseline, Recorder, game_key};
use crate::config::{ConfigArgs, Given, Settings};
use crate::html::GameText;
use crate::input::{
    BarProgress, InputArgs, LangChoice, NotationChoice, Source, collect_sources, progress_bar,
    show_games,
};
use crate::output::{ColorChoice, Format, Totals, Writer};
use crate::range::RangeArgs;
use crate::trf::TrfRun;
use anyhow::Context;
use clap::{ArgMatches, Args};
use planilla_engine::drive::{Event, Plan, for_each_source};
use planilla_engine::jobs::{CheckJob, GameReport};
use planilla_parser::{Encoding, Game};
use planilla_validator::archive::Shard;
use planilla_validator::{Code, Config, Finding, RulesChoice, Severity};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;

/// Arguments of `planilla check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Edition of the FIDE Laws for draw rules: by-date (each game by the edition in
    /// force on its Date), or fide-2023, fide-2009, fide-2005 for every game.
    #[arg(long, default_value = "by-date")]
    pub rules: RulesChoice,
    /// Exit with status 1 when a finding at or above this severity is reported:
    /// error, warning, note or never.
    #[arg(long, default_value = "error")]
    pub fail_on: FailOn,
    /// Report only these codes (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,
    /// Never report these codes (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Check only the games whose 1-based index in their file, modulo N, is K
    /// (0 <= K < N): N runs with K = 0..N-1 split the input exactly, and the
    /// union of their findings is the unsharded run's.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// What --shard divides the games by: index (each game's index in its file) or
    /// moves (with --archive: every copy of a game, and every game of one Event and
    /// Round, in one shard).
    #[arg(long, value_enum, default_value_t = ShardBy::Index, requires = "shard")]
    pub shard_by: ShardBy,
    /// Also check across the games of the run: duplicates, truncated and conflicting
    /// copies, round conflicts, one player under two FideIds or names.
    #[arg(long)]
    pub archive: bool,
    /// Also check the games against this FIDE tournament report file (TRF): results,
    /// colours, rounds, forfeits, games missing from the PGN or unknown to the TRF.
    #[arg(long, value_name = "FILE")]
    pub trf: Option<PathBuf>,
    /// Report only the findings that this baseline (written by --write-baseline) does
    /// not record; the summary counts the others as baselined.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// Record this run's findings in FILE, a baseline for --baseline, and exit 0 once it
    /// is written (2 if an input could not be read).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// One byte range of one file.
    #[command(flatten)]
    pub range: RangeArgs,
    /// Where options come from besides the command line.
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// `--fail-on`: the lowest severity that fails the run, or never.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailOn(pub Option<Severity>);

impl FromStr for FailOn {
    type Err = String;

    /// Reads a severity name or `never`.
    fn from_str(s: &str) -> Result<FailOn, String> {
        Ok(FailOn(match s {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "note" => Some(Severity::Note),
            "never" => None,
            _ => {
                return Err(format!(
                    "unknown severity '{s}' (error, warning, note, never)"
                ));
            }
        }))
    }
}

/// Which codes are reported.
pub struct Filter {
    selected: Option<Vec<Code>>,
    ignored: Vec<Code>,
}

impl Filter {
    /// The filter of `--select` and `--ignore`.
    ///
    /// # Errors
    ///
    /// An unknown finding code.
    pub fn new(select: &[String], ignore: &[String]) -> anyhow::Result<Filter> {
        let codes = |names: &[String]| {
            names
                .iter()
                .map(|name| name.parse::<Code>())
                .collect::<Result<Vec<Code>, _>>()
        };
        let selected = if select.is_empty() {
            None
        } else {
            Some(codes(select)?)
        };
        let ignored = codes(ignore)?;
        Ok(Filter { selected, ignored })
    }

    /// Whether findings of `code` are reported.
    pub fn keeps(&self, code: Code) -> bool {
        self.selected.as_ref().is_none_or(|s| s.contains(&code)) && !self.ignored.contains(&code)
    }
}

/// How the games of one source are checked: the command line's options over the
/// configuration file's, and its overrides' for that file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Profile {
    config: Config,
    encoding: Encoding,
    select: Vec<String>,
    ignore: Vec<String>,
    /// The TRF the games are checked against (`--trf`, `trf`).
    trf: Option<PathBuf>,
}

impl Profile {
    /// The profile of a source whose configuration `settings` are these.
    fn new(args: &CheckArgs, given: &Given<'_>, settings: Settings) -> Profile {
        Profile {
            config: Config {
                rules: given.pick("rules", args.rules, settings.rules),
                lang: given.pick("lang", args.lang, settings.lang).0,
                notation: given.pick("notation", args.notation, settings.notation).0,
            },
            encoding: given.pick("encoding", args.input.encoding, settings.encoding),
            select: given.pick("select", args.select.clone(), settings.select),
            ignore: given.pick("ignore", args.ignore.clone(), settings.ignore),
            trf: given.pick("trf", args.trf.clone(), settings.trf.map(Some)),
        }
    }
}

/// Runs `planilla check`: the exit status, or an error (status 2). `matches` tells
/// which options the command line gave.
pub fn run(
    mut args: CheckArgs,
    matches: &ArgMatches,
    color: ColorChoice,
) -> anyhow::Result<ExitCode> {
    let file = crate::config::Config::load(&args.config)?;
    let given = Given(matches);
    args.fail_on = given.pick("fail_on", args.fail_on, file.fail_on);
    args.archive = args.archive || (!given.has("archive") && file.archive == Some(true));
    if args.range.range.is_some() && (args.archive || args.shard.is_some()) {
        anyhow::bail!(
            "--range cannot be used with --archive or --shard: a range is a part of one \
             file, checked game by game"
        );
    }
    if args.shard_by == ShardBy::Moves && !args.archive {
        anyhow::bail!("--shard-by moves needs --archive (its shards are the archive's)");
    }
    file.apply_run_options(&given, &mut args.format, &mut args.input);
    if !given.has("write_baseline") {
        args.baseline = given.pick("baseline", args.baseline, file.baseline.clone().map(Some));
    }
    let pool = crate::thread_pool(args.input.threads)?;
    let inputs = collect_sources(&args.input);
    let mut input_failed = inputs.report();
    // Inputs that could not be read: on standard error, and in the reports that can
    // say so (SARIF's invocation, GitHub annotations).
    let mut failures = inputs.problems.clone();
    let sources = inputs.sources;
    // Runs of sources checked alike, in input order.
    let mut groups: Vec<(Profile, Filter, std::ops::Range<usize>)> = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        let path = match source {
            Source::File(path) => Some(path.as_path()),
            Source::Stdin => None,
        };
        let profile = Profile::new(&args, &given, file.settings_for(path));
        match groups.last_mut() {
            Some((last, _, range)) if *last == profile => range.end = i + 1,
            _ => {
                let filter = Filter::new(&profile.select, &profile.ignore)?;
                groups.push((profile, filter, i..i + 1));
            }
        }
    }

    if args.range.range.is_some() && groups.iter().any(|(p, _, _)| p.trf.is_some()) {
        anyhow::bail!(
            "--range cannot be used with --trf: a range is a part of one file, and the TRF \
             check needs every game of the run"
        );
    }
    let baseline = args.baseline.as_deref().map(Baseline::load).transpose()?;
    let recorder = args.write_baseline.as_deref().map(Recorder::new);
    let keyed = baseline.is_some() || recorder.is_some() || args.format == Format::Sarif;
    let mut archive = args.archive.then(ArchiveRun::default);
    // Each TRF is read once, before any game: a file that cannot be read is a usage
    // error (status 2), like a bad baseline.
    let mut trfs = TrfRun::default();
    let mut trf_of_group: Vec<Option<usize>> = Vec::with_capacity(groups.len());
    for (group, (profile, _, _)) in groups.iter().enumerate() {
        trf_of_group.push(
            profile
                .trf
                .as_deref()
                .map(|path| trfs.load(path, group))
                .transpose()?,
        );
    }

    let stdout = io::stdout();
    let color = color.enabled(stdout.is_terminal());
    let mut writer = Writer::new(
        io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        args.format,
    )
    .with_color(color);
    let mut tally = Tally {
        totals: Totals {
            // The summary says how many findings the baseline absorbed, none included.
            baselined: baseline.as_ref().map(|_| 0),
            ..Totals::default()
        },
        baseline,
        recorder,
        worst: None,
    };
    let (mut plans, _) = Plan::all(&sources);
    args.range.apply(&sources, &mut plans)?;
    // A range's bar counts the range's bytes.
    let bar = progress_bar(Plan::total(&plans), args.input.quiet);

    let outcome: io::Result<()> = (|| {
        writer.begin()?;
        let mut name = String::new();
        let mut current: Option<Source> = None;
        for (group, (profile, filter, range)) in groups.iter().enumerate() {
            // The HTML report shows a game's text beside the findings it reports.
            let html = args.format == Format::Html;
            let job = CheckJob {
                config: profile.config,
                shard: args.shard,
                shard_by: args.shard_by.into(),
                archive: args.archive,
                trf: trf_of_group[group].map(|t| trfs.check(t)),
                key: keyed.then_some(game_key as fn(&Game) -> u64),
                keep: |game: &Game, findings: &[Finding]| {
                    let shown = html && findings.iter().any(|f| filter.keeps(f.code));
                    shown.then(|| GameText::of(game))
                },
            };
            let unread = for_each_source(
                &sources[range.clone()],
                &plans[range.clone()],
                profile.encoding,
                &pool,
                &BarProgress(&bar),
                &job,
                |event: Event<'_, Option<GameReport<Option<GameText>>>>| {
                    match event {
                        Event::Opened(source) => {
                            name = source.display_name();
                            current = Some(source.clone());
                            tally.totals.files += 1;
                            tally.open(source);
                            if let Some(a) = &mut archive {
                                a.open(&name, group, source);
                            }
                        }
                        Event::Results(reports) => {
                            for report in reports.iter().flatten() {
                                if let (Some(a), Some(record)) = (&mut archive, &report.record) {
                                    a.push(&name, record)?;
                                }
                                if let (Some(t), Some(judged), Some(source)) =
                                    (trf_of_group[group], &report.trf, &current)
                                {
                                    let key = report.key.unwrap_or_default();
                                    let text = report.kept.as_ref();
                                    trfs.take(t, group, source, key, judged, report.home, text);
                                }
                                if !report.home {
                                    continue;
                                }
                                tally.totals.games += 1;
                                tally.totals.plies += report.stats.plies;
                                writer.game(report.key);
                                if let Some(text) = &report.kept {
                                    writer.game_text(text);
                                }
                                let key = report.key.unwrap_or_default();
                                for f in &report.findings {
                                    tally.report(&mut writer, filter, &name, key, f)?;
                                }
                            }
                            show_games(&bar, tally.totals.games);
                        }
                        Event::Closed => writer.flush()?,
                        Event::Failed(message) => failures.push(message.to_string()),
                    }
                    Ok(())
                },
            )?;
            input_failed |= unread;
        }
        // The archive findings come after every game's own, once the run has seen every
        // game (a truncated copy is reported on the shorter game, which may come first).
        if let Some(archive) = archive.take() {
            for placed in archive.finish()? {
                tally.open(&placed.source);
                writer.game(keyed.then_some(placed.found.caller_key));
                let filter = &groups[placed.group].1;
                let name = placed.source.display_name();
                let key = placed.found.caller_key;
                tally.report(&mut writer, filter, &name, key, &placed.found.finding)?;
            }
        }
        // The TRF findings after those: the games' in input order, then each TRF's own
        // (a shard other than the first leaves these to the first).
        let games_only = args.shard.is_some_and(|s| s.k != 0);
        for placed in trfs.finish(games_only) {
            tally.open(&placed.source);
            // A game's findings follow its text once: the text comes with the first of
            // them, and stays for the next when that one is filtered out.
            if placed.first {
                writer.game(keyed.then_some(placed.key));
                if let Some(text) = &placed.text {
                    writer.game_text(text);
                }
            }
            let filter = &groups[placed.group].1;
            let name = placed.source.display_name();
            tally.report(&mut writer, filter, &name, placed.key, &placed.finding)?;
        }
        writer.end(&tally.totals, &failures)
    })();
    bar.finish_and_clear();

    match outcome {
        Ok(()) => {}
        // `planilla check big.pgn | head`: the reader went away; stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e).context("cannot write the report"),
    }
    let _ = io::stderr().flush();
    if input_failed {
        return Ok(ExitCode::from(2));
    }
    if let Some(recorder) = tally.recorder {
        // The findings are now the baseline's: a written baseline is a success.
        recorder.write()?;
        return Ok(ExitCode::SUCCESS);
    }
    let failed = match (args.fail_on.0, tally.worst) {
        (Some(threshold), Some(w)) => w >= threshold,
        _ => false,
    };
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Where the findings a run reports go: through the baseline, into the recorded
/// baseline, the counts and the worst severity, and the report.
struct Tally {
    totals: Totals,
    baseline: Option<Baseline>,
    recorder: Option<Recorder>,
    worst: Option<Severity>,
}

impl Tally {
    /// The findings that follow are of `source`.
    fn open(&mut self, source: &Source) {
        if let Some(b) = &mut self.baseline {
            b.open(source);
        }
        if let Some(r) = &mut self.recorder {
            r.open(source);
        }
    }

    /// Reports `f`, of the game with content key `key` in the file named `name`, unless
    /// `filter` drops it or the baseline absorbs it.
    fn report<W: Write>(
        &mut self,
        writer: &mut Writer<W>,
        filter: &Filter,
        name: &str,
        key: u64,
        f: &Finding,
    ) -> io::Result<()> {
        if !filter.keeps(f.code) {
            return Ok(());
        }
        if let Some(b) = &mut self.baseline
            && b.absorbs(key, f)
        {
            *self.totals.baselined.get_or_insert(0) += 1;
            return Ok(());
        }
        if let Some(r) = &mut self.recorder {
            r.record(key, f);
        }
        self.totals.count(f.severity());
        self.worst = self.worst.max(Some(f.severity()));
        writer.finding(name, f)
    }
}
