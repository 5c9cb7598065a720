//! `planilla convert`: rewrite move notation in another language.

use crate::drive::{Event, Plan, for_each_source};
use crate::input::{InputArgs, LangChoice, collect_sources, parse_lang, progress_bar, show_games};
use crate::output::{Format, Writer};
use crate::staged::Staged;
use anyhow::bail;
use clap::Args;
use planilla_converter::{Converted, Options, OutputEncoding, Unencodable, convert_game, encode};
use planilla_core::san::Lang;
use planilla_validator::{Code, Finding, Rules, Severity, internal_error, panic_message};
use std::io::{self, BufWriter, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `planilla convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Language the moves are written in: auto (decided per game), en, es, it, pt,
    /// fr, de, nl or figurine (`--lang` too, as for every command that reads games).
    #[arg(long, visible_alias = "lang", default_value = "auto", value_parser = parse_lang)]
    pub from: LangChoice,
    /// Language to write: en, es, it, pt, fr, de, nl or figurine.
    #[arg(long, default_value = "en", value_parser = parse_target)]
    pub to: Lang,
    /// Write to this file (through a temporary file renamed into place) instead of
    /// standard output (`-`: standard output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Output encoding: utf-8, windows-1252 or latin-1. A character it cannot hold is
    /// an error, never a substitute.
    #[arg(long, default_value = "utf-8", value_parser = parse_output_encoding)]
    pub output_encoding: OutputEncoding,
}

fn parse_target(s: &str) -> Result<Lang, String> {
    s.parse::<Lang>().map_err(|e| e.to_string())
}

fn parse_output_encoding(s: &str) -> Result<OutputEncoding, String> {
    OutputEncoding::from_name(s)
        .ok_or_else(|| format!("unknown output encoding '{s}' (utf-8, windows-1252, latin-1)"))
}

/// Findings that leave moves unconverted; the others are `check`'s business.
fn stops_replay(code: Code) -> bool {
    matches!(
        code,
        Code::IllegalMove
            | Code::AmbiguousMove
            | Code::InvalidFen
            | Code::SyntaxError
            | Code::UnsupportedVariant
    )
}

/// One game's result, made on a worker thread.
struct Done {
    /// The game's text in the output encoding.
    bytes: Result<Vec<u8>, Unencodable>,
    /// Findings reported on standard error.
    errors: Vec<Finding>,
    outcome: Outcome,
}

/// How far a game was converted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Every move replayed and rewritten.
    Converted,
    /// Moves converted as far as the replay got, the rest letter by letter.
    Incomplete,
    /// planilla failed on the game (a bug): its text is written unchanged.
    Failed,
    /// The game was over a reader limit: only its tag section was kept and written.
    Skipped,
}

pub fn run(args: ConvertArgs) -> anyhow::Result<ExitCode> {
    let options = Options {
        from: args.from.0,
        to: args.to,
        rules: Rules::default(),
    };
    let pool = crate::thread_pool(args.input.threads)?;
    let inputs = collect_sources(&args.input.paths);
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
    let mut report = Writer::new(io::stderr().lock(), Format::Human);
    let (plans, total_size) = Plan::all(&sources);
    let bar = progress_bar(total_size, args.input.quiet);
    let mut counts = Counts::default();

    let result: anyhow::Result<()> = (|| {
        // What ends the whole run (an output error, an unencodable character), kept
        // apart from a read error, which ends only its input.
        let mut failure: Option<anyhow::Error> = None;
        let mut name = String::new();
        let work =
            |game: &planilla_parser::Game| convert_guarded(game, &options, args.output_encoding);
        let driven = for_each_source(
            &sources,
            &plans,
            args.input.encoding,
            &pool,
            &bar,
            work,
            |event: Event<'_, Done>| {
                let batch = match event {
                    Event::Opened(source) => {
                        name = source.display_name();
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
                    if let Err(e) = out.write_all(bytes) {
                        failure = Some(output_error(e));
                        return Err(io::Error::other("output failed"));
                    }
                    counts.incomplete += u64::from(done.outcome == Outcome::Incomplete);
                    counts.failed += u64::from(done.outcome == Outcome::Failed);
                    counts.skipped += u64::from(done.outcome == Outcome::Skipped);
                    // Only an ambiguous game's language note is reported.
                    counts.ambiguous +=
                        u64::from(done.errors.iter().any(|f| f.code == Code::NotationLanguage));
                    // Converted in full, but with an error in its text (a syntax
                    // error: the text is kept as read).
                    counts.flawed += u64::from(
                        done.outcome == Outcome::Converted
                            && done.errors.iter().any(|f| f.severity() == Severity::Error),
                    );
                    // The bar is cleared and drawn again around a report: only when
                    // there is one (once a game, it flooded the terminal).
                    if done.errors.is_empty() {
                        continue;
                    }
                    let reported = bar.suspend(|| -> io::Result<()> {
                        for f in &done.errors {
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
        let broken_pipe = e
            .chain()
            .filter_map(|c| c.downcast_ref::<io::Error>())
            .any(|e| e.kind() == io::ErrorKind::BrokenPipe);
        if broken_pipe {
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
fn output_error(e: io::Error) -> anyhow::Error {
    anyhow::Error::new(e).context("cannot write the output")
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

/// Converts one game on a worker thread and encodes it. A panic (a bug in
/// planilla) does not end the run: see [`guarded`].
fn convert_guarded(
    game: &planilla_parser::Game,
    options: &Options,
    encoding: OutputEncoding,
) -> Done {
    guarded(game, encoding, || {
        let converted = convert_game(game, options);
        let mut bytes = Vec::with_capacity(converted.text.len());
        let encoded = encode(&converted, game, encoding, &mut bytes).map(|()| bytes);
        // A move recorded after the game's end that is no move in the language read
        // keeps its text: the game is not wholly converted, and the finding says where.
        let unread = converted.unread > 0;
        // A game two languages read legally was converted from the first: the note
        // that names both is reported, never a silent guess.
        let ambiguous = converted.lang_ambiguous;
        Done {
            bytes: encoded,
            errors: converted
                .findings
                .into_iter()
                .filter(|f| {
                    stops_replay(f.code)
                        || (unread && f.code == Code::MoveAfterGameEnd)
                        || (ambiguous && f.code == Code::NotationLanguage)
                })
                .collect(),
            outcome: if game.skipped_bytes() > 0 {
                Outcome::Skipped
            } else if converted.complete && !unread {
                Outcome::Converted
            } else {
                Outcome::Incomplete
            },
        }
    })
}

/// Runs `convert` for one game, turning a panic into an `internal-error`
/// finding naming the game, with the game's own text written through
/// unchanged (decoded by its encoding rule, in the output encoding): nothing
/// is lost and the run goes on, as `check` does with `check_game_guarded`.
fn guarded(
    game: &planilla_parser::Game,
    encoding: OutputEncoding,
    convert: impl FnOnce() -> Done,
) -> Done {
    let panic = match catch_unwind(AssertUnwindSafe(convert)) {
        Ok(done) => return done,
        Err(panic) => panic,
    };
    let what = panic_message(panic.as_ref());
    let finding = internal_error(
        game,
        format!(
            "planilla failed to convert this game ({what}): its text is written unchanged; \
             please report it"
        ),
    );
    Done {
        bytes: unchanged(game, encoding),
        errors: vec![finding],
        outcome: Outcome::Failed,
    }
}

/// The game's text as it is, decoded token by token with the game's
/// encoding rule (UTF-8 input is copied) and encoded like a converted game,
/// so a character the output encoding cannot hold is still an error with
/// its place.
fn unchanged(
    game: &planilla_parser::Game,
    encoding: OutputEncoding,
) -> Result<Vec<u8>, Unencodable> {
    let mut text = Converted {
        game: game.index(),
        ..Converted::default()
    };
    if game.encoding().utf8 {
        text.text.push_str(&game.decode(0..game.bytes().len()));
        text.origins.push((0, 0));
    } else {
        for token in game.all_tokens() {
            text.origins.push((text.text.len(), token.start));
            text.text.push_str(&game.decode(token.span()));
        }
    }
    let mut bytes = Vec::with_capacity(text.text.len());
    encode(&text, game, encoding, &mut bytes).map(|()| bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use planilla_parser::{Encoding, Game};

    fn panicking() -> Done {
        panic!("the converter exploded")
    }

    /// A panic while converting a game is an `internal-error` finding naming
    /// the game, and the game's own text is written in the output encoding.
    #[test]
    fn a_panic_writes_the_game_unchanged_and_reports_it() {
        let cases: [(&[u8], OutputEncoding, &[u8]); 3] = [
            (
                "[Event \"Café\"]\n\n1. e4 e5 2. Cf3 *\n".as_bytes(),
                OutputEncoding::Utf8,
                "[Event \"Café\"]\n\n1. e4 e5 2. Cf3 *\n".as_bytes(),
            ),
            // Windows-1252 in, UTF-8 out: decoded, not copied.
            (
                b"[Event \"Caf\xe9\"]\n\n1. e4 e5 2. Cf3 *\n",
                OutputEncoding::Utf8,
                "[Event \"Café\"]\n\n1. e4 e5 2. Cf3 *\n".as_bytes(),
            ),
            (
                "[Event \"Café\"]\n\n1. e4 *\n".as_bytes(),
                OutputEncoding::Latin1,
                b"[Event \"Caf\xe9\"]\n\n1. e4 *\n",
            ),
        ];
        for (input, encoding, expected) in cases {
            let game = Game::from_bytes(input, Encoding::Auto);
            let done = guarded(&game, encoding, panicking);
            assert_eq!(done.bytes.as_deref(), Ok(expected));
            assert_eq!(done.outcome, Outcome::Failed);
            assert_eq!(done.errors.len(), 1);
            let finding = &done.errors[0];
            assert_eq!(finding.code, Code::InternalError);
            assert_eq!((finding.game, finding.line, finding.column), (1, 1, 1));
            assert!(
                finding.message.contains("the converter exploded")
                    && finding.message.contains("written unchanged"),
                "{}",
                finding.message
            );
        }
    }

    /// The unchanged text keeps the rule that nothing is substituted: a
    /// character the output encoding cannot hold is an error with its place.
    #[test]
    fn a_panic_on_a_game_the_encoding_cannot_hold_is_still_an_error() {
        let game = Game::from_bytes("[White \"Dvořák\"]\n\n1. e4 *\n".as_bytes(), Encoding::Auto);
        let done = guarded(&game, OutputEncoding::Latin1, panicking);
        let error = done.bytes.expect_err("ř is not Latin-1");
        assert_eq!((error.character, error.line, error.column), ('ř', 1, 12));
    }

    /// Without a panic the conversion is returned as it is.
    #[test]
    fn without_a_panic_the_conversion_stands() {
        let game = Game::from_bytes(&b"1. e4 e5 2. Cf3 *\n"[..], Encoding::Auto);
        let options = Options::default();
        let done = convert_guarded(&game, &options, OutputEncoding::Utf8);
        assert_eq!(done.bytes.as_deref(), Ok(&b"1. e4 e5 2. Nf3 *\n"[..]));
        assert_eq!(done.outcome, Outcome::Converted);
        assert!(done.errors.is_empty());
    }
}
