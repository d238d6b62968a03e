//! Following an append-only JSONL file: each call reads only the bytes
//! appended since the last one and hands over the complete lines. A file
//! that shrank or was replaced (another inode) is read again from the
//! start, and the caller is told to forget what it counted. A line over
//! the limit is skipped, never held in memory.

use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The position in one followed file.
#[derive(Debug, Clone, Default)]
pub struct JsonlTail {
    path: PathBuf,
    offset: u64,
    inode: u64,
    partial: Vec<u8>,
    skipping_long_line: bool,
    max_line: usize,
}

impl JsonlTail {
    pub fn new(path: impl Into<PathBuf>, max_line: usize) -> Self {
        Self {
            path: path.into(),
            max_line,
            ..Self::default()
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes read so far (the next read starts here).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn restart(&mut self, inode: u64) {
        self.offset = 0;
        self.inode = inode;
        self.partial = Vec::new();
        self.skipping_long_line = false;
    }

    /// Calls `line` for every complete line appended since the last call;
    /// first `restarted` when the file is gone, shrank or was replaced, so
    /// the caller forgets what it counted (the lines then come from the
    /// start). A missing file is an empty one; a non-file is an error.
    pub fn read_new(
        &mut self,
        restarted: impl FnOnce(),
        mut line: impl FnMut(&[u8]),
    ) -> Result<(), String> {
        let meta = match std::fs::symlink_metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if self.offset > 0 || self.inode != 0 {
                    restarted();
                }
                self.restart(0);
                return Ok(());
            }
            Err(e) => return Err(format!("cannot read: {e}")),
        };
        if !meta.is_file() {
            return Err("is not a regular file".into());
        }
        if meta.ino() != self.inode || meta.len() < self.offset {
            if self.inode != 0 || self.offset > 0 {
                restarted();
            }
            self.restart(meta.ino());
        }
        if meta.len() == self.offset {
            return Ok(());
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(super::O_NOFOLLOW)
            .open(&self.path);
        let mut file: File = file.map_err(|e| format!("cannot open: {e}"))?;
        file.seek(SeekFrom::Start(self.offset))
            .map_err(|e| format!("cannot seek: {e}"))?;
        let mut reader = BufReader::with_capacity(64 * 1024, file);
        loop {
            let buf = reader.fill_buf().map_err(|e| format!("cannot read: {e}"))?;
            if buf.is_empty() {
                break;
            }
            let (chunk, ends_line) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], true),
                None => (buf, false),
            };
            let used = chunk.len() + usize::from(ends_line);
            if !self.skipping_long_line {
                if self.partial.len() + chunk.len() > self.max_line {
                    self.skipping_long_line = true;
                    self.partial = Vec::new();
                } else {
                    self.partial.extend_from_slice(chunk);
                }
            }
            reader.consume(used);
            self.offset += used as u64;
            if ends_line {
                if !self.skipping_long_line {
                    line(&std::mem::take(&mut self.partial));
                }
                self.skipping_long_line = false;
            }
        }
        Ok(())
    }
}
