//! API errors: greenroom says why, in Claude Code's own words.

use super::harness::Claude;
use super::health;
use super::standin::{Reply, StandIn};
use crate::it_support::wait_for;

/// An HTTP 400 from the API: Claude Code says `API Error: 400 <message>`;
/// greenroom's row is errored with those words (StopFailure's payload says
/// only `error: "unknown"`), in `ls --json` and on the dashboard.
#[test]
fn an_api_error_shows_claude_codes_own_words() {
    let api = StandIn::start();
    let message = "greenroom stand-in refuses this request";
    api.script([Reply::Error(400, "invalid_request_error", message.into())]);
    let c = Claude::start(api);
    c.prompt("Please fail.");
    let want = format!("API Error: 400 {message}");
    c.pane()
        .until(30, "Claude Code's error line", |s| s.contains(&want));
    let r = c.until_row(20, "the session errored", |r| health(r) == "errored");
    assert_eq!(r["activity"]["state"], "error");
    assert_eq!(
        r["activity"]["detail"].as_str(),
        Some(want.as_str()),
        "{r:#}"
    );
    // The row may turn before the hook's payload is on record: wait for it.
    let failure = wait_for(10, "Claude Code fires StopFailure", || {
        c.payloads()
            .into_iter()
            .find(|p| p["hook_event_name"] == "StopFailure")
    });
    assert_eq!(
        failure["last_assistant_message"].as_str(),
        Some(want.as_str())
    );
    // The transcript says it too, with error "unknown" beside the words.
    let record = wait_for(10, "the error in the transcript", || {
        c.records()
            .into_iter()
            .find(|r| r["isApiErrorMessage"] == true)
    });
    assert_eq!(record["apiErrorStatus"], 400);
    assert_eq!(
        record["message"]["content"][0]["text"].as_str(),
        Some(want.as_str())
    );
    c.keep("api-error-400");

    // The dashboard: the sidebar row and the detail pane both say why.
    let dash = c.dashboard();
    let screen = dash.until(30, "the error on the dashboard", |s| {
        s.matches("API Error: 400").count() >= 2
    });
    assert!(screen.contains("stand-in"), "{screen}");
}

/// HTTP 429 (with the API's `x-should-retry: false`, so Claude Code does
/// not wait out its ten attempts): the row is errored with Claude Code's
/// words and the kind (`rate_limit`) its StopFailure names.
#[test]
fn a_rate_limit_shows_its_words_and_kind() {
    let api = StandIn::start();
    let message = "greenroom stand-in: slow down";
    api.script([Reply::Error(429, "rate_limit_error", message.into())]);
    let c = Claude::start(api.clone());
    c.prompt("Too fast.");
    let r = c.until_row(60, "the session errored", |r| health(r) == "errored");
    // The row may turn before the hook's payload is on record: wait for it.
    let failure = wait_for(10, "Claude Code fires StopFailure", || {
        c.payloads()
            .into_iter()
            .find(|p| p["hook_event_name"] == "StopFailure")
    });
    eprintln!(
        "429 after {} requests: {failure:#}\nrow: {:#}",
        api.turns(),
        r["activity"]
    );
    let detail = r["activity"]["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("429"), "{detail}");
    assert!(detail.contains(message), "{detail}");
    assert!(detail.contains("rate_limit"), "{detail}");
    assert_eq!(failure["error"], "rate_limit");
    c.keep("rate-limit-429");
}
