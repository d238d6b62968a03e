//! A real OpenSSH server on loopback acting as another host: its own host
//! key, one authorized test key, and `SetEnv` giving the logged-in greenroom
//! that host's own sidecar folder, tmux socket and PATH (the built binary
//! first). Started as root (`/usr/sbin/sshd -D`), stopped on drop.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use greenroom::hosts::HostConfig;

use super::{TmuxServer, World, wait_for};

pub const SSHD: &str = "/usr/sbin/sshd";

/// Whether these tests can run here: sshd installed and we are root.
pub fn available() -> Result<(), String> {
    if !Path::new(SSHD).exists() {
        return Err(format!(
            "{SSHD} is missing (apt-get install openssh-server)"
        ));
    }
    let out = Command::new("id").arg("-u").output().unwrap();
    if String::from_utf8_lossy(&out.stdout).trim() != "0" {
        return Err("sshd tests need root".into());
    }
    Ok(())
}

/// Skips (with the reason on stderr) where sshd cannot run.
pub fn sshd_or_skip() -> bool {
    match available() {
        Ok(()) => true,
        Err(why) => {
            eprintln!("skipped: {why}");
            false
        }
    }
}

/// One "host": a World for its files, a tmux server, and its sshd.
pub struct Host {
    pub name: String,
    pub world: World,
    pub tmux: TmuxServer,
    pub port: u16,
    keys: PathBuf,
    sshd: Option<Child>,
}

fn keygen(path: &Path) {
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.success(), "ssh-keygen: {out:?}");
}

/// The client key, made once per keys folder.
pub fn client_keys(dir: &Path) -> PathBuf {
    let key = dir.join("client_key");
    if !key.exists() {
        std::fs::create_dir_all(dir).unwrap();
        keygen(&key);
    }
    key
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Host {
    /// A host whose sshd accepts `keys`' client key.
    pub fn start(name: &str, keys: &Path) -> Self {
        let client = client_keys(keys);
        let world = World::new();
        let tmux = TmuxServer::new();
        let mut host = Host {
            name: name.into(),
            world,
            tmux,
            port: free_port(),
            keys: keys.to_path_buf(),
            sshd: None,
        };
        let dir = host.world.path("sshd");
        std::fs::create_dir_all(&dir).unwrap();
        keygen(&dir.join("host_key"));
        std::fs::copy(client.with_extension("pub"), dir.join("authorized_keys")).unwrap();
        std::fs::create_dir_all(host.world.path("sessions")).unwrap();
        std::fs::create_dir_all(host.world.path("xdg")).unwrap();
        guard_home(&host.world.path("home"));
        host.start_sshd();
        host
    }

    fn config_text(&self) -> String {
        let dir = self.world.path("sshd");
        let bin = Path::new(env!("CARGO_BIN_EXE_greenroom")).parent().unwrap();
        let w = |rel: &str| self.world.path(rel).display().to_string();
        let env = [
            format!("PATH={}:/usr/local/bin:/usr/bin:/bin", bin.display()),
            format!("GREENROOM_SIDECAR_DIR={}", w("sessions")),
            format!("GREENROOM_TMUX_SOCKET={}", self.tmux.name),
            format!("GREENROOM_AO_DIR={}", w("ao")),
            format!("GREENROOM_CLAUDE_DIR={}", w("claude")),
            format!("XDG_CONFIG_HOME={}", w("xdg")),
            format!("XDG_STATE_HOME={}", w("state")),
            format!("MAESTRO_HOOKS_DIR={}", w("maestro-hooks")),
            // sshd runs the remote command through the user's login shell
            // (`bash -c`), and bash run by sshd reads `/etc/bash.bashrc` and
            // `~/.bashrc` first: the machine's own (root's: a pyenv whose
            // stale lock held every shell 60 s) must not decide whether a
            // test passes. Bash reads them only as a top-level shell
            // (`SHLVL` unset or 0), so with `SHLVL=1` it reads none; and a
            // home of the host's own, whose startup files fail loudly
            // (`guard_home`), keeps any other shell's files out too.
            "SHLVL=1".to_owned(),
            format!("HOME={}", w("home")),
            // tmux writes greenroom's field separator as `_` in the C locale.
            "LANG=C.UTF-8".to_owned(),
        ];
        format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {hk}\nPidFile {pid}\n\
             AuthorizedKeysFile {ak}\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n\
             PubkeyAuthentication yes\nPermitRootLogin yes\nStrictModes no\nUsePAM no\n\
             MaxSessions 50\nMaxStartups 50\nLogLevel ERROR\nSetEnv {env}\n",
            port = self.port,
            hk = dir.join("host_key").display(),
            pid = dir.join("sshd.pid").display(),
            ak = dir.join("authorized_keys").display(),
            env = env.join(" "),
        )
    }

    /// Starts (or starts again) this host's sshd, on the same port.
    pub fn start_sshd(&mut self) {
        assert!(self.sshd.is_none());
        // sshd's privilege separation folder.
        std::fs::create_dir_all("/run/sshd").unwrap();
        let config = self.world.path("sshd/sshd_config");
        std::fs::write(&config, self.config_text()).unwrap();
        let child = Command::new(SSHD)
            .args(["-D", "-e", "-f"])
            .arg(&config)
            .arg("-p")
            .arg(self.port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        self.sshd = Some(child);
        let port = self.port;
        wait_for(10, "sshd to listen", || {
            TcpStream::connect(("127.0.0.1", port)).ok()
        });
    }

    /// Stops this host's sshd and every connection it serves (a host gone).
    pub fn stop_sshd(&mut self) {
        if let Some(mut c) = self.sshd.take() {
            let tree = descendants(c.id());
            let _ = c.kill();
            let _ = c.wait();
            for pid in tree {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        }
    }

    /// The `[[hosts]]` entry that reaches this host.
    pub fn entry(&self) -> HostConfig {
        let key = self.keys.join("client_key");
        HostConfig {
            name: self.name.clone(),
            ssh: "root@127.0.0.1".into(),
            ssh_options: vec![
                "-F".into(),
                "/dev/null".into(),
                "-p".into(),
                self.port.to_string(),
                "-i".into(),
                key.display().to_string(),
                "-o".into(),
                "IdentitiesOnly=yes".into(),
                "-o".into(),
                "StrictHostKeyChecking=no".into(),
                "-o".into(),
                format!(
                    "UserKnownHostsFile={}",
                    self.world.path("sshd/known_hosts").display()
                ),
                "-o".into(),
                "LogLevel=ERROR".into(),
            ],
            greenroom: None,
        }
    }

    /// The entry as config.toml lines.
    pub fn toml(&self) -> String {
        let e = self.entry();
        let opts: Vec<String> = e.ssh_options.iter().map(|o| format!("{o:?}")).collect();
        format!(
            "[[hosts]]\nname = {:?}\nssh = {:?}\nssh_options = [{}]\n",
            e.name,
            e.ssh,
            opts.join(", ")
        )
    }
}

/// The test host's home, with shell startup files that fail: a remote
/// command that depends on them fails the test, saying why, instead of
/// passing or hanging with the machine's own.
fn guard_home(home: &Path) {
    std::fs::create_dir_all(home).unwrap();
    let fail = "echo \"greenroom tests: the test host's shell read a startup file in $HOME\" >&2; exit 97\n";
    for file in [
        ".bashrc",
        ".bash_profile",
        ".bash_login",
        ".profile",
        ".zshenv",
    ] {
        std::fs::write(home.join(file), fail).unwrap();
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.stop_sshd();
    }
}

/// Every process under `pid`, read from /proc.
fn descendants(pid: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: comm may hold spaces, so after ')'.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if let Some(ppid) = ppid {
            parents.push((p, ppid));
        }
    }
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|(_, pp)| *pp == parent)
                .map(|(p, _)| *p),
        );
        i += 1;
    }
    found.remove(0);
    found
}
