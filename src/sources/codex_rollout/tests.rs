use std::io::Write;

use super::*;

const META: &str = r#"{"timestamp":"2026-12-02T11:43:44.844Z","ordinal":0,"type":"session_meta","payload":{"session_id":"01a23691-3cae","id":"01a23691-3cae","cwd":"/w/proj","cli_version":"0.169.0","source":"cli"}}"#;
const TURN: &str = r#"{"timestamp":"2026-12-02T11:43:44.976Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/w/proj","model":"gpt-5.4"}}"#;

fn tokens(input: u64, cached: u64, output: u64, reasoning: u64) -> String {
    format!(
        r#"{{"timestamp":"2026-12-02T11:43:45.145Z","type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{{"input_tokens":{input},"cached_input_tokens":{cached},"cache_write_input_tokens":0,"output_tokens":{output},"reasoning_output_tokens":{reasoning},"total_tokens":0}},"last_token_usage":{{"input_tokens":1}}}}}}}}"#
    )
}

#[test]
fn the_records_greenroom_uses_are_read_and_the_rest_skipped() {
    assert_eq!(
        parse_line(META.as_bytes()),
        Some(Record::Meta {
            id: "01a23691-3cae".into(),
            cwd: Some("/w/proj".into())
        })
    );
    assert_eq!(
        parse_line(TURN.as_bytes()),
        Some(Record::Model("gpt-5.4".into()))
    );
    let Some(Record::Tokens(t, at)) = parse_line(tokens(1000, 200, 50, 10).as_bytes()) else {
        panic!("a token_count");
    };
    assert_eq!((t.input_tokens, t.reasoning_output_tokens), (1000, 10));
    assert!(at.is_some());
    // A token_count before any request has no info (null): nothing.
    let empty = r#"{"type":"event_msg","payload":{"type":"token_count","info":null}}"#;
    assert_eq!(parse_line(empty.as_bytes()), None);
    for other in [
        r#"{"type":"response_item","payload":{"type":"message","text":"token_count"}}"#,
        r#"{"type":"session_meta","payload":{"id":""}}"#,
        r#"{"type":"session_meta" not json"#,
        r#"{"type":"turn_context","payload":"a string"}"#,
        "",
    ] {
        assert_eq!(parse_line(other.as_bytes()), None, "{other}");
    }
}

#[test]
fn cached_input_is_taken_out_of_input_and_reasoning_stays_in_output() {
    let t = Totals {
        input_tokens: 1000,
        cached_input_tokens: 200,
        cache_write_input_tokens: 100,
        output_tokens: 50,
        reasoning_output_tokens: 10,
    };
    assert_eq!(
        t.usage(),
        ModelUsage {
            input: 700,
            output: 50,
            cache_read: 200,
            cache_write: 100
        }
    );
    // A file that claims more cached than input cannot make it negative.
    let odd = Totals {
        input_tokens: 5,
        cached_input_tokens: 9,
        ..Totals::default()
    };
    assert_eq!(odd.usage().input, 0);
}

#[test]
fn rollouts_are_told_from_other_transcripts() {
    assert!(is_rollout(Path::new(
        "/h/.codex/sessions/2026/12/02/rollout-2026-12-02T11-43-37-01a23691.jsonl"
    )));
    assert!(!is_rollout(Path::new("/h/.claude/projects/-x/0b1c.jsonl")));
    assert!(!is_rollout(Path::new("/h/chats/session-1.jsonl")));
    assert!(!is_rollout(Path::new("/h/rollout-1.json")));
}

#[test]
fn the_last_total_counts_read_as_the_file_grows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rollout-x.jsonl");
    let mut f = std::fs::File::create(&path).unwrap();
    writeln!(
        f,
        "{META}\nnot json at all\n{TURN}\n{}",
        tokens(1000, 200, 50, 10)
    )
    .unwrap();
    let mut r = CodexUsage::new(&path);
    assert!(r.refresh().unwrap());
    assert_eq!(r.session_id(), Some("01a23691-3cae"));
    assert_eq!(r.cwd(), Some(Path::new("/w/proj")));
    assert_eq!(r.model(), Some("gpt-5.4"));
    assert_eq!(r.by_model()["gpt-5.4"].input, 800);
    assert!(!r.refresh().unwrap(), "nothing new");
    // The next total replaces the first (it is a running total); half a
    // line waits for its end.
    let next = tokens(3000, 1200, 90, 30);
    let (head, rest) = next.split_at(40);
    write!(f, "{head}").unwrap();
    assert!(!r.refresh().unwrap());
    writeln!(f, "{rest}").unwrap();
    assert!(r.refresh().unwrap());
    assert_eq!(
        r.by_model()["gpt-5.4"],
        ModelUsage {
            input: 1800,
            output: 90,
            cache_read: 1200,
            cache_write: 0
        }
    );
    assert_eq!(r.reasoning(), 30);
    assert_eq!(r.by_model().len(), 1);
    // Replaced by a shorter file: read again from its start.
    std::fs::write(&path, format!("{META}\n")).unwrap();
    let mut f2 = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    writeln!(f2, "{}", tokens(10, 0, 1, 0)).unwrap();
    assert!(r.refresh().unwrap());
    assert_eq!(r.by_model()["unknown"].input, 10, "no turn_context yet");
    assert_eq!(r.reasoning(), 0);
}

/// Codex CLI 0.169.0's own rollout, from the interop suite: two turns.
#[test]
fn a_real_rollout_reads_as_its_last_total() {
    let path = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/real/codex-rollout/codex-0.169.0__two-turns.jsonl"
    ));
    let mut r = CodexUsage::new(path);
    assert!(r.refresh().unwrap());
    assert_eq!(r.session_id(), Some("01a2369d-5c0d-7712-9b13-6966c3434d37"));
    assert_eq!(r.cwd(), Some(Path::new("/tmp/.tmpZtMveW/work")));
    assert_eq!(r.model(), Some("gpt-5.4"));
    let t = r.totals().unwrap();
    assert_eq!(
        (t.input_tokens, t.cached_input_tokens, t.output_tokens),
        (25_500, 14_000, 650),
        "the second turn's running total, not the first's nor their sum"
    );
    assert_eq!(r.reasoning(), 150);
    assert_eq!(
        r.by_model()["gpt-5.4"],
        ModelUsage {
            input: 11_500,
            output: 650,
            cache_read: 14_000,
            cache_write: 0
        }
    );
    // Both turns' totals were timed: the rate counts all of the session.
    let at = DateTime::parse_from_rfc3339("2026-12-02T11:57:00Z").unwrap();
    assert!(r.tokens_per_minute(at.with_timezone(&Utc)) > 0.0);
}
