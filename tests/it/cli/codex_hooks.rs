//! `greenroom hooks install|uninstall --agent codex` as an operator runs
//! it: Codex's own hooks.json under CODEX_HOME (or ~/.codex, or the
//! project's .codex/), Codex's shape, and one line saying whether Codex
//! will run the hooks (it runs only hooks the operator trusted in /hooks).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::Path;
use std::process::Output;

use greenroom::hook::install::{HookAgent, events, is_greenroom_command, merge_install};
use serde_json::{Value, json};

use super::stdout;

const CMD: &str = "/usr/local/bin/greenroom report";

fn run(args: &[&str], home: &Path, codex_home: Option<&Path>, cwd: &Path) -> Output {
    super::hooks(args, home, ("CODEX_HOME", codex_home), cwd)
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn greenroom_groups(doc: &Value, event: &str) -> Vec<Value> {
    doc["hooks"][event]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|g| is_greenroom_command(g["hooks"][0]["command"].as_str().unwrap_or("")))
        .cloned()
        .collect()
}

#[test]
fn codex_gets_its_seven_events_in_its_own_shape() {
    assert_eq!(
        events(HookAgent::Codex),
        [
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PermissionRequest",
            "PostToolUse",
            "Stop",
            "SessionEnd"
        ]
    );
    let doc: Value =
        serde_json::from_str(&merge_install(None, HookAgent::Codex, CMD).unwrap()).unwrap();
    assert_eq!(
        doc.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["hooks"]
    );
    let hook = json!({"type": "command", "command": CMD, "timeout": 5});
    for event in [
        "SessionStart",
        "PreToolUse",
        "PermissionRequest",
        "PostToolUse",
    ] {
        assert_eq!(
            greenroom_groups(&doc, event),
            [json!({"matcher": "*", "hooks": [hook.clone()]})],
            "{event}"
        );
    }
    // Codex ignores a matcher on these (matcher_pattern_for_event).
    for event in ["UserPromptSubmit", "Stop"] {
        assert_eq!(
            greenroom_groups(&doc, event),
            [json!({"hooks": [hook.clone()]})]
        );
    }
    // Codex cuts a longer one to 3 s, warning at every start.
    let end = json!({"type": "command", "command": CMD, "timeout": 3});
    assert_eq!(
        greenroom_groups(&doc, "SessionEnd"),
        [json!({"hooks": [end]})]
    );
}

#[test]
fn install_goes_under_codex_home_and_says_codex_must_trust_them() {
    let home = tempfile::tempdir().unwrap();
    let codex_home = tempfile::tempdir().unwrap();
    let own = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}"#;
    fs::write(codex_home.path().join("hooks.json"), own).unwrap();
    let said = stdout(&run(
        &["install", "--agent", "codex"],
        home.path(),
        Some(codex_home.path()),
        home.path(),
    ));
    let path = codex_home.path().join("hooks.json");
    assert!(
        said.contains(&format!("installed into {}", path.display())),
        "{said}"
    );
    assert!(said.contains("backup of the previous file"), "{said}");
    assert!(
        said.contains("Codex will not run them until you trust them: start codex, type /hooks"),
        "{said}"
    );
    assert!(!home.path().join(".codex").exists(), "not under HOME");
    let doc = read(&path);
    assert_eq!(doc["hooks"]["Stop"][0]["hooks"][0]["command"], "say done");
    for event in events(HookAgent::Codex) {
        assert_eq!(greenroom_groups(&doc, event).len(), 1, "{event}");
    }

    // The operator trusts them in Codex's /hooks, which records each one
    // in config.toml by its key; installing again changes nothing and says so.
    let real = fs::canonicalize(codex_home.path())
        .unwrap()
        .join("hooks.json");
    let mut config = String::from("model = \"gpt-5\"\n");
    for (event, key) in [
        ("SessionStart", "session_start"),
        ("UserPromptSubmit", "user_prompt_submit"),
        ("PreToolUse", "pre_tool_use"),
        ("PermissionRequest", "permission_request"),
        ("PostToolUse", "post_tool_use"),
        ("Stop", "stop"),
        ("SessionEnd", "session_end"),
    ] {
        let group = if event == "Stop" { 1 } else { 0 };
        config.push_str(&format!(
            "[hooks.state.\"{}:{key}:{group}:0\"]\ntrusted_hash = \"sha256:0\"\n",
            real.display()
        ));
    }
    fs::write(codex_home.path().join("config.toml"), &config).unwrap();
    let again = stdout(&run(
        &["install", "--agent", "codex"],
        home.path(),
        Some(codex_home.path()),
        home.path(),
    ));
    assert!(again.contains("already up to date"), "{again}");
    assert!(again.contains("Codex will run them"), "{again}");

    // Hooks turned off in Codex's features: said, whatever the trust.
    fs::write(
        codex_home.path().join("config.toml"),
        format!("[features]\nhooks = false\n{}", &config[16..]),
    )
    .unwrap();
    let off = stdout(&run(
        &["install", "--agent", "codex"],
        home.path(),
        Some(codex_home.path()),
        home.path(),
    ));
    assert!(off.contains("its hooks are turned off"), "{off}");

    // Uninstall leaves the operator's own hook, and nothing of greenroom's.
    let gone = stdout(&run(
        &["uninstall", "--agent", "codex"],
        home.path(),
        Some(codex_home.path()),
        home.path(),
    ));
    assert!(gone.contains("removed from"), "{gone}");
    assert_eq!(read(&path), serde_json::from_str::<Value>(own).unwrap());
}

#[test]
fn user_scope_defaults_to_dot_codex_and_a_dry_run_writes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let out = run(
        &["install", "--agent", "codex", "--dry-run"],
        home.path(),
        None,
        home.path(),
    );
    let printed: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(greenroom_groups(&printed, "Stop").len(), 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(".codex/hooks.json was not changed"), "{err}");
    assert!(err.contains("until you trust them"), "{err}");
    assert!(!home.path().join(".codex").exists());
    stdout(&run(
        &["install", "--agent", "codex"],
        home.path(),
        None,
        home.path(),
    ));
    assert!(home.path().join(".codex/hooks.json").is_file());
}

#[test]
fn project_scope_says_codex_reads_it_only_in_a_trusted_project() {
    let home = tempfile::tempdir().unwrap();
    let codex_home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let args = ["install", "--agent", "codex", "--scope", "project"];
    let said = stdout(&run(
        &args,
        home.path(),
        Some(codex_home.path()),
        project.path(),
    ));
    assert!(project.path().join(".codex/hooks.json").is_file());
    assert!(!codex_home.path().join("hooks.json").exists());
    assert!(said.contains("until you trust"), "{said}");
    assert!(said.contains("only in a trusted project"), "{said}");
    let real = fs::canonicalize(project.path()).unwrap();
    fs::write(
        codex_home.path().join("config.toml"),
        format!(
            "[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            real.display()
        ),
    )
    .unwrap();
    let trusted_project = stdout(&run(&args, home.path(), Some(codex_home.path()), &real));
    assert!(trusted_project.contains("type /hooks"), "{trusted_project}");
}

#[test]
fn a_hooks_file_codex_cannot_parse_is_refused_with_one_line() {
    let home = tempfile::tempdir().unwrap();
    let codex_home = tempfile::tempdir().unwrap();
    let path = codex_home.path().join("hooks.json");
    fs::write(&path, "{\"hooks\": {\"Stop\": [}").unwrap();
    let out = run(
        &["install", "--agent", "codex"],
        home.path(),
        Some(codex_home.path()),
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not changed"), "{err}");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "{\"hooks\": {\"Stop\": [}"
    );
    assert_eq!(
        fs::read_dir(codex_home.path()).unwrap().count(),
        1,
        "no backup"
    );
}

#[test]
fn an_unreadable_codex_config_is_said_and_the_install_still_done() {
    let home = tempfile::tempdir().unwrap();
    let codex_home = tempfile::tempdir().unwrap();
    fs::write(codex_home.path().join("config.toml"), "[features\n").unwrap();
    let said = stdout(&run(
        &["install", "--agent", "codex"],
        home.path(),
        Some(codex_home.path()),
        home.path(),
    ));
    assert!(
        said.contains("cannot tell whether Codex will run them"),
        "{said}"
    );
    assert!(said.contains("is not valid TOML"), "{said}");
    assert!(codex_home.path().join("hooks.json").is_file());
}
