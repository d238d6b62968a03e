//! Token prices (assets/prices.toml, overridable in config.toml) and cost.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::model::{ModelUsage, Usage};

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

    /// Totals over models, with a cost only when every model has a price.
    pub fn usage(&self, by_model: BTreeMap<String, ModelUsage>) -> Usage {
        let mut u = Usage::default();
        let mut cost = Some(0.0);
        for (model, m) in &by_model {
            u.input = u.input.saturating_add(m.input);
            u.output = u.output.saturating_add(m.output);
            u.cache_read = u.cache_read.saturating_add(m.cache_read);
            u.cache_write = u.cache_write.saturating_add(m.cache_write);
            cost = cost.zip(self.cost(model, m)).map(|(a, b)| a + b);
        }
        u.cost_usd = if by_model.is_empty() { None } else { cost };
        u.by_model = by_model;
        u
    }
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
            p.price("claude-opus-4-7"),
            None,
            "an unknown version is not guessed"
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
