//! `[budget]` as written: limits in USD, each a number that is not
//! negative. A limit written as text, or below zero, is refused with the
//! line and what to write instead.

use serde::{Deserialize, Deserializer, de};

/// `[budget]` in config.toml; each key optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BudgetFile {
    pub(super) session_usd: Option<Usd>,
    pub(super) day_usd: Option<Usd>,
}

impl BudgetFile {
    /// Later layers win key by key.
    pub(super) fn merge(&mut self, other: BudgetFile) {
        if other.session_usd.is_some() {
            self.session_usd = other.session_usd;
        }
        if other.day_usd.is_some() {
            self.day_usd = other.day_usd;
        }
    }

    pub(super) fn resolve(&self) -> crate::model::Budget {
        crate::model::Budget {
            session_usd: self.session_usd.map(|u| u.0),
            day_usd: self.day_usd.map(|u| u.0),
        }
    }
}

/// An amount in USD: an integer or a decimal, zero or more.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Usd(f64);

const EXPECTED: &str = "a limit in USD, a number such as 5 or 12.50";

struct UsdVisitor;

impl de::Visitor<'_> for UsdVisitor {
    type Value = Usd;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(EXPECTED)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Usd, E> {
        if !v.is_finite() {
            return Err(E::custom(format!("{v} is not {EXPECTED}")));
        }
        if v < 0.0 {
            return Err(E::custom(format!(
                "a limit cannot be negative ({v}): write the most to spend in USD, \
                 such as 5, or remove the line for no limit"
            )));
        }
        Ok(Usd(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Usd, E> {
        self.visit_f64(v as f64)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Usd, E> {
        self.visit_f64(v as f64)
    }
}

impl<'de> Deserialize<'de> for Usd {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Usd, D::Error> {
        d.deserialize_any(UsdVisitor)
    }
}
