//! Maps the generic frontmatter value onto the model by hand, key by key, so
//! one odd value costs that value and not the whole file.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::time::parse_time;
use super::values::{Reader, short};
use crate::model::{
    Orchestration, Phase, PhaseError, PhaseId, PhaseStatus, TokenCounts, TokenUsage,
};

/// A state file lists a handful of phases; a huge list is hostile or broken,
/// and showing all of it would only slow the UI down.
pub(super) const MAX_PHASES: usize = 1000;

pub(super) const QUOTED_NOTE: &str = "values are wrapped in literal \\\" quotes; read without them";

type Object = Map<String, Value>;

/// The orchestration (its `contradictions` hold what reading noticed) and
/// how many phase entries the file lists, before the cap.
pub(super) fn orchestration(map: &Object) -> (Orchestration, usize) {
    let mut r = Reader::default();
    let mut orch = Orchestration {
        session_id: r.text(map.get("session_id")),
        task: r.text(map.get("task")),
        status: r.text(map.get("status")),
        workflow_mode: r.text(map.get("workflow_mode")),
        current_phase: r.phase_id(map.get("current_phase"), "current_phase"),
        total_phases: r.count(map.get("total_phases"), "total_phases"),
        created: r.text(map.get("created")),
        updated: r.text(map.get("updated")),
        token_usage: token_usage(&mut r, map.get("token_usage")),
        ..Orchestration::default()
    };
    orch.created_at = orch.created.as_deref().and_then(parse_time);
    orch.updated_at = orch.updated.as_deref().and_then(parse_time);
    let (phases, listed) = phases(&mut r, map.get("phases"));
    orch.phases = phases;
    if r.backslash_quoted {
        orch.contradictions.push(QUOTED_NOTE.into());
    }
    orch.contradictions.append(&mut r.notes);
    (orch, listed)
}

fn phases(r: &mut Reader, value: Option<&Value>) -> (Vec<Phase>, usize) {
    let items = match value {
        None | Some(Value::Null) => return (Vec::new(), 0),
        Some(Value::Array(items)) => items,
        Some(other) => {
            r.notes.push(format!(
                "phases is {}, not a list; no phases shown",
                short(other)
            ));
            return (Vec::new(), 0);
        }
    };
    let mut phases = Vec::with_capacity(items.len().min(MAX_PHASES));
    let mut skipped = 0;
    for (index, item) in items.iter().take(MAX_PHASES).enumerate() {
        match item {
            Value::Object(obj) => phases.push(phase(r, obj, index)),
            _ => skipped += 1,
        }
    }
    match skipped {
        0 => {}
        1 => r
            .notes
            .push("1 phase entry is not a mapping; skipped".into()),
        n => r
            .notes
            .push(format!("{n} phase entries are not mappings; skipped")),
    }
    if items.len() > MAX_PHASES {
        r.notes
            .push(format!("only the first {MAX_PHASES} phases are shown"));
    }
    (phases, items.len())
}

fn phase(r: &mut Reader, obj: &Object, index: usize) -> Phase {
    let position = index + 1;
    // A phase without a usable id is named by its position, marked with '#'
    // so it cannot be mistaken for an id the file wrote.
    let id = r
        .phase_id(obj.get("id"), &format!("phase #{position} id"))
        .unwrap_or_else(|| PhaseId::Text(format!("#{position}")));
    let mut agents = r.texts(obj.get("agents"));
    if agents.is_empty() {
        // Hand-written files name one agent under the singular key.
        agents = r.texts(obj.get("agent"));
    }
    let retry_count = r
        .count(obj.get("retry_count"), &format!("phase {id} retry_count"))
        .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX));
    let warnings = match obj.get("downstream_context") {
        Some(Value::Object(context)) => r.texts(context.get("warnings")),
        _ => Vec::new(),
    };
    Phase {
        name: r.text(obj.get("name")),
        // Missing status stays empty rather than being guessed as pending.
        status: r
            .text(obj.get("status"))
            .map_or_else(|| PhaseStatus::Unknown(String::new()), PhaseStatus::from),
        agents,
        errors: errors(r, obj.get("errors")),
        retry_count,
        warnings,
        started: r.text(obj.get("started")),
        completed: r.text(obj.get("completed")),
        id,
    }
}

/// `errors` is a list of entries as the skill records them, or plain strings.
fn errors(r: &mut Reader, value: Option<&Value>) -> Vec<PhaseError> {
    let items = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(items)) => items.as_slice(),
        Some(one) => std::slice::from_ref(one),
    };
    items
        .iter()
        .filter_map(|item| match item {
            Value::Null => None,
            Value::Object(e) => Some(PhaseError {
                agent: r.text(e.get("agent")),
                timestamp: r.text(e.get("timestamp")),
                kind: r.text(e.get("type")),
                message: r.text(e.get("message")),
                resolution: r.text(e.get("resolution")),
                resolved: r.flag(e.get("resolved")),
            }),
            other => Some(PhaseError {
                message: r.text(Some(other)),
                ..PhaseError::default()
            }),
        })
        .collect()
}

fn token_usage(r: &mut Reader, value: Option<&Value>) -> Option<TokenUsage> {
    let obj = match value? {
        Value::Null => return None,
        Value::Object(obj) => obj,
        other => {
            r.notes.push(format!(
                "token_usage is {}, not a mapping; ignored",
                short(other)
            ));
            return None;
        }
    };
    let mut total = |key: &str| {
        r.count(obj.get(key), &format!("token_usage.{key}"))
            .unwrap_or(0)
    };
    let (input, output, cached) = (
        total("total_input"),
        total("total_output"),
        total("total_cached"),
    );
    Some(TokenUsage {
        input,
        output,
        cached,
        by_agent: by_agent(r, obj.get("by_agent")),
    })
}

fn by_agent(r: &mut Reader, value: Option<&Value>) -> BTreeMap<String, TokenCounts> {
    let agents = match value {
        None | Some(Value::Null) => return BTreeMap::new(),
        Some(Value::Object(agents)) => agents,
        Some(other) => {
            r.notes.push(format!(
                "token_usage.by_agent is {}, not a mapping; ignored",
                short(other)
            ));
            return BTreeMap::new();
        }
    };
    let mut out = BTreeMap::new();
    for (name, counts) in agents {
        let Value::Object(counts) = counts else {
            r.notes.push(format!(
                "token_usage.by_agent.{name} is {}, not a mapping; ignored",
                short(counts)
            ));
            continue;
        };
        // Older files omit `cached`: zero, like the skill's empty template.
        let mut count = |key: &str| {
            r.count(
                counts.get(key),
                &format!("token_usage.by_agent.{name}.{key}"),
            )
            .unwrap_or(0)
        };
        let (input, output, cached) = (count("input"), count("output"), count("cached"));
        let name = r.unquote(name).to_owned();
        out.insert(
            name,
            TokenCounts {
                input,
                output,
                cached,
            },
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read(v: Value) -> (Orchestration, usize) {
        match v {
            Value::Object(map) => orchestration(&map),
            _ => panic!("test input must be a mapping"),
        }
    }

    #[test]
    fn phase_reads_singular_agent_string_errors_and_warnings() {
        let (o, listed) = read(json!({"phases": [{
            "id": "2.1.1", "agent": "coder", "status": "failed",
            "errors": ["boom", {"type": "runtime", "message": "x", "resolved": true}],
            "downstream_context": {"warnings": ["w", {"k": 1}], "other": 3},
        }]}));
        assert_eq!(listed, 1);
        let p = &o.phases[0];
        assert_eq!(p.id, PhaseId::Text("2.1.1".into()));
        assert_eq!(p.agents, ["coder"]);
        assert_eq!(p.status, PhaseStatus::Failed);
        assert_eq!(p.errors.len(), 2);
        assert_eq!(p.errors[0].message.as_deref(), Some("boom"));
        assert!(!p.errors[0].resolved);
        assert_eq!(p.errors[1].kind.as_deref(), Some("runtime"));
        assert!(p.errors[1].resolved);
        assert_eq!(p.unresolved_errors(), 1);
        assert_eq!(p.warnings, ["w", "{\"k\":1}"]);
        assert_eq!(p.retry_count, 0);
        assert!(o.contradictions.is_empty());
    }

    #[test]
    fn phase_without_id_or_status_is_not_guessed() {
        let (o, _) = read(json!({"phases": [{"name": "n"}, {"id": 2}]}));
        assert_eq!(o.phases[0].id, PhaseId::Text("#1".into()));
        assert_eq!(o.phases[0].status, PhaseStatus::Unknown(String::new()));
        assert_eq!(o.phases[1].id, PhaseId::Number(2));
    }

    #[test]
    fn token_usage_without_cached_and_with_string_counts() {
        let (o, _) = read(json!({"token_usage": {
            "total_input": "10", "total_output": 4,
            "by_agent": {"a": {"input": 1, "output": 2}, "b": 7},
        }}));
        let t = o.token_usage.unwrap();
        assert_eq!((t.input, t.output, t.cached), (10, 4, 0));
        assert_eq!(t.by_agent.len(), 1);
        assert_eq!(
            t.by_agent["a"],
            TokenCounts {
                input: 1,
                output: 2,
                cached: 0
            }
        );
        assert_eq!(
            o.contradictions,
            ["token_usage.by_agent.b is 7, not a mapping; ignored"]
        );
    }

    #[test]
    fn wrong_shapes_become_notes() {
        let (o, listed) =
            read(json!({"phases": "x", "token_usage": [], "current_phase": {"a": 1}}));
        assert_eq!(listed, 0);
        assert!(o.phases.is_empty() && o.token_usage.is_none() && o.current_phase.is_none());
        assert_eq!(o.contradictions.len(), 3, "{:?}", o.contradictions);
        let (o, listed) = read(json!({"phases": [1, {"id": 1}, "two"]}));
        assert_eq!((listed, o.phases.len()), (3, 1));
        assert_eq!(
            o.contradictions,
            ["2 phase entries are not mappings; skipped"]
        );
    }

    #[test]
    fn phases_are_capped() {
        let many: Vec<Value> = (0..1005).map(|i| json!({"id": i})).collect();
        let (o, listed) = read(json!({ "phases": many }));
        assert_eq!((listed, o.phases.len()), (1005, MAX_PHASES));
        assert_eq!(o.contradictions, ["only the first 1000 phases are shown"]);
    }

    #[test]
    fn quoted_note_is_recorded_once() {
        let (o, _) = read(json!({"status": "\\\"a\\\"", "task": "\\\"b\\\""}));
        assert_eq!(o.status.as_deref(), Some("a"));
        assert_eq!(o.contradictions, [QUOTED_NOTE]);
    }
}
