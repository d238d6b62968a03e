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

use std::net::TcpStream;

use serde_json::{Value, json};

use crate::standin::{Request, Sse, Then, Wire, nanos};

/// Token counts a reply reports, as Chat Completions spells them:
/// `prompt` includes `cached`, `completion` includes `reasoning`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Usage {
    pub prompt: u64,
    pub cached: u64,
    pub completion: u64,
    pub reasoning: u64,
}

/// One scripted answer to a conversation turn: a text, a `bash` tool call
/// of this command line, or a slow text.
pub type Reply = crate::standin::Reply<Usage>;

/// An OpenAI-compatible Chat Completions API: its wire format for the
/// stand-in core.
#[derive(Default)]
pub struct ChatCompletions;

/// The running stand-in; its threads end with the test process.
pub type StandIn = crate::standin::StandIn<ChatCompletions>;

impl Wire for ChatCompletions {
    type Reply = Reply;

    /// The provider's `baseURL` (the SDK appends `/chat/completions`).
    const BASE: &'static str = "/v1";

    fn answer(
        &self,
        w: &mut TcpStream,
        req: &Request,
        reply: Option<Reply>,
        _n: usize,
    ) -> std::io::Result<Then> {
        let listing = b"{\"object\":\"list\",\"data\":[]}";
        Reply::answer(w, req, reply, ("/chat/completions", listing), |w, r| {
            stream(w, &req.body, r)
        })
    }
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
    let n = nanos();
    let mut sse = Sse::start(w, "")?;
    let base = json!({"id": format!("chatcmpl-{n}"), "object": "chat.completion.chunk",
                      "created": n / 1_000_000_000, "model": body["model"]});
    let mut send = |extra: Value| -> std::io::Result<()> {
        let mut chunk = base.clone();
        if let (Some(c), Some(e)) = (chunk.as_object_mut(), extra.as_object()) {
            c.extend(e.clone());
        }
        sse.data(chunk)
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
    sse.data("[DONE]")
}
