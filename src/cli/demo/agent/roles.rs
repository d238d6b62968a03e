//! What each role plays: its scene pool and its script, as data. The player
//! (`agent.rs`) knows what a step does; nothing here is code.

use super::Maestro::{Archive, Begin, Complete, Fail, Finish, New, Retry};
use super::Step::{
    self, Commit, DoneTurn, Forever, Hint, Idle, M, Orchestrate, Pause, Permission, Print, Prompt,
    Reply, Report, Say, Scene, Scenes, Train,
};
use super::Task;
use super::scenes::{self, Scene as Pool};

/// A role: the word `greenroom demo-agent` takes, its scenes and its script.
pub(super) struct Role {
    pub name: &'static str,
    pub pool: &'static [Pool],
    pub script: &'static [Step],
}

pub(super) const ROLES: &[Role] = &[
    Role {
        name: "api",
        pool: scenes::API,
        script: API,
    },
    Role {
        name: "web",
        pool: scenes::WEB,
        script: WEB,
    },
    Role {
        name: "docs",
        pool: scenes::DOCS,
        script: DOCS,
    },
    Role {
        name: "infra",
        pool: scenes::INFRA,
        script: INFRA,
    },
    Role {
        name: "tests",
        pool: scenes::TESTS,
        script: TESTS,
    },
    Role {
        name: "data",
        pool: scenes::DATA,
        script: DATA,
    },
    Role {
        name: "mobile",
        pool: scenes::MOBILE,
        script: MOBILE,
    },
    Role {
        name: "ml",
        pool: &[],
        script: ML,
    },
    Role {
        name: "general",
        pool: scenes::GENERAL,
        script: GENERAL,
    },
];

/// The role for a word; an unknown one plays `general`.
pub(super) fn role(name: &str) -> &'static Role {
    ROLES
        .iter()
        .find(|r| r.name == name)
        .unwrap_or(&ROLES[ROLES.len() - 1])
}

const COMPLETE: Step =
    Say("{g}Orchestration complete{R}: 4/4 phases. Archiving the session state.");

/// Active: Maestro orchestrations whose phases advance and whose token
/// usage grows; each completes, is archived, and the next one starts.
const API: &[Step] = &[
    Prompt("/maestro Add cursor-based pagination to the /v2 list endpoints"),
    Forever(&[
        Orchestrate(&Task {
            slug: "v2-cursor-pagination",
            task: "Add cursor-based pagination to the /v2 list endpoints",
            phases: &[
                ("Design the cursor format", "architect"),
                ("Implement cursors in the query layer", "coder"),
                ("Wire pagination into the /v2 handlers", "api-designer"),
                ("Integration tests and OpenAPI docs", "tester"),
            ],
        }),
        COMPLETE,
        Commit("Add cursor-based pagination to the /v2 list endpoints"),
        Pause(2000),
        M(Archive),
        Prompt("/maestro next task from the backlog"),
        Orchestrate(&Task {
            slug: "idempotency-keys",
            task: "Support Idempotency-Key on POST /v2/payments",
            phases: &[
                ("Design key storage and expiry", "architect"),
                ("Implement the idempotency middleware", "coder"),
                ("Security review", "security-engineer"),
                ("Replay and race tests", "tester"),
            ],
        }),
        COMPLETE,
        Commit("Support Idempotency-Key on POST /v2/payments"),
        Pause(2000),
        M(Archive),
        Prompt("/maestro next task from the backlog"),
        Orchestrate(&Task {
            slug: "v2-rate-limit-headers",
            task: "Return RateLimit-* headers from every /v2 endpoint",
            phases: &[
                ("Agree the header format", "architect"),
                ("Expose the limiter's budget", "coder"),
                ("Document the headers", "technical-writer"),
                ("Contract tests", "tester"),
            ],
        }),
        COMPLETE,
        Commit("Return RateLimit-* headers from every /v2 endpoint"),
        Pause(2000),
        M(Archive),
        Prompt("/maestro next task from the backlog"),
    ]),
];

/// What the web agent shows once a command it asked for was allowed.
const RAN_PLAYWRIGHT: &[Step] = &[
    super::Step::Out("Running 12 tests using 1 worker"),
    Print("     {g}✓{R} [webkit] checkout › fills the address by postcode"),
    Pause(400),
    Print("     {g}✓{R} [webkit] checkout › accepts a postcode with a non-breaking space"),
    Pause(400),
    Print("     {g}✓{R} [webkit] checkout › shows an inline error for XX1 1XX"),
    Pause(400),
    Print("     {g}✓{R} [webkit] checkout › keeps the basket after a failed payment"),
    Pause(400),
    super::Step::More("{g}12 passed{R} (8.1s)"),
];

/// Waiting: asks for permission to run a command and waits for the answer.
const WEB: &[Step] = &[
    Prompt("Checkout: valid UK postcodes are rejected on Safari. Find out why and fix it."),
    Scenes(3),
    Forever(&[
        Permission {
            command: "npx playwright test checkout --project=webkit",
            why: "Run the checkout end-to-end tests in WebKit",
            ran: RAN_PLAYWRIGHT,
        },
        Scenes(4),
        Commit("Accept UK postcodes with a non-breaking space (Safari autofill)"),
        Idle,
        Pause(8000),
        Prompt("Looks good. Next: run the whole suite and push."),
        Scenes(2),
        Permission {
            command: "git push -u origin fix/safari-postcode",
            why: "Push the fix branch",
            ran: &[
                super::Step::Out("To github.com:acme/shop.git"),
                super::Step::More(
                    " * [new branch]      fix/safari-postcode -> fix/safari-postcode",
                ),
            ],
        },
        Scenes(4),
        Idle,
        Pause(8000),
        Prompt("Looks good. Next: build it and audit the checkout page."),
        Scenes(2),
        Permission {
            command: "npm run build && npx lighthouse http://localhost:4173/checkout",
            why: "Build and audit the checkout page",
            ran: &[
                super::Step::Out("vite v5.4.2 building for production..."),
                super::Step::More("Performance {g}96{R} · Accessibility {g}100{R}"),
            ],
        },
        Scenes(4),
        Idle,
        Pause(8000),
        Prompt("Looks good. Next: run the whole suite and push."),
        Scenes(2),
    ]),
];

/// Done: a short Maestro orchestration that completes, then idle.
const DOCS: &[Step] = &[
    Prompt("/maestro Document the pagination parameters of the /v2 API"),
    M(New(&Task {
        slug: "v2-pagination-docs",
        task: "Document the pagination parameters of the /v2 API",
        phases: &[
            ("Survey the /v2 handlers", "architect"),
            ("Write docs/api/pagination.md", "technical-writer"),
            ("Check every example against the API", "code-reviewer"),
        ],
    })),
    M(Begin(1)),
    Scene(0),
    Scene(1),
    M(Finish(1)),
    M(Begin(2)),
    Scene(2),
    Scene(3),
    M(Finish(2)),
    M(Begin(3)),
    Scene(4),
    M(Finish(3)),
    M(Complete),
    Commit("Document the pagination parameters of the /v2 API"),
    Print(""),
    Say(
        "{g}Orchestration complete{R}: 3/3 phases · docs/api/pagination.md (+184 lines) · all 41 links OK.",
    ),
    Forever(&[
        Idle,
        Reply,
        Say("The orchestration is finished; making a small follow-up edit."),
        Scene(2),
        DoneTurn("Write"),
    ]),
];

/// Errored: rate-limited mid-phase; the Maestro phase fails with an
/// unresolved error. A line from the operator retries it.
const INFRA: &[Step] = &[
    Prompt("/maestro Upgrade the staging Terraform to AWS provider 5.x"),
    M(New(&Task {
        slug: "aws-provider-5",
        task: "Upgrade the staging Terraform to AWS provider 5.x",
        phases: &[
            ("Plan the provider upgrade", "architect"),
            ("Rewrite modules for provider 5.x", "devops-engineer"),
            ("Apply to staging and verify", "tester"),
        ],
    })),
    M(Begin(1)),
    Scene(0),
    M(Finish(1)),
    M(Begin(2)),
    Scene(1),
    Scene(2),
    Print("  {red}⎿  API Error: 429 rate_limit_error · retrying in 1s (attempt 1/3){R}"),
    Pause(600),
    Print("  {red}⎿  API Error: 429 rate_limit_error · retrying in 2s (attempt 2/3){R}"),
    Pause(600),
    Print("  {red}⎿  API Error: 429 rate_limit_error · retrying in 3s (attempt 3/3){R}"),
    Pause(600),
    Print("{B}{red}✗ Stopped: rate limit exceeded after 3 retries.{R}"),
    M(Fail(
        2,
        "rate_limit",
        "429 rate_limit_error: request tokens exceeded the per-minute rate limit",
    )),
    Report(
        "StopFailure",
        &[
            ("error", "rate_limit"),
            ("error_details", "429 rate_limit_error after 3 retries"),
        ],
    ),
    Hint(&[
        "The agent stopped on an error. In greenroom, select infra-4, press s and",
        "send any line to retry.",
    ]),
    Reply,
    M(Retry(2)),
    Say("Retrying the phase after the rate-limit backoff."),
    Scene(3),
    Scene(4),
    M(Finish(2)),
    M(Begin(3)),
    Scene(4),
    M(Finish(3)),
    M(Complete),
    Say("{g}Orchestration complete{R}: staging plans cleanly on provider 5.31."),
    Forever(&[Idle, Reply, Scene(4), DoneTurn("Bash")]),
];

/// Stuck: reports that it runs a command, then never prints again.
const TESTS: &[Step] = &[
    Prompt("/maestro Make the websocket reconnect tests pass on CI"),
    M(New(&Task {
        slug: "ws-reconnect-ci",
        task: "Make the websocket reconnect tests pass on CI",
        phases: &[
            ("Reproduce the reconnect failure", "debugger"),
            ("Run the integration suite under CI settings", "tester"),
            ("Fix the flaky reconnect path", "coder"),
        ],
    })),
    M(Begin(1)),
    Scene(0),
    M(Finish(1)),
    M(Begin(2)),
    Print("{g}⏺{R} {B}Bash{R}(cargo test --test ws_integration -- --test-threads=1)"),
    super::Step::Out("running 23 tests"),
    super::Step::Pass("ws::connect_and_echo"),
    super::Step::Pass("ws::heartbeat_keeps_alive"),
    super::Step::Pass("ws::backpressure_drops_slow_client"),
    super::Step::Write("     test ws::reconnect_after_server_restart ... "),
    Hint(&[
        "This agent hangs now. With no sign of life for stuck_after (8 s in this",
        "demo, 10 minutes by default) greenroom marks it stuck. Select tests-5,",
        "press s and send a line to nudge it.",
    ]),
    // Reported after its last output: a screen that moved after an Active
    // report and then fell silent reads as a turn that ended (greenroom's
    // silence rule), which would make stuck depend on when a second ticks.
    Report("PreToolUse", &[("tool_name", "Bash")]),
    Reply,
    Say("The reconnect test blocks forever on a socket the server closed; adding a timeout."),
    M(Finish(2)),
    M(Begin(3)),
    Scene(2),
    Scene(3),
    M(Finish(3)),
    M(Complete),
    Forever(&[Idle, Reply, Scene(3), DoneTurn("Bash")]),
];

const DATA_ROUND: Step =
    Say("Done: orders_daily rebuilt (1,204 rows for the last day), tests pass.");

/// Active for half a minute, then idle for a while, then active again.
const DATA: &[Step] = &[
    Prompt("Backfill orders_daily in London time and add a refunds column"),
    Forever(&[
        Scenes(24),
        Commit("Rebuild orders_daily in London time"),
        DATA_ROUND,
        Idle,
        Pause(12_000),
        Prompt("Check late-arriving orders are counted on the right day"),
        Scenes(24),
        Commit("Rebuild orders_daily in London time"),
        DATA_ROUND,
        Idle,
        Pause(12_000),
        Prompt("Add tests for the refunds column"),
        Scenes(24),
        Commit("Rebuild orders_daily in London time"),
        DATA_ROUND,
        Idle,
        Pause(12_000),
        Prompt("Also add a weekly revenue view for finance"),
    ]),
];

/// Idle: did its task and waits at the prompt for the next one.
const MOBILE: &[Step] = &[
    Prompt("Bump the iOS deployment target to 16.0 and fix the new warnings"),
    Scenes(4),
    Say("Deployment target is 16.0 and the build has no warnings. Anything else?"),
    Forever(&[Idle, Reply, Scenes(3), Say("Done.")]),
];

/// Active: a training run printing every epoch, then a config tweak.
const ML: &[Step] = &[
    Prompt("Tune the learning-rate schedule of the small ranking model"),
    Forever(&[Train, Commit("Tune the learning-rate schedule")]),
];

/// A fresh agent from the dashboard's spawn form: waits for a first prompt.
const GENERAL: &[Step] = &[
    Say("Ready. What should I work on? (send a line with s)"),
    Forever(&[Idle, Reply, Scenes(4), Say("Done.")]),
];
