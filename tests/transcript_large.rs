//! A 200 MB transcript, grown in steps and read incrementally: totals exact,
//! memory flat. Its own test binary, so no other test disturbs the RSS.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::io::Write;

use greenroom::sources::transcript::TranscriptUsage;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[test]
fn a_200_mb_transcript_is_read_incrementally_with_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    let mut file = std::fs::File::create(&path).unwrap();
    let pad = "x".repeat(1000);
    let mut reader = TranscriptUsage::new(&path);
    reader.refresh().unwrap();
    let before = rss_kib();
    let (steps, lines_per_step) = (10, 20_000);
    let mut messages = 0u64;
    for step in 0..steps {
        let mut chunk = String::with_capacity(lines_per_step * 1100);
        for i in 0..lines_per_step {
            if i % 10 == 0 {
                messages += 1;
                chunk.push_str(&format!(
                    r#"{{"type":"assistant","requestId":"r{messages}","message":{{"id":"m{messages}","model":"claude-sonnet-4-5","usage":{{"input_tokens":3,"output_tokens":2,"cache_read_input_tokens":1,"cache_creation_input_tokens":1}}}},"pad":"{pad}"}}"#
                ));
            } else {
                chunk.push_str(&format!(
                    r#"{{"type":"user","message":{{"content":"{pad}"}}}}"#
                ));
            }
            chunk.push('\n');
        }
        file.write_all(chunk.as_bytes()).unwrap();
        drop(chunk);
        assert!(reader.refresh().unwrap(), "step {step} counted something");
    }
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 200_000_000, "{size} bytes");
    assert_eq!(reader.offset(), size);
    let u = reader.by_model()["claude-sonnet-4-5"];
    assert_eq!(u.input, 3 * messages);
    assert_eq!(u.output, 2 * messages);
    let grown_mib = rss_kib().saturating_sub(before) / 1024;
    assert!(
        grown_mib < 48,
        "reading 200 MB grew memory by {grown_mib} MiB"
    );
}
