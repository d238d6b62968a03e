//! Every file format greenroom reads or writes lives under this module.
//! Readers never panic and never fail the whole catalog: a bad file becomes
//! a [`Problem`](crate::model::Problem) and every other session keeps working.

pub mod adopted;
pub mod ao;
pub mod atomic;
pub mod claude_registry;
pub mod codex_config;
pub mod codex_rollout;
pub mod codex_screen;
pub mod gemini;
pub mod json_spans;
pub mod jsonl;
pub mod keyed_store;
pub mod looks;
pub mod maestro;
pub mod opencode_cli;
pub mod opencode_db;
pub mod opencode_screen;
pub mod parallel;
pub mod prices;
pub mod procs;
pub mod rate;
pub mod screen_text;
pub mod sidecar;
pub mod snooze;
pub mod timed_usage;
pub mod tmux_conf;
pub mod transcript;
pub mod user_file;
pub mod wire;

use std::fs;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;

/// `O_NOFOLLOW` (Linux; the BSDs): a planted symlink cannot redirect an
/// open, whether greenroom reads a file or writes a lock or temp file.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) const O_NOFOLLOW: i32 = 0o400000;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) const O_NOFOLLOW: i32 = 0x0100;
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) const O_NONBLOCK: i32 = 0o4000;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) const O_NONBLOCK: i32 = 0x0004;
#[cfg(any(target_os = "linux", target_os = "android"))]
const ELOOP: i32 = 40;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const ELOOP: i32 = 62;
use std::path::Path;

/// The largest file any reader accepts: every format greenroom reads is a
/// small record, so anything bigger is refused rather than held in memory.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Reads a small text file the way every reader must: no symlinks followed,
/// nothing over [`MAX_FILE_BYTES`], no binary, valid UTF-8, BOM removed.
/// The error is the reason shown to the operator.
pub fn read_text_file(path: &Path) -> Result<String, String> {
    decode_text(read_regular_file(path, false)?)
}

/// As [`read_text_file`], but a file that is not there is `Ok(None)`, not
/// a problem: one look at the path rather than two (at 10,000 Maestro
/// state folders, looking up the path is a quarter of start-up's reads).
pub fn read_text_file_if_present(path: &Path) -> Result<Option<String>, String> {
    match regular_file_bytes(path, false)? {
        Some(bytes) => decode_text(bytes).map(Some),
        None => Ok(None),
    }
}

/// As [`read_text_file`], but a symbolic link to a regular file is
/// followed: for the operator's own settings, which dotfile managers link.
pub fn read_linked_text_file(path: &Path) -> Result<String, String> {
    decode_text(read_regular_file(path, true)?)
}

/// The bytes of a regular file of at most [`MAX_FILE_BYTES`]. A FIFO, a
/// device (`/dev/zero`) or a socket is refused before it is read, and the
/// open never blocks, so nothing can hang greenroom or fill its memory.
fn read_regular_file(path: &Path, follow_links: bool) -> Result<Vec<u8>, String> {
    regular_file_bytes(path, follow_links)?.ok_or_else(|| "does not exist".into())
}

/// [`read_regular_file`]; `None` when nothing is at `path`.
fn regular_file_bytes(path: &Path, follow_links: bool) -> Result<Option<Vec<u8>>, String> {
    let meta = match if follow_links {
        fs::metadata(path)
    } else {
        fs::symlink_metadata(path)
    } {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_reason(&e)),
    };
    if meta.file_type().is_symlink() {
        return Err("is a symbolic link; greenroom does not follow links here".into());
    }
    if meta.is_dir() {
        return Err("is a folder where a file was expected".into());
    }
    if !meta.is_file() {
        return Err(NOT_REGULAR.into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "is {} bytes, over the 1 MiB limit; not read",
            meta.len()
        ));
    }
    // Opened without blocking (and without following links where they are
    // refused), then checked again: a link or a FIFO swapped in after the
    // check above is refused.
    let flags = if follow_links {
        O_NONBLOCK
    } else {
        O_NOFOLLOW | O_NONBLOCK
    };
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(ELOOP) => "is a symbolic link; greenroom does not follow links here".into(),
            _ => io_reason(&e),
        })?;
    if !file.metadata().map_err(|e| io_reason(&e))?.is_file() {
        return Err(NOT_REGULAR.into());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file may grow between stat and read: never take more than the cap.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_reason(&e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err("grew over the 1 MiB limit while being read; not read".into());
    }
    Ok(Some(bytes))
}

/// The reason given for a FIFO, a device or a socket.
pub const NOT_REGULAR: &str = "is not a regular file (a FIFO, device or socket?); not opened";

/// UTF-8 text without NUL bytes, with a leading BOM removed.
pub fn decode_text(bytes: Vec<u8>) -> Result<String, String> {
    if bytes.contains(&0) {
        return Err("is binary (contains NUL bytes), not text".into());
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "is not valid UTF-8 (at byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// A short, operator-facing reason for an IO error.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "does not exist".into(),
        std::io::ErrorKind::PermissionDenied => "cannot be read: permission denied".into(),
        _ => format!("cannot be read: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_is_removed_and_nul_is_binary() {
        assert_eq!(decode_text(b"\xef\xbb\xbfhi".to_vec()), Ok("hi".into()));
        assert!(
            decode_text(b"a\0b".to_vec())
                .unwrap_err()
                .contains("binary")
        );
        assert!(
            decode_text(vec![0xff, 0xfe, 0x41])
                .unwrap_err()
                .contains("UTF-8")
        );
    }
}
