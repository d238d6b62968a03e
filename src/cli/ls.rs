//! `greenroom ls`: the sessions as an aligned table, or as the stable JSON
//! that scripts and tests rely on (fields are only ever added; see
//! ARCHITECTURE.md, "The `ls --json` contract").

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use clap::Args;

use crate::display::{age, fit, safe, tilde};
use crate::model::{Problem, Session};
// The document itself is the wire format's (both its halves live there).
pub use crate::sources::wire::{problems_value, session_value, to_json, to_json_at};

#[derive(Debug, Args)]
pub struct LsArgs {
    /// Print the stable JSON document instead of a table
    #[arg(long)]
    pub json: bool,
    /// Include archived Maestro sessions and dismissed sessions
    #[arg(long, short = 'a')]
    pub all: bool,
    /// Session names only, one a line (what shell completion asks for)
    #[arg(long, hide = true, conflicts_with = "json")]
    pub names: bool,
    /// Also every `[[hosts]]` entry's sessions, over ssh (a host that fails is one line)
    #[arg(long, conflicts_with = "names")]
    pub all_hosts: bool,
}

/// The phase column: `3/5`, `3/?`, or `-`.
fn phase_cell(s: &Session) -> String {
    match &s.orchestration {
        None => "-".into(),
        Some(o) => {
            let current = o
                .current_phase
                .as_ref()
                .map_or("?".into(), ToString::to_string);
            let total = o
                .total_phases
                .map_or_else(|| o.phases.len().to_string(), |t| t.to_string());
            format!("{current}/{total}")
        }
    }
}

/// The aligned table `greenroom ls` prints.
pub fn to_table(sessions: &[Session], now: DateTime<Utc>, home: Option<&Path>) -> String {
    const HEADERS: [&str; 8] = [
        "HEALTH", "NAME", "SOURCE", "STATUS", "ACTIVITY", "PHASE", "FOCUSED", "CWD",
    ];
    let rows: Vec<[String; 8]> = sessions
        .iter()
        .map(|s| {
            let reported = if s.activity.reported { "*" } else { "" };
            [
                s.health.as_str().to_owned(),
                fit(&s.name, 32),
                s.source.as_str().to_owned(),
                fit(s.status.as_str(), 12),
                format!(
                    "{}{reported} {}",
                    s.activity.state.contract_name(),
                    age(now, s.activity.since)
                ),
                phase_cell(s),
                age(now, s.last_focused_at),
                fit(&tilde(&s.cwd, home), 60),
            ]
        })
        .collect();
    let mut widths = HEADERS.map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &[String]| {
        let mut text = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if i + 1 == cells.len() {
                text.push_str(cell);
            } else {
                let pad = w - cell.chars().count();
                text.push_str(cell);
                text.push_str(&" ".repeat(pad + 2));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(&HEADERS.map(String::from));
    for row in &rows {
        line(row);
    }
    out
}

/// The table with a HOST column first: `ls --all-hosts`.
pub fn to_table_with_hosts(
    rows: &[(&str, &Session)],
    now: DateTime<Utc>,
    home: Option<&Path>,
) -> String {
    let sessions: Vec<Session> = rows.iter().map(|(_, s)| (*s).clone()).collect();
    let table = to_table(&sessions, now, home);
    let hosts: Vec<String> = std::iter::once("HOST".to_owned())
        .chain(rows.iter().map(|(h, _)| fit(h, 32)))
        .collect();
    let width = hosts.iter().map(|h| h.chars().count()).max().unwrap_or(4);
    table
        .lines()
        .zip(&hosts)
        .map(|(line, host)| format!("{host:<width$}  {line}\n"))
        .collect()
}

/// Writes the result of `ls` as the operator asked.
pub fn print(
    args: &LsArgs,
    sessions: &[Session],
    problems: &[Problem],
    looked_in: &[PathBuf],
    now: DateTime<Utc>,
    home: Option<&Path>,
) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let text = to_json_at(sessions, problems, now).map_err(std::io::Error::other)?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    if sessions.is_empty() {
        writeln!(out, "No sessions found. greenroom looked in:")?;
        for dir in looked_in {
            writeln!(out, "  {}", safe(&tilde(dir, home)))?;
        }
        writeln!(
            out,
            "Start one with `greenroom spawn`, or point --state-dir at a Maestro workspace."
        )?;
    } else {
        write!(out, "{}", to_table(sessions, now, home))?;
    }
    if !problems.is_empty() {
        let mut err = std::io::stderr().lock();
        writeln!(
            err,
            "\n{} file(s) could not be read (other sessions are listed):",
            problems.len()
        )?;
        for p in problems {
            // Names and reasons come from files: escaped, never acted on.
            let path = safe(&tilde(&p.path, home));
            writeln!(err, "  {path}: {}", safe(&p.error))?;
        }
    }
    Ok(())
}
