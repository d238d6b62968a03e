//! The dashboard as a user runs it: the release binary in a pseudo-terminal
//! of 160x48 this benchmark owns (through `script`), each screen its bytes
//! drew kept with when they arrived (a terminal emulator reads them, as the
//! operator's terminal would), so a figure is the frame leaving greenroom,
//! not a capture of it.

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

type Screens = Arc<Mutex<Vec<(Instant, String)>>>;

pub struct Dashboard {
    script: Child,
    screens: Screens,
}

impl Dashboard {
    /// Runs `line` (which starts with `stty cols 160 rows 48; exec …`).
    pub fn start(line: &str) -> Self {
        let mut script = Command::new("script")
            .args(["-qfc", line, "/dev/null"])
            .env("TERM", "xterm-256color")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("script(1) runs (bsdutils)");
        let mut stdout = script.stdout.take().unwrap();
        let screens: Screens = Arc::new(Mutex::new(Vec::new()));
        let sink = screens.clone();
        std::thread::spawn(move || {
            let mut screen = vt100::Parser::new(48, 160, 0);
            let mut buf = [0u8; 65536];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let at = Instant::now();
                screen.process(&buf[..n]);
                sink.lock().unwrap().push((at, screen.screen().contents()));
            }
        });
        Dashboard { script, screens }
    }

    /// greenroom itself: the child of `script`.
    pub fn pid(&self) -> u32 {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(p) = super::proc::children_of(self.script.id()).first() {
                return *p;
            }
            assert!(Instant::now() < deadline, "greenroom did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// When the bytes that put `needle` on the screen left greenroom, after `since`.
    pub fn wait_for(&self, needle: &str, since: Instant, secs: u64) -> Option<Instant> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < deadline {
            {
                let screens = self.screens.lock().unwrap();
                let hit = screens
                    .iter()
                    .filter(|(t, _)| *t >= since)
                    .find(|(_, screen)| screen.contains(needle));
                if let Some((t, _)) = hit {
                    return Some(*t);
                }
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        None
    }

    /// Types `bytes` on the dashboard's terminal.
    pub fn type_bytes(&mut self, bytes: &[u8]) {
        use std::io::Write;
        let stdin = self.script.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The screen as the last bytes left it.
    pub fn screen(&self) -> String {
        let screens = self.screens.lock().unwrap();
        screens.last().map(|(_, s)| s.clone()).unwrap_or_default()
    }
}

impl Drop for Dashboard {
    fn drop(&mut self) {
        let _ = self.script.kill();
        let _ = self.script.wait();
    }
}
