//! `greenroom ls --all-hosts`: every host's `greenroom ls --json`, once,
//! in parallel, each bounded in time. A host that fails is a one-line
//! problem; the others are listed.

use std::path::PathBuf;
use std::time::Duration;

use super::HostConfig;
use crate::sources::wire::{RemoteRow, parse_ls};

/// How long one host may take, connecting included.
pub const HOST_LIMIT: Duration = Duration::from_secs(15);

/// What one host answered.
#[derive(Debug)]
pub struct HostList {
    pub host: String,
    /// Its rows and its problems, or why it could not be listed.
    pub answer: Result<(Vec<RemoteRow>, Vec<String>), String>,
}

/// Asks every host at once; answers come back in the config's order.
pub fn list_all(
    hosts: &[HostConfig],
    control_dir: &Result<PathBuf, String>,
    include_archive: bool,
) -> Vec<HostList> {
    let args: &[&str] = if include_archive {
        &["ls", "--json", "--all"]
    } else {
        &["ls", "--json"]
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = hosts
            .iter()
            .map(|h| {
                scope.spawn(move || {
                    let answer = match control_dir {
                        Err(e) => Err(format!("no ssh control folder: {e}")),
                        Ok(dir) => super::ssh::run(h, dir, args, HOST_LIMIT)
                            .map_err(|e| e.to_string())
                            .and_then(|text| {
                                parse_ls(&text, &h.name).map_err(|e| format!("{}: {e}", h.name))
                            }),
                    };
                    HostList {
                        host: h.name.clone(),
                        answer,
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .zip(hosts)
            .map(|(handle, h)| {
                handle.join().unwrap_or_else(|_| HostList {
                    host: h.name.clone(),
                    answer: Err(format!("{}: listing it failed", h.name)),
                })
            })
            .collect()
    })
}
