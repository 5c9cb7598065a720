//! `planilla lsp`: the language server (crate planilla-lsp) on standard input and
//! output, each document checked with the `planilla.toml` found above it.

use crate::config::{Config, ConfigArgs};
use clap::Args;
use planilla_lsp::Settings;
use planilla_validator::Code;
use planilla_validator::trf::TrfCheck;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `planilla lsp`.
#[derive(Args, Debug)]
pub struct LspArgs {
    /// Where options come from: by default the planilla.toml in each document's
    /// directory or the nearest one above it.
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Speak over standard input and output (the only channel; accepted because
    /// language clients pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// Runs the server until the client says `exit`.
pub fn run(args: LspArgs) -> anyhow::Result<ExitCode> {
    let config = args.config;
    let settings_for = move |path: Option<&Path>| -> Result<Settings, String> {
        let dir = match path.and_then(Path::parent) {
            Some(dir) => dir.to_path_buf(),
            None => std::env::current_dir().map_err(|e| e.to_string())?,
        };
        let file = Config::load_from(&config, &dir).map_err(|e| format!("{e:#}"))?;
        settings(&file, path)
    };
    planilla_lsp::run_stdio(Box::new(settings_for)).map_err(|e| anyhow::anyhow!("lsp: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// The language server's settings for the document at `path`: the file's top level
/// with its overrides for that path, as `check` reads them.
fn settings(file: &Config, path: Option<&Path>) -> Result<Settings, String> {
    let s = file.settings_for(path);
    let codes = |names: Option<Vec<String>>| -> Result<Option<Vec<Code>>, String> {
        names
            .map(|names| {
                names
                    .iter()
                    .map(|n| n.parse::<Code>().map_err(|e| e.to_string()))
                    .collect()
            })
            .transpose()
    };
    let trf = s.trf.as_deref().map(load_trf).transpose()?;
    Ok(Settings {
        config: planilla_validator::Config {
            rules: s.rules.unwrap_or_default(),
            lang: s.lang.and_then(|l| l.0),
            notation: s.notation.and_then(|n| n.0),
        },
        select: codes(s.select)?,
        ignore: codes(s.ignore)?.unwrap_or_default(),
        trf,
    })
}

/// The tournament report at `path` (`trf` in `planilla.toml`), read for the document
/// being opened: a report edited since is read again at the next open.
fn load_trf(path: &Path) -> Result<Arc<TrfCheck>, String> {
    crate::trf::read_trf(path, &path.display().to_string())
        .map(Arc::new)
        .map_err(|e| format!("{e:#}"))
}
