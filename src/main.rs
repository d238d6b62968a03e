use clap::Parser;
use color_eyre::eyre::{Result, WrapErr};

use greenroom::catalog::{Catalog, maestro_locations};
use greenroom::cli::{Cli, Command, ls};
use greenroom::config::{Config, ProcessEnv};

fn main() -> Result<()> {
    color_eyre::install()?;
    let cli = Cli::parse();
    let config = Config::load(&cli.global.overrides(), &ProcessEnv)
        .wrap_err("greenroom could not load its settings")?;
    match cli.command {
        Some(Command::Ls(args)) => run_ls(&config, &args),
        // The dashboard is not built yet; until it is, the bare command lists.
        None => run_ls(
            &config,
            &ls::LsArgs {
                json: false,
                all: false,
            },
        ),
    }
}

fn run_ls(config: &Config, args: &ls::LsArgs) -> Result<()> {
    let catalog = Catalog::load(config, args.all);
    let now = chrono::Utc::now();
    let sessions = catalog.rows(config, now);
    let mut looked_in = vec![config.sidecar_dir.clone()];
    looked_in.extend(
        maestro_locations(config, std::iter::empty()).into_iter().map(|l| l.state_folder),
    );
    looked_in.extend(config.ao_dir.clone());
    ls::print(args, &sessions, &catalog.problems(), &looked_in, now)
        .wrap_err("cannot write the list")
}
