//! Agent Orchestrator sessions: the real files other projects wrote, a
//! realistic `~/.agent-orchestrator` tree, and a corpus of bad input that
//! must become problems while every other session keeps working.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use greenroom::model::{Activity, Problem, Status};
use greenroom::sources::ao::{self, AoSession};
use greenroom::sources::read_text_file;
use tempfile::TempDir;

const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/ao-metadata"
);

fn fixture(name: &str) -> String {
    let path = Path::new(FIXTURES).join(name);
    read_text_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn time(s: &str) -> Option<DateTime<Utc>> {
    Some(DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc))
}

fn some(s: &str) -> Option<String> {
    Some(s.to_owned())
}

fn write(path: &Path, content: impl AsRef<[u8]>) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

fn by_id<'a>(sessions: &'a [AoSession], id: &str) -> &'a AoSession {
    let found: Vec<_> = sessions.iter().filter(|s| s.id == id).collect();
    assert_eq!(found.len(), 1, "exactly one session {id} in {sessions:#?}");
    found[0]
}

fn ids(sessions: &[AoSession]) -> Vec<&str> {
    let mut ids: Vec<_> = sessions.iter().map(|s| s.name()).collect();
    ids.sort_unstable();
    ids
}

fn problem_for<'a>(problems: &'a [Problem], path: &Path) -> &'a Problem {
    problems
        .iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("no problem for {} in {problems:#?}", path.display()))
}

// ---------------------------------------------------------------- real files

#[test]
fn legacy_with_state_payload() {
    let text = fixture("legacy-kv__ao-1__statePayload-prAutoDetect-dashboardPort.kv");
    assert!(!text.ends_with('\n'), "the fixture has no trailing newline");
    let path = Path::new("/home/u/.agent-orchestrator/66c66786e971-myproject/sessions/ao-1");
    let s = ao::parse_session(&text, path, false).unwrap();
    let expected = AoSession {
        id: "ao-1".into(),
        path: path.into(),
        project: some("myproject"),
        agent: some("claude-code"),
        // The stored `status` is the word AO shows (here the lifecycle agrees).
        state: some("working"),
        session_state: some("working"),
        activity: None,
        runtime_state: None,
        tmux_name: None,
        branch: some("session/ao-1"),
        worktree: Some("/tmp/worktrees/ao-1".into()),
        created_at: time("2026-04-21T12:00:00Z"),
        last_transition_at: None,
        kind: some("worker"),
        archived: false,
        ..AoSession::default()
    };
    assert_eq!(s, expected);
    assert_eq!(s.status(), Status::Running);
    assert_eq!(s.activity(), Activity::Active);
    assert_eq!(s.name(), "ao-1");
}

/// AO's legacy `readMetadata` shows the stored `status`: AO wrote it beside
/// `statePayload` at every transition.
#[test]
fn legacy_stored_status_beats_state_payload() {
    let text = "status=working\nstatePayload={\"version\":2,\"session\":{\"kind\":\"worker\",\"state\":\"needs_input\"}}\n";
    let s = ao::parse_session(text, Path::new("/x/sessions/ao-2"), false).unwrap();
    assert_eq!(s.state.as_deref(), Some("working"));
    assert_eq!(s.session_state.as_deref(), Some("needs_input"));
    assert_eq!(s.activity(), Activity::Active);
    // Without a stored status, the lifecycle's word.
    let text = "statePayload={\"version\":2,\"session\":{\"kind\":\"worker\",\"state\":\"needs_input\"}}\n";
    let s = ao::parse_session(text, Path::new("/x/sessions/ao-2"), false).unwrap();
    assert_eq!(s.state.as_deref(), Some("needs_input"));
    assert_eq!(s.activity(), Activity::AwaitingInput);
}

/// AO's own example (migration-storage-v2.test.ts): the stored
/// `review_pending` wins over the lifecycle's `working`, and the agent, by
/// its lifecycle, is still at work.
#[test]
fn legacy_stored_review_pending_is_what_ao_shows() {
    let text = fixture("legacy-kv__ao-1__status-review_pending-statePayload-working-pr-open.kv");
    let path = Path::new("/home/u/.agent-orchestrator/aaaaaa000000-myproject/sessions/ao-1");
    let s = ao::parse_session(&text, path, false).unwrap();
    assert_eq!(s.state.as_deref(), Some("review_pending"));
    assert_eq!(s.session_state.as_deref(), Some("working"));
    assert_eq!(s.pr.as_deref(), Some("https://github.com/test/repo/pull/1"));
    assert_eq!(s.status(), Status::Running);
    assert_eq!(s.activity(), Activity::Active);
}

/// AO's own example (metadata.test.ts): a current JSON file has no stored
/// status, and AO derives `review_pending` from the lifecycle, the pull
/// request first.
#[test]
fn current_json_without_status_derives_it_as_ao_does() {
    let text = fixture("v2-json__no-status__lifecycle-working-pr-open-review_pending.json");
    let path = Path::new("/h/.agent-orchestrator/projects/myproject/sessions/no-status.json");
    let s = ao::parse_session(&text, path, false).unwrap();
    assert_eq!(s.state.as_deref(), Some("review_pending"));
    assert_eq!(s.session_state.as_deref(), Some("working"));
    assert_eq!(s.runtime_state.as_deref(), Some("alive"));
    assert_eq!(s.status(), Status::Running);
    assert_eq!(s.activity(), Activity::Active);
}

#[test]
fn legacy_archive_with_real_and_collected_names() {
    let text = fixture("legacy-kv__archive__ao-83_2026-04-20T14-30-52.000Z.kv");
    // The real name has colons; the collected fixture replaced them.
    for name in [
        "ao-83_2026-04-20T14:30:52.000Z",
        "ao-83_2026-04-20T14-30-52.000Z",
    ] {
        let path = PathBuf::from("/h/.agent-orchestrator/0123456789ab-myproject/sessions/archive")
            .join(name);
        let s = ao::parse_session(&text, &path, true).unwrap();
        let expected = AoSession {
            id: "ao-83".into(),
            path: path.clone(),
            project: some("myproject"),
            branch: some("b"),
            worktree: Some("/tmp/w".into()),
            created_at: time("2026-04-20T14:30:52Z"),
            archived: true,
            ..AoSession::default()
        };
        assert_eq!(s, expected);
        assert_eq!(s.status(), Status::Exited);
        assert_eq!(s.activity(), Activity::Unknown("unknown".into()));
    }
}

#[test]
fn legacy_comments_and_blank_lines() {
    let text = fixture("legacy-kv__raw-2__comments-blank-lines.kv");
    assert_eq!(
        ao::parse_key_values(&text),
        [
            ("key1".to_owned(), "value1".to_owned()),
            ("key2".to_owned(), "value2".to_owned())
        ]
    );
    let path = Path::new("/x/sessions/raw-2");
    let s = ao::parse_session(&text, path, false).unwrap();
    let expected = AoSession {
        id: "raw-2".into(),
        path: path.into(),
        ..AoSession::default()
    };
    assert_eq!(s, expected);
    assert_eq!(s.status(), Status::Unknown("unknown".into()));
}

#[test]
fn current_orchestrator_json() {
    let text = fixture("v2-json__orchestrator.json__from-STORAGE_REDESIGN.json");
    let path = Path::new("/h/.agent-orchestrator/projects/agent-orchestrator/orchestrator.json");
    let s = ao::parse_session(&text, path, false).unwrap();
    let expected = AoSession {
        id: "ao-orchestrator".into(),
        path: path.into(),
        project: some("agent-orchestrator"),
        agent: some("claude-code"),
        state: some("working"),
        session_state: some("working"),
        activity: None,
        runtime_state: some("alive"),
        tmux_name: some("ao-orchestrator"),
        branch: None,
        worktree: None,
        created_at: time("2026-04-21T12:19:44.695Z"),
        last_transition_at: time("2026-04-21T12:19:44.695Z"),
        kind: some("orchestrator"),
        reason: some("task_in_progress"),
        archived: false,
        ..AoSession::default()
    };
    assert_eq!(s, expected);
    assert_eq!(s.status(), Status::Running);
    assert_eq!(s.activity(), Activity::Active);
}

#[test]
fn orchestrator_id_falls_back_to_project() {
    let path = Path::new("/h/projects/web/orchestrator.json");
    let s = ao::parse_session(r#"{"agent":"codex"}"#, path, false).unwrap();
    assert_eq!(s.id, "web-orchestrator");
    assert_eq!(s.project.as_deref(), Some("web"));
    // A tmux name with control characters is not an id the operator can type.
    let text = r#"{"tmuxName":"bad\nname"}"#;
    let s = ao::parse_session(text, path, false).unwrap();
    assert_eq!(s.id, "web-orchestrator");
    assert_eq!(s.tmux_name.as_deref(), Some("bad\nname"));
}

#[test]
fn tmux_name_fallbacks() {
    let path = Path::new("/h/projects/p/sessions/p-1.json");
    let tmux = |text: &str| ao::parse_session(text, path, false).unwrap().tmux_name;
    let runtime = r#"{"lifecycle": {"runtime": {"state": "alive", "tmuxName": "h-p-1"}},
                      "runtimeHandle": {"id": "handle-p-1", "runtimeName": "tmux"}}"#;
    assert_eq!(tmux(runtime), some("h-p-1"));
    let handle = r#"{"runtimeHandle": {"id": "handle-p-1", "runtimeName": "tmux"}}"#;
    assert_eq!(tmux(handle), some("handle-p-1"));
    // A container id is not a tmux session to attach to or kill.
    let docker = r#"{"runtimeHandle": {"id": "c0ffee", "runtimeName": "docker"}}"#;
    assert_eq!(tmux(docker), None);
    // Legacy files store the handle as JSON text.
    let legacy = "runtimeHandle={\"id\":\"abc-p-1\",\"runtimeName\":\"tmux\",\"data\":{}}\n";
    let s = ao::parse_session(legacy, Path::new("/h/x/sessions/p-1"), false).unwrap();
    assert_eq!(s.tmux_name, some("abc-p-1"));
}

/// Whatever is added to the fixture folder later is at least read cleanly.
#[test]
fn every_fixture_parses() {
    let mut count = 0;
    for entry in fs::read_dir(FIXTURES).unwrap_or_else(|e| panic!("{FIXTURES}: {e}")) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        if name.ends_with(".md") {
            continue;
        }
        let text = read_text_file(&path).unwrap();
        let archived = name.contains("archive");
        let folder = if archived {
            "sessions/archive"
        } else {
            "sessions"
        };
        let real_name = name.trim_end_matches(".kv");
        let as_found = Path::new("/h/.agent-orchestrator/projects/p")
            .join(folder)
            .join(real_name);
        let s =
            ao::parse_session(&text, &as_found, archived).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!s.id.is_empty(), "{name}");
        count += 1;
    }
    assert!(count >= 4, "fixtures found: {count}");
}

// ------------------------------------------------------------ a real tree

const V2_WORKER: &str = r#"{
  "project": "app",
  "agent": "codex",
  "createdAt": "2026-04-22T08:00:00.000Z",
  "worktree": "./worktrees/app-7",
  "branch": "session/app-7",
  "runtimeHandle": {"id": "app-7", "runtimeName": "tmux", "data": {}},
  "issue": "https://example.com/issues/7",
  "prAutoDetect": true,
  "lifecycle": {
    "version": 2,
    "session": {"kind": "worker", "state": "needs_input", "reason": "awaiting_user_input",
                "startedAt": "2026-04-22T08:00:01.000Z", "completedAt": null,
                "lastTransitionAt": "2026-04-22T09:15:00.000Z"},
    "pr": {"state": "none", "reason": "not_created", "number": null},
    "runtime": {"state": "alive", "reason": "process_running", "lastObservedAt": null}
  },
  "dashboard": {"port": 3000}
}"#;

/// Builds a `~/.agent-orchestrator` with both layouts, archives, worktrees
/// and the temp files ao leaves while writing.
fn realistic_tree() -> (TempDir, PathBuf) {
    let home = TempDir::new().unwrap();
    let root = home.path().join(".agent-orchestrator");
    let legacy = root.join("66c66786e971-myproject");
    write(&root.join("config.yaml"), "projects: {}\n");
    write(
        &legacy.join("sessions/ao-1"),
        fixture("legacy-kv__ao-1__statePayload-prAutoDetect-dashboardPort.kv"),
    );
    // No `project` line: the project comes from the hash folder's name.
    write(
        &legacy.join("sessions/ao-2"),
        "agent=aider\nstatus=killed\ntmuxName=66c66786e971-ao-2\nbranch=session/ao-2\n",
    );
    write(
        &legacy.join("sessions/ao-orchestrator-8"),
        "project=myproject\nrole=orchestrator\nstatus=working\nactivity=waiting_input\n",
    );
    for skipped in [".ao-1.swp", "ao-3.tmp", "ao-4.lock", "ao-5~", ".hidden"] {
        write(&legacy.join("sessions").join(skipped), "project=nope\n");
    }
    write(
        &legacy.join("sessions/archive/ao-83_2026-04-20T14:30:52.000Z"),
        fixture("legacy-kv__archive__ao-83_2026-04-20T14-30-52.000Z.kv"),
    );
    // A worktree is a whole checkout; its own `sessions/` is not ao's.
    write(
        &legacy.join("worktrees/ao-1/src/sessions/not-a-session"),
        "x=1\n",
    );
    let app = root.join("projects/app");
    write(
        &app.join("orchestrator.json"),
        fixture("v2-json__orchestrator.json__from-STORAGE_REDESIGN.json"),
    );
    write(&app.join("sessions/app-7.json"), V2_WORKER);
    write(
        &app.join("sessions/app-8.json"),
        r#"{"project":"app","status":"killed","lifecycle":null}"#,
    );
    write(&app.join("sessions/app-9.json.tmp.4242"), "{");
    write(
        &app.join("archive/app-3_20260420T143052Z.json"),
        r#"{"project":"app","lifecycle":{"session":{"state":"terminated"}}}"#,
    );
    write(&app.join("worktrees/app-7/sessions/app-7.json"), "[]");
    (home, root)
}

#[test]
fn reads_a_realistic_tree() {
    let (_home, root) = realistic_tree();
    let (sessions, problems) = ao::read_root(&root, false);
    assert_eq!(problems, []);
    assert_eq!(
        ids(&sessions),
        [
            "ao-1",
            "ao-2",
            "ao-orchestrator",
            "ao-orchestrator-8",
            "app-7",
            "app-8"
        ]
    );
    assert!(sessions.iter().all(|s| !s.archived));

    let ao1 = by_id(&sessions, "ao-1");
    assert_eq!(ao1.path, root.join("66c66786e971-myproject/sessions/ao-1"));
    assert_eq!(ao1.status(), Status::Running);

    let ao2 = by_id(&sessions, "ao-2");
    assert_eq!(ao2.project.as_deref(), Some("myproject"));
    assert_eq!(ao2.agent.as_deref(), Some("aider"));
    assert_eq!(ao2.tmux_name.as_deref(), Some("66c66786e971-ao-2"));
    assert_eq!(ao2.status(), Status::Killed);

    let orch8 = by_id(&sessions, "ao-orchestrator-8");
    assert_eq!(orch8.kind.as_deref(), Some("orchestrator"));
    assert_eq!(orch8.activity(), Activity::AwaitingInput);

    let orch = by_id(&sessions, "ao-orchestrator");
    assert_eq!(orch.path, root.join("projects/app/orchestrator.json"));
    // The file's own `project` wins over its folder's name.
    assert_eq!(orch.project.as_deref(), Some("agent-orchestrator"));

    let app7 = by_id(&sessions, "app-7");
    let expected = AoSession {
        id: "app-7".into(),
        path: root.join("projects/app/sessions/app-7.json"),
        project: some("app"),
        agent: some("codex"),
        state: some("needs_input"),
        session_state: some("needs_input"),
        activity: None,
        runtime_state: some("alive"),
        tmux_name: some("app-7"),
        branch: some("session/app-7"),
        // Stored relative to the project folder, resolved on read.
        worktree: Some(root.join("projects/app/worktrees/app-7")),
        created_at: time("2026-04-22T08:00:00Z"),
        last_transition_at: time("2026-04-22T09:15:00Z"),
        kind: some("worker"),
        reason: some("awaiting_user_input"),
        issue: some("https://example.com/issues/7"),
        archived: false,
        ..AoSession::default()
    };
    assert_eq!(*app7, expected);
    assert_eq!(app7.status(), Status::Running);
    assert_eq!(app7.activity(), Activity::AwaitingInput);

    assert_eq!(by_id(&sessions, "app-8").status(), Status::Killed);
}

#[test]
fn archive_only_on_request() {
    let (_home, root) = realistic_tree();
    let (sessions, problems) = ao::read_root(&root, true);
    assert_eq!(problems, []);
    assert_eq!(
        ids(&sessions),
        [
            "ao-1",
            "ao-2",
            "ao-83",
            "ao-orchestrator",
            "ao-orchestrator-8",
            "app-3",
            "app-7",
            "app-8"
        ]
    );
    let ao83 = by_id(&sessions, "ao-83");
    assert!(ao83.archived);
    assert_eq!(ao83.project.as_deref(), Some("myproject"));
    assert_eq!(ao83.status(), Status::Exited);
    let app3 = by_id(&sessions, "app-3");
    assert!(app3.archived);
    assert_eq!(app3.status(), Status::Killed);
    let archived: Vec<_> = sessions
        .iter()
        .filter(|s| s.archived)
        .map(|s| s.name())
        .collect();
    assert_eq!(archived, ["ao-83", "app-3"]);
}

#[test]
fn missing_root_is_normal() {
    let home = TempDir::new().unwrap();
    let (sessions, problems) = ao::read_root(&home.path().join(".agent-orchestrator"), true);
    assert_eq!(sessions, []);
    assert_eq!(problems, []);
}

#[test]
fn default_root_is_under_home() {
    use greenroom::config::Environ;
    assert_eq!(
        ao::default_root(&Environ::from_vars([("HOME", "/home/op")])),
        Some(Path::new("/home/op/.agent-orchestrator").to_path_buf())
    );
    assert_eq!(ao::default_root(&Environ::default()), None);
    assert_eq!(ao::default_root(&Environ::from_vars([("HOME", "")])), None);
}

#[test]
fn deep_trees_are_not_searched() {
    let home = TempDir::new().unwrap();
    let root = home.path();
    let deep = root.join("a/b/c/d/e/f/g/h/sessions/ao-deep");
    write(&deep, "project=deep\n");
    let shallow = root.join("a/b/c/d/e/f/sessions/ao-shallow");
    write(&shallow, "project=shallow\n");
    let (sessions, problems) = ao::read_root(root, true);
    assert_eq!(ids(&sessions), ["ao-shallow"]);
    assert_eq!(problems, []);
}

// ------------------------------------------------------------ bad input

#[test]
fn bad_files_become_problems_and_the_rest_still_works() {
    let home = TempDir::new().unwrap();
    let root = home.path().join(".agent-orchestrator");
    let legacy = root.join("aaaaaaaaaaaa-proj/sessions");
    let current = root.join("projects/proj/sessions");
    write(&legacy.join("good-1"), "project=proj\nstatus=working\n");
    write(&current.join("good-2.json"), V2_WORKER);

    let hostile_tmux = "evil\nname\u{1b}[31m\u{7}\r";
    let big = "x".repeat(100 * 1024);
    write(
        &current.join("hostile.json"),
        serde_json::json!({ "tmuxName": hostile_tmux, "branch": big }).to_string(),
    );
    write(
        &legacy.join("hostile-kv"),
        format!("branch={big}\nagent=a\u{1}b\n"),
    );
    // Tolerated: meaning is clear.
    write(
        &current.join("lenient.json"),
        r#"{"createdAt": 1776758400000, "lifecycle": "{\"session\":{\"state\":\"idle\"}}", "future": [1]}"#,
    );

    let nesting = 100_000;
    let deep_json = format!("{}{}", "[".repeat(nesting), "]".repeat(nesting));
    let deep_in_object = format!(r#"{{"lifecycle": {}}}"#, deep_json);
    let deep_payload = format!("project=p\nstatePayload={}", "{\"a\":".repeat(nesting));
    let bad: Vec<(PathBuf, Vec<u8>, &str)> = vec![
        (legacy.join("empty"), vec![], "empty"),
        (legacy.join("blank"), b"\n \n\t\n".to_vec(), "empty"),
        (
            legacy.join("comments-only"),
            b"# nothing\n".to_vec(),
            "no key=value",
        ),
        (
            legacy.join("binary"),
            b"project=p\0\x01\x02".to_vec(),
            "binary",
        ),
        (
            legacy.join("latin1"),
            b"project=caf\xe9\n".to_vec(),
            "UTF-8",
        ),
        (
            legacy.join("huge"),
            format!("branch={}", "y".repeat(1024 * 1024 + 1)).into_bytes(),
            "1 MiB",
        ),
        (
            legacy.join("bad-payload"),
            b"statePayload={\"version\":2,".to_vec(),
            "statePayload",
        ),
        (
            legacy.join("deep-payload"),
            deep_payload.into_bytes(),
            "recursion limit",
        ),
        (current.join("array.json"), b"[1, 2]".to_vec(), "an array"),
        (
            current.join("truncated.json"),
            br#"{"project": "p", "lifecy"#.to_vec(),
            "not valid JSON",
        ),
        (
            current.join("tmux5.json"),
            br#"{"tmuxName": 5}"#.to_vec(),
            "`tmuxName` is a number",
        ),
        (
            current.join("lifecycle-x.json"),
            br#"{"lifecycle": "x"}"#.to_vec(),
            "`lifecycle`",
        ),
        (
            current.join("lifecycle-num.json"),
            br#"{"lifecycle": {"session": 7}}"#.to_vec(),
            "`lifecycle.session` is a number",
        ),
        (
            current.join("date.json"),
            br#"{"createdAt": "yesterday"}"#.to_vec(),
            "`createdAt`",
        ),
        (
            current.join("deep.json"),
            deep_json.into_bytes(),
            "recursion limit",
        ),
        (
            current.join("deep-obj.json"),
            deep_in_object.into_bytes(),
            "recursion limit",
        ),
    ];
    for (path, content, _) in &bad {
        write(path, content);
    }
    // Folders named like session files.
    fs::create_dir_all(legacy.join("ao-folder")).unwrap();
    fs::create_dir_all(current.join("folder.json")).unwrap();
    // Links are never followed: a dangling one, a loop, and one to a good file.
    std::os::unix::fs::symlink("/nonexistent/ao-9", legacy.join("dangling")).unwrap();
    std::os::unix::fs::symlink(&current, current.join("loop.json")).unwrap();
    std::os::unix::fs::symlink(legacy.join("good-1"), legacy.join("link-to-good")).unwrap();
    std::os::unix::fs::symlink(&root, root.join("cycle")).unwrap();
    std::os::unix::fs::symlink(&root, root.join("projects/proj/archive")).unwrap();

    let (sessions, problems) = ao::read_root(&root, true);

    assert_eq!(
        ids(&sessions),
        ["good-1", "good-2", "hostile", "hostile-kv", "lenient"]
    );
    let hostile = by_id(&sessions, "hostile");
    assert_eq!(hostile.tmux_name.as_deref(), Some(hostile_tmux));
    assert_eq!(hostile.branch.as_ref().map(String::len), Some(big.len()));
    let hostile_kv = by_id(&sessions, "hostile-kv");
    assert_eq!(hostile_kv.branch.as_deref(), Some(big.as_str()));
    assert_eq!(hostile_kv.agent.as_deref(), Some("a\u{1}b"));
    let lenient = by_id(&sessions, "lenient");
    assert_eq!(lenient.created_at, time("2026-04-21T08:00:00Z"));
    assert_eq!(lenient.state.as_deref(), Some("idle"));

    for (path, _, reason) in &bad {
        let problem = problem_for(&problems, path);
        assert!(
            problem.error.contains(reason),
            "{problem}: wanted {reason:?}"
        );
    }
    for folder in [legacy.join("ao-folder"), current.join("folder.json")] {
        assert!(problem_for(&problems, &folder).error.contains("folder"));
    }
    for link in ["dangling", "link-to-good"] {
        assert!(
            problem_for(&problems, &legacy.join(link))
                .error
                .contains("symbolic link")
        );
    }
    assert!(
        problem_for(&problems, &current.join("loop.json"))
            .error
            .contains("symbolic link")
    );
    // Nothing else: the loops at the root and in place of `archive/` were
    // skipped, not followed and not reported.
    assert_eq!(problems.len(), bad.len() + 5, "{problems:#?}");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    // A small stack makes a recursion bug crash here rather than pass by luck.
    let result = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let n = 100_000;
            let json = format!("{}{}", "{\"a\":".repeat(n), "}".repeat(n));
            let path = Path::new("/x/projects/p/sessions/deep.json");
            let kv = format!("statePayload={}", "[".repeat(n));
            (
                ao::parse_session(&json, path, false),
                ao::parse_session(&kv, Path::new("/x/sessions/deep"), false),
            )
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(result.0.unwrap_err().contains("recursion limit"));
    assert!(result.1.unwrap_err().contains("recursion limit"));
}
