//! greenroom's OpenCode plugin: one file greenroom owns, `greenroom.js` in
//! a folder OpenCode loads plugins from by itself (`plugins/` under its
//! config folder, `~/.config/opencode` or the project's `.opencode`; OpenCode
//! 1.18 globs `{plugin,plugins}/*.{ts,js}` there). Nothing else is touched:
//! not OpenCode's config, not another plugin. The file says it is
//! greenroom's on its first line; a file of that name that does not is the
//! operator's, and is refused rather than replaced or removed.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::Outcome;
use crate::sources::{io_reason, read_text_file_if_present, user_file};

/// The plugin's text, with `@FORMAT@` and `@GREENROOM@` to fill in.
const TEMPLATE: &str = include_str!("opencode_plugin.js");

/// Which plugin a file holds, for the operator reading it: the text
/// itself decides whether an install rewrites it.
pub const FORMAT: u32 = 1;

/// The start of the plugin's first line: how greenroom knows its file.
const MARK: &str = "// greenroom's OpenCode plugin, format ";

pub const FILE_NAME: &str = "greenroom.js";

/// The plugin's file under an OpenCode config folder.
pub fn plugin_path(opencode_dir: &Path) -> PathBuf {
    opencode_dir.join("plugins").join(FILE_NAME)
}

/// The plugin that runs `<exe> report`. The path is written as a
/// JavaScript string (JSON's rules are JavaScript's), so no character of
/// it can end the string; a path that is not UTF-8 cannot be written.
pub fn render(exe: &Path) -> Result<String, String> {
    let exe = exe.to_str().ok_or_else(|| {
        format!(
            "greenroom's own path {} is not UTF-8, which the plugin cannot hold",
            exe.display()
        )
    })?;
    let literal = serde_json::to_string(exe).map_err(|e| e.to_string())?;
    Ok(TEMPLATE
        .replacen("@FORMAT@", &FORMAT.to_string(), 1)
        .replacen("@GREENROOM@", &literal, 1))
}

/// Whether a file's text is a greenroom plugin (any format).
pub fn is_greenroom_plugin(text: &str) -> bool {
    text.starts_with(MARK)
}

/// Writes the plugin, unless the file already holds exactly it.
pub fn install(path: &Path, exe: &Path, dry_run: bool) -> Result<Outcome, String> {
    let at = |reason: String| format!("{}: {reason}", path.display());
    let new_text = render(exe).map_err(at)?;
    let current = current(path).map_err(at)?;
    let changed = current.as_deref() != Some(new_text.as_str());
    if changed && !dry_run {
        user_file::ensure_writable(path).map_err(at)?;
        super::settings_file::create_parent(path).map_err(at)?;
        user_file::replace(path, new_text.as_bytes(), 0o644).map_err(at)?;
    }
    Ok(Outcome {
        path: path.to_path_buf(),
        backup: None,
        changed,
        new_text,
    })
}

/// Removes the plugin; a missing file has nothing to remove.
pub fn uninstall(path: &Path, dry_run: bool) -> Result<Outcome, String> {
    let at = |reason: String| format!("{}: {reason}", path.display());
    let changed = current(path).map_err(at)?.is_some();
    if changed && !dry_run {
        match fs::remove_file(path) {
            Err(e) if e.kind() != ErrorKind::NotFound => {
                return Err(at(format!("cannot be removed: {}", io_reason(&e))));
            }
            _ => {}
        }
    }
    Ok(Outcome {
        path: path.to_path_buf(),
        backup: None,
        changed,
        new_text: String::new(),
    })
}

/// The file's text when it is greenroom's plugin; `None` when there is no
/// file. A link, a special file or the operator's own plugin is refused.
fn current(path: &Path) -> Result<Option<String>, String> {
    let text = read_text_file_if_present(path).map_err(|e| format!("{e}; not changed"))?;
    match text {
        Some(t) if !is_greenroom_plugin(&t) => Err(
            "is not greenroom's plugin (its first line does not say so), so greenroom leaves it \
             as it is; rename it and run this again; not changed"
                .into(),
        ),
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_path_is_a_javascript_string_whatever_it_holds() {
        let text = render(Path::new("/opt/g\"r'een`${x}\\room/greenroom")).unwrap();
        assert!(is_greenroom_plugin(&text));
        assert!(text.contains(r#"const GREENROOM = "/opt/g\"r'een`${x}\\room/greenroom""#));
        assert!(!text.contains("@GREENROOM@") && !text.contains("@FORMAT@"));
        assert!(text.starts_with("// greenroom's OpenCode plugin, format 1."));
    }

    /// The plugin sends the events `greenroom report` reads, and no others.
    #[test]
    fn the_plugin_sends_the_events_report_reads() {
        let line = TEMPLATE
            .lines()
            .find(|l| l.starts_with("const EVENTS = new Set(["))
            .unwrap();
        let quoted: Vec<String> = super::super::OPENCODE_EVENTS
            .iter()
            .map(|e| format!("\"{e}\""))
            .collect();
        assert_eq!(
            line,
            format!("const EVENTS = new Set([{}])", quoted.join(", "))
        );
    }
}
