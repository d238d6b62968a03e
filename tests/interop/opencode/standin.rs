//! A stand-in for an OpenAI-compatible Chat Completions API on 127.0.0.1,
//! enough for the real OpenCode (its `@ai-sdk/openai-compatible` provider)
//! to hold a conversation offline: `POST /v1/chat/completions` answered with
//! a streaming SSE reply (`chat.completion.chunk`s: the text or a tool call,
//! then one with the `finish_reason`, then a last one with no choices and
//! the `usage`, then `[DONE]`), from a script of replies (text, a `bash`
//! tool call, which OpenCode asks the operator about when its config says
//! `"permission": {"bash": "ask"}`, or a slow text).
//!
//! Only the conversation's turns (requests that carry `tools`) take the
//! next scripted reply; OpenCode's side call (the session's title, no
//! tools) gets a short text with zero usage, so the tokens the test expects
//! are the ones the turns report.
#![allow(dead_code)] // some tests use only part of it

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

/// Token counts a reply reports, as Chat Completions spells them:
/// `prompt` includes `cached`, `completion` includes `reasoning`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Usage {
    pub prompt: u64,
    pub cached: u64,
    pub completion: u64,
    pub reasoning: u64,
}

/// One scripted answer to a conversation turn.
#[derive(Debug, Clone)]
pub enum Reply {
    Text(String, Usage),
    /// A `bash` tool call of this command line; the turn after its output
    /// takes the next reply.
    Shell(String, Usage),
    /// A text that ends its turn only after this long: a turn still going
    /// for the test to look at.
    Slow(Duration, String, Usage),
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

    /// What the provider's `baseURL` names (the SDK appends
    /// `/chat/completions`).
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

    /// Every request's path, in order (for a test to show what OpenCode
    /// asked for, and that nothing went elsewhere).
    pub fn paths(&self) -> Vec<String> {
        let s = self.shared.lock().unwrap();
        s.requests.iter().map(|(p, _)| p.clone()).collect()
    }
}

/// Reads one request: its method, path and JSON body (Content-Length only:
/// OpenCode sends no chunked bodies).
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
        if method != "POST" || !path.ends_with("/chat/completions") {
            let body = b"{\"object\":\"list\",\"data\":[]}";
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
        return stream(&mut w, &body, &reply);
    }
    Ok(())
}

fn usage_json(u: &Usage) -> Value {
    json!({"prompt_tokens": u.prompt, "completion_tokens": u.completion,
           "total_tokens": u.prompt + u.completion,
           "prompt_tokens_details": {"cached_tokens": u.cached},
           "completion_tokens_details": {"reasoning_tokens": u.reasoning}})
}

/// The first chunk's `delta`: the text, or the whole `bash` call at once.
fn first_delta(reply: &Reply, n: u128) -> (Value, &'static str, Usage) {
    match reply {
        Reply::Text(text, u) | Reply::Slow(_, text, u) => {
            (json!({"role": "assistant", "content": text}), "stop", *u)
        }
        Reply::Shell(cmd, u) => {
            let args = json!({"command": cmd, "description": "Runs the stand-in's command"});
            (
                json!({"role": "assistant", "tool_calls": [{"index": 0, "id": format!("call_{n}"),
                       "type": "function",
                       "function": {"name": "bash", "arguments": args.to_string()}}]}),
                "tool_calls",
                *u,
            )
        }
    }
}

/// Answers one `POST /chat/completions` with its SSE stream, then hangs up.
fn stream(w: &mut TcpStream, body: &Value, reply: &Reply) -> std::io::Result<()> {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    write!(
        w,
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n"
    )?;
    let base = json!({"id": format!("chatcmpl-{n}"), "object": "chat.completion.chunk",
                      "created": n / 1_000_000_000, "model": body["model"]});
    let mut send = |extra: Value| -> std::io::Result<()> {
        let mut chunk = base.clone();
        if let (Some(c), Some(e)) = (chunk.as_object_mut(), extra.as_object()) {
            c.extend(e.clone());
        }
        write!(w, "data: {chunk}\n\n")?;
        w.flush()
    };
    let (delta, finish, usage) = first_delta(reply, n);
    if let Reply::Slow(wait, ..) = reply {
        send(
            json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                                 "finish_reason": null}]}),
        )?;
        std::thread::sleep(*wait);
    }
    send(json!({"choices": [{"index": 0, "delta": delta, "finish_reason": null}]}))?;
    send(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}))?;
    send(json!({"choices": [], "usage": usage_json(&usage)}))?;
    write!(w, "data: [DONE]\n\n")?;
    w.flush()
}
