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
