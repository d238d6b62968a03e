//! `greenroom demo` end to end, as a newcomer runs it: the built binary in a
//! tmux pane (the test's own private server), keys sent with `send-keys`, the
//! screen read with `capture-pane`. The demo starts a second private tmux
//! server of its own; after `q`, SIGTERM, or its terminal closing, neither
//! that server nor the demo's folder may be left, and nothing may appear in
//! HOME (pointed at an empty folder, with XDG_CONFIG_HOME and XDG_STATE_HOME).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use support::{Pane, TmuxServer, wait_for};

const BIN: &str = env!("CARGO_BIN_EXE_greenroom");

/// One demo at a time: each runs eight agents, and the health deadlines
/// must hold on a small machine.
static ONE_DEMO: Mutex<()> = Mutex::new(());

pub(crate) fn one_demo() -> MutexGuard<'static, ()> {
    ONE_DEMO.lock().unwrap_or_else(|e| e.into_inner())
}

/// The demo running in the test server's session `demo`.
pub(crate) struct DemoRun {
    tmux: TmuxServer,
    /// Holds HOME and the demo's folder; removed last.
    dir: tempfile::TempDir,
    /// The demo's folder (GREENROOM_DEMO_ROOT), which the demo creates.
    pub(crate) root: PathBuf,
    /// The demo's tmux socket: named after its folder.
    socket: String,
}

impl DemoRun {
    /// `greenroom demo` in a 160x48 pane; `wrapped`: run by a shell that
    /// prints its exit status (tmux's own is not always filled in), else run
    /// directly so the pane's pid is the demo's.
    pub(crate) fn start(wrapped: bool) -> Self {
        Self::start_with(wrapped, ("160", "48"), |_| {})
    }

    /// As [`DemoRun::start`], in a pane of `size` (columns, rows), with
    /// `prepare` given HOME before the demo starts.
    pub(crate) fn start_with(
        wrapped: bool,
        size: (&str, &str),
        prepare: impl FnOnce(&Path),
    ) -> Self {
        let dir = tempfile::tempdir().unwrap();
        static DEMOS: AtomicUsize = AtomicUsize::new(0);
        let n = DEMOS.fetch_add(1, Ordering::SeqCst);
        let socket = format!("greenroom-demo-test-{}-{n}", std::process::id());
        let root = dir.path().join(&socket);
        let home = dir.path().join("home");
        std::fs::create_dir(&home).unwrap();
        prepare(&home);
        let env = |key: &str, value: &Path| format!("{key}={}", value.display());
        let tmux = TmuxServer::new();
        let (root_env, home_env) = (env("GREENROOM_DEMO_ROOT", &root), env("HOME", &home));
        let config_env = env("XDG_CONFIG_HOME", &home.join(".config"));
        let state_env = env("XDG_STATE_HOME", &home.join(".local/state"));
        // remain-on-exit keeps the pane after the demo exits, to read its
        // last words.
        let mut args = vec![
            "start-server",
            ";",
            "set-option",
            "-g",
            "remain-on-exit",
            "on",
            ";",
            "new-session",
            "-d",
            "-s",
            "demo",
            "-x",
            size.0,
            "-y",
            size.1,
            "-e",
            &root_env,
            "-e",
            &home_env,
            "-e",
            &config_env,
            "-e",
            &state_env,
        ];
        let command: &[&str] = if wrapped {
            &["sh", "-c", "\"$0\" demo; echo \"[demo exited: $?]\"", BIN]
        } else {
            &[BIN, "demo"]
        };
        args.extend_from_slice(command);
        tmux.run(&args);
        DemoRun {
            tmux,
            dir,
            root,
            socket,
        }
    }

    fn pane(&self) -> Pane<'_> {
        Pane::new(&self.tmux, "demo")
    }

    pub(crate) fn screen(&self) -> String {
        self.pane().text()
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        self.pane().keys(keys);
    }

    /// Waits up to `secs` until the screen satisfies `check`; fails with the screen.
    pub(crate) fn until(&self, secs: u64, what: &str, check: impl Fn(&str) -> bool) -> String {
        self.pane().until(secs, what, check)
    }

    /// Whether any tmux server answers on the demo's socket.
    fn demo_server_runs(&self) -> bool {
        Command::new("tmux")
            .args(["-L", &self.socket, "list-sessions"])
            .output()
            .unwrap()
            .status
            .success()
    }
}

impl Drop for DemoRun {
    /// A failed test must not leave the demo's server behind either.
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// The header line: `greenroom  ✖ 1 errored  ◆ 1 waiting  ...`.
pub(crate) fn header(screen: &str) -> &str {
    screen.lines().next().unwrap_or("")
}

/// The sidebar line the selection marker is on: `│›● api-1 ...`.
/// The selected sidebar line, or "" when the screen shows none (a
/// capture of a frame mid-draw, a filter that has not yet matched): the
/// waits that read it poll on rather than fail at once.
pub(crate) fn selected_line(screen: &str) -> &str {
    screen
        .lines()
        .find(|l| l.chars().nth(1) == Some('›'))
        .unwrap_or("")
}

// The idle and finished agents' turns ended before anyone looked: ready.
const HEALTHS: [&str; 5] = ["errored", "waiting", "stuck", "ready", "active"];

#[test]
fn the_demo_shows_every_health_answers_keys_and_leaves_nothing_behind() {
    let _one = one_demo();
    let demo = DemoRun::start(true);

    // Every health state the demo promises, in the header's counts, within 20 s.
    let screen = demo.until(20, "every health state in the header", |s| {
        HEALTHS.iter().all(|h| header(s).contains(h))
    });
    for name in [
        "api-1", "web-2", "docs-3", "infra-4", "tests-5", "data-6", "mobile-7", "ml-8",
    ] {
        assert!(screen.contains(name), "{name} is missing:\n{screen}");
    }
    assert!(
        screen.contains("Claude needs"),
        "the waiting agent's question:\n{screen}"
    );
    assert!(
        demo.root.join("sessions").is_dir(),
        "the demo keeps its records in its own folder"
    );

    // j and k move the selection. The agents that need you are pinned on
    // top in queue order: web-2 (waiting) first, then infra-4 (errored).
    demo.keys(&["g"]);
    demo.until(5, "web-2 selected", |s| selected_line(s).contains("web-2"));
    demo.keys(&["j"]);
    demo.until(5, "j to select infra-4", |s| {
        selected_line(s).contains("infra-4")
    });
    demo.keys(&["k"]);
    demo.until(5, "k to select web-2 again", |s| {
        selected_line(s).contains("web-2")
    });

    // `/` narrows the list; Esc clears the filter.
    demo.keys(&["/", "i", "n", "f", "r", "a"]);
    demo.until(5, "the filter to narrow the list", |s| {
        s.contains("infra-4") && !s.contains("ml-8") && !s.contains("mobile-7")
    });
    demo.keys(&["Escape"]);
    demo.until(5, "the filter to clear", |s| {
        s.contains("ml-8") && s.contains("mobile-7") && s.contains("infra-4")
    });

    // `?` opens the help and closes it again.
    demo.keys(&["?"]);
    demo.until(5, "the help", |s| {
        s.contains("next session") && s.contains("triage sort")
    });
    demo.keys(&["?"]);
    demo.until(5, "the help to close", |s| {
        !s.contains("triage sort (health first)") && s.contains("ml-8")
    });

    // Tab shows the orchestration tab: docs-3's finished Maestro phases.
    demo.keys(&["/", "d", "o", "c", "s", "-", "3", "Enter"]);
    demo.until(5, "docs-3 selected", |s| {
        selected_line(s).contains("docs-3")
    });
    demo.keys(&["Tab"]);
    demo.until(5, "the orchestration tab with phases", |s| {
        s.contains("Survey the /v2 handlers")
            && s.contains("Write docs/api/pagination.md")
            && s.contains("Check every example against the API")
    });

    // q: the dashboard exits cleanly and the demo removes everything it made.
    demo.keys(&["q"]);
    let screen = demo.until(15, "the demo to exit", |s| s.contains("[demo exited: "));
    assert!(
        screen.contains("[demo exited: 0]"),
        "exit status:\n{screen}"
    );
    let screen = demo.screen();
    assert!(screen.contains("greenroom demo ended"), "{screen}");
    assert!(
        !demo.root.exists(),
        "the demo's folder {} is left",
        demo.root.display()
    );
    assert!(
        !demo.demo_server_runs(),
        "a tmux server still runs on {}",
        demo.socket
    );
    // Nothing was written to the (fake) home: settings, state, log.
    let home: Vec<_> = std::fs::read_dir(demo.dir.path().join("home"))
        .unwrap()
        .collect();
    assert!(home.is_empty(), "the demo wrote into HOME: {home:?}");
}

/// Waits until the demo's agents are on screen.
fn until_running(demo: &DemoRun) {
    demo.until(20, "the demo's agents", |s| {
        s.contains("ml-8") && header(s).contains("active")
    });
}

/// Waits until the demo's folder and tmux server are gone.
fn until_cleaned_up(demo: &DemoRun, what: &str) {
    wait_for(30, what, || {
        (!demo.root.exists() && !demo.demo_server_runs()).then_some(())
    });
}

#[test]
fn sigterm_ends_the_demo_and_cleans_up() {
    let _one = one_demo();
    let demo = DemoRun::start(false);
    until_running(&demo);
    let pid = demo
        .tmux
        .run(&["display-message", "-p", "-t", "=demo:", "#{pane_pid}"]);
    let killed = Command::new("kill")
        .args(["-TERM", pid.trim()])
        .status()
        .unwrap();
    assert!(killed.success());
    demo.until(15, "the demo's last words", |s| {
        s.contains("greenroom demo ended")
    });
    until_cleaned_up(&demo, "the demo to clean up after SIGTERM");
}

#[test]
fn closing_the_terminal_still_cleans_up() {
    let _one = one_demo();
    let demo = DemoRun::start(false);
    until_running(&demo);
    // The terminal goes away under the demo: SIGHUP, and every write fails.
    demo.tmux.kill();
    until_cleaned_up(&demo, "the demo to clean up after its terminal closed");
}

#[test]
fn completions_print_a_script_for_each_shell() {
    let run = |shell: &str| {
        let out = Command::new(BIN)
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "{shell}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let bash = run("bash");
    assert!(bash.contains("_greenroom()"), "{bash}");
    assert!(bash.contains("complete -F _greenroom"), "{bash}");
    for sub in ["demo", "completions", "spawn", "ls", "hooks"] {
        assert!(bash.contains(sub), "bash completion lacks {sub}");
    }
    assert!(run("zsh").starts_with("#compdef greenroom"));
    assert!(run("fish").contains("complete -c greenroom"));
    let bad = Command::new(BIN)
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}
