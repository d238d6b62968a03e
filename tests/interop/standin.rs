//! What every stand-in model API here shares: an HTTP/1.1 server on
//! 127.0.0.1 (a thread a connection, kept alive until an answer closes it),
//! every request recorded, a script of replies the conversation's turns
//! take in order, and the writing of JSON answers and SSE streams (a slow
//! one included). Each agent's wire format is a [`Wire`] in its own file:
//! Anthropic Messages in `claude/standin.rs`, OpenAI Responses in
//! `codex/standin.rs`, Chat Completions in `opencode/standin.rs`, Gemini in
//! `gemini/standin.rs`.
#![allow(dead_code)] // each wire uses only part of it

use std::collections::VecDeque;
use std::fmt::Display;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// What a turn with nothing left in the script is answered.
pub const NO_REPLY_LEFT: &str = "The stand-in has no scripted reply left.";

/// One request as it arrived; a body that is not JSON reads as `Null`.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: Value,
}

impl Request {
    /// A conversation's turn: it carries tools. The agents' side calls
    /// (titles, classifiers) carry none, so they never take a scripted
    /// reply and the tokens a test expects are the turns' own.
    pub fn turn(&self) -> bool {
        self.body["tools"].as_array().is_some_and(|t| !t.is_empty())
    }
}

/// Whether the connection stays open for the client's next request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    KeepAlive,
    Close,
}

/// One API's wire format: which requests take a scripted reply and how
/// each request is answered.
pub trait Wire: Default + Send + Sync + 'static {
    type Reply: Clone + Send + 'static;

    /// What follows the host in the agent's base URL setting (`/v1`, or
    /// nothing).
    const BASE: &'static str;

    /// Whether `req` takes the next scripted reply: a turn, unless the
    /// wire says otherwise.
    fn takes(&self, req: &Request) -> bool {
        req.turn()
    }

    /// Whether `reply`, the last one left, stays to answer every later
    /// turn too (an error the agent retries).
    fn stays(&self, _reply: &Self::Reply) -> bool {
        false
    }

    /// Answers `req`, the `n`th request (from 1), given the reply it took
    /// (`None` when it took none, or the script was empty).
    fn answer(
        &self,
        w: &mut TcpStream,
        req: &Request,
        reply: Option<Self::Reply>,
        n: usize,
    ) -> std::io::Result<Then>;
}

struct Log<R> {
    script: VecDeque<R>,
    seen: Vec<Request>,
}

/// The running stand-in of one wire; its threads end with the test process.
pub struct StandIn<W: Wire> {
    pub port: u16,
    log: Arc<Mutex<Log<W::Reply>>>,
}

impl<W: Wire> Clone for StandIn<W> {
    fn clone(&self) -> Self {
        StandIn {
            port: self.port,
            log: self.log.clone(),
        }
    }
}

impl<W: Wire> StandIn<W> {
    /// Listens on a free port of 127.0.0.1 and answers in the wire's
    /// format.
    pub fn start() -> Self {
        let wire = W::default();
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let log = Arc::new(Mutex::new(Log {
            script: VecDeque::new(),
            seen: Vec::new(),
        }));
        let wire = Arc::new(wire);
        let l = log.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let (l, wire) = (l.clone(), wire.clone());
                std::thread::spawn(move || {
                    let _ = serve(conn, &*wire, &l);
                });
            }
        });
        StandIn { port, log }
    }

    /// What the agent's base URL setting names.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}{}", self.port, W::BASE)
    }

    /// Queues replies for the next turns.
    pub fn script(&self, replies: impl IntoIterator<Item = W::Reply>) {
        self.log.lock().unwrap().script.extend(replies);
    }

    /// Every request so far, in order.
    pub fn seen(&self) -> Vec<Request> {
        self.log.lock().unwrap().seen.clone()
    }

    /// Conversation turns received so far.
    pub fn turns(&self) -> usize {
        self.log
            .lock()
            .unwrap()
            .seen
            .iter()
            .filter(|r| r.turn())
            .count()
    }

    /// Replies still waiting for a turn.
    pub fn pending(&self) -> usize {
        self.log.lock().unwrap().script.len()
    }

    /// The bodies of the conversation's turns received so far.
    pub fn turn_bodies(&self) -> Vec<Value> {
        let log = self.log.lock().unwrap();
        log.seen
            .iter()
            .filter(|r| r.turn())
            .map(|r| r.body.clone())
            .collect()
    }

    /// Every request's path, in order (what the agent asked for, and that
    /// nothing went elsewhere).
    pub fn paths(&self) -> Vec<String> {
        let log = self.log.lock().unwrap();
        log.seen.iter().map(|r| r.path.clone()).collect()
    }
}

fn serve<W: Wire>(conn: TcpStream, wire: &W, log: &Mutex<Log<W::Reply>>) -> std::io::Result<()> {
    let mut w = conn.try_clone()?;
    let mut r = BufReader::new(conn);
    while let Some(req) = read_request(&mut r) {
        // Recorded and given its reply under one lock: turns on parallel
        // connections take the script in the order they are recorded.
        let (reply, n) = {
            let mut log = log.lock().unwrap();
            log.seen.push(req.clone());
            let reply = match log.script.front() {
                _ if !wire.takes(&req) => None,
                Some(last) if log.script.len() == 1 && wire.stays(last) => Some(last.clone()),
                _ => log.script.pop_front(),
            };
            (reply, log.seen.len())
        };
        if wire.answer(&mut w, &req, reply, n)? == Then::Close {
            break;
        }
    }
    Ok(())
}

/// Reads one request: its request line, headers and body (by
/// Content-Length, or chunked); `None` once the client hangs up.
fn read_request(r: &mut BufReader<TcpStream>) -> Option<Request> {
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
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    Some(Request { method, path, body })
}

/// A whole answer with its length. `status` is the status line's end
/// (`200 OK`); `headers` are extra lines, each ending in CRLF.
pub fn respond(
    w: &mut TcpStream,
    status: &str,
    content_type: &str,
    headers: &str,
    body: &[u8],
) -> std::io::Result<()> {
    write!(
        w,
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\n{headers}content-length: {}\r\n\r\n",
        body.len()
    )?;
    w.write_all(body)?;
    w.flush()
}

/// `200 OK` with a JSON body.
pub fn json(w: &mut TcpStream, body: &Value) -> std::io::Result<()> {
    respond(
        w,
        "200 OK",
        "application/json",
        "",
        body.to_string().as_bytes(),
    )
}

/// An SSE stream the answer ends with: the client reads it to the
/// connection's close.
pub struct Sse<'a> {
    w: &'a mut TcpStream,
}

impl<'a> Sse<'a> {
    /// Writes the stream's head; `headers` are extra lines, each ending in
    /// CRLF.
    pub fn start(w: &'a mut TcpStream, headers: &str) -> std::io::Result<Self> {
        write!(
            w,
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n{headers}connection: close\r\n\r\n"
        )?;
        Ok(Sse { w })
    }

    /// `event: <name>` with its data.
    pub fn event(&mut self, name: &str, data: &Value) -> std::io::Result<()> {
        write!(self.w, "event: {name}\ndata: {data}\n\n")?;
        self.w.flush()
    }

    /// A `data:` line alone.
    pub fn data(&mut self, data: impl Display) -> std::io::Result<()> {
        write!(self.w, "data: {data}\n\n")?;
        self.w.flush()
    }

    /// A slow reply: nothing for `wait`, or with `ping`, that event every
    /// quarter second, which also finds out whether the client hung up.
    pub fn hold(&mut self, wait: Duration, ping: Option<(&str, &Value)>) -> std::io::Result<()> {
        let Some((name, data)) = ping else {
            std::thread::sleep(wait);
            return Ok(());
        };
        let until = Instant::now() + wait;
        while Instant::now() < until {
            std::thread::sleep(Duration::from_millis(250));
            self.event(name, data)?;
        }
        Ok(())
    }
}

/// Nanoseconds since the epoch: the ids of one answer's parts.
pub fn nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// A scripted answer of the OpenAI-style stand-ins (Responses, Chat
/// Completions), with the wire's own token counts `U`.
#[derive(Debug, Clone)]
pub enum Reply<U> {
    Text(String, U),
    /// A call of the agent's shell tool with this command line; the turn
    /// after its output takes the next reply.
    Shell(String, U),
    /// A text that ends its turn only after this long: a turn still going
    /// for the test to look at.
    Slow(Duration, String, U),
}

impl<U: Default> Reply<U> {
    /// How the OpenAI-style APIs answer: a `POST` to the path ending in
    /// `path` with its SSE `stream` of the reply, then the connection
    /// closes; anything else with `listing` (their model lists). A request
    /// that took no reply from the script gets one: a turn hears the script
    /// is empty, a side call (a title) a short text with zero usage.
    pub fn answer(
        w: &mut TcpStream,
        req: &Request,
        reply: Option<Self>,
        (path, listing): (&str, &[u8]),
        stream: impl FnOnce(&mut TcpStream, &Self) -> std::io::Result<()>,
    ) -> std::io::Result<Then> {
        if req.method != "POST" || !req.path.ends_with(path) {
            respond(w, "200 OK", "application/json", "", listing)?;
            return Ok(Then::KeepAlive);
        }
        let reply = reply.unwrap_or_else(|| {
            let text = if req.turn() {
                NO_REPLY_LEFT
            } else {
                "Stand-in title"
            };
            Reply::Text(text.into(), U::default())
        });
        stream(w, &reply)?;
        Ok(Then::Close)
    }
}
