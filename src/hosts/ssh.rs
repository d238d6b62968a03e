//! The only code that runs ssh. The system `ssh`, argv only (no local
//! shell), one multiplexed connection per host: `ControlMaster=auto` with
//! its socket in a private folder (0700), kept for a minute after the last
//! use (`ControlPersist`), so the stream, the actions and `ls --all-hosts`
//! share one login. Every call is bounded in time and output, like tmux
//! calls (`crate::process`).
//!
//! ssh hands the remote side one command line, which the remote shell
//! splits: every word greenroom puts there is quoted, and ids are checked
//! ([`super::valid_remote_id`]) before they get there.
//!
//! sshd runs that line through the user's login shell, which reads its
//! startup files first (bash run by sshd: `/etc/bash.bashrc`, `~/.bashrc`;
//! zsh: `~/.zshenv`). Nothing on ssh's command line can stop that, and it is
//! where a user's PATH to greenroom often is, so it is left alone: a slow
//! one only costs time within each call's bound, and a broken one shows as
//! that call's error.

use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::HostConfig;
use crate::environ::Env;
use crate::process::{Limits, Overflow, ProcessError, Spec};
use crate::tmux::shell_quote;

/// How long ssh may take to connect before the host counts as unreachable.
pub const CONNECT_TIMEOUT_SECS: u32 = 5;
/// The most output a one-shot call keeps (a host's `ls --json`).
pub const MAX_OUTPUT: usize = 16 * 1024 * 1024;

/// Why a call on a host failed, in one line for the operator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SshError {
    #[error("ssh is not installed")]
    NotInstalled,
    #[error("cannot reach {host}: {reason}")]
    Unreachable { host: String, reason: String },
    #[error("{host}: greenroom is not on its PATH (set `greenroom` in its [[hosts]] entry)")]
    NoGreenroom { host: String },
    #[error("{host}: {reason}")]
    Failed { host: String, reason: String },
    #[error("{host} did not answer within {secs} s")]
    TimedOut { host: String, secs: u64 },
    #[error("ssh: {0}")]
    Io(String),
}

/// The private folder of ssh's control sockets: `$XDG_RUNTIME_DIR/greenroom-ssh`,
/// else `<tmp>/greenroom-ssh-<uid>`. Made 0700; refused when it is a link,
/// someone else's, or open to others.
pub fn control_dir(env: &dyn Env) -> Result<PathBuf, String> {
    let uid = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
    let tmp = env
        .var("TMPDIR")
        .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
    let dir = match (env.var("XDG_RUNTIME_DIR"), uid) {
        (Some(run), _) => PathBuf::from(run).join("greenroom-ssh"),
        (None, Some(uid)) => tmp.join(format!("greenroom-ssh-{uid}")),
        (None, None) => tmp.join("greenroom-ssh"),
    };
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot make {}: {e}", dir.display())),
    }
    let meta = std::fs::symlink_metadata(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    if uid.is_some_and(|u| u != meta.uid()) {
        return Err(format!("{} belongs to someone else", dir.display()));
    }
    if meta.mode() & 0o077 != 0 {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| format!("cannot make {} private: {e}", dir.display()))?;
    }
    Ok(dir)
}

/// greenroom's command line on the host, each word quoted for its shell.
pub fn remote_line(host: &HostConfig, args: &[&str]) -> String {
    let program = match host.greenroom.as_deref().map(str::trim) {
        None | Some("greenroom") => "greenroom".to_owned(),
        Some(p) => match p.strip_prefix("~/") {
            Some(rest) => format!("\"$HOME\"/{}", shell_quote(rest)),
            None => shell_quote(p),
        },
    };
    std::iter::once(program)
        .chain(args.iter().map(|a| shell_quote(a)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `ssh` to `host` through its multiplexed connection, ready for the
/// remote command (added by the caller after the destination): the one
/// place its argv is built.
fn spec(host: &HostConfig, control_dir: &Path, tty: bool) -> Spec {
    let mut spec = Spec::new("ssh");
    let control = control_dir.join("%C");
    spec.arg(if tty { "-t" } else { "-T" })
        .args(["-o", "BatchMode=yes"])
        .arg("-o")
        .arg(format!("ConnectTimeout={CONNECT_TIMEOUT_SECS}"))
        .args(["-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=2"])
        .args(["-o", "ControlMaster=auto", "-o", "ControlPersist=60"])
        .arg("-o")
        .arg(format!("ControlPath={}", control.display()))
        .args(&host.ssh_options)
        .arg("--")
        .arg(host.ssh.trim());
    spec
}

/// [`spec`] as a command, for the children that outlive one call (a
/// host's stream, an attach with the terminal): their owner picks the
/// pipes.
pub fn command(host: &HostConfig, control_dir: &Path, tty: bool) -> Command {
    spec(host, control_dir, tty).command()
}

/// Runs `greenroom ARGS` on the host and returns its stdout, within `limit`
/// and [`MAX_OUTPUT`].
pub fn run(
    host: &HostConfig,
    control_dir: &Path,
    args: &[&str],
    limit: Duration,
) -> Result<String, SshError> {
    let mut spec = spec(host, control_dir, false);
    spec.arg(remote_line(host, args));
    let limits = Limits {
        timeout: limit,
        stdout: MAX_OUTPUT,
        stderr: 64 * 1024,
        overflow: Overflow::Fail,
    };
    let (code, stderr) = match spec.run(limits) {
        Ok(out) => return Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        Err(ProcessError::Exited { code, stderr, .. }) => (code, stderr),
        Err(e) => return Err(failure(&host.name, limit, e)),
    };
    let host = host.name.clone();
    Err(match code {
        Some(255) => SshError::Unreachable {
            host,
            reason: last_line(&stderr).unwrap_or_else(|| "ssh failed".into()),
        },
        Some(127) => SshError::NoGreenroom { host },
        other => SshError::Failed {
            host,
            reason: last_line(&stderr).unwrap_or_else(|| match other {
                Some(c) => format!("exit code {c}"),
                None => "ended by a signal".into(),
            }),
        },
    })
}

/// A call that gave no exit code, as ssh's kind of failure.
fn failure(host: &str, limit: Duration, e: ProcessError) -> SshError {
    match e {
        e if e.not_found() => SshError::NotInstalled,
        ProcessError::TimedOut { .. } => SshError::TimedOut {
            host: host.to_owned(),
            secs: limit.as_secs(),
        },
        ProcessError::OverCap { cap, .. } => SshError::Failed {
            host: host.to_owned(),
            reason: format!("wrote more than {} MiB", cap >> 20),
        },
        ProcessError::Spawn { source, .. } | ProcessError::Io { source, .. } => {
            SshError::Io(source.to_string())
        }
        ProcessError::Exited { .. } => SshError::Io(e.to_string()),
    }
}

/// The last line a program wrote on stderr, safe to show, bounded.
pub fn last_line(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let line = text.lines().rev().find(|l| !l.trim().is_empty())?;
    let line = line.trim().trim_start_matches("greenroom: ");
    Some(crate::display::fit(&crate::display::safe(line), 200))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(greenroom: Option<&str>) -> HostConfig {
        HostConfig {
            name: "build".into(),
            ssh: "me@build".into(),
            ssh_options: vec!["-p".into(), "2222".into()],
            greenroom: greenroom.map(Into::into),
        }
    }

    #[test]
    fn the_remote_line_quotes_every_word() {
        assert_eq!(
            remote_line(&host(None), &["kill", "--yes", "a'b"]),
            r"greenroom 'kill' '--yes' 'a'\''b'"
        );
        assert_eq!(
            remote_line(&host(Some("~/bin/green room")), &["ls"]),
            "\"$HOME\"/'bin/green room' 'ls'"
        );
        assert_eq!(remote_line(&host(Some("/opt/gr")), &[]), "'/opt/gr'");
    }

    #[test]
    fn the_destination_comes_after_the_options_and_a_double_dash() {
        let cmd = command(&host(None), Path::new("/run/x"), false);
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let dash = args.iter().position(|a| a == "--").unwrap_or(usize::MAX);
        assert_eq!(args.get(dash + 1).map(String::as_str), Some("me@build"));
        assert!(args.contains(&"ControlPath=/run/x/%C".to_owned()));
        assert!(args.contains(&"BatchMode=yes".to_owned()));
        let port = args.iter().position(|a| a == "2222").unwrap_or(usize::MAX);
        assert!(port < dash);
    }

    #[test]
    fn stderr_is_one_safe_line() {
        assert_eq!(
            last_line(b"warning\nssh: connect to host x port 22: Connection refused\r\n\n"),
            Some("ssh: connect to host x port 22: Connection refused".into())
        );
        assert_eq!(last_line(b"bad \x1b[31m\n"), Some("bad \\x1b[31m".into()));
        assert_eq!(last_line(b""), None);
    }
}
