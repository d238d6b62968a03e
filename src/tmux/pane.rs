//! Panes: what the poll says about each one, and the actions greenroom
//! takes on the one pane of an agent it did not start (adopted): kill that
//! pane alone, never its session or the user's other windows.
//!
//! A pane id (`%12`) comes from tmux's answer or a hook's `TMUX_PANE`, so
//! it is checked (`%` then digits) before it is ever handed to tmux; as a
//! target it is exact, and tmux expands no format in it.

use std::collections::BTreeMap;
use std::ops::Deref;

use chrono::{DateTime, Utc};

use super::{Tmux, TmuxError};
pub use crate::model::{PaneId, TmuxFacts, TmuxTarget};

/// One live pane at a poll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pane {
    pub id: PaneId,
    /// The pane's first process (its shell, or the program it was started with).
    pub pid: u32,
    /// `#{pane_current_command}`: the first word of the foreground
    /// program's argv, as tmux reads it. Untrusted.
    pub command: String,
    pub session: String,
    pub window_activity: Option<DateTime<Utc>>,
    pub last_attached: Option<DateTime<Utc>>,
}

impl Pane {
    /// This pane's own facts, for the activity rules.
    pub fn facts(&self) -> TmuxFacts {
        TmuxFacts {
            pane_dead: false,
            exit_status: None,
            window_activity: self.window_activity,
            last_attached: self.last_attached,
        }
    }
}

/// What one `list-panes -a` said: facts by session name (what most of
/// greenroom reads, hence the `Deref`) and the live panes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Server {
    sessions: BTreeMap<String, TmuxFacts>,
    panes: Vec<Pane>,
    /// Each session's id (`$3`), by name: what a refresh targets.
    ids: BTreeMap<String, String>,
    /// The sessions each window (`@4`) is in, by id: what a window closing
    /// takes with it.
    windows: BTreeMap<String, std::collections::BTreeSet<String>>,
    /// The sessions and panes a client shows (its session's active window's
    /// active pane): what the operator is looking at.
    looked_at: std::collections::BTreeSet<TmuxTarget>,
}

impl Server {
    pub fn new(sessions: BTreeMap<String, TmuxFacts>, panes: Vec<Pane>) -> Self {
        Self {
            sessions,
            panes,
            ids: BTreeMap::new(),
            windows: BTreeMap::new(),
            looked_at: std::collections::BTreeSet::new(),
        }
    }

    pub(super) fn with_looked_at(
        mut self,
        looked_at: std::collections::BTreeSet<TmuxTarget>,
    ) -> Self {
        self.looked_at = looked_at;
        self
    }

    /// The sessions (by name) and panes a client of this server shows.
    pub fn looked_at(&self) -> &std::collections::BTreeSet<TmuxTarget> {
        &self.looked_at
    }

    pub(super) fn with_ids(
        mut self,
        ids: BTreeMap<String, String>,
        windows: BTreeMap<String, std::collections::BTreeSet<String>>,
    ) -> Self {
        self.ids = ids;
        self.windows = windows;
        self
    }

    /// This server once window `id` closed (tmux said `%window-close` or
    /// `%unlinked-window-close`): a session whose only window it was is
    /// gone, as tmux destroys a session with no window. A window linked
    /// into several sessions says nothing of which one lost it: only the
    /// poll can tell, so nothing changes then.
    pub fn without_window(&self, id: &str) -> Server {
        let mut next = self.clone();
        let Some(sessions) = next.windows.remove(id) else {
            return next;
        };
        let [session] = sessions.iter().collect::<Vec<_>>()[..] else {
            next.windows.insert(id.to_owned(), sessions);
            return next;
        };
        let other = next.windows.values().any(|s| s.contains(session));
        if !other {
            next.sessions.remove(session);
            next.ids.remove(session);
            next.panes.retain(|p| &p.session != session);
        }
        next
    }

    /// What a refresh asks tmux for to read the row `target` stands for
    /// (a session, or an adopted pane): an id, never the name itself.
    pub fn refresh_target(&self, target: impl Into<TmuxTarget>) -> Option<String> {
        match target.into() {
            TmuxTarget::Pane(pane) => Some(pane.as_str().to_owned()),
            TmuxTarget::Session(name) => self.ids.get(&name).cloned(),
        }
    }

    /// Whether a refresh found its sessions as this server has them (the
    /// usual answer, each second, for an idle selection: nothing to apply).
    pub fn holds(&self, part: &Server) -> bool {
        let mine = || {
            self.panes
                .iter()
                .filter(|p| part.sessions.contains_key(&p.session))
        };
        part.sessions
            .iter()
            .all(|(name, facts)| self.sessions.get(name) == Some(facts))
            && mine().count() == part.panes.len()
            && part.panes.iter().all(|p| mine().any(|q| q == p))
    }

    /// This server with the sessions a refresh read replaced by what it
    /// read (facts, panes, ids); every other session as it was.
    pub fn refreshed(&self, part: &Server) -> Server {
        let mut next = self.clone();
        for (name, facts) in &part.sessions {
            next.sessions.insert(name.clone(), facts.clone());
        }
        next.panes
            .retain(|p| !part.sessions.contains_key(&p.session));
        next.panes.extend(part.panes.iter().cloned());
        next.ids.extend(part.ids.clone());
        next
    }

    pub fn sessions(&self) -> &BTreeMap<String, TmuxFacts> {
        &self.sessions
    }

    pub fn panes(&self) -> &[Pane] {
        &self.panes
    }
}

impl Deref for Server {
    type Target = BTreeMap<String, TmuxFacts>;

    fn deref(&self) -> &Self::Target {
        &self.sessions
    }
}

impl From<BTreeMap<String, TmuxFacts>> for Server {
    fn from(sessions: BTreeMap<String, TmuxFacts>) -> Self {
        Self::new(sessions, Vec::new())
    }
}

/// A tmux client's name (`/dev/pts/3`, `client-1234`): what the popup's
/// key passes, checked before greenroom hands it to `switch-client -c`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientName(String);

impl ClientName {
    pub fn parse(text: &str) -> Result<Self, String> {
        let plain = |c: char| c.is_ascii_alphanumeric() || "/_.-".contains(c);
        if text.is_empty() || text.len() > 256 || !text.chars().all(plain) || text.starts_with('-')
        {
            return Err(format!(
                "--popup {:?} is not a tmux client name (like /dev/pts/3)",
                text.chars().take(64).collect::<String>()
            ));
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Tmux {
    /// Moves one client (the popup's) to a session or an adopted pane.
    pub fn switch_client_of(
        &self,
        client: &ClientName,
        target: impl Into<TmuxTarget>,
    ) -> Result<(), TmuxError> {
        let target = self.session_target(&target.into())?;
        self.run(["switch-client", "-c", client.as_str(), "-t", &target])
            .map(drop)
    }

    /// Closes one pane: the agent's. Its window goes only if that was its
    /// last pane, its session only if that was its last window.
    pub fn kill_pane(&self, pane: &PaneId) -> Result<(), TmuxError> {
        self.run(["kill-pane", "-t", pane.as_str()]).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pane_ids_are_checked() {
        for ok in ["%0", "%12", "%4294967295"] {
            assert_eq!(
                PaneId::parse(ok).map(|p| p.as_str().to_owned()),
                Some(ok.to_owned())
            );
        }
        for bad in [
            "",
            "%",
            "12",
            "%1a",
            "%-1",
            " %1",
            "%1 ",
            "%#{pane_id}",
            "%12345678901",
        ] {
            assert_eq!(PaneId::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn client_names_are_checked() {
        for ok in ["/dev/pts/3", "client-1234", "/dev/ttys001"] {
            assert!(ClientName::parse(ok).is_ok(), "{ok}");
        }
        for bad in ["", "-t", "/dev/pts/3;x", "#{client_name}", "a b", "'x'"] {
            assert!(ClientName::parse(bad).is_err(), "{bad:?}");
        }
    }

    /// `list-panes -a` lines: (session name, session id, window id).
    fn server(panes: &[(&str, &str, &str)]) -> Server {
        let sep = super::super::SEP.to_string();
        let text: Vec<String> = panes
            .iter()
            .enumerate()
            .map(|(i, (name, id, window))| {
                let pane = format!("%{i}");
                [
                    "0",
                    "",
                    "1700000000",
                    "0",
                    &pane,
                    "100",
                    id,
                    window,
                    "0:11",
                    "sh",
                    name,
                ]
                .join(&sep)
            })
            .collect();
        super::super::parse_server(&text.join("\n"))
    }

    #[test]
    fn a_window_closing_takes_the_session_it_was_the_last_of() {
        let s = server(&[
            ("one", "$1", "@1"),
            ("two", "$2", "@2"),
            ("two", "$2", "@3"),
            ("linked-a", "$4", "@4"),
            ("linked-b", "$5", "@4"),
        ]);
        let names = |s: &Server| s.keys().cloned().collect::<Vec<_>>();
        let after = s.without_window("@1");
        assert_eq!(names(&after), ["linked-a", "linked-b", "two"]);
        assert!(after.panes().iter().all(|p| p.session != "one"));
        assert_eq!(after.refresh_target("one"), None);
        // A session with another window stays; so do both sessions of a
        // linked window (which one lost it, only the poll can say).
        assert_eq!(names(&s.without_window("@2")), names(&s));
        let both = s.without_window("@2").without_window("@3");
        assert_eq!(names(&both), ["linked-a", "linked-b", "one"]);
        assert_eq!(names(&s.without_window("@4")), names(&s));
        assert_eq!(names(&s.without_window("@99")), names(&s));
    }

    #[test]
    fn a_refresh_that_found_nothing_new_is_held_already() {
        let s = server(&[("one", "$1", "@1"), ("two", "$2", "@2")]);
        // Pane ids follow the line: "two"'s pane is "%0" here, "%1" in `s`.
        let same = server(&[("two", "$2", "@2")]);
        assert!(!s.holds(&same), "another pane");
        let merged = s.refreshed(&same);
        assert!(merged.holds(&same));
        let mut moved = same.clone();
        if let Some(f) = moved.sessions.get_mut("two") {
            f.window_activity = None;
        }
        assert!(!merged.holds(&moved));
    }

    #[test]
    fn a_session_name_never_stands_for_a_pane() {
        // The names the old `:%ID` form used are session names now, and
        // only a `PaneId` names a pane.
        assert_eq!(TmuxTarget::from(":%7"), TmuxTarget::Session(":%7".into()));
        assert_eq!(TmuxTarget::from("%7"), TmuxTarget::Session("%7".into()));
    }
}
