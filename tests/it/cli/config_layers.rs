//! Settings layers: embedded defaults < user config.toml < environment < flags.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::path::PathBuf;
use std::time::Duration;

use greenroom::config::{Config, Env, Overrides, Thresholds, TmuxSocket};
use std::collections::HashMap;

struct FakeEnv(HashMap<&'static str, String>);

impl Env for FakeEnv {
    fn var(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
}

fn env(pairs: &[(&'static str, &str)]) -> FakeEnv {
    FakeEnv(pairs.iter().map(|(k, v)| (*k, v.to_string())).collect())
}

#[test]
fn defaults_resolve_under_home_and_xdg() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().to_string_lossy().into_owned();
    let c = Config::load(&Overrides::default(), &env(&[("HOME", &home)])).unwrap();
    assert_eq!(
        c.sidecar_dir,
        dir.path().join(".local/state/greenroom/sessions")
    );
    assert_eq!(c.ao_dir, Some(dir.path().join(".agent-orchestrator")));
    assert_eq!(c.claude_dir, Some(dir.path().join(".claude")));
    assert_eq!(c.tmux_socket, TmuxSocket::Default);
    assert_eq!(c.maestro_state_dir, "docs/maestro");
    assert_eq!(c.thresholds, Thresholds::default());
    assert_eq!(c.config_path, None);
}

#[test]
fn user_file_then_env_then_flags() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("greenroom/config.toml");
    std::fs::create_dir_all(cfg.parent().unwrap()).unwrap();
    std::fs::write(
        &cfg,
        "sidecar_dir = \"~/side\"\ntmux_socket = \"work\"\nstuck_after_seconds = 60\n",
    )
    .unwrap();
    let home = dir.path().to_string_lossy().into_owned();
    let e = env(&[
        ("HOME", &home),
        ("XDG_CONFIG_HOME", &home),
        ("CLAUDE_CONFIG_DIR", "/claude"),
        ("MAESTRO_STATE_DIR", ".maestro"),
    ]);
    let c = Config::load(&Overrides::default(), &e).unwrap();
    assert_eq!(c.sidecar_dir, dir.path().join("side"));
    assert_eq!(c.tmux_socket, TmuxSocket::Name("work".into()));
    assert_eq!(c.thresholds.stuck_after, Duration::from_secs(60));
    assert_eq!(c.claude_dir, Some(PathBuf::from("/claude")));
    assert_eq!(c.maestro_state_dir, ".maestro");
    assert_eq!(c.config_path, Some(cfg));

    let flags = Overrides {
        sidecar_dir: Some("/flag".into()),
        tmux_socket: Some("/tmp/sock".into()),
        ..Overrides::default()
    };
    let c = Config::load(&flags, &e).unwrap();
    assert_eq!(c.sidecar_dir, PathBuf::from("/flag"));
    assert_eq!(c.tmux_socket, TmuxSocket::Path("/tmp/sock".into()));
}

#[test]
fn a_broken_or_misspelled_config_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(&cfg, "stuck_after = 5\n").unwrap();
    let o = Overrides {
        config: Some(cfg.clone()),
        ..Overrides::default()
    };
    let err = Config::load(&o, &env(&[])).unwrap_err().to_string();
    assert!(
        err.contains("c.toml") && err.contains("stuck_after"),
        "{err}"
    );

    let missing = Overrides {
        config: Some(dir.path().join("nope.toml")),
        ..Overrides::default()
    };
    assert!(Config::load(&missing, &env(&[])).is_err());
}

#[test]
fn every_default_key_is_known() {
    // The embedded defaults parse and say what the documentation says.
    let c = Config::load(&Overrides::default(), &env(&[])).unwrap();
    assert_eq!(c.poll_interval, Duration::from_millis(1000));
    assert_eq!(c.thresholds.report_ttl, Duration::from_secs(300));
    assert!(c.alerts && c.sidebar_cost);
    assert_eq!(c.name_prefix, "agent");
    for preset in ["claude", "codex", "gemini", "aider", "shell"] {
        assert!(c.agents.contains_key(preset), "{preset}");
    }
}

#[test]
fn inside_tmux_the_default_server_is_the_one_this_client_is_on() {
    let e = env(&[("TMUX", "/tmp/tmux-1000/work,4242,3")]);
    let c = Config::load(&Overrides::default(), &e).unwrap();
    assert_eq!(
        c.tmux_socket,
        TmuxSocket::Path(PathBuf::from("/tmp/tmux-1000/work"))
    );
    // A socket named on the command line wins.
    let o = Overrides {
        tmux_socket: Some("agents".into()),
        ..Overrides::default()
    };
    assert_eq!(
        Config::load(&o, &e).unwrap().tmux_socket,
        TmuxSocket::Name("agents".into())
    );
}

#[test]
fn notify_names_health_classes_and_keeps_old_configs_working() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    let load = |text: &str| {
        std::fs::write(&cfg, text).unwrap();
        let o = Overrides {
            config: Some(cfg.clone()),
            ..Overrides::default()
        };
        Config::load(&o, &env(&[]))
    };
    // An old config: `alerts` alone; every class that needs the operator notifies.
    let old = load("alerts = true\n").unwrap();
    let needs: Vec<greenroom::model::Health> = greenroom::model::Health::ALL
        .iter()
        .copied()
        .filter(|h| h.needs_operator())
        .collect();
    assert_eq!(old.notify.on, needs);
    assert!(old.notify.bell && old.notify.command.is_empty());
    let set = load(
        "[notify]\non = [\"errored\", \"stuck\"]\nbell = false\ncommand = [\"notify-send\", \"{title}\"]\n",
    )
    .unwrap();
    use greenroom::model::Health;
    assert_eq!(set.notify.on, [Health::Errored, Health::Stuck]);
    assert!(!set.notify.bell);
    assert_eq!(set.notify.command, ["notify-send", "{title}"]);
    let err = load("[notify]\non = [\"wating\"]\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("c.toml") && err.contains("wating"), "{err}");
    let err = load("[notify]\ncommnd = []\n").unwrap_err().to_string();
    assert!(err.contains("commnd"), "{err}");
}
