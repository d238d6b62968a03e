//! The real Claude Code, offline, started through greenroom: a private
//! HOME (onboarding done, the key approved, the folder trusted, manual
//! permission mode), greenroom's hooks installed into it by the real binary,
//! a private tmux server and sidecar folder, and the stand-in API.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use super::standin::StandIn;
use crate::harness::{Private, captures, json_lines, npm_file};
use crate::it_support::{Pane, wait_for};

/// A key of the right shape; only its last 20 characters matter (approval).
const API_KEY: &str = "sk-ant-api03-greenroom-standin-key-0123456789abcdefghij";
pub const SESSION: &str = "cc";
const TMUX_SESSION: &str = "gr-cc";

/// The native binary of `@anthropic-ai/claude-code-linux-x64` (npm does not
/// run the install script that would link it; it is run directly).
pub fn claude_bin() -> PathBuf {
    npm_file(
        "claude-code-2.1.328",
        "@anthropic-ai/claude-code-linux-x64/claude",
    )
}

/// Claude Code's private world (its `dir`, `tmux`, greenroom on them: see
/// [`Private`]) and the stand-in it talks to.
pub struct Claude {
    world: Private,
    pub api: StandIn,
}

impl Deref for Claude {
    type Target = Private;

    fn deref(&self) -> &Private {
        &self.world
    }
}

fn write_json(path: &Path, v: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(v).unwrap()).unwrap();
}

impl Claude {
    /// Hook payloads as Claude Code sent them, one JSON object a line.
    pub fn payloads(&self) -> Vec<Value> {
        json_lines(&self.dir.path().join("payloads.jsonl"))
    }

    /// The private world, hooks installed, Claude Code not yet started.
    pub fn prepare(api: StandIn) -> Self {
        let c = Claude {
            world: Private::new(),
            api,
        };
        let work = c.work().to_string_lossy().into_owned();
        let approved = &API_KEY[API_KEY.len() - 20..];
        write_json(
            &c.home().join(".claude.json"),
            &json!({
                "hasCompletedOnboarding": true,
                "hasSeenAutoDefaultNudge": true,
                "customApiKeyResponses": {"approved": [approved], "rejected": []},
                "projects": {work: {"hasTrustDialogAccepted": true}},
            }),
        );
        write_json(
            &c.home().join(".claude/settings.json"),
            &json!({"permissions": {"defaultMode": "default"}}),
        );
        // The hooks run the binary that installs them: the test build, or
        // GREENROOM_INTEROP_HOOK_BIN (a release build, to measure latency).
        let mut install = c.greenroom();
        if let Some(bin) = std::env::var_os("GREENROOM_INTEROP_HOOK_BIN") {
            let args: Vec<_> = install.get_args().map(|a| a.to_owned()).collect();
            install = Command::new(bin);
            install.env("HOME", c.home()).args(args);
        }
        let out = install
            .args(["hooks", "install", "--agent", "claude", "--scope", "user"])
            .output()
            .unwrap();
        assert!(out.status.success(), "hooks install: {out:?}");
        c.add_capture_hook();
        c.script(
            "run-claude",
            &format!(
                "#!/bin/sh\nexport HOME='{home}' ANTHROPIC_BASE_URL='{url}' ANTHROPIC_API_KEY='{API_KEY}' \
                 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1\nexec '{bin}' \"$@\"\n",
                home = c.home().display(),
                url = c.api.base_url(),
                bin = claude_bin().display(),
            ),
        );
        c
    }

    /// Beside greenroom's hook, each event also appends its payload to
    /// `payloads.jsonl`: what the tests assert on and the captured fixtures.
    fn add_capture_hook(&self) {
        let path = self.home().join(".claude/settings.json");
        let mut s: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let sink = self.dir.path().join("payloads.jsonl");
        let cmd = format!("(cat; echo) >> '{}'", sink.display());
        let hooks = s["hooks"]
            .as_object_mut()
            .expect("greenroom installed hooks");
        assert!(
            hooks.contains_key("StopFailure"),
            "greenroom hooks StopFailure"
        );
        for groups in hooks.values_mut() {
            groups[0]["hooks"]
                .as_array_mut()
                .unwrap()
                .push(json!({"type": "command", "command": cmd}));
        }
        write_json(&path, &s);
    }

    /// `run-claude`: Claude Code with the private HOME and the stand-in.
    pub fn launcher(&self) -> PathBuf {
        self.dir.path().join("run-claude")
    }

    /// Claude Code's settings as a new user's: no hooks.
    pub fn without_hooks(&self) {
        std::fs::write(
            self.home().join(".claude/settings.json"),
            r#"{"permissions": {"defaultMode": "default"}}"#,
        )
        .unwrap();
    }

    /// Types the launcher into `pane`'s shell, as a person starts Claude
    /// Code by hand; returns once its prompt shows.
    pub fn by_hand(&self, pane: &Pane<'_>) {
        pane.keys(&["-l", &self.launcher().to_string_lossy()]);
        pane.keys(&["Enter"]);
        Self::until_ready(pane);
    }

    /// Waits for Claude Code's prompt in `pane`.
    pub fn until_ready(pane: &Pane<'_>) {
        pane.until(60, "Claude Code's prompt", |s| {
            s.contains("Claude Code v2.1.328") && s.contains("for shortcuts")
        });
    }

    /// Keeps the hook payloads of a question (PermissionRequest,
    /// Notification, PreToolUse) under `target/interop-captures/<rel>/`
    /// (the source of tests/fixtures/real's payload files).
    pub fn keep_payloads(&self, rel: &str) {
        let out = captures(rel);
        for p in self.payloads() {
            let event = p["hook_event_name"].as_str().unwrap_or_default();
            if matches!(event, "PermissionRequest" | "Notification" | "PreToolUse") {
                let text = serde_json::to_string_pretty(&p).unwrap();
                std::fs::write(out.join(format!("{event}.json")), text).unwrap();
            }
        }
    }

    /// Prepares and starts Claude Code through `greenroom spawn`; returns
    /// once its prompt is on screen.
    pub fn start(api: StandIn) -> Self {
        let c = Self::prepare(api);
        let pane = c
            .world
            .spawn(SESSION, &["--", c.launcher().to_str().unwrap()]);
        Self::until_ready(&pane);
        wait_for(30, "SessionStart reported", || {
            c.sidecar()["agent_session_id"].as_str().map(|_| ())
        });
        c
    }

    pub fn pane(&self) -> Pane<'_> {
        Pane::new(&self.tmux, TMUX_SESSION)
    }

    /// Types a prompt and submits it, as a person would.
    pub fn prompt(&self, text: &str) {
        crate::harness::prompt(&self.pane(), text);
    }

    /// The session's row in `greenroom ls --json`.
    pub fn row(&self) -> Value {
        let rows = self.rows();
        rows.iter()
            .find(|s| s["name"] == SESSION)
            .cloned()
            .unwrap_or_else(|| panic!("no {SESSION} row in {rows:#?}"))
    }

    /// Waits until the row satisfies `check`; on timeout shows row and pane.
    pub fn until_row(&self, secs: u64, what: &str, check: impl Fn(&Value) -> bool) -> Value {
        crate::harness::until_row(
            secs,
            what,
            || Some(self.row()).filter(|r| check(r)),
            || format!("row: {:#}\npane:\n{}", self.row(), self.pane().text()),
        )
    }

    /// greenroom's own record of the session.
    pub fn sidecar(&self) -> Value {
        let dir = std::fs::read_dir(self.sidecars()).unwrap();
        for e in dir.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "json") {
                return serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap_or(Value::Null);
            }
        }
        Value::Null
    }

    pub fn transcript(&self) -> PathBuf {
        let s = self.sidecar();
        PathBuf::from(
            s["transcript_path"]
                .as_str()
                .expect("transcript_path reported"),
        )
    }

    /// The transcript's records, one JSON value a line.
    pub fn records(&self) -> Vec<Value> {
        json_lines(&self.transcript())
    }

    /// Ends Claude Code with `/exit`, which writes its `cost-state` record.
    pub fn exit(&self) {
        self.prompt("/exit");
        wait_for(30, "the cost-state record", || {
            self.records()
                .into_iter()
                .rev()
                .find(|r| r["type"] == "cost-state")
        });
    }

    /// Keeps the session's files under `target/interop-captures/<name>/`
    /// (the source of tests/fixtures/real's Claude Code 2.1.328 files).
    /// Records that carry Claude Code's own prompts and listings are left
    /// out: they are its text, not greenroom's, and nothing reads them.
    pub fn keep(&self, name: &str) {
        let out = captures(name);
        self.keep_file(&self.transcript(), &out.join("transcript.jsonl"));
        // The session's earlier conversations (`/clear` starts a new file).
        let earlier = self.sidecar()["earlier_transcripts"].clone();
        for (n, path) in earlier.as_array().into_iter().flatten().enumerate() {
            let path = Path::new(path.as_str().unwrap_or_default());
            self.keep_file(path, &out.join(format!("earlier-{n}.jsonl")));
        }
        let _ = std::fs::copy(
            self.dir.path().join("payloads.jsonl"),
            out.join("payloads.jsonl"),
        );
    }

    fn keep_file(&self, from: &Path, to: &Path) {
        let prompts = ["api-request-shape", "api-request-blob"];
        let listings = ["skill_listing", "agent_listing_delta", "prompt_snapshot"];
        // A turn that failed before any answer may leave no transcript yet.
        let kept: String = std::fs::read_to_string(from)
            .unwrap_or_default()
            .lines()
            .filter(|l| {
                let v: Value = serde_json::from_str(l).unwrap_or(Value::Null);
                let kind = v["type"].as_str().unwrap_or_default();
                let attachment = v["attachment"]["type"].as_str().unwrap_or_default();
                !prompts.contains(&kind) && !listings.contains(&attachment)
            })
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(to, kept).unwrap();
    }
}
