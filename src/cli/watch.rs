//! `greenroom watch --json`: the catalog as a stream of JSON lines on
//! stdout. First a snapshot of every row (the `ls --json` row shape plus
//! `host`), then one line per change as the catalog changes, and a heartbeat
//! every few seconds. It is what a dashboard on another machine reads over
//! ssh, and what scripts and status bars can follow locally.
//!
//! It runs the same engine as the dashboard: the file watcher for every
//! source, tmux's control-mode events (a poll on each, through the control
//! client), a reconcile poll every 30 s, the working agents' sessions read
//! again at the interval, and polling at the interval when tmux cannot
//! push events.

use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use chrono::Utc;
use clap::Args;

use crate::config::Config;
use crate::engine::Engine;
use crate::tmux::{Event, EventClient};

mod stream;
use stream::Stream;

const RECONCILE: Duration = Duration::from_secs(30);
const RETRY_MAX: Duration = Duration::from_secs(60);

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Print JSON lines (the only format: the flag says so in scripts)
    #[arg(long, required = true)]
    pub json: bool,
    /// Include archived Maestro sessions and dismissed sessions
    #[arg(long, short = 'a')]
    pub all: bool,
    /// The `host` every row carries [default: this machine's host name]
    #[arg(long, value_name = "NAME")]
    pub host: Option<String>,
    /// Seconds between heartbeats
    #[arg(long, default_value_t = 5, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub heartbeat: u64,
}

enum Signal {
    File(crate::engine::Change),
    Tmux(Event),
}

/// This machine's name, as `uname -n` says it; bounded and printable.
pub fn host_name(env: &dyn crate::environ::Env) -> String {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let name = read("/proc/sys/kernel/hostname")
        .or_else(|| read("/etc/hostname"))
        .or_else(|| env.var("HOSTNAME"))
        .unwrap_or_default();
    let name: String = name
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(64)
        .collect();
    if name.is_empty() {
        "localhost".into()
    } else {
        name
    }
}

/// Runs until stdout closes (the reader left: exit 0) or writing fails.
pub fn run(args: &WatchArgs, config: &Config) -> Result<(), String> {
    let host = args
        .host
        .clone()
        .unwrap_or_else(|| host_name(&config.environ));
    let (tx, rx) = channel::<Signal>();
    let files = tx.clone();
    let mut engine = Engine::start(config, args.all, move |p| {
        let _ = files.send(Signal::File(p));
    })
    .map_err(|e| format!("cannot watch files: {e}"))?;
    engine.load_usage();
    engine.poll_tmux();
    let mut stream = Stream::new(host, std::io::stdout());
    let mut events = Events::new(
        config.tmux_events,
        config.poll_interval,
        chrono::Duration::from_std(config.thresholds.active_window)
            .unwrap_or(chrono::Duration::MAX),
    );
    events.connect(&engine, &tx);
    let rows = engine.rows(Utc::now());
    if stream.snapshot(&rows, &engine.problems()).is_err() {
        return Ok(());
    }
    let heartbeat = Duration::from_secs(args.heartbeat);
    let mut next_beat = Instant::now() + heartbeat;
    loop {
        let now = Instant::now();
        let wake = next_beat
            .min(events.next_poll)
            .min(events.next_retry)
            .min(events.next_refresh);
        let mut poll = false;
        match rx.recv_timeout(wake.saturating_duration_since(now)) {
            Ok(first) => {
                let mut paths = Vec::new();
                for signal in std::iter::once(first).chain(rx.try_iter()) {
                    match signal {
                        Signal::File(p) => paths.push(p),
                        Signal::Tmux(e) => poll |= events.on_event(e),
                    }
                }
                if !paths.is_empty() {
                    engine.apply_changes(paths);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            // Every sender is held here: cannot happen, but end cleanly.
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
        let now = Instant::now();
        if now >= events.next_retry {
            events.connect(&engine, &tx);
        }
        if poll || now >= events.next_poll {
            events.poll(&mut engine);
            events.next_poll = Instant::now() + events.poll_every();
            events.next_refresh = Instant::now() + events.interval;
        } else if now >= events.next_refresh {
            events.refresh(&mut engine);
            events.next_refresh = Instant::now() + events.interval;
        }
        // Health depends on the clock too (stuck after a while): the rows
        // are rebuilt on every wake, and only what differs is written.
        let rows = engine.rows(Utc::now());
        let mut written = stream.changes(&rows, &engine.problems());
        if Instant::now() >= next_beat {
            written = written.and_then(|()| stream.heartbeat());
            next_beat = Instant::now() + heartbeat;
        }
        if written.is_err() {
            // The reader is gone (a closed pipe, the ssh connection down).
            return Ok(());
        }
    }
}

/// tmux's control client for the stream, and when to poll without it.
struct Events {
    when: crate::tmux::Listening,
    interval: Duration,
    client: Option<EventClient>,
    live: bool,
    next_poll: Instant,
    next_retry: Instant,
    /// When the working agents' sessions are read again (events live).
    next_refresh: Instant,
    /// tmux activity this recent counts as working (the thresholds').
    active_window: chrono::Duration,
    backoff: Duration,
}

impl Events {
    fn new(
        when: crate::tmux::Listening,
        interval: Duration,
        active_window: chrono::Duration,
    ) -> Self {
        let far = Instant::now() + Duration::from_secs(365 * 24 * 3600);
        let wanted = when != crate::tmux::Listening::Never;
        Self {
            when,
            interval,
            client: None,
            live: false,
            next_poll: Instant::now() + interval,
            next_retry: if wanted { Instant::now() } else { far },
            next_refresh: far,
            active_window,
            backoff: Duration::from_secs(1),
        }
    }

    fn control(&self) -> Option<crate::tmux::Control> {
        self.client
            .as_ref()
            .filter(|_| self.live)
            .map(EventClient::control)
    }

    /// The full poll: through the control client when it is live.
    fn poll(&self, engine: &mut Engine) {
        match self.control().map(|c| c.poll()) {
            Some(server @ crate::tmux::ServerState::Running(_)) => {
                engine.set_tmux(server);
            }
            _ => {
                engine.poll_tmux();
            }
        }
    }

    /// The sessions of the rows whose activity must be current, by id;
    /// a target not found means the full poll.
    fn refresh(&self, engine: &mut Engine) {
        let Some(control) = self.control() else {
            return;
        };
        let Some(crate::tmux::ServerState::Running(server)) = engine.tmux_state() else {
            return;
        };
        let rows = engine.rows(Utc::now());
        let (targets, asked): (Vec<String>, usize) =
            match crate::freshness::plan(&rows, None, Utc::now(), self.active_window) {
                crate::freshness::Read::Nothing => return,
                crate::freshness::Read::Everything => return self.poll(engine),
                crate::freshness::Read::Rows(rows) => (
                    rows.iter()
                        .filter_map(|t| server.refresh_target(t))
                        .collect(),
                    rows.len(),
                ),
            };
        let refresh = control.refresh(&targets);
        if let Some(state) = engine.refreshed(&refresh.part) {
            engine.set_tmux(state);
        }
        if !refresh.complete || targets.len() < asked {
            self.poll(engine);
        }
    }

    fn poll_every(&self) -> Duration {
        if self.live { RECONCILE } else { self.interval }
    }

    fn connect(&mut self, engine: &Engine, tx: &Sender<Signal>) {
        let far = Instant::now() + Duration::from_secs(365 * 24 * 3600);
        self.next_retry = far;
        if self.when == crate::tmux::Listening::Never {
            return;
        }
        // The control client would start a tmux server where none runs:
        // listen only to a running one, and look again at the next poll.
        let running = matches!(
            engine.tmux_state(),
            Some(crate::tmux::ServerState::Running(_))
        );
        if !running {
            self.next_retry = Instant::now() + self.interval;
            return;
        }
        let tx = tx.clone();
        match engine.tmux().listen(self.when, move |e| {
            let _ = tx.send(Signal::Tmux(e));
        }) {
            Ok(client) => self.client = Some(client),
            Err(
                crate::tmux::ListenError::Unsupported(_) | crate::tmux::ListenError::CrashProne(_),
            ) => {}
            Err(e) => {
                tracing::debug!(error = %e, "tmux events unavailable: polling");
                self.retry_later();
            }
        }
    }

    fn retry_later(&mut self) {
        self.client = None;
        self.live = false;
        self.next_refresh = Instant::now() + Duration::from_secs(365 * 24 * 3600);
        self.next_retry = Instant::now() + self.backoff;
        self.backoff = (self.backoff * 2).min(RETRY_MAX);
    }

    /// Whether the event means a poll now.
    fn on_event(&mut self, event: Event) -> bool {
        match event {
            Event::Connected => {
                self.live = true;
                self.backoff = Duration::from_secs(1);
                self.next_poll = Instant::now() + RECONCILE;
                self.next_refresh = Instant::now() + self.interval;
                true
            }
            Event::Changed | Event::WindowClosed(_) => true,
            Event::Lost(_) => {
                self.retry_later();
                self.next_poll = Instant::now();
                true
            }
            Event::Unsupported(_) => false,
        }
    }
}
