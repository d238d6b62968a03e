//! What config.toml says of the dashboard, copied into the state once at
//! the start: the reducer and the views read it, nothing changes it.

/// The dashboard's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Notify when a session needs the operator (the master switch).
    pub alerts: bool,
    /// The health classes a turn into notifies (`[notify] on`).
    pub notify_on: Vec<crate::model::Health>,
    /// Ring the terminal's bell with each notice (`[notify] bell`).
    pub bell: bool,
    /// Show each session's spend in the sidebar.
    pub show_cost: bool,
    /// Sessions that need the operator are pinned on top (last-focus sort).
    pub pin_attention: bool,
    /// How long `z` snoozes.
    pub snooze: std::time::Duration,
    /// The dashboard runs in a tmux popup (`--popup`): once an attach has
    /// switched the client, it quits, and the popup closes.
    pub popup: bool,
    /// tmux activity this recent counts as working (the thresholds'): when
    /// a row inferred working is read again (see [`crate::freshness`]).
    pub active_window: chrono::Duration,
    /// `[budget]`: the limits the header and the alerts judge spend by.
    pub budget: crate::model::Budget,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            alerts: true,
            notify_on: crate::model::Health::ALL
                .iter()
                .copied()
                .filter(|h| h.needs_operator())
                .collect(),
            bell: true,
            show_cost: true,
            pin_attention: false,
            snooze: std::time::Duration::from_secs(30 * 60),
            popup: false,
            active_window: chrono::Duration::from_std(
                crate::health::Thresholds::default().active_window,
            )
            .unwrap_or(chrono::Duration::MAX),
            budget: crate::model::Budget::default(),
        }
    }
}
