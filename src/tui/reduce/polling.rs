//! The reducer's part for knowing tmux: when to poll, which answers to
//! drop, and the control client that makes polling rare. With events live,
//! tmux says when something changed and the poll runs then (plus one every
//! [`RECONCILE_SECONDS`] in case a notification was missed), and each
//! `poll_interval_ms` only the rows whose activity must be current are read
//! again ([`refresh`]); without events (old tmux, the client lost,
//! `tmux_events = false`) greenroom polls at `poll_interval_ms` as before,
//! and retries the client with backoff.

use crate::tui::action::TmuxEffect;
use chrono::Duration;

use crate::freshness::Read;
use crate::tmux::{Event, Refresh, ServerState};
use crate::tui::action::Effect;
use crate::tui::model::backoff::Backoff;
use crate::tui::model::state::{AppState, Holds, TmuxEvents, TmuxStatus};
use crate::tui::reduce::navigate::follow_activity;

/// With events live, a poll this often anyway.
pub const RECONCILE_SECONDS: i64 = 30;
/// The longest wait before retrying a lost control client.
const MAX_BACKOFF_SECONDS: i64 = 60;

/// One poll at a time; a change tmux reports meanwhile polls again after it.
pub fn poll(state: &mut AppState) -> Vec<Effect> {
    if state.link.poll.in_flight {
        state.link.poll.again = true;
        return Vec::new();
    }
    state.link.poll.in_flight = true;
    state.link.poll.again = false;
    state.link.poll.last = Some(state.now);
    vec![Effect::Tmux(TmuxEffect::Poll {
        generation: state.link.poll.generation,
    })]
}

/// The poll interval came round: poll unless tmux pushes its changes (then
/// only to reconcile), and retry a lost control client when it is time.
pub fn due(state: &mut AppState) -> Vec<Effect> {
    let mut effects = listen_if_due(state);
    let quiet = match state.link.poll.last {
        Some(last) => state.now - last >= Duration::seconds(RECONCILE_SECONDS),
        None => true,
    };
    if state.link.events != TmuxEvents::Live || quiet {
        effects.extend(poll(state));
    } else {
        effects.extend(refresh(state));
    }
    effects
}

/// Between full polls, the rows whose activity decides something within
/// seconds are read again by id ([`crate::freshness::plan`]); none at all
/// when nothing works: idle costs nothing.
fn refresh(state: &mut AppState) -> Vec<Effect> {
    if state.link.poll.in_flight || state.link.poll.refreshing {
        return Vec::new();
    }
    // The preview follows the selected row's pane, while it shows: else
    // the selected row is read like any other (a read a second of an idle
    // row costs tmux as much as a working one's).
    let selected = state
        .selected_session()
        .filter(|s| {
            state.detail.tab == crate::tui::model::state::DetailTab::Preview && s.host.is_none()
        })
        .map(|s| s.id.as_str());
    let local = state.list.rows.iter().filter(|r| r.host.is_none());
    let targets =
        match crate::freshness::plan(local, selected, state.now, state.settings.active_window) {
            Read::Nothing => return Vec::new(),
            Read::Everything => return poll(state),
            Read::Rows(targets) => targets,
        };
    state.link.poll.refreshing = true;
    vec![Effect::Tmux(TmuxEffect::Refresh {
        targets,
        generation: state.link.poll.generation,
    })]
}

/// A refresh's answer: dropped when an effect on sessions finished since
/// it was asked (the next interval asks again); a target not found means
/// more changed than those rows, so the full poll runs.
pub fn refreshed(state: &mut AppState, refresh: Refresh, generation: u64) -> Vec<Effect> {
    state.link.poll.refreshing = false;
    if generation < state.link.poll.generation {
        return Vec::new();
    }
    let mut effects = if refresh.complete {
        Vec::new()
    } else {
        poll(state)
    };
    effects.extend(follow_activity(state, &refresh.part, true));
    effects.push(Effect::Tmux(TmuxEffect::ApplyRefresh(refresh.part)));
    effects
}

fn listen_if_due(state: &mut AppState) -> Vec<Effect> {
    if state.link.tmux != TmuxStatus::Running {
        return Vec::new();
    }
    let due = match &state.link.events {
        TmuxEvents::Waiting => true,
        TmuxEvents::Lost { retry, .. } => state.now >= *retry,
        TmuxEvents::Connecting | TmuxEvents::Live | TmuxEvents::Off(_) | TmuxEvents::Disabled => {
            false
        }
    };
    if !due {
        return Vec::new();
    }
    match &mut state.link.events {
        // Still lost until it connects (the header keeps saying polling);
        // the next retry waits for this one.
        TmuxEvents::Lost { retry, backoff, .. } => {
            *retry = state.now + backoff.next_wait();
        }
        other => *other = TmuxEvents::Connecting,
    }
    vec![Effect::Tmux(TmuxEffect::Listen)]
}

/// A poll's answer. One that started before the latest effect on sessions
/// finished may describe the world before it (a session just killed still
/// running): it is dropped and tmux asked again. One during which tmux
/// reported another change is news up to then: it is applied, and tmux
/// asked again for what came after.
pub fn polled(state: &mut AppState, server: ServerState, generation: u64) -> Vec<Effect> {
    state.link.poll.in_flight = false;
    if generation < state.link.poll.generation {
        return poll(state);
    }
    let again = std::mem::take(&mut state.link.poll.again);
    let mut effects = accept(state, server);
    if again {
        effects.extend(poll(state));
    }
    effects
}

fn accept(state: &mut AppState, server: ServerState) -> Vec<Effect> {
    state.link.tmux = match &server {
        ServerState::Running(_) => TmuxStatus::Running,
        ServerState::NoServer => TmuxStatus::NoServer,
        ServerState::NotInstalled => TmuxStatus::NotInstalled,
        // What greenroom knew of tmux stands; the catalog decides what a
        // failed poll means for the rows.
        ServerState::Error(e) => {
            state.say_while(format!("tmux: {e}"), Holds::TmuxFailing);
            return vec![Effect::Tmux(TmuxEffect::ApplyPoll(server))];
        }
    };
    crate::tui::reduce::status::tmux_answered(state);
    let mut effects = match &server {
        ServerState::Running(map) => {
            state.notify.looked_at.clone_from(map.looked_at());
            follow_activity(state, map, false)
        }
        _ => {
            state.notify.looked_at.clear();
            Vec::new()
        }
    };
    effects.push(Effect::Tmux(TmuxEffect::ApplyPoll(server)));
    // The first server seen: listen to it from now on.
    if state.link.events == TmuxEvents::Waiting {
        effects.extend(listen_if_due(state));
    }
    effects
}

/// What the control client said.
pub fn event(state: &mut AppState, event: Event) -> Vec<Effect> {
    match event {
        Event::Connected => {
            state.link.events = TmuxEvents::Live;
            // Whatever changed before the subscription was in place.
            poll(state)
        }
        Event::Changed => poll(state),
        // The row goes at once if that was its session's last window; the
        // poll says the rest.
        Event::WindowClosed(window) => {
            let mut effects = vec![Effect::Tmux(TmuxEffect::ForgetWindow(window))];
            effects.extend(poll(state));
            effects
        }
        Event::Lost(why) => {
            let mut backoff = match &state.link.events {
                TmuxEvents::Lost { backoff, .. } => *backoff,
                _ => Backoff::new(MAX_BACKOFF_SECONDS),
            };
            let wait = backoff.fail();
            tracing::info!(%why, wait = wait.num_seconds(), "tmux events lost: polling");
            state.link.events = TmuxEvents::Lost {
                why,
                since: state.now,
                retry: state.now + wait,
                backoff,
            };
            // Whatever ended the client (a server gone, say) is news.
            poll(state)
        }
        Event::Unsupported(why) => {
            state.link.events = TmuxEvents::Off(why);
            Vec::new()
        }
    }
}
