//! Token prices (assets/prices.toml, overridable in config.toml) and cost.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::model::{ModelUsage, Usage};
use crate::sources::transcript::AgentTotal;

const BUNDLED: &str = include_str!("../../assets/prices.toml");

/// USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub input: f64,
    pub output: f64,
    pub cache_write: f64,
    pub cache_read: f64,
}

#[derive(Deserialize)]
struct PriceFile {
    prices: BTreeMap<String, Price>,
}

/// Model id -> price.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Prices(BTreeMap<String, Price>);

impl Prices {
    /// The bundled table with `overrides` on top.
    pub fn with_overrides(overrides: &BTreeMap<String, Price>) -> Self {
        let mut table = toml::from_str::<PriceFile>(BUNDLED)
            .map(|f| f.prices)
            .unwrap_or_default();
        table.extend(overrides.iter().map(|(k, v)| (k.clone(), *v)));
        Self(table)
    }

    /// A model's price: its id, or its id without a `-YYYYMMDD` date.
    pub fn price(&self, model: &str) -> Option<Price> {
        self.0
            .get(model)
            .or_else(|| self.0.get(strip_date(model)))
            .copied()
    }

    pub fn cost(&self, model: &str, u: &ModelUsage) -> Option<f64> {
        let p = self.price(model)?;
        Some(
            (u.input as f64 * p.input
                + u.output as f64 * p.output
                + u.cache_write as f64 * p.cache_write
                + u.cache_read as f64 * p.cache_read)
                / 1_000_000.0,
        )
    }

    /// Totals over models, with a cost only when every model has a price;
    /// the models without one are listed.
    pub fn usage(&self, by_model: BTreeMap<String, ModelUsage>) -> Usage {
        self.usage_after(None, by_model)
    }

    /// Usage from the agent's own totals (Claude Code's `cost-state`), if
    /// any, plus what was counted after them, priced here.
    pub fn usage_after(
        &self,
        agent: Option<&AgentTotal>,
        since: BTreeMap<String, ModelUsage>,
    ) -> Usage {
        let mut u = Usage::default();
        let mut cost = agent.map_or(0.0, |a| a.cost_usd);
        let mut by_model = agent.map(|a| a.by_model.clone()).unwrap_or_default();
        for (model, m) in &since {
            match self.cost(model, m) {
                Some(c) => cost += c,
                None if total_tokens(m) > 0 => u.unpriced_models.push(model.clone()),
                None => {}
            }
            by_model.entry(model.clone()).or_default().add(m);
        }
        for m in by_model.values() {
            add_totals(&mut u, m);
        }
        let known = !by_model.is_empty() || agent.is_some();
        u.cost_usd = (known && u.unpriced_models.is_empty()).then_some(cost);
        u.cost_source = u.cost_usd.map(|_| {
            if agent.is_some() {
                "claude-code"
            } else {
                "prices"
            }
            .to_owned()
        });
        u.by_model = by_model;
        u
    }
}

fn total_tokens(m: &ModelUsage) -> u64 {
    m.input
        .saturating_add(m.output)
        .saturating_add(m.cache_read)
        .saturating_add(m.cache_write)
}

fn add_totals(u: &mut Usage, m: &ModelUsage) {
    u.input = u.input.saturating_add(m.input);
    u.output = u.output.saturating_add(m.output);
    u.cache_read = u.cache_read.saturating_add(m.cache_read);
    u.cache_write = u.cache_write.saturating_add(m.cache_write);
}

fn strip_date(model: &str) -> &str {
    match model.rsplit_once('-') {
        Some((base, date)) if date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => model,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_prices_parse_and_dates_are_ignored() {
        let p = Prices::with_overrides(&BTreeMap::new());
        assert_eq!(
            p.price("claude-opus-4-20250514").map(|p| p.input),
            Some(15.0)
        );
        assert_eq!(p.price("claude-opus-4-6").map(|p| p.output), Some(25.0));
        assert_eq!(
            p.price("claude-opus-9-9"),
            None,
            "an unknown version is not guessed"
        );
        // Claude Code 2.1.328's default model, at its own catalog's rates.
        let opus55 = p.price("claude-opus-5-5").unwrap();
        assert_eq!(
            (
                opus55.input,
                opus55.output,
                opus55.cache_write,
                opus55.cache_read
            ),
            (4.0, 20.0, 5.0, 0.2)
        );
        let u = ModelUsage {
            input: 1_000_000,
            output: 1_000_000,
            cache_read: 0,
            cache_write: 0,
        };
        assert_eq!(p.cost("claude-sonnet-4-5", &u), Some(18.0));
        assert_eq!(p.cost("gpt-x", &u), None);
    }

    #[test]
    fn unpriced_models_are_named_and_agent_totals_win() {
        let p = Prices::with_overrides(&BTreeMap::new());
        let m = ModelUsage {
            input: 1_000,
            output: 50,
            cache_read: 300,
            cache_write: 200,
        };
        let mut by_model = BTreeMap::new();
        by_model.insert("claude-opus-5-5".to_owned(), m);
        let u = p.usage(by_model.clone());
        // Claude Code's own figure for these tokens (its cost-state): 0.00606.
        assert!((u.cost_usd.unwrap() - 0.00606).abs() < 1e-12);
        assert_eq!(u.cost_source.as_deref(), Some("prices"));
        by_model.insert("gpt-x".to_owned(), m);
        let u = p.usage(by_model.clone());
        assert_eq!(u.cost_usd, None);
        assert_eq!(u.unpriced_models, ["gpt-x"]);
        assert_eq!(u.input, 2_000);

        let agent = AgentTotal {
            cost_usd: 1.5,
            by_model: BTreeMap::from([("claude-opus-5-5".to_owned(), m)]),
            unknown_model_cost: false,
        };
        let after = BTreeMap::from([("claude-opus-5-5".to_owned(), m)]);
        let u = p.usage_after(Some(&agent), after);
        assert!((u.cost_usd.unwrap() - 1.50606).abs() < 1e-9);
        assert_eq!(u.cost_source.as_deref(), Some("claude-code"));
        assert_eq!(u.input, 2_000);
        let u = p.usage_after(Some(&agent), BTreeMap::new());
        assert_eq!(u.cost_usd, Some(1.5));
    }

    #[test]
    fn overrides_win() {
        let mut o = BTreeMap::new();
        o.insert(
            "claude-sonnet-4-5".to_owned(),
            Price {
                input: 1.0,
                output: 1.0,
                cache_write: 1.0,
                cache_read: 1.0,
            },
        );
        let p = Prices::with_overrides(&o);
        assert_eq!(p.price("claude-sonnet-4-5").map(|p| p.input), Some(1.0));
    }
}
