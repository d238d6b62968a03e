//! A tmux server of greenroom's own making (the demo's): no config file,
//! kept alive without sessions, and the options and environment its
//! sessions need. Its argv is built here, like every tmux call's.

use std::ffi::OsString;
use std::path::PathBuf;

use super::{Tmux, TmuxError};

/// How greenroom's own server starts.
pub struct OwnServer<'a> {
    /// The first session: it also keeps the server from ever being empty
    /// (tmux answers `has-session` on an empty server with "no current
    /// target" instead of "can't find session").
    pub keeper: &'a str,
    /// What the first session runs, as an `sh -c` script.
    pub keeper_script: &'a str,
    /// The size of new windows, e.g. `100x40`.
    pub size: &'a str,
    /// The right of the status line (up to 60 characters shown).
    pub status_right: &'a str,
    /// A key that detaches the client, bound with no prefix.
    pub detach_key: &'a str,
    /// Variables every session's programs get.
    pub environment: &'a [(&'a str, PathBuf)],
}

impl OwnServer<'_> {
    /// The server's start, as one tmux command line.
    fn argv(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = ["-f", "/dev/null", "new-session", "-d", "-s"]
            .iter()
            .chain(&[self.keeper, "sh", "-c", self.keeper_script, ";"])
            .chain(&["set-option", "-s", "exit-empty", "off", ";"])
            .chain(&["set-option", "-g", "default-shell", "/bin/sh", ";"])
            .chain(&["set-option", "-g", "default-size", self.size, ";"])
            .chain(&["set-option", "-g", "status-right", self.status_right, ";"])
            .chain(&["set-option", "-g", "status-right-length", "60", ";"])
            .chain(&["bind-key", "-n", self.detach_key, "detach-client"])
            .map(Into::into)
            .collect();
        for (key, value) in self.environment {
            args.extend([";".into(), "set-environment".into(), "-g".into()]);
            args.extend([OsString::from(key), value.into()]);
        }
        args
    }
}

impl Tmux {
    /// Starts greenroom's own server on this socket, within the call's
    /// time bound like every tmux call.
    pub fn start_own_server(&self, server: &OwnServer<'_>) -> Result<(), TmuxError> {
        self.run(server.argv()).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_command_line_with_no_config_file_and_no_trailing_separator() {
        let environment = [("GREENROOM_LOG", PathBuf::from("/tmp/x.log"))];
        let server = OwnServer {
            keeper: "watchdog",
            keeper_script: "exec sleep 1",
            size: "100x40",
            status_right: " back: F12 ",
            detach_key: "F12",
            environment: &environment,
        };
        let argv: Vec<String> = server
            .argv()
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            argv[..6],
            ["-f", "/dev/null", "new-session", "-d", "-s", "watchdog"]
        );
        assert_eq!(
            argv[argv.len() - 5..],
            [";", "set-environment", "-g", "GREENROOM_LOG", "/tmp/x.log"]
        );
        assert!(
            argv.windows(4)
                .any(|w| w == ["bind-key", "-n", "F12", "detach-client"])
        );
    }
}
