//! The real Codex CLI, offline: a private HOME and `CODEX_HOME` whose
//! `config.toml` names the stand-in as the model provider, with no login,
//! no update check, no analytics or feedback, no background app-server, and
//! the work folder trusted; a `codex` on a private PATH that runs the npm
//! package's native binary with that home; a private tmux server and
//! sidecar folder.

use std::ops::Deref;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::standin::StandIn;
use crate::harness::{Private, captures, json_lines, npm_file};
use crate::it_support::Pane;

pub const MODEL: &str = "gpt-5.4";
const API_KEY: &str = "sk-standin-codex-offline";

/// The native binary of `@openai/codex-linux-x64` (the npm package's
/// `codex.js` only finds and runs it).
pub fn codex_bin() -> PathBuf {
    npm_file(
        "codex-0.169.0",
        "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
    )
}

/// Codex's private world (its `dir`, `tmux`, greenroom on them: see
/// [`Private`]) and the stand-in it talks to.
pub struct Codex {
    world: Private,
    pub api: StandIn,
}

impl Deref for Codex {
    type Target = Private;

    fn deref(&self) -> &Private {
        &self.world
    }
}

/// Codex's settings for an offline run. `features.daemon_auto_start`
/// keeps it from starting its shared background app-server (which would
/// outlive the test), `check_for_update_on_startup` from asking npm,
/// `analytics` and `feedback` from reporting; the trusted project skips
/// the trust question; `disable_paste_burst` lets a typed line and Enter
/// arrive together.
fn codex_config(api: &StandIn, work: &Path) -> String {
    format!(
        r#"model = "{MODEL}"
model_provider = "standin"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
check_for_update_on_startup = false
disable_paste_burst = true

[analytics]
enabled = false

[feedback]
enabled = false

[features]
daemon_auto_start = false

[model_providers.standin]
name = "greenroom stand-in"
base_url = "{url}"
wire_api = "responses"
env_key = "STANDIN_API_KEY"

[projects."{work}"]
trust_level = "trusted"
"#,
        url = api.base_url(),
        work = work.display(),
    )
}

impl Codex {
    pub fn codex_home(&self) -> PathBuf {
        self.home().join(".codex")
    }

    /// The `codex` on the private PATH.
    pub fn launcher(&self) -> PathBuf {
        self.dir.path().join("bin/codex")
    }

    /// The private world, Codex's home in greenroom's environment; Codex
    /// not yet started.
    pub fn prepare(api: StandIn) -> Self {
        let mut world = Private::new();
        world.set_env("CODEX_HOME", world.home().join(".codex"));
        let c = Codex { world, api };
        std::fs::create_dir_all(c.codex_home()).unwrap();
        std::fs::write(
            c.codex_home().join("config.toml"),
            codex_config(&c.api, &c.work()),
        )
        .unwrap();
        let script = format!(
            "#!/bin/sh\nexport HOME='{home}' CODEX_HOME='{codex_home}' STANDIN_API_KEY='{API_KEY}'\n\
             unset CI OPENAI_API_KEY\nexec '{bin}' \"$@\"\n",
            home = c.home().display(),
            codex_home = c.codex_home().display(),
            bin = codex_bin().display(),
        );
        c.script("bin/codex", &script);
        let preset = format!(
            "[agents.codex]\nlaunch = {:?}\n",
            c.launcher().display().to_string()
        );
        std::fs::write(c.config(), preset).unwrap();
        c
    }

    /// `greenroom spawn --agent codex` in the work folder as `session`;
    /// its pane, once Codex's input box is up.
    pub fn spawn(&self, session: &str) -> Pane<'_> {
        let pane = self.world.spawn(session, &["--agent", "codex"]);
        Self::until_ready(&pane);
        pane
    }

    /// Waits for Codex's input box in `pane`.
    pub fn until_ready(pane: &Pane<'_>) {
        pane.until(60, "Codex's input box", |s| {
            s.contains("OpenAI Codex (v0.169.0)") && s.contains("? for shortcuts")
        });
    }

    /// Types a prompt and submits it, as a person would.
    pub fn prompt(pane: &Pane<'_>, text: &str) {
        crate::harness::prompt(pane, text);
    }

    /// Waits until the row named `name` satisfies `check`; on timeout
    /// shows the rows and the pane.
    pub fn until_row(
        &self,
        pane: &Pane<'_>,
        name: &str,
        what: &str,
        check: impl Fn(&Value) -> bool,
    ) -> Value {
        self.until_named(pane, name, 30, what, check)
    }

    /// The rollouts Codex wrote, oldest first.
    pub fn rollouts(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut dirs = vec![self.codex_home().join("sessions")];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "jsonl") {
                    out.push(p);
                }
            }
        }
        out.sort();
        out
    }

    /// A rollout's records, one JSON value a line.
    pub fn records(path: &Path) -> Vec<Value> {
        json_lines(path)
    }
    /// The rollout's own last running total (`token_count`'s
    /// `info.total_token_usage`), once it has one.
    pub fn last_total(path: &Path) -> Option<Value> {
        Self::records(path)
            .into_iter()
            .rev()
            .find(|r| r["payload"]["type"] == "token_count" && r["payload"]["info"].is_object())
            .map(|r| r["payload"]["info"]["total_token_usage"].clone())
    }

    /// Keeps a rollout under `target/interop-captures/codex/<name>.jsonl`
    /// (the source of tests/fixtures/real/codex-rollout). Codex's own
    /// instructions are left out: they are its text, not greenroom's, and
    /// nothing reads them (the developer messages and `world_state` go, and
    /// `session_meta`'s `base_instructions` text is replaced, which writes
    /// that one line again with its keys in order).
    pub fn keep(path: &Path, name: &str) {
        let out = captures("codex");
        let text = std::fs::read_to_string(path).unwrap();
        let mut kept = String::new();
        for line in text.lines() {
            let mut v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
            let developer = v["type"] == "response_item" && v["payload"]["role"] == "developer";
            if developer || v["type"] == "world_state" {
                continue;
            }
            if v["type"] == "session_meta" {
                v["payload"]["base_instructions"]["text"] = "(left out)".into();
                kept.push_str(&v.to_string());
            } else {
                kept.push_str(line);
            }
            kept.push('\n');
        }
        std::fs::write(out.join(format!("{name}.jsonl")), kept).unwrap();
    }
}
