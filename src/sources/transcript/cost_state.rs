//! Claude Code's own totals: the `cost-state` record it appends to the
//! transcript when a session ends (seen in 2.1.328: twice at `/exit`, the
//! same figures). It covers every API call of the process, side calls and
//! subagents included, priced by Claude Code's own model catalog, so it wins
//! over greenroom's sum of the transcript's messages.
//!
//! ```json
//! {"type":"cost-state","sessionId":"…","totalCostUSD":0.02856,
//!  "modelUsage":{"claude-opus-5-5":{"inputTokens":5000,"outputTokens":163,
//!   "cacheReadInputTokens":1500,"cacheCreationInputTokens":1000,"costUSD":0.02856}},
//!  "hasUnknownModelCost":false}
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::model::ModelUsage;

/// What one `cost-state` record says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AgentTotal {
    pub cost_usd: f64,
    pub by_model: BTreeMap<String, ModelUsage>,
    /// Claude Code itself had no price for some model.
    pub unknown_model_cost: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Raw {
    r#type: String,
    #[serde(rename = "totalCostUSD")]
    total_cost_usd: f64,
    #[serde(default)]
    model_usage: BTreeMap<String, RawModel>,
    #[serde(default)]
    has_unknown_model_cost: bool,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct RawModel {
    input_tokens: u64,
    output_tokens: u64,
    cache_read_input_tokens: u64,
    cache_creation_input_tokens: u64,
}

/// Parses a `cost-state` line; `None` for any other line, or one whose
/// total is not a finite, non-negative number.
pub fn parse(line: &[u8]) -> Option<AgentTotal> {
    if !super::contains(line, b"\"cost-state\"") {
        return None;
    }
    let raw: Raw = serde_json::from_slice(line).ok()?;
    if raw.r#type != "cost-state" || !raw.total_cost_usd.is_finite() || raw.total_cost_usd < 0.0 {
        return None;
    }
    Some(AgentTotal {
        cost_usd: raw.total_cost_usd,
        by_model: raw
            .model_usage
            .into_iter()
            .map(|(model, m)| {
                let u = ModelUsage {
                    input: m.input_tokens,
                    output: m.output_tokens,
                    cache_read: m.cache_read_input_tokens,
                    cache_write: m.cache_creation_input_tokens,
                };
                (model, u)
            })
            .collect(),
        unknown_model_cost: raw.has_unknown_model_cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_record_and_nothing_else() {
        let line = br#"{"type":"cost-state","totalCostUSD":0.5,"modelUsage":{"m":{"inputTokens":3,"outputTokens":4,"cacheReadInputTokens":5,"cacheCreationInputTokens":6,"costUSD":0.5}}}"#;
        let t = parse(line).unwrap();
        assert_eq!(t.cost_usd, 0.5);
        assert_eq!(
            t.by_model["m"],
            ModelUsage {
                input: 3,
                output: 4,
                cache_read: 5,
                cache_write: 6
            }
        );
        assert!(parse(br#"{"type":"user","message":"cost-state"}"#).is_none());
        assert!(parse(br#"{"type":"cost-state","totalCostUSD":-1}"#).is_none());
        assert!(parse(br#"{"type":"cost-state","totalCostUSD":"x"}"#).is_none());
        assert!(parse(br#"{"type":"cost-state""#).is_none());
    }
}
