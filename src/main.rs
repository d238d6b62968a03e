use std::ffi::OsString;
use std::path::PathBuf;

use clap::Parser;
use color_eyre::eyre::{Result, WrapErr};

use greenroom::catalog::Catalog;
use greenroom::cli::tmux_install::{self, TmuxCommand};
use greenroom::cli::{Cli, CliCommand, HooksArgs, HooksCommand, ls};
use greenroom::config::{Config, ConfigError};
use greenroom::environ::{Env, Environ};
use greenroom::hook::{install, report};
use greenroom::tmux::Tmux;

/// An error a command returns is something about the world (a missing
/// tmux, a terminal that is not one, a file it cannot write): one line,
/// exit code 1. color-eyre's report, with its backtrace, is kept for
/// panics, which are greenroom's own bugs.
fn main() {
    if let Err(e) = run() {
        // Logged too: the terminal it is told on may be gone.
        tracing::error!(error = format!("{e:#}"), "greenroom ended on an error");
        greenroom::cli::output::stderr_line(format_args!("greenroom: {e:#}"));
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    // The one read of the environment; everything below is handed it.
    let environ = Environ::from_process();
    // Hooks run `greenroom report` on every agent event: it takes a path of
    // its own, before clap and config, so that no argument or settings error
    // can print to the agent or exit non-zero, and so that it starts fast.
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "report")
        && !args.iter().any(|a| a == "--help" || a == "-h")
    {
        run_report(args.get(2).and_then(|a| a.to_str()), &environ);
        return Ok(());
    }
    color_eyre::install()?;
    greenroom::cli::output::quiet_on_closed_stdout();
    let cli = Cli::parse();
    // The demo logs into its own temporary folder, never the operator's log.
    if !matches!(cli.command, Some(CliCommand::Demo(_))) {
        greenroom::logging::init(greenroom::logging::log_path(&environ), &environ);
    }
    dispatch(&cli, &environ)
}

/// Runs the command the line named (the dashboard when none).
fn dispatch(cli: &Cli, environ: &Environ) -> Result<()> {
    match &cli.command {
        Some(CliCommand::Hooks(HooksCommand::Install(a))) => {
            refuse_on_error(run_hooks(a, true, environ))
        }
        Some(CliCommand::Hooks(HooksCommand::Uninstall(a))) => {
            refuse_on_error(run_hooks(a, false, environ))
        }
        Some(CliCommand::Tmux(c)) => refuse_on_error(run_tmux_install(c, cli, environ)),
        Some(CliCommand::Report { state }) => {
            run_report(state.as_deref(), environ);
            Ok(())
        }
        Some(CliCommand::Ls(a)) => run_ls(&load_config(cli, environ), a),
        Some(CliCommand::Status(a)) => {
            let (_, sessions) = live_rows(&load_config(cli, environ), false);
            println!(
                "{}",
                greenroom::cli::status::line(&sessions, a.tmux, chrono::Utc::now())
            );
            Ok(())
        }
        Some(CliCommand::Watch(a)) => {
            refuse_on_error(greenroom::cli::watch::run(a, &load_config(cli, environ)))
        }
        Some(CliCommand::Capture { session }) => refuse_on_error(greenroom::cli::capture::run(
            &load_config(cli, environ),
            session,
        )),
        Some(CliCommand::Next) => refuse_on_error(run_next(&load_config(cli, environ))),
        Some(CliCommand::Actions(a)) => {
            refuse_on_error(greenroom::cli::actions::run(a, &load_config(cli, environ)))
        }
        Some(CliCommand::Demo(a)) => greenroom::cli::demo::run(a, environ),
        Some(CliCommand::DemoAgent(a)) => greenroom::cli::demo::agent::run(a, environ),
        Some(CliCommand::Completions { shell }) => {
            // Generated into memory: clap_complete panics when it cannot
            // write, and a reader that stops early (`| head`) is normal.
            let command = <Cli as clap::CommandFactory>::command();
            let script = greenroom::cli::completions::script(*shell, command);
            greenroom::cli::output::write_stdout(&script).wrap_err("cannot write the script")
        }
        None => run_dashboard(cli, environ),
    }
}

/// `greenroom tmux install|uninstall`.
fn run_tmux_install(
    command: &TmuxCommand,
    cli: &Cli,
    environ: &Environ,
) -> std::result::Result<(), String> {
    let (args, installing) = match command {
        TmuxCommand::Install(a) => (a, true),
        TmuxCommand::Uninstall(a) => (a, false),
    };
    let config = load_config(cli, environ);
    let exe = environ
        .current_exe()
        .ok_or_else(|| "cannot find the greenroom binary".to_owned())?;
    let tmux = Tmux::new(config.tmux_socket.clone());
    tmux_install::run(args, installing, exe, environ, &tmux)
}

/// The dashboard, in this terminal or the `--popup` client's popup.
fn run_dashboard(cli: &Cli, environ: &Environ) -> Result<()> {
    let mut config = load_config(cli, environ);
    if let Some(client) = &cli.popup {
        match greenroom::tmux::ClientName::parse(client) {
            Ok(client) => config.popup_client = Some(client),
            Err(e) => return refuse_on_error(Err(e)),
        }
    }
    refuse_on_error(greenroom::cli::ensure_terminal("the dashboard"))?;
    greenroom::tui::launch(config)
}

/// The settings, checked whole (`[keys]` included) whatever the command
/// needs of them. A mistake in them is the user's to fix: one line naming
/// the file, the key and what to do, and exit code 1; never a report.
fn load_config(cli: &Cli, environ: &Environ) -> Config {
    let checked = Config::load(&cli.global.overrides(), environ).and_then(|config| {
        greenroom::tui::keymap::check(&config.keys)
            .map_err(|reason| ConfigError::keys(&config, reason))?;
        Ok(config)
    });
    match checked {
        Ok(config) => config,
        Err(e) => {
            greenroom::cli::output::stderr_line(format_args!("greenroom: {e}"));
            std::process::exit(1);
        }
    }
}

fn run_report(state: Option<&str>, environ: &Environ) {
    let result = report::run(
        state,
        report::payload_input(state.is_some()),
        environ,
        chrono::Utc::now(),
    );
    if let Err(e) = result {
        greenroom::logging::init(greenroom::logging::log_path(environ), environ);
        tracing::warn!(error = %e, "report ignored");
    }
}

/// An expected refusal (bad input, a file greenroom will not touch) is a
/// one-line message and exit code 1, not a crash report.
fn refuse_on_error(result: std::result::Result<(), String>) -> Result<()> {
    if let Err(message) = result {
        // Messages carry names and paths from files: shown escaped.
        greenroom::cli::output::stderr_line(format_args!(
            "greenroom: {}",
            greenroom::display::safe(&message)
        ));
        std::process::exit(1);
    }
    Ok(())
}

fn run_hooks(args: &HooksArgs, installing: bool, env: &Environ) -> std::result::Result<(), String> {
    // Gemini CLI reads its settings under GEMINI_CLI_HOME when that is set.
    let gemini_home = match args.agent {
        install::HookAgent::Gemini => env.var("GEMINI_CLI_HOME"),
        install::HookAgent::Claude | install::HookAgent::Codex | install::HookAgent::Opencode => {
            None
        }
    };
    let home = gemini_home
        .filter(|h| !h.is_empty())
        .or_else(|| env.var("HOME"))
        .map(PathBuf::from)
        .ok_or("HOME is not set; cannot find the agent's settings")?;
    // The agent's own folder, where its user settings live, when set.
    let agent_dir = match args.agent {
        install::HookAgent::Claude => env.var("CLAUDE_CONFIG_DIR"),
        install::HookAgent::Codex => env.var("CODEX_HOME"),
        // OpenCode's config folder is `opencode` under XDG_CONFIG_HOME.
        install::HookAgent::Opencode => env
            .var("XDG_CONFIG_HOME")
            .filter(|d| d.starts_with('/'))
            .map(|d| format!("{d}/opencode")),
        install::HookAgent::Gemini => None,
    };
    let agent_dir = agent_dir.filter(|d| !d.is_empty()).map(PathBuf::from);
    let project = env.current_dir().ok_or("cannot read the current folder")?;
    let path = install::settings_path(args.agent, args.scope, &home, agent_dir.as_deref(), project);
    let outcome = if installing {
        let exe = env
            .current_exe()
            .ok_or("cannot find the greenroom binary")?;
        install::install_hooks(&path, args.agent, exe, args.dry_run)
    } else {
        install::uninstall_hooks(&path, args.agent, args.dry_run)
    }?;
    if args.dry_run {
        print!("{}", outcome.new_text);
        let what = if outcome.changed {
            "above is what it would become"
        } else {
            "it is already up to date"
        };
        greenroom::cli::output::stderr_line(format_args!(
            "(dry run: {} was not changed; {what})",
            outcome.path.display()
        ));
    } else if !outcome.changed {
        println!("{} already up to date", outcome.path.display());
    } else {
        let verb = if installing {
            "installed into"
        } else {
            "removed from"
        };
        println!("greenroom hooks {verb} {}", outcome.path.display());
        if let Some(b) = &outcome.backup {
            println!("backup of the previous file: {}", b.display());
        }
    }
    if installing && args.agent == install::HookAgent::Opencode && outcome.changed && !args.dry_run
    {
        // OpenCode reads its plugins once, when it starts.
        println!(
            "OpenCode loads it when it starts: an OpenCode already running reports after a restart"
        );
    }
    if installing && args.agent == install::HookAgent::Codex {
        // Codex skips hooks the operator has not trusted, without a word.
        let codex_home = agent_dir.unwrap_or_else(|| home.join(".codex"));
        let config = install::codex_trust::config_path(&codex_home);
        let project = (args.scope == install::HookScope::Project).then_some(project);
        // Codex names a hook by the path it reads, not a link's target.
        let verdict = install::codex_trust::verdict(
            &path,
            &outcome.new_text,
            outcome.changed,
            &config,
            project,
        );
        let line = install::codex_trust::line(&verdict, &config);
        match args.dry_run {
            // stdout holds the file.
            true => greenroom::cli::output::stderr_line(format_args!("{line}")),
            false => println!("{line}"),
        }
    }
    Ok(())
}

/// The catalog with tmux's view, as every one-shot command sees it.
fn live_rows(config: &Config, all: bool) -> (Catalog, Vec<greenroom::model::Session>) {
    let mut catalog = Catalog::load(config, all);
    let tmux = Tmux::new(config.tmux_socket.clone());
    catalog.set_tmux(tmux.poll());
    greenroom::engine::read_agent_screens(&mut catalog, &tmux);
    let rows = catalog.rows(chrono::Utc::now());
    (catalog, rows)
}

/// `greenroom next`. From a tmux key binding (`run-shell`: inside tmux,
/// stdout not a terminal) anything printed would open a view the operator
/// must close with `q`, so the answer goes to the status line instead.
fn run_next(config: &Config) -> std::result::Result<(), String> {
    use std::io::IsTerminal;
    let tmux_env = config.environ.tmux();
    let status_line =
        greenroom::tmux::host_from_env(tmux_env).filter(|_| !std::io::stdout().is_terminal());
    let say = |message: &str| match &status_line {
        Some(host) => {
            if let Err(e) = host.display_message(&format!("greenroom: {message}")) {
                tracing::warn!(error = %e, "cannot show a message in tmux");
            }
        }
        None => println!("{message}"),
    };
    let (_, sessions) = live_rows(config, false);
    // The dashboard's queue order: waiting, errored, stuck, ready, oldest first.
    let queue = greenroom::attention::queue(&sessions);
    let Some(session) = queue.iter().find(|s| s.can_attach()) else {
        match queue.is_empty() {
            true => say("nothing needs you right now"),
            false => say(&greenroom::cli::status::nothing_to_attach(&queue)),
        }
        return Ok(());
    };
    let tmux = Tmux::new(config.tmux_socket.clone());
    let store = greenroom::sources::sidecar::SidecarStore::new(&config.sidecar_dir);
    match greenroom::ops::attach(&tmux, &store, session, tmux_env) {
        Ok(_) => Ok(()),
        // The exit code would make run-shell open a view too.
        Err(e) if status_line.is_some() => {
            say(&e.to_string());
            Ok(())
        }
        Err(e) => Err(e.to_string()),
    }
}

fn run_ls(config: &Config, args: &ls::LsArgs) -> Result<()> {
    if args.names {
        // For shell completion: one name a line, nothing else, ever.
        let (_, sessions) = live_rows(config, args.all);
        let names: String = sessions.iter().map(|s| format!("{}\n", s.name)).collect();
        return greenroom::cli::output::write_stdout(names.as_bytes())
            .wrap_err("cannot write the list");
    }
    let now = chrono::Utc::now();
    let mut catalog = Catalog::load(config, args.all);
    catalog.load_usage();
    let tmux = Tmux::new(config.tmux_socket.clone());
    catalog.set_tmux(tmux.poll());
    greenroom::engine::read_agent_screens(&mut catalog, &tmux);
    let sessions = catalog.rows(now);
    if args.all_hosts {
        return greenroom::cli::all_hosts::print(config, args, &sessions, &catalog.problems(), now)
            .or_else(greenroom::cli::output::closed_stdout_is_fine)
            .wrap_err("cannot write the list");
    }
    ls::print(
        args,
        &sessions,
        &catalog.problems(),
        &catalog.looked_in(),
        now,
        config.environ.home().as_deref(),
    )
    .or_else(greenroom::cli::output::closed_stdout_is_fine)
    .wrap_err("cannot write the list")
}
