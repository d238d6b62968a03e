//! `greenroom hooks install|uninstall` on realistic settings files: other
//! hooks and settings survive, refusals leave files untouched, writes are
//! backed up, atomic and keep permissions.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use greenroom::hook::install::{
    HookAgent, HookScope, events, hook_command, install, is_greenroom_command, merge_install,
    merge_uninstall, settings_path, uninstall,
};
use serde_json::{Value, json};

const CMD: &str = "/usr/local/bin/greenroom report";
const OTHER_CMD: &str = "'/home/me/new place/greenroom' report";
const AGENTS: [HookAgent; 3] = [HookAgent::Claude, HookAgent::Gemini, HookAgent::Codex];

/// A user's Claude settings with their own hooks and the usual neighbours.
const CLAUDE: &str = r#"{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "env": { "ANTHROPIC_API_KEY": "sk-not-a-real-key", "CLAUDE_CODE_ENABLE_TELEMETRY": "0" },
  "permissions": {
    "allow": ["Bash(npm run lint)", "Bash(greenroom report)", "Read(~/.zshrc)"],
    "deny": ["Read(./.env)"],
    "defaultMode": "acceptEdits"
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "~/.claude/hooks/check-bash.sh", "timeout": 10 }]
      }
    ],
    "Stop": [
      { "hooks": [{ "type": "command", "command": "notify-send 'Claude' 'Fertig ✓ — café'" }] }
    ],
    "PostToolUse": [
      { "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "prettier --write \"$CLAUDE_PROJECT_DIR\"" }] }
    ]
  },
  "statusLine": { "type": "command", "command": "~/.claude/statusline.sh", "padding": 0 },
  "includeCoAuthoredBy": false,
  "note": "日本語 🎭 and an escaped \u00e9 and a big number",
  "n": 12345678901234
}
"#;

/// A user's Gemini settings with their own hook and the hooks switch.
const GEMINI: &str = r#"{
  "general": { "vimMode": true, "preferredEditor": "nvim" },
  "ui": { "theme": "GitHub" },
  "mcpServers": { "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] } },
  "hooksConfig": { "enabled": true, "disabled": ["slow-linter"] },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace",
        "hooks": [{ "name": "security-check", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh", "timeout": 5000 }]
      }
    ],
    "AfterAgent": [{ "hooks": [{ "type": "command", "command": "say done" }] }]
  }
}
"#;

/// A user's Codex hooks.json with their own hooks (Codex's own format:
/// codex-rs/config/src/hook_config.rs).
const CODEX: &str = r#"{
  "hooks": {
    "PreToolUse": [
      { "matcher": "^Bash$", "hooks": [{ "type": "command", "command": "python3 ~/.codex/hooks/guard.py", "timeout": 30, "statusMessage": "Checking the command" }] }
    ],
    "Stop": [
      { "hooks": [{ "type": "command", "command": "notify-send Codex 'fini — café'" }] }
    ]
  }
}
"#;

fn parse(text: &str) -> Value {
    serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap()
}

fn fixture(agent: HookAgent) -> &'static str {
    match agent {
        HookAgent::Claude => CLAUDE,
        HookAgent::Gemini => GEMINI,
        HookAgent::Codex => CODEX,
        HookAgent::Opencode => unreachable!("OpenCode's hooks are a plugin, not settings"),
    }
}

/// Layout variants of the same settings: tabs, one line, CRLF, BOM.
fn layouts(text: &str) -> Vec<(&'static str, String)> {
    let value = parse(text);
    let compact = serde_json::to_string(&value).unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    vec![
        ("as written", text.to_owned()),
        ("tabs", pretty.replace("  ", "\t")),
        ("one line", compact.clone()),
        ("crlf", text.replace('\n', "\r\n")),
        ("bom", format!("\u{feff}{text}")),
        ("bom one line crlf", format!("\u{feff}{compact}\r\n")),
    ]
}

/// Every hook command in an event's list, in order.
fn commands(settings: &Value, event: &str) -> Vec<String> {
    let groups = settings["hooks"][event]
        .as_array()
        .cloned()
        .unwrap_or_default();
    groups
        .iter()
        .flat_map(|g| g["hooks"].as_array().cloned().unwrap_or_default())
        .map(|h| h["command"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn greenroom_commands(settings: &Value, event: &str) -> Vec<String> {
    commands(settings, event)
        .into_iter()
        .filter(|c| is_greenroom_command(c))
        .collect()
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn settings_file(dir: &Path, content: &[u8]) -> PathBuf {
    let path = dir.join("settings.json");
    fs::write(&path, content).unwrap();
    path
}

#[test]
fn install_then_uninstall_keeps_the_meaning_in_every_layout() {
    for agent in AGENTS {
        for (layout, text) in layouts(fixture(agent)) {
            let installed = merge_install(Some(&text), agent, CMD).unwrap();
            let restored = merge_uninstall(&installed, agent).unwrap();
            assert_eq!(parse(&restored), parse(&text), "{agent:?} {layout}");
            // Key order is kept too, not only the meaning.
            let original_keys: Vec<_> = parse(&text).as_object().unwrap().keys().cloned().collect();
            let restored_keys: Vec<_> = parse(&restored)
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect();
            assert_eq!(restored_keys, original_keys, "{agent:?} {layout}");
        }
    }
}

#[test]
fn install_then_uninstall_through_files_restores_the_meaning() {
    for agent in AGENTS {
        for (layout, text) in layouts(fixture(agent)) {
            let dir = tempfile::tempdir().unwrap();
            let path = settings_file(dir.path(), text.as_bytes());
            assert!(
                install(&path, agent, CMD, false).unwrap().changed,
                "{layout}"
            );
            let out = uninstall(&path, agent, false).unwrap();
            assert!(out.changed, "{layout}");
            assert!(out.backup.is_some(), "{layout}");
            assert_eq!(
                parse(&fs::read_to_string(&path).unwrap()),
                parse(&text),
                "{agent:?} {layout}"
            );
        }
    }
}

#[test]
fn installing_twice_gives_identical_text() {
    for agent in AGENTS {
        for existing in [None, Some(fixture(agent)), Some("{}"), Some("")] {
            let once = merge_install(existing, agent, CMD).unwrap();
            let twice = merge_install(Some(&once), agent, CMD).unwrap();
            assert_eq!(once, twice, "{agent:?} {existing:?}");
        }
    }
}

#[test]
fn every_event_gets_exactly_one_greenroom_entry_of_the_documented_shape() {
    let claude = parse(&merge_install(Some(CLAUDE), HookAgent::Claude, CMD).unwrap());
    for event in events(HookAgent::Claude) {
        assert_eq!(greenroom_commands(&claude, event), [CMD], "{event}");
    }
    let ours = |v: &Value, event: &str| {
        v["hooks"][event]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| is_greenroom_command(g["hooks"][0]["command"].as_str().unwrap_or("")))
            .cloned()
            .unwrap()
    };
    assert_eq!(
        ours(&claude, "PreToolUse"),
        json!({"matcher": "*", "hooks": [{"type": "command", "command": CMD, "timeout": 5}]})
    );
    // Claude ignores matchers on these, so none is written.
    assert_eq!(
        ours(&claude, "Stop"),
        json!({"hooks": [{"type": "command", "command": CMD, "timeout": 5}]})
    );
    assert_eq!(ours(&claude, "UserPromptSubmit").get("matcher"), None);

    let gemini = parse(&merge_install(Some(GEMINI), HookAgent::Gemini, CMD).unwrap());
    for event in events(HookAgent::Gemini) {
        assert_eq!(greenroom_commands(&gemini, event), [CMD], "{event}");
    }
    let hook = &ours(&gemini, "SessionStart")["hooks"][0];
    assert_eq!(hook["name"], "greenroom");
    assert_eq!(hook["type"], "command");
    assert_eq!(hook["timeout"], 5000, "Gemini counts milliseconds");
    assert_eq!(ours(&gemini, "SessionStart").get("matcher"), None);
    assert_eq!(ours(&gemini, "BeforeTool")["matcher"], "*");
}

#[test]
fn the_events_are_the_documented_ones() {
    assert_eq!(events(HookAgent::Claude).len(), 13);
    assert!(events(HookAgent::Claude).contains(&"StopFailure"));
    assert_eq!(
        events(HookAgent::Gemini),
        [
            "SessionStart",
            "BeforeAgent",
            "AfterAgent",
            "BeforeModel",
            "AfterModel",
            "BeforeToolSelection",
            "BeforeTool",
            "AfterTool",
            "PreCompress",
            "Notification",
            "SessionEnd"
        ]
    );
}

#[test]
fn other_hooks_and_settings_are_kept_in_order() {
    let before = parse(CLAUDE);
    let after = parse(&merge_install(Some(CLAUDE), HookAgent::Claude, CMD).unwrap());
    for key in [
        "$schema",
        "model",
        "env",
        "permissions",
        "statusLine",
        "includeCoAuthoredBy",
        "note",
        "n",
    ] {
        assert_eq!(after[key], before[key], "{key}");
    }
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&after), keys(&before), "hooks stays where it was");
    // The user's groups come first and are untouched; greenroom follows.
    assert_eq!(
        after["hooks"]["PreToolUse"][0],
        before["hooks"]["PreToolUse"][0]
    );
    assert_eq!(after["hooks"]["Stop"][0], before["hooks"]["Stop"][0]);
    assert_eq!(
        commands(&after, "PostToolUse"),
        ["prettier --write \"$CLAUDE_PROJECT_DIR\"", CMD]
    );
    // Events the user had keep their place among hooks' keys.
    let hook_keys = keys(&after["hooks"]);
    assert_eq!(hook_keys[..3], ["PreToolUse", "Stop", "PostToolUse"]);
    // A permission rule that mentions greenroom is not a hook.
    assert_eq!(after["permissions"]["allow"][1], "Bash(greenroom report)");
}

#[test]
fn reinstalling_from_another_path_replaces_in_place() {
    for agent in AGENTS {
        let old = merge_install(Some(fixture(agent)), agent, CMD).unwrap();
        let new = parse(&merge_install(Some(&old), agent, OTHER_CMD).unwrap());
        let old = parse(&old);
        for event in events(agent) {
            assert_eq!(
                greenroom_commands(&new, event),
                [OTHER_CMD],
                "{agent:?} {event}"
            );
            let positions = |v: &Value| {
                commands(v, event)
                    .iter()
                    .map(|c| is_greenroom_command(c))
                    .collect::<Vec<_>>()
            };
            assert_eq!(positions(&new), positions(&old), "{agent:?} {event}");
        }
    }
}

#[test]
fn a_greenroom_entry_in_the_middle_or_in_a_shared_group_stays_there() {
    let old_group = json!({"hooks": [{"type": "command", "command": "/old/bin/greenroom report"}]});
    let user = |name: &str| json!({"matcher": name, "hooks": [{"type": "command", "command": format!("echo {name}")}]});
    let shared = json!({"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo mine"},
        {"type": "command", "command": "greenroom report", "timeout": 30}
    ]});
    let settings = json!({"hooks": {
        "PreToolUse": [user("A"), old_group, user("B")],
        "PostToolUse": [user("C"), shared, user("D")]
    }});
    let text = serde_json::to_string(&settings).unwrap();
    let merged = parse(&merge_install(Some(&text), HookAgent::Claude, CMD).unwrap());
    assert_eq!(commands(&merged, "PreToolUse"), ["echo A", CMD, "echo B"]);
    // Only greenroom's hook leaves the shared group; its own group follows.
    assert_eq!(
        commands(&merged, "PostToolUse"),
        ["echo C", "echo mine", CMD, "echo D"]
    );
    assert_eq!(merged["hooks"]["PostToolUse"][1]["matcher"], "Bash");
    assert_eq!(
        merged["hooks"]["PostToolUse"][1]["hooks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let again = merge_install(Some(&merged.to_string()), HookAgent::Claude, CMD).unwrap();
    assert_eq!(parse(&again), merged);
}

#[test]
fn uninstall_removes_only_greenroom_and_only_what_it_emptied() {
    let settings = json!({
        "model": "sonnet",
        "hooks": {
            "SessionStart": [],
            "Stop": [{"hooks": []}, {"hooks": [{"type": "command", "command": "greenroom report"}]}],
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "echo greenroom report"},
                    {"type": "command", "command": "/opt/greenroom report"}
                ]}
            ],
            "Notification": [{"hooks": [{"type": "command", "command": "/x/greenroom report"}]}],
            "CustomThing": [{"hooks": [{"type": "command", "command": "greenroom-other report"}]}]
        }
    });
    let out = parse(&merge_uninstall(&settings.to_string(), HookAgent::Claude).unwrap());
    assert_eq!(
        out,
        json!({
            "model": "sonnet",
            "hooks": {
                "SessionStart": [],
                "Stop": [{"hooks": []}],
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo greenroom report"}]}],
                "CustomThing": [{"hooks": [{"type": "command", "command": "greenroom-other report"}]}]
            }
        })
    );
}

#[test]
fn uninstall_drops_hooks_only_when_it_emptied_them() {
    let fresh = merge_install(Some(r#"{"model": "x"}"#), HookAgent::Claude, CMD).unwrap();
    assert_eq!(
        parse(&merge_uninstall(&fresh, HookAgent::Claude).unwrap()),
        json!({"model": "x"})
    );
    let empty_before = r#"{"model": "x", "hooks": {}}"#;
    assert_eq!(
        parse(&merge_uninstall(empty_before, HookAgent::Claude).unwrap()),
        json!({"model": "x", "hooks": {}})
    );
    // Installed into an empty `hooks`, the round trip drops it: same meaning.
    let round = merge_install(Some(empty_before), HookAgent::Claude, CMD).unwrap();
    assert_eq!(
        parse(&merge_uninstall(&round, HookAgent::Claude).unwrap()),
        json!({"model": "x"})
    );
}

#[test]
fn gemini_switches_and_old_style_keys_inside_hooks_are_left_alone() {
    let legacy = r#"{"tools": {"enableHooks": true}, "hooks": {"enabled": true, "disabled": ["x"], "AfterTool": []}}"#;
    let installed = merge_install(Some(legacy), HookAgent::Gemini, CMD).unwrap();
    let v = parse(&installed);
    assert_eq!(v["hooks"]["enabled"], true);
    assert_eq!(v["hooks"]["disabled"], json!(["x"]));
    assert_eq!(v["tools"], json!({"enableHooks": true}));
    let restored = parse(&merge_uninstall(&installed, HookAgent::Gemini).unwrap());
    assert_eq!(restored["hooks"]["enabled"], true);
    assert_eq!(restored["hooks"]["disabled"], json!(["x"]));
    let with_config = parse(&merge_install(Some(GEMINI), HookAgent::Gemini, CMD).unwrap());
    assert_eq!(with_config["hooksConfig"], parse(GEMINI)["hooksConfig"]);
}

/// Content greenroom must refuse, and a word the reason must contain.
fn refusals() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let truncated = CLAUDE.as_bytes()[..CLAUDE.len() / 2].to_vec();
    vec![
        ("not json", b"model = \"opus\"\n".to_vec(), "not valid JSON"),
        ("json list", b"[{\"hooks\": {}}]\n".to_vec(), "JSON list"),
        ("json string", b"\"settings\"".to_vec(), "JSON string"),
        (
            "hooks list",
            br#"{"model": "x", "hooks": []}"#.to_vec(),
            "\"hooks\" as a JSON list",
        ),
        (
            "hooks null",
            br#"{"hooks": null}"#.to_vec(),
            "\"hooks\" as a JSON null",
        ),
        (
            "event object",
            br#"{"hooks": {"Stop": {}, "AfterAgent": {}}}"#.to_vec(),
            "as a JSON object, where a list of hook groups is expected",
        ),
        ("truncated", truncated, "truncated"),
        ("binary", b"{\"a\": \"\0\x01\x02\"}".to_vec(), "binary"),
        ("latin-1", b"{\"name\": \"caf\xe9\"}".to_vec(), "UTF-8"),
        (
            "comment",
            b"{\n  // my theme\n  \"ui\": {}\n}\n".to_vec(),
            "comment",
        ),
    ]
}

#[test]
fn unusable_files_are_refused_byte_identical_and_without_backup() {
    for (what, content, reason) in refusals() {
        for agent in AGENTS {
            let dir = tempfile::tempdir().unwrap();
            let path = settings_file(dir.path(), &content);
            let err = install(&path, agent, CMD, false).unwrap_err();
            assert!(err.contains(reason), "{what}: {err}");
            assert!(err.contains(&path.display().to_string()), "{what}: {err}");
            assert_eq!(fs::read(&path).unwrap(), content, "{what}");
            assert_eq!(names_in(dir.path()), ["settings.json"], "{what}");
            let err = uninstall(&path, agent, false).unwrap_err();
            assert!(err.contains(reason), "{what}: {err}");
            assert_eq!(fs::read(&path).unwrap(), content, "{what}");
            assert_eq!(names_in(dir.path()), ["settings.json"], "{what}");
        }
    }
}

#[test]
fn a_file_over_one_mebibyte_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let content = format!("{{\"pad\": \"{}\"}}", "x".repeat(1024 * 1024));
    let path = settings_file(dir.path(), content.as_bytes());
    let err = install(&path, HookAgent::Claude, CMD, false).unwrap_err();
    assert!(err.contains("1 MiB"), "{err}");
    assert_eq!(names_in(dir.path()), ["settings.json"]);
}

#[test]
fn a_changing_install_backs_up_the_original_bytes_first() {
    let dir = tempfile::tempdir().unwrap();
    let original = format!("\u{feff}{}", CLAUDE.replace('\n', "\r\n")).into_bytes();
    let path = settings_file(dir.path(), &original);
    let out = install(&path, HookAgent::Claude, CMD, false).unwrap();
    assert!(out.changed);
    assert_eq!(out.path, path);
    let backup = out.backup.expect("a backup");
    let name = backup.file_name().unwrap().to_string_lossy().into_owned();
    let stamp = name
        .strip_prefix("settings.json.greenroom-backup-")
        .expect(&name);
    assert_eq!(stamp.len(), "20260102T030405Z".len(), "{name}");
    assert!(
        chrono::NaiveDateTime::parse_from_str(stamp, "%Y%m%dT%H%M%SZ").is_ok(),
        "{name}"
    );
    assert_eq!(backup.parent(), path.parent());
    assert_eq!(fs::read(&backup).unwrap(), original);
    assert_eq!(mode(&backup), 0o600, "settings may hold tokens");
    let written = fs::read_to_string(&path).unwrap();
    assert_eq!(written, out.new_text);
    // Only greenroom's entries are new: the mark, the line endings and the
    // indentation are the file's own.
    assert!(
        written.starts_with("\u{feff}{\r\n  \"$schema\""),
        "{written}"
    );
    assert!(!written.replace("\r\n", "").contains('\n'), "{written}");
}

#[test]
fn an_unchanged_install_writes_nothing_and_keeps_the_operators_layout() {
    let dir = tempfile::tempdir().unwrap();
    let installed = merge_install(Some(GEMINI), HookAgent::Gemini, CMD).unwrap();
    // The same settings, laid out by hand with tabs.
    let tabbed = installed.replace("  ", "\t");
    let path = settings_file(dir.path(), tabbed.as_bytes());
    let out = install(&path, HookAgent::Gemini, CMD, false).unwrap();
    assert!(!out.changed);
    assert!(out.backup.is_none());
    assert_eq!(fs::read_to_string(&path).unwrap(), tabbed);
    assert_eq!(names_in(dir.path()), ["settings.json"]);
    // Same for an uninstall with nothing of greenroom's in the file.
    let user_only = settings_file(dir.path(), CLAUDE.replace("  ", "\t").as_bytes());
    let out = uninstall(&user_only, HookAgent::Claude, false).unwrap();
    assert!(!out.changed && out.backup.is_none());
    assert_eq!(
        fs::read_to_string(&user_only).unwrap(),
        CLAUDE.replace("  ", "\t")
    );
    assert_eq!(names_in(dir.path()), ["settings.json"]);
}

#[test]
fn dry_run_writes_nothing_but_says_what_would_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = settings_file(dir.path(), CLAUDE.as_bytes());
    let dry = install(&path, HookAgent::Claude, CMD, true).unwrap();
    assert!(dry.changed);
    assert!(dry.backup.is_none());
    assert_eq!(fs::read_to_string(&path).unwrap(), CLAUDE);
    assert_eq!(names_in(dir.path()), ["settings.json"]);
    let real = install(&path, HookAgent::Claude, CMD, false).unwrap();
    assert_eq!(dry.new_text, real.new_text);

    let dry = uninstall(&path, HookAgent::Claude, true).unwrap();
    assert!(dry.changed && dry.backup.is_none());
    assert_eq!(fs::read_to_string(&path).unwrap(), real.new_text);

    let missing = dir.path().join("nowhere/.gemini/settings.json");
    let dry = install(&missing, HookAgent::Gemini, CMD, true).unwrap();
    assert!(dry.changed && dry.backup.is_none());
    assert!(!dir.path().join("nowhere").exists());
}

#[test]
fn a_missing_file_is_created_with_its_folder_private() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("project/.claude/settings.json");
    let out = install(&path, HookAgent::Claude, CMD, false).unwrap();
    assert!(out.changed);
    assert!(out.backup.is_none(), "nothing to back up");
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&dir.path().join("project/.claude")), 0o700);
    let v = parse(&fs::read_to_string(&path).unwrap());
    assert_eq!(v.as_object().unwrap().keys().collect::<Vec<_>>(), ["hooks"]);
    assert_eq!(
        names_in(&dir.path().join("project/.claude")),
        ["settings.json"]
    );

    // Uninstalling from a missing file is a no-op that creates nothing.
    let absent = dir.path().join("other/settings.json");
    let out = uninstall(&absent, HookAgent::Claude, false).unwrap();
    assert!(!out.changed && out.new_text.is_empty());
    assert!(!dir.path().join("other").exists());
}

#[test]
fn an_empty_file_counts_as_no_settings() {
    let dir = tempfile::tempdir().unwrap();
    let path = settings_file(dir.path(), b"");
    let out = install(&path, HookAgent::Claude, CMD, false).unwrap();
    assert!(out.changed);
    assert_eq!(fs::read(out.backup.unwrap()).unwrap(), b"");
}

#[test]
fn file_permissions_are_preserved() {
    for wanted in [0o644, 0o640, 0o600, 0o664] {
        let dir = tempfile::tempdir().unwrap();
        let path = settings_file(dir.path(), CLAUDE.as_bytes());
        fs::set_permissions(&path, fs::Permissions::from_mode(wanted)).unwrap();
        install(&path, HookAgent::Claude, CMD, false).unwrap();
        assert_eq!(mode(&path), wanted, "after install");
        uninstall(&path, HookAgent::Claude, false).unwrap();
        assert_eq!(mode(&path), wanted, "after uninstall");
    }
}

#[test]
fn a_linked_settings_file_is_written_through_and_the_link_kept() {
    let dir = tempfile::tempdir().unwrap();
    let dotfiles = dir.path().join("dotfiles/claude");
    fs::create_dir_all(&dotfiles).unwrap();
    let target = dotfiles.join("settings.json");
    fs::write(&target, CLAUDE).unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o644)).unwrap();
    let home_claude = dir.path().join("home/.claude");
    fs::create_dir_all(&home_claude).unwrap();
    let link = home_claude.join("settings.json");
    symlink("../../dotfiles/claude/settings.json", &link).unwrap();

    let out = install(&link, HookAgent::Claude, CMD, false).unwrap();
    assert_eq!(out.path, fs::canonicalize(&target).unwrap());
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "link kept"
    );
    assert_eq!(
        fs::read_link(&link).unwrap(),
        Path::new("../../dotfiles/claude/settings.json")
    );
    assert_eq!(
        greenroom_commands(&parse(&fs::read_to_string(&target).unwrap()), "Stop"),
        [CMD]
    );
    assert_eq!(mode(&target), 0o644);
    // The backup sits next to the real file, not in the agent's folder.
    assert_eq!(
        out.backup.unwrap().parent().unwrap(),
        fs::canonicalize(&dotfiles).unwrap()
    );
    assert_eq!(names_in(&home_claude), ["settings.json"]);

    uninstall(&link, HookAgent::Claude, false).unwrap();
    assert_eq!(parse(&fs::read_to_string(&target).unwrap()), parse(CLAUDE));
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_dangling_link_is_refused_and_nothing_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("settings.json");
    symlink(dir.path().join("gone/settings.json"), &link).unwrap();
    for dry_run in [true, false] {
        let err = install(&link, HookAgent::Claude, CMD, dry_run).unwrap_err();
        assert!(err.contains("symbolic link"), "{err}");
    }
    assert!(!dir.path().join("gone").exists());
    assert_eq!(names_in(dir.path()), ["settings.json"]);
}

#[test]
fn settings_paths_follow_each_agents_layout() {
    let (home, project) = (Path::new("/home/me"), Path::new("/work/app"));
    let claude_dir = Path::new("/cfg/claude");
    let path = |agent, scope, dir| settings_path(agent, scope, home, dir, project);
    use HookAgent::{Claude, Gemini};
    use HookScope::{Project, User};
    assert_eq!(
        path(Claude, User, None),
        Path::new("/home/me/.claude/settings.json")
    );
    assert_eq!(
        path(Claude, User, Some(claude_dir)),
        Path::new("/cfg/claude/settings.json")
    );
    assert_eq!(
        path(Claude, Project, Some(claude_dir)),
        Path::new("/work/app/.claude/settings.json")
    );
    assert_eq!(
        path(Gemini, User, Some(claude_dir)),
        Path::new("/home/me/.gemini/settings.json")
    );
    assert_eq!(
        path(Gemini, Project, None),
        Path::new("/work/app/.gemini/settings.json")
    );
    assert_eq!(HookScope::default(), User);
}

#[test]
fn greenroom_commands_are_recognised_by_program_and_first_argument() {
    for yes in [
        "greenroom report",
        "/x/greenroom report",
        "  /usr/local/bin/greenroom   report --verbose",
        "'/Users/a b/bin/greenroom' report",
        "\"/opt/it's/greenroom\" report",
        r"/opt/a\ b/greenroom report",
        "~/bin/greenroom report",
        "greenroom\treport",
        r#""/opt/say \"hi\"/greenroom" "report""#,
        r#"/opt/gr\een/green''room rep"ort""#,
    ] {
        assert!(is_greenroom_command(yes), "{yes}");
    }
    for no in [
        "greenroom-other report",
        "echo greenroom report",
        "greenroom",
        "greenroom ls",
        "greenroom reports",
        "/x/greenroom/other report",
        "'greenroom report'",
        "GREENROOM report",
        r#""/opt/greenroom report""#,
        r"greenroom\ report",
        "",
        "notify-send done",
    ] {
        assert!(!is_greenroom_command(no), "{no}");
    }
}

#[test]
fn hook_command_quotes_only_when_needed_and_is_recognised() {
    assert_eq!(
        hook_command(Path::new("/usr/local/bin/greenroom")),
        "/usr/local/bin/greenroom report"
    );
    assert_eq!(
        hook_command(Path::new("/Users/a b/greenroom")),
        "'/Users/a b/greenroom' report"
    );
    assert_eq!(
        hook_command(Path::new("/o'k/greenroom")),
        r"'/o'\''k/greenroom' report"
    );
    for odd in [
        "/a b/greenroom",
        "/o'k/greenroom",
        "/$(rm -rf ~)/greenroom",
        "/a;b|c&d/greenroom",
        "/é/greenroom",
        "/a\"b\\c/greenroom",
        "/~x/*?/greenroom",
    ] {
        let command = hook_command(Path::new(odd));
        assert!(
            command.starts_with('\'') && command.ends_with("' report"),
            "{command}"
        );
        assert!(is_greenroom_command(&command), "{command}");
    }
}

#[test]
fn hook_command_survives_a_real_shell() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("it's a $HOME; dir");
    fs::create_dir_all(&odd).unwrap();
    let exe = odd.join("greenroom");
    fs::write(
        &exe,
        "#!/bin/sh\nprintf '%s' \"$1\" > \"$(dirname \"$0\")/ran\"\n",
    )
    .unwrap();
    fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(hook_command(&exe))
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(fs::read_to_string(odd.join("ran")).unwrap(), "report");
}

#[test]
fn only_the_agents_own_events_must_be_lists() {
    let text = r#"{"hooks": {"Stop": {}}}"#;
    let err = merge_install(Some(text), HookAgent::Claude, CMD).unwrap_err();
    assert!(err.contains("\"hooks\".\"Stop\" as a JSON object"), "{err}");
    // Gemini has no Stop event: the odd value is someone else's, kept as is.
    let gemini = parse(&merge_install(Some(text), HookAgent::Gemini, CMD).unwrap());
    assert_eq!(gemini["hooks"]["Stop"], json!({}));
    let back = parse(&merge_uninstall(&gemini.to_string(), HookAgent::Gemini).unwrap());
    assert_eq!(back, parse(text));
}

#[test]
fn refusals_name_the_file_and_say_it_was_not_changed() {
    let dir = tempfile::tempdir().unwrap();
    for (what, content, _) in refusals() {
        let path = settings_file(dir.path(), &content);
        let err = install(&path, HookAgent::Claude, CMD, false).unwrap_err();
        assert!(
            err.starts_with(&format!("{}: ", path.display())),
            "{what}: {err}"
        );
        assert!(err.ends_with("; not changed"), "{what}: {err}");
    }
}

/// The command as an operator runs it: Gemini's settings go where Gemini
/// CLI reads them, under GEMINI_CLI_HOME when that is set.
#[test]
fn gemini_hooks_go_under_gemini_cli_home() {
    let home = tempfile::tempdir().unwrap();
    let gemini_home = tempfile::tempdir().unwrap();
    let run = |gemini_home: Option<&Path>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_greenroom"));
        c.args(["hooks", "install", "--agent", "gemini"])
            .env("HOME", home.path())
            .env_remove("GEMINI_CLI_HOME")
            .current_dir(home.path());
        if let Some(g) = gemini_home {
            c.env("GEMINI_CLI_HOME", g);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(Some(gemini_home.path()));
    let settings = gemini_home.path().join(".gemini/settings.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(greenroom_commands(&doc, "AfterAgent").len(), 1);
    assert_eq!(greenroom_commands(&doc, "BeforeToolSelection").len(), 1);
    assert!(!home.path().join(".gemini").exists(), "not under HOME");
    run(None);
    assert!(home.path().join(".gemini/settings.json").is_file());
}

/// What a JSON reader and writer would change: numbers no float holds, an
/// exponent, a key written twice, CRLF, four-space and inline layouts,
/// beside the user's own hooks (one in a group greenroom's command shares).
const UNUSUAL: &str = "{\r\n    \"big\": 12345678901234567890,\r\n    \"float\": 0.1000000000000000055511151231257827,\r\n    \"exp\": 1e3,\r\n    \"dup\": 1,\r\n    \"dup\": 2,\r\n    \"hooks\": {\r\n        \"PreToolUse\": [\r\n            {\r\n                \"matcher\": \"Bash\",\r\n                \"hooks\": [ { \"type\": \"command\", \"command\": \"check.sh\", \"timeout\": 1E2 } ]\r\n            }\r\n        ],\r\n        \"Stop\": [{\"hooks\":[{\"type\":\"command\",\"command\":\"say done\"}]}],\r\n        \"BeforeTool\": [\r\n            { \"matcher\": \"write_file\", \"hooks\": [ { \"type\": \"command\", \"command\": \"lint.sh\" } ] }\r\n        ]\r\n    },\r\n    \"tail\": [1.0, -0, 2e-5, 123456789012345678901234567890]\r\n}\r\n";

fn unusual_layouts() -> Vec<String> {
    let lf = UNUSUAL.replace("\r\n", "\n");
    vec![
        UNUSUAL.to_owned(),
        lf.clone(),
        lf.replace("    ", "\t"),
        format!("\u{feff}{}", lf.replace('\n', "")),
    ]
}

#[test]
fn install_then_uninstall_gives_back_every_byte() {
    for agent in AGENTS {
        for text in unusual_layouts() {
            let installed = merge_install(Some(&text), agent, CMD).unwrap();
            assert_ne!(installed, text);
            assert_eq!(
                merge_uninstall(&installed, agent).unwrap(),
                text,
                "{agent:?}"
            );
            // From another path: greenroom's entries replaced where they stood.
            let moved = merge_install(Some(&installed), agent, OTHER_CMD).unwrap();
            assert_eq!(merge_uninstall(&moved, agent).unwrap(), text, "{agent:?}");
        }
    }
}

#[test]
fn install_changes_no_byte_outside_greenroom_s_entries() {
    for agent in AGENTS {
        for text in unusual_layouts() {
            let installed = merge_install(Some(&text), agent, CMD).unwrap();
            // Every byte of the original is there, in order: greenroom only
            // added text between them.
            let mut rest = installed.as_str();
            for c in text.chars() {
                let at = rest
                    .find(c)
                    .unwrap_or_else(|| panic!("{c:?} lost: {installed}"));
                rest = &rest[at + c.len_utf8()..];
            }
            for kept in [
                "\"big\": 12345678901234567890,",
                "0.1000000000000000055511151231257827",
                "\"exp\": 1e3",
                "\"dup\": 1,",
                "\"dup\": 2,",
                "\"timeout\": 1E2 }",
                "[{\"hooks\":[{\"type\":\"command\",\"command\":\"say done\"}]}",
                "[1.0, -0, 2e-5, 123456789012345678901234567890]",
            ] {
                assert!(installed.contains(kept), "{kept} in {installed}");
            }
            if text.contains("\r\n") {
                assert!(!installed.replace("\r\n", "").contains('\n'), "{installed}");
            }
            // Greenroom's new lines follow the file's indentation.
            if text.contains("\n    \"big") {
                assert!(
                    installed.contains("\n        \"SessionStart\": [\r\n            {")
                        || installed.contains("\n        \"SessionStart\": [\n            {"),
                    "{installed}"
                );
            }
            let settings = parse(&installed);
            assert_eq!(greenroom_commands(&settings, "SessionStart"), [CMD]);
            assert_eq!(
                greenroom_commands(&settings, "Stop").len(),
                usize::from(agent != HookAgent::Gemini),
                "Gemini has no Stop"
            );
        }
    }
}

#[test]
fn a_file_with_the_users_values_is_given_back_byte_identical_through_files() {
    for agent in AGENTS {
        let dir = tempfile::tempdir().unwrap();
        let path = settings_file(dir.path(), UNUSUAL.as_bytes());
        assert!(install(&path, agent, CMD, false).unwrap().changed);
        assert!(uninstall(&path, agent, false).unwrap().changed);
        assert_eq!(fs::read(&path).unwrap(), UNUSUAL.as_bytes(), "{agent:?}");
    }
}

#[test]
fn a_read_only_settings_file_is_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = settings_file(dir.path(), CLAUDE.as_bytes());
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
    let refused = install(&path, HookAgent::Claude, CMD, false).unwrap_err();
    assert!(
        refused.contains("read-only") && refused.contains("chmod u+w"),
        "{refused}"
    );
    assert!(!refused.contains('\n'), "{refused}");
    assert_eq!(fs::read_to_string(&path).unwrap(), CLAUDE);
    assert_eq!(mode(&path), 0o444);
    assert_eq!(names_in(dir.path()), ["settings.json"], "no backup either");
}

#[test]
fn a_hard_linked_settings_file_keeps_its_link() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let path = settings_file(dir.path(), CLAUDE.as_bytes());
    let other = dir.path().join("dotfiles-settings.json");
    fs::hard_link(&path, &other).unwrap();
    let out = install(&path, HookAgent::Claude, CMD, false).unwrap();
    assert!(out.changed && out.backup.is_some());
    assert_eq!(
        fs::read_to_string(&other).unwrap(),
        out.new_text,
        "the other name sees it"
    );
    assert_eq!(
        fs::metadata(&path).unwrap().ino(),
        fs::metadata(&other).unwrap().ino()
    );
    uninstall(&path, HookAgent::Claude, false).unwrap();
    assert_eq!(fs::read_to_string(&other).unwrap(), CLAUDE);
}
