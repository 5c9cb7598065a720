//! The main loop: one thread owns the open documents and answers the client's messages
//! one at a time, as rust-analyzer's `main_loop` does (without its pool: a change
//! re-checks only the games it touched, which takes well under a millisecond a game, and
//! the open of a large file checks its games on the rayon pool). The one piece of work
//! done apart is the archive judgement of a large document: on a thread of its own once
//! the document has been quiet for `QUIET` (300 ms), its answer coming back to the loop as an
//! event tagged with the version it judged (a stale answer is kept until the next).

use crate::actions::{self, Fix};
use crate::diagnostics;
use crate::document::{Document, panic_text};
use crate::lines::Units;
use crate::{Settings, SettingsFor, hover, outline};
use crossbeam_channel::Sender;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{
    ApplyWorkspaceEdit, CodeActionRequest, DocumentSymbolRequest, ExecuteCommand,
    FoldingRangeRequest, Formatting, HoverRequest, Request as _,
};
use lsp_types::{
    ApplyWorkspaceEditParams, CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand,
    CodeActionParams, CodeActionProviderCapability, Command, DocumentFormattingParams,
    DocumentSymbolParams, DocumentSymbolResponse, ExecuteCommandOptions, ExecuteCommandParams,
    FoldingRangeParams, FoldingRangeProviderCapability, Hover, HoverContents, HoverParams,
    HoverProviderCapability, InitializeParams, MarkupContent, MarkupKind, MessageType,
    NumberOrString, OneOf, PositionEncodingKind, PublishDiagnosticsParams, ServerCapabilities,
    ServerInfo, ShowMessageParams, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, TextEdit, Url, WorkspaceEdit,
};
use planilla_validator::Code;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// The command that fixes a whole document (arguments: its URI).
pub const FIX_COMMAND: &str = "planilla.fix";
/// The command that converts a document's games (arguments: its URI, a language code
/// (`en` by default), and optionally the first and last game, 1-based).
pub const CONVERT_COMMAND: &str = "planilla.convert";

/// The languages offered in the code action menu (any other by the command).
const OFFERED: [planilla_core::san::Lang; 2] =
    [planilla_core::san::Lang::En, planilla_core::san::Lang::Es];

type Error = Box<dyn std::error::Error + Send + Sync>;

/// The server's state: the open documents, what positions count, how documents are
/// checked.
pub struct Server<'a> {
    connection: &'a Connection,
    docs: HashMap<Url, Document>,
    units: Units,
    settings_for: Box<SettingsFor>,
    next_id: u64,
    /// Where the archive judgements made apart come back.
    judged: Sender<Judged>,
    /// The documents whose archive is being judged apart.
    judging: HashSet<Url>,
    /// The documents whose archive is to be judged apart once no edit came for
    /// [`QUIET`], and when that is.
    due: HashMap<Url, Instant>,
}

/// How long a large document must go without an edit before its archive is judged
/// again: while a record is typed, the judgement (a sixth of a second for 10,000 games)
/// would take a core from the edits' re-checks.
const QUIET: Duration = Duration::from_millis(300);

/// An archive judgement made apart: of the document at `uri` as it was at `version`.
struct Judged {
    uri: Url,
    version: i32,
    findings: Vec<(u64, planilla_validator::Finding)>,
}

/// Documents of at most this many games have their archive judged before their
/// diagnostics are published (about 17 µs a game); larger ones publish their games'
/// findings at once and the archive findings when the judgement, made on a thread of
/// its own once the document is quiet, comes back (a stale one is made again).
const JUDGE_IN_LINE: usize = 1_000;

/// Runs the protocol on `connection`: the handshake, then every message until `exit`.
///
/// # Errors
///
/// The connection broke during the handshake or while sending.
pub fn run(connection: &Connection, settings_for: Box<SettingsFor>) -> Result<(), Error> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let units = choose_units(&params);
    let result = serde_json::json!({
        "capabilities": capabilities(units),
        "serverInfo": ServerInfo {
            name: "planilla".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    });
    connection.initialize_finish(id, result)?;
    let (judged, judgements) = crossbeam_channel::unbounded();
    let mut server = Server {
        connection,
        docs: HashMap::new(),
        units,
        settings_for,
        next_id: 0,
        judged,
        judging: HashSet::new(),
        due: HashMap::new(),
    };
    loop {
        let wait = server
            .due
            .values()
            .min()
            .map_or(Duration::from_secs(3600), |at| {
                at.saturating_duration_since(Instant::now())
            });
        crossbeam_channel::select! {
            recv(connection.receiver) -> message => {
                let Ok(message) = message else {
                    return Ok(());
                };
                match message {
                    Message::Request(request) => {
                        if connection.handle_shutdown(&request)? {
                            return Ok(());
                        }
                        let response = server.request(request);
                        connection.sender.send(Message::Response(response))?;
                    }
                    Message::Notification(notification) => server.notification(notification)?,
                    // Answers to our workspace/applyEdit: nothing to do.
                    Message::Response(_) => {}
                }
            }
            recv(judgements) -> judged => {
                if let Ok(judged) = judged {
                    server.judged(judged)?;
                }
            }
            default(wait) => {
                let now = Instant::now();
                let ready: Vec<Url> = server.due.iter().filter(|(_, at)| **at <= now).map(|(u, _)| u.clone()).collect();
                for uri in ready {
                    server.due.remove(&uri);
                    server.judge_apart(&uri);
                }
            }
        }
    }
}

/// The position encoding: the first the client offers (UTF-16 if it offers none).
fn choose_units(params: &InitializeParams) -> Units {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    for kind in offered.into_iter().flatten() {
        if *kind == PositionEncodingKind::UTF8 {
            return Units::Utf8;
        }
        if *kind == PositionEncodingKind::UTF32 {
            return Units::Utf32;
        }
        if *kind == PositionEncodingKind::UTF16 {
            return Units::Utf16;
        }
    }
    Units::Utf16
}

/// What the server does.
fn capabilities(units: Units) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::new(units.name())),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(false)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
                CodeActionKind::SOURCE_FIX_ALL,
                CodeActionKind::new("source.convert"),
            ]),
            ..CodeActionOptions::default()
        })),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![FIX_COMMAND.to_string(), CONVERT_COMMAND.to_string()],
            ..ExecuteCommandOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// Whether a document is one the server checks: a `.pgn` file, or `languageId` `pgn`.
fn is_pgn(uri: &Url, language: Option<&str>) -> bool {
    language == Some("pgn") || uri.path().to_ascii_lowercase().ends_with(".pgn")
}

impl Server<'_> {
    /// Answers one request; a handler's error or panic is an error response.
    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(request))) {
            Ok(Ok(response)) => response,
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(panic) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!(
                    "planilla failed on this request ({}); please report it",
                    panic_text(&*panic)
                ),
            ),
        }
    }

    fn dispatch(&mut self, request: Request) -> Result<Response, (ErrorCode, String)> {
        let id = request.id.clone();
        let ok = |value: Value| Ok(Response::new_ok(id.clone(), value));
        match request.method.as_str() {
            HoverRequest::METHOD => {
                let p: HoverParams = params(request)?;
                let uri = &p.text_document_position_params.text_document.uri;
                let Some(doc) = self.docs.get(uri) else {
                    return ok(Value::Null);
                };
                let at = doc.lines.offset(
                    &doc.text,
                    p.text_document_position_params.position,
                    self.units,
                );
                let hover = hover::at(doc, at).map(|(md, span)| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: md,
                    }),
                    range: Some(lsp_types::Range::new(
                        doc.lines.position(&doc.text, span.start, self.units),
                        doc.lines.position(&doc.text, span.end, self.units),
                    )),
                });
                ok(serde_json::to_value(hover).unwrap_or(Value::Null))
            }
            CodeActionRequest::METHOD => {
                let p: CodeActionParams = params(request)?;
                let actions = self.code_actions(&p);
                ok(serde_json::to_value(actions).unwrap_or(Value::Null))
            }
            ExecuteCommand::METHOD => {
                let p: ExecuteCommandParams = params(request)?;
                self.execute(&p)?;
                ok(Value::Null)
            }
            DocumentSymbolRequest::METHOD => {
                let p: DocumentSymbolParams = params(request)?;
                let symbols = self
                    .docs
                    .get(&p.text_document.uri)
                    .map(|doc| DocumentSymbolResponse::Nested(outline::symbols(doc, self.units)));
                ok(serde_json::to_value(symbols).unwrap_or(Value::Null))
            }
            FoldingRangeRequest::METHOD => {
                let p: FoldingRangeParams = params(request)?;
                let folds = self.docs.get(&p.text_document.uri).map(outline::folding);
                ok(serde_json::to_value(folds).unwrap_or(Value::Null))
            }
            Formatting::METHOD => {
                let p: DocumentFormattingParams = params(request)?;
                let edits: Option<Vec<TextEdit>> = self.docs.get(&p.text_document.uri).map(|doc| {
                    let fixes = actions::fix_games(doc, 0..doc.games.len());
                    actions::text_edits(doc, &fixes, self.units)
                });
                ok(serde_json::to_value(edits).unwrap_or(Value::Null))
            }
            method => Err((
                ErrorCode::MethodNotFound,
                format!("planilla lsp has no method '{method}'"),
            )),
        }
    }

    /// Applies one notification; a panic while a document changes re-reads it whole.
    fn notification(&mut self, n: Notification) -> Result<(), Error> {
        let uri = match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                else {
                    return Ok(());
                };
                let item = p.text_document;
                if !is_pgn(&item.uri, Some(item.language_id.as_str())) {
                    return Ok(());
                }
                let settings = self.settings(&item.uri)?;
                let name = item
                    .uri
                    .to_file_path()
                    .map_or_else(|_| item.uri.to_string(), |p| p.display().to_string());
                let text = item.text;
                let version = item.version;
                let doc = match catch_unwind(AssertUnwindSafe(|| {
                    Document::open(text, version, name.clone(), settings)
                })) {
                    Ok(doc) => doc,
                    Err(panic) => {
                        self.show(
                            MessageType::ERROR,
                            format!(
                                "planilla failed to read {name} ({}); please report it",
                                panic_text(&*panic)
                            ),
                        )?;
                        return Ok(());
                    }
                };
                self.docs.insert(item.uri.clone(), doc);
                item.uri
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                else {
                    return Ok(());
                };
                let uri = p.text_document.uri;
                let units = self.units;
                let Some(doc) = self.docs.get_mut(&uri) else {
                    return Ok(());
                };
                doc.version = p.text_document.version;
                let applied = catch_unwind(AssertUnwindSafe(|| {
                    for change in &p.content_changes {
                        doc.change(change.range, &change.text, units);
                    }
                }));
                if let Err(panic) = applied {
                    let why = panic_text(&*panic);
                    let text = std::mem::take(&mut doc.text);
                    let (version, name, settings) =
                        (doc.version, doc.name.clone(), doc.settings.clone());
                    *doc = Document::open(text, version, name, settings);
                    self.show(MessageType::WARNING, format!("planilla failed on an edit ({why}) and read the document again; please report it"))?;
                }
                uri
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                else {
                    return Ok(());
                };
                if self.docs.remove(&p.text_document.uri).is_some() {
                    self.publish_for(p.text_document.uri, Vec::new(), None)?;
                }
                return Ok(());
            }
            _ => return Ok(()),
        };
        self.changed(&uri)
    }

    /// The settings of the document at `uri`; a broken `planilla.toml` is said, and the
    /// defaults are used.
    fn settings(&mut self, uri: &Url) -> Result<Settings, Error> {
        let path = uri.to_file_path().ok();
        match (self.settings_for)(path.as_deref()) {
            Ok(settings) => Ok(settings),
            Err(why) => {
                self.show(
                    MessageType::WARNING,
                    format!("planilla: {why}; checking with the defaults"),
                )?;
                Ok(Settings::default())
            }
        }
    }

    fn show(&self, typ: MessageType, message: String) -> Result<(), Error> {
        let params = ShowMessageParams { typ, message };
        self.notify(ShowMessage::METHOD, serde_json::to_value(params)?)
    }

    fn notify(&self, method: &str, params: Value) -> Result<(), Error> {
        self.connection
            .sender
            .send(Message::Notification(Notification::new(
                method.to_string(),
                params,
            )))?;
        Ok(())
    }

    /// After the document at `uri` was opened or changed: its archive judged (now for a
    /// small document, apart for a large one) and its diagnostics published.
    fn changed(&mut self, uri: &Url) -> Result<(), Error> {
        let Some(doc) = self.docs.get_mut(uri) else {
            return Ok(());
        };
        if doc.games.len() <= JUDGE_IN_LINE {
            doc.judge_now();
            return self.publish(uri);
        }
        self.publish(uri)?;
        self.due.insert(uri.clone(), Instant::now() + QUIET);
        Ok(())
    }

    /// Starts a judgement of the archive of the document at `uri` on a thread of its own,
    /// unless one is under way (when it comes back stale, another starts).
    fn judge_apart(&mut self, uri: &Url) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        if self.judging.contains(uri) || doc.archive_version == Some(doc.version) {
            return;
        }
        let records = doc.records();
        let (name, version, sender) = (doc.name.clone(), doc.version, self.judged.clone());
        let uri = uri.clone();
        self.judging.insert(uri.clone());
        std::thread::spawn(move || {
            let findings =
                catch_unwind(AssertUnwindSafe(|| crate::document::judge(&name, &records)))
                    .unwrap_or_default();
            let _ = sender.send(Judged {
                uri,
                version,
                findings,
            });
        });
    }

    /// A judgement made apart came back: kept, published if the document has not
    /// changed since, else judged again.
    fn judged(&mut self, judged: Judged) -> Result<(), Error> {
        self.judging.remove(&judged.uri);
        let Some(doc) = self.docs.get_mut(&judged.uri) else {
            return Ok(());
        };
        doc.archive = judged.findings;
        doc.archive_version = Some(judged.version);
        if doc.version == judged.version {
            return self.publish(&judged.uri);
        }
        self.due
            .entry(judged.uri)
            .or_insert_with(|| Instant::now() + QUIET);
        Ok(())
    }

    /// Publishes the diagnostics of the document at `uri`.
    fn publish(&self, uri: &Url) -> Result<(), Error> {
        let Some(doc) = self.docs.get(uri) else {
            return Ok(());
        };
        let diagnostics = diagnostics::of(doc, self.units);
        self.publish_for(uri.clone(), diagnostics, Some(doc.version))
    }

    fn publish_for(
        &self,
        uri: Url,
        diagnostics: Vec<lsp_types::Diagnostic>,
        version: Option<i32>,
    ) -> Result<(), Error> {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.notify(PublishDiagnostics::METHOD, serde_json::to_value(params)?)
    }

    /// The code actions at a range: quick fixes for its diagnostics, conversions of the
    /// games it touches, and the whole file's fix and conversions (as commands).
    fn code_actions(&self, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let uri = &p.text_document.uri;
        let Some(doc) = self.docs.get(uri) else {
            return Vec::new();
        };
        let wanted = |kind: &CodeActionKind| {
            p.context.only.as_ref().is_none_or(|only| {
                only.iter().any(|o| {
                    kind.as_str() == o.as_str()
                        || kind.as_str().starts_with(&format!("{}.", o.as_str()))
                })
            })
        };
        let edit = |fixes: &[crate::edits::Replace]| WorkspaceEdit {
            changes: Some(HashMap::from([(
                uri.clone(),
                actions::text_edits(doc, fixes, self.units),
            )])),
            ..WorkspaceEdit::default()
        };
        let mut out = Vec::new();
        if wanted(&CodeActionKind::QUICKFIX) {
            for d in &p.context.diagnostics {
                if d.source.as_deref() != Some("planilla") {
                    continue;
                }
                let Some(NumberOrString::String(code)) = &d.code else {
                    continue;
                };
                let Ok(code) = code.parse::<Code>() else {
                    continue;
                };
                // The diagnostic as published (its columns as the client sends them back
                // only when it is none of the document's own findings).
                let span = diagnostics::span_of(doc, d).unwrap_or_else(|| {
                    doc.lines.offset(&doc.text, d.range.start, self.units)
                        ..doc.lines.offset(&doc.text, d.range.end, self.units)
                });
                for Fix { title, edits } in actions::quick_fixes(doc, code, span) {
                    out.push(CodeActionOrCommand::CodeAction(CodeAction {
                        title,
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![d.clone()]),
                        edit: Some(edit(&edits)),
                        is_preferred: Some(true),
                        ..CodeAction::default()
                    }));
                }
            }
        }
        // The games the range touches.
        let a = doc.lines.offset(&doc.text, p.range.start, self.units);
        let b = doc.lines.offset(&doc.text, p.range.end, self.units);
        let games = match (doc.game_at(a), doc.game_at(b.saturating_sub(1).max(a))) {
            (Some(first), Some(last)) => first..last + 1,
            _ => 0..0,
        };
        if wanted(&CodeActionKind::REFACTOR_REWRITE) && !games.is_empty() {
            for lang in OFFERED {
                let fixes = actions::convert_games(doc, games.clone(), lang);
                if fixes.is_empty() {
                    continue;
                }
                let what = match games.len() {
                    1 => "this game".to_string(),
                    n => format!("these {n} games"),
                };
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("Convert {what} to {} (planilla convert)", lang.name()),
                    kind: Some(CodeActionKind::REFACTOR_REWRITE),
                    edit: Some(edit(&fixes)),
                    ..CodeAction::default()
                }));
            }
        }
        let convert_kind = CodeActionKind::new("source.convert");
        if wanted(&convert_kind) && !doc.games.is_empty() {
            for lang in OFFERED {
                let name = lang.name();
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("Convert this file to {name} (planilla convert)"),
                    kind: Some(convert_kind.clone()),
                    command: Some(Command {
                        title: format!("Convert this file to {name}"),
                        command: CONVERT_COMMAND.to_string(),
                        arguments: Some(vec![
                            serde_json::to_value(uri).unwrap_or_default(),
                            Value::String(lang.to_string()),
                        ]),
                    }),
                    ..CodeAction::default()
                }));
            }
        }
        if wanted(&CodeActionKind::SOURCE_FIX_ALL) && !doc.games.is_empty() {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "Fix this file (planilla fix)".to_string(),
                kind: Some(CodeActionKind::SOURCE_FIX_ALL),
                command: Some(Command {
                    title: "Fix this file".to_string(),
                    command: FIX_COMMAND.to_string(),
                    arguments: Some(vec![serde_json::to_value(uri).unwrap_or_default()]),
                }),
                ..CodeAction::default()
            }));
        }
        out
    }

    /// Runs a command: the edits computed now, sent to the client to apply.
    fn execute(&mut self, p: &ExecuteCommandParams) -> Result<(), (ErrorCode, String)> {
        let bad = |m: &str| (ErrorCode::InvalidParams, m.to_string());
        let uri: Url = p
            .arguments
            .first()
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .ok_or_else(|| bad("the command's first argument is the document's URI"))?;
        let doc = self
            .docs
            .get(&uri)
            .ok_or_else(|| bad("the document is not open"))?;
        let all = 0..doc.games.len();
        let fixes = match p.command.as_str() {
            FIX_COMMAND => actions::fix_games(doc, all),
            CONVERT_COMMAND => {
                let lang = actions::language(p.arguments.get(1).and_then(Value::as_str))
                    .map_err(|e| bad(&e))?;
                let game = |i: usize| {
                    p.arguments
                        .get(i)
                        .and_then(Value::as_u64)
                        .map(|n| (n as usize).saturating_sub(1))
                };
                let first = game(2).unwrap_or(0).min(all.end);
                let last = game(3).map_or(all.end, |n| (n + 1).min(all.end)).max(first);
                actions::convert_games(doc, first..last, lang)
            }
            other => {
                return Err((
                    ErrorCode::InvalidParams,
                    format!("unknown command '{other}'"),
                ));
            }
        };
        let edits = actions::text_edits(doc, &fixes, self.units);
        let params = ApplyWorkspaceEditParams {
            label: Some(p.command.clone()),
            edit: WorkspaceEdit {
                changes: Some(HashMap::from([(uri, edits)])),
                ..WorkspaceEdit::default()
            },
        };
        self.next_id += 1;
        let request = Request::new(
            RequestId::from(format!("planilla-{}", self.next_id)),
            ApplyWorkspaceEdit::METHOD.to_string(),
            params,
        );
        self.connection
            .sender
            .send(Message::Request(request))
            .map_err(|e| (ErrorCode::InternalError, e.to_string()))
    }
}

/// A request's parameters, or an `InvalidParams` error.
fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(request.params)
        .map_err(|e| (ErrorCode::InvalidParams, format!("{}: {e}", request.method)))
}
