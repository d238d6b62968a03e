//! Reading the poll's answer: `list-panes -a` lines folded into per-session
//! facts and the panes discovery looks at.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, TimeZone, Utc};

use super::{Pane, PaneId, SEP, Server, TmuxTarget};
use crate::model::TmuxFacts;

fn epoch(text: &str) -> Option<DateTime<Utc>> {
    match text.trim().parse::<i64>() {
        Ok(0) | Err(_) => None,
        Ok(secs) => Utc.timestamp_opt(secs, 0).single(),
    }
}

/// Folds `list-panes -a` lines into one fact set per session: dead only
/// when every pane is dead, the latest activity of any window, the first
/// non-zero exit status. Each live pane is kept too, with its program.
///
/// The fixed-form fields (`%12`, a pid, `$3`, `@4`) come first; of the two free-form
/// ones the session name is last, as before, so a name holding the
/// separator is still read whole. A line with more separators than fields
/// (a name, or a program: a process may call itself anything) cannot say
/// which program its pane runs: that pane is left out of discovery.
pub fn parse_server(text: &str) -> Server {
    let mut out: BTreeMap<String, (TmuxFacts, bool)> = BTreeMap::new();
    let mut panes = Vec::new();
    let mut ids = BTreeMap::new();
    let mut windows = BTreeMap::new();
    let mut looked_at = BTreeSet::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.splitn(11, SEP).collect();
        let clear = line.matches(SEP).count() == 10;
        let [
            dead,
            status,
            activity,
            attached,
            pane,
            pid,
            id,
            window,
            looking,
            command,
            name,
        ] = fields[..]
        else {
            continue;
        };
        if super::poll::is_id(id) && id.starts_with('$') {
            ids.insert(name.to_owned(), id.to_owned());
        }
        if super::poll::is_id(window) {
            windows
                .entry(window.to_owned())
                .or_insert_with(BTreeSet::new)
                .insert(name.to_owned());
        }
        let dead = dead == "1";
        if !dead && is_looked_at(looking) {
            looked_at.insert(TmuxTarget::Session(name.to_owned()));
            if let Some(pane) = PaneId::parse(pane) {
                looked_at.insert(TmuxTarget::Pane(pane));
            }
        }
        let status = status.trim().parse::<i32>().ok().filter(|_| dead);
        let entry = out.entry(name.to_owned()).or_insert_with(|| {
            (
                TmuxFacts {
                    pane_dead: true,
                    ..TmuxFacts::default()
                },
                false,
            )
        });
        let (facts, seen_status) = entry;
        facts.pane_dead &= dead;
        facts.window_activity = facts.window_activity.max(epoch(activity));
        facts.last_attached = facts.last_attached.max(epoch(attached));
        if let Some(s) = status
            && (!*seen_status || s != 0)
        {
            facts.exit_status = Some(s);
            *seen_status = true;
        }
        if let (false, true, Some(id), Ok(pid)) =
            (dead, clear, PaneId::parse(pane), pid.parse::<u32>())
        {
            panes.push(Pane {
                id,
                pid,
                command: command.to_owned(),
                session: name.to_owned(),
                window_activity: epoch(activity),
                last_attached: epoch(attached),
            });
        }
    }
    let sessions = out
        .into_iter()
        .map(|(name, (mut facts, _))| {
            if !facts.pane_dead {
                facts.exit_status = None;
            }
            (name, facts)
        })
        .collect();
    Server::new(sessions, panes)
        .with_ids(ids, windows)
        .with_looked_at(looked_at)
}

/// `#{session_attached}:#{window_active}#{pane_active}`: a client shows
/// this pane (its session attached, its window and pane the active ones).
fn is_looked_at(field: &str) -> bool {
    match field.split_once(':') {
        Some((attached, active)) => attached.parse::<u32>().is_ok_and(|n| n > 0) && active == "11",
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(fields: [&str; 5]) -> String {
        let [dead, status, activity, attached, name] = fields;
        [
            dead, status, activity, attached, "%1", "100", "$1", "@1", "0:11", "bash", name,
        ]
        .join(&SEP.to_string())
    }

    #[test]
    fn panes_fold_into_sessions() {
        let text = [
            line(["0", "", "1700000000", "0", "api-1"]),
            line(["1", "3", "1700000100", "1700000050", "api-10"]),
            line(["0", "", "1700000200", "0", "two panes"]),
            line(["1", "0", "1700000300", "0", "two panes"]),
            line(["1", "0", "1", "0", "name\u{1f}with sep"]),
            "garbage line".into(),
        ]
        .join("\n");
        let m = parse_server(&text);
        assert_eq!(m.len(), 4);
        let api1 = &m["api-1"];
        assert!(!api1.pane_dead);
        assert_eq!(api1.last_attached, None);
        assert_eq!(api1.window_activity, epoch("1700000000"));
        let api10 = &m["api-10"];
        assert!(api10.pane_dead);
        assert_eq!(api10.exit_status, Some(3));
        assert_eq!(api10.last_attached, epoch("1700000050"));
        let two = &m["two panes"];
        assert!(!two.pane_dead, "one live pane keeps the session alive");
        assert_eq!(two.exit_status, None);
        assert_eq!(two.window_activity, epoch("1700000300"));
        assert!(m.contains_key("name\u{1f}with sep"));
    }

    #[test]
    fn live_panes_are_kept_with_their_program() {
        let sep = SEP.to_string();
        let text = [
            [
                "0",
                "",
                "1700000000",
                "0",
                "%3",
                "4242",
                "$1",
                "@1",
                "0:11",
                "claude",
                "work",
            ]
            .join(&sep),
            [
                "1",
                "0",
                "1700000000",
                "0",
                "%4",
                "4243",
                "$1",
                "@1",
                "0:11",
                "claude",
                "work",
            ]
            .join(&sep),
            [
                "0",
                "",
                "1700000000",
                "0",
                "%x",
                "4244",
                "$1",
                "@1",
                "0:11",
                "gemini",
                "work",
            ]
            .join(&sep),
            [
                "0",
                "",
                "1700000000",
                "0",
                "%5",
                "4245",
                "$1",
                "@1",
                "0:11",
                "no\u{1f}de",
                "w",
            ]
            .join(&sep),
        ]
        .join("\n");
        let server = parse_server(&text);
        let ids: Vec<&str> = server.panes().iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["%3"], "dead panes and bad pane ids are left out");
        let p = &server.panes()[0];
        assert_eq!(
            (p.pid, p.command.as_str(), p.session.as_str()),
            (4242, "claude", "work")
        );
        assert!(server.contains_key("work"));
    }

    #[test]
    fn a_pane_a_client_shows_is_looked_at() {
        let sep = SEP.to_string();
        let line = |looking: &str, pane: &str, name: &str| {
            [
                "0", "", "1", "0", pane, "1", "$1", "@1", looking, "sh", name,
            ]
            .join(&sep)
        };
        let text = [
            line("1:11", "%1", "shown"),
            line("2:10", "%2", "other-pane"),
            line("0:11", "%3", "detached"),
            line("x", "%4", "garbage"),
        ]
        .join("\n");
        let server = parse_server(&text);
        let seen: Vec<&TmuxTarget> = server.looked_at().iter().collect();
        let pane = TmuxTarget::Pane(PaneId::parse("%1").unwrap());
        assert_eq!(seen, [&TmuxTarget::Session("shown".into()), &pane]);
    }
}
