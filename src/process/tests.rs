//! The runner against real small programs (`sh`, `cat`, `sleep`, `env`).

use super::*;

fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout: Duration::from_millis(timeout_ms),
        stdout: 1 << 20,
        stderr: 1 << 10,
        overflow: Overflow::Cut,
    }
}

fn sh(script: &str) -> Spec {
    let mut spec = Spec::new("sh");
    spec.args(["-c", script]);
    spec
}

#[test]
fn stdout_and_stderr_come_back() {
    let out = sh("printf hello; printf oops >&2")
        .run(limits(5000))
        .unwrap();
    assert_eq!((out.code, out.cut), (0, false));
    assert_eq!(out.stdout, b"hello");
    assert_eq!(out.stderr, b"oops");
}

#[test]
fn a_failure_carries_its_code_and_stderr() {
    match sh("echo why >&2; exit 3").run(limits(5000)) {
        Err(ProcessError::Exited { code, stderr, .. }) => {
            assert_eq!(code, Some(3));
            assert_eq!(stderr, b"why\n");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_code_named_an_answer_keeps_its_output() {
    let out = sh("echo differ; exit 1")
        .answer(1)
        .run(limits(5000))
        .unwrap();
    assert_eq!(
        (out.code, out.stdout.as_slice()),
        (1, b"differ\n".as_slice())
    );
}

#[test]
fn a_child_past_its_time_is_killed() {
    let started = Instant::now();
    let mut spec = Spec::new("sleep");
    spec.arg("30");
    match spec.run(limits(200)) {
        Err(e @ ProcessError::TimedOut { .. }) => assert!(e.to_string().contains("sleep")),
        other => panic!("{other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn input_reaches_the_child_and_a_large_one_does_not_block() {
    let big: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    let mut spec = Spec::new("cat");
    spec.input(big.clone());
    let out = spec
        .run(Limits {
            stdout: 4 << 20,
            ..limits(20_000)
        })
        .unwrap();
    assert!(out.stdout == big, "{} bytes back", out.stdout.len());
}

#[test]
fn a_child_that_never_reads_its_input_is_still_bounded() {
    let mut spec = Spec::new("sleep");
    spec.arg("30").input(vec![b'x'; 4 << 20]);
    let started = Instant::now();
    assert!(matches!(
        spec.run(limits(200)),
        Err(ProcessError::TimedOut { .. })
    ));
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn stdout_past_its_cap_is_cut_and_drained() {
    let out = sh("head -c 300000 /dev/zero; echo end >&2")
        .run(Limits {
            stdout: 1000,
            ..limits(10_000)
        })
        .unwrap();
    assert_eq!((out.stdout.len(), out.cut), (1000, true));
    assert_eq!(out.stderr, b"end\n");
}

#[test]
fn stdout_past_its_cap_can_end_the_child() {
    let started = Instant::now();
    let run = Spec::new("yes").run(Limits {
        stdout: 1000,
        overflow: Overflow::Fail,
        ..limits(20_000)
    });
    assert!(
        matches!(run, Err(ProcessError::OverCap { cap: 1000, .. })),
        "{run:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn stderr_keeps_its_tail() {
    let run =
        sh("i=0; while [ $i -lt 500 ]; do echo line$i >&2; i=$((i+1)); done; exit 2").run(Limits {
            stderr: 16,
            ..limits(10_000)
        });
    match run {
        Err(ProcessError::Exited { stderr, .. }) => {
            assert_eq!(stderr.len(), 16);
            assert!(stderr.ends_with(b"line499\n"), "{stderr:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_pipe_left_open_behind_the_child_does_not_hold_the_answer() {
    // The background `sleep` keeps both pipes open after `sh` exits, as
    // ssh's control master does.
    let started = Instant::now();
    let out = sh("sleep 3 & echo done").run(limits(300)).unwrap();
    assert_eq!(out.stdout, b"done\n");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_missing_program_is_told_apart() {
    let run = Spec::new("/nonexistent/greenroom-test-program").run(limits(1000));
    assert!(run.as_ref().is_err_and(ProcessError::not_found), "{run:?}");
    assert!(!sh("exit 1").run(limits(5000)).unwrap_err().not_found());
}

fn env_keys(spec: &Spec) -> Vec<String> {
    let out = spec.run(limits(5000)).unwrap();
    let mut keys: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('=').map(|(k, _)| k.to_owned()))
        .collect();
    keys.sort();
    keys
}

#[test]
fn the_environment_is_kept_only_as_asked() {
    let mut spec = Spec::new("/usr/bin/env");
    spec.environment(Environment::Only(&["PATH"]))
        .env("GREENROOM_A", "1")
        .env("GREENROOM_B", "2")
        .env_remove("GREENROOM_B");
    let mut want = vec!["GREENROOM_A".to_owned()];
    if !crate::environ::live_only(&["PATH"]).is_empty() {
        want.push("PATH".to_owned());
    }
    assert_eq!(env_keys(&spec), want);
}

#[test]
fn the_folder_is_the_one_asked() {
    let mut spec = Spec::new("pwd");
    spec.current_dir("/");
    assert_eq!(spec.run(limits(5000)).unwrap().stdout, b"/\n");
}
