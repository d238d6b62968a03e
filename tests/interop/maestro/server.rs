//! Maestro's own MCP state server (`mcp/maestro-server.js` of the vendored
//! 1.4.0 release), driven over stdio as Gemini CLI drives it: JSON-RPC 2.0,
//! one object per line.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::support::{node, shared};

/// The vendored Maestro release.
pub fn maestro_dir() -> PathBuf {
    shared().join("vendor/maestro-gemini-1.4.0")
}

pub struct MaestroServer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl MaestroServer {
    /// Starts the server for `workspace` (MAESTRO_WORKSPACE_PATH, and its
    /// working folder) and completes the MCP handshake.
    pub fn start(workspace: &Path) -> Self {
        let mut child = Command::new(node())
            .arg(maestro_dir().join("mcp/maestro-server.js"))
            .current_dir(workspace)
            .env("MAESTRO_WORKSPACE_PATH", workspace)
            .env_remove("MAESTRO_STATE_DIR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("node runs Maestro's server");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = MaestroServer {
            child,
            stdin,
            stdout,
            next_id: 1,
        };
        server.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {"roots": {}},
                "clientInfo": {"name": "greenroom-interop", "version": "0"}
            }),
        );
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and waits for its answer, answering the server's own
    /// `roots/list` request on the way.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "Maestro's server closed its output during {method}");
            let Ok(msg) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if msg.get("method").and_then(Value::as_str) == Some("roots/list") {
                let answer = json!({"jsonrpc": "2.0", "id": msg["id"], "result": {"roots": []}});
                self.send(&answer);
                continue;
            }
            if msg.get("id").and_then(Value::as_u64) == Some(id) {
                assert!(msg.get("error").is_none(), "{method}: {msg}");
                return msg["result"].clone();
            }
        }
    }

    /// Calls one tool; returns the JSON its text content holds.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let text = result["content"][0]["text"].as_str().unwrap_or("null");
        let value: Value = serde_json::from_str(text).unwrap_or(Value::String(text.into()));
        assert!(
            result.get("isError") != Some(&Value::Bool(true)),
            "{tool} failed: {value}"
        );
        value
    }

    pub fn status(&mut self) -> Value {
        self.call("get_session_status", json!({}))
    }
}

impl Drop for MaestroServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs Maestro's own `hooks/<name>.js` with a Gemini CLI hook payload.
/// Without `hooks_dir`, Maestro's own default folder (1.4.0: `/tmp/maestro-hooks`).
pub fn run_hook(name: &str, hooks_dir: Option<&Path>, payload: &Value) {
    let mut cmd = Command::new(node());
    cmd.arg(maestro_dir().join("hooks").join(format!("{name}.js")));
    match hooks_dir {
        Some(dir) => cmd.env("MAESTRO_HOOKS_DIR", dir),
        None => cmd.env_remove("MAESTRO_HOOKS_DIR"),
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{name}.js: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
