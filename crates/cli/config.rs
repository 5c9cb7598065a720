//! `planilla.toml`: the options of `check` kept in the archive they check, and
//! `[[overrides]]` for parts of it (`docs/cli.md`, "Configuration file").
//!
//! The file is found in the current directory or the nearest one above it (`--config
//! FILE` names one, `--no-config` reads none). Options given on the command line win over
//! the file; an override's options win over the file's top level for the files its
//! globs match. Every value is read by the same `FromStr` as its command-line option, so
//! a bad value gets the same message, with the file and line in front.

use crate::check::FailOn;
use crate::input::{InputArgs, LangChoice, NotationChoice, clean_absolute};
use crate::output::Format;
use anyhow::{Context, bail};
use clap::ValueEnum;
use clap::parser::ValueSource;
use clap::{ArgMatches, Args};
use globset::{GlobSet, GlobSetBuilder};
use planilla_parser::Encoding;
use planilla_validator::RulesChoice;
use serde::Deserialize;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use toml::Spanned;

/// The name looked for in the current directory and above.
pub const FILE_NAME: &str = "planilla.toml";

/// Where the options come from besides the command line.
#[derive(Args, Debug, Clone, Default)]
pub struct ConfigArgs {
    /// Read options from this file instead of the planilla.toml found in the current
    /// directory or above.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Read no planilla.toml.
    #[arg(long)]
    pub no_config: bool,
}

/// Which options the command line gave (they win over the configuration file).
pub struct Given<'a>(pub &'a ArgMatches);

impl Given<'_> {
    /// Whether option `id` was given on the command line.
    pub fn has(&self, id: &str) -> bool {
        self.0.value_source(id) == Some(ValueSource::CommandLine)
    }

    /// The command line's value of option `id` when it gave one, else the file's when
    /// it has one, else the command line's default.
    pub fn pick<T>(&self, id: &str, command_line: T, file: Option<T>) -> T {
        match file {
            Some(value) if !self.has(id) => value,
            _ => command_line,
        }
    }
}

/// The file as written: every key optional, unknown keys refused.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    rules: Option<Spanned<String>>,
    lang: Option<Spanned<String>>,
    notation: Option<Spanned<String>>,
    encoding: Option<Spanned<String>>,
    select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    fail_on: Option<Spanned<String>>,
    format: Option<Spanned<String>>,
    threads: Option<usize>,
    quiet: Option<bool>,
    baseline: Option<PathBuf>,
    archive: Option<bool>,
    trf: Option<PathBuf>,
    #[serde(default)]
    overrides: Vec<RawOverride>,
}

/// One `[[overrides]]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOverride {
    paths: Vec<Spanned<String>>,
    rules: Option<Spanned<String>>,
    lang: Option<Spanned<String>>,
    notation: Option<Spanned<String>>,
    encoding: Option<Spanned<String>>,
    select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    trf: Option<PathBuf>,
}

/// The options that can differ from one part of an archive to another; `None` where
/// neither the file nor an override sets them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `rules`.
    pub rules: Option<RulesChoice>,
    /// `lang`.
    pub lang: Option<LangChoice>,
    /// `notation`.
    pub notation: Option<NotationChoice>,
    /// `encoding`.
    pub encoding: Option<Encoding>,
    /// `select` (finding codes, checked when the filter is built).
    pub select: Option<Vec<String>>,
    /// `ignore`.
    pub ignore: Option<Vec<String>>,
    /// `trf`, from the configuration file's directory.
    pub trf: Option<PathBuf>,
}

impl Settings {
    /// These settings with `other`'s on top, key by key.
    fn then(&self, other: &Settings) -> Settings {
        Settings {
            rules: other.rules.or(self.rules),
            lang: other.lang.or(self.lang),
            notation: other.notation.or(self.notation),
            encoding: other.encoding.or(self.encoding),
            select: other.select.clone().or_else(|| self.select.clone()),
            ignore: other.ignore.clone().or_else(|| self.ignore.clone()),
            trf: other.trf.clone().or_else(|| self.trf.clone()),
        }
    }
}

/// A part of the archive with its own settings.
#[derive(Debug)]
struct Override {
    /// Globs without a `/` match a file's name, the others its path from the
    /// configuration file's directory.
    names: GlobSet,
    paths: GlobSet,
    settings: Settings,
}

/// A configuration file, read and checked.
#[derive(Debug, Default)]
pub struct Config {
    /// The directory override globs are relative to.
    dir: PathBuf,
    /// The top-level settings.
    pub settings: Settings,
    /// `fail-on`.
    pub fail_on: Option<FailOn>,
    /// `format`.
    pub format: Option<Format>,
    /// `threads`.
    pub threads: Option<usize>,
    /// `quiet`.
    pub quiet: Option<bool>,
    /// `baseline`, from the configuration file's directory.
    pub baseline: Option<PathBuf>,
    /// `archive`: the archive checks across the run's games (a run option: no
    /// override can set it, as it is about every game at once).
    pub archive: Option<bool>,
    overrides: Vec<Override>,
}

impl Config {
    /// The configuration `args` ask for: the named file, none, or the one found from the
    /// current directory up.
    ///
    /// # Errors
    ///
    /// A file that cannot be read, is not TOML, has an unknown key or a bad value: the
    /// message names the file and the line.
    pub fn load(args: &ConfigArgs) -> anyhow::Result<Config> {
        if args.no_config {
            return Ok(Config::default());
        }
        Config::load_from(
            args,
            &std::env::current_dir().context("cannot read the current directory")?,
        )
    }

    /// The configuration `args` ask for, the file found from `dir` up (the language
    /// server looks above each document, not above its own directory).
    ///
    /// # Errors
    ///
    /// As [`Config::load`].
    pub fn load_from(args: &ConfigArgs, dir: &Path) -> anyhow::Result<Config> {
        if args.no_config {
            return Ok(Config::default());
        }
        let path = match &args.config {
            Some(path) => path.clone(),
            None => match find(dir) {
                Some(path) => path,
                None => return Ok(Config::default()),
            },
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("{}: cannot read", path.display()))?;
        let mut dir = clean_absolute(&path);
        dir.pop();
        Config::parse(&text, &path, dir)
    }

    /// Reads the file's `text`; `path` names it in messages, `dir` anchors its globs.
    fn parse(text: &str, path: &Path, dir: PathBuf) -> anyhow::Result<Config> {
        let name = path.display().to_string();
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            // toml's message names the line and the key, and shows the line.
            anyhow::anyhow!("{name}: {}", e.to_string().trim_end())
        })?;
        let at = |span: Range<usize>| format!("{name}:{}", line_of(text, span.start));
        let settings = Settings {
            trf: raw.trf.map(|t| dir.join(t)),
            ..read_settings(
                &at,
                raw.rules,
                raw.lang,
                raw.notation,
                raw.encoding,
                raw.select,
                raw.ignore,
            )?
        };
        let mut overrides = Vec::new();
        for o in raw.overrides {
            if o.paths.is_empty() {
                bail!("{name}: an [[overrides]] table has no paths");
            }
            let (mut names, mut paths) = (GlobSetBuilder::new(), GlobSetBuilder::new());
            for glob in &o.paths {
                let pattern = glob.get_ref();
                let compiled = globset::GlobBuilder::new(pattern)
                    .literal_separator(true)
                    .build()
                    .map_err(|e| {
                        anyhow::anyhow!("{}: bad glob '{pattern}': {}", at(glob.span()), e.kind())
                    })?;
                if pattern.contains('/') {
                    paths.add(compiled);
                } else {
                    names.add(compiled);
                }
            }
            let build = |b: GlobSetBuilder| b.build().expect("globs that compiled one by one");
            overrides.push(Override {
                names: build(names),
                paths: build(paths),
                settings: Settings {
                    trf: o.trf.map(|t| dir.join(t)),
                    ..read_settings(
                        &at, o.rules, o.lang, o.notation, o.encoding, o.select, o.ignore,
                    )?
                },
            });
        }
        let format = raw
            .format
            .map(|v| {
                <Format as clap::ValueEnum>::from_str(v.get_ref(), false).map_err(|_| {
                    let names: Vec<String> = Format::value_variants()
                        .iter()
                        .filter_map(|f| f.to_possible_value().map(|p| p.get_name().to_string()))
                        .collect();
                    anyhow::anyhow!(
                        "{}: unknown format '{}' ({})",
                        at(v.span()),
                        v.get_ref(),
                        names.join(", ")
                    )
                })
            })
            .transpose()?;
        Ok(Config {
            settings,
            fail_on: read(&at, raw.fail_on)?,
            format,
            threads: raw.threads,
            quiet: raw.quiet,
            baseline: raw.baseline.map(|b| dir.join(b)),
            archive: raw.archive,
            dir,
            overrides,
        })
    }

    /// The options of a whole run the file sets (`format`, `threads`, `quiet`), put into
    /// `format` and `input` where the command line gave none.
    pub fn apply_run_options(&self, given: &Given<'_>, format: &mut Format, input: &mut InputArgs) {
        *format = given.pick("format", *format, self.format);
        input.threads = given.pick("threads", input.threads, self.threads);
        input.quiet = given.pick("quiet", input.quiet, self.quiet);
    }

    /// The settings for the file at `path` (as given on the command line or found in a
    /// directory): the top level with each matching override on top, in file order.
    /// Standard input gets the top level.
    pub fn settings_for(&self, path: Option<&Path>) -> Settings {
        let mut settings = self.settings.clone();
        let Some(path) = path else {
            return settings;
        };
        let absolute = clean_absolute(path);
        let relative = absolute.strip_prefix(&self.dir).unwrap_or(&absolute);
        let name = path.file_name().map(Path::new);
        for o in &self.overrides {
            let by_name = name.is_some_and(|n| o.names.is_match(n));
            if by_name || o.paths.is_match(relative) {
                settings = settings.then(&o.settings);
            }
        }
        settings
    }
}

/// Reads a table's settings, each value by its option's `FromStr`.
fn read_settings(
    at: &dyn Fn(Range<usize>) -> String,
    rules: Option<Spanned<String>>,
    lang: Option<Spanned<String>>,
    notation: Option<Spanned<String>>,
    encoding: Option<Spanned<String>>,
    select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
) -> anyhow::Result<Settings> {
    let codes = |list: Option<Vec<Spanned<String>>>| -> anyhow::Result<Option<Vec<String>>> {
        list.map(|names| {
            names
                .into_iter()
                .map(|name| {
                    name.get_ref()
                        .parse::<planilla_validator::Code>()
                        .map(|_| name.get_ref().clone())
                        .map_err(|e| anyhow::anyhow!("{}: {e}", at(name.span())))
                })
                .collect()
        })
        .transpose()
    };
    Ok(Settings {
        rules: read(at, rules)?,
        lang: read(at, lang)?,
        notation: read(at, notation)?,
        encoding: read(at, encoding)?,
        select: codes(select)?,
        ignore: codes(ignore)?,
        trf: None,
    })
}

/// Reads one value by its option's `FromStr`; an error names the file's line.
fn read<T: FromStr>(
    at: &dyn Fn(Range<usize>) -> String,
    value: Option<Spanned<String>>,
) -> anyhow::Result<Option<T>>
where
    T::Err: std::fmt::Display,
{
    value
        .map(|v| {
            v.get_ref()
                .parse::<T>()
                .map_err(|e| anyhow::anyhow!("{}: {e}", at(v.span())))
        })
        .transpose()
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The nearest `planilla.toml` in `dir` or a directory above it.
fn find(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|candidate| candidate.is_file())
}
