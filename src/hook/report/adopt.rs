//! A report from an agent greenroom did not start (no
//! `GREENROOM_SESSION_ID`): recorded against its tmux pane when the hook
//! runs inside tmux, dropped quietly otherwise (Claude Code's background
//! host runs hooks with no pane: there is nothing to point at).

use chrono::{DateTime, Utc};

use super::{Change, PayloadIds, apply};
use crate::config::{Config, Overrides};
use crate::environ::Env;
use crate::model::Status;
use crate::sources::adopted::{self, PANE_KEY, REPORTER_KEY, SERVER_KEY};
use crate::sources::procs;
use crate::sources::sidecar::{Sidecar, SidecarError, SidecarStore};
use crate::tmux::PaneId;

/// The pane and server a hook runs in, from `TMUX_PANE` and `TMUX`
/// (`<socket>,<pid>,<session>`); `None` outside tmux.
pub fn pane_from_env(env: &dyn Env) -> Option<(String, PaneId)> {
    let tmux = env.var("TMUX")?;
    let socket = tmux.split(',').next().filter(|s| s.starts_with('/'))?;
    let pane = PaneId::parse(&env.var("TMUX_PANE")?)?;
    Some((socket.to_owned(), pane))
}

/// Where greenroom's records live for this user: `GREENROOM_SIDECAR_DIR`
/// and `GREENROOM_CONFIG` as the command line reads them, else config.toml.
fn sidecar_dir(env: &dyn Env) -> Result<std::path::PathBuf, String> {
    let overrides = Overrides {
        sidecar_dir: env.var("GREENROOM_SIDECAR_DIR").map(Into::into),
        config: env.var("GREENROOM_CONFIG").map(Into::into),
        ..Overrides::default()
    };
    Config::load(&overrides, env)
        .map(|c| c.sidecar_dir)
        .map_err(|e| e.to_string())
}

/// Which agent sent the payload: OpenCode's events say OpenCode; Gemini
/// CLI's own event names, its environment or its session files say
/// Gemini; Codex's say Codex (`is_codex`); otherwise Claude Code.
pub fn agent_of(payload: Option<&serde_json::Value>, ids: &PayloadIds, env: &dyn Env) -> String {
    if payload.is_some_and(super::opencode::is_event) {
        return super::opencode::AGENT.to_owned();
    }
    const GEMINI_EVENTS: &[&str] = &[
        "BeforeAgent",
        "AfterAgent",
        "BeforeModel",
        "AfterModel",
        "BeforeTool",
        "AfterTool",
        "PreCompress",
        "BeforeToolSelection",
    ];
    let event = payload
        .and_then(|p| p.get("hook_event_name"))
        .and_then(|e| e.as_str());
    let gemini_file = ids.transcript_path.as_ref().is_some_and(|p| {
        let p = p.to_string_lossy();
        p.contains("/.gemini/") || p.contains("/chats/session-")
    });
    let gemini = event.is_some_and(|e| GEMINI_EVENTS.contains(&e))
        || env.var("GEMINI_PROJECT_DIR").is_some()
        || env.var("GEMINI_SESSION_ID").is_some()
        || gemini_file;
    match (gemini, is_codex(payload, ids, env)) {
        (true, _) => "gemini",
        (false, true) => "codex",
        (false, false) => "claude",
    }
    .to_owned()
}

/// Codex's payloads have Claude Code's shape, with a `turn_id` on every
/// turn's event (a Codex extension) and a `transcript_path` that is its
/// rollout (`rollout-*.jsonl`) or null, never missing; Codex's npm and bun
/// launchers mark the environment its hooks inherit (hook payloads in
/// codex-rs/hooks/src/schema.rs, launchers in codex-cli/bin/codex.js).
fn is_codex(payload: Option<&serde_json::Value>, ids: &PayloadIds, env: &dyn Env) -> bool {
    let has = |key: &str| payload.and_then(|p| p.get(key));
    let rollout = ids.transcript_path.as_ref().is_some_and(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("rollout-") && n.ends_with(".jsonl"))
    });
    // The environment is inherited by whatever Codex's shells start (a
    // Claude Code too), so it counts only without a transcript to go by.
    let launched = ["CODEX_MANAGED_BY_NPM", "CODEX_MANAGED_BY_BUN"]
        .iter()
        .any(|v| env.var(v).is_some());
    has("turn_id").is_some()
        || has("transcript_path").is_some_and(serde_json::Value::is_null)
        || rollout
        || (launched && ids.transcript_path.is_none())
}

/// A fresh record for the pane, as its first report finds it.
fn fresh(
    id: uuid::Uuid,
    server: &str,
    pane: &PaneId,
    agent: &str,
    ids: &PayloadIds,
    now: DateTime<Utc>,
) -> Sidecar {
    let cwd = ids.cwd.clone().unwrap_or_default();
    let mut s = Sidecar::new(agent, &cwd, "", now);
    s.id = id;
    s.agent = Some(agent.to_owned());
    s.metadata.insert(PANE_KEY.into(), pane.as_str().to_owned());
    s.metadata.insert(SERVER_KEY.into(), server.to_owned());
    s
}

/// Where a report from this pane goes: its record in the adopted folder.
pub struct Target {
    store: SidecarStore,
    id: uuid::Uuid,
    server: String,
    pane: PaneId,
    /// This process and its ancestors (see [`REPORTER_KEY`]).
    reporter: String,
}

/// The pane's record, when the hook runs inside tmux; `None` otherwise.
/// The process's ancestry is read here, first: a deferred copy must read
/// it while the report that started it still runs (`defer`).
pub fn target(env: &dyn Env) -> Result<Option<Target>, String> {
    let Some((server, pane)) = pane_from_env(env) else {
        return Ok(None);
    };
    let store = SidecarStore::new(adopted::adopted_dir(&sidecar_dir(env)?));
    let id = adopted::record_id(&server, &pane);
    let reporter = adopted::reporter_text(&procs::ancestry(std::process::id()));
    Ok(Some(Target {
        store,
        id,
        server,
        pane,
        reporter,
    }))
}

/// Records one report against the pane's record, under its lock, unless
/// `superseded` says a newer report is there already.
pub fn record(
    t: &Target,
    change: &Change,
    ids: &PayloadIds,
    agent: &str,
    now: DateTime<Utc>,
    wait: std::time::Duration,
    superseded: impl Fn(&Sidecar) -> bool,
) -> Result<(), SidecarError> {
    let fresh = || fresh(t.id, &t.server, &t.pane, agent, ids, now);
    if std::fs::symlink_metadata(t.store.path_for(t.id)).is_err() {
        // An agent that ends before greenroom ever heard of it leaves nothing.
        if matches!(change, Change::Ended(_)) {
            return Ok(());
        }
        match t.store.create(&fresh()) {
            Ok(()) | Err(SidecarError::AlreadyExists(_)) => {}
            Err(e) => return Err(e),
        }
    }
    t.store
        .update(t.id, wait, |s| {
            if superseded(s) {
                return false;
            }
            let replaced = ids
                .session_id
                .as_ref()
                .is_some_and(|new| s.agent_session_id.as_ref().is_some_and(|old| old != new));
            // Another agent session in this pane, or one starting after the
            // last ended: what the record said was about the previous one.
            let restarted = s.status != Status::Running && !matches!(change, Change::Ended(_));
            if replaced || restarted {
                let before = std::mem::replace(s, fresh());
                // Money spent stays spent: the pane's earlier conversations
                // (`/clear`, an agent started again) still count.
                s.earlier_transcripts = before.earlier_transcripts;
                super::keep_earlier(s, before.transcript_path);
            }
            let agent_changed = s.agent.as_deref() != Some(agent);
            if agent_changed {
                s.agent = Some(agent.to_owned());
                s.name = agent.to_owned();
            }
            // Who reported last: the catalog shows the record for its pane
            // only when this chain passes through the pane's process.
            let moved = s.metadata.get(REPORTER_KEY) != Some(&t.reporter);
            if moved {
                s.metadata.insert(REPORTER_KEY.into(), t.reporter.clone());
            }
            apply(s, change, ids, now) || replaced || restarted || agent_changed || moved
        })
        .map(drop)
}
