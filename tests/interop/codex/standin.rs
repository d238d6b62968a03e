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

use std::net::TcpStream;

use serde_json::{Value, json};

use crate::standin::{Request, Sse, Then, Wire, nanos};

/// Token counts a reply reports, as the Responses API spells them:
/// `input` includes `cached`, `output` includes `reasoning`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Usage {
    pub input: u64,
    pub cached: u64,
    pub output: u64,
    pub reasoning: u64,
}

/// One scripted answer to a conversation turn: a text, an `exec_command`
/// of this command line, escalated (Codex asks first), or a slow text.
pub type Reply = crate::standin::Reply<Usage>;

/// OpenAI's Responses API: its wire format for the stand-in core.
#[derive(Default)]
pub struct Responses;

/// The running stand-in; its threads end with the test process.
pub type StandIn = crate::standin::StandIn<Responses>;

impl Wire for Responses {
    type Reply = Reply;

    /// Codex's `base_url` (it appends `/responses`).
    const BASE: &'static str = "/v1";

    fn answer(
        &self,
        w: &mut TcpStream,
        req: &Request,
        reply: Option<Reply>,
        _n: usize,
    ) -> std::io::Result<Then> {
        let listing = b"{\"data\":[],\"models\":[]}";
        Reply::answer(w, req, reply, ("/responses", listing), stream)
    }
}

fn usage_json(u: &Usage) -> Value {
    json!({"input_tokens": u.input, "input_tokens_details": {"cached_tokens": u.cached},
           "output_tokens": u.output, "output_tokens_details": {"reasoning_tokens": u.reasoning},
           "total_tokens": u.input + u.output})
}

/// Answers one `POST /responses` with its SSE stream, then hangs up.
fn stream(w: &mut TcpStream, reply: &Reply) -> std::io::Result<()> {
    let n = nanos();
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
    let mut sse = Sse::start(w, "")?;
    // Each event is named by its data's `type`.
    let mut send = |data: Value| sse.event(data["type"].as_str().unwrap_or(""), &data);
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
