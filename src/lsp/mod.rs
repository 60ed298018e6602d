//! `gwctl lsp`: a language server over stdin/stdout (synchronous: `lsp-server`, no async runtime
//! and no network). It keeps the workspace's run in memory ([`crate::lint::Incremental`]): an
//! edit lints the changed document again and re-runs the cross-resource stages, and the findings
//! are published per file. Hover, definition, references, symbols and completion read the run's
//! model and the document's tree; quick fixes are the findings' fixes.

mod actions;
mod complete;
mod hover;
mod locate;
mod navigate;
mod uri;
mod workspace;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Exit, Notification as _, PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, References,
    Request as _, Shutdown,
};
use lsp_types::{
    CompletionOptions, FileChangeType, HoverProviderCapability, InitializeParams, MessageType,
    OneOf, ServerCapabilities, ServerInfo, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};

use crate::config;
use workspace::Workspace;

/// Runs the server on stdin/stdout until the client says `exit` or goes away; the exit status
/// is 0 after a shutdown request and 1 without one (as the protocol asks). `Err` is a connection
/// broken during initialization.
pub fn serve() -> Result<u8, String> {
    let (connection, io_threads) = Connection::stdio();
    let shut_down = serve_on(&connection)?;
    drop(connection);
    io_threads.join().map_err(|e| e.to_string())?;
    Ok(if shut_down { 0 } else { 1 })
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".into(), " ".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

/// The protocol on a connection: initialize, the session, shutdown; whether the client asked
/// for the shutdown.
pub fn serve_on(connection: &Connection) -> Result<bool, String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "gwctl".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| e.to_string())?;
    let mut server = Server {
        connection,
        ws: Workspace::new(roots(&params)),
        dirty: None,
        shown: None,
    };
    if watches_files(&params) {
        server.send(Message::Request(watch_request()));
    }
    if let Some(problem) = server.ws.problem.take() {
        server.show(MessageType::WARNING, problem);
    }
    server.publish(None);
    Ok(server.main_loop())
}

/// Whether the client lets the server ask for file events (files created, changed or deleted
/// outside the editor).
fn watches_files(params: &InitializeParams) -> bool {
    params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files)
        .and_then(|w| w.dynamic_registration)
        == Some(true)
}

/// Asks for events of the files a lint reads (and the config file); the answer needs nothing.
fn watch_request() -> Request {
    let options = lsp_types::DidChangeWatchedFilesRegistrationOptions {
        watchers: vec![lsp_types::FileSystemWatcher {
            glob_pattern: lsp_types::GlobPattern::String("**/*.{yaml,yml,json}".into()),
            kind: None,
        }],
    };
    let params = lsp_types::RegistrationParams {
        registrations: vec![lsp_types::Registration {
            id: "gwctl-files".into(),
            method: DidChangeWatchedFiles::METHOD.into(),
            register_options: serde_json::to_value(options).ok(),
        }],
    };
    Request::new(
        "gwctl-watch".to_string().into(),
        lsp_types::request::RegisterCapability::METHOD.into(),
        params,
    )
}

/// The workspace folders (or the root) that are local directories.
#[allow(deprecated)] // `root_uri`: clients without workspace folders still send it.
fn roots(params: &InitializeParams) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| uri::to_path(&f.uri))
        .collect();
    if out.is_empty() {
        out.extend(params.root_uri.as_ref().and_then(uri::to_path));
    }
    out.retain(|p| p.is_dir());
    out
}

struct Server<'c> {
    connection: &'c Connection,
    ws: Workspace,
    /// Buffers changed since the last run: the run is made again once the queue is empty, or
    /// before a request (typing fast lints once, not per keystroke); the file to publish always.
    dirty: Option<Option<PathBuf>>,
    /// The findings without a place last shown (said again only when they change).
    shown: Option<String>,
}

impl Server<'_> {
    /// Whether the session ended with a shutdown request (rather than `exit` or a hang-up).
    fn main_loop(&mut self) -> bool {
        loop {
            let Ok(message) = self.connection.receiver.recv() else {
                return false;
            };
            match message {
                Message::Request(req) => {
                    if req.method == Shutdown::METHOD {
                        self.send(Message::Response(Response::new_ok(req.id, ())));
                        self.await_exit();
                        return true;
                    }
                    self.flush();
                    let response = self.request(req);
                    self.send(Message::Response(response));
                }
                Message::Notification(n) if n.method == Exit::METHOD => return false,
                Message::Notification(n) => self.notification(n),
                Message::Response(_) => {}
            }
            if self.connection.receiver.is_empty() {
                self.flush();
            }
        }
    }

    /// After shutdown: until `exit` or the client going away (both end the session cleanly).
    /// A repeated shutdown is answered again (Neovim 0.7 sends one more when it quits); other
    /// requests get the error the protocol asks for.
    fn await_exit(&self) {
        while let Ok(message) = self.connection.receiver.recv() {
            match message {
                Message::Notification(n) if n.method == Exit::METHOD => return,
                Message::Request(req) if req.method == Shutdown::METHOD => {
                    self.send(Message::Response(Response::new_ok(req.id, ())));
                }
                Message::Request(req) => self.send(Message::Response(Response::new_err(
                    req.id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down".into(),
                ))),
                Message::Notification(_) | Message::Response(_) => {}
            }
        }
    }

    fn send(&self, message: Message) {
        // A closed connection ends the loop at the next receive.
        let _ = self.connection.sender.send(message);
    }

    fn show(&self, typ: MessageType, message: String) {
        let params = ShowMessageParams { typ, message };
        self.send(Message::Notification(Notification::new(
            ShowMessage::METHOD.to_string(),
            params,
        )));
    }

    /// Lints again when buffers changed, and publishes what changed.
    fn flush(&mut self) {
        if let Some(changed) = self.dirty.take() {
            if catch_unwind(AssertUnwindSafe(|| self.ws.relint())).is_err() {
                self.show(
                    MessageType::ERROR,
                    "gwctl: internal error while linting (please report it)".into(),
                );
                return;
            }
            self.publish(changed.as_deref());
        }
    }

    fn publish(&mut self, always: Option<&std::path::Path>) {
        for params in self.ws.diagnostics_to_publish(always) {
            self.send(Message::Notification(Notification::new(
                PublishDiagnostics::METHOD.to_string(),
                params,
            )));
        }
        let placeless = crate::report::lsp::placeless_message(&self.ws.run.diagnostics);
        if placeless != self.shown {
            if let Some(message) = &placeless {
                self.show(MessageType::WARNING, message.clone());
            }
            self.shown = placeless;
        }
    }

    fn mark_dirty(&mut self, path: Option<PathBuf>) {
        let keep = self.dirty.take().flatten();
        self.dirty = Some(path.or(keep));
    }

    fn notification(&mut self, n: Notification) {
        let outcome = catch_unwind(AssertUnwindSafe(|| self.apply(n)));
        if outcome.is_err() {
            self.show(
                MessageType::ERROR,
                "gwctl: internal error on a notification (please report it)".into(),
            );
        }
    }

    fn apply(&mut self, n: Notification) {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = parse::<DidOpenTextDocument>(n) {
                    let doc = p.text_document;
                    if let Some(path) = uri::to_path(&doc.uri) {
                        self.ws.set_buffer(&path, doc.text, doc.version);
                        self.mark_dirty(Some(path));
                    }
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = parse::<DidChangeTextDocument>(n)
                    && let Some(path) = uri::to_path(&p.text_document.uri)
                {
                    self.ws
                        .change_buffer(&path, p.content_changes, p.text_document.version);
                    self.mark_dirty(Some(path));
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = parse::<DidCloseTextDocument>(n)
                    && let Some(path) = uri::to_path(&p.text_document.uri)
                {
                    self.ws.close_buffer(&path);
                    self.mark_dirty(Some(path));
                }
            }
            DidSaveTextDocument::METHOD => {}
            DidChangeWatchedFiles::METHOD => {
                if let Ok(p) = parse::<DidChangeWatchedFiles>(n) {
                    let created_or_deleted =
                        p.changes.iter().any(|c| c.typ != FileChangeType::CHANGED);
                    let config = p.changes.iter().any(|c| {
                        uri::to_path(&c.uri)
                            .and_then(|p| p.file_name().map(|n| n.to_os_string()))
                            .is_some_and(|n| config::CONFIG_FILE_NAMES.iter().any(|c| n == *c))
                    });
                    if config {
                        self.ws.reconfigure();
                        if let Some(problem) = self.ws.problem.take() {
                            self.show(MessageType::WARNING, problem);
                        }
                        self.publish(None);
                    } else if created_or_deleted {
                        self.ws.reload();
                        self.publish(None);
                    } else {
                        for c in &p.changes {
                            if let Some(path) = uri::to_path(&c.uri) {
                                self.ws.disk_changed(&path);
                            }
                        }
                        self.mark_dirty(None);
                    }
                }
            }
            _ => {}
        }
    }

    fn request(&mut self, req: Request) -> Response {
        let ws = &self.ws;
        match req.method.as_str() {
            HoverRequest::METHOD => respond::<HoverRequest>(req, |p| hover::hover(ws, p)),
            GotoDefinition::METHOD => {
                respond::<GotoDefinition>(req, |p| navigate::definition(ws, p))
            }
            References::METHOD => respond::<References>(req, |p| navigate::references(ws, p)),
            DocumentSymbolRequest::METHOD => {
                respond::<DocumentSymbolRequest>(req, |p| navigate::symbols(ws, p))
            }
            Completion::METHOD => respond::<Completion>(req, |p| complete::completion(ws, p)),
            CodeActionRequest::METHOD => {
                respond::<CodeActionRequest>(req, |p| actions::code_actions(ws, p))
            }
            _ => Response::new_err(
                req.id,
                ErrorCode::MethodNotFound as i32,
                format!("gwctl lsp does not handle {}", req.method),
            ),
        }
    }
}

fn parse<N: lsp_types::notification::Notification>(n: Notification) -> Result<N::Params, ()> {
    serde_json::from_value(n.params).map_err(|_| ())
}

/// The response to a request: its result, an error for parameters that are not the method's,
/// and an internal error (not a crash) when the handler panics.
fn respond<R: lsp_types::request::Request>(
    req: Request,
    handler: impl FnOnce(R::Params) -> R::Result,
) -> Response {
    let params: R::Params = match serde_json::from_value(req.params) {
        Ok(p) => p,
        Err(e) => {
            return Response::new_err(
                req.id,
                ErrorCode::InvalidParams as i32,
                format!("invalid parameters of {}: {e}", R::METHOD),
            );
        }
    };
    match catch_unwind(AssertUnwindSafe(|| handler(params))) {
        Ok(result) => Response::new_ok(req.id, result),
        Err(_) => Response::new_err(
            req.id,
            ErrorCode::InternalError as i32,
            format!("gwctl: internal error in {} (please report it)", R::METHOD),
        ),
    }
}

/// The path of a document the request names.
fn path_of(uri: &Uri) -> Option<PathBuf> {
    uri::to_path(uri)
}
