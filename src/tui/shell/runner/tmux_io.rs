//! The runner's side of tmux: the control client started and replaced,
//! polls and refreshes run (through the client when it is live) and their
//! answers handed to the catalog, the preview's captures (at most four a
//! second), and attaching (the terminal handed over).

use chrono::Utc;

use color_eyre::eyre::Result;

use std::time::{Duration, Instant};

use super::{Done, PREVIEW_EVERY, Runner, Step};
use crate::model::Session;
use crate::tmux::{Event, ListenError, ServerState};
use crate::tui::action::{Action, Finished};
use crate::tui::shell::jobs::capture;

impl Runner {
    /// (Re)starts the control client; its events come back through the
    /// loop, numbered so a replaced client's end is not mistaken for news.
    pub(super) fn listen(&mut self) -> Vec<Action> {
        self.tmux_client = None;
        self.client += 1;
        let (tx, client) = (self.done_tx.clone(), self.client);
        let started = self
            .ctx
            .tmux
            .listen(self.ctx.config.tmux_events, move |event| {
                let _ = tx.send(Done::Event { client, event });
            });
        match started {
            Ok(events) => {
                self.tmux_client = Some(events);
                Vec::new()
            }
            Err(ListenError::Unsupported(version) | ListenError::CrashProne(version)) => {
                vec![Action::TmuxEvent(Event::Unsupported(version))]
            }
            Err(ListenError::Tmux(e)) => vec![Action::TmuxEvent(Event::Lost(e.to_string()))],
        }
    }

    /// Through the control client when it is live (no tmux process), else
    /// by running tmux; a control client that fails the poll is not trusted
    /// with it.
    pub(super) fn poll(&mut self, generation: u64) {
        let tmux = self.ctx.tmux.clone();
        let control = self.tmux_client.as_ref().map(|c| c.control());
        self.off_loop(move |_| {
            let server = match control.map(|c| c.poll()) {
                Some(s @ ServerState::Running(_)) => s,
                _ => tmux.poll(),
            };
            Action::Polled { server, generation }
        });
    }

    /// The rows' sessions by id, read through the control client.
    pub(super) fn refresh(&mut self, targets: &[crate::tmux::TmuxTarget], generation: u64) {
        let ids: Vec<String> = match self.engine.tmux_state() {
            Some(ServerState::Running(server)) => targets
                .iter()
                .filter_map(|t| server.refresh_target(t))
                .collect(),
            _ => Vec::new(),
        };
        let complete = ids.len() == targets.len();
        let Some(control) = self.tmux_client.as_ref().map(|c| c.control()) else {
            self.off_loop(move |_| Action::Refreshed {
                refresh: crate::tmux::Refresh {
                    part: Default::default(),
                    complete: false,
                },
                generation,
            });
            return;
        };
        self.off_loop(move |_| {
            let mut refresh = control.refresh(&ids);
            refresh.complete &= complete;
            Action::Refreshed {
                refresh,
                generation,
            }
        });
    }

    /// Writes statuses tmux contradicts off the loop, one batch at a time
    /// (a batch decided while one is being written is dropped: the next is
    /// decided from what the files say once this one has landed).
    pub fn write_statuses(&mut self, updates: Vec<crate::catalog::StatusUpdate>) {
        if updates.is_empty() || self.writing_statuses {
            return;
        }
        self.writing_statuses = true;
        let (store, tx) = (self.engine.store().clone(), self.done_tx.clone());
        tokio::task::spawn_blocking(move || {
            crate::engine::write_statuses(&store, &updates);
            let _ = tx.send(Done::StatusesWritten);
        });
    }

    /// The catalog takes the poll; statuses tmux contradicts are written
    /// back, one batch at a time (the next is decided from what the files
    /// say once this one has landed).
    pub(super) fn apply_poll(
        &mut self,
        server: ServerState,
        now: chrono::DateTime<Utc>,
    ) -> Vec<Action> {
        let (changed, updates) = self.engine.set_tmux_deferred(server, now);
        self.write_statuses(updates);
        self.capture_screens();
        if changed {
            vec![self.rows(now)]
        } else {
            Vec::new()
        }
    }

    /// Captures the Codex panes whose screen may have changed, off the
    /// loop (see `engine::screens`); what they show comes back as an action.
    fn capture_screens(&mut self) {
        let due = self.engine.screens_due(Instant::now());
        if !due.is_empty() {
            let tmux = self.ctx.tmux.clone();
            self.off_loop(move |_| Action::Screens(crate::engine::capture_screens(&tmux, &due)));
        }
    }

    /// Inside the same tmux server: switch the client. Outside: hand the
    /// terminal to tmux until the operator detaches; the event stream goes
    /// first so it does not read keys meant for tmux.
    pub(super) fn attach(&mut self, session: Option<Session>) -> Result<Step> {
        let Some(s) = session else {
            return Ok(Step::Then(Vec::new()));
        };
        let tmux_env = self.ctx.config.environ.tmux().map(str::to_owned);
        let popup = self.ctx.config.popup_client.is_some();
        if popup || self.ctx.tmux.is_current_server(tmux_env.as_deref()) {
            self.off_loop(move |c| c.switch_to(&s));
            return Ok(Step::Then(Vec::new()));
        }
        let (tmux, store) = (self.ctx.tmux.clone(), self.ctx.store.clone());
        let done =
            self.with_terminal_handed_over(|| match crate::ops::attach(&tmux, &store, &s, None) {
                Ok(_) => Finished::Returned {
                    row: s.key(),
                    name: s.name,
                },
                Err(e) => Finished::Failed(e.to_string()),
            })?;
        Ok(Step::Then(done))
    }

    /// How long until the waiting capture may run, if one waits.
    pub fn capture_wait(&self) -> Option<Duration> {
        self.pending_capture
            .as_ref()
            .map(|_| PREVIEW_EVERY.saturating_sub(self.last_capture.elapsed()))
    }

    /// Runs the waiting capture off the loop.
    pub fn capture_now(&mut self) {
        if let Some((id, name)) = self.pending_capture.take() {
            self.last_capture = Instant::now();
            let tmux = self.ctx.tmux.clone();
            self.off_loop(move |_| Action::Preview {
                text: capture(&tmux, &name),
                id,
            });
        }
    }
}
