//! The runner's side of ops on sessions: this machine's through its tmux
//! and files (off the loop), a host's through its one connection.

use color_eyre::eyre::Result;

use super::{Runner, Step};
use crate::hosts::remote::Reach;
use crate::model::{HostName, Session};
use crate::tui::action::Action;
use crate::tui::action::op::{HostRow, On, Verb};
use crate::tui::model::state::AppState;
use crate::tui::shell::host_ops;

impl Runner {
    /// Carries out an op: on this machine's rows (a host's row never
    /// reaches this machine's tmux or files), or on a host's, over ssh.
    pub(super) fn op(&mut self, op: Verb, on: On, state: &AppState) -> Result<Step> {
        let ids = match on {
            On::Here(ids) => ids,
            On::Host { host, rows } => return self.op_on_host(op, &host, rows),
        };
        let sessions: Vec<Session> = state
            .list
            .rows
            .iter()
            .filter(|r| r.host.is_none() && ids.contains(&r.id))
            .cloned()
            .collect();
        let Some(s) = sessions.first().cloned() else {
            if op == Verb::OpenBeside {
                return Ok(Step::Then(vec![Action::BesideClosed]));
            }
            return Ok(Step::Then(Vec::new()));
        };
        match op {
            Verb::Kill => self.off_loop(move |c| c.kill(&sessions)),
            Verb::Dismiss => self.off_loop(move |c| c.dismiss(&sessions)),
            Verb::DismissWorktree { discard_changes } => {
                self.off_loop(move |c| c.dismiss_worktree(&s, discard_changes));
            }
            Verb::Restore => self.off_loop(move |c| c.restore(&s)),
            Verb::Send(text) => self.off_loop(move |c| c.send(&s, &text)),
            Verb::Key(key) => self.off_loop(move |c| c.send_key(&s, key)),
            Verb::Snooze(length) => self.off_loop(move |c| c.snooze(&s, length)),
            Verb::Wake => self.off_loop(move |c| c.wake(&s)),
            Verb::Capture => {
                if let Some(target) = s.tmux_target() {
                    self.pending_capture = Some((s.key(), target));
                }
            }
            Verb::Attach => return self.attach(Some(s)),
            Verb::OpenBeside => self.off_loop(move |c| c.open_beside(&s)),
            Verb::Follow(pane) => {
                self.off_loop(move |c| c.follow(&pane, &s).unwrap_or(Action::Nothing))
            }
            // The record's change comes back through the watcher as rows.
            Verb::Look => self.off_loop(move |c| c.look(&s)),
        }
        Ok(Step::Then(Vec::new()))
    }

    /// An op on a host's rows: `greenroom` there, over its connection.
    fn op_on_host(&mut self, op: Verb, host: &HostName, rows: Vec<HostRow>) -> Result<Step> {
        let reach = || Reach {
            host: self.links.host(host.as_str()).cloned(),
            control: self.links.control().cloned(),
        };
        let Some(first) = rows.first().cloned() else {
            return Ok(Step::Then(Vec::new()));
        };
        match op {
            Verb::Capture => {
                let reach = reach();
                self.off_loop(move |_| host_ops::capture(reach, first));
            }
            Verb::Attach => {
                let (reach, tmux_env) =
                    (reach(), self.ctx.config.environ.tmux().map(str::to_owned));
                if tmux_env.is_some() {
                    self.off_loop(move |_| {
                        host_ops::attach_in_window(reach, tmux_env.as_deref(), &first)
                            .unwrap_or(Action::Nothing)
                    });
                    return Ok(Step::Then(Vec::new()));
                }
                let done = self.with_terminal_handed_over(|| host_ops::attach(reach, first))?;
                return Ok(Step::Then(done));
            }
            // Quiet: a look is no news to the operator; its host's stream
            // brings the row that is no longer ready.
            Verb::Look => {
                let reach = reach();
                self.off_loop(move |_| host_ops::look(reach, &rows));
            }
            op => {
                let reach = reach();
                self.off_loop(move |_| host_ops::act(reach, &op, &rows));
            }
        }
        Ok(Step::Then(Vec::new()))
    }
}
