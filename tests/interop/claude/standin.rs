//! A stand-in for the Anthropic Messages API on 127.0.0.1, enough for the
//! real Claude Code to hold a conversation offline: streaming SSE
//! (`message_start`, `content_block_start/delta/stop`, `message_delta` with
//! usage, `message_stop`) and plain JSON, answering from a script of
//! replies (text, a Bash `tool_use`, a slow reply, an HTTP error). Other
//! endpoints (`count_tokens`, GETs) get small sensible answers.
//!
//! Only the conversation's own turns (requests that carry `tools`) take the
//! next scripted reply; Claude Code's side calls (titles, classifiers) get a
//! short text reply with zero usage, so the tokens the test expects are the
//! tokens the transcript records.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Token counts a reply reports, as the API spells them.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
}

/// One scripted answer to a conversation turn.
#[derive(Debug, Clone)]
pub enum Reply {
    Text(String, Tokens),
    /// A `tool_use` of Bash with this command; the turn after its result
    /// takes the next reply.
    Bash(String, Tokens),
    /// A `tool_use` of AskUserQuestion: this question with these choices.
    Ask(String, Vec<String>, Tokens),
    /// `message_start`, then nothing for this long (or until the client
    /// hangs up), then the text.
    Slow(Duration, Tokens),
    /// An HTTP error with the API's error body; as the last reply of the
    /// script it answers every later turn (Claude Code retries).
    Error(u16, &'static str, String),
}

/// What one request asked for.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub model: Option<String>,
    pub stream: bool,
    /// A conversation turn (it carries tools), not a side call.
    pub turn: bool,
}

#[derive(Default)]
struct Shared {
    script: VecDeque<Reply>,
    requests: Vec<Request>,
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

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Queues replies for the next conversation turns.
    pub fn script(&self, replies: impl IntoIterator<Item = Reply>) {
        self.shared.lock().unwrap().script.extend(replies);
    }

    pub fn requests(&self) -> Vec<Request> {
        self.shared.lock().unwrap().requests.clone()
    }

    /// Conversation turns received so far.
    pub fn turns(&self) -> usize {
        self.requests().iter().filter(|r| r.turn).count()
    }

    /// Replies still waiting for a turn.
    pub fn pending(&self) -> usize {
        self.shared.lock().unwrap().script.len()
    }
}

struct Http {
    method: String,
    path: String,
    body: Vec<u8>,
}

fn read_request(r: &mut BufReader<TcpStream>) -> Option<Http> {
    let mut line = String::new();
    if r.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut length = 0usize;
    let mut chunked = false;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        match k.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = v.trim().parse().ok()?,
            "transfer-encoding" => chunked = v.to_ascii_lowercase().contains("chunked"),
            _ => {}
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).ok()?;
            let n = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).ok()?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        body.resize(length, 0);
        r.read_exact(&mut body).ok()?;
    }
    Some(Http { method, path, body })
}

fn respond_json(w: &mut TcpStream, status: u16, body: &Value) -> std::io::Result<()> {
    let body = body.to_string();
    // An error says not to retry (the API's own header), so a test does not
    // wait out Claude Code's ten attempts with backoff.
    let (reason, retry) = if status == 200 {
        ("OK", "")
    } else {
        ("Error", "x-should-retry: false\r\n")
    };
    write!(
        w,
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\nrequest-id: req_standin\r\n{retry}content-length: {}\r\n\r\n{body}",
        body.len()
    )?;
    w.flush()
}

fn serve(conn: TcpStream, shared: &Mutex<Shared>) -> std::io::Result<()> {
    let mut w = conn.try_clone()?;
    let mut r = BufReader::new(conn);
    while let Some(req) = read_request(&mut r) {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        let turn = body
            .get("tools")
            .is_some_and(|t| t.as_array().is_some_and(|a| !a.is_empty()));
        let stream = body.get("stream").and_then(Value::as_bool).unwrap_or(false);
        let model = body.get("model").and_then(Value::as_str).map(str::to_owned);
        let reply = {
            let mut s = shared.lock().unwrap();
            s.requests.push(Request {
                method: req.method.clone(),
                path: req.path.clone(),
                model: model.clone(),
                stream,
                turn,
            });
            let messages_call = req.method == "POST" && req.path.starts_with("/v1/messages");
            let counting = req.path.contains("count_tokens");
            match () {
                _ if !messages_call => None,
                _ if counting => Some(None),
                // Claude Code asks again after an error (with other betas):
                // a last scripted error answers every later turn too.
                _ if turn && s.script.len() == 1 && matches!(s.script[0], Reply::Error(..)) => {
                    Some(s.script.front().cloned())
                }
                _ if turn => Some(s.script.pop_front()),
                _ => Some(Some(Reply::Text(
                    "Stand-in side reply.".into(),
                    Tokens::default(),
                ))),
            }
        };
        let model = model.unwrap_or_else(|| "claude-opus-5-5".into());
        match reply {
            None if req.method == "HEAD" => {
                write!(w, "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")?;
            }
            None => respond_json(&mut w, 200, &json!({}))?,
            Some(None) if req.path.contains("count_tokens") => {
                respond_json(&mut w, 200, &json!({"input_tokens": 100}))?
            }
            Some(None) => {
                let text = "The stand-in has no scripted reply left.";
                answer(
                    &mut w,
                    &model,
                    stream,
                    &Reply::Text(text.into(), Tokens::default()),
                )?;
                if stream {
                    return Ok(());
                }
            }
            Some(Some(reply)) => {
                let closes = answer(&mut w, &model, stream, &reply)?;
                if closes {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

fn usage_json(t: Tokens) -> Value {
    json!({
        "input_tokens": t.input,
        "output_tokens": t.output,
        "cache_read_input_tokens": t.cache_read,
        "cache_creation_input_tokens": t.cache_write,
        "cache_creation": {"ephemeral_5m_input_tokens": t.cache_write, "ephemeral_1h_input_tokens": 0},
    })
}

fn message_id() -> String {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    format!("msg_standin_{}_{n}", std::process::id())
}

/// Writes one reply; returns whether the connection is done (streams close it).
fn answer(w: &mut TcpStream, model: &str, stream: bool, reply: &Reply) -> std::io::Result<bool> {
    let (block, tokens, stop, wait) = match reply {
        Reply::Error(status, kind, message) => {
            let body = json!({"type": "error", "error": {"type": kind, "message": message}});
            respond_json(w, *status, &body)?;
            return Ok(false);
        }
        Reply::Text(text, t) => (json!({"type": "text", "text": text}), *t, "end_turn", None),
        Reply::Slow(d, t) => (
            json!({"type": "text", "text": "Slowly, at last."}),
            *t,
            "end_turn",
            Some(*d),
        ),
        Reply::Bash(command, t) => (
            json!({"type": "tool_use", "id": format!("toolu_{}", message_id()), "name": "Bash",
                   "input": {"command": command, "description": "Run the stand-in's command"}}),
            *t,
            "tool_use",
            None,
        ),
        Reply::Ask(question, labels, t) => {
            let options: Vec<Value> = labels
                .iter()
                .map(|l| json!({"label": l, "description": format!("Make it {l}")}))
                .collect();
            let input = json!({"questions": [{"question": question, "header": "Colour",
                               "options": options, "multiSelect": false}]});
            (
                json!({"type": "tool_use", "id": format!("toolu_{}", message_id()),
                       "name": "AskUserQuestion", "input": input}),
                *t,
                "tool_use",
                None,
            )
        }
    };
    let id = message_id();
    if !stream {
        let body = json!({"id": id, "type": "message", "role": "assistant", "model": model,
            "content": [block], "stop_reason": stop, "stop_sequence": null, "usage": usage_json(tokens)});
        respond_json(w, 200, &body)?;
        return Ok(false);
    }
    write!(
        w,
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nrequest-id: req_standin\r\nconnection: close\r\n\r\n"
    )?;
    let mut send = |event: &str, data: Value| -> std::io::Result<()> {
        write!(w, "event: {event}\ndata: {data}\n\n")?;
        w.flush()
    };
    // message_start carries the input side; message_delta the final output
    // count, as the real API does.
    let mut start_usage = usage_json(tokens);
    start_usage["output_tokens"] = json!(1);
    send(
        "message_start",
        json!({"type": "message_start", "message": {"id": id, "type": "message", "role": "assistant",
            "model": model, "content": [], "stop_reason": null, "stop_sequence": null, "usage": start_usage}}),
    )?;
    if let Some(wait) = wait {
        // Silence on the wire: only Claude Code's own spinner moves. A ping
        // now and then finds out whether the client hung up (Esc).
        let until = Instant::now() + wait;
        while Instant::now() < until {
            std::thread::sleep(Duration::from_millis(250));
            send("ping", json!({"type": "ping"}))?;
        }
    }
    let (empty, delta) = if block["type"] == "tool_use" {
        let mut empty = block.clone();
        empty["input"] = json!({});
        let partial = block["input"].to_string();
        (
            empty,
            json!({"type": "input_json_delta", "partial_json": partial}),
        )
    } else {
        (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": block["text"]}),
        )
    };
    send(
        "content_block_start",
        json!({"type": "content_block_start", "index": 0, "content_block": empty}),
    )?;
    send(
        "content_block_delta",
        json!({"type": "content_block_delta", "index": 0, "delta": delta}),
    )?;
    send(
        "content_block_stop",
        json!({"type": "content_block_stop", "index": 0}),
    )?;
    send(
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
               "usage": {"output_tokens": tokens.output}}),
    )?;
    send("message_stop", json!({"type": "message_stop"}))?;
    Ok(true)
}
