//! What a tmux pane runs, read from `/proc` (Linux): a program that runs
//! under an interpreter (Gemini CLI is `node …/gemini.js`) shows tmux only
//! the interpreter's name. Read only for a pane that changed, with bounds:
//! a few processes, a few KiB of argv each. Everything read is untrusted.
//! Also a process's ancestry (`/proc/<pid>/stat`), which `report` records
//! so that an adopted report counts only from inside its pane, when a
//! process started (what an agent wrote since then is its own), and the
//! files a process holds open (`/proc/<pid>/fd`): a hand-started Codex
//! holds its rollout.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Processes looked at per pane: its first one and its descendants.
const MAX_PROCESSES: usize = 32;
/// Levels below the pane's first process (shell, `env`, a relaunch).
const MAX_DEPTH: usize = 3;
/// Bytes of argv or of a children list read per process.
const MAX_BYTES: u64 = 8 * 1024;

fn read_bounded(path: &Path) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// A process's argv, at most the first few KiB.
pub fn argv(pid: u32) -> Vec<String> {
    read_bounded(&PathBuf::from(format!("/proc/{pid}/cmdline")))
        .unwrap_or_default()
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect()
}

/// A process's working folder.
pub fn cwd(pid: u32) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/{pid}/cwd")).ok()
}

/// The direct children of a process's main thread (empty on kernels
/// without `/proc/<pid>/task/<pid>/children`).
fn children(pid: u32) -> Vec<u32> {
    let text = read_bounded(&PathBuf::from(format!("/proc/{pid}/task/{pid}/children")))
        .unwrap_or_default();
    String::from_utf8_lossy(&text)
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

/// Open files looked at per process: Codex CLI holds some fifty (its
/// SQLite databases, their journals, its rollout).
const MAX_OPEN_FILES: usize = 1024;

/// The files a process holds open, by the paths `/proc/<pid>/fd` names
/// (at most [`MAX_OPEN_FILES`]; pipes, sockets and the like are not
/// paths and are left out). Empty for another user's process.
pub fn open_files(pid: u32) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .take(MAX_OPEN_FILES)
        .filter_map(|e| std::fs::read_link(e.path()).ok())
        .filter(|p| p.is_absolute())
        .collect()
}

/// Ancestors looked at: far more than any hook's real depth (agent, hook
/// shell, a wrapper or two, the pane's shell, tmux, init).
pub const MAX_ANCESTRY: usize = 64;

/// The parent pid in a `/proc/<pid>/stat` line: `pid (comm) state ppid …`.
/// `comm` is the program's name and may hold spaces and `)`, so the fields
/// are read after its last `)`.
pub fn parent_in_stat(stat: &str) -> Option<u32> {
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_ascii_whitespace();
    let _state = fields.next()?;
    fields.next()?.parse().ok()
}

/// `pid` and its ancestors, nearest first, up to (not including) pid 0,
/// at most [`MAX_ANCESTRY`]; it stops where a stat cannot be read.
pub fn ancestry(pid: u32) -> Vec<u32> {
    let mut out = vec![pid];
    let mut at = pid;
    while out.len() < MAX_ANCESTRY {
        let stat = read_bounded(&PathBuf::from(format!("/proc/{at}/stat"))).unwrap_or_default();
        match parent_in_stat(&String::from_utf8_lossy(&stat)) {
            Some(parent) if parent != 0 && !out.contains(&parent) => {
                out.push(parent);
                at = parent;
            }
            _ => break,
        }
    }
    out
}

/// The kernel's clock ticks per second in `/proc` times (`USER_HZ`): 100
/// on every architecture Linux runs greenroom on; reading it would take
/// `sysconf`, which is unsafe to call.
const TICKS_PER_SECOND: i64 = 100;

/// When a process started, in milliseconds since the epoch: its start in
/// ticks after boot (`/proc/<pid>/stat`) plus the boot time (`/proc/stat`).
/// Precise to a tick.
pub fn started_ms(pid: u32) -> Option<i64> {
    let stat = read_bounded(&PathBuf::from(format!("/proc/{pid}/stat")))?;
    let ticks = start_in_stat(&String::from_utf8_lossy(&stat))?;
    let boot = boot_time()?;
    let since_boot = i64::try_from(ticks).ok()?.checked_mul(1000)? / TICKS_PER_SECOND;
    boot.checked_mul(1000)?.checked_add(since_boot)
}

/// The start time in ticks after boot in a `/proc/<pid>/stat` line: its
/// 22nd field, the 20th after `comm` (read after its last `)`).
pub fn start_in_stat(stat: &str) -> Option<u64> {
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_ascii_whitespace().nth(19)?.parse().ok()
}

/// `/proc/stat` is read this far for its `btime` line, which follows a
/// line per CPU and the interrupt counts (long on large machines).
const MAX_SYSTEM_STAT_BYTES: u64 = 1024 * 1024;

/// The boot time in seconds since the epoch, from `/proc/stat`, read a
/// line at a time up to its `btime` line.
fn boot_time() -> Option<i64> {
    use std::io::BufRead;
    let file = std::fs::File::open("/proc/stat").ok()?;
    let lines = std::io::BufReader::new(file.take(MAX_SYSTEM_STAT_BYTES)).lines();
    lines.map_while(Result::ok).find_map(|l| boot_in_stat(&l))
}

/// The boot time in seconds since the epoch in `/proc/stat`'s text (its
/// `btime` line).
pub fn boot_in_stat(text: &str) -> Option<i64> {
    text.lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()
}

/// The pane's first process and its descendants, nearest first, bounded.
pub fn family(pid: u32) -> Vec<u32> {
    let mut out = vec![pid];
    let mut level = vec![pid];
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for p in level {
            for c in children(p) {
                if out.len() >= MAX_PROCESSES {
                    return out;
                }
                if !out.contains(&c) {
                    out.push(c);
                    next.push(c);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_read() {
        let me = std::process::id();
        assert!(!argv(me).is_empty());
        assert_eq!(cwd(me), std::env::current_dir().ok());
        assert_eq!(family(me)[0], me);
        assert!(argv(u32::MAX).is_empty());
    }

    #[test]
    fn the_files_a_process_holds_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("held.jsonl");
        let held = std::fs::File::create(&path).unwrap();
        let open = open_files(std::process::id());
        assert!(open.contains(&path), "{open:?}");
        drop(held);
        assert!(!open_files(std::process::id()).contains(&path));
        assert!(open_files(u32::MAX).is_empty());
    }

    #[test]
    fn the_parent_is_read_after_the_programs_name() {
        assert_eq!(parent_in_stat("42 (sh) S 7 42 42 0 -1"), Some(7));
        assert_eq!(parent_in_stat("42 (a) S 9 (b) R 1) S 8 42 0"), Some(8));
        assert_eq!(parent_in_stat("42 (x y) S 1 1"), Some(1));
        for bad in ["", "42 (sh", "42 (sh) S", "42 (sh) S -3", "42 (sh) S x"] {
            assert_eq!(parent_in_stat(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_start_is_read_after_the_programs_name() {
        let line = "42 (a) b) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 123456 8 9";
        assert_eq!(start_in_stat(line), Some(123_456));
        assert_eq!(start_in_stat("42 (sh) S 1 2"), None);
        assert_eq!(
            boot_in_stat("cpu 1 2\nbtime 1764745000\nprocesses 9\n"),
            Some(1_764_745_000)
        );
        assert_eq!(boot_in_stat("cpu 1 2\n"), None);
        // This process started before now, after boot, within a tick.
        let me = started_ms(std::process::id()).expect("readable");
        let now = chrono::Utc::now().timestamp_millis();
        assert!(me <= now + 10 && me > now - 3_600_000, "{me} vs {now}");
        assert_eq!(started_ms(u32::MAX), None);
    }

    #[test]
    fn this_process_descends_from_its_parent_and_init() {
        let me = std::process::id();
        let chain = ancestry(me);
        assert_eq!(chain[0], me);
        assert_eq!(chain[1], std::os::unix::process::parent_id());
        assert!(chain.len() <= MAX_ANCESTRY);
        assert_eq!(ancestry(u32::MAX), [u32::MAX]);
    }
}
