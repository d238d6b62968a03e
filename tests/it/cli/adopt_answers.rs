//! A hand-started agent's prompt answered from greenroom (`greenroom send
//! ID --key …`): the agent fires no hook on a refusal, so greenroom keeps
//! the state the answer leads to in the agent's hooks' record, as it does
//! for its own sessions, until the agent speaks again. No Claude Code
//! record here (its own record hears a refusal too: catalog::answers).

use serde_json::Value;

use super::adopt::{Setup, fixture, with};

const SESSION: &str = "0b0b0b0b-0000-4000-8000-000000000027";

fn report(s: &Setup, pane: &str, name: &str) {
    s.report(Some(pane), &with(fixture(name), "session_id", SESSION));
}

fn row(s: &Setup, pane: &str) -> Value {
    s.row(pane).expect("an adopted row")
}

#[test]
fn escape_from_greenroom_leaves_a_hand_started_row_idle_until_the_agent_speaks() {
    let s = Setup::new();
    let pane = s.hook_window();
    report(&s, &pane, "2.1.328__PermissionRequest__bash");
    report(&s, &pane, "2.1.328__Notification__bash");
    assert_eq!(row(&s, &pane)["health"], "waiting");

    let said = s.greenroom().ok(&["send", &pane, "--key", "Escape"]);
    assert!(said.contains("(it was waiting; now idle)"), "{said}");
    let r = row(&s, &pane);
    assert_eq!(r["health"], "idle", "{r:#}");
    assert_eq!(r["activity"]["source"], "answer", "{r:#}");
    assert_eq!(r["activity"]["detail"], "answered with Escape", "{r:#}");
    assert!(r["activity"]["waiting_for"].is_null(), "{r:#}");

    // The agent's next word replaces greenroom's.
    report(&s, &pane, "agent-deck__UserPromptSubmit");
    let r = row(&s, &pane);
    assert_eq!(r["activity"]["state"], "active", "{r:#}");
    assert_eq!(r["activity"]["source"], "hook", "{r:#}");
}
