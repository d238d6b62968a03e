//! The real OpenCode 1.18.33 (npm `opencode-ai`; the binary is the native
//! `opencode-linux-x64/bin/opencode` of its optional dependency), offline
//! against the Chat Completions stand-in in `standin.rs`, in a private HOME.
//!
//! # Starting it by hand
//!
//! ```sh
//! H=/tmp/oc; mkdir -p $H/.config/opencode/node_modules $H/work
//! # opencode.json: what `opencode_config` below writes (the stand-in's port)
//! echo '{"packages":{"":{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}}}' \
//!   > $H/.config/opencode/package-lock.json
//! cd $H/work && HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share \
//!   XDG_STATE_HOME=$H/.local/state XDG_CACHE_HOME=$H/.cache \
//!   OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_MODELS_FETCH=1 \
//!   OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_SHARE=1 \
//!   ~/.cache/greenroom-ci/npm/opencode-1.18.33/node_modules/opencode-linux-x64/bin/opencode
//! ```
//!
//! `Opencode::prepare` writes exactly that world, and `bin/opencode` (the
//! launcher) sets that environment; the tests type the launcher's path into a
//! plain pane (by hand), or put its folder first on greenroom's PATH so that
//! greenroom's own `opencode` preset runs it (`greenroom spawn --agent
//! opencode --prompt …` runs `opencode --prompt '…'`; a restore runs
//! `opencode --session '<id>'`).
//!
//! # What it would fetch, and what stops it
//!
//! - `autoupdate: false` and `OPENCODE_DISABLE_AUTOUPDATE`: no npm version check.
//! - `OPENCODE_DISABLE_MODELS_FETCH`: no models.dev catalogue (the model is
//!   the config's own `standin/standin-model`).
//! - `OPENCODE_DISABLE_DEFAULT_PLUGINS`: no built-in provider plugins.
//! - On every start OpenCode installs `@opencode-ai/plugin` into each config
//!   folder it reads (`$XDG_CONFIG_HOME/opencode`, any `.opencode`) with npm's
//!   own installer, unless that folder already has `node_modules/` and a
//!   `package-lock.json` whose root lists the package: the harness writes
//!   both (empty `node_modules`), so nothing is fetched. A plugin that imports
//!   nothing needs no install.
//! - `share: "disabled"`, `OPENCODE_DISABLE_SHARE`, `OPENCODE_DISABLE_LSP_DOWNLOAD`.
//! - `"permission": {"bash": "ask"}`: a bash call asks first (OpenCode's
//!   default is to allow).
//!
//! # What it writes
//!
//! Everything (sessions, messages with per-turn tokens, parts) is in SQLite,
//! `$XDG_DATA_HOME/opencode/opencode.db` (WAL mode: `-wal` and `-shm`
//! beside it), no JSON session files in 1.18. Table `session`: `id`
//! (`ses_…`), `directory`, `title`, `parent_id` (sub-agents), `cost`,
//! `tokens_input` (without cache reads), `tokens_output` (without
//! reasoning), `tokens_reasoning`, `tokens_cache_read`,
//! `tokens_cache_write`, `time_created`/`time_updated` (ms): the session's
//! running totals. `opencode --session <id>` resumes one. Its log is
//! `$XDG_DATA_HOME/opencode/log/opencode.log`.
//!
//! # Its screen and its events
//!
//! The permission prompt (bottom of the screen): `△ Permission required`,
//! `# Shell command` (the tool's title), `$ <command>`, then
//! `Allow once   Allow always   Reject` (←/→ or tab to choose, Enter to
//! confirm; Escape rejects).
//!
//! Plugin events (bus event `type` and `properties`, as the TUI and
//! `opencode run` handle them): `session.status` `{sessionID, status:
//! {type: "busy" | "idle" | "retry", …}}`; `session.idle` `{sessionID}`;
//! `permission.asked` `{id, sessionID, permission: "bash", patterns:
//! ["<command>"], metadata, always, tool?: {messageID, callID}}`;
//! `permission.replied` `{sessionID, requestID, reply: "once" | "always" |
//! "reject"}`; also `session.error`, `question.asked`/`question.replied`.
#![allow(dead_code)] // some tests use only part of it

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use super::standin::StandIn;
use crate::harness::{Private, captures, npm_file};
use crate::it_support::Pane;

pub const PROVIDER: &str = "standin";
pub const MODEL: &str = "standin-model";
const API_KEY: &str = "sk-standin-opencode-offline";

/// The native binary the npm package's `bin/opencode` script runs.
pub fn opencode_bin() -> PathBuf {
    npm_file("opencode-1.18.33", "opencode-linux-x64/bin/opencode")
}

/// OpenCode's private world (its `dir`, `tmux`, greenroom on them: see
/// [`Private`]) and the stand-in it talks to.
pub struct Opencode {
    world: Private,
    pub api: StandIn,
}

impl Deref for Opencode {
    type Target = Private;

    fn deref(&self) -> &Private {
        &self.world
    }
}

/// OpenCode's own config: the stand-in as an `@ai-sdk/openai-compatible`
/// provider, its model the default (and the title's) with a price, no
/// update check, no sharing, and a bash call asks first.
fn opencode_config(api: &StandIn) -> Value {
    json!({
        "$schema": "https://opencode.ai/config.json",
        "autoupdate": false,
        "share": "disabled",
        "model": format!("{PROVIDER}/{MODEL}"),
        "small_model": format!("{PROVIDER}/{MODEL}"),
        "permission": {"bash": "ask"},
        "provider": {PROVIDER: {
            "npm": "@ai-sdk/openai-compatible",
            "name": "greenroom stand-in",
            "options": {"baseURL": api.base_url(), "apiKey": API_KEY},
            // Per million tokens: OpenCode prices its sessions with it.
            "models": {MODEL: {"name": "Stand-in model",
                               "cost": {"input": 2.0, "output": 10.0, "cache_read": 0.5}}}
        }}
    })
}

impl Opencode {
    /// `$XDG_CONFIG_HOME/opencode`.
    pub fn config_dir(&self) -> PathBuf {
        self.home().join(".config/opencode")
    }

    /// `$XDG_DATA_HOME` (OpenCode keeps `opencode/opencode.db` there).
    pub fn data_home(&self) -> PathBuf {
        self.home().join(".local/share")
    }

    pub fn db(&self) -> PathBuf {
        self.data_home().join("opencode/opencode.db")
    }

    /// The `opencode` on the private PATH.
    pub fn launcher(&self) -> PathBuf {
        self.dir.path().join("bin/opencode")
    }

    /// The private world, with OpenCode's data folder in greenroom's
    /// environment and the private `opencode` first on its PATH, as a user
    /// who installed it has it (tmux servers greenroom starts inherit it);
    /// OpenCode not yet started.
    pub fn prepare(api: StandIn) -> Self {
        let mut world = Private::new();
        let path = format!(
            "{}:{}",
            world.dir.path().join("bin").display(),
            std::env::var("PATH").unwrap()
        );
        world.set_env("PATH", path);
        world.set_env("XDG_DATA_HOME", world.home().join(".local/share"));
        let c = Opencode { world, api };
        std::fs::create_dir_all(c.config_dir().join("node_modules")).unwrap();
        let config = serde_json::to_string_pretty(&opencode_config(&c.api)).unwrap();
        std::fs::write(c.config_dir().join("opencode.json"), config).unwrap();
        // Marks `@opencode-ai/plugin` installed: OpenCode then fetches nothing.
        let lock = json!({"packages": {"": {"dependencies": {"@opencode-ai/plugin": "1.18.33"}}}});
        std::fs::write(c.config_dir().join("package-lock.json"), lock.to_string()).unwrap();
        // greenroom's own `opencode` preset runs it: config.toml stays empty.
        c.script("bin/opencode", &c.launcher_script());
        c
    }

    fn launcher_script(&self) -> String {
        let h = self.home();
        format!(
            "#!/bin/sh\nexport HOME='{home}' XDG_CONFIG_HOME='{home}/.config' \
             XDG_DATA_HOME='{home}/.local/share' XDG_STATE_HOME='{home}/.local/state' \
             XDG_CACHE_HOME='{home}/.cache'\n\
             export OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_MODELS_FETCH=1 \
             OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_SHARE=1\n\
             unset CI OPENAI_API_KEY OPENCODE_CONFIG OPENCODE_CONFIG_DIR OPENCODE_DB\n\
             exec '{bin}' \"$@\"\n",
            home = h.display(),
            bin = opencode_bin().display(),
        )
    }

    /// `opencode <args>` run to its end with the launcher's environment
    /// (e.g. `session list --format json`, `export <id>`): its stdout.
    pub fn cli(&self, args: &[&str]) -> String {
        let out = Command::new(self.launcher())
            .args(args)
            .current_dir(self.work())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "opencode {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `greenroom spawn --agent opencode --prompt <prompt>` in the work
    /// folder as `session`; its pane, once OpenCode is drawn.
    pub fn spawn(&self, session: &str, prompt: &str) -> Pane<'_> {
        let pane = self
            .world
            .spawn(session, &["--agent", "opencode", "--prompt", prompt]);
        Self::until_ready(&pane);
        pane
    }

    /// Waits for OpenCode's first screen (its footer shows the version).
    /// OpenCode is slow to start on a busy machine (its own database's
    /// set-up, several at once): the deadlines here are generous.
    pub fn until_ready(pane: &Pane<'_>) {
        pane.until(180, "OpenCode's input box", |s| {
            s.contains("1.18.33") && s.contains("Stand-in model")
        });
    }

    /// Types a prompt and submits it, as a person would.
    pub fn prompt(pane: &Pane<'_>, text: &str) {
        crate::harness::prompt(pane, text);
    }

    /// Waits for OpenCode's permission prompt for `command`.
    pub fn until_permission(pane: &Pane<'_>, command: &str) -> String {
        pane.until(180, "OpenCode's permission prompt", |s| {
            s.contains("Permission required") && s.contains(&format!("$ {command}"))
        })
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
        self.until_named(pane, name, 90, what, check)
    }

    /// OpenCode's own list of its sessions (`opencode session list
    /// --format json`).
    pub fn sessions(&self) -> Vec<Value> {
        let out = self.cli(&["session", "list", "--format", "json"]);
        serde_json::from_str::<Value>(&out)
            .ok()
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default()
    }

    /// OpenCode's own export of one session (`opencode export <id>`).
    pub fn export(&self, id: &str) -> Value {
        serde_json::from_str(&self.cli(&["export", id])).unwrap()
    }

    /// Keeps OpenCode's database (and its WAL) under
    /// `target/interop-captures/opencode/<name>/` (the source of
    /// tests/fixtures/opencode).
    pub fn keep(db: &Path, name: &str) {
        let out = captures(&format!("opencode/{name}"));
        for ext in ["", "-wal", "-shm"] {
            let from = PathBuf::from(format!("{}{ext}", db.display()));
            if from.is_file() {
                let to = out.join(format!("opencode.db{ext}"));
                std::fs::copy(&from, to).unwrap();
            }
        }
    }
}
