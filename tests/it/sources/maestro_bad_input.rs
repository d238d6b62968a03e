//! Hostile and broken Maestro state files, generated in temp folders: each
//! must become an `Err` with a clear reason (or read with a note), never a
//! panic, a hang or a blow-up, and the other files of a folder keep working.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};

use greenroom::model::{Orchestration, PhaseId};
use greenroom::sources::maestro::{
    StateLocation, location_for_workspace, parse_state, read_location, read_state_file,
};

const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/maestro-state"
);

const GOOD: &str = "---\nsession_id: good\nstatus: in_progress\ncurrent_phase: 1\ntotal_phases: 1\nphases:\n  - id: 1\n    status: in_progress\n---\n# body\n";

fn parse(text: &str) -> Result<Orchestration, String> {
    parse_state(text, Path::new("/ws/s.md"), Path::new("/ws"), false)
}

/// Writes `bytes` to a fresh file and reads it through the public reader.
fn read_bytes(bytes: &[u8]) -> Result<Orchestration, String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("active-session.md");
    fs::write(&path, bytes).unwrap();
    read_state_file(&path, dir.path(), false).map_err(|p| {
        assert_eq!(p.path, path, "the problem names the file");
        p.error
    })
}

fn assert_err(result: Result<Orchestration, String>, reason: &str) {
    match result {
        Ok(o) => panic!("expected an error containing {reason:?}, got {o:?}"),
        Err(e) => assert!(e.contains(reason), "{e:?} should contain {reason:?}"),
    }
}

fn with_frontmatter(yaml: &str) -> String {
    format!("---\n{yaml}\n---\nbody\n")
}

#[test]
fn empty_and_unclosed_files() {
    assert_err(read_bytes(b""), "empty");
    assert_err(read_bytes(b"\n \n"), "empty");
    assert_err(read_bytes(b"---"), "not closed");
    assert_err(read_bytes(b"---\n"), "not closed");
    assert_err(
        read_bytes(b"# Orchestration Log\n\nno frontmatter\n"),
        "must start with a --- line",
    );
    assert_err(read_bytes(b"---\n---\n"), "frontmatter is empty");
}

#[test]
fn truncated_real_file() {
    let whole = fs::read_to_string(Path::new(FIXTURES).join(
        "bladexp210-maker-framework-extension__gemini-state-active-session__failed-phase-blocked-token-usage.md",
    ))
    .unwrap_or_else(|e| panic!("{FIXTURES}: {e}"));
    let cut = whole.find("  - id: 3").unwrap();
    assert_err(
        read_bytes(&whole.as_bytes()[..cut]),
        "the file may be truncated",
    );
}

#[test]
fn binary_non_utf8_and_oversized_files() {
    assert_err(read_bytes(b"---\nsession_id: \0\x01\x02\n---\n"), "binary");
    assert_err(read_bytes(b"---\nsession_id: caf\xe9\n---\n"), "UTF-8");
    assert_err(read_bytes(&[0xff, 0xfe, b'-', 0, b'-', 0]), "binary");

    let mut big = GOOD.as_bytes().to_vec();
    big.resize(1024 * 1024 + 1, b'x');
    assert_err(read_bytes(&big), "over the 1 MiB limit");
}

#[test]
fn wrong_types_are_noted_not_fatal() {
    let o = parse(&with_frontmatter("session_id: s\nphases: \"x\"")).unwrap();
    assert!(o.phases.is_empty());
    assert_eq!(
        o.contradictions,
        ["phases is \"x\", not a list; no phases shown"]
    );

    let o = parse(&with_frontmatter("phases: [1, 2]\ntotal_phases: 2")).unwrap();
    assert!(o.phases.is_empty());
    assert_eq!(
        o.contradictions,
        ["2 phase entries are not mappings; skipped"]
    );

    let o = parse(&with_frontmatter("token_usage: []")).unwrap();
    assert_eq!(o.token_usage, None);
    assert_eq!(
        o.contradictions,
        ["token_usage is [], not a mapping; ignored"]
    );

    let o = parse(&with_frontmatter("current_phase: {a: 1}")).unwrap();
    assert_eq!(o.current_phase, None);
    assert_eq!(
        o.contradictions,
        ["current_phase is {\"a\":1}, not a phase id; ignored"]
    );

    let o = parse(&with_frontmatter(
        "phases:\n  - id: 1\n    retry_count: -3\n  - id: 2\n    retry_count: many\n  - id: 3\n    retry_count: \"2\"",
    ))
    .unwrap();
    let retries: Vec<u32> = o.phases.iter().map(|p| p.retry_count).collect();
    assert_eq!(retries, [0, 0, 2]);
    assert_eq!(
        o.contradictions,
        [
            "phase 1 retry_count is -3, not a count; ignored",
            "phase 2 retry_count is \"many\", not a count; ignored",
        ]
    );

    let o = parse(&with_frontmatter(
        "status: [a, b]\ntotal_phases: five\ncurrent_phase: \"3\"\nphases:\n  - id: 3\n    status: 7\n    agents: coder\n    errors: [\"disk full\", null, 4]",
    ))
    .unwrap();
    assert_eq!(o.status.as_deref(), Some("[\"a\",\"b\"]"));
    assert_eq!(o.total_phases, None);
    assert_eq!(o.current_phase, Some(PhaseId::Number(3)));
    assert_eq!(o.phases[0].status.as_str(), "7");
    assert_eq!(o.phases[0].agents, ["coder"]);
    let messages: Vec<_> = o.phases[0]
        .errors
        .iter()
        .map(|e| e.message.as_deref())
        .collect();
    assert_eq!(messages, [Some("disk full"), Some("4")]);
    assert_eq!(
        o.contradictions,
        ["total_phases is \"five\", not a count; ignored"]
    );
}

#[test]
fn nulls_duplicates_and_extra_keys() {
    let o = parse(&with_frontmatter(
        "session_id: ~\nstatus: pending\nstatus: completed\nextra: {deep: [1, 2]}\ntoken_usage:\n  total_input: null\n  by_agent: null\nphases:\n  - id: 1\n    status: completed\n    errors: null\n    agents: null\n    retry_count: null",
    ))
    .unwrap();
    assert_eq!(o.session_id, None);
    assert_eq!(
        o.status.as_deref(),
        Some("completed"),
        "duplicate keys: last wins"
    );
    let t = o.token_usage.unwrap();
    assert_eq!((t.input, t.by_agent.len()), (0, 0));
    assert!(o.phases[0].errors.is_empty() && o.phases[0].agents.is_empty());
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
}

#[test]
fn deep_nesting_fails_fast_with_a_reason() {
    let depth = 100_000;
    let flow = format!("a: {}{}", "[".repeat(depth), "]".repeat(depth));
    assert_err(parse(&with_frontmatter(&flow)), "not valid YAML or JSON");
    let flow_maps = format!("a: {}1{}", "{a: ".repeat(depth), "}".repeat(depth));
    assert_err(
        parse(&with_frontmatter(&flow_maps)),
        "not valid YAML or JSON",
    );
    let block_seqs = format!("a:\n  {}x", "- ".repeat(depth));
    assert_err(
        parse(&with_frontmatter(&block_seqs)),
        "not valid YAML or JSON",
    );
    let unclosed = "[".repeat(depth);
    assert_err(
        parse(&with_frontmatter(&unclosed)),
        "not valid YAML or JSON",
    );

    // `a:\n a:\n  a:` grows quadratically; 1,000 levels still fit in 1 MiB.
    let mut block_maps = String::new();
    for level in 0..1_000 {
        block_maps.push_str(&" ".repeat(level));
        block_maps.push_str("a:\n");
    }
    let text = with_frontmatter(&block_maps);
    assert!(text.len() < 1024 * 1024);
    assert_err(read_bytes(text.as_bytes()), "not valid YAML or JSON");
}

#[test]
fn alias_bomb_is_refused() {
    let mut bomb = String::from("lol0: &lol0 \"lol\"\n");
    for level in 1..=9 {
        let prev = format!("*lol{}", level - 1);
        let items = [prev.as_str(); 9].join(", ");
        bomb.push_str(&format!("lol{level}: &lol{level} [{items}]\n"));
    }
    bomb.push_str("session_id: *lol9\n");
    let err = parse(&with_frontmatter(&bomb)).unwrap_err();
    assert!(
        err.starts_with("frontmatter is not valid YAML or JSON: "),
        "{err}"
    );
    assert!(err.contains("alias"), "{err}");
}

#[test]
fn yaml_errors_name_the_line_of_the_file() {
    let err = parse("\n---\nsession_id: x\nphases: [1, 2\nstatus: y\n---\n").unwrap_err();
    assert!(
        err.starts_with("frontmatter is not valid YAML or JSON: "),
        "{err}"
    );
    assert!(err.contains("line 5"), "{err}");
    let err = parse("---\n{\"session_id\": \"x\",\n\"status\": \n---\n").unwrap_err();
    assert!(
        err.starts_with("frontmatter is not valid YAML or JSON: "),
        "{err}"
    );
}

fn fixtures() -> Vec<(String, String)> {
    let mut files: Vec<_> = fs::read_dir(FIXTURES)
        .unwrap_or_else(|e| panic!("{FIXTURES}: {e}"))
        .map(|e| e.unwrap().path())
        .map(|p| (p.display().to_string(), fs::read_to_string(&p).unwrap()))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

#[test]
fn crlf_and_bom_read_the_same_as_lf() {
    for (name, text) in fixtures() {
        let plain = parse(&text).unwrap();
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(parse(&crlf).unwrap(), plain, "{name} with CRLF");
        let bom = format!("\u{feff}{crlf}");
        assert_eq!(parse(&bom).unwrap(), plain, "{name} with BOM + CRLF");
        assert_eq!(
            read_bytes(bom.as_bytes()).unwrap().phases,
            plain.phases,
            "{name} from disk"
        );
    }
}

#[test]
fn many_phases_are_capped_with_a_note() {
    let mut yaml = String::from("total_phases: 1500\nphases:\n");
    for id in 1..=1500 {
        yaml.push_str(&format!("  - id: {id}\n    status: pending\n"));
    }
    let o = parse(&with_frontmatter(&yaml)).unwrap();
    assert_eq!(o.phases.len(), 1000);
    assert_eq!(o.contradictions, ["only the first 1000 phases are shown"]);
}

/// A state folder under a temp workspace, with the given archive files.
fn state_folder(archive: &[(&str, &[u8])]) -> (tempfile::TempDir, StateLocation) {
    let dir = tempfile::tempdir().unwrap();
    let loc = location_for_workspace(dir.path(), "docs/maestro");
    fs::create_dir_all(loc.state_folder.join("archive")).unwrap();
    for (name, bytes) in archive {
        fs::write(loc.state_folder.join("archive").join(name), bytes).unwrap();
    }
    (dir, loc)
}

fn problem_for<'a>(problems: &'a [greenroom::model::Problem], path: &Path) -> &'a str {
    &problems
        .iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("no problem for {path:?} in {problems:?}"))
        .error
}

#[test]
fn folder_named_active_session_is_a_problem() {
    let (_dir, loc) = state_folder(&[("ok.md", GOOD.as_bytes())]);
    let active = loc.state_folder.join("active-session.md");
    fs::create_dir(&active).unwrap();
    let (found, problems) = read_location(&loc, true);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problem_for(&problems, &active).contains("folder"));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].session_id.as_deref(), Some("good"));
}

#[test]
fn dangling_symlink_is_reported_not_followed() {
    let (dir, loc) = state_folder(&[("ok.md", GOOD.as_bytes())]);
    let active = loc.state_folder.join("active-session.md");
    std::os::unix::fs::symlink(dir.path().join("nowhere.md"), &active).unwrap();
    // A link to a real, valid file is refused too: links are never followed.
    let target = dir.path().join("elsewhere.md");
    fs::write(&target, GOOD).unwrap();
    let linked = loc.state_folder.join("archive/linked.md");
    std::os::unix::fs::symlink(&target, &linked).unwrap();

    let (found, problems) = read_location(&loc, true);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problem_for(&problems, &active).contains("symbolic link"));
    assert!(problem_for(&problems, &linked).contains("symbolic link"));
    assert_eq!(found.len(), 1);
    assert!(found[0].archived);
}

#[test]
fn bad_files_do_not_hide_good_ones() {
    let huge = vec![b'x'; 1024 * 1024 + 10];
    let (_dir, loc) = state_folder(&[
        ("1-empty.md", b""),
        ("2-good.md", GOOD.as_bytes()),
        ("3-binary.md", b"\0\0\0"),
        ("4-huge.md", &huge),
        (
            "5-truncated.md",
            b"---\nsession_id: cut\nphases:\n  - id: 1\n",
        ),
        ("6-good.md", GOOD.as_bytes()),
    ]);
    fs::write(loc.state_folder.join("active-session.md"), b"\xff\xfe").unwrap();
    let (found, problems) = read_location(&loc, true);
    assert_eq!(found.len(), 2);
    assert!(
        found
            .iter()
            .all(|o| o.session_id.as_deref() == Some("good") && o.archived)
    );
    let reasons: Vec<(PathBuf, &str)> = problems
        .iter()
        .map(|p| {
            (
                p.path
                    .strip_prefix(&loc.state_folder)
                    .unwrap()
                    .to_path_buf(),
                p.error.as_str(),
            )
        })
        .collect();
    assert_eq!(reasons.len(), 5, "{reasons:?}");
    let expect = [
        ("active-session.md", "UTF-8"),
        ("archive/1-empty.md", "empty"),
        ("archive/3-binary.md", "binary"),
        ("archive/4-huge.md", "1 MiB"),
        ("archive/5-truncated.md", "not closed"),
    ];
    for ((path, reason), (want_path, want_reason)) in reasons.iter().zip(expect) {
        assert_eq!(path, Path::new(want_path));
        assert!(reason.contains(want_reason), "{path:?}: {reason}");
    }
}
