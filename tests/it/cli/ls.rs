//! `greenroom ls` end to end: the real binary over real files in temp
//! folders, read back as the JSON contract or the table.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use chrono::{Duration, Utc};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use serde_json::Value;

const REAL_MAESTRO: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/maestro-state"
);

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), "").unwrap();
        Env { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn store(&self) -> SidecarStore {
        SidecarStore::new(self.path("sessions"))
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_greenroom"))
            .args(args)
            .arg("--config")
            .arg(self.path("config.toml"))
            .arg("--sidecar-dir")
            .arg(self.path("sessions"))
            .arg("--ao-dir")
            .arg(self.path("ao"))
            // A private server nobody runs: never the user's default one.
            .arg("--tmux-socket")
            .arg(format!("greenroom-test-none-{}", std::process::id()))
            .env_remove("GREENROOM_STATE_DIRS")
            .env_remove("MAESTRO_STATE_DIR")
            .env("HOME", self.dir.path())
            .output()
            .unwrap()
    }

    fn json(&self, args: &[&str]) -> Value {
        let out = self.run(&[&["ls", "--json"], args].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

/// Lays each real Maestro file out as a workspace the way Maestro would.
fn real_workspaces(env: &Env) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(REAL_MAESTRO)
        .unwrap_or_else(|e| panic!("{REAL_MAESTRO}: {e}"))
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    for (i, name) in names.iter().enumerate() {
        let ws = env.path(&format!("ws{i}"));
        let state = if name.contains("gemini-state") {
            ws.join(".gemini/state")
        } else {
            ws.join("docs/maestro/state")
        };
        let file = if name.contains("__archive__") {
            state.join("archive").join(name)
        } else {
            state.join("active-session.md")
        };
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::copy(Path::new(REAL_MAESTRO).join(name), &file).unwrap();
        out.push((name.clone(), ws));
    }
    out
}

/// The row read from the real file whose name contains `part`.
fn find<'a>(doc: &'a Value, workspaces: &[(String, PathBuf)], part: &str) -> &'a Value {
    let ws = &workspaces.iter().find(|(n, _)| n.contains(part)).unwrap().1;
    doc["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["cwd"].as_str() == ws.to_str())
        .unwrap_or_else(|| panic!("no session from {part}"))
}

#[test]
fn every_real_maestro_file_is_listed_as_written() {
    let env = Env::new();
    let workspaces = real_workspaces(&env);
    let mut args = vec!["--all".to_owned()];
    for (_, ws) in &workspaces {
        args.push("--state-dir".into());
        args.push(ws.to_string_lossy().into_owned());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let doc = env.json(&args);
    assert_eq!(
        doc["problems"],
        serde_json::json!([]),
        "{:#}",
        doc["problems"]
    );
    assert_eq!(doc["sessions"].as_array().unwrap().len(), workspaces.len());
    for s in doc["sessions"].as_array().unwrap() {
        assert_eq!(s["source"], "maestro");
    }

    let blocked = find(&doc, &workspaces, "bladexp210");
    let o = &blocked["orchestration"];
    assert_eq!(o["status"], "blocked");
    assert_eq!(o["current_phase"], 4);
    assert_eq!(o["total_phases"], 5);
    let ids: Vec<_> = o["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].clone())
        .collect();
    assert_eq!(ids, [1, 2, 3, 4, 5].map(Value::from));
    assert_eq!(o["phases"][3]["status"], "failed");
    assert_eq!(o["phases"][3]["errors"], 1);
    assert_eq!(o["token_usage"]["input"], 35000);
    assert_eq!(o["token_usage"]["output"], 15000);
    assert_eq!(o["token_usage"]["cached"], 0);
    assert_eq!(
        o["token_usage"]["by_agent"]["devops_engineer"]["input"],
        15000
    );
    assert_eq!(blocked["health"], "errored");

    let archive = find(&doc, &workspaces, "dockerization");
    let o = &archive["orchestration"];
    assert_eq!(o["status"], "in_progress");
    assert_eq!(o["archived"], true);
    assert_eq!(o["total_phases"], 5);
    assert_eq!(o["phases"].as_array().unwrap().len(), 6);
    assert!(
        o["contradictions"].as_array().unwrap().len() >= 2,
        "{:#}",
        o["contradictions"]
    );

    let npp = find(&doc, &workspaces, "robertpelloni-npp");
    let o = &npp["orchestration"];
    assert_eq!(o["current_phase"], 1);
    assert_eq!(o["total_phases"], Value::Null);
    assert_eq!(o["phases"][2]["id"], 3);
    assert_eq!(o["phases"][3]["id"], 3);
    assert_eq!(o["phases"][2]["status"], "in_progress");

    let done = find(&doc, &workspaces, "sandbox-hardening");
    assert_eq!(done["orchestration"]["status"], "completed");
    assert_eq!(done["health"], "done");

    let json_front = find(&doc, &workspaces, "DanushArun");
    assert_eq!(json_front["orchestration"]["status"], "in_progress");
}

#[test]
fn archived_maestro_files_need_all() {
    let env = Env::new();
    let ws = real_workspaces(&env);
    let archived_ws = &ws
        .iter()
        .find(|(n, _)| n.contains("__archive__"))
        .unwrap()
        .1;
    let ws_arg = archived_ws.to_string_lossy().into_owned();
    let plain = env.json(&["--state-dir", &ws_arg]);
    assert_eq!(plain["sessions"].as_array().unwrap().len(), 0);
    let all = env.json(&["--all", "--state-dir", &ws_arg]);
    assert_eq!(all["sessions"].as_array().unwrap().len(), 1);
}

#[test]
fn a_maestro_session_joins_the_sidecar_of_its_workspace() {
    let env = Env::new();
    let ws = env.path("project");
    let state = ws.join("docs/maestro/state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::copy(
        Path::new(REAL_MAESTRO)
            .join("4awmy-NUM-CORE__active-session__standard-in-progress-no-phase-names.md"),
        state.join("active-session.md"),
    )
    .unwrap();
    let store = env.store();
    let mut s = Sidecar::new("core-1", &ws, "claude", Utc::now());
    s.tmux_session = Some("gr-core-1".into());
    store.create(&s).unwrap();
    // Named on the command line too: still one row, not two.
    let doc = env.json(&["--state-dir", &ws.to_string_lossy()]);
    let sessions = doc["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{doc:#}");
    assert_eq!(sessions[0]["source"], "greenroom");
    assert_eq!(sessions[0]["name"], "core-1");
    assert_eq!(sessions[0]["orchestration"]["current_phase"], 3);
    assert_eq!(sessions[0]["orchestration"]["status"], "in_progress");
}

#[test]
fn sessions_come_in_last_focus_order() {
    let env = Env::new();
    let store = env.store();
    let now = Utc::now();
    let mk = |name: &str, focused: Option<i64>, created: i64| {
        let mut s = Sidecar::new(name, Path::new("/"), "sh", now - Duration::minutes(created));
        s.last_focused_at = focused.map(|m| now - Duration::minutes(m));
        store.create(&s).unwrap();
    };
    mk("old-focus", Some(50), 100);
    mk("never-old", None, 90);
    mk("new-focus", Some(1), 80);
    mk("never-new", None, 5);
    mk("mid-focus", Some(10), 70);
    let doc = env.json(&[]);
    let names: Vec<_> = doc["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    assert_eq!(
        names,
        [
            "new-focus",
            "mid-focus",
            "old-focus",
            "never-new",
            "never-old"
        ]
        .map(Value::from)
    );
    let table = String::from_utf8(env.run(&["ls"]).stdout).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("HEALTH"));
    assert!(
        lines[1].contains("new-focus") && lines[5].contains("never-old"),
        "{table}"
    );
}

#[test]
fn bad_files_are_reported_and_everything_else_still_lists() {
    let env = Env::new();
    let store = env.store();
    let good_ws = env.path("good");
    let s = Sidecar::new("good-1", &good_ws, "sh", Utc::now());
    store.create(&s).unwrap();
    std::fs::write(
        store.dir().join(format!("{}.json", uuid::Uuid::new_v4())),
        b"{not json",
    )
    .unwrap();
    let bad_ws = env.path("bad");
    let state = bad_ws.join("docs/maestro/state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("active-session.md"), "---\nstatus: [unclosed\n").unwrap();
    let out = env.run(&["ls", "--json", "--state-dir", &bad_ws.to_string_lossy()]);
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["sessions"].as_array().unwrap().len(), 1);
    assert_eq!(doc["problems"].as_array().unwrap().len(), 2, "{doc:#}");
    for p in doc["problems"].as_array().unwrap() {
        assert!(
            p["path"]
                .as_str()
                .unwrap()
                .starts_with(env.dir.path().to_str().unwrap())
        );
        assert!(!p["error"].as_str().unwrap().is_empty());
    }
    let table = env.run(&["ls", "--state-dir", &bad_ws.to_string_lossy()]);
    assert!(table.status.success());
    let stderr = String::from_utf8_lossy(&table.stderr);
    assert!(stderr.contains("2 file(s) could not be read"), "{stderr}");
}

#[test]
fn an_empty_setup_says_where_it_looked() {
    let env = Env::new();
    let out = env.run(&["ls"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("No sessions found"), "{text}");
    assert!(text.contains("sessions"), "{text}");
}

#[test]
fn a_broken_config_is_refused_with_its_name() {
    let env = Env::new();
    std::fs::write(env.path("config.toml"), "sidecar_dri = 1\n").unwrap();
    let out = env.run(&["ls"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("config.toml") && err.contains("sidecar_dri"),
        "{err}"
    );
}

#[test]
fn a_file_name_that_is_not_utf8_is_a_problem_not_a_failure() {
    use std::os::unix::ffi::OsStrExt;
    let env = Env::new();
    let store = env.store();
    store
        .create(&Sidecar::new("ok", Path::new("/"), "sh", Utc::now()))
        .unwrap();
    let name = std::ffi::OsStr::from_bytes(b"bad\xff.json");
    std::fs::write(store.dir().join(name), b"{}").unwrap();
    let doc = env.json(&[]);
    assert_eq!(doc["sessions"].as_array().unwrap().len(), 1);
    let problems = doc["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{doc:#}");
    assert!(problems[0]["path"].as_str().unwrap().contains("bad"));
}

#[test]
fn without_tmux_installed_greenroom_still_lists_from_the_files() {
    let env = Env::new();
    let store = env.store();
    let mut s = Sidecar::new("api-1", Path::new("/"), "sh", Utc::now());
    s.tmux_session = Some("gr-api-1".into());
    store.create(&s).unwrap();
    let empty = env.path("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_greenroom"))
        .args(["ls", "--json", "--config"])
        .arg(env.path("config.toml"))
        .arg("--sidecar-dir")
        .arg(env.path("sessions"))
        .arg("--ao-dir")
        .arg(env.path("ao"))
        .env("PATH", &empty)
        .env_remove("TMUX")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["sessions"][0]["name"], "api-1");
    assert_eq!(
        doc["sessions"][0]["status"], "Running",
        "as the file says: tmux cannot be asked"
    );
}

/// What a terminal would act on: ESC, BEL, CSI, and the other controls.
fn has_controls(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes)
        .chars()
        .any(|c| c.is_control() && c != '\n')
}

#[test]
fn paths_from_files_reach_the_terminal_escaped() {
    let env = Env::new();
    let store = env.store();
    store
        .create(&Sidecar::new("ok", Path::new("/"), "sh", Utc::now()))
        .unwrap();
    let hostile = "x\x1b]0;pwned\x07\x1b[2J.json";
    std::fs::write(store.dir().join(hostile), b"{}").unwrap();
    let out = env.run(&["ls"]);
    assert!(out.status.success());
    assert!(!has_controls(&out.stdout), "{:?}", out.stdout);
    assert!(!has_controls(&out.stderr), "{:?}", out.stderr);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(r"x\x1b]0;pwned\x07\x1b[2J.json"), "{err}");

    // An error message naming a path the operator (or a file) gave.
    let folder = env.path("\x1b]0;pwned\x07\x1b[2Jgone");
    let out = env.run(&["spawn", "--cwd", &folder.to_string_lossy()]);
    assert!(!out.status.success());
    assert!(!has_controls(&out.stderr), "{:?}", out.stderr);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(r"\x1b]0;pwned\x07\x1b[2Jgone"), "{err}");
}
