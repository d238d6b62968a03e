//! One line appended to a 100 MB transcript -> usage updated: the parse
//! reads only the new bytes (issue budget: well under a millisecond).
//!
//! Run: `cargo bench --bench transcript_append` (or `benches/run`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

use std::io::Write;
use std::time::{Duration, Instant};

use greenroom::sources::transcript::TranscriptUsage;

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    let mut file = std::fs::File::create(&path).unwrap();
    let pad = "x".repeat(1000);
    let mut n = 0u64;
    while file.metadata().unwrap().len() < 100 * 1024 * 1024 {
        let mut chunk = String::new();
        for i in 0..10_000 {
            n += 1;
            if i % 10 == 0 {
                chunk.push_str(&format!(r#"{{"requestId":"r{n}","message":{{"id":"m{n}","model":"claude-sonnet-4-5","usage":{{"input_tokens":3,"output_tokens":2}}}},"pad":"{pad}"}}"#));
            } else {
                chunk.push_str(&format!(
                    r#"{{"type":"user","message":{{"content":"{pad}"}}}}"#
                ));
            }
            chunk.push('\n');
        }
        file.write_all(chunk.as_bytes()).unwrap();
    }
    let mut reader = TranscriptUsage::new(&path);
    let start = Instant::now();
    reader.refresh().unwrap();
    let first = start.elapsed();
    let mut times: Vec<Duration> = Vec::new();
    for _ in 0..200 {
        n += 1;
        let line = format!(
            "{{\"requestId\":\"r{n}\",\"timestamp\":\"2026-11-29T12:00:00Z\",\"message\":{{\"id\":\"m{n}\",\"model\":\"claude-sonnet-4-5\",\"usage\":{{\"input_tokens\":3,\"output_tokens\":2}}}}}}\n"
        );
        file.write_all(line.as_bytes()).unwrap();
        let start = Instant::now();
        assert!(reader.refresh().unwrap());
        times.push(start.elapsed());
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    println!(
        "| one line appended to a 100 MB transcript -> usage updated | p50 {:.3} ms, p99 {:.3} ms | well under 1 ms |",
        ms(times[times.len() / 2]),
        ms(times[times.len() * 99 / 100])
    );
    println!(
        "| first read of the whole 100 MB transcript | {:.0} ms | (once per session) |",
        ms(first)
    );
}
