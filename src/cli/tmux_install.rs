//! `greenroom tmux install|uninstall`: greenroom's keys and status counts
//! in the user's tmux configuration (the block itself is
//! `sources::tmux_conf`), and, with `--apply`, in the running server.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use crate::environ::Env;
use crate::sources::{read_text_file, tmux_conf, user_file};
use crate::tmux::Tmux;

#[derive(Debug, Subcommand)]
pub enum TmuxCommand {
    /// Add greenroom's keys (prefix g: next, prefix G: the dashboard, prefix b: back) and status counts to your tmux config (idempotent)
    Install(TmuxArgs),
    /// Remove greenroom's block from your tmux config, and nothing else
    Uninstall(TmuxArgs),
}

#[derive(Debug, Args)]
pub struct TmuxArgs {
    /// Show the lines that would be added or removed, and change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Also apply the change to the running tmux server (the one this
    /// terminal is in, or --tmux-socket's)
    #[arg(long, conflicts_with = "dry_run")]
    pub apply: bool,
    /// The tmux config file [default: ~/.tmux.conf, or
    /// $XDG_CONFIG_HOME/tmux/tmux.conf when only that one exists]
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The file tmux reads that the user already has: `~/.tmux.conf` first
/// (tmux reads it first), else the XDG one; neither: a new `~/.tmux.conf`.
pub fn config_path(env: &dyn Env) -> Result<PathBuf, String> {
    let home = env
        .var("HOME")
        .map(PathBuf::from)
        .ok_or("HOME is not set; name the file with --file")?;
    let classic = home.join(".tmux.conf");
    let xdg = env
        .var("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".config"))
        .join("tmux")
        .join("tmux.conf");
    let exists = |p: &Path| fs::symlink_metadata(p).is_ok();
    Ok(if !exists(&classic) && exists(&xdg) {
        xdg
    } else {
        classic
    })
}

/// Runs install (`installing`) or uninstall; the error is one line.
pub fn run(
    args: &TmuxArgs,
    installing: bool,
    exe: &Path,
    env: &dyn Env,
    tmux: &Tmux,
) -> Result<(), String> {
    let path = match &args.file {
        Some(p) => p.clone(),
        None => config_path(env)?,
    };
    let target = follow_link(&path)?;
    let shown = path.display();
    let current = read_current(&target).map_err(|e| format!("{shown}: {e}"))?;
    let text = current.as_deref().unwrap_or("");
    let found = tmux_conf::remove(text).map_err(|e| format!("{shown}: {e}"))?;
    let replaced = if installing {
        replaced_bindings(args.apply, &found, tmux)
    } else {
        tmux_conf::bindings_to_restore(&found)
    };
    let block = if installing {
        tmux_conf::block(&exe.to_string_lossy(), &replaced).map_err(|e| format!("{shown}: {e}"))?
    } else {
        String::new()
    };
    let (new_text, lines) = if installing {
        let new_text = tmux_conf::install(text, &block).map_err(|e| format!("{shown}: {e}"))?;
        (
            new_text,
            block.lines().map(str::to_owned).collect::<Vec<_>>(),
        )
    } else {
        (found.text.clone(), found.removed.clone())
    };
    let changed = text != new_text;
    if installing {
        say_what_is_replaced(args.apply, &replaced, text, &shown.to_string());
    }
    if args.dry_run {
        print_dry_run(&lines, changed, installing, &shown.to_string());
        return Ok(());
    }
    let mut backup = None;
    if changed && !(current.is_none() && new_text.is_empty()) {
        backup =
            write(&target, current.is_some(), &new_text).map_err(|e| format!("{shown}: {e}"))?;
    }
    say_done(changed, installing, &shown.to_string(), &found.kept);
    if let Some(backup) = backup {
        println!("the file as it was is kept in {}", backup.display());
    }
    if args.apply {
        let commands = if installing {
            block
        } else {
            tmux_conf::undo_commands(&replaced)
        };
        apply(tmux, &commands, &crate::environ::temp_dir(env))?;
        println!("applied to the running tmux server");
        if !installing {
            for line in replaced.iter().filter(|l| !l.starts_with("unbind-key")) {
                println!("bound back: {line}");
            }
        }
    } else if changed {
        let verb = if installing { "install" } else { "uninstall" };
        println!(
            "tmux reads it when it starts; to change the running server now: greenroom tmux {verb} --apply"
        );
    }
    Ok(())
}

/// The running server's bindings of greenroom's keys that install replaces,
/// so that uninstall can bind them back. Installed before: what was
/// recorded then (the server's bindings are greenroom's own by now).
fn replaced_bindings(apply: bool, found: &tmux_conf::Without, tmux: &Tmux) -> Vec<String> {
    if !found.removed.is_empty() {
        return found.replaced.clone();
    }
    if !apply {
        return Vec::new();
    }
    tmux_conf::KEYS
        .iter()
        .filter_map(|(key, _)| match tmux.prefix_binding(key) {
            None => Some(tmux_conf::unbound_record(key)),
            // One an earlier greenroom bound, its block since removed by hand.
            Some(line) if line.contains("greenroom") => None,
            Some(line) => Some(line),
        })
        .collect()
}

/// One line for each binding of the user's that greenroom's keys replace:
/// in the running server (`--apply`), or in the file, where the block is
/// read after the user's own lines.
fn say_what_is_replaced(apply: bool, replaced: &[String], text: &str, shown: &str) {
    if apply {
        for line in replaced.iter().filter(|l| !l.starts_with("unbind-key")) {
            println!(
                "greenroom's key replaces your binding `{line}`; `greenroom tmux uninstall --apply` binds it back"
            );
        }
        return;
    }
    for (key, _) in tmux_conf::KEYS {
        for (n, line) in tmux_conf::user_bindings(text, key) {
            println!(
                "prefix {key} is bound at {shown} line {n} (`{line}`); greenroom's block, read after it, replaces it until `greenroom tmux uninstall`"
            );
        }
    }
}

/// What `--dry-run` shows: the lines that would be added or removed.
fn print_dry_run(lines: &[String], changed: bool, installing: bool, shown: &str) {
    let sign = if installing { "+" } else { "-" };
    for line in lines {
        println!("{sign} {line}");
    }
    let what = match (changed, installing) {
        (false, _) => "it is already up to date",
        (true, true) => "the lines above would be added at its end",
        (true, false) => "the lines above would be removed",
    };
    super::output::stderr_line(format_args!("(dry run: {shown} was not changed; {what})"));
}

/// What was done to the file, and the operator's lines that were kept.
fn say_done(changed: bool, installing: bool, shown: &str, kept: &[String]) {
    match (changed, installing) {
        (false, _) => println!("{shown} already up to date"),
        (true, true) => {
            println!("greenroom's tmux block added to {shown}:");
            for (key, what) in tmux_conf::KEYS {
                println!("  prefix {key}  {what}");
            }
            println!("  and the counts of sessions that need you in status-right");
        }
        (true, false) => println!("greenroom's tmux block removed from {shown}"),
    }
    for line in kept {
        println!("kept your line that was inside greenroom's block, where the block was: {line}");
    }
}

/// Sources only greenroom's commands (never the user's whole file again,
/// which may not be safe to run twice), from a private temporary file.
fn apply(tmux: &Tmux, commands: &str, temp_dir: &Path) -> Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let stamp = chrono::Utc::now().timestamp_nanos_opt().unwrap_or_default();
    let file = temp_dir.join(format!(
        "greenroom-tmux-{}-{stamp}.conf",
        std::process::id()
    ));
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&file)
        .and_then(|mut f| f.write_all(commands.as_bytes()));
    let result = written
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
        .and_then(|()| {
            tmux.source_file(&file)
                .map_err(|e| format!("cannot apply it to the running tmux server: {e}"))
        });
    let _ = fs::remove_file(&file);
    result
}

/// Dotfile managers link the config: the block goes into the target, and
/// the link stays.
fn follow_link(path: &Path) -> Result<PathBuf, String> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| {
            format!(
                "{}: is a symbolic link whose target cannot be read ({e}); name the file with --file",
                path.display()
            )
        }),
        _ => Ok(path.to_path_buf()),
    }
}

fn read_current(path: &Path) -> Result<Option<String>, String> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(crate::sources::io_reason(&e)),
        Ok(_) => read_text_file(path).map(Some),
    }
}

/// Backs the file up, then replaces it (see `sources::user_file`: a
/// read-only file is refused, a hard-linked one written in place, an
/// existing one keeps its mode; a new one is 0644, as tmux configs usually
/// are: nothing in it is secret). Returns the backup.
fn write(path: &Path, existed: bool, text: &str) -> Result<Option<PathBuf>, String> {
    user_file::ensure_writable(path)?;
    let backup = if existed {
        let bytes = fs::read(path).map_err(|e| crate::sources::io_reason(&e))?;
        Some(user_file::backup(path, &bytes)?)
    } else {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(|e| format!("its folder cannot be created: {e}"))?;
        }
        None
    };
    user_file::replace(path, text.as_bytes(), 0o644)
        .map_err(|e| user_file::with_backup(e, backup.as_deref()))?;
    Ok(backup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    struct Home(PathBuf);

    impl Env for Home {
        fn var(&self, key: &str) -> Option<String> {
            (key == "HOME").then(|| self.0.to_string_lossy().into_owned())
        }
    }

    fn args() -> TmuxArgs {
        TmuxArgs {
            dry_run: false,
            apply: false,
            file: None,
        }
    }

    #[test]
    fn the_config_the_user_has_is_the_one_changed() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home(dir.path().to_path_buf());
        let xdg = dir.path().join(".config/tmux/tmux.conf");
        assert_eq!(config_path(&home).unwrap(), dir.path().join(".tmux.conf"));
        fs::create_dir_all(xdg.parent().unwrap()).unwrap();
        fs::write(&xdg, "").unwrap();
        assert_eq!(config_path(&home).unwrap(), xdg);
        fs::write(dir.path().join(".tmux.conf"), "").unwrap();
        assert_eq!(config_path(&home).unwrap(), dir.path().join(".tmux.conf"));
    }

    #[test]
    fn a_linked_dotfile_stays_a_link_and_keeps_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("dotfiles/tmux.conf");
        fs::create_dir_all(target.parent().unwrap()).unwrap();
        fs::write(&target, "set -g mouse on\n").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join(".tmux.conf");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let home = Home(dir.path().to_path_buf());
        let tmux = Tmux::new(crate::tmux::TmuxSocket::Name("unused".into()));
        let exe = Path::new("/usr/local/bin/greenroom");
        run(&args(), true, exe, &home, &tmux).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let text = fs::read_to_string(&target).unwrap();
        assert!(
            text.starts_with("set -g mouse on\n\n# >>> greenroom"),
            "{text}"
        );
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        run(&args(), false, exe, &home, &tmux).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "set -g mouse on\n");
        // Uninstalling where nothing was installed creates nothing.
        let empty = tempfile::tempdir().unwrap();
        run(&args(), false, exe, &Home(empty.path().into()), &tmux).unwrap();
        assert!(!empty.path().join(".tmux.conf").exists());
    }
}
