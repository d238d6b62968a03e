//! Triage on `greenroom demo`, end to end in tmux: `w` visits the agents
//! that need the operator in queue order (waiting, errored, stuck), and `y`
//! answers the waiting agent's permission question without attaching,
//! after which it goes on working.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::e2e::demo::{DemoRun, header, one_demo, selected_line};

/// The name on the selected sidebar line.
fn selected_name(screen: &str) -> String {
    let line = selected_line(screen);
    [
        "web-2", "infra-4", "tests-5", "api-1", "docs-3", "data-6", "mobile-7", "ml-8",
    ]
    .iter()
    .find(|n| line.contains(*n))
    .map(|n| (*n).to_owned())
    .unwrap_or_else(|| panic!("no demo agent on {line:?}"))
}

#[test]
fn w_visits_waiting_errored_stuck_and_y_approves_the_waiting_agent() {
    let _one = one_demo();
    let demo = DemoRun::start(true);
    // The demo's finished agents are ready too (after these in the queue).
    demo.until(30, "waiting, errored and stuck at once", |s| {
        let h = header(s);
        ["errored", "waiting", "stuck"]
            .iter()
            .all(|w| h.contains(w))
    });
    // Pinned on top in queue order.
    let screen = demo.screen();
    let order: Vec<usize> = ["web-2", "infra-4", "tests-5"]
        .iter()
        .map(|n| screen.find(n).unwrap())
        .collect();
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "pinned order:\n{screen}"
    );

    // From the queue's head, w cycles through it in order: waiting,
    // errored, stuck, then the ready ones, and round again.
    let mut seen = Vec::new();
    let mut last = selected_name(&demo.screen());
    for _ in 0..12 {
        demo.keys(&["w"]);
        let before = last.clone();
        let s = demo.until(5, "w to move", |s| selected_name(s) != before);
        last = selected_name(&s);
        seen.push(last.clone());
    }
    let start = seen.iter().position(|n| n == "web-2").unwrap();
    assert_eq!(
        seen[start..start + 3],
        ["web-2", "infra-4", "tests-5"],
        "w visited {seen:?}"
    );
    let again = seen[start + 1..].iter().position(|n| n == "web-2");
    assert!(again.is_some(), "w cycles: {seen:?}");

    // To web-2, the waiting agent; y answers its question with Enter.
    while selected_name(&demo.screen()) != "web-2" {
        let before = selected_name(&demo.screen());
        demo.keys(&["w"]);
        demo.until(5, "w to move", |s| selected_name(s) != before);
    }
    demo.keys(&["y"]);
    demo.until(5, "what was sent, and the state that follows", |s| {
        s.contains("sent Enter to web-2: now active")
    });
    let s = demo.until(15, "web-2 no longer waiting", |s| {
        !header(s).contains("waiting")
    });
    // Errored and stuck still need you (and the ready ones).
    let h = header(&s);
    assert!(h.contains("errored") && h.contains("stuck"), "{h}");
    demo.keys(&["q"]);
    demo.until(15, "the demo to exit", |s| s.contains("[demo exited: 0]"));
}
