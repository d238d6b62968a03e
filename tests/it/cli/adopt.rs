//! Agents greenroom did not start: `greenroom report` run by user-level
//! hooks in a plain tmux pane (no `GREENROOM_SESSION_ID`), with recorded
//! payloads, and what `ls --json` then shows; discovery from the poll
//! alone; kill on such a row.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::actions::Greenroom;
use crate::support::{TmuxServer, World, wait_for};

const PAYLOADS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/claude-hook-payloads"
);

pub(super) fn fixture(name: &str) -> Value {
    let path = std::fs::read_dir(PAYLOADS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains(name))
        .unwrap_or_else(|| panic!("no fixture {name}"));
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A user's tmux server with a plain session `work` (not greenroom's).
pub(super) struct Setup {
    pub(super) world: World,
    pub(super) tmux: TmuxServer,
    socket: String,
    /// Panes whose program runs the lines written to a FIFO, by pane id:
    /// where an agent's hooks run `greenroom report`.
    hook_panes: std::cell::RefCell<std::collections::HashMap<String, std::path::PathBuf>>,
    reports: std::cell::Cell<usize>,
}

impl Setup {
    pub(super) fn new() -> Self {
        let world = World::new();
        let tmux = TmuxServer::new();
        tmux.spawn("work", &["sleep", "600"]);
        let socket = tmux
            .run(&["display-message", "-p", "#{socket_path}"])
            .trim()
            .to_owned();
        Setup {
            world,
            tmux,
            socket,
            hook_panes: Default::default(),
            reports: Default::default(),
        }
    }

    pub(super) fn greenroom(&self) -> Greenroom<'_> {
        Greenroom::new(&self.world, &self.tmux)
    }

    /// A new window of `work` running `argv`; returns its pane id.
    pub(super) fn window(&self, argv: &[&str]) -> String {
        let mut args = vec!["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "work:"];
        args.extend_from_slice(argv);
        self.tmux.run(&args).trim().to_owned()
    }

    /// A new window of `work` whose program stands for an agent: it runs
    /// each line written to its FIFO, as an agent runs its hooks. It is a
    /// copy of `sh` named `agent-host` (tmux shows that name: neither a
    /// shell nor an agent). Returns its pane id.
    pub(super) fn hook_window(&self) -> String {
        let n = self.hook_panes.borrow().len();
        let fifo = self.world.path(&format!("hooks-{n}.fifo"));
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let host = self.world.path("agent-host");
        if !host.exists() {
            std::fs::copy("/bin/sh", &host).unwrap();
        }
        // Opened for reading and writing, so it never reads an end.
        let script = format!(
            "exec 3<> {f}; while IFS= read -r line <&3; do sh -c \"$line\"; done",
            f = greenroom::ops::shell_quote(fifo.to_str().unwrap())
        );
        let pane = self.window(&[host.to_str().unwrap(), "-c", &script]);
        self.hook_panes.borrow_mut().insert(pane.clone(), fifo);
        pane
    }

    /// The shell line a hook runs: `greenroom report` with the environment
    /// tmux gives a pane (`TMUX_PANE` as given), no greenroom session, the
    /// payload on stdin; its exit code, stdout and stderr go to files.
    /// Returns the line and the file its exit code goes to.
    pub(super) fn report_line(
        &self,
        tmux_pane: Option<&str>,
        payload: &Value,
    ) -> (String, std::path::PathBuf) {
        self.report_line_with(tmux_pane, &[], Some(payload))
    }

    /// As [`Setup::report_line`], with `args` after `report`; without a
    /// payload stdin is /dev/null, as Codex runs its `notify` program.
    pub(super) fn report_line_with(
        &self,
        tmux_pane: Option<&str>,
        args: &[&str],
        payload: Option<&Value>,
    ) -> (String, std::path::PathBuf) {
        let q = |p: &Path| greenroom::ops::shell_quote(p.to_str().unwrap());
        let n = self.reports.get();
        self.reports.set(n + 1);
        let input = match payload {
            Some(payload) => {
                let input = self.world.path(&format!("report-{n}.json"));
                std::fs::write(&input, payload.to_string()).unwrap();
                input
            }
            None => std::path::PathBuf::from("/dev/null"),
        };
        let args: Vec<String> = args
            .iter()
            .map(|a| greenroom::ops::shell_quote(a))
            .collect();
        let done = self.world.path(&format!("report-{n}.done"));
        let out = self.world.path(&format!("report-{n}.out"));
        let mut env = vec![
            format!("HOME={}", q(self.world.dir.path())),
            format!("GREENROOM_SIDECAR_DIR={}", q(&self.world.path("sessions"))),
            format!("GREENROOM_LOG={}", q(&self.world.path("greenroom.log"))),
            format!(
                "TMUX={}",
                greenroom::ops::shell_quote(&format!("{},1,0", self.socket))
            ),
        ];
        if let Some(pane) = tmux_pane {
            env.push(format!("TMUX_PANE={}", greenroom::ops::shell_quote(pane)));
        }
        let line = format!(
            "env -i {env} {bin} report {args} < {input} > {out} 2>&1; echo $? > {done}",
            env = env.join(" "),
            args = args.join(" "),
            bin = q(Path::new(env!("CARGO_BIN_EXE_greenroom"))),
            input = q(&input),
            out = q(&out),
            done = q(&done),
        );
        (line, done)
    }

    /// Waits for a report started with [`Setup::report_line`] to end well.
    pub(super) fn report_done(&self, done: &Path) {
        let code = wait_for(10, "the report to end", || {
            std::fs::read_to_string(done)
                .ok()
                .filter(|t| t.ends_with('\n'))
        });
        let out = std::fs::read_to_string(done.with_extension("out")).unwrap_or_default();
        assert_eq!(code, "0\n", "{out}");
        assert!(out.is_empty(), "{out}");
    }

    /// `greenroom report` as a hook runs it: inside `from` (a pane made by
    /// [`Setup::hook_window`]), with `TMUX_PANE` as given.
    fn report_in(&self, from: &str, tmux_pane: Option<&str>, payload: &Value) {
        let (line, done) = self.report_line(tmux_pane, payload);
        self.run_in(from, &line);
        self.report_done(&done);
    }

    /// Runs a shell line inside `from` (a pane made by
    /// [`Setup::hook_window`]), as the agent there runs its hooks.
    pub(super) fn run_in(&self, from: &str, line: &str) {
        let fifo = self.hook_panes.borrow()[from].clone();
        let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
        writeln!(f, "{line}").unwrap();
    }

    /// `greenroom report` as a hook runs it in `pane`: from inside the pane
    /// when it is a hook window, else from this test (outside any pane).
    pub(super) fn report(&self, pane: Option<&str>, payload: &Value) {
        if let Some(p) = pane.filter(|p| self.hook_panes.borrow().contains_key(*p)) {
            return self.report_in(p, pane, payload);
        }
        let mut c = Command::new(env!("CARGO_BIN_EXE_greenroom"));
        c.arg("report")
            .env_clear()
            .env("HOME", self.world.dir.path())
            .env("GREENROOM_SIDECAR_DIR", self.world.path("sessions"))
            .env("GREENROOM_LOG", self.world.path("greenroom.log"))
            .env("TMUX", format!("{},1,0", self.socket))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(pane) = pane {
            c.env("TMUX_PANE", pane);
        }
        let mut child = c.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(payload.to_string().as_bytes()).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
        assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    }

    fn rows(&self) -> Vec<Value> {
        let out = self.greenroom().ok(&["ls", "--json"]);
        let v: Value = serde_json::from_str(&out).unwrap();
        v["sessions"].as_array().unwrap().clone()
    }

    pub(super) fn row(&self, pane: &str) -> Option<Value> {
        self.rows().into_iter().find(|r| r["id"] == pane)
    }

    fn adopted_files(&self) -> usize {
        self.json_files("sessions/adopted")
    }

    fn archived_adopted_files(&self) -> usize {
        self.json_files("sessions/adopted/archive")
    }

    fn json_files(&self, dir: &str) -> usize {
        std::fs::read_dir(self.world.path(dir))
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
                    .count()
            })
            .unwrap_or(0)
    }
}

pub(super) fn with(mut payload: Value, key: &str, value: &str) -> Value {
    payload[key] = Value::String(value.to_owned());
    payload
}

#[test]
fn a_hook_in_a_plain_pane_is_adopted_by_its_pane() {
    let s = Setup::new();
    let pane = s.hook_window();
    let start = fixture("SessionStart__startup");
    s.report(Some(&pane), &start);
    let row = s.row(&pane).expect("an adopted row");
    assert_eq!(row["source"], "tmux");
    assert_eq!(row["name"], "claude@work");
    assert_eq!(row["tmux_session"], "work");
    assert_eq!(row["status"], "Running");
    assert_eq!(row["activity"]["state"], "idle");
    assert_eq!(row["activity"]["reported"], true);
    assert_eq!(row["agent_session_id"], start["session_id"]);
    assert_eq!(row["cwd"], "/Users/alice/code/scratch");
    assert_eq!(row["adopted"]["pane"], pane.as_str());
    assert_eq!(row["adopted"]["hooks"], true);

    let prompt = with(
        fixture("agent-deck__UserPromptSubmit"),
        "session_id",
        start["session_id"].as_str().unwrap(),
    );
    s.report(Some(&pane), &prompt);
    let row = s.row(&pane).unwrap();
    assert_eq!(row["activity"]["state"], "active");
    assert_eq!(row["health"], "active");

    // Another agent session in the same pane replaces what the row said.
    let other = "0b0b0b0b-0000-4000-8000-000000000002";
    s.report(Some(&pane), &with(start.clone(), "session_id", other));
    let row = s.row(&pane).unwrap();
    assert_eq!(row["agent_session_id"], other);
    assert_eq!(row["activity"]["state"], "idle");

    // The agent ends its session: the row says so and stays, until the
    // operator dismisses it (its record goes to the adopted archive).
    s.report(
        Some(&pane),
        &with(fixture("SessionEnd__other"), "session_id", other),
    );
    let row = s.row(&pane).expect("the ended agent's row");
    assert_eq!(row["status"], "Exited");
    assert_eq!(row["health"], "exited");
    assert_eq!(row["activity"]["detail"], "agent session ended (other)");
    assert_eq!(s.rows().len(), 1);
    let said = s.greenroom().ok(&["dismiss", &pane, "--yes"]);
    assert!(said.contains("dismissed claude@work"), "{said}");
    assert!(s.row(&pane).is_none(), "{:#?}", s.rows());
    assert_eq!(s.adopted_files(), 0);
    assert_eq!(s.archived_adopted_files(), 1);
}

/// `TMUX_PANE` is only what the reporter's environment says: a report that
/// names a pane it does not run in (the operator's own, the dashboard's)
/// makes no row there, so no `y`, `s` or `x` can reach that pane.
#[test]
fn a_report_naming_a_pane_it_does_not_run_in_makes_no_row() {
    let s = Setup::new();
    let agent = s.hook_window();
    let operator = s.window(&["sleep", "600"]);
    let start = fixture("SessionStart__startup");
    let waiting = fixture("PermissionRequest__bash-permission");
    // From another pane's agent, and from outside tmux's panes altogether.
    s.report_in(&agent, Some(&operator), &start);
    s.report_in(&agent, Some(&operator), &waiting);
    assert!(s.row(&operator).is_none(), "{:#?}", s.rows());
    s.report(Some(&operator), &waiting);
    assert!(s.rows().is_empty(), "{:#?}", s.rows());
    let err = s.greenroom().refused(&["kill", &operator, "--yes"]);
    assert!(err.contains("no session matches"), "{err}");
    assert!(
        s.tmux
            .run(&["list-panes", "-a", "-F", "#{pane_id}"])
            .contains(&operator)
    );

    // The same reports from inside the pane they name make its row.
    s.report_in(&agent, Some(&agent), &start);
    s.report_in(&agent, Some(&agent), &waiting);
    let row = s.row(&agent).expect("the agent's row");
    assert_eq!(row["health"], "waiting", "{row:#}");
    assert_eq!(row["adopted"]["hooks"], true);
    assert_eq!(s.rows().len(), 1, "{:#?}", s.rows());
}

#[test]
fn a_hook_outside_tmux_or_with_a_bad_pane_leaves_nothing() {
    let s = Setup::new();
    let start = fixture("SessionStart__startup");
    s.report(None, &start);
    for bad in ["12", "%", "%1;kill-server", "%#{pane_id}", "%1 "] {
        s.report(Some(bad), &start);
    }
    assert_eq!(s.adopted_files(), 0);
    assert!(!s.world.path("greenroom.log").exists(), "dropped quietly");
    assert!(s.rows().is_empty());
}

#[test]
fn a_closed_pane_ends_its_row() {
    let s = Setup::new();
    let pane = s.hook_window();
    s.report(Some(&pane), &fixture("SessionStart__startup"));
    assert!(s.row(&pane).is_some());
    s.tmux.run(&["kill-pane", "-t", &pane]);
    assert!(s.row(&pane).is_none());
}

/// A copy of `sleep` named like an agent: tmux reads its argv[0].
pub(super) fn fake_agent(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    std::fs::copy("/bin/sleep", &path).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn agents_without_hooks_are_discovered_from_the_poll() {
    let s = Setup::new();
    let claude = fake_agent(s.world.dir.path(), "claude");
    let claude_pane = s.window(&[&claude, "600"]);
    // Gemini CLI runs under node: tmux says `node`, its argv says gemini.
    let script = s.world.path("gemini.js");
    std::fs::write(&script, "setInterval(() => {}, 1000);\n").unwrap();
    let gemini_pane = s.window(&["node", script.to_str().unwrap()]);
    let other = s.window(&["node", "-e", "setInterval(() => {}, 1000)"]);
    let rows = wait_for(10, "both agents discovered", || {
        let rows = s.rows();
        (rows.len() >= 2).then_some(rows)
    });
    assert_eq!(rows.len(), 2, "{rows:#?}");
    let row = |pane: &str| rows.iter().find(|r| r["id"] == pane).unwrap();
    let c = row(&claude_pane);
    assert_eq!(c["source"], "tmux");
    assert_eq!(c["name"], "claude@work");
    assert_eq!(c["adopted"]["hooks"], false);
    assert_eq!(
        c["activity"]["detail"],
        "no hooks: install them with `greenroom hooks install --agent claude`"
    );
    assert_eq!(c["activity"]["reported"], false);
    let g = row(&gemini_pane);
    assert_eq!(g["name"], "gemini@work");
    assert_eq!(
        g["cwd"],
        std::env::current_dir().unwrap().to_str().unwrap(),
        "the agent's own folder"
    );
    assert!(rows.iter().all(|r| r["id"] != other.as_str()));
}

#[test]
fn greenroom_sessions_are_not_adopted_twice() {
    let s = Setup::new();
    let claude = fake_agent(s.world.dir.path(), "claude");
    let cwd = s.world.dir.path().to_str().unwrap().to_owned();
    s.greenroom()
        .ok(&["spawn", "-n", "mine", "--cwd", &cwd, "--", &claude, "600"]);
    let rows = s.rows();
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0]["source"], "greenroom");
}

#[test]
fn kill_on_an_adopted_row_closes_only_its_pane() {
    let s = Setup::new();
    let claude = fake_agent(s.world.dir.path(), "claude");
    let pane = s.window(&[&claude, "600"]);
    s.report(Some(&pane), &fixture("SessionStart__startup"));
    let shell_pane = s.window(&["sleep", "600"]);
    let windows = |s: &Setup| {
        s.tmux
            .run(&["list-windows", "-t", "work", "-F", "#{pane_id}"])
    };
    assert_eq!(windows(&s).lines().count(), 3);
    s.greenroom().ok(&["kill", &pane, "--yes"]);
    let left = windows(&s);
    assert_eq!(left.lines().count(), 2, "{left}");
    assert!(!left.contains(&format!("{pane}\n")), "{left}");
    assert!(left.contains(&shell_pane), "{left}");
    assert!(s.row(&pane).is_none());
    // Restore and dismiss are not offered: it is not greenroom's session.
    let pane2 = s.window(&[&claude, "600"]);
    wait_for(10, "the second agent", || s.row(&pane2));
    for args in [vec!["restore", &pane2], vec!["dismiss", &pane2, "--yes"]] {
        let verb = args[0];
        let err = s.greenroom().refused(&args);
        assert!(err.contains("adopted"), "{verb}: {err}");
    }
}

#[test]
fn start_up_removes_the_records_of_closed_panes_only() {
    let s = Setup::new();
    let gone = s.hook_window();
    let kept = s.hook_window();
    let start = fixture("SessionStart__startup");
    s.report(Some(&gone), &start);
    s.report(Some(&kept), &start);
    assert_eq!(s.adopted_files(), 2);
    s.tmux.run(&["kill-pane", "-t", &gone]);
    let config = s.world.config(Some(&s.tmux), &[]);
    let mut engine = greenroom::engine::Engine::load(&config, false, |_| {}).unwrap();
    engine.recover();
    assert_eq!(s.adopted_files(), 1);
    let rows = engine.rows(chrono::Utc::now());
    let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, [kept.as_str()]);
}

#[test]
fn an_agent_that_exits_without_its_hook_is_shown_died_until_dismissed() {
    let s = Setup::new();
    let claude = fake_agent(s.world.dir.path(), "claude");
    // A shell, then the agent started from it, as a person would; its
    // hook reports from inside the pane.
    let pane = s.window(&["sh"]);
    let (report, done) = s.report_line(Some(&pane), &fixture("SessionStart__startup"));
    let typed = format!("({report}) & {claude} 600");
    s.tmux.run(&["send-keys", "-t", &pane, &typed, "Enter"]);
    s.report_done(&done);
    wait_for(10, "the agent in front", || {
        s.row(&pane).filter(|r| r["adopted"]["hooks"] == true)
    });
    // Killed: no SessionEnd; the pane is back at its shell. The row says
    // the agent died, and stays until dismissed.
    s.tmux.run(&["send-keys", "-t", &pane, "C-c", ""]);
    let row = wait_for(10, "the row to say the agent died", || {
        s.row(&pane).filter(|r| r["health"] == "errored")
    });
    assert_eq!(row["status"], "Exited", "{row:#}");
    assert_eq!(
        row["activity"]["detail"],
        "died without ending its session (killed or crashed): back at the shell"
    );
    // Nothing of a live agent is offered: no keys reach the shell.
    let err = s.greenroom().refused(&["send", &pane, "--key", "Enter"]);
    assert!(err.contains("not running"), "{err}");
    s.greenroom().ok(&["dismiss", &pane, "--yes"]);
    assert!(s.row(&pane).is_none(), "{:#?}", s.rows());
}

#[test]
fn send_types_into_the_adopted_pane_not_the_session_s_current_one() {
    let s = Setup::new();
    let dir = s.world.dir.path();
    let claude = dir.join("claude");
    std::fs::copy("/bin/cat", &claude).unwrap();
    let pane = s.window(&[claude.to_str().unwrap()]);
    // The user is looking at another window of the same session.
    s.tmux.run(&["select-window", "-t", "=work:0"]);
    wait_for(10, "the agent discovered", || s.row(&pane));
    s.greenroom().ok(&["send", &pane, "hello from greenroom"]);
    let text = |t: &str| s.tmux.run(&["capture-pane", "-p", "-t", t]);
    wait_for(10, "the text in the agent's pane", || {
        text(&pane).contains("hello from greenroom").then_some(())
    });
    assert!(!text("=work:0").contains("hello from greenroom"));
}

/// The dashboard learns of changes from tmux's events rather than a poll
/// every second: an agent started in a plain pane shows at once (not at the
/// 30 s reconcile) through the output it draws when it starts, as real
/// agents do (the subscription watches window activity, not every pane's
/// program, which would cost tmux a /proc read per pane each second).
#[test]
fn the_dashboard_shows_an_agent_started_in_a_plain_pane_at_once() {
    let s = Setup::new();
    let claude = s.world.path("claude");
    // A program named `claude` that draws a greeting and waits (tail -f):
    // tmux names a pane's program by its binary, as with the real agent.
    std::fs::copy("/usr/bin/tail", &claude).unwrap();
    let greeting = s.world.path("greeting");
    std::fs::write(&greeting, "Welcome to the agent\n").unwrap();
    let pane = s.window(&["sh"]);
    // Listening on any tmux (tmux before 3.7 is polled by default).
    std::fs::write(s.world.path("config.toml"), "tmux_events = true\n").unwrap();
    // On a server of its own: its own redraws must not be what moves.
    let driver = TmuxServer::new();
    let log = s.world.path("greenroom.log");
    let dash = s
        .world
        .dashboard(&s.tmux, &driver, (160, 40), &[("GREENROOM_LOG", &log)]);
    dash.until(15, "the dashboard", |t| t.contains("Sessions"));
    wait_for(10, "the dashboard's event client", || {
        let clients = s
            .tmux
            .run(&["list-clients", "-F", "#{client_control_mode}"]);
        clients.lines().any(|l| l == "1").then_some(())
    });
    // The line typed moves the window at once; the agent starts a second
    // later and draws its greeting.
    s.tmux.run(&[
        "send-keys",
        "-t",
        &pane,
        &format!(
            "sleep 1; exec {} -f {}",
            claude.display(),
            greeting.display()
        ),
        "Enter",
    ]);
    dash.until(10, "the agent's row", |t| t.contains("claude@work"));
}

/// A report whose record stays locked is handed to a copy of itself, which
/// outlives it (and is then no longer its child): the copy read its
/// ancestry while the report waited for it, so its report still counts.
#[test]
fn a_deferred_report_from_inside_the_pane_still_makes_its_row() {
    let s = Setup::new();
    let pane = s.hook_window();
    s.report(Some(&pane), &fixture("SessionStart__startup"));
    assert!(s.row(&pane).is_some());
    let store = greenroom::sources::sidecar::SidecarStore::new(s.world.path("sessions/adopted"));
    let pane_id = greenroom::tmux::PaneId::parse(&pane).unwrap();
    let id = greenroom::sources::adopted::record_id(&s.socket, &pane_id);
    let (held_tx, held_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        store
            .update(id, std::time::Duration::from_secs(5), |r| {
                held_tx.send(()).unwrap();
                release_rx.recv().unwrap();
                // Only what the copy writes can make the row again.
                r.metadata.remove(greenroom::sources::adopted::REPORTER_KEY);
                true
            })
            .unwrap();
    });
    held_rx.recv().unwrap();
    s.report(Some(&pane), &fixture("PermissionRequest__bash-permission"));
    release_tx.send(()).unwrap();
    holder.join().unwrap();
    let row = wait_for(30, "the deferred report's row", || {
        s.row(&pane).filter(|r| r["health"] == "waiting")
    });
    assert_eq!(row["adopted"]["hooks"], true);
}
