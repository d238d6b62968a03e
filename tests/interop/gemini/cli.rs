//! The real Gemini CLI 0.61.0, started by greenroom on a private tmux
//! server, talking to the stand-in on loopback, with a private home.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::standin::{Conversation, StandIn};
use crate::harness::{npm_file, until_row};
use crate::it_support::actions::Greenroom;
use crate::it_support::{Pane, TmuxServer, World, wait_for};
use crate::support::node;

pub const MODEL: &str = "gemini-2.5-pro";

/// Gemini's settings for an offline run: an API key, no folder-trust
/// question, no usage statistics, no update check, the stand-in's model.
pub fn settings() -> Value {
    json!({
        "security": {"auth": {"selectedType": "gemini-api-key"},
                     "folderTrust": {"enabled": false}},
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"enableAutoUpdate": false},
        "model": {"name": MODEL},
    })
}

/// The command line that runs the real CLI offline against `api`, with
/// `home` as GEMINI_CLI_HOME; unless `relaunch`, Gemini runs in the node
/// started (not in a child it would start again). `CI` is unset: Gemini
/// CLI reads `CI=true` (as `.ci/run` sets it) as "not interactive" and
/// answers "No input provided via stdin" instead of showing its input box.
pub fn command_line(api: &StandIn, home: &Path, relaunch: bool) -> String {
    let q = |p: &Path| greenroom::ops::shell_quote(&p.to_string_lossy());
    let bin = npm_file("gemini-cli-0.61.0", "@google/gemini-cli/bundle/gemini.js");
    let no_relaunch = if relaunch {
        ""
    } else {
        " GEMINI_CLI_NO_RELAUNCH=true"
    };
    format!(
        "env -u CI -u CONTINUOUS_INTEGRATION GOOGLE_GEMINI_BASE_URL={} GEMINI_API_KEY=test-key-offline \
         GEMINI_CLI_HOME={}{no_relaunch} {} {}",
        api.base_url(),
        q(home),
        node(),
        q(&bin)
    )
}

/// A world with Gemini's settings, a project folder, a stand-in and tmux.
pub struct Setup {
    pub world: World,
    pub tmux: TmuxServer,
    pub api: StandIn,
}

impl Setup {
    pub fn new() -> Self {
        let world = World::new();
        let settings = settings();
        let dir = world.path(".gemini");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("settings.json"), settings.to_string()).unwrap();
        std::fs::create_dir_all(world.path("proj")).unwrap();
        let tmux = TmuxServer::new();
        tmux.spawn("keep", &["sleep", "600"]);
        Setup {
            world,
            tmux,
            api: StandIn::start(),
        }
    }

    pub fn greenroom(&self) -> Greenroom<'_> {
        Greenroom::new(&self.world, &self.tmux)
    }

    /// `<home>/.gemini`: GEMINI_CLI_HOME is the world's folder (also HOME).
    pub fn gemini_dir(&self) -> PathBuf {
        self.world.path(".gemini")
    }

    pub fn project(&self) -> PathBuf {
        self.world.path("proj")
    }

    /// `greenroom hooks install --agent gemini` as an operator runs it.
    pub fn install_hooks(&self) {
        let out = self
            .greenroom()
            .command(&["hooks", "install", "--agent", "gemini"])
            .env("GEMINI_CLI_HOME", self.world.dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The command line that runs the real CLI offline, the world's
    /// folder its home.
    fn command(&self) -> String {
        command_line(&self.api, self.world.dir.path(), false)
    }

    /// A `gem` preset in greenroom's config that runs the real CLI.
    pub fn gemini_preset(&self) {
        let command = self.command();
        let preset = format!(
            "[agents.gem]\nlaunch = {command:?}\nlaunch_with_prompt = {:?}\n",
            format!("{command} --prompt-interactive {{prompt}}")
        );
        std::fs::write(self.world.path("config.toml"), preset).unwrap();
    }

    /// `greenroom spawn NAME -- node gemini.js`; waits for its input box.
    pub fn spawn(&self, name: &str) {
        let cwd = self.project();
        let command = self.command();
        self.greenroom().ok(&[
            "spawn",
            "-n",
            name,
            "--cwd",
            cwd.to_str().unwrap(),
            "--",
            &command,
        ]);
        self.until_pane(name, 60, "Gemini's input box", |p| {
            p.contains("Type your message")
        });
    }

    pub fn pane(&self, name: &str) -> String {
        Pane::new(&self.tmux, &format!("gr-{name}")).text()
    }

    pub fn until_pane(
        &self,
        name: &str,
        secs: u64,
        what: &str,
        ok: impl Fn(&str) -> bool,
    ) -> String {
        Pane::new(&self.tmux, &format!("gr-{name}")).until(secs, what, ok)
    }

    /// `greenroom ls --json`, the row named `name`.
    pub fn row(&self, name: &str) -> Value {
        let out = self.greenroom().ok(&["ls", "--json"]);
        let all: Value = serde_json::from_str(&out).unwrap();
        all["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no row {name} in {out}"))
    }

    /// Waits until the row satisfies `ok`; the last row on failure.
    pub fn until_row(
        &self,
        name: &str,
        secs: u64,
        what: &str,
        ok: impl Fn(&Value) -> bool,
    ) -> Value {
        until_row(
            secs,
            what,
            || Some(self.row(name)).filter(|r| ok(r)),
            || {
                format!(
                    "the row:\n{:#}\nthe pane:\n{}",
                    self.row(name),
                    self.pane(name)
                )
            },
        )
    }

    /// Waits for the stand-in to receive a model call whose last user
    /// text is `text`.
    pub fn until_asked(&self, name: &str, text: &str) {
        let asked = || {
            self.api
                .model_calls()
                .iter()
                .any(|r| r.last_user_text().as_deref() == Some(text))
        };
        let mut ok = false;
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            wait_for(20, "the message to reach the model", || {
                asked().then_some(())
            });
            ok = true;
        }));
        assert!(
            ok,
            "{text:?} was never submitted; the pane:\n{}",
            self.pane(name)
        );
    }

    /// The session files Gemini wrote for the project.
    pub fn session_files(&self) -> Vec<PathBuf> {
        let dir = self.gemini_dir().join("tmp/proj/chats");
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        files
    }
}
