//! The driver's hands: the [`Runner`] owns the world the dashboard acts on
//! (the terminal, the engine, tmux through [`Context`], the channel work
//! done off the loop reports back on) and has one method per [`Effect`].
//! It decides nothing: what to do and what the results mean is the
//! reducer's; the runner only does it, throttling pane captures and keeping
//! one status write in flight.

use crate::tui::action::{GitEffect, HostEffect, TmuxEffect, UiEffect};
use std::time::{Duration, Instant};

use chrono::Utc;
use color_eyre::eyre::{Result, WrapErr};
use crossterm::event::EventStream;
use tokio::sync::mpsc;

use crate::engine::{Change, Engine, NewRows};
use crate::tmux::{Event, EventClient};
use crate::tui::action::op::Op;
use crate::tui::action::{Action, Effect, Finished};
use crate::tui::keymap::Keymap;
use crate::tui::model::state::AppState;
use crate::tui::shell::jobs::{Context, complete_path};
use crate::tui::shell::terminal::Screen;
use crate::tui::view::{self, theme::Theme};

mod ops;
mod tmux_io;

/// At most four pane captures a second for the preview.
const PREVIEW_EVERY: Duration = Duration::from_millis(250);

/// Work done off the loop, reporting back.
pub enum Done {
    Action(Action),
    /// What control client number `client` said.
    Event {
        client: u64,
        event: Event,
    },
    /// A batch of statuses reached the sidecars; the next may start.
    StatusesWritten,
    /// Connection `attempt` to a host has lines waiting in its inbox.
    HostLines {
        host: String,
        attempt: u64,
    },
}

/// What carrying out an effect leaves for the loop.
pub enum Step {
    /// Go on, reducing these actions next.
    Then(Vec<Action>),
    Quit,
}

pub struct Runner {
    pub screen: Screen,
    pub events: EventStream,
    pub engine: Engine,
    pub done_rx: mpsc::UnboundedReceiver<Done>,
    done_tx: mpsc::UnboundedSender<Done>,
    ctx: Context,
    keymap: Keymap,
    theme: Theme,
    /// The preview's next capture, waiting for the throttle.
    pending_capture: Option<(crate::model::RowKey, crate::tmux::TmuxTarget)>,
    last_capture: Instant,
    writing_statuses: bool,
    /// Something changed since the last frame.
    dirty: bool,
    /// tmux's control client, and its number: a replaced client's last
    /// words (its pipe closing) are not news.
    tmux_client: Option<EventClient>,
    client: u64,
    /// The ssh connections to `[[hosts]]` entries.
    links: crate::hosts::stream::Links,
    /// Where notices go: the terminal (or tmux), the notify command.
    delivery: crate::tui::shell::notify::Delivery,
}

impl Runner {
    pub fn new(screen: Screen, engine: Engine, ctx: Context, keymap: Keymap, theme: Theme) -> Self {
        let (done_tx, done_rx) = mpsc::unbounded_channel();
        let delivery = crate::tui::shell::notify::Delivery::new(&ctx.config);
        Self {
            screen,
            events: EventStream::new(),
            engine,
            done_rx,
            done_tx,
            ctx,
            keymap,
            theme,
            pending_capture: None,
            last_capture: Instant::now() - PREVIEW_EVERY,
            writing_statuses: false,
            dirty: true,
            tmux_client: None,
            client: 0,
            links: crate::hosts::stream::Links::new(Vec::new(), Err("no hosts".into())),
            delivery,
        }
    }

    /// The hosts the dashboard connects to (none unless config.toml has `[[hosts]]`).
    pub fn set_hosts(&mut self, links: crate::hosts::stream::Links) {
        self.links = links;
    }

    pub fn keymap(&self) -> &Keymap {
        &self.keymap
    }

    /// Draws a frame when something changed since the last one.
    pub fn draw(&mut self, state: &AppState) -> Result<()> {
        if !self.dirty {
            return Ok(());
        }
        let (keymap, theme) = (&self.keymap, &self.theme);
        self.screen
            .terminal
            .draw(|frame| view::render(frame, state, keymap, theme))
            .wrap_err("cannot draw")?;
        self.dirty = false;
        Ok(())
    }

    /// Reduces `actions` and carries out their effects, and the effects of
    /// what those report at once, in order. `true`: the dashboard ends.
    pub fn dispatch(&mut self, state: &mut AppState, actions: Vec<Action>) -> Result<bool> {
        let mut queue = std::collections::VecDeque::from(actions);
        while let Some(action) = queue.pop_front() {
            // Redrawn for what a frame shows: a frame drawn for nothing
            // new costs as much as any (twice a second at idle, else).
            let events = action.is_bookkeeping().then(|| state.link.events.clone());
            let effects = crate::tui::reduce::update::update(state, action);
            self.dirty |= events.is_none_or(|e| e != state.link.events);
            for effect in effects {
                match self.execute(effect, state)? {
                    Step::Quit => return Ok(true),
                    Step::Then(more) => queue.extend(more),
                }
            }
        }
        Ok(false)
    }

    /// The catalog's rows at `now`, the dashboard's clock: the tick's time,
    /// which every row built until the next tick is read at too (the rows
    /// of a change are then the kept rows but the changed one, and their
    /// ages agree with the sidebar's, which the view reads at the same time).
    pub fn rows(&self, now: chrono::DateTime<Utc>) -> Action {
        Action::Rows {
            rows: self.engine.rows(now),
            problems: self.engine.problems(),
        }
    }

    /// The rows at the clock's tick, when the clock changes any (a health
    /// rule's window ran out, say); the ages the view states need none.
    pub fn rows_at_tick(&self, now: chrono::DateTime<Utc>) -> Option<Action> {
        self.engine.clock_moves_rows(now).then(|| self.rows(now))
    }

    /// A burst of file changes, read at once.
    pub fn files(
        &mut self,
        first: Change,
        rx: &mut mpsc::UnboundedReceiver<Change>,
        now: chrono::DateTime<Utc>,
    ) -> Vec<Action> {
        let mut batch = vec![first];
        while let Ok(p) = rx.try_recv() {
            batch.push(p);
        }
        match self.engine.apply_changes_rows(batch, now) {
            Some(NewRows::All(rows)) => vec![Action::Rows {
                rows,
                problems: self.engine.problems(),
            }],
            Some(NewRows::Changed(rows)) => vec![Action::RowsChanged(rows)],
            None => Vec::new(),
        }
    }

    /// What finished off the loop, as actions.
    pub fn finished(&mut self, done: Done) -> Vec<Action> {
        match done {
            Done::Action(action) => vec![action],
            Done::Event { client, event } if client == self.client => {
                if matches!(event, Event::Lost(_)) {
                    self.tmux_client = None;
                }
                vec![Action::TmuxEvent(event)]
            }
            Done::Event { .. } => Vec::new(),
            Done::StatusesWritten => {
                self.writing_statuses = false;
                Vec::new()
            }
            Done::HostLines { host, attempt } => {
                let said: Vec<crate::tui::reduce::hosts::HostSaid> = self
                    .links
                    .take(&host, attempt)
                    .into_iter()
                    .map(|said| crate::tui::reduce::hosts::HostSaid {
                        host: host.clone(),
                        attempt,
                        news: match said {
                            crate::hosts::stream::Said::Line(l) => {
                                crate::tui::reduce::hosts::HostNews::Line(l)
                            }
                            crate::hosts::stream::Said::Down(w) => {
                                crate::tui::reduce::hosts::HostNews::Down(w)
                            }
                        },
                    })
                    .collect();
                if said.is_empty() {
                    Vec::new()
                } else {
                    vec![Action::Hosts(said)]
                }
            }
        }
    }

    /// Carries out one effect.
    pub fn execute(&mut self, effect: Effect, state: &AppState) -> Result<Step> {
        match effect {
            Effect::Ui(UiEffect::Quit) => return Ok(Step::Quit),
            Effect::Tmux(TmuxEffect::Poll { generation }) => self.poll(generation),
            Effect::Tmux(TmuxEffect::Refresh {
                targets,
                generation,
            }) => self.refresh(&targets, generation),
            Effect::Tmux(TmuxEffect::ApplyPoll(server)) => {
                return Ok(Step::Then(self.apply_poll(server, state.now)));
            }
            Effect::Tmux(TmuxEffect::ApplyRefresh(part)) => {
                if let Some(server) = self.engine.refreshed(&part) {
                    return Ok(Step::Then(self.apply_poll(server, state.now)));
                }
            }
            Effect::Tmux(TmuxEffect::ForgetWindow(window)) => {
                let server = self.engine.without_window(&window);
                return Ok(Step::Then(self.apply_poll(server, state.now)));
            }
            Effect::Tmux(TmuxEffect::ApplyScreens(seen)) => {
                if self.engine.set_screens(seen) {
                    return Ok(Step::Then(vec![self.rows(state.now)]));
                }
            }
            Effect::Tmux(TmuxEffect::Listen) => return Ok(Step::Then(self.listen())),
            Effect::Ui(UiEffect::Notify(notice)) => self.delivery.deliver(&notice),
            Effect::Op(Op { op, on }) => return self.op(op, on, state),
            Effect::Host(HostEffect::Connect { host, attempt }) => {
                let tx = self.done_tx.clone();
                let name = host.clone();
                // One wake at a time per connection: the lines wait in its
                // inbox (bounded), not in this channel.
                self.links.connect(&name, attempt, move || {
                    let _ = tx.send(Done::HostLines {
                        host: host.clone(),
                        attempt,
                    });
                });
            }
            Effect::Ui(UiEffect::OpenSpawnForm) => {
                let cwd = state.selected_session().map(|s| s.cwd.clone());
                self.off_loop(move |c| c.spawn_form(cwd));
            }
            Effect::Spawn(form) => self.off_loop(move |c| c.spawn(&form)),
            // Reading a folder can stall on a slow disk: off the loop.
            Effect::Ui(UiEffect::CompletePath { text }) => {
                self.off_loop(move |c| {
                    Action::PathCompleted(complete_path(&text, c.config.environ.home().as_deref()))
                });
            }
            // On the loop: quitting follows at once, and the pane must be
            // gone before greenroom is.
            Effect::Ui(UiEffect::CloseBeside { pane }) => self.ctx.close_beside(&pane),
            // Only a mark: the git reader (off the loop) does the reading.
            Effect::Git(GitEffect::RefreshChanges { cwd }) => self.engine.refresh_changes(&cwd),
            Effect::Git(GitEffect::LoadDiff(req)) => self.off_loop(move |_| {
                let git = crate::git::Git::new();
                let text = crate::git::file_diff(&git, &req.root, &req.file, req.staged)
                    .map_err(|e| e.to_string());
                Action::DiffLoaded {
                    generation: req.generation,
                    text,
                }
            }),
        }
        Ok(Step::Then(Vec::new()))
    }

    /// Hands the terminal to `attach` (tmux or ssh) until it returns; the
    /// event stream goes first so it does not read keys meant for them.
    /// The clock stood still for the reducer meanwhile: the time now comes
    /// first, or the outcome's status line would be dated before the
    /// attach and gone at the next tick.
    fn with_terminal_handed_over(
        &mut self,
        attach: impl FnOnce() -> Finished,
    ) -> Result<Vec<Action>> {
        drop(std::mem::replace(&mut self.events, EventStream::new()));
        self.screen.suspend();
        let done = attach();
        self.screen
            .resume()
            .wrap_err("cannot take the terminal back")?;
        self.events = EventStream::new();
        Ok(vec![Action::Tick(Utc::now()), Action::Finished(done)])
    }

    /// Runs a job on a blocking thread; its result comes back as an action.
    fn off_loop(&self, job: impl FnOnce(&Context) -> Action + Send + 'static) {
        let (tx, ctx) = (self.done_tx.clone(), self.ctx.clone());
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(Done::Action(job(&ctx)));
        });
    }

    /// Closes the pane beside when the dashboard ends on an error (quitting
    /// has closed it already).
    pub fn close_beside(&self, state: &AppState) {
        if let Some(pane) = state.link.beside_pane() {
            self.ctx.close_beside(pane);
        }
    }
}
