//! `xmv-rs lsp` driven over stdio as an editor would: the handshake, diagnostics on open and
//! after (debounced) edits, go to definition, hover and document symbols on every bundled spec,
//! and on every golden diagnostic case the same codes and places as `xmv-rs check` prints
//! (`tests/diagnostics/*.stderr`). Every wait has a timeout, so a silent server fails the test
//! instead of hanging it.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xmv-rs"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("xmv-rs lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("Content-Length header")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice::<Value>(&body).expect("JSON message")).is_err() {
                    return;
                }
            }
        });
        let mut server = Server { child, stdin, messages, next_id: 0 };
        let caps = server.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}));
        assert_eq!(caps["capabilities"]["hoverProvider"], true, "{caps}");
        assert_eq!(caps["capabilities"]["definitionProvider"], true);
        assert_eq!(caps["capabilities"]["documentSymbolProvider"], true);
        server.notify("initialized", json!({}));
        server
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write to server");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its result (notifications received meanwhile are dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.messages.recv_timeout(WAIT).unwrap_or_else(|_| panic!("no answer to {method}"));
            if m["id"] == id {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return m["result"].clone();
            }
        }
    }

    /// The next `publishDiagnostics` for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let m = self.messages.recv_timeout(WAIT).unwrap_or_else(|_| panic!("no diagnostics for {uri}"));
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
            }
        }
    }

    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "smv", "version": 1, "text": text}}));
        self.diagnostics(uri)
    }

    fn finish(mut self) {
        let _ = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("server exits");
        assert!(status.success(), "exit status {status}");
    }
}

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn smv_files(dir: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "smv"))
        .collect();
    paths.sort();
    paths
}

/// Positions (0-based line, UTF-16 column) of every identifier-like word on `SPEC` lines.
fn spec_words(text: &str) -> Vec<(usize, usize, String)> {
    let mut out = vec![];
    for (line_no, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if !(t.starts_with("SPEC") || t.starts_with("CTLSPEC") || t.starts_with("INVARSPEC")) {
            continue;
        }
        let mut word = String::new();
        let mut start = 0;
        for (col, c) in line.chars().chain(std::iter::once(' ')).enumerate() {
            if c.is_ascii_alphanumeric() || c == '_' {
                if word.is_empty() {
                    start = col;
                }
                word.push(c);
            } else if !word.is_empty() {
                if word.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
                    out.push((line_no, start, std::mem::take(&mut word)));
                }
                word.clear();
            }
        }
    }
    out
}

#[test]
fn bundled_specs_get_diagnostics_definitions_hovers_and_symbols() {
    let mut server = Server::start();
    let mut resolved = 0;
    for path in smv_files("specs") {
        let text = std::fs::read_to_string(&path).expect("readable");
        let uri = uri_of(&path);
        let diags = server.open(&uri, &text);
        assert!(diags.iter().all(|d| d["severity"] != 1), "{}: the bundled spec has errors: {diags:?}", path.display());
        // Symbols: one per module, in file order, named as in the text.
        let symbols = server.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
        let modules: Vec<&str> = symbols.as_array().into_iter().flatten().filter_map(|s| s["name"].as_str()).collect();
        let written: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("MODULE "))
            .map(|l| l.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or(""))
            .collect();
        assert_eq!(modules, written, "{}", path.display());
        // Every name in a spec that resolves points at a declaration of the same name, and its
        // hover shows that declaration.
        let lines: Vec<&str> = text.lines().collect();
        for (line, col, word) in spec_words(&text) {
            let at = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col}});
            let def = server.request("textDocument/definition", at.clone());
            if def.is_null() {
                continue;
            }
            assert_eq!(def["uri"], uri.as_str());
            let (l, c0, c1) = (
                def["range"]["start"]["line"].as_u64().unwrap_or(0),
                def["range"]["start"]["character"].as_u64().unwrap_or(0),
                def["range"]["end"]["character"].as_u64().unwrap_or(0),
            );
            let named: String = lines[l as usize].chars().skip(c0 as usize).take((c1 - c0) as usize).collect();
            assert_eq!(named, word, "{}:{}:{} goes to {def}", path.display(), line + 1, col + 1);
            let hover = server.request("textDocument/hover", at);
            let shown = hover["contents"]["value"].as_str().unwrap_or("");
            assert!(shown.contains(&word) && shown.starts_with("```smv\n"), "{}: hover on {word}: {shown}", path.display());
            resolved += 1;
        }
    }
    assert!(resolved >= 30, "only {resolved} spec names resolved");
    server.finish();
}

#[test]
fn malformed_files_show_the_codes_and_places_of_xmv_rs_check() {
    let mut server = Server::start();
    let mut compared = 0;
    for path in smv_files("tests/diagnostics") {
        let bytes = std::fs::read(&path).expect("readable");
        let Ok(text) = String::from_utf8(bytes) else { continue }; // LSP documents are text
        let golden = std::fs::read_to_string(path.with_extension("stderr")).expect("golden file");
        let diags = server.open(&uri_of(&path), &text);
        let codes: Vec<String> = diags.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect();
        let golden_codes: Vec<String> = (golden.lines())
            .filter(|l| l.starts_with("error[") || l.starts_with("warning["))
            .filter_map(|l| l.split_once('[').and_then(|(_, r)| r.split_once(']')).map(|(c, _)| c.to_string()))
            .collect();
        assert_eq!(codes, golden_codes, "{}", path.display());
        // Places as `line:column` (1-based, columns in characters as the text renderer counts
        // them; LSP positions count UTF-16 units and are converted with the document's text).
        let text_lines: Vec<&str> = text.split('\n').collect();
        let places: Vec<String> = (diags.iter())
            .map(|d| {
                let (line, utf16) =
                    (d["range"]["start"]["line"].as_u64().unwrap_or(0) as usize, d["range"]["start"]["character"].as_u64().unwrap_or(0) as usize);
                let mut units = 0;
                let chars = text_lines.get(line).map_or(0, |l| l.chars().take_while(|c| (units += c.len_utf16(), units <= utf16).1).count());
                format!("{}:{}", line + 1, chars + 1)
            })
            .collect();
        let golden_places: Vec<String> = (golden.lines())
            .filter_map(|l| l.trim_start().strip_prefix("┌─ "))
            .filter_map(|place| place.split_once(':').map(|(_, at)| at.to_string()))
            .collect();
        if golden.contains("...") {
            // (the text renderer windows long lines and shows shifted columns: lines only)
            let lines = |p: &[String]| p.iter().map(|p| p.split(':').next().unwrap_or("").to_string()).collect::<Vec<_>>();
            assert_eq!(lines(&places), lines(&golden_places), "{}", path.display());
        } else {
            assert_eq!(places, golden_places, "{}", path.display());
        }
        compared += 1;
    }
    assert!(compared >= 70, "only {compared} golden cases compared");
    server.finish();
}

#[test]
fn edits_are_debounced_and_diagnostics_follow_the_last_text() {
    let mut server = Server::start();
    let uri = "file:///tmp/edited.smv";
    assert!(server.open(uri, "MODULE main\nVAR x : boolean;\nSPEC AG x\n").is_empty());
    let change = |text: &str, version: i64| json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]});
    // Two edits in quick succession: broken, then an unknown name. Only the last is analysed.
    server.notify("textDocument/didChange", change("MODULE main\nVAR x : boolean\nSPEC AG (x\n", 2));
    server.notify("textDocument/didChange", change("MODULE main\nVAR x : boolean;\nSPEC AG y\n", 3));
    let diags = server.diagnostics(uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0101");
    assert_eq!(diags[0]["range"]["start"], json!({"line": 2, "character": 8}));
    // Definition through a dotted path into another module, and of a CALL-free module name.
    let text = "MODULE cell(l)\nVAR v : boolean;\nDEFINE out := v & l;\nMODULE main\nVAR c : cell(TRUE);\nSPEC AG c.out\n";
    server.notify("textDocument/didChange", change(text, 4));
    assert!(server.diagnostics(uri).is_empty());
    let def = server.request("textDocument/definition", json!({"textDocument": {"uri": uri}, "position": {"line": 5, "character": 10}}));
    assert_eq!(def["range"]["start"], json!({"line": 2, "character": 7}), "{def}");
    let def = server.request("textDocument/definition", json!({"textDocument": {"uri": uri}, "position": {"line": 4, "character": 9}}));
    assert_eq!(def["range"]["start"], json!({"line": 0, "character": 7}), "{def}");
    let hover = server.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 5, "character": 8}}));
    assert_eq!(hover["contents"]["value"], "```smv\nVAR c : cell(TRUE)\n```\nvariable of module `main`");
    // Closing clears the file's diagnostics.
    server.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
    assert!(server.diagnostics(uri).is_empty());
    server.finish();
}
