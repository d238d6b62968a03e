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

use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

use crate::standin::{NO_REPLY_LEFT, Sse, Then, Wire, respond};

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

/// Anthropic's Messages API: its wire format for the stand-in core.
#[derive(Default)]
pub struct Messages;

/// The running stand-in; its threads end with the test process.
pub type StandIn = crate::standin::StandIn<Messages>;

impl StandIn {
    pub fn requests(&self) -> Vec<Request> {
        self.seen()
            .into_iter()
            .map(|r| Request {
                model: r.body["model"].as_str().map(str::to_owned),
                stream: r.body["stream"].as_bool().unwrap_or(false),
                turn: r.turn(),
                method: r.method,
                path: r.path,
            })
            .collect()
    }
}

fn messages_call(req: &crate::standin::Request) -> bool {
    req.method == "POST" && req.path.starts_with("/v1/messages")
}

impl Wire for Messages {
    type Reply = Reply;

    /// `ANTHROPIC_BASE_URL` is the host alone.
    const BASE: &'static str = "";

    /// A turn on `/v1/messages`; counting its tokens takes nothing.
    fn takes(&self, req: &crate::standin::Request) -> bool {
        messages_call(req) && !req.path.contains("count_tokens") && req.turn()
    }

    /// Claude Code asks again after an error (with other betas): a last
    /// scripted error answers every later turn too.
    fn stays(&self, reply: &Reply) -> bool {
        matches!(reply, Reply::Error(..))
    }

    fn answer(
        &self,
        w: &mut TcpStream,
        req: &crate::standin::Request,
        reply: Option<Reply>,
        _n: usize,
    ) -> std::io::Result<Then> {
        let stream = req.body["stream"].as_bool().unwrap_or(false);
        let model = req.body["model"].as_str().unwrap_or("claude-opus-5-5");
        let reply = match reply {
            _ if req.method == "HEAD" => {
                respond(w, "200 OK", "application/json", "", b"")?;
                return Ok(Then::KeepAlive);
            }
            _ if !messages_call(req) => {
                respond_json(w, 200, &json!({}))?;
                return Ok(Then::KeepAlive);
            }
            _ if req.path.contains("count_tokens") => {
                respond_json(w, 200, &json!({"input_tokens": 100}))?;
                return Ok(Then::KeepAlive);
            }
            Some(reply) => reply,
            None if self.takes(req) => Reply::Text(NO_REPLY_LEFT.into(), Tokens::default()),
            None => Reply::Text("Stand-in side reply.".into(), Tokens::default()),
        };
        answer(w, model, stream, &reply)
    }
}

fn respond_json(w: &mut TcpStream, status: u16, body: &Value) -> std::io::Result<()> {
    // An error says not to retry (the API's own header), so a test does not
    // wait out Claude Code's ten attempts with backoff.
    let (status, headers) = if status == 200 {
        ("200 OK".to_owned(), "request-id: req_standin\r\n")
    } else {
        (
            format!("{status} Error"),
            "request-id: req_standin\r\nx-should-retry: false\r\n",
        )
    };
    let body = body.to_string();
    respond(w, &status, "application/json", headers, body.as_bytes())
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

/// Writes one reply; a stream closes the connection.
fn answer(w: &mut TcpStream, model: &str, stream: bool, reply: &Reply) -> std::io::Result<Then> {
    let (block, tokens, stop, wait) = match reply {
        Reply::Error(status, kind, message) => {
            let body = json!({"type": "error", "error": {"type": kind, "message": message}});
            respond_json(w, *status, &body)?;
            return Ok(Then::KeepAlive);
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
        return Ok(Then::KeepAlive);
    }
    let mut sse = Sse::start(w, "request-id: req_standin\r\n")?;
    // message_start carries the input side; message_delta the final output
    // count, as the real API does.
    let mut start_usage = usage_json(tokens);
    start_usage["output_tokens"] = json!(1);
    sse.event(
        "message_start",
        &json!({"type": "message_start", "message": {"id": id, "type": "message", "role": "assistant",
            "model": model, "content": [], "stop_reason": null, "stop_sequence": null, "usage": start_usage}}),
    )?;
    if let Some(wait) = wait {
        // Silence on the wire: only Claude Code's own spinner moves. A ping
        // now and then finds out whether the client hung up (Esc).
        sse.hold(wait, Some(("ping", &json!({"type": "ping"}))))?;
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
    sse.event(
        "content_block_start",
        &json!({"type": "content_block_start", "index": 0, "content_block": empty}),
    )?;
    sse.event(
        "content_block_delta",
        &json!({"type": "content_block_delta", "index": 0, "delta": delta}),
    )?;
    sse.event(
        "content_block_stop",
        &json!({"type": "content_block_stop", "index": 0}),
    )?;
    sse.event(
        "message_delta",
        &json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
               "usage": {"output_tokens": tokens.output}}),
    )?;
    sse.event("message_stop", &json!({"type": "message_stop"}))?;
    Ok(Then::Close)
}
