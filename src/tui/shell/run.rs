//! The driver: one `tokio::select!` over the dashboard's sources (the
//! terminal, file changes, the clock, the poll interval, work finished off
//! the loop, the capture throttle, signals). Each source becomes actions;
//! the runner reduces them and carries out the effects. It decides nothing.

use std::io::IsTerminal;
use std::time::Duration;

use chrono::Utc;
use color_eyre::eyre::{Result, WrapErr, eyre};
use futures_util::StreamExt;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;

use crate::config::Config;
use crate::engine::Engine;
use crate::tui::action::Action;
use crate::tui::keymap::Keymap;
use crate::tui::model::state::AppState;
use crate::tui::shell::input::terminal_action;
use crate::tui::shell::jobs::Context;
use crate::tui::shell::runner::{Done, Runner};
use crate::tui::shell::terminal::Screen;
use crate::tui::view::theme::Theme;

pub fn run(config: Config) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .wrap_err("cannot start the event loop")?;
    runtime.block_on(run_async(config))
}

async fn run_async(config: Config) -> Result<()> {
    let keymap = Keymap::new(&config.keys).map_err(|e| eyre!("config.toml: {e}"))?;
    let theme = Theme::from_env(config.environ.no_color(), config.environ.theme());
    let (file_tx, mut file_rx) = mpsc::unbounded_channel();
    let mut engine = Engine::load(&config, false, move |p| {
        let _ = file_tx.send(p);
    })
    .wrap_err("cannot watch the session folders")?;
    let (mut state, start, statuses) = start_state(&config, &mut engine);
    let screen = Screen::enter().wrap_err("cannot set up the terminal")?;
    end_on_hangup();
    let ctx = Context::new(&config, engine.tmux().clone());
    let mut runner = Runner::new(screen, engine, ctx, keymap, theme);
    // What recovery found, written off the loop beside the first frame
    // rather than before it.
    runner.write_statuses(statuses);
    if !config.hosts.is_empty() {
        let control = crate::hosts::ssh::control_dir(&config.environ);
        runner.set_hosts(crate::hosts::stream::Links::new(
            config.hosts.clone(),
            control,
        ));
    }
    let result = event_loop(&mut runner, &mut state, start, &config, &mut file_rx).await;
    runner.close_beside(&state);
    // Dropping the runner's screen restores the terminal, on every way out.
    result
}

/// Ends the process once its terminal has hung up: the window closed
/// while the shell that started greenroom ignores the hangup, so no SIGHUP
/// comes. crossterm then reads the dead terminal's end of file forever on
/// the loop's thread (at 100% of a core), so nothing on the loop can notice:
/// a thread of its own asks each second. Nothing is left to restore, writes
/// are atomic (a temporary left behind is removed at the next start), and
/// the demo's own watchdog tidies up once this process is gone.
fn end_on_hangup() {
    let spawned = std::thread::Builder::new().name("hangup".into()).spawn(|| {
        loop {
            std::thread::sleep(Duration::from_secs(1));
            if !std::io::stdout().is_terminal() {
                tracing::info!("the terminal hung up; greenroom ends");
                std::process::exit(0);
            }
        }
    });
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "cannot watch the terminal for a hangup");
    }
}

/// The state before the first frame, the actions that bring it what the
/// catalog and tmux said at load and what start-up recovery did, and the
/// statuses recovery would write.
fn start_state(
    config: &Config,
    engine: &mut Engine,
) -> (AppState, Vec<Action>, Vec<crate::catalog::StatusUpdate>) {
    let (recovery, statuses) = engine.recover_deferred();
    // greenroom's own archived records too (after recovery, which may have
    // just archived some); the sidebar shows them under `A`.
    engine.follow_sidecar_archive();
    tracing::info!(
        ?recovery,
        folders = engine.watched_folders(),
        "dashboard started"
    );
    let mut state = AppState::new(Utc::now(), engine.looked_in());
    state.settings.alerts = config.alerts;
    state.settings.notify_on.clone_from(&config.notify.on);
    state.settings.bell = config.notify.bell;
    let hosts: Vec<String> = config.hosts.iter().map(|h| h.name.clone()).collect();
    state.hosts = crate::tui::reduce::hosts::initial(&hosts, Utc::now());
    state.settings.show_cost = config.sidebar_cost;
    state.settings.pin_attention = config.pin_attention;
    state.settings.snooze = config.snooze;
    state.settings.active_window = chrono::Duration::from_std(config.thresholds.active_window)
        .unwrap_or(chrono::Duration::MAX);
    state.settings.popup = config.popup_client.is_some();
    state.settings.budget = config.budget;
    if config.tmux_events == crate::tmux::Listening::Never {
        state.link.events = crate::tui::model::state::TmuxEvents::Disabled;
    }
    let mut start = Vec::new();
    if let Some(server) = engine.tmux_state().cloned() {
        // Already in the catalog: the reducer only learns what tmux said.
        start.push(Action::Polled {
            server,
            generation: 0,
        });
    }
    start.push(Action::Rows {
        rows: engine.rows(Utc::now()),
        problems: engine.problems(),
    });
    // Connects to the hosts at once rather than at the first tick.
    start.push(Action::Tick(Utc::now()));
    if !recovery.archived.is_empty() {
        let n = recovery.archived.len();
        start.push(Action::Status(format!(
            "{n} session(s) whose folder is gone were archived (A shows them, r restores)"
        )));
    }
    (state, start, statuses)
}

/// The start's actions with the terminal's size, and the first frame;
/// `true` when they already end the dashboard. The first frame comes
/// before the watches are armed; arming them takes a moment with many
/// folders, and anything changed meanwhile is re-read.
fn first_frame(runner: &mut Runner, state: &mut AppState, mut start: Vec<Action>) -> Result<bool> {
    if let Ok(s) = runner.screen.terminal.size() {
        start.push(Action::Resize {
            width: s.width,
            height: s.height,
        });
    }
    if runner.dispatch(state, start)? {
        return Ok(true);
    }
    runner.draw(state)?;
    if runner.engine.watch() {
        let rows = runner.rows(state.now);
        runner.dispatch(state, vec![rows])?;
    }
    Ok(false)
}

/// All the jobs that finished meanwhile, as one batch of actions (one
/// frame): a host's burst of lines is one redraw, and one action.
fn finished_meanwhile(runner: &mut Runner, done: Done) -> Vec<Action> {
    let mut actions = runner.finished(done);
    while let Ok(more) = runner.done_rx.try_recv() {
        actions.extend(runner.finished(more));
    }
    crate::tui::reduce::hosts::gather(actions)
}

async fn event_loop(
    runner: &mut Runner,
    state: &mut AppState,
    start: Vec<Action>,
    config: &Config,
    file_rx: &mut mpsc::UnboundedReceiver<crate::engine::Change>,
) -> Result<()> {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut poll = tokio::time::interval(config.poll_interval);
    poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut term = signal(SignalKind::terminate()).wrap_err("cannot watch SIGTERM")?;
    let mut hup = signal(SignalKind::hangup()).wrap_err("cannot watch SIGHUP")?;
    if first_frame(runner, state, start)? {
        return Ok(());
    }
    loop {
        runner.draw(state)?;
        let capture_wait = runner.capture_wait();
        let actions = tokio::select! {
            event = runner.events.next() => match event {
                Some(Ok(event)) => {
                    let size = runner.screen.terminal.size().ok();
                    terminal_action(event, &state.mode, runner.keymap(), size)
                }
                Some(Err(e)) => return Err(e).wrap_err("cannot read the terminal"),
                None => vec![Action::Shutdown],
            },
            Some(first) = file_rx.recv() => runner.files(first, file_rx, state.now),
            _ = tick.tick() => {
                let now = Utc::now();
                let mut actions = vec![Action::Tick(now)];
                actions.extend(runner.rows_at_tick(now));
                actions
            }
            _ = poll.tick() => vec![Action::PollDue],
            Some(done) = runner.done_rx.recv() => finished_meanwhile(runner, done),
            _ = tokio::time::sleep(capture_wait.unwrap_or_default()), if capture_wait.is_some() => {
                runner.capture_now();
                Vec::new()
            }
            _ = term.recv() => vec![Action::Shutdown],
            _ = hup.recv() => vec![Action::Shutdown],
        };
        if runner.dispatch(state, actions)? {
            return Ok(());
        }
    }
}
