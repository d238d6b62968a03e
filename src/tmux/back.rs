//! What greenroom tells tmux when it moves a client, so that prefix b (the
//! tmux block's binding, `sources::tmux_conf`) brings the client back to
//! the very pane it was on: in another session, or in another window of the
//! same session, where `switch-client -l` (which knows only sessions)
//! would do nothing.
//!
//! Two user options of the server hold it: the pane to go back to, and
//! where greenroom put the client ("CLIENT PANE"). The binding goes back
//! only while the client is still exactly there; anywhere else it is
//! `switch-client -l`. One record for the server: the last move wins.

use super::{ClientName, Tmux, TmuxError};

/// The two user options (their names belong to the tmux block, which
/// reads them).
#[derive(Debug, Clone, Copy)]
pub struct BackOptions {
    /// The pane to go back to (`%3`).
    pub back: &'static str,
    /// Where greenroom put the client: `CLIENT PANE`.
    pub at: &'static str,
}

/// A client and the pane it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientPlace {
    pub client: String,
    pub pane: String,
}

impl Tmux {
    /// Where a client is: `client`, or else the one a `switch-client`
    /// without `-c` from greenroom moves (tmux's current client). `None`
    /// when tmux names none.
    pub fn client_place(&self, client: Option<&ClientName>) -> Option<ClientPlace> {
        let name = match client {
            Some(c) => c.as_str().to_owned(),
            None => self
                .run(["display-message", "-p", "#{client_name}"])
                .ok()?
                .trim()
                .to_owned(),
        };
        // `display-message -c` would read the pane from $TMUX_PANE (the
        // dashboard's, even in a popup); `list-clients` says what each
        // client shows.
        let clients = self
            .run(["list-clients", "-F", "#{client_name}\t#{pane_id}"])
            .ok()?;
        clients.lines().find_map(|line| {
            let (c, pane) = line.split_once('\t')?;
            (c == name && !name.is_empty() && is_pane_id(pane)).then(|| ClientPlace {
                client: c.to_owned(),
                pane: pane.to_owned(),
            })
        })
    }

    /// Records the way back for a client greenroom just moved from `from`.
    /// A move that left it on the same pane records nothing.
    pub fn remember_back(&self, options: BackOptions, from: &ClientPlace) -> Result<(), TmuxError> {
        let Ok(client) = ClientName::parse(&from.client) else {
            return Ok(());
        };
        let Some(now) = self.client_place(Some(&client)) else {
            return Ok(());
        };
        if now.pane == from.pane {
            return Ok(());
        }
        self.run(["set-option", "-g", options.back, &from.pane])?;
        let at = format!("{} {}", now.client, now.pane);
        self.run(["set-option", "-g", options.at, &at]).map(drop)
    }
}

/// `%` and digits: what tmux prints for `#{pane_id}`.
fn is_pane_id(text: &str) -> bool {
    text.strip_prefix('%')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}
