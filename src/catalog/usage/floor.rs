//! Spend that never goes down when a file does: a transcript that shrank,
//! was replaced or went away is counted again from what it holds now (the
//! reader's rule), but what it held before was spent all the same. Its last
//! larger count is kept as the file's floor until the file's own count
//! reaches it again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::model::ModelUsage;
use crate::sources::transcript::AgentTotal;

/// What one file counted: its messages by model, and the agent's own
/// totals with what came after them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Counted {
    pub by_model: BTreeMap<String, ModelUsage>,
    pub agent: Option<(AgentTotal, BTreeMap<String, ModelUsage>)>,
}

impl Counted {
    /// All tokens the count covers: the agent's totals and what came after
    /// them when it wrote some, else the messages.
    fn tokens(&self) -> u64 {
        let sum = |m: &BTreeMap<String, ModelUsage>| -> u64 {
            m.values()
                .map(|u| {
                    u.input
                        .saturating_add(u.output)
                        .saturating_add(u.cache_read)
                        .saturating_add(u.cache_write)
                })
                .fold(0, u64::saturating_add)
        };
        match &self.agent {
            Some((total, since)) => sum(&total.by_model).saturating_add(sum(since)),
            None => sum(&self.by_model),
        }
    }
}

/// The floors of the files whose count went down, by file.
#[derive(Debug, Default)]
pub(super) struct Floors(BTreeMap<PathBuf, Counted>);

impl Floors {
    /// After a read of `path`: a count below what the file counted before
    /// (or below its floor) keeps the larger as its floor; a count that
    /// reached the floor needs it no more.
    pub(super) fn after_read(&mut self, path: &Path, before: Counted, now: &Counted) {
        let floor = match self.0.remove(path) {
            Some(floor) if floor.tokens() >= before.tokens() => floor,
            _ => before,
        };
        if now.tokens() < floor.tokens() {
            self.0.insert(path.to_path_buf(), floor);
        }
    }

    /// The file's floor, while its own count is below it.
    pub(super) fn get(&self, path: &Path) -> Option<&Counted> {
        self.0.get(path)
    }

    pub(super) fn forget(&mut self, path: &Path) {
        self.0.remove(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(input: u64) -> Counted {
        let u = ModelUsage {
            input,
            ..ModelUsage::default()
        };
        Counted {
            by_model: BTreeMap::from([("m".to_owned(), u)]),
            agent: None,
        }
    }

    #[test]
    fn a_count_that_went_down_keeps_its_floor_until_it_grows_past_it() {
        let mut floors = Floors::default();
        let p = Path::new("t.jsonl");
        floors.after_read(p, counted(10), &counted(20));
        assert!(floors.get(p).is_none(), "it grew");
        floors.after_read(p, counted(20), &counted(3));
        assert_eq!(floors.get(p), Some(&counted(20)), "rewritten shorter");
        floors.after_read(p, counted(3), &Counted::default());
        assert_eq!(floors.get(p), Some(&counted(20)), "then gone");
        floors.after_read(p, Counted::default(), &counted(25));
        assert!(floors.get(p).is_none(), "past the floor");
    }

    #[test]
    fn claude_codes_totals_weigh_what_they_cover() {
        let total = AgentTotal {
            cost_usd: 0.0724,
            by_model: counted(11_200).by_model,
            unknown_model_cost: false,
        };
        let with_total = Counted {
            by_model: counted(3_000).by_model,
            agent: Some((total, BTreeMap::new())),
        };
        let mut floors = Floors::default();
        let p = Path::new("t.jsonl");
        floors.after_read(p, with_total.clone(), &counted(5_000));
        assert_eq!(floors.get(p), Some(&with_total));
    }
}
