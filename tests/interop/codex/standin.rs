//! A stand-in for the OpenAI Responses API on 127.0.0.1, enough for the
//! real Codex CLI to hold a conversation offline: `POST /v1/responses`
//! answered with a streaming SSE reply (`response.created`,
//! `response.output_item.added`, `response.output_text.delta`,
//! `response.output_item.done`, `response.completed` with `usage`), from a
//! script of replies (text, or an `exec_command` function call that asks
//! to run outside the sandbox, so Codex asks the operator first).
//!
//! Only the conversation's turns (requests that carry `tools`) take the
//! next scripted reply; Codex's side calls (the thread's title) get a short
//! text with zero usage, so the tokens the test expects are the ones the
//! rollout records.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// Token counts a reply reports, as the Responses API spells them:
/// `input` includes `cached`, `output` includes `reasoning`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Usage {
    pub input: u64,
    pub cached: u64,
    pub output: u64,
    pub reasoning: u64,
}

/// One scripted answer to a conversation turn.
#[derive(Debug, Clone)]
pub enum Reply {
    Text(String, Usage),
    /// `exec_command` of this command line, escalated (Codex asks first);
    /// the turn after its output takes the next reply.
    Shell(String, Usage),
    /// A text that ends its turn only after this long: a turn still going
    /// for the test to look at.
    Slow(std::time::Duration, String, Usage),
}

#[derive(Default)]
struct Shared {
    script: VecDeque<Reply>,
    /// Paths of every request, and whether each was a turn.
    requests: Vec<(String, bool)>,
    /// The bodies of the conversation's turns, in order.
    turn_bodies: Vec<Value>,
}

/// The running stand-in; its threads end with the test process.
#[derive(Clone)]
pub struct StandIn {
    pub port: u16,
    shared: Arc<Mutex<Shared>>,
}

impl StandIn {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Mutex::new(Shared::default()));
        let s = shared.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let s = s.clone();
                std::thread::spawn(move || {
                    let _ = serve(conn, &s);
                });
            }
        });
        StandIn { port, shared }
    }

    /// What Codex's `base_url` names (it appends `/responses`).
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    pub fn script(&self, replies: impl IntoIterator<Item = Reply>) {
        self.shared.lock().unwrap().script.extend(replies);
    }

    /// Conversation turns received so far.
    pub fn turns(&self) -> usize {
        let s = self.shared.lock().unwrap();
        s.requests.iter().filter(|(_, turn)| *turn).count()
    }

    /// The bodies of the conversation's turns received so far.
    pub fn turn_bodies(&self) -> Vec<Value> {
        self.shared.lock().unwrap().turn_bodies.clone()
    }
}

/// Reads one request: its path and JSON body (Content-Length only: Codex
/// sends no chunked bodies).
fn read_request(r: &mut BufReader<TcpStream>) -> Option<(String, String, Value)> {
    let mut line = String::new();
    if r.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':')
            && k.trim().eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    r.read_exact(&mut body).ok()?;
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    Some((method, path, body))
}

fn serve(conn: TcpStream, shared: &Mutex<Shared>) -> std::io::Result<()> {
    let mut w = conn.try_clone()?;
    let mut r = BufReader::new(conn);
    while let Some((method, path, body)) = read_request(&mut r) {
        let turn = body["tools"].as_array().is_some_and(|t| !t.is_empty());
        let reply = {
            let mut s = shared.lock().unwrap();
            s.requests.push((path.clone(), turn));
            if turn {
                s.turn_bodies.push(body.clone());
            }
            if turn { s.script.pop_front() } else { None }
        };
        if method != "POST" || !path.ends_with("/responses") {
            let body = b"{\"data\":[],\"models\":[]}";
            write!(
                w,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                body.len()
            )?;
            w.write_all(body)?;
            w.flush()?;
            continue;
        }
        let reply = reply.unwrap_or_else(|| {
            let text = if turn {
                "The stand-in has no scripted reply left."
            } else {
                "Stand-in title"
            };
            Reply::Text(text.into(), Usage::default())
        });
        return stream(&mut w, &reply);
    }
    Ok(())
}

fn usage_json(u: &Usage) -> Value {
    json!({"input_tokens": u.input, "input_tokens_details": {"cached_tokens": u.cached},
           "output_tokens": u.output, "output_tokens_details": {"reasoning_tokens": u.reasoning},
           "total_tokens": u.input + u.output})
}

/// Answers one `POST /responses` with its SSE stream, then hangs up.
fn stream(w: &mut TcpStream, reply: &Reply) -> std::io::Result<()> {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let (item, usage) = match reply {
        Reply::Text(text, u) | Reply::Slow(_, text, u) => (
            json!({"type": "message", "id": format!("msg_{n}"), "role": "assistant",
                   "content": [{"type": "output_text", "text": text, "annotations": []}]}),
            u,
        ),
        Reply::Shell(cmd, u) => {
            let args = json!({"cmd": cmd, "sandbox_permissions": "require_escalated",
                              "justification": "The stand-in asks to run this."});
            (
                json!({"type": "function_call", "id": format!("fc_{n}"), "call_id": format!("call_{n}"),
                       "name": "exec_command", "arguments": args.to_string()}),
                u,
            )
        }
    };
    write!(
        w,
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n"
    )?;
    let mut send = |data: Value| -> std::io::Result<()> {
        write!(
            w,
            "event: {}\ndata: {data}\n\n",
            data["type"].as_str().unwrap_or("")
        )?;
        w.flush()
    };
    let id = format!("resp_{n}");
    send(json!({"type": "response.created", "response": {"id": id}}))?;
    let mut empty = item.clone();
    if item["type"] == "message" {
        empty["content"] = json!([]);
    }
    send(json!({"type": "response.output_item.added", "output_index": 0, "item": empty}))?;
    if let Reply::Slow(wait, ..) = reply {
        std::thread::sleep(*wait);
    }
    if let Reply::Text(text, _) | Reply::Slow(_, text, _) = reply {
        send(
            json!({"type": "response.output_text.delta", "item_id": item["id"],
                    "output_index": 0, "content_index": 0, "delta": text}),
        )?;
    }
    send(json!({"type": "response.output_item.done", "output_index": 0, "item": item}))?;
    send(json!({"type": "response.completed",
                "response": {"id": id, "usage": usage_json(usage)}}))
}
