//! A session's spend over all its conversations: each transcript priced on
//! its own (Claude Code starts its running total again at `/clear`), then
//! added up, so what one conversation spent stays in the session's total.

use crate::model::{DaySpend, Usage};

/// The sum of a session's conversations' usage; `None` when none is known.
pub fn conversations(parts: impl IntoIterator<Item = Usage>) -> Option<Usage> {
    let mut total: Option<Usage> = None;
    let mut costs: Vec<Option<f64>> = Vec::new();
    let mut agent_only = true;
    // Every part is counted for the same day; one unknown makes it unknown.
    let mut today: Option<Option<DaySpend>> = None;
    for part in parts {
        today = Some(match (today, part.today) {
            (None, t) => t,
            (Some(Some(a)), Some(b)) => Some(DaySpend {
                day: b.day,
                usd: a.usd + b.usd,
            }),
            (Some(_), _) => None,
        });
        let t = total.get_or_insert_with(Usage::default);
        // A conversation with nothing counted yet (just cleared) adds no
        // cost; one with an unpriced model makes the total unknown.
        if part.cost_usd.is_some() || !part.unpriced_models.is_empty() {
            costs.push(part.cost_usd);
            agent_only &= part.cost_source.as_deref() == Some("claude-code");
        }
        add(t, &part);
    }
    let mut total = total?;
    total.today = today.flatten();
    total.cost_usd = if costs.is_empty() {
        None
    } else {
        costs.iter().copied().sum::<Option<f64>>()
    };
    total.cost_source = total
        .cost_usd
        .map(|_| if agent_only { "claude-code" } else { "prices" }.to_owned());
    Some(total)
}

fn add(into: &mut Usage, u: &Usage) {
    into.input = into.input.saturating_add(u.input);
    into.output = into.output.saturating_add(u.output);
    into.cache_read = into.cache_read.saturating_add(u.cache_read);
    into.cache_write = into.cache_write.saturating_add(u.cache_write);
    into.reasoning = into.reasoning.saturating_add(u.reasoning);
    into.tokens_per_minute += u.tokens_per_minute;
    for (model, m) in &u.by_model {
        into.by_model.entry(model.clone()).or_default().add(m);
    }
    for model in &u.unpriced_models {
        if !into.unpriced_models.contains(model) {
            into.unpriced_models.push(model.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ModelUsage;

    fn part(cost: Option<f64>, source: &str, input: u64) -> Usage {
        Usage {
            input,
            cost_usd: cost,
            cost_source: cost.map(|_| source.to_owned()),
            by_model: [(
                "m".to_owned(),
                ModelUsage {
                    input,
                    ..ModelUsage::default()
                },
            )]
            .into(),
            ..Usage::default()
        }
    }

    #[test]
    fn conversations_add_up_and_an_empty_one_adds_nothing() {
        let before_clear = part(Some(0.08919), "claude-code", 10_700);
        let after_clear = part(Some(0.02015), "claude-code", 3_700);
        let u = conversations([before_clear.clone(), after_clear]).unwrap();
        assert!((u.cost_usd.unwrap() - 0.10934).abs() < 1e-12);
        assert_eq!(u.cost_source.as_deref(), Some("claude-code"));
        assert_eq!((u.input, u.by_model["m"].input), (14_400, 14_400));
        // Just cleared: the new conversation holds nothing yet.
        let u = conversations([before_clear.clone(), Usage::default()]).unwrap();
        assert_eq!(u.cost_usd, Some(0.08919));
        let u = conversations([before_clear, part(Some(0.01), "prices", 1)]).unwrap();
        assert_eq!(u.cost_source.as_deref(), Some("prices"));
        assert!(conversations([]).is_none());
    }

    #[test]
    fn an_unpriced_conversation_makes_the_total_unknown() {
        let mut unpriced = part(None, "", 5);
        unpriced.unpriced_models = vec!["gpt-x".to_owned()];
        let u = conversations([part(Some(1.0), "prices", 1), unpriced]).unwrap();
        assert_eq!(u.cost_usd, None);
        assert_eq!(u.cost_source, None);
        assert_eq!(u.unpriced_models, ["gpt-x"]);
    }
}
