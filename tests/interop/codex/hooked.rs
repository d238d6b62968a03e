//! greenroom's hooks in the private Codex home, as `greenroom hooks
//! install --agent codex` writes them, and a `codex` that runs them.
//!
//! Codex runs a hook only once the operator trusted it in `/hooks` (a
//! hash of the hook under `[hooks.state]` in config.toml, Codex's to
//! compute); the tests' `codex` passes Codex's own
//! `--dangerously-bypass-hook-trust` instead, which runs the enabled hooks
//! without that record for this one run.

use serde_json::Value;

use super::harness::{Codex, codex_bin};

/// Installs greenroom's hooks (user scope, `$CODEX_HOME/hooks.json`) and
/// makes the private `codex` bypass hook trust; returns what `hooks
/// install` said.
pub fn install(c: &Codex) -> String {
    let said = c.run(&["hooks", "install", "--agent", "codex"]);
    let hooks: Value =
        serde_json::from_slice(&std::fs::read(c.codex_home().join("hooks.json")).unwrap()).unwrap();
    let bin = env!("CARGO_BIN_EXE_greenroom");
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PermissionRequest",
        "Stop",
    ] {
        let command = &hooks["hooks"][event][0]["hooks"][0]["command"];
        assert!(
            command.as_str().is_some_and(|c| c.contains(bin)),
            "{event}: {hooks:#}"
        );
    }
    // Not trusted in /hooks yet, and said so.
    assert!(said.contains("/hooks"), "{said}");
    let script = std::fs::read_to_string(c.launcher()).unwrap();
    let exec = format!("exec '{}' ", codex_bin().display());
    assert!(script.contains(&exec), "{script}");
    let bypass = format!("{exec}--dangerously-bypass-hook-trust ");
    std::fs::write(c.launcher(), script.replace(&exec, &bypass)).unwrap();
    said
}

/// The rollout of the conversation `prompt` was typed into, and the
/// session id it records (`session_meta.payload.id`).
pub fn rollout_of(c: &Codex, prompt: &str) -> (std::path::PathBuf, Value) {
    crate::it_support::wait_for(30, "the conversation's rollout", || {
        c.rollouts().into_iter().find_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let meta = Codex::records(&path).into_iter().next()?;
            let id = meta["payload"]["id"].clone();
            (text.contains(prompt) && meta["type"] == "session_meta").then_some((path, id))
        })
    })
}

/// Every rollout's path and session id, for a failure's message.
pub fn all_rollouts(c: &Codex) -> Vec<(std::path::PathBuf, Value)> {
    c.rollouts()
        .into_iter()
        .map(|p| {
            let id = Codex::records(&p)
                .first()
                .map_or(Value::Null, |m| m["payload"]["id"].clone());
            (p, id)
        })
        .collect()
}

/// The rollout of the conversation `prompt` was typed into: asserts the
/// row `r` carries its session id; its last running total, once it has
/// one.
pub fn rollouts_total(c: &Codex, r: &Value, prompt: &str) -> Value {
    let (path, id) = rollout_of(c, prompt);
    assert_eq!(
        r["agent_session_id"],
        id,
        "{r:#}\nrollouts: {:#?}",
        all_rollouts(c)
    );
    crate::it_support::wait_for(30, "the rollout's total", || Codex::last_total(&path))
}

/// Asserts the row's usage is the rollout's own last running total.
pub fn usage_is_the_rollouts(row: &Value, total: &Value) {
    let n = |k: &str| total[k].as_u64().unwrap();
    let u = &row["usage"];
    assert_eq!(
        u["input"].as_u64(),
        Some(n("input_tokens") - n("cached_input_tokens")),
        "{row:#}\n{total:#}"
    );
    assert_eq!(u["cache_read"].as_u64(), Some(n("cached_input_tokens")));
    assert_eq!(u["output"].as_u64(), Some(n("output_tokens")), "{row:#}");
    assert_eq!(u["reasoning"].as_u64(), Some(n("reasoning_output_tokens")));
}

/// The agent greenroom's record of a spawned row names (`ls --json` does
/// not carry it): `<sidecar dir>/<row id>.json`'s `agent`.
pub fn recorded_agent(c: &Codex, row: &Value) -> Value {
    let id = row["id"].as_str().unwrap();
    let path = c.dir.path().join("sessions").join(format!("{id}.json"));
    let record: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    record["agent"].clone()
}

/// The agents the hooks' records of hand-started agents name (`<sidecar
/// dir>/adopted/*.json` under the user's state folder).
pub fn adopted_agents(c: &Codex) -> Vec<Value> {
    let mut out = Vec::new();
    let mut dirs = vec![c.home().join(".local/state")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if d.ends_with("adopted") && p.extension().is_some_and(|x| x == "json") {
                let record: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
                out.push(record["agent"].clone());
            }
        }
    }
    out
}
