//! Delivering the reducer's notices; nothing here decides whether or when.
//! To the dashboard's terminal: a desktop notification by OSC 777 and
//! OSC 9, wrapped in tmux's passthrough when the dashboard runs in a tmux
//! pane that allows it, else tmux's own message on the operator's clients;
//! the bell when asked. And the `[notify] command`, off the loop, bounded
//! in time and in number, with the event as one JSON object on stdin.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::config::Config;
use crate::process::{Limits, Overflow, Spec};
use crate::tmux::{PaneId, Tmux, host_from_env};
use crate::tui::model::notify::{Notice, NoticeRow};

/// The most characters of a title, a body or a field a notice carries.
const MAX_TEXT: usize = 200;
/// The most notify commands running at once; a notice past it is dropped
/// (and logged) rather than queued behind a hung program.
const MAX_RUNNING: usize = 4;
/// A notify command still running after this long is killed.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// Where the terminal's notification goes.
enum Route {
    /// Not inside tmux: straight to the terminal.
    Terminal,
    /// Inside tmux: through its passthrough when the dashboard's pane
    /// allows it (asked once, off the loop; unknown until tmux answered),
    /// else as a message on the operator's clients.
    Tmux {
        tmux: Tmux,
        passthrough: Arc<OnceLock<bool>>,
    },
}

pub struct Delivery {
    route: Route,
    command: Option<Arc<Vec<String>>>,
    running: Arc<AtomicUsize>,
}

impl Delivery {
    /// Reads the route from the environment; inside tmux, asks it (once,
    /// off the loop) whether the dashboard's pane passes sequences through.
    pub fn new(config: &Config) -> Self {
        let route = match host_from_env(config.environ.tmux()) {
            None => Route::Terminal,
            Some(tmux) => {
                let passthrough = Arc::new(OnceLock::new());
                let pane = config.environ.tmux_pane().and_then(PaneId::parse);
                let (asker, answer) = (tmux.clone(), Arc::clone(&passthrough));
                let asked = std::thread::Builder::new()
                    .name("passthrough".into())
                    .spawn(move || {
                        let _ = answer.set(pane.is_some_and(|p| asker.passthrough(&p)));
                    });
                if asked.is_err() {
                    let _ = passthrough.set(false);
                }
                Route::Tmux { tmux, passthrough }
            }
        };
        Self {
            route,
            command: Some(Arc::new(config.notify.command.clone())).filter(|c| !c.is_empty()),
            running: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Delivers `notice`: the command first (its latency is the budget),
    /// then the terminal.
    pub fn deliver(&self, notice: &Notice) {
        self.run_command(notice);
        let (title, body) = (inert(&notice.title), inert(&notice.body));
        let mut out: Vec<u8> = Vec::new();
        if notice.bell {
            out.push(0x07);
        }
        match &self.route {
            Route::Terminal => out.extend(osc(&title, &body)),
            Route::Tmux { passthrough, .. } if passthrough.get() == Some(&true) => {
                out.extend(tmux_passthrough(&osc(&title, &body)));
            }
            Route::Tmux { tmux, .. } => show_on_clients(tmux.clone(), format!("{title}: {body}")),
        }
        if !out.is_empty() {
            let mut stdout = std::io::stdout();
            let _ = stdout.write_all(&out);
            let _ = stdout.flush();
        }
    }

    /// Starts the notify command off the loop with the event on stdin,
    /// unless `MAX_RUNNING` of them still run.
    fn run_command(&self, notice: &Notice) {
        let Some(argv) = &self.command else { return };
        if self.running.fetch_add(1, Ordering::SeqCst) >= MAX_RUNNING {
            self.running.fetch_sub(1, Ordering::SeqCst);
            tracing::warn!("notify command: {MAX_RUNNING} still running, this notice skipped");
            return;
        }
        let running = Arc::clone(&self.running);
        let argv = command_line(argv, notice);
        let event = event_json(notice).into_bytes();
        let started = std::thread::Builder::new()
            .name("notify-command".into())
            .spawn(move || {
                run(&argv, event);
                running.fetch_sub(1, Ordering::SeqCst);
            });
        if started.is_err() {
            self.running.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The command's argv for `notice`: `{title}` and `{body}` in an argument
/// become the notice's (inert) title and body, so a program that reads no
/// stdin (`notify-send`) or a header (`curl -H "Title: {title}"`) gets them.
/// No shell reads them: each stays within its one argument.
pub fn command_line(template: &[String], notice: &Notice) -> Vec<String> {
    let (title, body) = (inert(&notice.title), inert(&notice.body));
    template
        .iter()
        .map(|a| a.replace("{title}", &title).replace("{body}", &body))
        .collect()
}

/// Runs `argv` (no shell) with `event` on stdin, within `COMMAND_TIMEOUT`.
fn run(argv: &[String], event: Vec<u8>) {
    let Some((program, args)) = argv.split_first() else {
        return;
    };
    let mut spec = Spec::new(program);
    spec.args(args).input(event);
    let limits = Limits {
        timeout: COMMAND_TIMEOUT,
        stdout: 4096,
        stderr: 4096,
        overflow: Overflow::Cut,
    };
    if let Err(e) = spec.run(limits) {
        tracing::warn!(error = %e, "notify command");
    }
}

/// tmux's message on each client a person uses, off the loop.
fn show_on_clients(tmux: Tmux, text: String) {
    let _ = std::thread::Builder::new()
        .name("notify-tmux".into())
        .spawn(move || match tmux.operator_clients() {
            Ok(clients) => {
                for client in clients {
                    if let Err(e) = tmux.display_message_on(&client, &text) {
                        tracing::debug!(error = %e, "display-message");
                    }
                }
            }
            Err(e) => tracing::debug!(error = %e, "list-clients"),
        });
}

/// Text fit for a terminal's sequence, a status line or a JSON field: no
/// control characters (ESC, BEL and ST would end or start a sequence), at
/// most `MAX_TEXT` characters.
pub fn inert(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let clean = clean.trim();
    if clean.chars().count() <= MAX_TEXT {
        return clean.to_owned();
    }
    let mut cut: String = clean.chars().take(MAX_TEXT - 1).collect();
    cut.push('…');
    cut
}

/// OSC 777 (`notify;title;body`: foot, WezTerm, Ghostty, urxvt) and OSC 9
/// (iTerm2, kitty, Windows Terminal, WezTerm). `;` separates 777's fields,
/// so the title holds none.
pub fn osc(title: &str, body: &str) -> Vec<u8> {
    let title777 = title.replace(';', ",");
    format!("\x1b]777;notify;{title777};{body}\x07\x1b]9;{title}: {body}\x07").into_bytes()
}

/// `sequence` wrapped for tmux to pass on to the outer terminal: DCS
/// `tmux;`, each ESC inside doubled, ended by ST.
pub fn tmux_passthrough(sequence: &[u8]) -> Vec<u8> {
    let mut out = b"\x1bPtmux;".to_vec();
    for &b in sequence {
        if b == 0x1b {
            out.push(0x1b);
        }
        out.push(b);
    }
    out.extend_from_slice(b"\x1b\\");
    out
}

/// The event as the notify command reads it on stdin: one JSON object, on
/// one line. The first (most urgent) session's fields at the top, every
/// session under `sessions`; `text` is the title and body together (what a
/// chat webhook such as Slack's shows).
pub fn event_json(notice: &Notice) -> String {
    let (title, body) = (inert(&notice.title), inert(&notice.body));
    let mut event = serde_json::Map::new();
    event.insert("kind".into(), notice.kind.into());
    event.insert("time".into(), notice.at.to_rfc3339().into());
    event.insert("title".into(), title.clone().into());
    event.insert("body".into(), body.clone().into());
    event.insert("text".into(), format!("{title}: {body}").into());
    if let Some(first) = notice.rows.first()
        && let serde_json::Value::Object(fields) = row_json(first)
    {
        event.extend(fields);
    }
    let sessions: Vec<serde_json::Value> = notice.rows.iter().map(row_json).collect();
    event.insert("sessions".into(), sessions.into());
    serde_json::Value::Object(event).to_string()
}

fn row_json(r: &NoticeRow) -> serde_json::Value {
    serde_json::json!({
        "id": inert(&r.key.id),
        "name": inert(&r.name),
        "host": r.key.host.as_ref().map(|h| inert(h.as_str())),
        "health": r.health.as_str(),
        "why": inert(&r.why),
        "asks": r.asks.as_deref().map(inert),
    })
}
