//! `alea dice` as a user runs it: the judge's sample byte for byte, any dice from the
//! command line, JSON, the floating-point fallback, bad input and resource guards.

mod common;

use common::{alea, assert_fails, stdout};

use serde_json::Value as Json;

fn data(name: &str) -> String {
    common::data("dice", name)
}

#[test]
fn sample_byte_for_byte_and_exact() {
    let expected = std::fs::read_to_string(data("sample.out")).unwrap();
    assert_eq!(stdout(&alea(&["dice", &data("sample.in")], b"")), expected);
    let input = std::fs::read(data("sample.in")).unwrap();
    assert_eq!(stdout(&alea(&["dice"], &input)), expected);
    assert_eq!(
        stdout(&alea(&["dice", "--exact", &data("sample.in")], b"")),
        "8/7\n216/215\n"
    );
}

#[test]
fn any_dice_from_the_command_line() {
    let args = [
        "dice", "--faces", "4,5", "--reset", "1,1", "--reset", "4,5", "--limit", "30",
    ];
    let decimal: f64 = stdout(&alea(&args, b"")).trim().parse().unwrap();
    let exact = stdout(&alea(&[&args[..], &["--exact"]].concat(), b""));
    let (p, q) = exact.trim().split_once('/').unwrap();
    let value = p.parse::<f64>().unwrap() / q.parse::<f64>().unwrap();
    assert!((decimal - value).abs() < 1e-12 * value);
    // The judge's game through the flags gives the judge's answer.
    let judge = [
        "dice", "--faces", "6,6,6", "--reset", "1,1,1", "--limit", "0", "--exact",
    ];
    assert_eq!(stdout(&alea(&judge, b"")), "216/215\n");
}

#[test]
fn json_with_a_distribution() {
    let args = [
        "dice",
        "--faces",
        "6,6,6",
        "--reset",
        "1,1,1",
        "--limit",
        "30",
        "--json",
        "--exact",
        "--distribution",
        "400",
    ];
    let o: Json = serde_json::from_str(stdout(&alea(&args, b"")).trim()).unwrap();
    let e = o["expected_throws"].as_f64().unwrap();
    assert!(o["expected_throws_exact"].as_str().unwrap().contains('/'));
    let d: Vec<f64> = o["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .collect();
    assert_eq!(d.len(), 400);
    assert_eq!(d[0], 0.0, "one throw cannot pass 30");
    let sum = 1.0 + d.iter().map(|p| 1.0 - p).sum::<f64>();
    assert!((sum - e).abs() < 1e-9 * e);
}

#[test]
fn the_largest_judge_case() {
    let out = stdout(&alea(&["dice"], b"1\n500 2 2 2 1 1 1\n"));
    let e: f64 = out.trim().parse().unwrap();
    assert!(e > 1.2e7 && e < 1.21e7);
    assert_eq!(out.trim().split_once('.').unwrap().1.len(), 15);
}

#[test]
fn expectations_beyond_f64_fall_back_to_exact() {
    // One coin reset on heads, limit 2200: 1101 tails in a row, E = 2^1102 - 2.
    let out = alea(
        &["dice", "--faces", "2", "--reset", "1", "--limit", "2200"],
        b"",
    );
    let text = stdout(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("warning: the expectation is too large for floating point"));
    // JSON keeps the value: f64 cannot, the fraction and the decimal text do.
    let json = alea(
        &[
            "dice", "--faces", "2", "--reset", "1", "--limit", "2200", "--json",
        ],
        b"",
    );
    let o: Json = serde_json::from_str(stdout(&json).trim()).unwrap();
    assert!(o["expected_throws"].is_null());
    assert_eq!(o["expected_throws_decimal"].as_str().unwrap(), text.trim());
    assert!(o["expected_throws_exact"].as_str().unwrap().ends_with("/1"));
    let (int, frac) = text.trim().split_once('.').unwrap();
    assert_eq!(frac, "000000000000000");
    assert_eq!(int.len(), 332); // 2^1102 has 332 digits
    assert!(int.ends_with('2')); // 2^1102 ends in 4; minus 2
}

#[test]
fn bad_input_is_reported_precisely() {
    assert_fails(
        &["dice"],
        b"2\n0 2 2 2 1 1 1\n",
        2,
        "error: <stdin>:3:1: the input ends inside case 2 of the 2 announced: a case is \
         `n K1 K2 K3 a b c`, 7 numbers, and it has 0",
    );
    assert_fails(
        &["dice"],
        b"1\n0 2 1 2 1 1 1\n",
        2,
        "error: <stdin>:2:5: die 2 has 1 faces",
    );
    assert_fails(
        &["dice"],
        b"1\n0 2 2 2 1 3 1\n",
        2,
        "error: <stdin>:2:11: reset combination 1 puts face 3",
    );
    assert_fails(
        &["dice"],
        b"1\n0 2 2 2 1 1\n",
        2,
        "error: <stdin>:3:1: the input ends inside case 1 of the 1 announced",
    );
    assert_fails(&["dice"], b"", 2, "error: <stdin>:1:1: the input is empty");
    assert_fails(
        &["dice", "--faces", "6,1", "--limit", "3"],
        b"",
        2,
        "error: die 2 has 1 faces",
    );
    assert_fails(
        &["dice", "--faces", "6", "--reset", "7", "--limit", "3"],
        b"",
        2,
        "error: reset combination 1 puts face 7",
    );
    assert_fails(
        &["dice", "--faces", "6", "--reset", "x", "--limit", "3"],
        b"",
        2,
        "error: --reset x: expected faces",
    );
    assert_fails(
        &[
            "dice", "--faces", "2", "--reset", "1", "--reset", "2", "--limit", "3",
        ],
        b"",
        2,
        "error: every outcome of a throw is a reset",
    );
    assert_fails(
        &["dice", "--faces", "6"],
        b"",
        2,
        "error: --faces needs --limit N",
    );
    assert_fails(
        &["dice", "--faces", "2,2,2,2,2,2,2,2,2", "--limit", "1"],
        b"",
        2,
        "error: a game has at most 8 dice",
    );
}

#[test]
fn resource_guards_stop_with_status_3() {
    assert_fails(
        &["dice", "--faces", "6", "--limit", "10000000000"],
        b"",
        3,
        "error: the limit 10000000000 takes 60000000006 steps (10000000001 counters x 6 sums), above --max-work 10000000000; raise --max-work",
    );
    assert_fails(
        &[
            "dice",
            "--faces",
            "100,100,100,100,100,100,100,100",
            "--limit",
            "10000",
            "--exact",
        ],
        b"",
        3,
        "error: exact arithmetic for the limit 10000 would take about",
    );
    assert_fails(
        &["dice"],
        b"2\n0 2 2 2 1 1 1\n99999999999 2 2 2 1 1 1\n",
        3,
        "error: case 2: the limit 99999999999 takes",
    );
    // The exact fallback of a game too large for f64 is guarded too.
    assert_fails(
        &[
            "dice",
            "--faces",
            "2",
            "--reset",
            "1",
            "--limit",
            "3000",
            "--max-exact-work",
            "1000",
        ],
        b"",
        3,
        "error: exact arithmetic for the limit 3000",
    );
    assert_fails(
        &[
            "dice",
            "--faces",
            "6",
            "--limit",
            "1000000",
            "--json",
            "--distribution",
            "100000",
        ],
        b"",
        3,
        "error: --distribution 100000 would take",
    );
    let raised = alea(
        &["dice", "--faces", "6", "--limit", "20", "--max-work", "126"],
        b"",
    );
    assert!(stdout(&raised).starts_with("6.")); // about 6.19 throws
}
