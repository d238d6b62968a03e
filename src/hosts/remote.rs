//! Acting on a host's sessions over its one ssh connection: one
//! `greenroom …` command line there per row, the pane's capture, and
//! attaching with a terminal (`ssh -t`). The dashboard says what to run
//! and words the outcome; this runs it.

use std::path::PathBuf;
use std::time::Duration;

use super::HostConfig;

/// How long an action on a host may take.
const ACT_LIMIT: Duration = Duration::from_secs(20);

/// The most of a host's pane a capture keeps.
const MAX_CAPTURE: usize = 256 * 1024;

/// A host, and the folder of its ssh connection, when both are known.
pub struct Reach {
    pub host: Option<HostConfig>,
    pub control: Result<PathBuf, String>,
}

impl Reach {
    fn both(self) -> Result<(HostConfig, PathBuf), String> {
        match (self.host, self.control) {
            (None, _) => Err("its host is not in config.toml".to_owned()),
            (_, Err(e)) => Err(format!("no ssh control folder: {e}")),
            (Some(h), Ok(c)) => Ok((h, c)),
        }
    }
}

/// Runs each `(name, argv)` on the host, in order: the names that went
/// through, and `name: why` for the others; `Err` when the host cannot be
/// reached at all.
pub fn run_each(
    reach: Reach,
    calls: &[(String, Vec<String>)],
) -> Result<(Vec<String>, Vec<String>), String> {
    let (host, control) = reach.both()?;
    let (mut ok, mut failed) = (Vec::new(), Vec::new());
    for (name, args) in calls {
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        match super::ssh::run(&host, &control, &argv, ACT_LIMIT) {
            Ok(_) => ok.push(name.clone()),
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    Ok((ok, failed))
}

/// The pane of the host's session `id`, cut to [`MAX_CAPTURE`] bytes, or
/// why not, in words for the preview.
pub fn capture(reach: Reach, id: &str) -> String {
    let Ok((host, control)) = reach.both() else {
        return "cannot capture the pane: its host is not reachable".into();
    };
    match super::ssh::run(&host, &control, &["capture", "--", id], ACT_LIMIT) {
        Ok(mut text) => {
            if text.len() > MAX_CAPTURE {
                let mut cut = MAX_CAPTURE;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
            }
            text
        }
        Err(e) => format!("cannot capture the pane: {e}"),
    }
}

/// Inside tmux (`tmux_env`, the caller's `$TMUX`): `ssh -t HOST greenroom
/// attach ID` in a new window of that server, so the dashboard stays as it
/// is; `None` outside tmux (the caller hands over its terminal and uses
/// [`attach`]).
pub fn attach_in_window(
    reach: Reach,
    tmux_env: Option<&str>,
    id: &str,
    name: &str,
) -> Option<Result<(), String>> {
    let here = crate::tmux::host_from_env(tmux_env)?;
    let Ok((host, control)) = reach.both() else {
        return Some(Err(format!("{name}: cannot reach its host")));
    };
    let mut cmd = super::ssh::command(&host, &control, true);
    cmd.arg(super::ssh::remote_line(&host, &["attach", "--", id]));
    let line: Vec<String> = std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| crate::tmux::shell_quote(&a.to_string_lossy()))
        .collect();
    Some(
        here.new_window(&host.name, &line.join(" "))
            .map_err(|e| format!("{name}: cannot open a window: {e}")),
    )
}

/// `ssh -t HOST greenroom attach ID`, with the terminal (the caller has
/// handed it over); `Ok` once the operator detached.
pub fn attach(reach: Reach, id: &str, name: &str) -> Result<(), String> {
    let Ok((host, control)) = reach.both() else {
        return Err(format!("{name}: cannot reach its host"));
    };
    let mut cmd = super::ssh::command(&host, &control, true);
    cmd.arg(super::ssh::remote_line(&host, &["attach", "--", id]));
    match cmd.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!(
            "{name}: attaching over ssh failed ({})",
            s.code()
                .map_or("a signal".into(), |c| format!("exit code {c}"))
        )),
        Err(e) => Err(format!("{name}: cannot run ssh: {e}")),
    }
}
