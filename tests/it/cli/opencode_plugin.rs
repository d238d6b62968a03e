//! greenroom's OpenCode plugin itself, run under node (CI installs it):
//! valid JavaScript in OpenCode's plugin format (a default export with an
//! `id` and `server()`, which OpenCode 1.18 requires of a plugin file);
//! each event reaches `greenroom report` in order, cut down and bounded,
//! greenroom run without a shell; a missing or stuck greenroom never holds
//! the agent up. A small harness stands in for OpenCode: it loads the
//! plugin as OpenCode does and calls its `event` hook with the events of
//! tests/fixtures/opencode, one per line of its stdin.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use greenroom::hook::install::opencode_plugin::render;
use greenroom::model::Activity;
use serde_json::{Value, json};

use super::opencode_report::event;
use super::report::Session;
use crate::support::wait_for;

/// OpenCode's part: load the plugin, then one event per stdin line; it
/// answers each with how long the hook took, in milliseconds.
const HARNESS: &str = r#"
import { createInterface } from "node:readline"
import { pathToFileURL } from "node:url"
const [file, directory] = process.argv.slice(2)
const plugin = (await import(pathToFileURL(file).href)).default
if (plugin.id !== "greenroom" || typeof plugin.server !== "function") throw new Error("not a plugin")
const hooks = await plugin.server({ directory, worktree: directory })
console.log("loaded")
for await (const line of createInterface({ input: process.stdin })) {
  const start = performance.now()
  await hooks.event({ event: JSON.parse(line) })
  console.log(`took ${Math.round(performance.now() - start)}`)
}
"#;

fn node() -> &'static str {
    let ok = Command::new("node").arg("--version").output();
    assert!(
        ok.is_ok_and(|o| o.status.success()),
        "node is not installed (these tests run greenroom's OpenCode plugin under it)"
    );
    "node"
}

/// The plugin running `greenroom` at `exe`, as an ES module file node takes.
fn plugin_file(dir: &Path, exe: &Path) -> PathBuf {
    let path = dir.join("greenroom.mjs");
    std::fs::write(&path, render(exe).unwrap()).unwrap();
    path
}

struct Harness {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Harness {
    fn start(dir: &Path, plugin: &Path, env: &[(&str, &str)]) -> Self {
        let script = dir.join("harness.mjs");
        std::fs::write(&script, HARNESS).unwrap();
        let mut c = Command::new(node());
        c.arg(&script)
            .arg(plugin)
            .arg("/home/dev/code/shop")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            c.env(k, v);
        }
        let mut child = c.spawn().unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut h = Harness {
            child,
            stdin,
            stdout,
        };
        assert_eq!(h.line(), "loaded");
        h
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        line.trim_end().to_owned()
    }

    /// Hands one event to the plugin; the hook must return at once.
    fn send(&mut self, event: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{event}").unwrap();
        let took = self.line();
        let ms: u64 = took
            .strip_prefix("took ")
            .unwrap_or_else(|| panic!("{took}"))
            .parse()
            .unwrap();
        assert!(ms < 200, "the hook held OpenCode up for {ms} ms");
    }

    /// Closes stdin: OpenCode quits. Node must end soon, and cleanly.
    fn finish(mut self, within: Duration) {
        drop(self.stdin.take());
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                start.elapsed() < within,
                "node did not end within {within:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(self.child.stderr.as_mut().unwrap(), &mut err).unwrap();
        assert!(status.success() && err.is_empty(), "{status}: {err}");
    }
}

#[test]
fn the_plugin_is_javascript_node_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = plugin_file(dir.path(), Path::new("/usr/local/bin/greenroom"));
    let out = Command::new(node())
        .arg("--check")
        .arg(&plugin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The real greenroom, through the plugin: each event lands, in order.
#[test]
fn each_event_reaches_greenroom_in_order() {
    let s = Session::new();
    let dir = tempfile::tempdir().unwrap();
    let plugin = plugin_file(dir.path(), Path::new(env!("CARGO_BIN_EXE_greenroom")));
    let id = s.id.to_string();
    let sidecars = s.store.dir().to_str().unwrap().to_owned();
    let log = s.log();
    let env = [
        ("GREENROOM_SESSION_ID", id.as_str()),
        ("GREENROOM_SIDECAR_DIR", sidecars.as_str()),
        ("GREENROOM_LOG", log.to_str().unwrap()),
    ];
    let mut h = Harness::start(dir.path(), &plugin, &env);
    let wait = |what: &str, want: Activity| {
        wait_for(10, what, || {
            let sc = s.sidecar();
            (sc.activity == Some(want.clone())).then_some(sc)
        })
    };
    h.send(&event("session.created"));
    h.send(&event("session.created__subagent"));
    h.send(&event("session.status__busy"));
    let sc = wait("busy: active", Activity::Active);
    assert_eq!(
        sc.agent_session_id.as_deref(),
        Some("ses_1f3c9a8e2ffeQ7xWmB4kLpZ0aD")
    );
    assert_eq!(
        sc.current_cwd.as_deref(),
        Some("/home/dev/code/shop".as_ref())
    );

    // Asked and answered at once: the answer still comes last.
    h.send(&event("permission.asked__bash"));
    h.send(&event("permission.replied__once"));
    // The subagent's own status is its parent's business.
    let mut sub_idle = event("session.idle");
    sub_idle["properties"]["sessionID"] = json!("ses_1f3c9a8e5a01Tt6uVw2xYz3AbC");
    h.send(&sub_idle);
    h.send(&event("permission.asked__bash"));
    let sc = wait("asked: waiting", Activity::AwaitingInput);
    let call = sc.activity_tool.unwrap();
    assert_eq!(call.tool.as_deref(), Some("bash"));
    assert_eq!(
        call.command.as_deref(),
        Some("rm -rf build/* && npm run build")
    );
    h.send(&event("permission.replied__once"));
    wait("replied: active", Activity::Active);
    // A question, with its choices' labels (not their descriptions). The
    // reports before it may still be on their way: waited for by its words.
    h.send(&event("question.asked"));
    let sc = wait_for(10, "a question: waiting", || {
        let sc = s.sidecar();
        let asks = sc
            .activity_tool
            .as_ref()
            .is_some_and(|c| c.question.is_some());
        asks.then_some(sc)
    });
    assert_eq!(sc.activity, Some(Activity::AwaitingInput));
    let call = sc.activity_tool.unwrap();
    assert_eq!(
        call.question.as_deref(),
        Some("Which database should the shop use?")
    );
    assert_eq!(call.options, ["PostgreSQL", "SQLite"]);
    h.send(&event("question.replied"));
    wait("answered: active", Activity::Active);
    h.send(&event("session.error"));
    let sc = wait("an error", Activity::Error);
    assert_eq!(
        sc.activity_detail.as_deref(),
        Some("Incorrect API key provided")
    );
    h.send(&event("session.idle"));
    wait("idle", Activity::Idle);
    h.finish(Duration::from_secs(5));
    let log = std::fs::read_to_string(s.log()).unwrap_or_default();
    assert!(log.is_empty(), "{log}");
}

/// A stand-in for greenroom that keeps its arguments and stdin, in a
/// folder whose name a shell would act on.
fn recorder(dir: &Path) -> (PathBuf, PathBuf) {
    let folder = dir.join("it's $(touch PWNED) `touch PWNED` here");
    std::fs::create_dir_all(&folder).unwrap();
    let exe = folder.join("greenroom");
    let out = dir.join("reports.txt");
    let script = format!(
        "#!/bin/sh\nprintf 'ARGS %s|%s\\n' \"$#\" \"$*\" >> '{out}'\ncat >> '{out}'\necho >> '{out}'\n",
        out = out.display()
    );
    std::fs::write(&exe, script).unwrap();
    let mut perms = std::fs::metadata(&exe).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&exe, perms).unwrap();
    (exe, out)
}

#[test]
fn the_plugin_sends_little_and_runs_greenroom_without_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let (exe, out) = recorder(dir.path());
    let plugin = plugin_file(dir.path(), &exe);
    let mut h = Harness::start(dir.path(), &plugin, &[]);
    let mut huge = event("permission.asked__bash");
    huge["properties"]["metadata"]["command"] = json!("x".repeat(100_000));
    huge["properties"]["patterns"] = json!(vec!["p"; 1000]);
    let other = json!({"id": "evt_1", "type": "message.part.updated",
                       "properties": {"sessionID": "ses_1f3c9a8e2ffeQ7xWmB4kLpZ0aD"}});
    for e in [event("permission.asked__edit"), huge, other] {
        h.send(&e);
    }
    let text = wait_for(10, "two reports", || {
        let text = std::fs::read_to_string(&out).ok()?;
        let done = text.matches("ARGS ").count() == 2 && text.lines().count() == 4;
        (done && text.ends_with('\n')).then_some(text)
    });
    h.finish(Duration::from_secs(5));
    assert!(!dir.path().join("PWNED").exists() && !Path::new("PWNED").exists());
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines[0], "ARGS 1|report");
    let edit: Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(
        edit,
        json!({"type": "permission.asked", "directory": "/home/dev/code/shop", "subagent": false,
               "properties": {"id": "per_1f3c9a8e4a04Ff8hJk8LmN9oPr",
                   "sessionID": "ses_1f3c9a8e2ffeQ7xWmB4kLpZ0aD", "permission": "edit",
                   "patterns": ["src/cart.ts"],
                   "metadata": {"filepath": "/home/dev/code/shop/src/cart.ts"}}})
    );
    assert_eq!(lines[2], "ARGS 1|report");
    assert!(lines[3].len() < 4096, "{} bytes", lines[3].len());
    let big: Value = serde_json::from_str(lines[3]).unwrap();
    assert_eq!(
        big["properties"]["metadata"]["command"]
            .as_str()
            .unwrap()
            .len(),
        2000
    );
    assert_eq!(big["properties"]["patterns"].as_array().unwrap().len(), 16);
}

/// A slow report holds the next one back: a permission asked and answered
/// at once must not read as still waiting.
#[test]
fn reports_keep_the_order_of_the_events() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("slow-greenroom");
    let out = dir.path().join("order.txt");
    let script = format!(
        "#!/bin/sh\nbody=$(cat)\ncase \"$body\" in *permission.asked*) sleep 0.5;; esac\n\
         printf '%s\\n' \"$body\" >> '{}'\n",
        out.display()
    );
    std::fs::write(&exe, script).unwrap();
    let mut perms = std::fs::metadata(&exe).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&exe, perms).unwrap();
    let plugin = plugin_file(dir.path(), &exe);
    let mut h = Harness::start(dir.path(), &plugin, &[]);
    for name in [
        "permission.asked__bash",
        "permission.replied__once",
        "session.idle",
    ] {
        h.send(&event(name));
    }
    let text = wait_for(10, "three reports", || {
        let text = std::fs::read_to_string(&out).ok()?;
        (text.lines().count() == 3).then_some(text)
    });
    h.finish(Duration::from_secs(5));
    let types: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["type"].to_string())
        .collect();
    assert_eq!(
        types,
        [
            "\"permission.asked\"",
            "\"permission.replied\"",
            "\"session.idle\""
        ]
    );
}

#[test]
fn a_missing_or_stuck_greenroom_never_holds_opencode_up() {
    let dir = tempfile::tempdir().unwrap();
    let gone = plugin_file(dir.path(), &dir.path().join("no/such/greenroom"));
    let mut h = Harness::start(dir.path(), &gone, &[]);
    for name in [
        "session.status__busy",
        "permission.asked__bash",
        "session.idle",
    ] {
        h.send(&event(name));
    }
    h.finish(Duration::from_secs(5));

    let stuck = dir.path().join("stuck");
    let pid = dir.path().join("stuck.pid");
    let script = format!("#!/bin/sh\necho $$ > '{}'\nexec sleep 600\n", pid.display());
    std::fs::write(&stuck, script).unwrap();
    let mut perms = std::fs::metadata(&stuck).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&stuck, perms).unwrap();
    let sub = tempfile::tempdir().unwrap();
    let plugin = plugin_file(sub.path(), &stuck);
    let mut h = Harness::start(sub.path(), &plugin, &[]);
    for _ in 0..100 {
        h.send(&event("session.status__busy"));
    }
    // OpenCode may quit while a report hangs: nothing keeps it.
    h.finish(Duration::from_secs(5));
    let pid = wait_for(5, "the stuck report's pid", || {
        std::fs::read_to_string(&pid)
            .ok()
            .filter(|p| p.ends_with('\n'))
    });
    let _ = Command::new("kill").arg(pid.trim()).status();
}
