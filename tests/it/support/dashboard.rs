//! The built dashboard in a tmux pane, as an operator runs it: a session
//! `dash` of the server that stands for the operator's terminal.

use std::path::Path;

use super::{Pane, TmuxServer, World};

impl World {
    /// The dashboard on this world's folders and `agents`' sessions, in a
    /// session `dash` of `terminal` (`size`: columns, rows), with HOME in
    /// this world and `env` set. `agents` may be `terminal` itself.
    pub fn dashboard<'a>(
        &self,
        agents: &TmuxServer,
        terminal: &'a TmuxServer,
        size: (u16, u16),
        env: &[(&str, &Path)],
    ) -> Pane<'a> {
        let line = self.greenroom_line(&agents.name);
        self.dash_running(terminal, size, env, &[line.as_str()])
    }

    /// A session `dash` of `terminal` running `command` (a shell line, or
    /// an argv such as `sh -c LINE`), with HOME in this world and `env` set:
    /// the dashboard with words of its own around it.
    pub fn dash_running<'a>(
        &self,
        terminal: &'a TmuxServer,
        size: (u16, u16),
        env: &[(&str, &Path)],
        command: &[&str],
    ) -> Pane<'a> {
        let (cols, rows) = (size.0.to_string(), size.1.to_string());
        let home = format!("HOME={}", self.dir.path().display());
        let vars: Vec<String> = std::iter::once(home)
            .chain(env.iter().map(|(k, v)| format!("{k}={}", v.display())))
            .collect();
        let mut args = vec!["new-session", "-d", "-s", "dash", "-x", &cols, "-y", &rows];
        for v in &vars {
            args.extend(["-e", v.as_str()]);
        }
        args.extend_from_slice(command);
        terminal.run(&args);
        Pane::new(terminal, "dash")
    }
}
