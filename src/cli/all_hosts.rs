//! `greenroom ls --all-hosts`: this machine's rows, then each `[[hosts]]`
//! entry's, asked once over ssh in parallel. Rows carry `host` (`null` for
//! this machine's); a host that cannot be listed is one problem line, and
//! the command still succeeds.

use std::io::Write;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::config::Config;
use crate::display::{safe, tilde};
use crate::hosts::list::{HostList, list_all};
use crate::model::{Problem, Session};

/// Prints the rows of every host as `args` asks.
pub fn print(
    config: &Config,
    args: &super::ls::LsArgs,
    local: &[Session],
    problems: &[Problem],
    now: DateTime<Utc>,
) -> std::io::Result<()> {
    let control = crate::hosts::ssh::control_dir(&config.environ);
    let answers = list_all(&config.hosts, &control, args.all);
    let mut out = std::io::stdout().lock();
    if args.json {
        let text = serde_json::to_string_pretty(&document(local, problems, &answers))
            .map_err(std::io::Error::other)?;
        return writeln!(out, "{text}");
    }
    let home = config.environ.home();
    let mut rows: Vec<(&str, &Session)> = local.iter().map(|s| ("local", s)).collect();
    for a in &answers {
        if let Ok((remote, _)) = &a.answer {
            rows.extend(remote.iter().map(|r| (a.host.as_str(), &r.session)));
        }
    }
    write!(
        out,
        "{}",
        super::ls::to_table_with_hosts(&rows, now, home.as_deref())
    )?;
    let mut err = std::io::stderr().lock();
    for p in problems {
        let path = safe(&tilde(&p.path, home.as_deref()));
        writeln!(err, "local: {path}: {}", safe(&p.error))?;
    }
    for a in &answers {
        match &a.answer {
            Err(e) => writeln!(err, "{}: {}", a.host, safe(e))?,
            Ok((_, remote_problems)) => {
                for p in remote_problems {
                    writeln!(err, "{}: {}", a.host, safe(p))?;
                }
            }
        }
    }
    Ok(())
}

/// The `ls --json` document with `host` on every row and problem, and a
/// `hosts` list saying how each host answered.
fn document(local: &[Session], problems: &[Problem], answers: &[HostList]) -> Value {
    let mut sessions: Vec<Value> = local
        .iter()
        .map(|s| {
            let mut v = crate::sources::wire::session_value(s, chrono::Utc::now());
            if let Some(map) = v.as_object_mut() {
                map.insert("host".into(), Value::Null);
            }
            v
        })
        .collect();
    let mut all_problems: Vec<Value> = problems
        .iter()
        .map(|p| json!({"host": null, "path": p.path.to_string_lossy(), "error": p.error}))
        .collect();
    let mut hosts = Vec::new();
    for a in answers {
        match &a.answer {
            Ok((rows, remote_problems)) => {
                sessions.extend(rows.iter().map(|r| r.json.clone()));
                all_problems.extend(
                    remote_problems
                        .iter()
                        .map(|p| json!({"host": a.host, "path": "", "error": p})),
                );
                hosts.push(
                    json!({"name": a.host, "ok": true, "error": null, "sessions": rows.len()}),
                );
            }
            Err(e) => {
                all_problems.push(json!({"host": a.host, "path": "", "error": e}));
                hosts.push(json!({"name": a.host, "ok": false, "error": e, "sessions": 0}));
            }
        }
    }
    json!({"sessions": sessions, "problems": all_problems, "hosts": hosts})
}
