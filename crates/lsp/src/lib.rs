//! planilla-lsp: planilla's language server, `planilla lsp`. The findings of `check`
//! underlined as a record is typed, `fix`'s repairs one keystroke away, a move's
//! position on hover, one outline entry per game.
//!
//! The shape is rust-analyzer's `lsp-server`: [`lsp_server::Connection`] frames the
//! messages on two threads; one loop ([`server`]) owns every open [`document::Document`]
//! and answers one message at a time. A document keeps its text and, per game, what
//! `check` found, so that an edit re-reads and re-checks only the games it touched
//! ([`document`]); the open of a large file checks its games on the rayon pool. Handlers
//! are plain functions of a document: [`diagnostics`], [`actions`] (quick fixes, fix and
//! convert, formatting), [`hover`], [`outline`] (symbols and folding ranges). No request
//! kills the server: a panic in a handler is that request's error response.
//!
//! The front end gives the server one thing: how a document is checked
//! ([`SettingsFor`]: the binary reads the `planilla.toml` above the file).

#![warn(missing_docs)]

pub mod actions;
pub mod diagnostics;
pub mod document;
pub mod edits;
pub mod hover;
pub mod lines;
pub mod outline;
pub mod server;

use planilla_validator::trf::TrfCheck;
use planilla_validator::{Code, Config};
use std::path::Path;
use std::sync::Arc;

/// How one document is checked: what `planilla.toml` says for its path.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The checker's configuration (rules, lang, notation).
    pub config: Config,
    /// `select`: only these codes are shown (`None`: every code).
    pub select: Option<Vec<Code>>,
    /// `ignore`: these codes are never shown.
    pub ignore: Vec<Code>,
    /// `trf`: the tournament report each game is judged against, as `check --trf`
    /// judges it (`trf-result`, `trf-colours`, `trf-round`, `trf-unplayed`,
    /// `trf-unknown-game`). The report's own findings (`trf-file`, and
    /// `trf-missing-game`, which needs every game of the tournament) are `check`'s.
    pub trf: Option<Arc<TrfCheck>>,
}

impl Settings {
    /// Whether findings of `code` are shown.
    pub fn keeps(&self, code: Code) -> bool {
        self.select.as_ref().is_none_or(|s| s.contains(&code)) && !self.ignore.contains(&code)
    }
}

/// The settings of the document at a path (`None`: a document with no file, as an
/// unsaved buffer), or why they cannot be had (a broken `planilla.toml`: the server
/// says so and checks with the defaults).
pub type SettingsFor = dyn Fn(Option<&Path>) -> Result<Settings, String> + Send + Sync;

/// Serves the protocol on standard input and output until the client says `exit`.
///
/// # Errors
///
/// The connection broke, or the client spoke something else than the protocol.
pub fn run_stdio(
    settings: Box<SettingsFor>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    server::run(&connection, settings)?;
    drop(connection);
    io_threads.join()?;
    Ok(())
}
