//! `planilla convert`: rewrite move notation in another language.

use crate::input::{
    InputArgs, LangChoice, collect_sources, io_reason, open_reader, parse_lang, progress_bar,
};
use crate::output::{Format, Writer};
use anyhow::{Context, bail};
use clap::Args;
use planilla_converter::{Options, OutputEncoding, Unencodable, convert_game, encode};
use planilla_core::san::Lang;
use planilla_validator::{BatchConfig, Code, Finding, Rules, process_stream};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

/// Arguments of `planilla convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Language the moves are written in: auto (decided per game), en, es, it, pt,
    /// fr, de, nl or figurine.
    #[arg(long, default_value = "auto", value_parser = parse_lang)]
    pub from: LangChoice,
    /// Language to write: en, es, it, pt, fr, de, nl or figurine.
    #[arg(long, default_value = "en", value_parser = parse_target)]
    pub to: Lang,
    /// Write to this file (through a temporary file renamed into place) instead of
    /// standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Output encoding: utf-8, windows-1252 or latin-1. A character it cannot hold is
    /// an error, never a substitute.
    #[arg(long, default_value = "utf-8", value_parser = parse_output_encoding)]
    pub output_encoding: OutputEncoding,
}

fn parse_target(s: &str) -> Result<Lang, String> {
    Lang::from_code(s)
        .ok_or_else(|| format!("unknown language '{s}' (en, es, it, pt, fr, de, nl, figurine)"))
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
    bytes: Result<Vec<u8>, Unencodable>,
    errors: Vec<Finding>,
    complete: bool,
}

/// A file written beside its destination and renamed over it at the end,
/// so an interrupted run never leaves a half-written file.
struct Staged {
    temp: PathBuf,
    dest: PathBuf,
}

impl Staged {
    fn create(dest: &Path) -> anyhow::Result<(Staged, File)> {
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = dir.join(format!(".{name}.planilla-{}.tmp", std::process::id()));
        let file =
            File::create(&temp).with_context(|| format!("cannot create {}", temp.display()))?;
        Ok((
            Staged {
                temp,
                dest: dest.to_path_buf(),
            },
            file,
        ))
    }

    fn commit(self) -> anyhow::Result<()> {
        std::fs::rename(&self.temp, &self.dest).with_context(|| {
            format!(
                "cannot rename {} to {}",
                self.temp.display(),
                self.dest.display()
            )
        })
    }

    fn abandon(self) {
        let _ = std::fs::remove_file(&self.temp);
    }
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

    let (staged, sink): (Option<Staged>, Box<dyn Write>) = match &args.output {
        Some(path) => {
            let (staged, file) = Staged::create(path)?;
            (Some(staged), Box::new(file))
        }
        None => (None, Box::new(io::stdout().lock())),
    };
    let mut out = BufWriter::with_capacity(1 << 16, sink);
    let mut report = Writer::new(io::stderr().lock(), Format::Human);
    let total_size: Option<u64> = sources.iter().map(|s| s.size()).sum();
    let bar = progress_bar(total_size, args.input.quiet);
    let (mut games, mut incomplete) = (0u64, 0u64);
    let mut done_bytes = 0u64;

    let result: anyhow::Result<()> = (|| {
        for source in &sources {
            let name = source.display_name();
            let Some((reader, consumed)) = open_reader(source, args.input.encoding, &bar) else {
                input_failed = true;
                continue;
            };
            let mut failure: Option<anyhow::Error> = None;
            let base = done_bytes;
            let work = |game: &planilla_parser::Game| {
                let converted = convert_game(game, &options);
                let mut bytes = Vec::with_capacity(converted.text.len());
                let encoded =
                    encode(&converted, game, args.output_encoding, &mut bytes).map(|()| bytes);
                Done {
                    bytes: encoded,
                    errors: converted
                        .findings
                        .into_iter()
                        .filter(|f| stops_replay(f.code))
                        .collect(),
                    complete: converted.complete,
                }
            };
            let streamed = process_stream(
                reader,
                BatchConfig::default(),
                &pool,
                work,
                |batch: &[Done], progress| {
                    for done in batch {
                        games += 1;
                        match &done.bytes {
                            Ok(bytes) => out.write_all(bytes)?,
                            Err(e) => {
                                failure = Some(anyhow::anyhow!("{name}:{e}"));
                                return Err(io::Error::other("unencodable"));
                            }
                        }
                        if !done.complete {
                            incomplete += 1;
                        }
                        bar.suspend(|| -> io::Result<()> {
                            for f in &done.errors {
                                report.finding(&name, f)?;
                            }
                            Ok(())
                        })?;
                    }
                    let _ = progress;
                    bar.set_position(base + consumed.load(Ordering::Relaxed));
                    Ok(())
                },
            );
            if let Some(e) = failure {
                return Err(e);
            }
            if let Err(e) = streamed {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    return Err(e.into());
                }
                bar.suspend(|| eprintln!("planilla: {name}: {}", io_reason(&e)));
                input_failed = true;
            }
            done_bytes += source.size().unwrap_or(0);
        }
        out.flush().context("cannot write the output")?;
        Ok(())
    })();
    bar.finish_and_clear();
    drop(out);

    match result {
        Ok(()) => {
            if let Some(staged) = staged {
                staged.commit()?;
            }
        }
        Err(e) => {
            if let Some(staged) = staged {
                staged.abandon();
            }
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            {
                return Ok(ExitCode::SUCCESS);
            }
            return Err(e);
        }
    }
    if incomplete > 0 {
        eprintln!(
            "planilla: {games} games converted; {incomplete} could not be fully replayed and keep moves as written (letters translated)"
        );
    }
    Ok(if input_failed {
        ExitCode::from(2)
    } else if incomplete > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
