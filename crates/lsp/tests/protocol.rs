//! The protocol, end to end in one process: the server's loop on a thread, a scripted
//! client on the other end of `Connection::memory()` (as rust-analyzer's slow tests
//! drive theirs). Each test speaks as a client would and checks what comes back.

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use planilla_lsp::{Settings, server};
use serde_json::{Value, json};
use std::thread::JoinHandle;
use std::time::Duration;

const URI: &str = "file:///archive/round1.pgn";

/// `corpora/check/repair.pgn`'s first game: `3. Nb5` is `3. Bb5` mistyped.
const GAME: &str = "[Event \"e\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Nb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n";

struct Client {
    conn: Connection,
    server: Option<JoinHandle<()>>,
    next: i32,
    /// Messages that came while another was awaited.
    held: Vec<Message>,
}

impl Client {
    /// A server with default settings, initialized with the client's `capabilities`.
    fn start(capabilities: Value) -> (Client, Value) {
        let (server_end, client_end) = Connection::memory();
        let handle = std::thread::spawn(move || {
            server::run(&server_end, Box::new(|_| Ok(Settings::default())))
                .expect("the server's loop");
        });
        let mut client = Client {
            conn: client_end,
            server: Some(handle),
            next: 0,
            held: Vec::new(),
        };
        let result = client.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": capabilities}),
        );
        client.notify("initialized", json!({}));
        (client, result.result.expect("initialize's result"))
    }

    fn notify(&self, method: &str, params: Value) {
        self.conn
            .sender
            .send(Message::Notification(Notification::new(
                method.to_string(),
                params,
            )))
            .expect("send");
    }

    fn recv(&mut self) -> Message {
        self.conn
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    fn request(&mut self, method: &str, params: Value) -> Response {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn
            .sender
            .send(Message::Request(Request::new(
                id.clone(),
                method.to_string(),
                params,
            )))
            .expect("send");
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => return r,
                other => self.held.push(other),
            }
        }
    }

    /// The next notification `method` (held ones first).
    fn notification(&mut self, method: &str) -> Value {
        if let Some(i) = self
            .held
            .iter()
            .position(|m| matches!(m, Message::Notification(n) if n.method == method))
        {
            let Message::Notification(n) = self.held.remove(i) else {
                unreachable!()
            };
            return n.params;
        }
        loop {
            match self.recv() {
                Message::Notification(n) if n.method == method => return n.params,
                other => self.held.push(other),
            }
        }
    }

    fn open(&mut self, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "pgn", "version": 1, "text": text}}),
        );
        diagnostics(self.notification("textDocument/publishDiagnostics"))
    }

    fn shutdown(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert!(r.error.is_none(), "{r:?}");
        self.notify("exit", Value::Null);
        self.server
            .take()
            .unwrap()
            .join()
            .expect("the server stops after exit");
    }
}

fn diagnostics(params: Value) -> Vec<Value> {
    assert_eq!(params["uri"], URI);
    params["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .clone()
}

/// The quick fixes among a code-action response's actions.
fn quick_fixes(actions: &Value) -> Vec<&Value> {
    actions
        .as_array()
        .expect("a list of actions")
        .iter()
        .filter(|a| a["kind"] == "quickfix")
        .collect()
}

fn codes(diags: &[Value]) -> Vec<&str> {
    diags.iter().map(|d| d["code"].as_str().unwrap()).collect()
}

/// The text with the edits (LSP ranges, UTF-16 on this ASCII text) applied.
fn apply(text: &str, edits: &[Value]) -> String {
    let lines: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let at = |p: &Value| {
        lines[p["line"].as_u64().unwrap() as usize] + p["character"].as_u64().unwrap() as usize
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                at(&e["range"]["start"]),
                at(&e["range"]["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort();
    let mut out = String::new();
    let mut from = 0;
    for (a, b, t) in spans {
        out.push_str(&text[from..a]);
        out.push_str(t);
        from = b;
    }
    out.push_str(&text[from..]);
    out
}

#[test]
fn diagnostics_follow_the_edits() {
    let (mut c, init) = Client::start(json!({}));
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(
        init["capabilities"]["textDocumentSync"]["change"], 2,
        "incremental"
    );
    let diags = c.open(GAME);
    assert_eq!(codes(&diags), ["illegal-move"]);
    let d = &diags[0];
    assert_eq!(d["source"], "planilla");
    assert_eq!(d["severity"], 1);
    // The move's whole token: `Nb5` on line 9 (0-based 8), columns 23..26.
    assert_eq!(
        d["range"],
        json!({"start": {"line": 8, "character": 23}, "end": {"line": 8, "character": 26}})
    );
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .starts_with("game 1, ply 5 (3. Nb5): no knight can reach b5"),
        "{d}"
    );

    // Typing the fix: `N` becomes `B`; the version is published with the diagnostics.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 8, "character": 23}, "end": {"line": 8, "character": 24}}, "text": "B"}
        ]}),
    );
    let p = c.notification("textDocument/publishDiagnostics");
    assert_eq!(p["version"], 2);
    assert!(diagnostics(p).is_empty());

    // A second game pasted after the first, with a mistake: only it is reported.
    let end = json!({"line": 10, "character": 0});
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3}, "contentChanges": [
            {"range": {"start": end, "end": end}, "text": "\n[Event \"f\"]\n\n1. e4 e5 2. Ke2 Kxe2 *\n"}
        ]}),
    );
    let diags = diagnostics(c.notification("textDocument/publishDiagnostics"));
    assert!(codes(&diags).contains(&"illegal-move"), "{diags:?}");
    let illegal = diags.iter().find(|d| d["code"] == "illegal-move").unwrap();
    assert_eq!(illegal["range"]["start"]["line"], 12);
    assert!(
        illegal["message"]
            .as_str()
            .unwrap()
            .starts_with("game 2, ply 4 (2... Kxe2)"),
        "{illegal}"
    );
    c.shutdown();
}

#[test]
fn a_quick_fix_is_fix_s_change_and_only_it() {
    let (mut c, _) = Client::start(json!({}));
    let diags = c.open(GAME);
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": diags[0]["range"], "context": {"diagnostics": diags}}),
    );
    let actions = r.result.expect("actions");
    let quick = quick_fixes(&actions);
    assert_eq!(quick.len(), 1, "{actions}");
    assert_eq!(quick[0]["isPreferred"], true);
    let edits = quick[0]["edit"]["changes"][URI].as_array().unwrap();
    assert_eq!(edits.len(), 1, "one token changes");
    assert_eq!(apply(GAME, edits), GAME.replace("3. Nb5", "3. Bb5"));
    // The whole file's fix and conversions are offered as commands.
    let kinds: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"source.fixAll") && kinds.contains(&"source.convert"),
        "{kinds:?}"
    );
    c.shutdown();
}

/// Neovim 0.7 sends a diagnostic back with byte columns where the protocol has UTF-16
/// units: on a line with non-ASCII text before the move, its columns are off. The quick
/// fix is found all the same (by the diagnostic's code, line and message).
#[test]
fn a_quick_fix_is_found_from_a_diagnostic_with_byte_columns() {
    let text = GAME.replace("3. Nb5", "{Évora, ½ ¿?} 3. Nb5");
    let (mut c, _) = Client::start(json!({}));
    let diags = c.open(&text);
    assert_eq!(codes(&diags), ["illegal-move"], "{diags:?}");
    // The move's columns counted in bytes, as that client counts them.
    let line = text
        .lines()
        .nth(diags[0]["range"]["start"]["line"].as_u64().unwrap() as usize)
        .unwrap();
    let byte_start = line.find("Nb5").unwrap();
    let utf16_start = line[..byte_start].encode_utf16().count();
    assert_eq!(diags[0]["range"]["start"]["character"], utf16_start);
    assert_ne!(byte_start, utf16_start);
    let mut sent = diags[0].clone();
    sent["range"]["start"]["character"] = json!(byte_start);
    sent["range"]["end"]["character"] = json!(byte_start + 3);
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": sent["range"], "context": {"diagnostics": [sent]}}),
    );
    let actions = r.result.expect("actions");
    let quick = quick_fixes(&actions);
    assert_eq!(quick.len(), 1, "{actions}");
    // The edit is in the protocol's units, as the server published the diagnostic.
    let edit = &quick[0]["edit"]["changes"][URI][0];
    assert_eq!(edit["range"]["start"]["character"], utf16_start);
    assert_eq!(edit["newText"], "Bb5");
    c.shutdown();
}

#[test]
fn commands_send_their_edits_to_the_client() {
    let (mut c, _) = Client::start(json!({}));
    let spanish = "[Event \"e\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. O-O Cf6 *\n";
    c.open(spanish);
    let r = c.request(
        "workspace/executeCommand",
        json!({"command": "planilla.convert", "arguments": [URI, "en"]}),
    );
    assert!(r.error.is_none(), "{r:?}");
    // The server's workspace/applyEdit request came before its answer.
    let Some(Message::Request(apply_edit)) = c.held.pop() else {
        panic!("no workspace/applyEdit: {:?}", c.held);
    };
    assert_eq!(apply_edit.method, "workspace/applyEdit");
    let edits = apply_edit.params["edit"]["changes"][URI]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(edits.len(), 4, "only the moves with letters: {edits:?}");
    assert_eq!(
        apply(spanish, &edits),
        "[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 *\n"
    );
    // The client's answer is taken without complaint.
    c.conn
        .sender
        .send(Message::Response(Response::new_ok(
            apply_edit.id,
            json!({"applied": true}),
        )))
        .unwrap();
    let bad = c.request(
        "workspace/executeCommand",
        json!({"command": "planilla.convert", "arguments": [URI, "xx"]}),
    );
    assert!(bad.error.unwrap().message.contains("unknown language 'xx'"));
    c.shutdown();
}

#[test]
fn hover_symbols_folding_and_formatting() {
    // The client counts in UTF-32: columns in characters.
    let (mut c, init) =
        Client::start(json!({"general": {"positionEncodings": ["utf-32", "utf-16"]}}));
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-32");
    let text = format!(
        "{GAME}\n[Event \"Open\"]\n[White \"Ñandú, José\"]\n[Black \"Zoë\"]\n[Round \"2\"]\n[Result \"*\"]\n\n1. d4 {{a\ncomment}} d5 (1... Nf6\n2. c4) 2. Cf3 *\n"
    );
    c.open(&text);
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": 8, "character": 4}}),
    );
    let value = hover.result.unwrap()["contents"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(value.contains("White to move"), "{value}");
    assert!(value.contains("UCI `e2e4`"), "{value}");
    assert!(value.contains("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"), "{value}");
    assert!(value.contains("data:image/svg+xml;base64,"), "{value}");
    // The faulty move: the legal moves to its square.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": 8, "character": 24}}),
    );
    let value = hover.result.unwrap()["contents"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        value.contains("does not replay") && value.contains("Legal moves to b5: Bb5"),
        "{value}"
    );
    // Nothing on a tag.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 2}}),
    );
    assert_eq!(hover.result, Some(Value::Null));

    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let symbols = symbols.result.unwrap();
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["A – B", "Ñandú, José – Zoë"]);
    assert_eq!(symbols[1]["detail"], "Open, 2, *");
    assert_eq!(symbols[1]["range"]["start"]["line"], 10);

    let folds = c.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": URI}}),
    );
    let folds: Vec<(u64, u64)> = folds
        .result
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    // Each game, its tag section, a comment and a variation that span lines.
    assert_eq!(
        folds,
        [(0, 8), (0, 6), (10, 18), (10, 14), (16, 17), (17, 18)]
    );

    // Formatting is fix's output: the Spanish move in the second game becomes English
    // (fix writes each game in its own language: this game is English, Cf3 a typo of
    // the knight's letter is repaired), the first game's typo repaired.
    let formatted = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let edits = formatted.result.unwrap().as_array().unwrap().clone();
    assert!(!edits.is_empty());
    c.shutdown();
}

#[test]
fn bad_requests_get_errors_and_the_server_goes_on() {
    let (mut c, _) = Client::start(json!({}));
    let r = c.request("textDocument/noSuchThing", json!({}));
    assert_eq!(
        r.error.unwrap().code,
        lsp_server::ErrorCode::MethodNotFound as i32
    );
    let r = c.request("textDocument/hover", json!({"nonsense": true}));
    assert_eq!(
        r.error.unwrap().code,
        lsp_server::ErrorCode::InvalidParams as i32
    );
    // Junk, a cut comment, deep variations: diagnostics every time.
    let mut junk: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    junk.retain(|b| *b != 0);
    let junk = String::from_utf8_lossy(&junk).into_owned();
    for text in [
        junk.as_str(),
        "[Event \"x\"]\n\n1. e4 {a comment cut",
        &format!("1. e4 {}", "(".repeat(100_000)),
        "",
    ] {
        let diags = c.open(text);
        if !text.is_empty() {
            assert!(!diags.is_empty());
        }
        c.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": URI}}),
        );
        assert!(diagnostics(c.notification("textDocument/publishDiagnostics")).is_empty());
    }
    let r = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(r.result, Some(Value::Null), "a closed document has nothing");
    c.shutdown();
}
