//! The stand-in's own answers, checked without Claude Code.

use serde_json::Value;

use super::standin::{Reply, StandIn};
use super::tokens;

/// The stand-in's other answers, which Claude Code 2.1.328 did not ask for
/// in these runs (all its turns stream; nonessential traffic is off): plain
/// JSON messages, a Bash and an AskUserQuestion tool_use, count_tokens, a GET, an error, each over
/// one kept-alive connection.
#[test]
fn the_stand_in_answers_json_count_tokens_and_errors() {
    use std::io::{BufRead, BufReader, Read, Write};
    let api = StandIn::start();
    api.script([
        Reply::Text("Plain.".into(), tokens(7, 3, 2, 1)),
        Reply::Bash("true".into(), tokens(1, 1, 0, 0)),
        Reply::Ask(
            "Which?".into(),
            vec!["A".into(), "B".into()],
            tokens(1, 1, 0, 0),
        ),
        Reply::Error(400, "invalid_request_error", "no".into()),
    ]);
    let conn = std::net::TcpStream::connect(("127.0.0.1", api.port)).unwrap();
    let mut w = conn.try_clone().unwrap();
    let mut r = BufReader::new(conn);
    let mut call = |method: &str, path: &str, body: &str| -> (u16, Value) {
        write!(
            w,
            "{method} {path} HTTP/1.1\r\nhost: x\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut status = String::new();
        r.read_line(&mut status).unwrap();
        let code = status.split_whitespace().nth(1).unwrap().parse().unwrap();
        let mut length = 0;
        loop {
            let mut h = String::new();
            r.read_line(&mut h).unwrap();
            if h.trim().is_empty() {
                break;
            }
            if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
        }
        let mut bytes = vec![0; length];
        r.read_exact(&mut bytes).unwrap();
        (code, serde_json::from_slice(&bytes).unwrap())
    };
    let turn =
        r#"{"model":"claude-opus-5-5","stream":false,"tools":[{"name":"Bash"}],"messages":[]}"#;
    let (code, m) = call("POST", "/v1/messages?beta=true", turn);
    assert_eq!(code, 200);
    assert_eq!(m["content"][0]["text"], "Plain.");
    assert_eq!(m["usage"]["input_tokens"], 7);
    assert_eq!(m["usage"]["cache_read_input_tokens"], 2);
    let (_, m) = call("POST", "/v1/messages", turn);
    assert_eq!(m["content"][0]["type"], "tool_use");
    assert_eq!(m["content"][0]["input"]["command"], "true");
    assert_eq!(m["stop_reason"], "tool_use");
    let (_, m) = call("POST", "/v1/messages", turn);
    assert_eq!(m["content"][0]["name"], "AskUserQuestion");
    let asked = &m["content"][0]["input"]["questions"][0];
    assert_eq!(
        (&asked["question"], &asked["options"][1]["label"]),
        (&"Which?".into(), &"B".into())
    );
    let (code, m) = call("POST", "/v1/messages/count_tokens?beta=true", turn);
    assert_eq!((code, m["input_tokens"].as_u64()), (200, Some(100)));
    let (code, _) = call("GET", "/v1/models", "");
    assert_eq!(code, 200);
    for _ in 0..2 {
        let (code, m) = call("POST", "/v1/messages", turn);
        assert_eq!(code, 400, "a last error answers every later turn");
        assert_eq!(m["error"]["message"], "no");
    }
    assert_eq!(api.turns(), 6);
}
