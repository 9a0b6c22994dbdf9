//! What every command-line test needs: run the binary, read its answer, check a failure.

#![allow(dead_code)] // each test file uses a different part

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// A fixture of `game`, copied from the judges' samples and known answers.
pub fn data(game: &str, name: &str) -> String {
    format!("{}/tests/data/{game}/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `alea` with `args`, feeding `stdin`.
pub fn alea(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the alea binary starts");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// The standard output of a run that must succeed.
pub fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// A run that must fail with `code`, print nothing on stdout, and start stderr with
/// `expected`.
pub fn assert_fails(args: &[&str], stdin: &[u8], code: i32, expected: &str) {
    let out = alea(args, stdin);
    assert_eq!(out.status.code(), Some(code), "{args:?}");
    assert!(out.stdout.is_empty(), "nothing on stdout");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(expected), "{err}");
}

/// The longest a cluster test may run before its processes are killed and it fails.
pub const CLUSTER_DEADLINE: std::time::Duration = std::time::Duration::from_secs(120);

/// Writes a host file for `processes` processes on loopback, ports from `port` on.
pub fn hostfile(dir: &std::path::Path, processes: usize, port: u16) -> String {
    let path = dir.join(format!("hosts-{port}"));
    let text: String = (0..processes)
        .map(|i| format!("127.0.0.1:{}\n", port + i as u16))
        .collect();
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Runs `alea` with `args` as the `processes` processes of a cluster on loopback (ports
/// from `port` on, `workers` threads each); their outputs in process order. Every
/// process is killed, and the test fails, past [`CLUSTER_DEADLINE`].
pub fn cluster(args: &[&str], processes: usize, workers: usize, port: u16) -> Vec<Output> {
    let dir = tempfile::tempdir().unwrap();
    let hosts = hostfile(dir.path(), processes, port);
    let children: Vec<std::process::Child> = (0..processes)
        .map(|i| {
            Command::new(env!("CARGO_BIN_EXE_alea"))
                .args(args)
                .args(["--cluster", "--processes", &processes.to_string()])
                .args([
                    "--process",
                    &i.to_string(),
                    "--workers",
                    &workers.to_string(),
                ])
                .args(["--hostfile", &hosts, "--timeout", "30"])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the alea binary starts")
        })
        .collect();
    finish(children, CLUSTER_DEADLINE)
}

/// Waits for every child, killing them all past `deadline`.
pub fn finish(
    mut children: Vec<std::process::Child>,
    deadline: std::time::Duration,
) -> Vec<Output> {
    let started = std::time::Instant::now();
    while children.iter_mut().any(|c| c.try_wait().unwrap().is_none()) {
        if started.elapsed() > deadline {
            for c in &mut children {
                let _ = c.kill();
            }
            panic!("the processes did not stop within {deadline:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}
