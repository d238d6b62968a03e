//! The stream's side of `watch`: what the reader was told, and the lines
//! that tell it what changed since.

use std::collections::BTreeMap;
use std::io::Write;

use chrono::Utc;
use serde_json::Value;

use crate::sources::wire;

/// The lines written so far: what the reader knows.
pub(super) struct Stream<W: Write> {
    host: String,
    out: W,
    rows: BTreeMap<String, Value>,
    problems: Value,
}

impl<W: Write> Stream<W> {
    pub(super) fn new(host: String, out: W) -> Self {
        Self {
            host,
            out,
            rows: BTreeMap::new(),
            problems: Value::Array(Vec::new()),
        }
    }

    /// A row as `ls --json` has it, less `activity.age_seconds`: an age
    /// moves every second, and would make every row news every second
    /// (`activity.since` says the same thing once).
    fn row(&self, s: &crate::model::Session) -> Value {
        let mut v = wire::session_value(s, chrono::Utc::now());
        if let Some(activity) = v.get_mut("activity").and_then(Value::as_object_mut) {
            activity.remove("age_seconds");
        }
        if let Some(map) = v.as_object_mut() {
            map.insert("host".into(), Value::String(self.host.clone()));
        }
        v
    }

    fn line(&mut self, v: &Value) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, v)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    pub(super) fn snapshot(
        &mut self,
        rows: &[crate::model::Session],
        problems: &[crate::model::Problem],
    ) -> std::io::Result<()> {
        self.rows = rows.iter().map(|s| (s.id.clone(), self.row(s))).collect();
        self.problems = wire::problems_value(problems);
        let sessions: Vec<&Value> = rows.iter().filter_map(|s| self.rows.get(&s.id)).collect();
        let line = wire::snapshot_line(&self.host, Utc::now(), &sessions, &self.problems);
        self.line(&line)
    }

    pub(super) fn changes(
        &mut self,
        rows: &[crate::model::Session],
        problems: &[crate::model::Problem],
    ) -> std::io::Result<()> {
        let mut seen = BTreeMap::new();
        for s in rows {
            let v = self.row(s);
            match self.rows.get(&s.id) {
                None => self.line(&wire::row_line(true, &v))?,
                Some(old) if !same_but_ages(old, &v) => self.line(&wire::row_line(false, &v))?,
                Some(_) => {}
            }
            seen.insert(s.id.clone(), v);
        }
        let gone: Vec<String> = self
            .rows
            .keys()
            .filter(|id| !seen.contains_key(*id))
            .cloned()
            .collect();
        for id in gone {
            self.line(&wire::removed_line(&id))?;
        }
        self.rows = seen;
        let problems = wire::problems_value(problems);
        if problems != self.problems {
            self.line(&wire::problems_line(&problems))?;
            self.problems = problems;
        }
        Ok(())
    }

    pub(super) fn heartbeat(&mut self) -> std::io::Result<()> {
        let line = wire::heartbeat_line(Utc::now(), self.rows.len());
        self.line(&line)
    }
}

/// Whether two lines of a row say the same once the ages in its `why` are
/// set aside ("pane output 2s ago" then "3s ago"): an age moves every
/// second, and would make every row news every second (a dashboard
/// following 900 rows on other hosts then does nothing but read them). A
/// `why` that says something else is news, and carries the ages of then.
fn same_but_ages(a: &Value, b: &Value) -> bool {
    let why = |v: &Value| -> Option<String> {
        v.pointer("/activity/why")?
            .as_str()
            .map(|w| w.chars().filter(|c| !c.is_ascii_digit()).collect())
    };
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(a) = v.get_mut("activity").and_then(Value::as_object_mut) {
            a.remove("why");
        }
        v
    };
    why(a) == why(b) && strip(a) == strip(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_why_whose_ages_alone_moved_is_no_news() {
        let row =
            |why: &str, state: &str| json!({"id": "x", "activity": {"state": state, "why": why}});
        let a = row("pane output 2s ago (within 30s): active", "active");
        assert!(same_but_ages(
            &a,
            &row("pane output 3s ago (within 30s): active", "active")
        ));
        assert!(!same_but_ages(
            &a,
            &row("the hook reported Active 1s ago: active", "active")
        ));
        assert!(!same_but_ages(
            &a,
            &row("pane output 2s ago (within 30s): active", "idle")
        ));
    }
}
