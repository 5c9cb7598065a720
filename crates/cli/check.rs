//! `planilla check`: validate games and report findings.

use crate::drive::{Event, Plan, for_each_source};
use crate::html::GameText;
use crate::input::{InputArgs, LangChoice, collect_sources, progress_bar, show_games};
use crate::output::{Format, Totals, Writer};
use crate::pipeline::Job;
use anyhow::Context;
use clap::Args;
use planilla_parser::Game;
use planilla_validator::{
    Checker, Code, Config, Finding, GameStats, RulesChoice, Severity, internal_error,
};
use std::io::{self, Write};
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Edition of the FIDE Laws for draw rules: fide-2023, fide-2009, fide-2005, or
    /// by-date (each game by the edition in force on its Date).
    #[arg(long, default_value = "fide-2023")]
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
}

/// `--shard K/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    k: u64,
    n: u64,
}

impl Shard {
    fn keeps(&self, game: u64) -> bool {
        game % self.n == self.k
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Reads `K/N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard '{s}': write K/N with 0 <= K < N, e.g. 0/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
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

/// What `check` finds in one game.
struct GameReport {
    /// The findings, in the order they occur in the game.
    findings: Vec<Finding>,
    /// Counts.
    stats: GameStats,
    /// The game's text, for a report that shows it beside the findings.
    text: Option<GameText>,
}

/// `check`'s work on each game: the games of the shard replayed, the others left alone.
struct CheckJob<'a> {
    config: &'a Config,
    shard: Option<Shard>,
    /// For a report that shows the games' text (HTML): the filter, so that the text is
    /// kept only for games with a finding it reports.
    text_for: Option<&'a Filter>,
}

impl CheckJob<'_> {
    /// The text of `game` when the report shows it and reports one of `findings`.
    fn text(&self, game: &Game, findings: &[Finding]) -> Option<GameText> {
        let filter = self.text_for?;
        findings
            .iter()
            .any(|f| filter.keeps(f.code))
            .then(|| GameText::of(game))
    }
}

impl Job for CheckJob<'_> {
    type Output = Option<GameReport>;
    type Worker = Checker;

    fn worker(&self) -> Checker {
        Checker::new(*self.config)
    }

    fn run(&self, checker: &mut Checker, game: &Game) -> Option<GameReport> {
        if self.shard.is_some_and(|s| !s.keeps(game.index())) {
            return None;
        }
        let mut findings = Vec::new();
        let stats = checker.check(game, &mut findings);
        let text = self.text(game, &findings);
        Some(GameReport {
            findings,
            stats,
            text,
        })
    }

    /// A game planilla failed on is one `internal-error` finding naming it.
    fn failed(&self, game: &Game, panic: &str) -> Option<GameReport> {
        let message = format!("planilla failed on this game ({panic}); please report it");
        let findings = vec![internal_error(game, message)];
        Some(GameReport {
            text: self.text(game, &findings),
            findings,
            stats: GameStats::default(),
        })
    }
}

/// Runs `planilla check`: the exit status, or an error (status 2).
pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let filter = Filter::new(&args.select, &args.ignore)?;
    let config = Config {
        rules: args.rules,
        lang: args.lang.0,
    };
    let pool = crate::thread_pool(args.input.threads)?;
    let inputs = collect_sources(&args.input.paths);
    let mut input_failed = inputs.report();
    // Inputs that could not be read: on standard error, and in the reports that can
    // say so (SARIF's invocation, GitHub annotations).
    let mut failures = inputs.problems.clone();
    let sources = inputs.sources;

    let stdout = io::stdout();
    let mut writer = Writer::new(
        io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        args.format,
    );
    let mut totals = Totals::default();
    let mut worst: Option<Severity> = None;
    let (plans, total_size) = Plan::all(&sources);
    let bar = progress_bar(total_size, args.input.quiet);

    let outcome: io::Result<()> = (|| {
        writer.begin()?;
        let job = CheckJob {
            config: &config,
            shard: args.shard,
            text_for: (args.format == Format::Html).then_some(&filter),
        };
        let mut name = String::new();
        let unread = for_each_source(
            &sources,
            &plans,
            args.input.encoding,
            &pool,
            &bar,
            &job,
            |event: Event<'_, Option<GameReport>>| {
                match event {
                    Event::Opened(source) => {
                        name = source.display_name();
                        totals.files += 1;
                    }
                    Event::Results(reports) => {
                        for report in reports.iter().flatten() {
                            totals.games += 1;
                            totals.plies += report.stats.plies;
                            if let Some(text) = &report.text {
                                writer.game_text(text);
                            }
                            for f in &report.findings {
                                if !filter.keeps(f.code) {
                                    continue;
                                }
                                totals.count(f.severity());
                                worst = worst.max(Some(f.severity()));
                                writer.finding(&name, f)?;
                            }
                        }
                        show_games(&bar, totals.games);
                    }
                    Event::Closed => writer.flush()?,
                    Event::Failed(message) => failures.push(message.to_string()),
                }
                Ok(())
            },
        )?;
        input_failed |= unread;
        writer.end(&totals, &failures)
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
    let failed = match (args.fail_on.0, worst) {
        (Some(threshold), Some(w)) => w >= threshold,
        _ => false,
    };
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
