//! A JSON-RPC client of `gwctl lsp` for the tests: the server runs as a process, messages are
//! framed with `Content-Length` headers, notifications are kept until a test asks for them.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Long enough for a debug build on a busy machine; a hang fails instead of blocking the suite.
const WAIT: Duration = Duration::from_secs(120);

pub struct Client {
    child: Child,
    /// `None` once the client hung up.
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    pub notifications: Vec<Value>,
}

pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    /// Starts `gwctl lsp` and initializes it on `root`.
    pub fn start(root: Option<&Path>) -> Client {
        Client::start_with(root, json!({}))
    }

    /// Starts `gwctl lsp` and initializes it on `root`, with the client's `capabilities`.
    pub fn start_with(root: Option<&Path>, capabilities: Value) -> Client {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin!("gwctl"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start gwctl lsp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(m) = read_message(&mut reader) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin: Some(stdin),
            incoming: rx,
            next_id: 1,
            notifications: Vec::new(),
        };
        let root_uri = root.map(uri);
        let result = client.request(
            "initialize",
            json!({"processId": null, "rootUri": root_uri, "capabilities": capabilities}),
        );
        assert!(
            result["capabilities"]["hoverProvider"] == json!(true),
            "initialize result: {result}"
        );
        client.notify("initialized", json!({}));
        client
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let stdin = self.stdin.as_mut().expect("the client has not hung up");
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        stdin.flush().expect("flush");
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next(&mut self, deadline: Instant) -> Value {
        match self
            .incoming
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => panic!(
                "no message from the server in time; the last ones: {:#?}",
                &self.notifications[self.notifications.len().saturating_sub(3)..]
            ),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// The whole response (`result` or `error`) to a request.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + WAIT;
        loop {
            let m = self.next(deadline);
            if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
                return m;
            }
            self.notifications.push(m);
        }
    }

    /// The result of a request; an error response fails the test.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.call(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// The diagnostics last published for `uri`, waiting for a publication that `accept`s.
    pub fn diagnostics_where(
        &mut self,
        uri: &str,
        accept: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        let deadline = Instant::now() + WAIT;
        let mut i = 0;
        loop {
            while i < self.notifications.len() {
                let n = self.notifications[i].clone();
                i += 1;
                if n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri {
                    let list = n["params"]["diagnostics"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    if accept(&list) {
                        // This file's publications up to this one are used up; the others stay.
                        let mut n = 0;
                        self.notifications.retain(|m| {
                            n += 1;
                            n > i
                                || m["method"] != "textDocument/publishDiagnostics"
                                || m["params"]["uri"] != uri
                        });
                        return list;
                    }
                }
            }
            let m = self.next(deadline);
            self.notifications.push(m);
        }
    }

    pub fn open(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "yaml", "version": 1, "text": text}}),
        );
    }

    pub fn change(&mut self, path: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(path), "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    /// shutdown, exit, and the server's exit status.
    pub fn shutdown(mut self) -> Option<i32> {
        let result = self.request("shutdown", Value::Null);
        assert_eq!(result, Value::Null);
        self.notify("exit", Value::Null);
        self.exit_status()
    }

    /// Closes the server's input (an editor that quits) and waits for its exit status.
    pub fn hang_up(mut self) -> Option<i32> {
        self.stdin = None;
        self.exit_status()
    }

    fn exit_status(&mut self) -> Option<i32> {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A position `(line, character)` of the first occurrence of `needle` after the `nth` (0-based)
/// occurrence of `anchor` in `text`, plus `into` characters.
pub fn position(text: &str, anchor: &str, nth: usize, needle: &str, into: usize) -> Value {
    let mut from = 0;
    for _ in 0..=nth {
        from = text[from..]
            .find(anchor)
            .map(|i| from + i + anchor.len())
            .expect("anchor");
    }
    let at = from - anchor.len() + text[from - anchor.len()..].find(needle).expect("needle") + into;
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}
