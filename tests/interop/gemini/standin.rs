//! A stand-in for the Gemini API on 127.0.0.1, enough for Gemini CLI
//! 0.61.0: `POST /v1beta/models/<m>:streamGenerateContent?alt=sse` (the
//! only call the CLI makes in these tests; found by logging every request)
//! and `:generateContent`, `:countTokens` for completeness.
//!
//! What it answers is decided by the conversation, so no test races a
//! queue: a last user text holding `RUN: <command>` gets a
//! `run_shell_command` function call; anything else (also a function
//! response) gets the text `stand-in reply <n>`. Every reply reports the
//! same usage, [`USAGE`].

use std::net::TcpStream;

use serde_json::{Value, json};

use crate::standin::{Then, Wire, respond};

/// promptTokenCount, candidatesTokenCount, cachedContentTokenCount,
/// thoughtsTokenCount, toolUsePromptTokenCount of every reply.
pub const USAGE: [u64; 5] = [1200, 30, 200, 12, 5];

pub use crate::standin::Request;

/// What a request's `contents` (the conversation so far) say.
pub trait Conversation {
    /// The last text the user sent (not a function response), if any.
    fn last_user_text(&self) -> Option<String>;
    /// Whether the last content answers a function call.
    fn answers_a_function(&self) -> bool;
}

impl Conversation for Request {
    fn last_user_text(&self) -> Option<String> {
        let contents = self.body.get("contents")?.as_array()?;
        let last = contents.iter().rev().find(|c| c["role"] == "user")?;
        let parts = last.get("parts")?.as_array()?;
        let texts: Vec<&str> = parts.iter().filter_map(|p| p["text"].as_str()).collect();
        (!texts.is_empty()).then(|| texts.last().unwrap().to_string())
    }

    fn answers_a_function(&self) -> bool {
        let contents = self.body["contents"].as_array();
        let last = contents.and_then(|c| c.last());
        last.and_then(|c| c["parts"].as_array())
            .is_some_and(|p| p.iter().any(|p| p.get("functionResponse").is_some()))
    }
}

/// The Gemini API: its wire format for the stand-in core. It scripts
/// nothing: the conversation decides each reply.
#[derive(Default)]
pub struct Gemini;

/// The running stand-in; its threads end with the test process.
pub type StandIn = crate::standin::StandIn<Gemini>;

impl StandIn {
    pub fn requests(&self) -> Vec<Request> {
        self.seen()
    }

    /// Model calls so far (streaming or not).
    pub fn model_calls(&self) -> Vec<Request> {
        self.requests()
            .into_iter()
            .filter(|r| {
                r.path.contains(":streamGenerateContent") || r.path.contains(":generateContent")
            })
            .collect()
    }
}

impl Wire for Gemini {
    type Reply = ();

    /// `GOOGLE_GEMINI_BASE_URL` is the host alone.
    const BASE: &'static str = "";

    fn takes(&self, _req: &Request) -> bool {
        false
    }

    /// Answers the `n`th request; one connection may carry several.
    fn answer(
        &self,
        w: &mut TcpStream,
        req: &Request,
        _reply: Option<()>,
        n: usize,
    ) -> std::io::Result<Then> {
        let (status, kind, payload) = answer(req, n);
        respond(w, status, kind, "", &payload)?;
        Ok(Then::KeepAlive)
    }
}

fn model_of(path: &str) -> &str {
    let after = path.split("/models/").nth(1).unwrap_or("");
    after.split(':').next().unwrap_or("gemini-2.5-pro")
}

fn reply(request: &Request, n: usize) -> Value {
    let command = (!request.answers_a_function())
        .then(|| request.last_user_text())
        .flatten()
        .and_then(|t| t.split_once("RUN: ").map(|(_, c)| c.trim().to_owned()));
    let parts = match command {
        Some(command) => json!([{"functionCall": {"name": "run_shell_command",
            "args": {"command": command, "description": "asked by the test"}}}]),
        None => json!([{"text": format!("stand-in reply {n}")}]),
    };
    let [prompt, candidates, cached, thoughts, tool] = USAGE;
    json!({
        "candidates": [{"content": {"role": "model", "parts": parts},
                        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {
            "promptTokenCount": prompt, "candidatesTokenCount": candidates,
            "cachedContentTokenCount": cached, "thoughtsTokenCount": thoughts,
            "toolUsePromptTokenCount": tool,
            "totalTokenCount": prompt + candidates + thoughts + tool
        },
        "modelVersion": model_of(&request.path),
    })
}

fn answer(request: &Request, n: usize) -> (&'static str, &'static str, Vec<u8>) {
    if request.method != "POST" {
        return ("404 Not Found", "application/json", b"{}".to_vec());
    }
    if request.path.contains(":streamGenerateContent") {
        let event = format!("data: {}\r\n\r\n", reply(request, n));
        return ("200 OK", "text/event-stream", event.into_bytes());
    }
    if request.path.contains(":generateContent") {
        return (
            "200 OK",
            "application/json",
            reply(request, n).to_string().into_bytes(),
        );
    }
    if request.path.contains(":countTokens") {
        return (
            "200 OK",
            "application/json",
            br#"{"totalTokens": 10}"#.to_vec(),
        );
    }
    ("404 Not Found", "application/json", b"{}".to_vec())
}
