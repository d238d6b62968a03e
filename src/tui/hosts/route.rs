//! What the operator does to a host's row goes to that host: the effect
//! becomes a `greenroom` command run there over ssh, with the row's id
//! checked and placed after `--`.

use super::super::action::{Effect, RemoteAct};
use super::super::state::AppState;
use super::split;

fn name_of(state: &AppState, row_id: &str) -> String {
    state
        .rows
        .iter()
        .find(|r| r.id == row_id)
        .map_or_else(|| row_id.to_owned(), |r| r.name.clone())
}

fn on_host(state: &AppState, row_id: &str, act: RemoteAct, args: &[&str]) -> Option<Effect> {
    let (host, id) = split(state, row_id)?;
    if !crate::hosts::valid_remote_id(id) {
        return None;
    }
    // The id comes last, after `--`: never taken for an option there.
    let mut argv: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    argv.push(id.to_owned());
    Some(Effect::OnHost {
        host: host.to_owned(),
        args: argv,
        act,
        name: name_of(state, row_id),
    })
}

/// Effects on a host's rows go to that host; the rest stay as they are.
pub fn route(state: &mut AppState, effects: Vec<Effect>) -> Vec<Effect> {
    if state.hosts.is_empty() {
        return effects;
    }
    let mut out = Vec::with_capacity(effects.len());
    let mut refused = false;
    for effect in effects {
        match effect {
            Effect::Kill { ids } => {
                let (remote, local): (Vec<_>, Vec<_>) =
                    ids.into_iter().partition(|id| split(state, id).is_some());
                out.extend(remote.iter().filter_map(|id| {
                    on_host(state, id, RemoteAct::Kill, &["kill", "--yes", "--"])
                }));
                if !local.is_empty() {
                    out.push(Effect::Kill { ids: local });
                }
            }
            Effect::Dismiss { ids } => {
                let (remote, local): (Vec<_>, Vec<_>) =
                    ids.into_iter().partition(|id| split(state, id).is_some());
                out.extend(remote.iter().filter_map(|id| {
                    on_host(state, id, RemoteAct::Dismiss, &["dismiss", "--yes", "--"])
                }));
                if !local.is_empty() {
                    out.push(Effect::Dismiss { ids: local });
                }
            }
            Effect::Restore { id } if split(state, &id).is_some() => {
                out.extend(on_host(state, &id, RemoteAct::Restore, &["restore", "--"]));
            }
            Effect::Send { id, text } if split(state, &id).is_some() => {
                let mut e = on_host(state, &id, RemoteAct::Send, &["send", "--"]);
                if let Some(Effect::OnHost { args, .. }) = &mut e {
                    args.push(text);
                }
                out.extend(e);
            }
            Effect::Attach { id } if split(state, &id).is_some() => {
                if let Some((host, rid)) = split(state, &id)
                    && crate::hosts::valid_remote_id(rid)
                {
                    out.push(Effect::AttachRemote {
                        host: host.to_owned(),
                        id: rid.to_owned(),
                        name: name_of(state, &id),
                    });
                }
            }
            // The preview asks the host; the pane beside is this machine's tmux.
            Effect::CapturePreview { id, .. } if split(state, &id).is_some() => {
                if let Some((host, rid)) = split(state, &id)
                    && crate::hosts::valid_remote_id(rid)
                {
                    out.push(Effect::CaptureRemote {
                        host: host.to_owned(),
                        id: rid.to_owned(),
                        row: id.clone(),
                    });
                }
            }
            Effect::OpenBeside { id } | Effect::Follow { id, .. }
                if split(state, &id).is_some() =>
            {
                refused = true;
            }
            other => out.push(other),
        }
    }
    if refused {
        state.say("the pane beside shows this machine's sessions only: enter attaches over ssh");
    }
    out
}
