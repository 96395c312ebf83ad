//! `xmv-rs lsp`: a language server for `.smv` files over stdin/stdout (the Language Server
//! Protocol, on rust-analyzer's `lsp-server` crate: synchronous, one thread, no async runtime).
//!
//! It answers:
//! * diagnostics — the front end's (`frontend::load`: syntax, resolution, typing, lowering; the
//!   same codes and spans as `xmv-rs check` prints before building a state space), published
//!   for a file when it is opened and after edits have paused for [`DEBOUNCE`]; only the files
//!   that changed are analysed again (whole-file sync);
//! * go to definition and hover for modules, parameters, variables, DEFINEs, named exits and
//!   `CALL` targets, through dotted paths (`index::Index`);
//! * document symbols: each module with its parameters, variables, DEFINEs and exits.
//!
//! Assumes: documents are `.smv` text sent in full on every change (`TextDocumentSyncKind::FULL`);
//! positions in UTF-16 units (`convert`). State-space errors (`E05xx`) need a build and are only
//! reported by `xmv-rs check`.

mod convert;
pub(crate) mod grammar;
mod index;

use crate::source::SourceFile;
use index::{Decl, DeclKind, Index};
use lsp_server::{Connection, ExtractError, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use std::collections::BTreeMap;
use std::time::Duration;

/// How long edits must pause before a changed file is analysed again.
pub(crate) const DEBOUNCE: Duration = Duration::from_millis(200);

/// Runs the server on stdin/stdout until the client says `exit`. Returns the process exit code
/// (0 after a `shutdown` request, 1 otherwise, as the protocol asks).
pub fn run_stdio() -> i32 {
    let (connection, io_threads) = Connection::stdio();
    let code = match serve(&connection) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("xmv-rs lsp: {e}");
            1
        }
    };
    drop(connection);
    let _ = io_threads.join();
    code
}

/// What the server announces.
fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(lsp::TextDocumentSyncKind::FULL)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        ..lsp::ServerCapabilities::default()
    }
}

/// One open document.
struct Document {
    file: SourceFile,
    /// Edited since its diagnostics were last published.
    dirty: bool,
}

/// Handshake, then the message loop. `Err` is a protocol failure (the client went away
/// without `shutdown`/`exit`, or sent something that is not the protocol).
pub(crate) fn serve(connection: &Connection) -> Result<(), String> {
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    connection.initialize(caps).map_err(|e| e.to_string())?;
    let mut docs: BTreeMap<String, (lsp::Uri, Document)> = BTreeMap::new();
    let mut shutdown = false;
    loop {
        let pending = docs.values().any(|(_, d)| d.dirty);
        let message = if pending {
            match connection.receiver.recv_timeout(DEBOUNCE) {
                Ok(m) => Some(m),
                Err(crossbeam_timeout) if crossbeam_timeout.is_timeout() => None,
                Err(_) => return Err("the client closed the connection".into()),
            }
        } else {
            Some(connection.receiver.recv().map_err(|_| "the client closed the connection".to_string())?)
        };
        let Some(message) = message else {
            publish_dirty(connection, &mut docs)?;
            continue;
        };
        match message {
            Message::Request(req) => {
                if req.method == lsp::request::Shutdown::METHOD {
                    shutdown = true;
                    send(connection, Response::new_ok(req.id, ()))?;
                    continue;
                }
                // Answer on the latest text; publish first if edits are waiting, so a client
                // that asks right after typing sees the diagnostics of what it asks about.
                send(connection, answer(req, &docs))?;
            }
            Message::Notification(n) if n.method == lsp::notification::Exit::METHOD => {
                return if shutdown { Ok(()) } else { Err("exit without shutdown".into()) };
            }
            Message::Notification(n) => on_notification(n, &mut docs, connection)?,
            Message::Response(_) => {}
        }
    }
}

fn send(connection: &Connection, m: impl Into<Message>) -> Result<(), String> {
    connection.sender.send(m.into()).map_err(|e| e.to_string())
}

fn on_notification(n: Notification, docs: &mut BTreeMap<String, (lsp::Uri, Document)>, connection: &Connection) -> Result<(), String> {
    match n.method.as_str() {
        lsp::notification::DidOpenTextDocument::METHOD => {
            let p: lsp::DidOpenTextDocumentParams = params(n)?;
            let uri = p.text_document.uri;
            let file = SourceFile::new(file_name(&uri), p.text_document.text);
            docs.insert(uri.as_str().to_string(), (uri.clone(), Document { file, dirty: false }));
            publish(connection, docs, uri.as_str())?;
        }
        lsp::notification::DidChangeTextDocument::METHOD => {
            let p: lsp::DidChangeTextDocumentParams = params(n)?;
            let key = p.text_document.uri.as_str().to_string();
            // Full sync: the last change holds the whole text.
            if let (Some((uri, doc)), Some(change)) = (docs.get_mut(&key), p.content_changes.into_iter().last()) {
                doc.file = SourceFile::new(file_name(uri), change.text);
                doc.dirty = true;
            }
        }
        lsp::notification::DidCloseTextDocument::METHOD => {
            let p: lsp::DidCloseTextDocumentParams = params(n)?;
            if let Some((uri, _)) = docs.remove(p.text_document.uri.as_str()) {
                let clear = lsp::PublishDiagnosticsParams { uri, diagnostics: vec![], version: None };
                send(connection, Notification::new(lsp::notification::PublishDiagnostics::METHOD.into(), clear))?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn params<P: serde::de::DeserializeOwned>(n: Notification) -> Result<P, String> {
    serde_json::from_value(n.params).map_err(|e| format!("malformed {}: {e}", n.method))
}

/// The name diagnostics use for a document: its path for `file:` URIs, else the URI.
fn file_name(uri: &lsp::Uri) -> String {
    let s = uri.as_str();
    s.strip_prefix("file://").unwrap_or(s).to_string()
}

fn publish_dirty(connection: &Connection, docs: &mut BTreeMap<String, (lsp::Uri, Document)>) -> Result<(), String> {
    let dirty: Vec<String> = docs.iter().filter(|(_, (_, d))| d.dirty).map(|(k, _)| k.clone()).collect();
    for key in dirty {
        publish(connection, docs, &key)?;
    }
    Ok(())
}

/// Analyses one document and publishes its diagnostics.
fn publish(connection: &Connection, docs: &mut BTreeMap<String, (lsp::Uri, Document)>, key: &str) -> Result<(), String> {
    let Some((uri, doc)) = docs.get_mut(key) else { return Ok(()) };
    doc.dirty = false;
    let (_, diags) = crate::frontend::load(&doc.file, None);
    let mut items: Vec<&crate::diagnostics::Diagnostic> = diags.items.iter().collect();
    items.sort_by_key(|d| d.primary_span().start); // the order `xmv-rs check` prints
    let diagnostics = items.into_iter().map(|d| convert::diagnostic(&doc.file, uri, d)).collect();
    let params = lsp::PublishDiagnosticsParams { uri: uri.clone(), diagnostics, version: None };
    send(connection, Notification::new(lsp::notification::PublishDiagnostics::METHOD.into(), params))
}

/// The response to a request.
fn answer(req: Request, docs: &BTreeMap<String, (lsp::Uri, Document)>) -> Response {
    let id = req.id.clone();
    let result = match req.method.as_str() {
        lsp::request::GotoDefinition::METHOD => extract::<lsp::request::GotoDefinition>(req).map(|p| {
            let at = p.text_document_position_params;
            let found = lookup(docs, &at.text_document.uri, at.position, |doc, _, decl| {
                lsp::GotoDefinitionResponse::Scalar(lsp::Location { uri: at.text_document.uri.clone(), range: convert::range(&doc.file, decl.name_span) })
            });
            serde_json::to_value(found)
        }),
        lsp::request::HoverRequest::METHOD => extract::<lsp::request::HoverRequest>(req).map(|p| {
            let at = p.text_document_position_params;
            let found = lookup(docs, &at.text_document.uri, at.position, |doc, index, decl| lsp::Hover {
                contents: lsp::HoverContents::Markup(lsp::MarkupContent { kind: lsp::MarkupKind::Markdown, value: hover_text(&doc.file, index, decl) }),
                range: None,
            });
            serde_json::to_value(found)
        }),
        lsp::request::DocumentSymbolRequest::METHOD => extract::<lsp::request::DocumentSymbolRequest>(req).map(|p| {
            let symbols = docs.get(p.text_document.uri.as_str()).map(|(_, doc)| lsp::DocumentSymbolResponse::Nested(document_symbols(&doc.file)));
            serde_json::to_value(symbols)
        }),
        _ => return Response::new_err(id, lsp_server::ErrorCode::MethodNotFound as i32, format!("xmv-rs lsp does not answer {}", req.method)),
    };
    match result {
        Ok(Ok(value)) => Response::new_ok(id, value),
        Ok(Err(e)) => Response::new_err(id, lsp_server::ErrorCode::InternalError as i32, e.to_string()),
        Err(e) => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, e),
    }
}

fn extract<R: lsp::request::Request>(req: Request) -> Result<R::Params, String> {
    req.extract::<R::Params>(R::METHOD).map(|(_, p): (RequestId, R::Params)| p).map_err(|e| match e {
        ExtractError::MethodMismatch(r) => format!("unexpected method {}", r.method),
        ExtractError::JsonError { method, error } => format!("malformed {method}: {error}"),
    })
}

/// Resolves the name at `position` of the document and maps its declaration with `f`.
fn lookup<T>(docs: &BTreeMap<String, (lsp::Uri, Document)>, uri: &lsp::Uri, position: lsp::Position, f: impl Fn(&Document, &Index, &Decl) -> T) -> Option<T> {
    let (_, doc) = docs.get(uri.as_str())?;
    let (program, _) = crate::syntax::parse(&doc.file);
    let index = Index::of(&program);
    let decl = index.resolve_at(&program, convert::offset(&doc.file, position))?;
    Some(f(doc, &index, decl))
}

/// The declaration as written, in a code block, with where it is declared.
fn hover_text(file: &SourceFile, index: &Index, decl: &Decl) -> String {
    let written = file.slice(decl.span).trim();
    let (what, code) = match decl.kind {
        DeclKind::Module => ("module", written.lines().next().unwrap_or("").trim_end().to_string()),
        DeclKind::Parameter => ("parameter", decl.name.clone()),
        DeclKind::Variable(kind) => {
            let keyword = match kind {
                crate::syntax::ast::VarKind::State => "VAR",
                crate::syntax::ast::VarKind::Input => "IVAR",
                crate::syntax::ast::VarKind::Frozen => "FROZENVAR",
            };
            ("variable", format!("{keyword} {}", written.trim_end_matches(';')))
        }
        DeclKind::Define => ("DEFINE", format!("DEFINE {}", written.trim_end_matches(';'))),
        DeclKind::Exit => ("exit", format!("EXIT {}", written.trim_end_matches(';'))),
    };
    let owner = decl.module.and_then(|m| index.decls.get(m)).map(|m| format!(" of module `{}`", m.name)).unwrap_or_default();
    format!("```smv\n{code}\n```\n{what}{owner}")
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written out
fn document_symbols(file: &SourceFile) -> Vec<lsp::DocumentSymbol> {
    let (program, _) = crate::syntax::parse(file);
    let index = Index::of(&program);
    let symbol = |decl: &Decl, kind: lsp::SymbolKind, children: Option<Vec<lsp::DocumentSymbol>>| lsp::DocumentSymbol {
        name: decl.name.clone(),
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range: convert::range(file, decl.span.to(decl.name_span)),
        selection_range: convert::range(file, decl.name_span),
        children,
    };
    (index.decls.iter().enumerate())
        .filter(|(_, d)| d.kind == DeclKind::Module)
        .map(|(i, module)| {
            let children = index
                .members(i)
                .map(|d| {
                    let kind = match d.kind {
                        DeclKind::Parameter => lsp::SymbolKind::TYPE_PARAMETER,
                        DeclKind::Variable(_) if d.instance_of.is_some() => lsp::SymbolKind::OBJECT,
                        DeclKind::Variable(_) => lsp::SymbolKind::VARIABLE,
                        DeclKind::Define => lsp::SymbolKind::CONSTANT,
                        DeclKind::Exit | DeclKind::Module => lsp::SymbolKind::EVENT,
                    };
                    symbol(d, kind, None)
                })
                .collect();
            symbol(module, lsp::SymbolKind::MODULE, Some(children))
        })
        .collect()
}
