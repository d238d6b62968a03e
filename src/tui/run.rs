//! The dashboard's event loop: one `tokio::select!` over terminal events,
//! file changes, the clock, tmux polls and effect results. It draws only
//! when something changed, and carries out the reducer's effects.

use std::time::{Duration, Instant};

use chrono::Utc;
use color_eyre::eyre::{Result, WrapErr, eyre};
use crossterm::event::EventStream;
use futures_util::StreamExt;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;

use super::action::{Action, Effect};
use super::effects::{Context, alert, capture};
use super::input::terminal_action;
use super::keymap::Keymap;
use super::state::AppState;
use super::terminal::Screen;
use super::update::update;
use super::view::{self, theme::Theme};
use crate::config::Config;
use crate::engine::Engine;
use crate::tmux::ServerState;

/// At most four pane captures a second for the preview.
const PREVIEW_EVERY: Duration = Duration::from_millis(250);

/// Results that come back from work done off the loop.
enum Done {
    /// A poll's answer, and the action count when it started.
    Poll(ServerState, u64),
    Capture {
        id: String,
        text: String,
    },
    Act(Action),
    StatusesWritten,
}

pub fn run(config: Config) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .wrap_err("cannot start the event loop")?;
    runtime.block_on(run_async(config))
}

async fn run_async(config: Config) -> Result<()> {
    let keymap = Keymap::new(&config.keys).map_err(|e| eyre!("config.toml: {e}"))?;
    let theme = Theme::from_env(
        std::env::var("NO_COLOR").ok().as_deref(),
        std::env::var("GREENROOM_THEME").ok().as_deref(),
    );
    let (file_tx, mut file_rx) = mpsc::unbounded_channel();
    let mut engine = Engine::load(&config, false, move |p| {
        let _ = file_tx.send(p);
    })
    .wrap_err("cannot watch the session folders")?;
    let recovery = engine.recover();
    // greenroom's own archived records too (after recovery, which may have
    // just archived some); the sidebar shows them under `A`.
    engine.catalog.follow_sidecar_archive();
    tracing::info!(
        ?recovery,
        folders = engine.watched_folders(),
        "dashboard started"
    );

    let mut state = AppState::new(Utc::now(), engine.catalog.looked_in());
    state.alerts = config.alerts;
    state.show_cost = config.sidebar_cost;
    if let Some(s) = engine.catalog.tmux_state().cloned() {
        update(&mut state, Action::Tmux(s));
    }
    update(&mut state, rows_action(&engine));
    if !recovery.archived.is_empty() {
        let n = recovery.archived.len();
        update(
            &mut state,
            Action::Status(format!(
                "{n} session(s) whose folder is gone were archived (A shows them, r restores)"
            )),
        );
    }

    let mut screen = Screen::enter().wrap_err("cannot set up the terminal")?;
    let result = event_loop(
        &mut screen,
        &mut engine,
        &mut state,
        &keymap,
        &theme,
        &config,
        &mut file_rx,
    )
    .await;
    // Ending on an error leaves no pane beside behind either (quitting has
    // closed it already).
    if let Some(pane) = state.beside_pane() {
        Context::new(&config, engine.tmux().clone()).close_beside(pane);
    }
    // Dropping the screen restores the terminal, on every way out.
    drop(screen);
    result
}

fn rows_action(engine: &Engine) -> Action {
    Action::Rows {
        rows: engine.catalog.rows(Utc::now()),
        problems: engine.catalog.problems(),
    }
}

#[allow(clippy::too_many_arguments)]
async fn event_loop(
    screen: &mut Screen,
    engine: &mut Engine,
    state: &mut AppState,
    keymap: &Keymap,
    theme: &Theme,
    config: &Config,
    file_rx: &mut mpsc::UnboundedReceiver<std::path::PathBuf>,
) -> Result<()> {
    let mut events = EventStream::new();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut poll = tokio::time::interval(config.poll_interval);
    poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut term = signal(SignalKind::terminate()).wrap_err("cannot watch SIGTERM")?;
    let mut hup = signal(SignalKind::hangup()).wrap_err("cannot watch SIGHUP")?;
    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<Done>();
    let tmux = engine.tmux().clone();
    let mut polling = false;
    let mut last_capture = Instant::now() - PREVIEW_EVERY;
    let mut pending_capture: Option<(String, String)> = None;
    let mut seen_activity: Option<(String, Option<chrono::DateTime<Utc>>)> = None;
    let mut dirty = true;
    let ctx = Context::new(config, tmux.clone());
    // Actions finished so far: a poll that started before the latest one
    // may describe a world that action changed, and is dropped.
    let mut actions_done: u64 = 0;
    let mut writing_statuses = false;

    if let Ok(size) = screen.terminal.size() {
        update(
            state,
            Action::Resize {
                width: size.width,
                height: size.height,
            },
        );
    }
    // The first frame comes before the watches are armed; arming them takes
    // a moment with many folders, and anything changed meanwhile is re-read.
    screen
        .terminal
        .draw(|frame| view::render(frame, state, keymap, theme))
        .wrap_err("cannot draw")?;
    if engine.watch() {
        update(state, rows_action(engine));
    }
    loop {
        if dirty {
            screen
                .terminal
                .draw(|frame| view::render(frame, state, keymap, theme))
                .wrap_err("cannot draw")?;
            dirty = false;
        }
        let capture_wait = pending_capture
            .as_ref()
            .map(|_| PREVIEW_EVERY.saturating_sub(last_capture.elapsed()))
            .unwrap_or(Duration::from_secs(3600));
        let actions: Vec<Action> = tokio::select! {
            event = events.next() => match event {
                Some(Ok(event)) => {
                    terminal_action(event, &state.mode, keymap, screen.terminal.size().ok())
                }
                Some(Err(e)) => return Err(e).wrap_err("cannot read the terminal"),
                None => vec![Action::Shutdown],
            },
            Some(first) = file_rx.recv() => {
                let mut batch = vec![first];
                while let Ok(p) = file_rx.try_recv() {
                    batch.push(p);
                }
                if engine.apply_changes(batch) {
                    vec![rows_action(engine)]
                } else {
                    Vec::new()
                }
            }
            _ = tick.tick() => vec![Action::Tick(Utc::now()), rows_action(engine)],
            _ = poll.tick(), if !polling => {
                polling = true;
                let (tmux, tx, started) = (tmux.clone(), done_tx.clone(), actions_done);
                tokio::task::spawn_blocking(move || {
                    let _ = tx.send(Done::Poll(tmux.poll(), started));
                });
                Vec::new()
            }
            Some(done) = done_rx.recv() => match done {
                Done::Poll(_, started) if started < actions_done => {
                    polling = false;
                    poll.reset_immediately();
                    Vec::new()
                }
                Done::Poll(server, _) => {
                    polling = false;
                    let (changed, updates) = engine.set_tmux_deferred(server.clone());
                    // One batch at a time: the next is decided from what the
                    // files say once this one has landed.
                    if !updates.is_empty() && !writing_statuses {
                        writing_statuses = true;
                        let (store, tx) = (engine.store().clone(), done_tx.clone());
                        tokio::task::spawn_blocking(move || {
                            crate::engine::write_statuses(&store, &updates);
                            let _ = tx.send(Done::StatusesWritten);
                        });
                    }
                    let mut out = vec![Action::Tmux(server.clone())];
                    if changed {
                        out.push(rows_action(engine));
                    }
                    // The preview follows the pane: capture again when tmux saw activity.
                    if let (Some(s), ServerState::Running(map)) = (state.selected_session(), &server)
                        && let Some(name) = &s.tmux_session
                    {
                        let activity = map.get(name).and_then(|f| f.window_activity);
                        let key = (s.id.clone(), activity);
                        if seen_activity.as_ref() != Some(&key) {
                            seen_activity = Some(key);
                            if state.tab == super::state::DetailTab::Preview {
                                pending_capture = Some((s.id.clone(), name.clone()));
                            }
                        }
                    }
                    out
                }
                Done::Capture { id, text } => vec![Action::Preview { id, text }],
                Done::StatusesWritten => {
                    writing_statuses = false;
                    Vec::new()
                }
                Done::Act(action) => {
                    // An action changed tmux: look now rather than at the next tick.
                    actions_done += 1;
                    poll.reset_immediately();
                    vec![action]
                }
            },
            _ = tokio::time::sleep(capture_wait), if pending_capture.is_some() => {
                if let Some((id, name)) = pending_capture.take() {
                    last_capture = Instant::now();
                    let (tmux, tx) = (tmux.clone(), done_tx.clone());
                    tokio::task::spawn_blocking(move || {
                        let text = capture(&tmux, &name);
                        let _ = tx.send(Done::Capture { id, text });
                    });
                }
                Vec::new()
            }
            _ = term.recv() => vec![Action::Shutdown],
            _ = hup.recv() => vec![Action::Shutdown],
        };
        let mut pending: Vec<Action> = Vec::new();
        for action in actions {
            dirty = true;
            for effect in update(state, action) {
                match effect {
                    Effect::Quit => return Ok(()),
                    Effect::CapturePreview { id, tmux_session } => {
                        pending_capture = Some((id, tmux_session));
                    }
                    Effect::Alert { title, body } => alert(&title, &body),
                    Effect::Attach { id } => {
                        let Some(s) = find(state, &id) else { continue };
                        let tmux_env = std::env::var("TMUX").ok();
                        if tmux.is_current_server(tmux_env.as_deref()) {
                            off_loop(&done_tx, &ctx, move |c| c.switch_to(&s));
                            continue;
                        }
                        // Outside tmux: hand the terminal to tmux until the
                        // operator detaches. The event stream goes first so it
                        // does not read keys meant for tmux.
                        drop(std::mem::replace(&mut events, EventStream::new()));
                        screen.suspend();
                        let result = crate::ops::attach(&tmux, &ctx.store, &s, None);
                        screen.resume().wrap_err("cannot take the terminal back")?;
                        events = EventStream::new();
                        let text = match result {
                            Ok(_) => format!("back from {}", s.name),
                            Err(e) => e.to_string(),
                        };
                        pending.push(Action::Status(text));
                    }
                    Effect::OpenSpawnForm => {
                        let cwd = state.selected_session().map(|s| s.cwd.clone());
                        off_loop(&done_tx, &ctx, move |c| c.spawn_form(cwd));
                    }
                    Effect::Spawn(form) => off_loop(&done_tx, &ctx, move |c| c.spawn(&form)),
                    Effect::Kill { ids } => {
                        let sessions = find_all(state, &ids);
                        off_loop(&done_tx, &ctx, move |c| c.kill(&sessions));
                    }
                    Effect::Dismiss { ids } => {
                        let sessions = find_all(state, &ids);
                        off_loop(&done_tx, &ctx, move |c| c.dismiss(&sessions));
                    }
                    Effect::Restore { id } => {
                        if let Some(s) = find(state, &id) {
                            off_loop(&done_tx, &ctx, move |c| c.restore(&s));
                        }
                    }
                    Effect::Send { id, text } => {
                        if let Some(s) = find(state, &id) {
                            off_loop(&done_tx, &ctx, move |c| c.send(&s, &text));
                        }
                    }
                    Effect::CompletePath { text } => off_loop(&done_tx, &ctx, move |_| {
                        Action::PathCompleted(super::effects::complete_path(&text))
                    }),
                    Effect::OpenBeside { id } => match find(state, &id) {
                        Some(s) => off_loop(&done_tx, &ctx, move |c| c.open_beside(&s)),
                        None => pending.push(Action::BesideClosed),
                    },
                    // On the loop: quitting follows at once, and the pane
                    // must be gone before greenroom is.
                    Effect::CloseBeside { pane } => ctx.close_beside(&pane),
                    Effect::Follow { id, pane } => {
                        if let Some(s) = find(state, &id) {
                            off_loop(&done_tx, &ctx, move |c| {
                                c.follow(&pane, &s).unwrap_or(Action::Status(String::new()))
                            });
                        }
                    }
                }
            }
        }
        for action in pending {
            for effect in update(state, action) {
                if effect == Effect::Quit {
                    return Ok(());
                }
            }
        }
    }
}

fn find(state: &AppState, id: &str) -> Option<crate::model::Session> {
    state.rows.iter().find(|r| r.id == id).cloned()
}

fn find_all(state: &AppState, ids: &[String]) -> Vec<crate::model::Session> {
    state
        .rows
        .iter()
        .filter(|r| ids.contains(&r.id))
        .cloned()
        .collect()
}

/// Runs a session action on a blocking thread; its result comes back as an action.
fn off_loop(
    tx: &mpsc::UnboundedSender<Done>,
    ctx: &Context,
    job: impl FnOnce(&Context) -> Action + Send + 'static,
) {
    let (tx, ctx) = (tx.clone(), ctx.clone());
    tokio::task::spawn_blocking(move || {
        let _ = tx.send(Done::Act(job(&ctx)));
    });
}
